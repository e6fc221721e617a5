package jinja

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"sync"
	"testing"
)

// The expected values in testdata/cases.json come from Python and Jinja2;
// see testdata/gen_cases.py.

var loadCases = sync.OnceValues(func() (map[string]json.RawMessage, error) {
	data, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		return nil, err
	}
	var cases map[string]json.RawMessage
	return cases, json.Unmarshal(data, &cases)
})

// rows returns the rows of the named table; each row holds the arguments
// and then the expected result.
func rows(t *testing.T, name string) [][]json.RawMessage {
	t.Helper()
	var rs [][]json.RawMessage
	decode(t, caseTable(t, name), &rs)
	if len(rs) == 0 {
		t.Fatalf("no cases for %s", name)
	}
	return rs
}

func caseTable(t *testing.T, name string) json.RawMessage {
	t.Helper()
	cases, err := loadCases()
	if err != nil {
		t.Fatal(err)
	}
	table, ok := cases[name]
	if !ok {
		t.Fatalf("testdata/cases.json has no %q", name)
	}
	return table
}

func decode(t *testing.T, raw json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("decoding %s: %v", raw, err)
	}
}

func arg[T any](t *testing.T, raw json.RawMessage) T {
	t.Helper()
	var v T
	decode(t, raw, &v)
	return v
}

func floatArg(t *testing.T, raw json.RawMessage) float64 {
	t.Helper()
	return math.Float64frombits(arg[uint64](t, raw))
}

// optInt decodes an int that may be null (Python's None).
func optInt(t *testing.T, raw json.RawMessage) (int, bool) {
	t.Helper()
	p := arg[*int](t, raw)
	if p == nil {
		return 0, false
	}
	return *p, true
}

// raised reports whether Python raised instead of returning a value.
func raised(raw json.RawMessage) bool {
	return bytes.HasPrefix(raw, []byte(`{"raises"`))
}

// sameFloat compares floats bit for bit, except that all NaNs are equal:
// Python prints them all as nan.
func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

func TestAppendFloat(t *testing.T) {
	for _, r := range rows(t, "float_repr") {
		f, want := floatArg(t, r[0]), arg[string](t, r[1])
		if got := string(AppendFloat([]byte("x"), f)); got != "x"+want {
			t.Errorf("AppendFloat(%v) = %q, want %q", f, got, "x"+want)
		}
		if got := FormatFloat(f); got != want {
			t.Errorf("FormatFloat(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestAppendBool(t *testing.T) {
	for _, r := range rows(t, "bool") {
		b, want := arg[bool](t, r[0]), arg[string](t, r[1])
		if got := string(AppendBool(nil, b)); got != want {
			t.Errorf("AppendBool(%v) = %q, want %q", b, got, want)
		}
	}
}

func TestAppendQuoted(t *testing.T) {
	for _, r := range rows(t, "quoted") {
		s, want, list := arg[string](t, r[0]), arg[string](t, r[1]), arg[string](t, r[2])
		if got := string(AppendQuoted(nil, s)); got != want {
			t.Errorf("AppendQuoted(%q) = %s, want %s", s, got, want)
		}
		if got := "[" + want + "]"; got != list {
			t.Errorf("Jinja prints [%q] as %s, not %s", s, list, got)
		}
	}
}

func TestStringMappings(t *testing.T) {
	for name, fn := range map[string]func(string) string{
		"upper":      Upper,
		"lower":      Lower,
		"capitalize": Capitalize,
		"title":      Title,
		"pytitle":    PyTitle,
	} {
		for _, r := range rows(t, name) {
			s, want := arg[string](t, r[0]), arg[string](t, r[1])
			if got := fn(s); got != want {
				t.Errorf("%s(%q) = %q, want %q", name, s, got, want)
			}
		}
	}
}

func TestStripSpace(t *testing.T) {
	for _, r := range rows(t, "strip") {
		s, left, right, want := arg[string](t, r[0]), arg[bool](t, r[1]), arg[bool](t, r[2]), arg[string](t, r[3])
		if got := StripSpace(s, left, right); got != want {
			t.Errorf("StripSpace(%q, %v, %v) = %q, want %q", s, left, right, got, want)
		}
	}
}

func TestStripChars(t *testing.T) {
	for _, r := range rows(t, "strip_chars") {
		s, chars := arg[string](t, r[0]), arg[string](t, r[1])
		left, right, want := arg[bool](t, r[2]), arg[bool](t, r[3]), arg[string](t, r[4])
		if got := StripChars(s, chars, left, right); got != want {
			t.Errorf("StripChars(%q, %q, %v, %v) = %q, want %q", s, chars, left, right, got, want)
		}
	}
}

func TestSplit(t *testing.T) {
	for _, r := range rows(t, "split") {
		s, sep, maxsplit := arg[string](t, r[0]), arg[*string](t, r[1]), arg[int](t, r[2])
		got, err := Split(s, deref(sep), sep != nil, maxsplit)
		name := fmt.Sprintf("Split(%q, %q, %v, %d)", s, deref(sep), sep != nil, maxsplit)
		if raised(r[3]) {
			if err == nil {
				t.Errorf("%s = %q, want an error", name, got)
			}
			continue
		}
		if want := arg[[]string](t, r[3]); err != nil || fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
			t.Errorf("%s = %q, %v, want %q", name, got, err, want)
		}
	}
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func TestIndent(t *testing.T) {
	for _, r := range rows(t, "indent") {
		s, indent, first, blank := arg[string](t, r[0]), arg[string](t, r[1]), arg[bool](t, r[2]), arg[bool](t, r[3])
		if got, _ := Indent(s, indent, first, blank); got != arg[string](t, r[4]) {
			t.Errorf("Indent(%q, %q, %v, %v) = %q, want %q", s, indent, first, blank, got, arg[string](t, r[4]))
		}
	}
}

func TestTruncate(t *testing.T) {
	for _, r := range rows(t, "truncate") {
		s, length, killwords := arg[string](t, r[0]), arg[int](t, r[1]), arg[bool](t, r[2])
		end, leeway, want := arg[string](t, r[3]), arg[int](t, r[4]), arg[string](t, r[5])
		if got := Truncate(s, length, killwords, end, leeway); got != want {
			t.Errorf("Truncate(%q, %d, %v, %q, %d) = %q, want %q", s, length, killwords, end, leeway, got, want)
		}
	}
}

func TestTruncateMarkup(t *testing.T) {
	for _, r := range rows(t, "truncate_markup") {
		s, length, killwords := arg[string](t, r[0]), arg[int](t, r[1]), arg[bool](t, r[2])
		end, leeway, want := arg[string](t, r[3]), arg[int](t, r[4]), arg[string](t, r[5])
		if got, ok := TruncateMarkup(s, length, killwords, end, leeway); got != want || !ok {
			t.Errorf("TruncateMarkup(%q, %d, %v, %q, %d) = %q, %v, want %q", s, length, killwords, end, leeway, got, ok, want)
		}
	}
}

func TestRound(t *testing.T) {
	for _, r := range rows(t, "round") {
		f, precision, method := floatArg(t, r[0]), arg[int](t, r[1]), arg[string](t, r[2])
		got, err := Round(f, precision, method)
		name := fmt.Sprintf("Round(%v, %d, %q)", f, precision, method)
		if raised(r[3]) || err != nil {
			if !raised(r[3]) || err == nil {
				t.Errorf("%s = %v, %v; Python gives %s", name, got, err, r[3])
			}
			continue
		}
		if want := floatArg(t, r[3]); !sameFloat(got, want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
}

func TestRoundInt(t *testing.T) {
	for _, r := range rows(t, "round_int") {
		x, n := arg[int64](t, r[0]), arg[int](t, r[1])
		got, err := RoundInt(x, n)
		checkInt(t, fmt.Sprintf("RoundInt(%d, %d)", x, n), got, err, r[2])
	}
}

// pyIntResult returns the expected result of a Jinja int filter case: the
// int, or fails where Python raised (OverflowError) or returned an int
// beyond int64 (documented).
func pyIntResult(t *testing.T, raw json.RawMessage) (want int64, fails bool) {
	t.Helper()
	if raised(raw) {
		return 0, true
	}
	v, err := strconv.ParseInt(arg[string](t, raw), 10, 64)
	return v, err != nil
}

// checkInt compares an int filter's result with Python's.
func checkInt(t *testing.T, call string, got int64, err error, python json.RawMessage) {
	t.Helper()
	want, fails := pyIntResult(t, python)
	switch {
	case fails && err == nil:
		t.Errorf("%s = %d, want an error (Python: %s)", call, got, python)
	case !fails && err != nil:
		t.Errorf("%s fails (%v), want %d", call, err, want)
	case !fails && got != want:
		t.Errorf("%s = %d, want %d", call, got, want)
	}
}

func TestParseInt(t *testing.T) {
	for _, r := range rows(t, "parse_int") {
		s, def, base := arg[string](t, r[0]), arg[int64](t, r[1]), arg[int](t, r[2])
		got, err := ParseInt(s, def, base)
		checkInt(t, fmt.Sprintf("ParseInt(%q, %d, %d)", s, def, base), got, err, r[3])
	}
}

func TestFloatToInt(t *testing.T) {
	for _, r := range rows(t, "float_to_int") {
		f, def := floatArg(t, r[0]), arg[int64](t, r[1])
		got, err := FloatToInt(f, def)
		checkInt(t, fmt.Sprintf("FloatToInt(%v, %d)", f, def), got, err, r[2])
	}
}

func TestParseFloat(t *testing.T) {
	for _, r := range rows(t, "parse_float") {
		s, def, want := arg[string](t, r[0]), floatArg(t, r[1]), floatArg(t, r[2])
		if got := ParseFloat(s, def); !sameFloat(got, want) {
			t.Errorf("ParseFloat(%q, %v) = %v, want %v", s, def, got, want)
		}
	}
}

// TestIntArithmetic holds the int operations to Python's, at the int64
// limits too: where Python's int leaves int64 they fail, never wrap.
func TestIntArithmetic(t *testing.T) {
	mod := func(a, b int64) (int64, error) { return Mod(a, b), nil }
	neg := func(a, _ int64) (int64, error) { return NegInt(a) }
	for name, fn := range map[string]func(a, b int64) (int64, error){
		"add":      AddInt,
		"sub":      SubInt,
		"mul":      MulInt,
		"neg":      neg,
		"floordiv": FloorDiv,
		"mod":      mod,
		"pow":      PowInt,
	} {
		for _, r := range rows(t, name) {
			a, b, want := arg[int64](t, r[0]), int64(0), r[len(r)-1]
			if len(r) == 3 {
				b = arg[int64](t, r[1])
			}
			got, err := fn(a, b)
			switch {
			case bytes.Equal(want, []byte(`"beyond int64"`)):
				if !errors.Is(err, errIntTooLarge) {
					t.Errorf("%s(%d, %d) = %d, %v; want %v", name, a, b, got, err, errIntTooLarge)
				}
			case err != nil || got != arg[int64](t, want):
				t.Errorf("%s(%d, %d) = %d, %v; want %s", name, a, b, got, err, want)
			}
		}
	}
}

func TestTrueDiv(t *testing.T) {
	for _, r := range rows(t, "truediv") {
		a, b, want := arg[int64](t, r[0]), arg[int64](t, r[1]), floatArg(t, r[2])
		if got := TrueDiv(a, b); !sameFloat(got, want) {
			t.Errorf("TrueDiv(%d, %d) = %v, want %v", a, b, got, want)
		}
	}
}

func TestFloatArithmetic(t *testing.T) {
	for name, fn := range map[string]func(a, b float64) float64{
		"floordiv_float": FloorDivFloat,
		"mod_float":      ModFloat,
	} {
		for _, r := range rows(t, name) {
			a, b, want := floatArg(t, r[0]), floatArg(t, r[1]), floatArg(t, r[2])
			if got := fn(a, b); !sameFloat(got, want) {
				t.Errorf("%s(%v, %v) = %v, want %v", name, a, b, got, want)
			}
		}
	}
}

func TestPowFloat(t *testing.T) {
	for _, r := range rows(t, "pow_float") {
		a, b := floatArg(t, r[0]), floatArg(t, r[1])
		got, err := PowFloat(a, b)
		switch {
		case raised(r[2]):
			if err == nil {
				t.Errorf("PowFloat(%v, %v) = %v, want an error", a, b, got)
			}
		case err != nil:
			t.Errorf("PowFloat(%v, %v): %v", a, b, err)
		case b != math.Trunc(b) && !math.IsInf(b, 0):
			// math.Pow's value, which may differ in the last digits.
		case !sameFloat(got, floatArg(t, r[2])):
			t.Errorf("PowFloat(%v, %v) = %v, want %v", a, b, got, floatArg(t, r[2]))
		}
	}
}

func TestIndex(t *testing.T) {
	for _, r := range rows(t, "index") {
		xs, i := arg[[]int](t, r[0]), arg[int](t, r[1])
		got, ok := Index(xs, i)
		if raised(r[2]) {
			if ok {
				t.Errorf("Index(%v, %d) = %d, want IndexError", xs, i, got)
			}
		} else if want := arg[int](t, r[2]); !ok || got != want {
			t.Errorf("Index(%v, %d) = %d, %v, want %d", xs, i, got, ok, want)
		}
	}
}

func TestIndexString(t *testing.T) {
	for _, r := range rows(t, "index_string") {
		s, i := arg[string](t, r[0]), arg[int](t, r[1])
		got, ok := IndexString(s, i)
		if raised(r[2]) {
			if ok {
				t.Errorf("IndexString(%q, %d) = %q, want IndexError", s, i, got)
			}
		} else if want := arg[string](t, r[2]); !ok || got != want {
			t.Errorf("IndexString(%q, %d) = %q, %v, want %q", s, i, got, ok, want)
		}
	}
}

func TestSlice(t *testing.T) {
	for _, r := range rows(t, "slice") {
		xs, step, want := arg[[]int](t, r[0]), arg[int](t, r[3]), arg[[]int](t, r[4])
		lo, hasLo := optInt(t, r[1])
		hi, hasHi := optInt(t, r[2])
		got := Slice(xs, lo, hi, step, hasLo, hasHi)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("Slice(%v, %s, %s, %d) = %v, want %v", xs, r[1], r[2], step, got, want)
		}
		if step == 1 && len(got) < len(xs) {
			// Appending must not overwrite the source.
			before := fmt.Sprint(xs)
			_ = append(got, -1)
			if fmt.Sprint(xs) != before {
				t.Errorf("appending to Slice(%v, %s, %s, 1) changed the source", before, r[1], r[2])
			}
		}
	}
}

func TestSliceString(t *testing.T) {
	for _, r := range rows(t, "slice_string") {
		s, step, want := arg[string](t, r[0]), arg[int](t, r[3]), arg[string](t, r[4])
		lo, hasLo := optInt(t, r[1])
		hi, hasHi := optInt(t, r[2])
		if got := SliceString(s, lo, hi, step, hasLo, hasHi); got != want {
			t.Errorf("SliceString(%q, %s, %s, %d) = %q, want %q", s, r[1], r[2], step, got, want)
		}
	}
}

func TestSortedKeys(t *testing.T) {
	for _, r := range rows(t, "sorted_keys") {
		keys, want := arg[[]string](t, r[0]), arg[[]string](t, r[1])
		m := make(map[string]int)
		for i, k := range keys {
			m[k] = i
		}
		if got := SortedKeys(m); fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
			t.Errorf("SortedKeys(%q) = %q, want %q", keys, got, want)
		}
	}
}

func TestSortStrings(t *testing.T) {
	for _, r := range rows(t, "sort") {
		xs, reverse, cs, want := arg[[]string](t, r[0]), arg[bool](t, r[1]), arg[bool](t, r[2]), arg[[]string](t, r[3])
		before := fmt.Sprintf("%q", xs)
		if got := SortStrings(xs, reverse, cs); fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
			t.Errorf("SortStrings(%s, %v, %v) = %q, want %q", before, reverse, cs, got, want)
		}
		if fmt.Sprintf("%q", xs) != before {
			t.Errorf("SortStrings(%s, %v, %v) modified its argument", before, reverse, cs)
		}
	}
}

func TestUniqueStrings(t *testing.T) {
	for _, r := range rows(t, "unique") {
		xs, cs, want := arg[[]string](t, r[0]), arg[bool](t, r[1]), arg[[]string](t, r[2])
		if got := UniqueStrings(xs, cs); fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
			t.Errorf("UniqueStrings(%q, %v) = %q, want %q", xs, cs, got, want)
		}
	}
}

func TestJSONWriter(t *testing.T) {
	for _, r := range rows(t, "json") {
		indent, hasIndent := optInt(t, r[1])
		w := NewJSONWriter(indent, hasIndent)
		got := string(writeJSON(t, &w, nil, r[0]))
		if want := arg[string](t, r[2]); got != want {
			t.Errorf("JSONWriter(indent %s) of %s:\n got %s\nwant %s", r[1], r[0], got, want)
		}
	}
}

func TestTransformersJSONWriter(t *testing.T) {
	for _, r := range rows(t, "transformers_json") {
		indent, hasIndent := optInt(t, r[1])
		w := NewTransformersJSONWriter(indent, hasIndent)
		got := string(writeJSON(t, &w, nil, r[0]))
		if want := arg[string](t, r[2]); got != want {
			t.Errorf("TransformersJSONWriter(indent %s) of %s:\n got %s\nwant %s", r[1], r[0], got, want)
		}
	}
}

// writeJSON writes the value encoded by gen_cases.py's json_tree.
func writeJSON(t *testing.T, w *JSONWriter, dst []byte, tree json.RawMessage) []byte {
	t.Helper()
	var node []json.RawMessage
	decode(t, tree, &node)
	switch tag := arg[string](t, node[0]); tag {
	case "null":
		return w.Null(dst)
	case "bool":
		return w.Bool(dst, arg[bool](t, node[1]))
	case "int":
		return w.Int(dst, arg[int64](t, node[1]))
	case "float":
		return w.Float(dst, floatArg(t, node[1]))
	case "str":
		return w.String(dst, arg[string](t, node[1]))
	case "list":
		dst = w.OpenArray(dst)
		for _, item := range arg[[]json.RawMessage](t, node[1]) {
			dst = writeJSON(t, w, dst, item)
		}
		return w.CloseArray(dst)
	case "dict":
		dst = w.OpenObject(dst)
		for _, member := range arg[[][]json.RawMessage](t, node[1]) {
			dst = w.Key(dst, arg[string](t, member[0]))
			dst = writeJSON(t, w, dst, member[1])
		}
		return w.CloseObject(dst)
	default:
		t.Fatalf("unknown JSON tree tag %q", tag)
		return nil
	}
}
