package strictschema

import (
	"encoding/json"
	"testing"
)

func TestCheck(t *testing.T) {
	const closed = `"required":["a"],"additionalProperties":false`
	for _, tc := range []struct {
		name, schema string
		want         string // the violations' Error()s, each and a newline
	}{
		{"closed object", `{"type":"object","properties":{"a":{"type":"string"}},` + closed + `}`, ""},
		{"no properties", `{"type":"object","additionalProperties":false}`, ""},
		{"root not an object", `{"type":"array","items":{"type":"string"}}`, "the root must be an object schema (type: object)\n"},
		{"root anyOf", `{"anyOf":[{"type":"object","additionalProperties":false}]}`, "the root must be an object schema (type: object)\n"},
		{"open object", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, "an object needs additionalProperties: false\n"},
		{"additionalProperties schema", `{"type":"object","additionalProperties":{"type":"string"}}`, "an object needs additionalProperties: false\n"},
		{"optional property", `{"type":"object","properties":{"a":{"type":"string"},"b/c":{"type":"string"}},` + closed + `}`,
			`/properties/b~1c: every property must be required (one that may be absent is required and nullable: type: [string, "null"])` + "\n"},
		{"nested open object", `{"type":"object","properties":{"a":{"type":"object"}},` + closed + `}`, "/properties/a: an object needs additionalProperties: false\n"},
		{"properties without type", `{"type":"object","properties":{"a":{"properties":{},"additionalProperties":false}},` + closed + `}`,
			"/properties/a: a schema needs type, $ref, anyOf, enum or const: one that accepts any value is not supported\n/properties/a: properties need type object\n"},
		{"unconstrained property", `{"type":"object","properties":{"a":{}},` + closed + `}`,
			"/properties/a: a schema needs type, $ref, anyOf, enum or const: one that accepts any value is not supported\n"},
		{"boolean schema", `{"type":"object","properties":{"a":true},` + closed + `}`, "/properties/a: a schema must be an object (a boolean schema accepts anything)\n"},
		{"oneOf", `{"type":"object","properties":{"a":{"oneOf":[{"type":"string"}]}},` + closed + `}`, `/properties/a: keyword "oneOf" is not supported` + "\n/properties/a: a schema needs type, $ref, anyOf, enum or const: one that accepts any value is not supported\n"},
		{"anyOf", `{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]}},` + closed + `}`, ""},
		{"anyOf with an open object", `{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"object"}]}},` + closed + `}`,
			"/properties/a/anyOf/1: an object needs additionalProperties: false\n"},
		{"minLength", `{"type":"object","properties":{"a":{"type":"string","minLength":1}},` + closed + `}`, `/properties/a: keyword "minLength" is not supported` + "\n"},
		{"supported format", `{"type":"object","properties":{"a":{"type":"string","format":"uuid"}},` + closed + `}`, ""},
		{"unsupported format", `{"type":"object","properties":{"a":{"type":"string","format":"uri"}},` + closed + `}`,
			"/properties/a: format uri is not supported (only date, date-time, duration, email, hostname, ipv4, ipv6, time, uuid)\n"},
		{"defs and ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},` + closed + `,
			"$defs":{"A":{"type":"object","properties":{"n":{"type":"integer","minimum":0}},"required":["n"],"additionalProperties":false}}}`, ""},
		{"open def", `{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},` + closed + `,"$defs":{"A":{"type":"object"}}}`,
			"/$defs/A: an object needs additionalProperties: false\n"},
		{"items open", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"object"}}},` + closed + `}`,
			"/properties/a/items: an object needs additionalProperties: false\n"},
		{"enum", `{"type":"object","properties":{"a":{"enum":["x","y"]}},` + closed + `}`, ""},
		{"object type list", `{"type":"object","properties":{"a":{"type":["object","null"],"properties":{"b":{"type":"string"}},"required":["b"],"additionalProperties":false}},` + closed + `}`, ""},
		{"every violation, members in name order", `{"type":"object","properties":{"b":{"type":"string","minLength":1},"a":{"type":"string","maxLength":1}},"required":["a","b"],"additionalProperties":false}`,
			`/properties/a: keyword "maxLength" is not supported` + "\n" + `/properties/b: keyword "minLength" is not supported` + "\n"},
	} {
		var schema map[string]any
		if err := json.Unmarshal([]byte(tc.schema), &schema); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := ""
		for _, v := range Check(schema) {
			got += v.Error() + "\n"
		}
		if got != tc.want {
			t.Errorf("%s: Check = %q, want %q", tc.name, got, tc.want)
		}
	}
}
