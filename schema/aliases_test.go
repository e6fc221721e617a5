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
	wantModel := `{"type":"object","properties":{"mood":{"type":"string","enum":["happy","sad"]},"x-aliases":{"type":"string"}}}`
	wantParser := `{"type":"object","properties":{"mood":{"type":"string","enum":["happy","sad"],"x-aliases":{"happy":["glad"]}},"x-aliases":{"type":"string"}},"x-aliases":{"mood":["feeling"]}}`
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

// TestJSONKeepsWrittenOrder: the schema sent to a model lists members as
// the file writes them, so that a model that answers in the schema's order
// (OpenAI's structured outputs) writes "reasoning" before "answer".
func TestJSONKeepsWrittenOrder(t *testing.T) {
	s, diags := loadText(t, "p.yaml", `outputSchema:
  type: object
  required: [reasoning, answer]
  properties:
    reasoning: {type: string}
    answer: {type: string, description: "<b>final</b>"}
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := `{"type":"object","required":["reasoning","answer"],"properties":{"reasoning":{"type":"string"},"answer":{"type":"string","description":"\u003cb\u003efinal\u003c/b\u003e"}}}`
	if got := string(s.JSON); got != want {
		t.Errorf("JSON:\n%s\nwant:\n%s", got, want)
	}
}
