package output

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Shape is what the schema-aligned parser needs of an output's JSON Schema:
// the types it allows at each point, the properties, items, enum values,
// union members and the x-aliases extension. Compile it once, with
// CompileShape; it is safe for concurrent use.
type Shape struct{ root *shape }

// JSON types, as a set.
type jsonTypes uint8

const (
	typeObject jsonTypes = 1 << iota
	typeArray
	typeString
	typeNumber
	typeInteger
	typeBoolean
	typeNull
)

var jsonTypeNames = map[string]jsonTypes{
	"object": typeObject, "array": typeArray, "string": typeString, "number": typeNumber,
	"integer": typeInteger, "boolean": typeBoolean, "null": typeNull,
}

type shape struct {
	types jsonTypes // 0: any
	props []*property
	// additional is the shape of members no property names; nil when
	// additionalProperties is false.
	additional *shape
	items      *shape
	enum       []any // JSON values: string, float64, bool, nil
	// aliases maps an alias of an enum value (x-aliases) to the value.
	aliases map[string]any
	anyOf   []*shape
	ref     *shape // a $ref, resolved
}

type property struct {
	name     string
	aliases  []string // x-aliases
	required bool
	shape    *shape
}

// CompileShape reads a JSON Schema given as JSON text.
func CompileShape(schemaJSON string) (*Shape, error) {
	var doc any
	if err := json.Unmarshal([]byte(schemaJSON), &doc); err != nil {
		return nil, err
	}
	b := &shapeBuilder{root: doc, refs: map[string]*shape{}}
	s, err := b.build(doc)
	if err != nil {
		return nil, err
	}
	return &Shape{s}, nil
}

// MustCompileShape is CompileShape for package-level variables.
func MustCompileShape(schemaJSON string) *Shape {
	s, err := CompileShape(schemaJSON)
	if err != nil {
		panic("output: " + err.Error())
	}
	return s
}

type shapeBuilder struct {
	root any
	refs map[string]*shape // by $ref, so that recursive schemas end
}

func (b *shapeBuilder) build(v any) (*shape, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return &shape{additional: &shape{}}, nil // true, or a schema promptgen does not read: anything
	}
	s := &shape{}
	if ref, ok := m["$ref"].(string); ok {
		if r, ok := b.refs[ref]; ok {
			s.ref = r
			return s, nil
		}
		target, err := b.resolve(ref)
		if err != nil {
			return nil, err
		}
		r := &shape{}
		b.refs[ref] = r
		built, err := b.build(target)
		if err != nil {
			return nil, err
		}
		*r = *built
		s.ref = r
		return s, nil
	}
	switch t := m["type"].(type) {
	case string:
		s.types = jsonTypeNames[t]
	case []any:
		for _, x := range t {
			if name, ok := x.(string); ok {
				s.types |= jsonTypeNames[name]
			}
		}
	}
	required := map[string]bool{}
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				required[name] = true
			}
		}
	}
	// x-aliases maps property names, or enum values, to the other names a
	// model may write for them: {"positive": ["good", "happy"]}.
	aliases, _ := m["x-aliases"].(map[string]any)
	if props, ok := m["properties"].(map[string]any); ok {
		// encoding/json does not keep the schema's order; sorted names make
		// the fixes come in a stable order.
		for _, name := range slices.Sorted(maps.Keys(props)) {
			ps, err := b.build(props[name])
			if err != nil {
				return nil, err
			}
			p := &property{name: name, required: required[name], shape: ps}
			for _, a := range asList(aliases[name]) {
				if alias, ok := a.(string); ok {
					p.aliases = append(p.aliases, alias)
				}
			}
			s.props = append(s.props, p)
		}
	}
	switch a := m["additionalProperties"].(type) {
	case bool:
		if a {
			s.additional = &shape{}
		}
	case map[string]any:
		as, err := b.build(a)
		if err != nil {
			return nil, err
		}
		s.additional = as
	default:
		s.additional = &shape{}
	}
	if items, ok := m["items"]; ok {
		is, err := b.build(items)
		if err != nil {
			return nil, err
		}
		s.items = is
	}
	if enum, ok := m["enum"].([]any); ok {
		s.enum = enum
	}
	if c, ok := m["const"]; ok {
		s.enum = []any{c}
	}
	if aliases != nil && s.enum != nil {
		s.aliases = map[string]any{}
		for value, list := range aliases {
			for _, a := range asList(list) {
				if alias, ok := a.(string); ok {
					s.aliases[alias] = value
				}
			}
		}
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		for _, member := range asList(m[key]) {
			ms, err := b.build(member)
			if err != nil {
				return nil, err
			}
			s.anyOf = append(s.anyOf, ms)
		}
	}
	return s, nil
}

// resolve finds the schema a local $ref ("#/$defs/x") points to.
func (b *shapeBuilder) resolve(ref string) (any, error) {
	path, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, fmt.Errorf("$ref %q: only references inside the schema are supported", ref)
	}
	v := b.root
	for _, tok := range strings.Split(strings.TrimPrefix(path, "/"), "/") {
		if tok == "" {
			continue
		}
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("$ref %q: no such schema", ref)
		}
		if v, ok = m[tok]; !ok {
			return nil, fmt.Errorf("$ref %q: no such schema", ref)
		}
	}
	return v, nil
}

func asList(v any) []any {
	list, _ := v.([]any)
	return list
}
