package params

import (
	"encoding/json"
	"maps"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The published prompt file schema (schema/prompt.schema.json) describes
// `parameters` and `extra_parameters` for editors. These tests hold its
// $defs to the table: the same names, types, ranges and enums, and the
// descriptions made from Doc, Type and Providers.

const promptSchemaPath = "../../schema/prompt.schema.json"

// schemaDefs returns the $defs of the prompt file schema.
func schemaDefs(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile(promptSchemaPath)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Defs map[string]any `json:"$defs"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return s.Defs
}

// paramSchema is the JSON Schema of p's values.
func paramSchema(p Param) map[string]any {
	doc := strings.ToUpper(p.Doc[:1]) + p.Doc[1:]
	s := map[string]any{"description": doc + "; " + p.Type() + ". Providers: " + p.Providers.String() + "."}
	bounds := func(s map[string]any) {
		if !math.IsInf(p.Min, -1) && p.Min != math.MinInt64 {
			s["minimum"] = p.Min
		}
		if !math.IsInf(p.Max, 1) && p.Max != math.MaxInt64 {
			s["maximum"] = p.Max
		}
	}
	switch p.Kind {
	case Number:
		s["type"] = "number"
		bounds(s)
	case Integer:
		s["type"] = "integer"
		bounds(s)
	case Bool:
		s["type"] = "boolean"
	case Enum:
		values := make([]any, len(p.Values))
		for i, v := range p.Values {
			values[i] = v
		}
		s["enum"] = values
	case Strings:
		s["type"] = []any{"string", "array"}
		s["items"] = map[string]any{"type": "string"}
	case TokenBias:
		s["type"] = "object"
		s["propertyNames"] = map[string]any{"pattern": "^[0-9]+$"}
		value := map[string]any{"type": "integer"}
		bounds(value)
		s["additionalProperties"] = value
	}
	return s
}

// TestSchemaParameters: the properties of $defs.parameters are the table,
// and no other key is allowed.
func TestSchemaParameters(t *testing.T) {
	def, _ := schemaDefs(t)["parameters"].(map[string]any)
	want := map[string]any{}
	for _, p := range All() {
		want[p.Name] = paramSchema(p)
	}
	// Compare through JSON, as the file holds numbers as float64.
	var normal map[string]any
	b, _ := json.Marshal(want)
	if err := json.Unmarshal(b, &normal); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(def["properties"], normal) {
		b, _ := json.MarshalIndent(normal, "      ", "  ")
		t.Errorf("%s: $defs.parameters.properties differ from the table of runtime/params; want\n%s", promptSchemaPath, b)
	}
	if def["additionalProperties"] != false {
		t.Errorf("%s: $defs.parameters must have additionalProperties: false (an unknown parameter is an error)", promptSchemaPath)
	}
}

// TestSchemaExtraParameters: $defs.extraParameters forbids exactly the
// names that checkExtra in gen/internal/load rejects: the known parameters
// and the misplaced names.
func TestSchemaExtraParameters(t *testing.T) {
	def, _ := schemaDefs(t)["extraParameters"].(map[string]any)
	names, _ := def["propertyNames"].(map[string]any)
	not, _ := names["not"].(map[string]any)
	var got []string
	for _, v := range not["enum"].([]any) {
		got = append(got, v.(string))
	}
	want := slices.Sorted(slices.Values(append(Names(), slices.Collect(maps.Keys(misplaced))...)))
	if !slices.Equal(got, want) {
		b, _ := json.Marshal(want)
		t.Errorf("%s: $defs.extraParameters.propertyNames.not.enum = %q; want (sorted)\n%s", promptSchemaPath, got, b)
	}
}
