package schema

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

func TestValidate(t *testing.T) {
	s, diags := loadFile(t, "testdata/golden/customer_summary.yaml")
	if s == nil {
		t.Fatal(diags)
	}
	tests := []struct {
		doc  string
		want []Violation
	}{
		{`{"main_reason": "Billing", "sentiment": "neutral", "action_items": [], "summary": "s"}`, nil},
		{`{"main_reason": "Billing", "sentiment": "angry", "action_items": ["a", 2]}`, []Violation{
			{Pointer: "", Keyword: "required", Message: "missing properties: 'summary'"},
			{Pointer: "/action_items/1", Keyword: "type", Message: "expected string, but got number"},
			{Pointer: "/sentiment", Keyword: "enum", Message: `value must be one of "positive", "neutral", "negative"`},
		}},
	}
	for _, tt := range tests {
		got, err := s.Validate([]byte(tt.doc))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Validate(%s) (-want +got):\n%s", tt.doc, diff)
		}
	}
	for _, doc := range []string{`{"a": `, `{} {}`} {
		if _, err := s.Validate([]byte(doc)); err == nil {
			t.Errorf("Validate(%s) accepted invalid JSON", doc)
		}
	}
}

// TestValidateNode validates examples written in YAML, as the generator
// will for examples[].expected_output, and reports at the YAML positions.
func TestValidateNode(t *testing.T) {
	s, diags := loadFile(t, "testdata/golden/customer_summary.yaml")
	if s == nil {
		t.Fatal(diags)
	}
	const example = `examples:
  - expected_output:
      main_reason: Billing
      sentiment: furious
      action_items: [call back, 3]
`
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(example), &doc); err != nil {
		t.Fatal(err)
	}
	n := doc.Content[0].Content[1].Content[0].Content[1]
	got := s.ValidateNode(n, "examples[0].expected_output").Error()
	want := `testdata/golden/customer_summary.yaml:3:7: examples[0].expected_output: missing properties: 'summary'
testdata/golden/customer_summary.yaml:4:18: examples[0].expected_output.sentiment: value must be one of "positive", "neutral", "negative"
testdata/golden/customer_summary.yaml:5:33: examples[0].expected_output.action_items[1]: expected string, but got number`
	if got != want {
		t.Errorf("ValidateNode:\n%s\nwant:\n%s", got, want)
	}
	// An example too large to check is not the schema.
	if err := yaml.Unmarshal([]byte("expected_output: ["+strings.Repeat("x, ", 70000)+"]"), &doc); err != nil {
		t.Fatal(err)
	}
	got = s.ValidateNode(doc.Content[0].Content[1], "examples[0].expected_output").Error()
	want = `testdata/golden/customer_summary.yaml:1:196624: examples[0].expected_output[65535]: the value has more than 65536 nodes`
	if got != want {
		t.Errorf("ValidateNode:\n%s\nwant:\n%s", got, want)
	}
}

// TestPosOption checks that diagnostics use the caller's positions.
func TestPosOption(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("type: strin\n"), &doc); err != nil {
		t.Fatal(err)
	}
	pos := func(n *yaml.Node) Pos { return Pos{File: "x.yaml", Line: n.Line + 10, Col: n.Column * 2} }
	_, diags := Load(doc.Content[0], Options{Path: "outputSchema", Pos: pos})
	want := `x.yaml:11:14: outputSchema.type: unknown type "strin" (did you mean "string"?)`
	if got := diags.Error(); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

// FuzzLoad checks that Load never panics and returns a schema exactly when
// it reports no error.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		"type: object\nproperties: {a: {type: string}}\nrequired: [a]\n",
		"oneOf: [{$ref: '#/$defs/A'}, {type: 'null'}]\n$defs: {A: {type: object, properties: {k: {const: a}}, required: [k]}}\n",
		"items: {$ref: '#'}\n",
		"a: &a [*a]\n",
		"enum: [1, 2.5, .inf]\n",
		"{type: string, pattern: '(', minLength: -1}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var doc yaml.Node
		if yaml.Unmarshal([]byte(text), &doc) != nil || len(doc.Content) == 0 {
			return
		}
		s, diags := Load(doc.Content[0], Options{File: "f.yaml", Path: "outputSchema"})
		if (s == nil) != diags.HasErrors() {
			t.Fatalf("Load(%q) = %v, %v", text, s, diags)
		}
		if s != nil {
			if _, err := s.Validate([]byte(`{"a": [1, "x", null, {"b": true}]}`)); err != nil {
				t.Fatalf("Validate: %v", err)
			}
		}
	})
}
