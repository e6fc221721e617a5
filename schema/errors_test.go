package schema

import (
	"fmt"
	"strings"
	"testing"
)

// TestErrors checks the exact diagnostics of invalid schemas; each input is
// the text of a prompt file holding an outputSchema.
func TestErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{
			name: "spec typos in property names",
			in: `outputSchema:
  type: object
  properties:
    main_reason":
      type: string
    action_items":
      type: array
      items: {type: string}
  required:
    - main_reason
    - action_items
`,
			want: `p.yaml:10:7: outputSchema.required[0]: required property "main_reason" is not defined (did you mean "main_reason\""?)
p.yaml:11:7: outputSchema.required[1]: required property "action_items" is not defined (did you mean "action_items\""?)`,
		},
		{
			name: "unknown keyword",
			in:   "outputSchema:\n  type: object\n  properites: {a: {type: string}}\n",
			want: `p.yaml:2:3: warning: outputSchema: an object without properties is kept as raw JSON (declare properties, or additionalProperties for a map)
p.yaml:3:3: outputSchema.properites: unknown keyword "properites" (did you mean "properties"?)`,
		},
		{
			name: "unknown types",
			in:   "outputSchema:\n  properties:\n    a: {type: strin}\n    b: {type: int}\n    c: {type: [string, integer]}\n    d: {type: \"null\"}\n",
			want: `p.yaml:3:15: outputSchema.properties.a.type: unknown type "strin" (did you mean "string"?)
p.yaml:4:15: outputSchema.properties.b.type: unknown type "int" (did you mean "integer"?)
p.yaml:5:15: outputSchema.properties.c.type: a list of types other than [T, "null"] is not supported (use oneOf)
p.yaml:6:15: outputSchema.properties.d.type: type "null" alone is not supported`,
		},
		{
			name: "missing type",
			in:   "outputSchema:\n  type: object\n  properties:\n    a: {description: what}\n",
			want: `p.yaml:4:8: outputSchema.properties.a: missing "type"`,
		},
		{
			name: "enum values",
			in:   "outputSchema:\n  type: string\n  enum: [a, 1, a, null, {x: 1}]\n",
			want: `p.yaml:3:13: outputSchema.enum[1]: got a number, want a string value
p.yaml:3:16: outputSchema.enum[2]: duplicate value a
p.yaml:3:19: outputSchema.enum[3]: null is not of type "string" (add "null" to the type)
p.yaml:3:25: outputSchema.enum[4]: got a mapping, want a string value (enum and const of objects or arrays are not supported)`,
		},
		{
			name: "const beside enum",
			in:   "outputSchema: {enum: [a], const: a}\n",
			want: `p.yaml:1:27: outputSchema.const: "const" beside "enum" is not supported`,
		},
		{
			name: "keywords of another type",
			in:   "outputSchema:\n  type: integer\n  minLength: 1\n  items: {type: string}\n  minimum: 0\n",
			want: `p.yaml:3:3: outputSchema.minLength: "minLength" applies only to type "string"
p.yaml:4:3: outputSchema.items: "items" applies only to type "array"`,
		},
		{
			name: "numeric keyword on a string",
			in:   "outputSchema: {type: string, maximum: 3}\n",
			want: `p.yaml:1:30: outputSchema.maximum: "maximum" applies only to types "integer" and "number"`,
		},
		{
			name: "bad check values",
			in:   "outputSchema:\n  type: object\n  properties:\n    a: {type: string, minLength: -1, pattern: \"(?=x)\"}\n    b: {type: number, multipleOf: 0, maximum: .inf}\n    c: {type: array, items: {type: string}, uniqueItems: yes}\n",
			want: `p.yaml:4:34: outputSchema.properties.a.minLength: got -1, want a non-negative integer
p.yaml:4:47: outputSchema.properties.a.pattern: invalid pattern: invalid or unsupported Perl syntax: ` + "`(?=`" + ` (patterns use Go's RE2 syntax)
p.yaml:5:35: outputSchema.properties.b.multipleOf: got 0, want a number greater than 0
p.yaml:5:47: outputSchema.properties.b.maximum: .inf is not a JSON number
p.yaml:6:58: outputSchema.properties.c.uniqueItems: got a string, want a boolean`,
		},
		{
			name: "refs",
			in: `outputSchema:
  type: object
  properties:
    a: {$ref: "other.json#/$defs/A"}
    b: {$ref: "#/$defs/Nod"}
    c: {$ref: "#/properties/a"}
    d: {$ref: "#/$defs/Node", type: object}
  $defs:
    Node: {type: string}
`,
			want: `p.yaml:4:15: outputSchema.properties.a.$ref: $ref "other.json#/$defs/A": only references inside the schema (starting with "#") are supported
p.yaml:5:15: outputSchema.properties.b.$ref: $ref "#/$defs/Nod": no such definition (did you mean "#/$defs/Node"?)
p.yaml:6:15: outputSchema.properties.c.$ref: $ref "#/properties/a": only "#", "#/$defs/NAME" and "#/definitions/NAME" are supported
p.yaml:7:31: outputSchema.properties.d.type: "type" beside "$ref" is not supported (only annotations such as description are)`,
		},
		{
			name: "ref cycle",
			in:   "outputSchema:\n  $ref: \"#/$defs/A\"\n  $defs:\n    A: {$ref: \"#/$defs/B\"}\n    B: {$ref: \"#/$defs/A\"}\n",
			want: `p.yaml:4:8: outputSchema.$defs.A: $ref cycle: #/$defs/A -> #/$defs/B -> #/$defs/A
p.yaml:5:8: outputSchema.$defs.B: $ref cycle: #/$defs/B -> #/$defs/A -> #/$defs/B`,
		},
		{
			name: "unsupported keywords",
			in:   "outputSchema:\n  allOf: [{type: string}]\n  patternProperties: {}\n",
			want: `p.yaml:2:3: outputSchema.allOf: keyword "allOf" is not supported
p.yaml:3:3: outputSchema.patternProperties: keyword "patternProperties" is not supported`,
		},
		{
			name: "object shapes",
			in: `outputSchema:
  type: object
  properties:
    a:
      type: object
      properties: {x: {type: string}}
      additionalProperties: {type: string}
    b: {type: array, items: [{type: string}]}
    c: {type: object, properties: {x: {type: string}}, required: x}
    d: false
    e: [string]
`,
			want: `p.yaml:7:7: outputSchema.properties.a.additionalProperties: a schema beside "properties" is not supported (use one of them)
p.yaml:8:22: outputSchema.properties.b.items: a list of item schemas (a tuple) is not supported
p.yaml:9:66: outputSchema.properties.c.required: got a string, want a list of property names
p.yaml:10:8: outputSchema.properties.d: schema false accepts no value
p.yaml:11:8: outputSchema.properties.e: got a list, want a schema mapping`,
		},
		{
			name: "top-only keywords",
			in:   "outputSchema:\n  $schema: \"http://json-schema.org/draft-04/schema#\"\n  type: object\n  properties:\n    a:\n      $defs: {}\n      type: string\n",
			want: `p.yaml:2:12: outputSchema.$schema: unsupported $schema "http://json-schema.org/draft-04/schema#" (want draft 2020-12 or draft-07)
p.yaml:6:7: outputSchema.properties.a.$defs: "$defs" is supported only at the top of the schema`,
		},
		{
			name: "unions",
			in: `outputSchema:
  type: object
  properties:
    a:
      oneOf: [{type: string}, {type: integer}]
      properties: {}
    b:
      oneOf: [{type: "null"}]
    c:
      oneOf: [{type: string}]
      anyOf: [{type: string}]
`,
			want: `p.yaml:5:7: warning: outputSchema.properties.a.oneOf: oneOf is kept as raw JSON: its branches are not all objects with a required property whose "const" tells them apart
p.yaml:6:7: outputSchema.properties.a.properties: "properties" beside "oneOf" is not supported
p.yaml:8:14: outputSchema.properties.b.oneOf: no branch besides type "null"
p.yaml:11:7: outputSchema.properties.c.anyOf: "anyOf" beside "oneOf" is not supported`,
		},
		{
			name: "YAML keys",
			in:   "outputSchema:\n  base: &b {type: string}\n  type: object\n  properties:\n    a:\n      <<: *b\n    1: {type: string}\n",
			want: `p.yaml:2:3: outputSchema.base: unknown keyword "base"
p.yaml:6:7: outputSchema.properties.a: YAML merge keys are not supported in a schema
p.yaml:6:7: outputSchema.properties.a: missing "type"
p.yaml:7:5: outputSchema.properties: got a number as a key, want a string`,
		},
		{
			name: "rejected by the meta-schema",
			in:   "outputSchema:\n  type: object\n  title: 5\n  properties:\n    a: {type: string, examples: 3}\n",
			want: `p.yaml:3:10: outputSchema.title: expected string, but got number
p.yaml:5:33: outputSchema.properties.a.examples: expected array, but got number`,
		},
		{
			name: "inside keywords only the compiled schema checks",
			in:   "outputSchema: {type: string, not: {pattern: \"(\"}, if: {$ref: \"http://x/y\"}}\n",
			want: `p.yaml:1:30: warning: outputSchema.not: "not" is checked by schema validation only, not by generated checks
p.yaml:1:45: outputSchema.not.pattern: '(' is not valid 'regex'
p.yaml:1:51: warning: outputSchema.if: "if" is checked by schema validation only, not by generated checks`,
		},
		{
			name: "remote reference inside a keyword only the compiled schema checks",
			in:   "outputSchema: {type: string, not: {$ref: \"http://x/y\"}}\n",
			want: `p.yaml:1:15: outputSchema: invalid schema: not loading "http://x/y": only references inside the schema are supported
p.yaml:1:30: warning: outputSchema.not: "not" is checked by schema validation only, not by generated checks`,
		},
		{
			name: "errors inside a value are found with their paths",
			in:   "outputSchema: {type: string, default: {a: {b: [1, {c: .nan}]}}}\n",
			want: `p.yaml:1:55: outputSchema.default.a.b[1].c: .nan is not a JSON number`,
		},
		{
			name: "x-aliases",
			in: `outputSchema:
  type: object
  properties:
    mood: {type: string, enum: [happy, sad], x-aliases: {happy: [glad, Sad], sadd: [x], sad: [blue, blue, SAD, ""]}}
    score: {type: number, x-aliases: {score: [s]}}
    title: {type: string}
  x-aliases: {mood: [feeling, Title], title: not-a-list}
`,
			want: `p.yaml:4:72: outputSchema.properties.mood.x-aliases.happy: alias "Sad" would stand for both "sad" and "happy"
p.yaml:4:78: outputSchema.properties.mood.x-aliases.sadd: no value "sadd" to alias (did you mean "sad"?)
p.yaml:4:101: outputSchema.properties.mood.x-aliases.sad: alias "blue" is given twice
p.yaml:4:107: outputSchema.properties.mood.x-aliases.sad: alias "SAD" is the value itself (the parser matches names ignoring case)
p.yaml:4:112: outputSchema.properties.mood.x-aliases.sad: an alias must not be empty
p.yaml:5:27: outputSchema.properties.score.x-aliases: x-aliases applies only to objects with properties and to string enums
p.yaml:7:31: outputSchema.x-aliases.mood: alias "Title" would stand for both "title" and "mood"
p.yaml:7:46: outputSchema.x-aliases.title: got a string, want a list of aliases`,
		},
		{
			name: "not a mapping",
			in:   "outputSchema: [type, object]\n",
			want: `p.yaml:1:15: outputSchema: got a list, want a schema mapping`,
		},
	}
	// More than maxNodes nodes, as written or through aliases.
	var enum, aliases strings.Builder
	enum.WriteString("outputSchema:\n  type: string\n  enum:\n")
	for i := range 100000 {
		fmt.Fprintf(&enum, "    - v%d\n", i)
	}
	aliases.WriteString("outputSchema:\n  type: object\n  properties:\n    a: &a {type: string, enum: [")
	for i := range 300 {
		fmt.Fprintf(&aliases, "v%d, ", i)
	}
	aliases.WriteString("w]}\n")
	for i := range 300 {
		fmt.Fprintf(&aliases, "    b%d: *a\n", i)
	}
	tests = append(tests, struct{ name, in, want string }{
		name: "a 100k-value enum",
		in:   enum.String(),
		want: `p.yaml:65537:7: outputSchema.enum[65533]: the schema has more than 65536 nodes`,
	}, struct{ name, in, want string }{
		name: "aliases",
		in:   aliases.String(),
		want: `p.yaml:4:943: outputSchema.properties.b214.enum[170]: the schema expands to more than 65536 nodes through aliases`,
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, diags := loadText(t, "p.yaml", tt.in)
			if got := diags.Error(); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
			if s != nil {
				t.Errorf("Load returned a schema with errors")
			}
		})
	}
}

// nested returns an outputSchema whose top object holds objects n levels
// deep, each in property a, the last of type string.
func nested(n int) string {
	s := "{type: string}"
	for range n - 1 {
		s = "{type: object, properties: {a: " + s + "}, required: [a]}"
	}
	return "outputSchema: " + s + "\n"
}

func TestMaxDepth(t *testing.T) {
	if s, diags := loadText(t, "p.yaml", nested(MaxDepth)); s == nil || len(diags) > 0 {
		t.Errorf("%d levels: %v", MaxDepth, diags)
	}
	for _, n := range []int{MaxDepth + 1, 3000} {
		s, diags := loadText(t, "p.yaml", nested(n))
		col := len("outputSchema: ") + 1 + MaxDepth*len("{type: object, properties: {a: ")
		want := fmt.Sprintf("p.yaml:1:%d: outputSchema%s: schema nested more than 100 levels deep", col, strings.Repeat(".properties.a", MaxDepth))
		if s != nil || diags.Error() != want {
			t.Errorf("%d levels: diagnostics\n%.300s\nwant\n%.300s", n, diags.Error(), want)
		}
	}
}
