package gen

import (
	"go/token"
	"path"
	"strconv"
	"strings"
	"unicode"

	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/names"
)

// Suffixes of derived names; they are reserved in the package scope.
const (
	suffixFeed   = "Feed"
	suffixItem   = "Item"
	suffixPrompt = "Prompt"
	// suffixOutput names the output type, <Prompt>Output, and prefixes
	// the types inside it.
	suffixOutput = "Output"
	// suffixExample names the type of one example, <Prompt>Example.
	suffixExample = "Example"
	// suffixFragment names a fragment's function, <Name>Fragment, and
	// suffixParams its variables, <Name>FragmentParams.
	suffixFragment = "Fragment"
	suffixParams   = "Params"
)

// namePrompts decides every Go name of the checked prompts: prompt values,
// struct types and fields. Collisions are errors at both positions. It
// returns the package scope, for the names of template sets.
func namePrompts(ps []*ir.Prompt, diags *diag.Sink) *names.Scope {
	pkg := names.NewScope("SupportPackageIsVersion1")
	for _, p := range ps {
		key := path.Base(p.Spec.Key)
		name, pos, ok := goName(key, p.Spec.GoName, p.Spec.Pos, p.Spec.GoNamePos, "prompt name", diags)
		if ok && p.Spec.Fragment {
			// The fragment's own name is claimed too, so a prompt or set
			// of the same name is an error at both, not a near miss.
			if claim(pkg, diags, name, p.Spec.Key, pos) && claim(pkg, diags, name+suffixFragment, p.Spec.Key, pos) {
				p.Name = name + suffixFragment
				nameStruct(pkg, diags, p.Feed, p.Name+suffixParams, p.Spec.Key, pos, feedMethods)
			} else {
				nameStruct(names.NewScope(), diags, p.Feed, "X"+suffixFeed, p.Spec.Key, pos, feedMethods)
			}
		} else if ok && claim(pkg, diags, name, p.Spec.Key, pos) {
			p.Name = name
			p.TypeName = "_" + name + suffixPrompt
			nameStruct(pkg, diags, p.Feed, name+suffixFeed, p.Spec.Key, pos, feedMethods)
			if p.Output != nil {
				nameOutput(pkg, diags, p)
			}
			if len(p.Spec.Examples) > 0 {
				p.ExampleName = name + suffixExample
				claim(pkg, diags, p.ExampleName, p.Spec.Key+".examples", pos)
			}
		} else {
			// Still check the fields, in a scope of their own.
			nameStruct(names.NewScope(), diags, p.Feed, "X"+suffixFeed, p.Spec.Key, pos, feedMethods)
		}
		p.Structs = structsOf(p.Feed, nil)
	}
	return pkg
}

// goName is the exported Go name of key, or its go_name override, with the
// position that later errors about the name point at.
func goName(key, override string, keyPos, overridePos Pos, noun string, diags *diag.Sink) (string, Pos, bool) {
	if override != "" {
		if !token.IsIdentifier(override) || !token.IsExported(override) {
			diags.Errorf(overridePos, "go_name %q is not an exported Go identifier", override)
			return "", overridePos, false
		}
		return override, overridePos, true
	}
	name, ok := names.Exported(key)
	if !ok {
		diags.Errorf(keyPos, "%s %q does not make a Go name (set go_name)", noun, key)
	}
	return name, keyPos, ok
}

// claim records goName for key, reporting a collision at both positions.
func claim(s *names.Scope, diags *diag.Sink, goName, key string, pos Pos) bool {
	owner, ownerPos, ok := s.Claim(goName, key, pos)
	if ok {
		return true
	}
	if ownerPos.File == "" {
		diags.Errorf(pos, "%q maps to %s, which promptgen generates itself (set go_name)", key, goName)
		return false
	}
	diags.Errorf(pos, "%q and %q (%s) both map to %s; set go_name on one", key, owner, shortPos(ownerPos, pos), goName)
	diags.Errorf(ownerPos, "%q and %q (%s) both map to %s; set go_name on one", owner, key, shortPos(pos, ownerPos), goName)
	return false
}

// shortPos names p relative to from: "line 3" in the same file.
func shortPos(p, from Pos) string {
	if p.File == from.File {
		return "line " + strconv.Itoa(p.Line)
	}
	return p.String()
}

// nameStruct names struct type t and, below it, its fields and nested
// struct types. key and pos name what t belongs to in messages: the prompt
// for a feed, the dotted variable path for a nested type. methods are the
// names the generated type already has (Validate, Merge, ...).
func nameStruct(pkg *names.Scope, diags *diag.Sink, t *ir.Type, name, key string, pos Pos, methods []string) {
	t = t.Resolve()
	if t.Name != "" {
		return
	}
	t.Name = name
	claim(pkg, diags, name, key, pos)
	fields := names.NewScope(methods...)
	for _, f := range t.Fields {
		fieldName, pos, ok := goName(f.Key, f.GoNameOverride, f.Pos, f.GoNamePos, "variable", diags)
		if !ok {
			continue
		}
		f.GoName = fieldName
		claim(fields, diags, fieldName, f.Key, pos)
		prefix, isFeed := strings.CutSuffix(name, suffixFeed)
		if !isFeed {
			prefix = strings.TrimSuffix(name, suffixParams) // a fragment's
		}
		prefix += fieldName
		ft, item := f.Type.Resolve(), ""
		for ft.Kind == ir.KindList || ft.Kind == ir.KindMap {
			ft, item = ft.Elem.Resolve(), suffixItem // one Item for a list of lists too
		}
		if ft.Kind == ir.KindStruct {
			nameStruct(pkg, diags, ft, prefix+item, key+"."+f.Key, pos, methods)
		}
	}
}

// structsOf lists t and the struct types it contains, depth first.
func structsOf(t *ir.Type, seen []*ir.Type) []*ir.Type {
	t = t.Resolve()
	switch t.Kind {
	case ir.KindList, ir.KindMap:
		return structsOf(t.Elem, seen)
	case ir.KindStruct:
		for _, s := range seen {
			if s == t {
				return seen
			}
		}
		seen = append(seen, t)
		for _, f := range t.Fields {
			seen = structsOf(f.Type, seen)
		}
	}
	return seen
}

// fileStem is a prompt file's generated file name without suffix:
// lower-cased, non-alphanumerics turned into "_".
func fileStem(key string) string {
	return strings.Map(func(r rune) rune {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return unicode.ToLower(r)
		}
		return '_'
	}, key)
}
