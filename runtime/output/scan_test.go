package output

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestScanValue(t *testing.T) {
	tests := []struct {
		in     string
		end    int
		status scanStatus
	}{
		{`{}`, 2, scanOK},
		{`[]`, 2, scanOK},
		{`{"a":[1,-2.5e+3,true,false,null,"x"]} tail`, 37, scanOK},
		{`"\u00e9\n\"" x`, 12, scanOK},
		{`0 1`, 1, scanOK},
		{`{"a":{"b":[{}]}}`, 16, scanOK},
		{`{"brace":"}{]["}`, 16, scanOK},
		{`{"a":1,}`, 7, scanSyntax},
		{`{'a':1}`, 1, scanSyntax},
		{`{"a" 1}`, 5, scanSyntax},
		{`[1 2]`, 3, scanSyntax},
		{`[01]`, 2, scanSyntax},
		{`[1.]`, 3, scanSyntax},
		{`[tru]`, 4, scanSyntax},
		{`["a\x"]`, 4, scanSyntax},
		{"[\"a\tb\"]", 3, scanSyntax},
		{`{"a":[1,2`, 9, scanTruncated},
		{`{"a":"b`, 7, scanTruncated},
		{`{"a`, 3, scanTruncated},
		{`[1e`, 3, scanTruncated},
		{`[fal`, 4, scanTruncated},
		{`["\u00`, 6, scanTruncated},
		{`{"a":`, 5, scanTruncated},
		{`[1,`, 3, scanTruncated},
	}
	for _, tt := range tests {
		end, st := scanValue(tt.in, 0)
		if end != tt.end || st != tt.status {
			t.Errorf("scanValue(%q) = %d, %d; want %d, %d", tt.in, end, st, tt.end, tt.status)
		}
	}
	deep := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	if end, st := scanValue(deep, 0); end != 200 || st != scanOK {
		t.Errorf("scanValue(100 nested arrays) = %d, %d", end, st)
	}
}

// FuzzScanValue checks that scanValue accepts exactly what encoding/json
// accepts, so that Extract never hands Decode a syntax error.
func FuzzScanValue(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5e3,"x\u00e9"]}`, `[true,false,null]`, `"\ud83d\ude00"`, `-0.0E-1`, `{"a":{"b":{}}}`, "\"\xff\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		start := skipSpace(s, 0)
		end, st := scanValue(s, start)
		whole := st == scanOK && skipSpace(s, end) == len(s)
		if valid := json.Valid([]byte(s)); whole != valid {
			t.Fatalf("scanValue(%q) = %d, %d; json.Valid = %v", s, end, st, valid)
		}
		if st == scanOK && !json.Valid([]byte(s[start:end])) {
			t.Fatalf("scanValue(%q) accepted %q", s, s[start:end])
		}
		if st == scanTruncated && end != len(s) {
			t.Fatalf("scanValue(%q) truncated at %d", s, end)
		}
	})
}

func TestPointerAt(t *testing.T) {
	type item struct {
		Done bool `json:"done"`
	}
	var v struct {
		Items []item         `json:"items"`
		Tags  map[string]int `json:"tags"`
		Name  string         `json:"name"`
	}
	tests := []struct{ doc, want string }{
		{`{"items":[{"done":true},{"done":"yes"}]}`, "/items/1/done"},
		{`{"tags":{"a/b":1,"c~":"x"}}`, "/tags/c~0"},
		{`{"name":["x"]}`, "/name"},
		{`{"items":{"done":true}}`, "/items"},
		{`{"items":[{"done":true}], "name":{"first":"a"}}`, "/name"},
		{`[1]`, ""},
	}
	for _, tt := range tests {
		err := json.Unmarshal([]byte(tt.doc), &v)
		te, ok := err.(*json.UnmarshalTypeError)
		if !ok {
			t.Fatalf("Unmarshal(%s) = %v", tt.doc, err)
		}
		if got := pointerAt([]byte(tt.doc), te.Offset); got != tt.want {
			t.Errorf("pointerAt(%s, %d) = %q, want %q", tt.doc, te.Offset, got, tt.want)
		}
	}
}
