package output

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSchemaMembers checks that a compiled Schema finds what the Checker
// finds besides the keywords, wherever the schema applies: members named
// in another case than a property (nested, in items, through $ref, in
// the branches of a union), members given twice, numbers beyond the
// limits.
func TestSchemaMembers(t *testing.T) {
	s := MustCompileSchema(`{
  "type": "object",
  "properties": {
    "customer": {"type": "object", "properties": {"churn_risk": {"type": "number", "maximum": 1}}},
    "list": {"type": "array", "items": {"$ref": "#/$defs/item"}},
    "action": {"oneOf": [
      {"type": "object", "properties": {"type": {"const": "a"}, "x": {"type": "string"}}, "required": ["type"]},
      {"type": "object", "properties": {"type": {"const": "b"}}, "required": ["type"]}
    ]},
    "map": {"type": "object", "additionalProperties": {"type": "integer"}}
  },
  "$defs": {"item": {"type": "object", "properties": {"id": {"type": "integer"}}}}
}`)
	tests := []struct {
		doc  string
		want []string
	}{
		{`{"customer": {"churn_risk": 0.5}, "list": [{"id": 1}], "action": {"type": "a"}, "map": {"a": 1, "A": 2}}`, nil},
		{`{"customer": {"churn_risk": 0.5, "Churn_Risk": 5}}`, []string{"/customer/Churn_Risk properties"}},
		{`{"Customer": {}}`, []string{"/Customer properties"}},
		{`{"list": [{"id": 1}, {"ID": "x", "Id": 2}]}`, []string{"/list/1/ID properties", "/list/1/Id properties"}},
		// Every branch fails; the errors are those of both.
		{`{"action": {"type": "a", "TYPE": "b"}}`, []string{"/action/TYPE properties", "/action/type const"}},
		{`{"action": {"type": "a", "X": 1}}`, []string{"/action/X properties", "/action/type const"}},
		{`{"map": {"a": 1, "a": 2}}`, []string{"/map/a duplicate"}},
		{`{"customer": {"churn_risk": 1e1000, "churn_risk": 0}}`, []string{"/customer/churn_risk duplicate", "/customer/churn_risk number"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, pointers(s.Validate([]byte(tt.doc), nil))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.doc, diff)
		}
	}
}
