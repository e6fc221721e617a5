package openaiprompt

// strictKeywords are the JSON Schema keywords that OpenAI's strict mode
// documents as supported.
var strictKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true,
	"items": true, "enum": true, "const": true, "anyOf": true,
	"$ref": true, "$defs": true, "definitions": true,
	"description": true, "title": true, "$schema": true, "$id": true,
	"pattern": true, "format": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minItems": true, "maxItems": true,
}

// strictFormats are the string formats that strict mode supports.
var strictFormats = map[string]bool{
	"date-time": true, "time": true, "date": true, "duration": true,
	"email": true, "hostname": true, "ipv4": true, "ipv6": true, "uuid": true,
}

// strictCompatible reports whether OpenAI's strict mode accepts schema: its
// root is an object; every object is closed (additionalProperties false)
// and requires all its properties; every schema constrains its value
// (type, $ref, anyOf, enum or const); and only strictKeywords appear. When in
// doubt it says no: a schema sent with strict false still guides the
// model, while one sent with strict true that the API rejects fails the
// call.
func strictCompatible(schema map[string]any) bool {
	return schema["type"] == "object" && strictSchema(schema)
}

func strictSchema(v any) bool {
	s, ok := v.(map[string]any)
	if !ok {
		return false // a boolean schema, or not a schema at all
	}
	for k, x := range s {
		if !strictKeywords[k] {
			return false
		}
		if k == "format" {
			if f, ok := x.(string); !ok || !strictFormats[f] {
				return false
			}
		}
	}
	if !hasAny(s, "type", "$ref", "anyOf", "enum", "const") {
		return false // an unconstrained value, which strict mode cannot decode
	}
	props, hasProps := s["properties"]
	if hasProps && !hasType(s, "object") {
		return false
	}
	if hasType(s, "object") {
		if s["additionalProperties"] != false {
			return false
		}
		pm, ok := props.(map[string]any)
		if hasProps && !ok {
			return false
		}
		required := map[string]bool{}
		list, _ := s["required"].([]any)
		for _, r := range list {
			if name, ok := r.(string); ok {
				required[name] = true
			}
		}
		for name, sub := range pm {
			if !required[name] || !strictSchema(sub) {
				return false
			}
		}
	}
	for _, k := range []string{"$defs", "definitions"} {
		if defs, ok := s[k]; ok {
			dm, ok := defs.(map[string]any)
			if !ok {
				return false
			}
			for _, sub := range dm {
				if !strictSchema(sub) {
					return false
				}
			}
		}
	}
	if items, ok := s["items"]; ok && !strictSchema(items) {
		return false
	}
	if anyOf, ok := s["anyOf"]; ok {
		list, ok := anyOf.([]any)
		if !ok {
			return false
		}
		for _, sub := range list {
			if !strictSchema(sub) {
				return false
			}
		}
	}
	return true
}

// hasType reports whether s's type is t or a list holding t.
func hasType(s map[string]any, t string) bool {
	switch v := s["type"].(type) {
	case string:
		return v == t
	case []any:
		for _, x := range v {
			if x == t {
				return true
			}
		}
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
