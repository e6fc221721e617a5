package jinja

import (
	"fmt"
	"slices"
	"testing"
)

// The expected values come from Python (testdata/gen_cases.py).

func TestSwapCase(t *testing.T) {
	for _, r := range rows(t, "swapcase") {
		if s, want := arg[string](t, r[0]), arg[string](t, r[1]); SwapCase(s) != want {
			t.Errorf("SwapCase(%q) = %q, want %q", s, SwapCase(s), want)
		}
	}
}

func TestIsLowerUpper(t *testing.T) {
	for name, fn := range map[string]func(string) bool{"islower": IsLower, "isupper": IsUpper} {
		for _, r := range rows(t, name) {
			if s, want := arg[string](t, r[0]), arg[bool](t, r[1]); fn(s) != want {
				t.Errorf("%s(%q) = %v, want %v", name, s, fn(s), want)
			}
		}
	}
}

func TestSplitLines(t *testing.T) {
	for _, r := range rows(t, "splitlines") {
		s, keep, want := arg[string](t, r[0]), arg[bool](t, r[1]), arg[[]string](t, r[2])
		if got := SplitLines(s, keep); !slices.Equal(got, want) {
			t.Errorf("SplitLines(%q, %v) = %q, want %q", s, keep, got, want)
		}
	}
}

// TestSearch checks find, rfind, count, index and rindex with Python's
// start and end (none where the row has null).
func TestSearch(t *testing.T) {
	for _, r := range rows(t, "search") {
		s, sub, span, method := arg[string](t, r[0]), arg[string](t, r[1]), arg[[]*int](t, r[2]), arg[string](t, r[3])
		var ints []int
		for _, p := range span {
			n := 0 // None as start is 0
			if p != nil {
				n = *p
			}
			ints = append(ints, n)
		}
		var got int
		var err error
		switch method {
		case "find":
			got = Find(s, sub, ints...)
		case "rfind":
			got = RFind(s, sub, ints...)
		case "count":
			got = Count(s, sub, ints...)
		case "index":
			got, err = StrIndex(s, sub, ints...)
		case "rindex":
			got, err = StrRIndex(s, sub, ints...)
		}
		name := fmt.Sprintf("%s(%q, %q, %v)", method, s, sub, ints)
		if raised(r[4]) {
			if err == nil {
				t.Errorf("%s = %d, want an error", name, got)
			}
			continue
		}
		if want := arg[int](t, r[4]); err != nil || got != want {
			t.Errorf("%s = %d, %v, want %d", name, got, err, want)
		}
	}
}

func TestJustify(t *testing.T) {
	for _, r := range rows(t, "justify") {
		s, w, fill, method := arg[string](t, r[0]), arg[int](t, r[1]), arg[string](t, r[2]), arg[string](t, r[3])
		var got string
		var err error
		if method == "zfill" {
			got, err = ZFill(s, w)
		} else {
			got, err = Justify(s, w, fill, method[0])
		}
		name := fmt.Sprintf("%s(%q, %d, %q)", method, s, w, fill)
		if raised(r[4]) {
			if err == nil {
				t.Errorf("%s = %q, want an error", name, got)
			}
			continue
		}
		if want := arg[string](t, r[4]); err != nil || got != want {
			t.Errorf("%s = %q, %v, want %q", name, got, err, want)
		}
	}
}

func TestBuiltinNames(t *testing.T) {
	if want := arg[[]string](t, caseTable(t, "filter_names")); !slices.Equal(FilterNames, want) {
		t.Errorf("FilterNames = %q, want Jinja2's %q", FilterNames, want)
	}
	if want := arg[[]string](t, caseTable(t, "test_names")); !slices.Equal(TestNames, want) {
		t.Errorf("TestNames = %q, want Jinja2's %q", TestNames, want)
	}
}
