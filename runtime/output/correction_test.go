package output

import (
	"fmt"
	"strings"
	"testing"
)

// TestCorrection checks the message for each kind of failure a parse
// reports.
func TestCorrection(t *testing.T) {
	const schemaJSON = `{"type": "object", "properties": {"n": {"type": "integer"}, "mood": {"enum": ["up", "down"]}}, "required": ["n"]}`
	p := NewParser(schemaJSON, MustCompileSchema(schemaJSON))
	type out struct {
		N    int    `json:"n"`
		Mood string `json:"mood"`
	}
	parse := func(completion string) error {
		_, err := ParseWith[out](p, completion)
		return err
	}
	many := make(Errors, 10)
	for i := range many {
		many[i] = &Error{Pointer: fmt.Sprintf("/%d", i), Keyword: "type", Message: "got a string, want a number"}
	}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"nil", nil, ""},
		{"violations", parse(`{"mood": "sideways"}`), `Your answer does not fit the JSON Schema it must follow:
- at the top: missing properties: 'n'
- at /mood: value must be one of "up", "down"
Reply again with the corrected JSON value, and nothing else.`},
		{"repair failed", parse(`{n: 1, mood: sideways}`), `Your answer does not fit the JSON Schema it must follow:
- at /mood: "sideways" is not one of "up", "down"
Reply again with the corrected JSON value, and nothing else.`},
		{"truncated", parse(`{"n": 1, "mood": "do`), "Your answer was cut off before its JSON value ended, inside /mood. Reply again with the whole value, shorter if need be, and nothing else."},
		{"no JSON", parse("I cannot answer that."), "Your answer holds no JSON value that can be read. Reply again with only a JSON value that follows this JSON Schema:\n" + schemaJSON},
		{"too large", parse(strings.Repeat(" ", MaxCompletion+1)), "Your answer was too long to read. Reply again with a shorter JSON value, and nothing else."},
		{"many", many, "Your answer does not fit the JSON Schema it must follow:\n" +
			"- at /0: got a string, want a number\n- at /1: got a string, want a number\n- at /2: got a string, want a number\n- at /3: got a string, want a number\n" +
			"- at /4: got a string, want a number\n- at /5: got a string, want a number\n- at /6: got a string, want a number\n- at /7: got a string, want a number\n" +
			"- and 2 more\nReply again with the corrected JSON value, and nothing else."},
	}
	for _, tt := range tests {
		if got := Correction(tt.err, schemaJSON); got != tt.want {
			t.Errorf("%s (%v):\ngot:\n%s\nwant:\n%s", tt.name, tt.err, got, tt.want)
		}
	}
}
