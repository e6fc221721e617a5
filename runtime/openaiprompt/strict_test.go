package openaiprompt

import (
	"testing"

	"github.com/promptgen/promptgen/internal/strictschema"
	"github.com/promptgen/promptgen/runtime/internal/adapt"
	"github.com/promptgen/promptgen/runtime/internal/adapttest"
)

// TestStrictSchemas: the shared schemas of the adapters' tests are what
// strict mode takes (structured) and does not (loose); the rules
// themselves are tested in internal/strictschema.
func TestStrictSchemas(t *testing.T) {
	for _, tc := range []struct {
		name   string
		schema string
		strict bool
	}{
		{"structured", adapttest.StructuredSchema, true},
		{"loose", adapttest.LooseSchema, false},
	} {
		schema, err := adapt.SchemaObject([]byte(tc.schema))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := len(strictschema.Check(schema)) == 0; got != tc.strict {
			t.Errorf("%s: strict = %v, want %v (%v)", tc.name, got, tc.strict, strictschema.Check(schema))
		}
	}
}
