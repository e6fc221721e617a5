package jinja

import (
	"encoding/json"
	"testing"
	"unicode"
	"unicode/utf8"
)

// unicodeTables is per-code-point Python reference data; see unicode_tables
// in testdata/gen_cases.py.
type unicodeTables struct {
	Version     string              `json:"unicode_version"`
	Skipped     [][2]rune           `json:"skipped"`
	Upper       [][]json.RawMessage `json:"upper"`
	Lower       [][]json.RawMessage `json:"lower"`
	Title       [][]json.RawMessage `json:"title"`
	Printable   [][2]rune           `json:"printable"`
	Space       [][2]rune           `json:"space"`
	SigmaAfterA [][2]rune           `json:"sigma_after_a"`
	SigmaAfter  [][2]rune           `json:"sigma_after"`
	Int         [][2]int64          `json:"int"`
}

func mappingTable(t *testing.T, rows [][]json.RawMessage) map[rune]string {
	t.Helper()
	m := make(map[rune]string, len(rows))
	for _, r := range rows {
		m[arg[rune](t, r[0])] = arg[string](t, r[1])
	}
	return m
}

// rangeSet reports membership in sorted [lo, hi] ranges.
type rangeSet [][2]rune

func (rs rangeSet) has(r rune) bool {
	lo, hi := 0, len(rs)
	for lo < hi {
		mid := (lo + hi) / 2
		switch {
		case r < rs[mid][0]:
			hi = mid
		case r > rs[mid][1]:
			lo = mid + 1
		default:
			return true
		}
	}
	return false
}

// TestUnicodeExhaustive checks every code point that Python's Unicode
// version assigns, except surrogates, against Python: code points assigned
// only in Go's newer Unicode version are skipped as documented divergences.
func TestUnicodeExhaustive(t *testing.T) {
	var tables unicodeTables
	decode(t, caseTable(t, "unicode"), &tables)
	t.Logf("Python Unicode %s, Go Unicode %s", tables.Version, unicode.Version)
	upper, lower, title := mappingTable(t, tables.Upper), mappingTable(t, tables.Lower), mappingTable(t, tables.Title)
	ints := make(map[rune]int64, len(tables.Int))
	for _, p := range tables.Int {
		ints[rune(p[0])] = p[1]
	}
	skipped := rangeSet(tables.Skipped)
	orSelf := func(m map[rune]string, r rune) string {
		if s, ok := m[r]; ok {
			return s
		}
		return string(r)
	}
	failures := 0
	check := func(ok bool, format string, args ...any) {
		if !ok {
			failures++
			if failures <= 50 {
				t.Errorf(format, args...)
			}
		}
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if skipped.has(r) {
			continue
		}
		c := string(r)
		check(Upper(c) == orSelf(upper, r), "Upper(%U) = %+q, want %+q", r, Upper(c), orSelf(upper, r))
		check(Lower(c) == orSelf(lower, r), "Lower(%U) = %+q, want %+q", r, Lower(c), orSelf(lower, r))
		check(PyTitle(c) == orSelf(title, r), "PyTitle(%U) = %+q, want %+q", r, PyTitle(c), orSelf(title, r))
		check(Capitalize(c) == orSelf(title, r), "Capitalize(%U) = %+q, want %+q", r, Capitalize(c), orSelf(title, r))
		check(Title(c) == orSelf(upper, r), "Title(%U) = %+q, want %+q", r, Title(c), orSelf(upper, r))

		quoted := string(AppendQuoted(nil, c))
		raw := quoted[1:len(quoted)-1] == c
		check(raw == (rangeSet(tables.Printable).has(r) && r != '\\'),
			"AppendQuoted(%U) = %s; Python isprintable %v", r, quoted, rangeSet(tables.Printable).has(r))
		check((StripSpace(c, true, true) == "") == rangeSet(tables.Space).has(r),
			"StripSpace(%U) = %+q; Python isspace %v", r, StripSpace(c, true, true), rangeSet(tables.Space).has(r))

		check(endsFinalSigma(Lower("A"+c+"Σ")) == rangeSet(tables.SigmaAfterA).has(r),
			"Lower(%+q) = %+q", "A"+c+"Σ", Lower("A"+c+"Σ"))
		check(endsFinalSigma(Lower(c+"Σ")) == rangeSet(tables.SigmaAfter).has(r),
			"Lower(%+q) = %+q", c+"Σ", Lower(c+"Σ"))

		want, ok := ints[r]
		if !ok {
			want = -1
		}
		got, err := ParseInt(c, -1, 10)
		check(got == want && err == nil, "ParseInt(%+q) = %d, %v, want %d", c, got, err, want)
	}
	if failures > 50 {
		t.Errorf("... %d failures in all", failures)
	}
}

func endsFinalSigma(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r == 'ς'
}

// TestInvalidUTF8 checks the documented handling of invalid UTF-8, which
// has no Python counterpart.
func TestInvalidUTF8(t *testing.T) {
	const bad = "a\xffB\xe2\x82"
	for name, got := range map[string]string{
		"Upper":      Upper(bad),
		"Lower":      Lower(bad),
		"Capitalize": Capitalize(bad),
		"Title":      Title(bad),
		"PyTitle":    PyTitle(bad),
	} {
		want := map[string]string{
			"Upper":      "A\xffB\xe2\x82",
			"Lower":      "a\xffb\xe2\x82",
			"Capitalize": "A\xffb\xe2\x82",
			"Title":      "A\xffb\xe2\x82",
			"PyTitle":    "A\xffB\xe2\x82",
		}[name]
		if got != want {
			t.Errorf("%s(%q) = %q, want %q", name, bad, got, want)
		}
	}
	if got := string(AppendQuoted(nil, bad)); got != "'a\uFFFDB\uFFFD\uFFFD'" {
		t.Errorf("AppendQuoted(%q) = %q", bad, got)
	}
	w := NewJSONWriter(0, false)
	if got := string(w.String(nil, bad)); got != `"a\ufffdB\ufffd\ufffd"` {
		t.Errorf("JSONWriter.String(%q) = %s", bad, got)
	}
	if got := SliceString(bad, 0, 0, -1, false, false); got != "\x82\xe2B\xffa" {
		t.Errorf("SliceString(%q, ::-1) = %q", bad, got)
	}
	if got, _ := IndexString(bad, -2); got != "\xe2" {
		t.Errorf("IndexString(%q, -2) = %q", bad, got)
	}
}

// TestDecimalTable checks the layout of unicode.Nd that decimalValue relies
// on, for every Unicode version Go may ship.
func TestDecimalTable(t *testing.T) {
	for _, rg := range unicode.Nd.R16 {
		if rg.Stride != 1 || (rg.Hi-rg.Lo+1)%10 != 0 {
			t.Errorf("unicode.Nd range %+v is not made of runs 0..9", rg)
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if rg.Stride != 1 || (rg.Hi-rg.Lo+1)%10 != 0 {
			t.Errorf("unicode.Nd range %+v is not made of runs 0..9", rg)
		}
	}
}
