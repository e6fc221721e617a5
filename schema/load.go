package schema

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/promptgen/promptgen/internal/strictschema"
)

// Options say where a schema comes from.
type Options struct {
	File string // the file, for positions
	Path string // the schema's path in the file, e.g. "outputSchema"
	// Pos returns a node's position. When nil, positions are File and the
	// node's line and column as yaml.v3 counts them (in characters); the
	// generator passes its own to count columns in bytes.
	Pos func(*yaml.Node) Pos
	// Strict holds the schema to the rules of OpenAI's strict mode
	// (internal/strictschema): where it breaks one is an error.
	Strict bool
}

// Draft is the JSON Schema version of a schema.
type Draft string

const (
	Draft2020 Draft = "2020-12" // the default
	Draft7    Draft = "draft-07"
)

// Schema is a loaded JSON Schema: its type model and its compiled form.
type Schema struct {
	Root  *Def   // the schema itself: Name "", Pointer "#"
	Defs  []*Def // $defs and definitions, in the order written
	Draft Draft
	JSON  []byte // the schema as JSON, for models and output.MustCompileSchema in generated code
	// ParserJSON is the schema as JSON with its x-aliases, for the
	// schema-aligned parser; nil when it has none (JSON serves).
	ParserJSON []byte

	compiled *compiled
	opts     Options
}

// Load reads the JSON Schema n. It returns a nil Schema when any diagnostic
// is an error; warnings come with a usable Schema.
func Load(n *yaml.Node, opts Options) (*Schema, Diagnostics) {
	b := &builder{opts: opts, top: deref(n), defs: map[string]*Def{}}
	s := &Schema{Draft: Draft2020, opts: opts}
	if b.top.Kind != yaml.MappingNode {
		b.wrongKind(b.top, opts.Path, "a schema mapping")
		return nil, b.diags
	}
	var defNodes []*yaml.Node
	var defPaths []string
	for _, e := range b.entries(b.top, opts.Path) {
		at := opts.Path + "." + e.key
		switch e.key {
		case "$schema":
			s.Draft = b.draft(e.v, at)
		case "$defs", "definitions":
			if e.v.Kind != yaml.MappingNode {
				b.wrongKind(e.v, at, "a mapping of schemas")
				continue
			}
			for _, d := range b.entries(e.v, at) {
				if s.def(d.key) != nil {
					b.errorf(d.k, at+"."+d.key, "%q is defined in both $defs and definitions", d.key)
					continue
				}
				def := &Def{Name: d.key, Pointer: "#/" + e.key + "/" + escapePointer(d.key)}
				s.Defs = append(s.Defs, def)
				defNodes = append(defNodes, d.v)
				defPaths = append(defPaths, at+"."+d.key)
				b.defs[def.Pointer] = def
				b.defNames = append(b.defNames, def.Pointer)
			}
		}
	}
	b.root = &Def{Pointer: "#"}
	s.Root = b.root
	for i, d := range s.Defs {
		d.Type = b.build(defNodes[i], defPaths[i])
	}
	b.root.Type = b.build(b.top, opts.Path)
	b.decideUnions()
	b.checkRefs(append([]*Def{s.Root}, s.Defs...))
	if !b.diags.HasErrors() {
		b.compile(s)
	}
	b.diags = b.diags.sorted()
	if b.diags.HasErrors() {
		return nil, b.diags
	}
	return s, b.diags
}

// def returns the Def named name, or nil.
func (s *Schema) def(name string) *Def {
	for _, d := range s.Defs {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// draft reads $schema.
func (b *builder) draft(n *yaml.Node, path string) Draft {
	uri := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(b.str(n, path), "https://"), "http://"), "#")
	switch uri {
	case "json-schema.org/draft/2020-12/schema":
		return Draft2020
	case "json-schema.org/draft-07/schema":
		return Draft7
	}
	b.errorf(n, path, "unsupported $schema %q (want draft 2020-12 or draft-07)", n.Value)
	return Draft2020
}

// escapePointer escapes a JSON pointer token (RFC 6901).
func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// checkRefs reports Defs that are only references to one another, and marks
// the Defs whose type refers back to them as Recursive.
func (b *builder) checkRefs(defs []*Def) {
	for _, d := range defs {
		chain := []string{d.Pointer}
		for t := d.Type; t != nil && t.Kind == Ref; t = t.Ref.Type {
			if t.Ref == d {
				b.errorAt(d.Type.Pos, d.Type.Path, "$ref cycle: %s", strings.Join(append(chain, d.Pointer), " -> "))
				break
			}
			if len(chain) > len(defs) {
				break // a cycle that does not pass through d; reported at its own Defs
			}
			chain = append(chain, t.Ref.Pointer)
		}
	}
	for _, d := range defs {
		seen := map[*Def]bool{}
		var visit func(t *Type) bool
		visit = func(t *Type) bool {
			if t == nil {
				return false
			}
			if t.Kind == Ref {
				if t.Ref == d {
					return true
				}
				if seen[t.Ref] {
					return false
				}
				seen[t.Ref] = true
				return visit(t.Ref.Type)
			}
			for _, p := range t.Props {
				if visit(p.Type) {
					return true
				}
			}
			for _, v := range t.Variants {
				if visit(v.Type) {
					return true
				}
			}
			return visit(t.Elem)
		}
		d.Recursive = visit(d.Type)
	}
}

// compile converts the schema to JSON and compiles it, reporting what the
// compiler rejects at the YAML position it names.
func (b *builder) compile(s *Schema) {
	doc, ok := b.schemaJSON(false)
	if !ok {
		return
	}
	s.JSON = doc
	if b.opts.Strict {
		b.checkStrict(doc)
	}
	if len(b.aliasKeys) > 0 {
		if s.ParserJSON, ok = b.schemaJSON(true); !ok {
			return
		}
	}
	c, errs := compileJSON(doc, s.Draft)
	for _, e := range errs {
		n := nodeAt(b.top, e.Pointer)
		b.errorf(n, b.opts.Path+dotted(e.Pointer), "%s", e.Message)
	}
	s.compiled = c
}

// checkStrict reports where doc, the schema's JSON, breaks strict mode.
func (b *builder) checkStrict(doc []byte) {
	var top map[string]any
	if err := json.Unmarshal(doc, &top); err != nil {
		top = nil // not an object: Check says so
	}
	for _, v := range strictschema.Check(top) {
		b.errorf(nodeAt(b.top, v.Pointer), b.opts.Path+dotted(v.Pointer), "OpenAI's strict mode (strict: true): %s", v.Reason)
	}
}

// schemaJSON converts the schema to JSON, with its x-aliases entries when
// withAliases is set.
func (b *builder) schemaJSON(withAliases bool) ([]byte, bool) {
	b.omit, b.ordered = b.aliasKeys, true
	if withAliases {
		b.omit = nil
	}
	defer func() { b.omit, b.ordered = nil, false }()
	v, ok := b.jsonValue(b.top, b.opts.Path, "the schema")
	if !ok {
		return nil, false
	}
	doc, err := json.Marshal(v)
	if err != nil {
		b.errorf(b.top, b.opts.Path, "internal error: %v", err)
		return nil, false
	}
	return doc, true
}

// orderedObject is a JSON object whose members marshal in the order they
// were written: a model reads a schema's properties in that order, and
// OpenAI's structured outputs produce them in it.
type orderedObject struct {
	keys   []string
	values map[string]any
}

func (o orderedObject) MarshalJSON() ([]byte, error) {
	buf := []byte{'{'}
	for i, k := range o.keys {
		if i > 0 {
			buf = append(buf, ',')
		}
		key, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		value, err := json.Marshal(o.values[k])
		if err != nil {
			return nil, err
		}
		buf = append(append(append(buf, key...), ':'), value...)
	}
	return append(buf, '}'), nil
}

// maxNodes bounds the nodes a schema, or a value checked against it, may
// have once YAML aliases are expanded.
const maxNodes = 1 << 16

// jsonValue converts a YAML node to a JSON value, of at most maxNodes
// nodes; what names it in messages ("the schema"). Paths serve only the
// diagnostics, and building one for every node costs time quadratic in
// the nesting (of a default value, say), so it converts without them and,
// when it reports something, again with.
func (b *builder) jsonValue(n *yaml.Node, path, what string) (any, bool) {
	reported := len(b.diags)
	v, ok := b.convert(n, path, what, false)
	if len(b.diags) == reported {
		return v, ok
	}
	b.diags = b.diags[:reported]
	return b.convert(n, path, what, true)
}

// convert is jsonValue, giving diagnostics the node's path when paths is
// set, else the path of n.
func (b *builder) convert(n *yaml.Node, path, what string, paths bool) (any, bool) {
	top, count := n, 0
	var conv func(n *yaml.Node, path string) (any, bool)
	conv = func(n *yaml.Node, path string) (any, bool) {
		if count++; count > maxNodes {
			if countNodes(top, maxNodes+1) > maxNodes {
				b.errorf(n, path, "%s has more than %d nodes", what, maxNodes)
			} else {
				b.errorf(n, path, "%s expands to more than %d nodes through aliases", what, maxNodes)
			}
			return nil, false
		}
		n = deref(n)
		switch n.Kind {
		case yaml.MappingNode:
			m := map[string]any{}
			var keys []string // in the order written, when b.ordered
			omitted := 0
			for _, e := range b.entries(n, path) {
				if b.omit[e.k] {
					omitted++
					continue
				}
				at := path
				if paths {
					at += "." + e.key
				}
				v, ok := conv(e.v, at)
				if !ok {
					return nil, false
				}
				if _, seen := m[e.key]; !seen && b.ordered {
					keys = append(keys, e.key)
				}
				m[e.key] = v
			}
			complete := len(m)+omitted == len(n.Content)/2
			if b.ordered {
				return orderedObject{keys, m}, complete
			}
			return m, complete
		case yaml.SequenceNode:
			list := make([]any, len(n.Content))
			for i, c := range n.Content {
				at := path
				if paths {
					at = fmt.Sprintf("%s[%d]", path, i)
				}
				v, ok := conv(c, at)
				if !ok {
					return nil, false
				}
				list[i] = v
			}
			return list, true
		}
		switch n.ShortTag() {
		case "!!null":
			return nil, true
		case "!!bool":
			return n.Value == "true", true
		case "!!int", "!!float":
			return b.number(n, path)
		}
		return n.Value, true
	}
	return conv(n, path)
}

// countNodes counts the nodes of n as jsonValue does (the values of a
// mapping, not its keys), but as written: an alias is one node. It stops
// at limit.
func countNodes(n *yaml.Node, limit int) int {
	count := 1
	if n.Kind == yaml.AliasNode {
		return count
	}
	first, step := 0, 1
	if n.Kind == yaml.MappingNode {
		first, step = 1, 2
	}
	for i := first; i < len(n.Content) && count < limit; i += step {
		count += countNodes(n.Content[i], limit-count)
	}
	return count
}

// nodeAt returns the node at a JSON pointer below n, or the deepest node
// on the way.
func nodeAt(n *yaml.Node, pointer string) *yaml.Node {
	if pointer == "" {
		return n
	}
	for _, tok := range strings.Split(pointer[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		n = deref(n)
		var next *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if deref(n.Content[i]).Value == tok {
					next = n.Content[i+1]
				}
			}
		case yaml.SequenceNode:
			var i int
			if _, err := fmt.Sscan(tok, &i); err == nil && i >= 0 && i < len(n.Content) {
				next = n.Content[i]
			}
		}
		if next == nil {
			return n
		}
		n = next
	}
	return deref(n)
}

// dotted turns a JSON pointer into a schema path suffix:
// "/properties/a/items/0" is ".properties.a.items[0]".
func dotted(pointer string) string {
	if pointer == "" {
		return ""
	}
	var b strings.Builder
	for _, tok := range strings.Split(pointer[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		if tok != "" && strings.Trim(tok, "0123456789") == "" {
			fmt.Fprintf(&b, "[%s]", tok)
		} else {
			b.WriteString("." + tok)
		}
	}
	return b.String()
}

// sortViolations orders violations by pointer, keyword and message.
func sortViolations(vs []Violation) {
	sort.Slice(vs, func(i, j int) bool {
		a, b := vs[i], vs[j]
		if a.Pointer != b.Pointer {
			return a.Pointer < b.Pointer
		}
		if a.Keyword != b.Keyword {
			return a.Keyword < b.Keyword
		}
		return a.Message < b.Message
	})
}
