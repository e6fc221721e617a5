package output

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParser: a Parser parses leniently by default and reports its fixes;
// Strict, as a default or per call, is Parse; Lenient overrides a strict
// default.
func TestParser(t *testing.T) {
	const schemaJSON = `{"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}`
	type out struct {
		N int `json:"n"`
	}
	repaired := "{n: '12,111',}"
	lenient := NewParser(schemaJSON, nil)
	strict := NewParser(schemaJSON, nil, Strict())

	var fixes []Fix
	v, err := ParseWith[out](lenient, repaired, Fixes(&fixes))
	if err != nil || v.N != 12111 {
		t.Fatalf("lenient: got %v, %v", v, err)
	}
	want := []Fix{{"", repairUnquotedKey}, {"", repairTrailingComma}, {"/n", repairSingleQuotes}, {"/n", fixNumberFromString}}
	if d := cmp.Diff(want, fixes); d != "" {
		t.Errorf("fixes (-want +got)\n%s", d)
	}

	for name, parse := range map[string]func() (out, error){
		"strict default":  func() (out, error) { return ParseWith[out](strict, repaired, Fixes(&fixes)) },
		"strict per call": func() (out, error) { return ParseWith[out](lenient, repaired, Strict(), Fixes(&fixes)) },
	} {
		fixes = []Fix{{"/x", "stale"}}
		_, err := parse()
		_, strictErr := Parse[out](repaired, nil)
		if err == nil || err.Error() != strictErr.Error() {
			t.Errorf("%s: got %v, want Parse's error %v", name, err, strictErr)
		}
		if fixes != nil {
			t.Errorf("%s: fixes %v after a failed parse, want none", name, fixes)
		}
	}
	if v, err := ParseWith[out](strict, repaired, Lenient()); err != nil || v.N != 12111 {
		t.Errorf("Lenient over a strict default: got %v, %v", v, err)
	}

	// Clean JSON needs no shape: a schema the parser cannot compile fails
	// only the answers that need repair.
	broken := NewParser(`{"$ref": "#/nowhere"}`, nil)
	if v, err := ParseWith[out](broken, `{"n": 3}`, Fixes(&fixes)); err != nil || v.N != 3 || fixes != nil {
		t.Errorf("clean JSON: got %v, %v, fixes %v", v, err, fixes)
	}
	if _, err := ParseWith[out](broken, repaired); err == nil {
		t.Error("repair with a broken schema: got no error")
	}

	// No schema: any JSON value, repaired.
	var raw []Fix
	if v, err := ParseWith[map[string]any](NewParser("", nil), "{a: 1, // one\n}", Fixes(&raw)); err != nil || v["a"] != 1.0 || len(raw) == 0 {
		t.Errorf("no schema: got %v, %v, fixes %v", v, err, raw)
	}
	var es Errors
	validated := NewParser(schemaJSON, MustCompileSchema(schemaJSON))
	if _, err := ParseWith[out](validated, `{"m": 1}`); !errors.As(err, &es) || es[0].Keyword != "required" {
		t.Errorf("missing member: got %v, want a required Error", err)
	}
}
