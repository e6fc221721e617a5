package tmpl

import (
	"errors"
	"strings"
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, tt := range parseTests {
		f.Add(tt.src, uint8(0))
	}
	for _, tt := range errorTests {
		f.Add(tt.src, uint8(0))
	}
	for _, tt := range spanTests {
		f.Add(tt.src, uint8(0))
	}
	for _, tt := range whitespaceTests {
		f.Add(tt.src, uint8(3))
	}
	f.Add("{% for m in messages %}{% if m.role == 'system' %}{{ m.content | trim }}\n{% elif loop.last %}"+
		"{{- '<|assistant|>' -}}{% endif %}{% endfor %}{% if add_generation_prompt %}x{% endif %}\n", uint8(7))
	// Chains and nests just past maxDepth.
	f.Add("{{ x"+strings.Repeat(".a", maxDepth)+" }}", uint8(0))
	f.Add("{{ x"+strings.Repeat(" if y else x", maxDepth)+" }}", uint8(0))
	f.Add(strings.Repeat("{% for x in y %}", maxDepth)+"{{ x|f|g }}", uint8(0))
	f.Fuzz(func(t *testing.T, src string, flags uint8) {
		opts := Options{TrimBlocks: flags&1 != 0, LstripBlocks: flags&2 != 0, KeepTrailingNewline: flags&4 != 0}
		tmpl, err := Parse(src, opts)
		inBounds := func(what string, s Span) {
			if s.Start < 0 || s.Start > s.End || s.End > len(src) {
				t.Fatalf("Parse(%q): %s span %v out of bounds", src, what, s)
			}
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse(%q) error %v is not an *Error", src, err)
			}
			inBounds("error", e.Span)
			return
		}
		walk(tmpl.Body, inBounds)
	})
}
