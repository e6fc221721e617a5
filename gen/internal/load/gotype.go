package load

import (
	"go/token"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"gopkg.in/yaml.v3"
)

// goTypeKey binds an input (a variable, a property or the items of an
// array) to an existing Go struct type; gen/internal/bind loads it.
const goTypeKey = "goType"

// goType reads the value of goType: an import path, a dot and an exported
// type name, after any number of "[]" for lists of it. The Go type gives
// the shape, so the keywords that would give it too are errors; whether
// the input is optional comes from `required` or `optional`, as for any
// other. The struct type it returns has no fields until bind loads them.
func (f *yamlFile) goType(e pair, kw map[string]pair) *ir.Type {
	for _, k := range []string{"type", "properties", "required", "items", "additionalProperties", "enum"} {
		if p, ok := kw[k]; ok {
			f.errorf(p.k, "%q does not go with %q: the Go type gives the shape", k, goTypeKey)
		}
	}
	value, ok := f.str(e)
	if !ok {
		return unknownType()
	}
	s, lists := value, 0
	for strings.HasPrefix(s, "[]") {
		s, lists = s[2:], lists+1
	}
	dot := strings.LastIndexByte(s, '.')
	path, name := s[:max(dot, 0)], s[dot+1:]
	switch {
	case strings.HasPrefix(s, "*"):
		f.errorf(e.v, "invalid %s %q: an input is optional by `required` or `optional`, and then a pointer in Go (write the type without *)", goTypeKey, value)
		return unknownType()
	case dot <= 0 || !validImportPath(path) || !token.IsIdentifier(name) || !token.IsExported(name):
		f.errorf(e.v, "invalid %s %q (write an import path, a dot and an exported type name, like example.com/crm.Customer, or []example.com/crm.Item for a list of them)", goTypeKey, value)
		return unknownType()
	}
	t := &ir.Type{Kind: ir.KindStruct, Declared: true, Go: &ir.GoType{Path: path, Name: name, Pos: f.pos(e.v)}}
	for range lists {
		t = &ir.Type{Kind: ir.KindList, Elem: t}
	}
	return t
}

// validImportPath reports whether p looks like an import path: slash-separated
// elements of letters, digits and the punctuation module paths allow.
func validImportPath(p string) bool {
	for _, elem := range strings.Split(p, "/") {
		if elem == "" || elem == "." || elem == ".." {
			return false
		}
		for _, r := range elem {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-._~+", r)) {
				return false
			}
		}
	}
	return true
}

// autobind reads a set's `autobind:` list of import paths.
func (f *yamlFile) autobind(n *yaml.Node) []ir.GoPackage {
	if n.Kind != yaml.SequenceNode {
		f.wrongKind(n, `"autobind"`, "a list of import paths")
		return nil
	}
	var pkgs []ir.GoPackage
	for _, c := range n.Content {
		switch {
		case !isString(c):
			f.wrongKind(c, "an autobind entry", "an import path")
		case !validImportPath(c.Value):
			f.errorf(c, "invalid import path %q", c.Value)
		case slices.ContainsFunc(pkgs, func(p ir.GoPackage) bool { return p.Path == c.Value }):
			f.errorf(c, "duplicate autobind package %q", c.Value)
		default:
			pkgs = append(pkgs, ir.GoPackage{Path: c.Value, Pos: f.pos(c)})
		}
	}
	return pkgs
}

// filters reads `filters:`, a mapping of filter names to Go functions (an
// import path, a dot and an exported function name); gen/internal/bind
// loads them. A name may not be one of Jinja2's built-in filters: the
// template would mean one thing in Jinja2 and another here.
func (f *yamlFile) filters(e pair) []*ir.GoFilter {
	if !f.isMapping(e) {
		return nil
	}
	var out []*ir.GoFilter
	for _, p := range f.entries(e.v, "filter", false) {
		value, ok := f.str(p)
		if !ok {
			continue
		}
		dot := strings.LastIndexByte(value, '.')
		path, name := value[:max(dot, 0)], value[dot+1:]
		switch {
		case !token.IsIdentifier(p.key):
			f.errorf(p.k, "invalid filter name %q (a filter name is a letter or _ and then letters, digits and _)", p.key)
		case slices.Contains(ir.Jinja2Filters, p.key):
			f.errorf(p.k, "filter %q would shadow Jinja2's built-in filter %q (give the Go filter another name)", p.key, p.key)
		case dot <= 0 || !validImportPath(path) || !token.IsIdentifier(name) || !token.IsExported(name):
			f.errorf(p.v, "invalid Go function %q for filter %q (write an import path, a dot and an exported function name, like example.com/app/textutil.Redact)", value, p.key)
		default:
			out = append(out, &ir.GoFilter{Name: p.key, Path: path, Func: name, Pos: f.pos(p.v)})
		}
	}
	slices.SortFunc(out, func(a, b *ir.GoFilter) int { return strings.Compare(a.Name, b.Name) })
	return out
}
