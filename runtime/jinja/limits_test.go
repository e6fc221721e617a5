package jinja

import (
	"math"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/runtime"
)

// TestMaxOutput: the functions that build strings from counts refuse,
// without allocating, to go past runtime.MaxOutput, and otherwise build
// what the stdlib builds.
func TestMaxOutput(t *testing.T) {
	long := strings.Repeat("x", runtime.MaxOutput/2+1)
	amps := strings.Repeat("&", runtime.MaxOutput/5+1)
	tooLarge := []struct {
		name string
		ok   func() bool
	}{
		{"Repeat", func() bool { _, ok := Repeat("ab", math.MaxInt); return ok }},
		{"Repeat long", func() bool { _, ok := Repeat(long, 2); return ok }},
		{"Indent", func() bool { _, ok := Indent("a\nb\nc", long, false, false); return ok }},
		{"Join", func() bool { _, ok := Join([]string{"a", "b", "c"}, long); return ok }},
		{"Join parts", func() bool { _, ok := Join([]string{long, long}, ""); return ok }},
		{"Replace", func() bool { _, ok := Replace("abc", "", long, -1); return ok }},
		{"Replace count", func() bool { _, ok := Replace("aaa", "a", long, 2); return ok }},
		{"Escape", func() bool { _, ok := Escape(amps); return ok }},
	}
	for _, tt := range tooLarge {
		allocs := testing.AllocsPerRun(1, func() {
			if tt.ok() {
				t.Errorf("%s: built a string longer than runtime.MaxOutput", tt.name)
			}
		})
		if allocs > 0 {
			t.Errorf("%s: %v allocations", tt.name, allocs)
		}
	}
	if s, ok := Escape(`<a href='x'>&"é`); !ok || s != "&lt;a href=&#39;x&#39;&gt;&amp;&#34;é" {
		t.Errorf("Escape = %q, %v", s, ok)
	}
	if s, ok := Repeat("ab", -1); !ok || s != "" {
		t.Errorf(`Repeat("ab", -1) = %q, %v`, s, ok)
	}
	if s, ok := Replace("aaa", "a", "bb", 2); !ok || s != "bbbba" {
		t.Errorf(`Replace("aaa", "a", "bb", 2) = %q, %v`, s, ok)
	}
	if s, ok := Replace("aé", "", "-", -1); !ok || s != "-a-é-" {
		t.Errorf(`Replace("aé", "", "-", -1) = %q, %v`, s, ok)
	}
	if s, ok := Join([]string{"a", "b"}, ", "); !ok || s != "a, b" {
		t.Errorf("Join = %q, %v", s, ok)
	}
	// Indentation stops at the limit, and the writer says so.
	w := NewJSONWriter(runtime.MaxOutput/3, true)
	out := w.OpenArray(nil)
	for range 4 {
		out = w.String(out, "a")
	}
	out = w.CloseArray(out)
	if !w.TooLarge() || len(out) > runtime.MaxOutput+100 {
		t.Errorf("JSONWriter with a huge indent: TooLarge %v, %d bytes", w.TooLarge(), len(out))
	}
}
