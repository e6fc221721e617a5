package difffuzz

import "testing"

// TestPrintsAddress checks the reprs that keep a rejected case out of the
// renderable share: Jinja2 3.1's printed generators and iterators.
func TestPrintsAddress(t *testing.T) {
	for text, want := range map[string]bool{
		"a<generator object sync_do_map at 0x7f3a2c1b5e40>b":           true,
		"<list_reverseiterator object at 0x7fb1c04d2b00>":              true,
		"[<generator object select_or_reject at 0x7f00aa>]":            true,
		`"\u003cgenerator object sync_do_map at 0x7f3b7a5a8940\u003e"`: true, // tojson
		"&lt;generator object sync_do_map at 0x7f3b7a5a8940&gt;":       true, // escape
		"<GENERATOR OBJECT SYNC_DO_MAP AT 0X7F84B9D78840>":             true, // upper, swapcase
		"<Generator Object Sync_Do_Map At 0X7F84B9D78840>":             true, // title
		"0x1A at 0x1a":                 false,
		"Markup('x')":                  false,
		"<generator ...> and at 0xZZ>": false,
	} {
		if got := printsAddress.MatchString(text); got != want {
			t.Errorf("printsAddress(%q) = %v; want %v", text, got, want)
		}
	}
}
