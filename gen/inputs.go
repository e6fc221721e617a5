package gen

import (
	"strings"

	"gopkg.in/yaml.v3"
)

var shorthandTypes = map[string]Kind{
	"string": KindString, "int": KindInt, "integer": KindInt, "number": KindFloat, "float": KindFloat,
	"bool": KindBool, "boolean": KindBool, "object": KindStruct,
}

var schemaKeys = []string{"additionalProperties", "const", "default", "description", "enum", "examples", "format",
	"go_name", "items", "maxItems", "maxLength", "maximum", "minItems", "minLength", "minimum", "optional",
	"pattern", "properties", "required", "title", "type"}

// loadInputs reads `inputs`: a JSON Schema of the feed (type: object at the
// top), or the shorthand map of variable to type.
func loadInputs(v *yaml.Node, at func(*yaml.Node) Pos, s *diagSink) *Type {
	if v.Kind != yaml.MappingNode {
		s.errorf(at(v), "inputs must be a mapping of variable names to types")
		return nil
	}
	if t := mapGet(v, "type"); t != nil && t.Value == "object" && mapGet(v, "properties") != nil {
		feed, _ := schemaType(v, at, s)
		return feed
	}
	feed := &Type{Kind: KindStruct, Declared: true}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, spec := v.Content[i], v.Content[i+1]
		if feed.field(k.Value) != nil {
			s.errorf(at(k), "duplicate input %q", k.Value)
			continue
		}
		t, optional := shorthand(spec, at, s)
		f := &Field{Key: k.Value, Type: t, Optional: optional, Pos: at(k)}
		if spec.Kind == yaml.MappingNode {
			if d := mapGet(spec, "description"); d != nil {
				f.Description = d.Value
			}
		}
		feed.Fields = append(feed.Fields, f)
	}
	return feed
}

func mapGet(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// shorthand reads one variable's type: "string", "int?", [string], or a
// JSON Schema mapping with an optional `optional: true`.
func shorthand(n *yaml.Node, at func(*yaml.Node) Pos, s *diagSink) (*Type, bool) {
	switch n.Kind {
	case yaml.SequenceNode:
		if len(n.Content) != 1 {
			s.errorf(at(n), "a list type has exactly one element type, as in [string]")
			return &Type{Kind: KindList, Elem: &Type{Kind: KindString}}, false
		}
		elem, _ := shorthand(n.Content[0], at, s)
		return &Type{Kind: KindList, Elem: elem, Declared: true}, false
	case yaml.MappingNode:
		return schemaType(n, at, s)
	}
	name := n.Value
	optional := strings.HasSuffix(name, "?")
	name = strings.TrimSuffix(name, "?")
	if strings.HasPrefix(name, "[") && strings.HasSuffix(name, "]") {
		elem, _ := shorthand(&yaml.Node{Kind: yaml.ScalarNode, Value: name[1 : len(name)-1], Line: n.Line, Column: n.Column}, at, s)
		return &Type{Kind: KindList, Elem: elem, Declared: true}, optional
	}
	k, ok := shorthandTypes[name]
	if !ok {
		s.errorf(at(n), "unknown type %q%s", name, didYouMean(name, sortedKeys(shorthandTypes)))
		return &Type{Kind: KindString}, optional
	}
	// A bare object's fields are inferred from the template.
	return &Type{Kind: k, Declared: k != KindStruct}, optional
}

// schemaType reads a JSON Schema node. The bool reports `optional: true`
// or a nullable type.
func schemaType(n *yaml.Node, at func(*yaml.Node) Pos, s *diagSink) (*Type, bool) {
	optional := false
	var typeName string
	var typeNode *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "type":
			typeNode = v
			if v.Kind == yaml.SequenceNode {
				for _, x := range v.Content {
					if x.Value == "null" {
						optional = true
					} else {
						typeName = x.Value
					}
				}
			} else {
				typeName = v.Value
			}
		case "optional":
			optional = v.Value == "true"
		default:
			if !contains(schemaKeys, k.Value) {
				s.errorf(at(k), "unsupported schema keyword %q%s", k.Value, didYouMean(k.Value, schemaKeys))
			}
		}
	}
	switch typeName {
	case "object":
		props := mapGet(n, "properties")
		if props == nil {
			if ap := mapGet(n, "additionalProperties"); ap != nil && ap.Kind == yaml.MappingNode {
				elem, _ := schemaType(ap, at, s)
				return &Type{Kind: KindMap, Elem: elem, Declared: true}, optional
			}
			return &Type{Kind: KindStruct}, optional
		}
		required := map[string]bool{}
		if r := mapGet(n, "required"); r != nil {
			for _, x := range r.Content {
				required[x.Value] = true
			}
		}
		t := &Type{Kind: KindStruct, Declared: true}
		for i := 0; i+1 < len(props.Content); i += 2 {
			k, v := props.Content[i], props.Content[i+1]
			ft, opt := shorthand(v, at, s)
			f := &Field{Key: k.Value, Type: ft, Optional: opt || !required[k.Value], Pos: at(k)}
			if v.Kind == yaml.MappingNode {
				if d := mapGet(v, "description"); d != nil {
					f.Description = d.Value
				}
			}
			t.Fields = append(t.Fields, f)
		}
		return t, optional
	case "array":
		items := mapGet(n, "items")
		if items == nil {
			s.errorf(at(n), "an array needs items")
			return &Type{Kind: KindList, Elem: &Type{Kind: KindString}}, optional
		}
		elem, _ := shorthand(items, at, s)
		return &Type{Kind: KindList, Elem: elem, Declared: true}, optional
	case "":
		s.errorf(at(n), "missing type")
		return &Type{Kind: KindString}, optional
	}
	k, ok := shorthandTypes[typeName]
	if !ok || k == KindStruct {
		s.errorf(at(typeNode), "unknown type %q%s", typeName, didYouMean(typeName, []string{"array", "boolean", "integer", "number", "object", "string"}))
		return &Type{Kind: KindString}, optional
	}
	return &Type{Kind: k, Declared: true}, optional
}
