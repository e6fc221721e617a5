package output

import (
	"encoding/json"
	"testing"
)

// exactKeys is what generated code makes of an object whose property
// names no struct tag can hold.
type exactKeys struct {
	Plain  string   `json:"plain"`
	Quoted string   `json:"-"` // "k\"e\"y"
	Empty  *int     `json:"-"` // "", optional
	Comma  []string `json:"-"` // "a,b"
}

func (x *exactKeys) UnmarshalJSON(doc []byte) error {
	type plain exactKeys
	if err := json.Unmarshal(doc, (*plain)(x)); err != nil {
		return err
	}
	return DecodeMembers(doc, Member{Name: `k"e"y`, Value: &x.Quoted}, Member{Name: "", Value: &x.Empty}, Member{Name: "a,b", Value: &x.Comma})
}

func (x exactKeys) MarshalJSON() ([]byte, error) {
	type plain exactKeys
	doc, err := json.Marshal(plain(x))
	if err != nil {
		return nil, err
	}
	return AppendMembers(doc, Member{Name: `k"e"y`, Value: x.Quoted}, Member{Name: "", Value: x.Empty, Omit: x.Empty == nil}, Member{Name: "a,b", Value: x.Comma})
}

// TestExactMembers: members are read and written by their exact names,
// and round-trip; an optional one unset is left out.
func TestExactMembers(t *testing.T) {
	const doc = `{"plain":"p","k\"e\"y":"q","":7,"a,b":["x"],"a":"not a,b"}`
	var x exactKeys
	if err := json.Unmarshal([]byte(doc), &x); err != nil {
		t.Fatal(err)
	}
	if x.Plain != "p" || x.Quoted != "q" || x.Empty == nil || *x.Empty != 7 || len(x.Comma) != 1 || x.Comma[0] != "x" {
		t.Fatalf("decoded %+v", x)
	}
	got, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"plain":"p","k\"e\"y":"q","":7,"a,b":["x"]}`; string(got) != want {
		t.Errorf("encoded %s, want %s", got, want)
	}
	x.Empty = nil
	got, _ = json.Marshal(x)
	if want := `{"plain":"p","k\"e\"y":"q","a,b":["x"]}`; string(got) != want {
		t.Errorf("encoded %s, want %s", got, want)
	}
	var empty struct{}
	b, _ := json.Marshal(empty)
	if got, err := AppendMembers(b, Member{Name: "😀", Value: 1}); err != nil || string(got) != `{"😀":1}` {
		t.Errorf("AppendMembers to {}: %s, %v", got, err)
	}
	if err := DecodeMembers([]byte("null"), Member{Name: "", Value: &x.Empty}); err != nil {
		t.Errorf("DecodeMembers of null: %v", err)
	}
}
