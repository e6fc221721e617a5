package openaiprompt

import (
	"testing"

	"github.com/promptgen/promptgen/runtime/internal/adapt"
	"github.com/promptgen/promptgen/runtime/internal/adapttest"
)

func TestStrictCompatible(t *testing.T) {
	for _, tc := range []struct {
		name   string
		schema string
		want   bool
	}{
		{"structured", adapttest.StructuredSchema, true},
		{"loose", adapttest.LooseSchema, false},
		{"closed object", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`, true},
		{"no properties", `{"type":"object","additionalProperties":false}`, true},
		{"root not an object", `{"type":"array","items":{"type":"string"}}`, false},
		{"root anyOf", `{"anyOf":[{"type":"object","additionalProperties":false}]}`, false},
		{"open object", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, false},
		{"additionalProperties schema", `{"type":"object","additionalProperties":{"type":"string"}}`, false},
		{"optional property", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a"],"additionalProperties":false}`, false},
		{"nested open object", `{"type":"object","properties":{"a":{"type":"object"}},"required":["a"],"additionalProperties":false}`, false},
		{"properties without type", `{"type":"object","properties":{"a":{"properties":{},"additionalProperties":false}},"required":["a"],"additionalProperties":false}`, false},
		{"unconstrained property", `{"type":"object","properties":{"a":{}},"required":["a"],"additionalProperties":false}`, false},
		{"boolean schema", `{"type":"object","properties":{"a":true},"required":["a"],"additionalProperties":false}`, false},
		{"oneOf", `{"type":"object","properties":{"a":{"oneOf":[{"type":"string"}]}},"required":["a"],"additionalProperties":false}`, false},
		{"anyOf", `{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["a"],"additionalProperties":false}`, true},
		{"anyOf with an open object", `{"type":"object","properties":{"a":{"anyOf":[{"type":"object"}]}},"required":["a"],"additionalProperties":false}`, false},
		{"minLength", `{"type":"object","properties":{"a":{"type":"string","minLength":1}},"required":["a"],"additionalProperties":false}`, false},
		{"supported format", `{"type":"object","properties":{"a":{"type":"string","format":"uuid"}},"required":["a"],"additionalProperties":false}`, true},
		{"unsupported format", `{"type":"object","properties":{"a":{"type":"string","format":"uri"}},"required":["a"],"additionalProperties":false}`, false},
		{"defs and ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"required":["a"],"additionalProperties":false,
			"$defs":{"A":{"type":"object","properties":{"n":{"type":"integer","minimum":0}},"required":["n"],"additionalProperties":false}}}`, true},
		{"open def", `{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"required":["a"],"additionalProperties":false,
			"$defs":{"A":{"type":"object"}}}`, false},
		{"items open", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"object"}}},"required":["a"],"additionalProperties":false}`, false},
		{"enum", `{"type":"object","properties":{"a":{"enum":["x","y"]}},"required":["a"],"additionalProperties":false}`, true},
		{"object type list", `{"type":"object","properties":{"a":{"type":["object","null"],"properties":{"b":{"type":"string"}},"required":["b"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}`, true},
	} {
		schema, err := adapt.SchemaObject([]byte(tc.schema))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := strictCompatible(schema); got != tc.want {
			t.Errorf("%s: strictCompatible = %v, want %v", tc.name, got, tc.want)
		}
	}
}
