package schema

import "testing"

// TestAliasesLeftOutForModels checks that x-aliases reach the parser's
// JSON only: a model is sent the schema without them, and a property named
// x-aliases is a property, kept in both.
func TestAliasesLeftOutForModels(t *testing.T) {
	s, diags := loadText(t, "p.yaml", `outputSchema:
  type: object
  properties:
    mood: {type: string, enum: [happy, sad], x-aliases: {happy: [glad]}}
    x-aliases: {type: string}
  x-aliases: {mood: [feeling]}
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	wantModel := `{"properties":{"mood":{"enum":["happy","sad"],"type":"string"},"x-aliases":{"type":"string"}},"type":"object"}`
	wantParser := `{"properties":{"mood":{"enum":["happy","sad"],"type":"string","x-aliases":{"happy":["glad"]}},"x-aliases":{"type":"string"}},"type":"object","x-aliases":{"mood":["feeling"]}}`
	if got := string(s.JSON); got != wantModel {
		t.Errorf("JSON:\n%s\nwant:\n%s", got, wantModel)
	}
	if got := string(s.ParserJSON); got != wantParser {
		t.Errorf("ParserJSON:\n%s\nwant:\n%s", got, wantParser)
	}

	plain, diags := loadText(t, "p.yaml", "outputSchema: {type: string, enum: [a, b]}\n")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if plain.ParserJSON != nil {
		t.Errorf("ParserJSON of a schema without x-aliases = %s, want nil", plain.ParserJSON)
	}
}
