// Package strictschema holds the rules of OpenAI's strict mode for JSON
// Schemas (structured outputs and strict function calling). The OpenAI
// adapter asks for strict mode only where they hold, and the generator
// reports where a tool declared `strict: true` breaks them, at generate
// time rather than at the first call.
package strictschema

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// keywords are the JSON Schema keywords that OpenAI's strict mode
// documents as supported.
var keywords = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true,
	"items": true, "enum": true, "const": true, "anyOf": true,
	"$ref": true, "$defs": true, "definitions": true,
	"description": true, "title": true, "$schema": true, "$id": true,
	"pattern": true, "format": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minItems": true, "maxItems": true,
}

// formats are the string formats that strict mode supports.
var formats = []string{"date", "date-time", "duration", "email", "hostname", "ipv4", "ipv6", "time", "uuid"}

// Violation is where a schema breaks strict mode, and how.
type Violation struct {
	Pointer string // JSON pointer to the schema that breaks it, "" for the root
	Reason  string
}

func (v *Violation) Error() string {
	if v.Pointer == "" {
		return v.Reason
	}
	return v.Pointer + ": " + v.Reason
}

// Check returns the places where schema (decoded JSON) breaks strict mode,
// in a fixed order (members by name), or none when it holds: its root is an object;
// every object is closed (additionalProperties false) and requires all its
// properties; every schema constrains its value (type, $ref, anyOf, enum or
// const); and only the supported keywords and formats appear. When in
// doubt it says no: a schema sent with strict false still guides the
// model, while one sent with strict true that the API rejects fails the
// call.
func Check(schema map[string]any) []Violation {
	var c checker
	if schema["type"] != "object" {
		c.add("", `the root must be an object schema (type: object)`)
	}
	c.check(schema, "")
	return c.found
}

// checker collects violations.
type checker struct{ found []Violation }

func (c *checker) add(at, reason string) {
	c.found = append(c.found, Violation{at, reason})
}

func (c *checker) check(v any, at string) {
	s, ok := v.(map[string]any)
	if !ok {
		c.add(at, "a schema must be an object (a boolean schema accepts anything)")
		return
	}
	for _, k := range slices.Sorted(maps.Keys(s)) {
		if !keywords[k] {
			c.add(at, fmt.Sprintf("keyword %q is not supported", k))
		}
	}
	if f, ok := s["format"]; ok {
		if name, _ := f.(string); !slices.Contains(formats, name) {
			c.add(at, fmt.Sprintf("format %v is not supported (only %s)", f, strings.Join(formats, ", ")))
		}
	}
	if !hasAny(s, "type", "$ref", "anyOf", "enum", "const") {
		c.add(at, "a schema needs type, $ref, anyOf, enum or const: one that accepts any value is not supported")
	}
	props, hasProps := s["properties"]
	if hasProps && !hasType(s, "object") {
		c.add(at, "properties need type object")
	}
	if hasType(s, "object") {
		if s["additionalProperties"] != false {
			c.add(at, "an object needs additionalProperties: false")
		}
		pm, ok := props.(map[string]any)
		if hasProps && !ok {
			c.add(at+"/properties", "properties must be an object")
		}
		required := map[string]bool{}
		list, _ := s["required"].([]any)
		for _, r := range list {
			if name, ok := r.(string); ok {
				required[name] = true
			}
		}
		for _, name := range slices.Sorted(maps.Keys(pm)) {
			if !required[name] {
				c.add(at+"/properties/"+escape(name), `every property must be required (one that may be absent is required and nullable: type: [string, "null"])`)
			}
			c.check(pm[name], at+"/properties/"+escape(name))
		}
	}
	for _, k := range []string{"$defs", "definitions"} {
		if defs, ok := s[k]; ok {
			dm, ok := defs.(map[string]any)
			if !ok {
				c.add(at+"/"+k, k+" must be an object")
				continue
			}
			for _, name := range slices.Sorted(maps.Keys(dm)) {
				c.check(dm[name], at+"/"+k+"/"+escape(name))
			}
		}
	}
	if items, ok := s["items"]; ok {
		c.check(items, at+"/items")
	}
	if anyOf, ok := s["anyOf"]; ok {
		list, ok := anyOf.([]any)
		if !ok {
			c.add(at+"/anyOf", "anyOf must be a list")
		}
		for i, sub := range list {
			c.check(sub, fmt.Sprintf("%s/anyOf/%d", at, i))
		}
	}
}

// escape escapes a JSON pointer token (RFC 6901).
func escape(token string) string {
	return strings.ReplaceAll(strings.ReplaceAll(token, "~", "~0"), "/", "~1")
}

// hasType reports whether s's type is t or a list holding t.
func hasType(s map[string]any, t string) bool {
	switch v := s["type"].(type) {
	case string:
		return v == t
	case []any:
		return slices.Contains(v, any(t))
	}
	return false
}

// hasAny reports whether s has one of keys.
func hasAny(s map[string]any, keys ...string) bool {
	for _, k := range keys {
		if _, ok := s[k]; ok {
			return true
		}
	}
	return false
}
