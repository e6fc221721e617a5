package adapt

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestParams(t *testing.T) {
	got := Params(map[string]any{"b": 1, "a": "x", "c": nil})
	want := []Param{{"a", "x"}, {"b", 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Params = %v, want %v", got, want)
	}
}

func TestNumber(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want float64
		err  string
	}{
		{0.5, 0.5, ""},
		{float32(0.25), 0.25, ""},
		{2, 2, ""},
		{int64(-3), -3, ""},
		{uint8(7), 7, ""},
		{json.Number("1e2"), 100, ""},
		{json.Number("x"), 0, "want a number, not x"},
		{"0.5", 0, "want a number, not a string"},
		{true, 0, "want a number, not a boolean"},
		{[]any{1}, 0, "want a number, not a list"},
		{math.NaN(), 0, "want a finite number"},
		{math.Inf(1), 0, "want a finite number"},
	} {
		got, err := Number(Param{"k", tc.v})
		check(t, "Number", tc.v, got, tc.want, err, tc.err)
	}
}

func TestInteger(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want int64
		err  string
	}{
		{300, 300, ""},
		{int32(-1), -1, ""},
		{uint64(math.MaxInt64), math.MaxInt64, ""},
		{uint64(math.MaxUint64), 0, "out of range"},
		{300.0, 300, ""}, // as JSON decoding gives
		{json.Number("300"), 300, ""},
		{json.Number("3e2"), 300, ""},
		{10.5, 0, "want an integer, not 10.5"},
		{1e19, 0, "want an integer"},
		{"300", 0, "want an integer, not a string"},
		{map[string]any{}, 0, "want an integer, not an object"},
	} {
		got, err := Integer(Param{"k", tc.v})
		check(t, "Integer", tc.v, got, tc.want, err, tc.err)
	}
}

func TestStrings(t *testing.T) {
	for _, tc := range []struct {
		v      any
		want   []string
		single bool
		err    string
	}{
		{"END", []string{"END"}, true, ""},
		{[]string{"a", "b"}, []string{"a", "b"}, false, ""},
		{[]any{"a", "b"}, []string{"a", "b"}, false, ""},
		{[]any{}, []string{}, false, ""},
		{[]any{"a", 1}, nil, false, "want a string or a list of strings, not a list"},
		{1, nil, false, "want a string or a list of strings, not 1"},
	} {
		got, single, err := Strings(Param{"k", tc.v})
		check(t, "Strings", tc.v, got, tc.want, err, tc.err)
		if err == nil && single != tc.single {
			t.Errorf("Strings(%#v): single = %v", tc.v, single)
		}
	}
}

func check[T any](t *testing.T, fn string, v any, got, want T, err error, wantErr string) {
	t.Helper()
	switch {
	case wantErr == "" && err != nil:
		t.Errorf("%s(%#v): %v", fn, v, err)
	case wantErr == "" && !reflect.DeepEqual(got, want):
		t.Errorf("%s(%#v) = %v, want %v", fn, v, got, want)
	case wantErr != "" && err == nil:
		t.Errorf("%s(%#v) = %v, want an error %q", fn, v, got, wantErr)
	case wantErr != "":
		if !errors.Is(err, ErrInvalidParameter) || !strings.Contains(err.Error(), wantErr) || !strings.HasPrefix(err.Error(), `parameter "k": invalid parameter: `) {
			t.Errorf("%s(%#v): error %q, want ErrInvalidParameter with %q", fn, v, err, wantErr)
		}
	}
}

func TestSchemaObject(t *testing.T) {
	s, err := SchemaObject([]byte(` {"type": "object", "maxItems": 20} `))
	if err != nil || s["type"] != "object" || s["maxItems"] != json.Number("20") {
		t.Errorf("SchemaObject = %v, %v", s, err)
	}
	for _, bad := range []string{``, `null`, `[]`, `"x"`, `{`, `{} {}`, `{}x`, `{}}`} {
		if _, err := SchemaObject([]byte(bad)); !errors.Is(err, ErrInvalidSchema) {
			t.Errorf("SchemaObject(%q): error %v, want ErrInvalidSchema", bad, err)
		}
	}
}

func TestCompactJSON(t *testing.T) {
	if got := CompactJSON([]byte("{ \"a\" : [1, 2] }\n")); got != `{"a":[1,2]}` {
		t.Errorf("CompactJSON = %q", got)
	}
}
