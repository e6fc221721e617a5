package outschema

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/schema"
)

// This file lowers an outputSchema to the checks that ParseOutput runs
// instead of the compiled schema: Go code that reads the JSON document
// with output.Checker and applies each keyword as jsonschema/v5 does.
// The checks are built from the schema's JSON, keyword by keyword, not
// from the Go type model, so that they agree with the compiled schema on
// every document (a differential test holds them to it). A schema that
// uses a keyword outside the supported set keeps the compiled schema.

// Keyword sets of the checks.
var (
	chkAnnotations = []string{"title", "description", "default", "examples", "$comment", "readOnly",
		"writeOnly", "deprecated"}
	// chkContent are annotations in draft 2020-12, and asserted by
	// jsonschema/v5 in draft-07.
	chkContent = []string{"format", "contentEncoding", "contentMediaType"}
	chkTopOnly = []string{"$schema", "$id", "$defs", "definitions"}
	chkApplied = []string{"type", "enum", "const", "properties", "required", "additionalProperties", "items",
		"$ref", "oneOf", "anyOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
		"minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties"}
)

// lowerChecks builds the checks of s, or returns nil when the schema
// needs the compiled schema.
func lowerChecks(s *schema.Schema) *ir.Checks {
	dec := json.NewDecoder(bytes.NewReader(s.JSON))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil
	}
	b := &chkBuilder{doc: doc, draft7: s.Draft == schema.Draft7, byPointer: map[string]*ir.CheckSchema{}}
	root := b.build(doc, "")
	if b.unsupported {
		return nil
	}
	return &ir.Checks{Root: root, Schemas: b.order}
}

type chkBuilder struct {
	doc         any
	draft7      bool
	byPointer   map[string]*ir.CheckSchema // schemas reached by $ref, built once
	order       []*ir.CheckSchema          // schemas with a function, in build order
	unsupported bool
}

// build returns the checks of schema v, at pointer in the document.
func (b *chkBuilder) build(v any, pointer string) *ir.CheckSchema {
	if s, ok := b.byPointer[pointer]; ok {
		return s
	}
	s := &ir.CheckSchema{Pointer: pointer, MinLength: -1, MaxLength: -1, MinProps: -1, MaxProps: -1, MinItems: -1, MaxItems: -1}
	b.byPointer[pointer] = s
	b.order = append(b.order, s)
	switch v := v.(type) {
	case bool:
		s.Always = &v
		return s
	case map[string]any:
		b.keywords(s, v, pointer)
	default:
		b.unsupported = true
	}
	return s
}

// keywords fills s from the keywords of schema m, in sorted order.
func (b *chkBuilder) keywords(s *ir.CheckSchema, m map[string]any, pointer string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := m[k]
		switch {
		case isIn(k, chkAnnotations):
		case isIn(k, chkContent):
			b.unsupported = b.unsupported || b.draft7
		case isIn(k, chkTopOnly):
			b.unsupported = b.unsupported || pointer != ""
		case !isIn(k, chkApplied):
			b.unsupported = true
		default:
			b.keyword(s, m, k, v, pointer)
		}
	}
	if s.Ref != nil && len(keys) > 1 {
		for _, k := range keys {
			if k != "$ref" && isIn(k, chkApplied) {
				b.unsupported = true // the loader only allows annotations beside $ref
			}
		}
	}
}

func (b *chkBuilder) keyword(s *ir.CheckSchema, m map[string]any, k string, v any, pointer string) {
	at := pointer + "/" + escapeToken(k)
	switch k {
	case "type":
		switch v := v.(type) {
		case string:
			s.Types = []string{v}
		case []any:
			for _, t := range v {
				name, _ := t.(string)
				s.Types = append(s.Types, name)
			}
		}
	case "enum":
		list, _ := v.([]any)
		s.HasEnum, s.Enum = true, list
	case "const":
		s.HasEnum, s.Const, s.Enum = true, true, []any{v}
	case "properties":
		props, _ := v.(map[string]any)
		keys := make([]string, 0, len(props))
		for name := range props {
			keys = append(keys, name)
		}
		sort.Strings(keys)
		for _, name := range keys {
			s.Props = append(s.Props, ir.CheckProp{Name: name, S: b.build(props[name], at+"/"+escapeToken(name)), Bit: -1})
		}
		b.required(s, m)
	case "required":
		if _, ok := m["properties"]; !ok {
			b.unsupported = true // required without properties is rejected when loading
		}
	case "additionalProperties":
		if f, ok := v.(bool); ok && !f {
			s.Closed = true
		} else if !ok {
			s.Additional = b.build(v, at)
		}
	case "items":
		s.Items = b.build(v, at)
	case "$ref":
		ref, _ := v.(string)
		target, ok := b.resolve(ref)
		if !ok {
			b.unsupported = true
			return
		}
		s.Ref = b.build(target, strings.TrimPrefix(ref, "#"))
	case "oneOf", "anyOf":
		list, _ := v.([]any)
		var branches []*ir.CheckSchema
		for i, br := range list {
			branches = append(branches, b.build(br, at+"/"+strconv.Itoa(i)))
		}
		if k == "oneOf" {
			s.OneOf = branches
		} else {
			s.AnyOf = branches
		}
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		n, ok := v.(json.Number)
		if !ok {
			b.unsupported = true
			return
		}
		*map[string]*string{"minimum": &s.Minimum, "maximum": &s.Maximum, "exclusiveMinimum": &s.ExclusiveMinimum,
			"exclusiveMaximum": &s.ExclusiveMaximum, "multipleOf": &s.MultipleOf}[k] = string(n)
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
		n, ok := v.(json.Number)
		i, err := strconv.Atoi(string(n))
		if !ok || err != nil {
			b.unsupported = true
			return
		}
		*map[string]*int{"minLength": &s.MinLength, "maxLength": &s.MaxLength, "minItems": &s.MinItems,
			"maxItems": &s.MaxItems, "minProperties": &s.MinProps, "maxProperties": &s.MaxProps}[k] = i
	case "pattern":
		s.Pattern, _ = v.(string)
	case "uniqueItems":
		s.Unique, _ = v.(bool)
	}
}

// required gives the required properties of s their bits.
func (b *chkBuilder) required(s *ir.CheckSchema, m map[string]any) {
	list, _ := m["required"].([]any)
	if len(list) > ir.MaxRequired {
		b.unsupported = true
		return
	}
	for _, r := range list {
		name, _ := r.(string)
		for i := range s.Props {
			if s.Props[i].Name == name && s.Props[i].Bit < 0 {
				s.Props[i].Bit = len(s.Required)
				s.Required = append(s.Required, name)
			}
		}
	}
	if len(s.Required) != len(list) {
		b.unsupported = true // the loader rejects required names that are not properties
	}
}

// resolve returns the schema that a local $ref names.
func (b *chkBuilder) resolve(ref string) (any, bool) {
	if !strings.HasPrefix(ref, "#") {
		return nil, false
	}
	v := b.doc
	if ref == "#" {
		return v, true
	}
	if !strings.HasPrefix(ref, "#/") {
		return nil, false
	}
	for _, tok := range strings.Split(ref[2:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[tok]; !ok {
			return nil, false
		}
	}
	return v, true
}

func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func isIn(s string, list []string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
