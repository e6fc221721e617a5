package jinja

import (
	"math"
	"testing"
)

var benchFloats = []float64{0, 1, 0.1, -2.5, 1e-7, 123456789012345.0, 1e16, 3.141592653589793, math.Inf(1)}

var benchQuoted = []string{"plain words", "it's", "tab\tand\nnewline", "héllo wörld 日本語", "\x00\x7f\u200b"}

// writeDocument writes a small nested document with every kind of value.
func writeDocument(w *JSONWriter, dst []byte) []byte {
	dst = w.OpenObject(dst)
	dst = w.Key(dst, "items")
	dst = w.OpenArray(dst)
	for i := range 3 {
		dst = w.OpenObject(dst)
		dst = w.Key(dst, "id")
		dst = w.Int(dst, int64(i))
		dst = w.Key(dst, "name")
		dst = w.String(dst, "<café & 'bar'> 😀")
		dst = w.Key(dst, "score")
		dst = w.Float(dst, 0.1*float64(i))
		dst = w.CloseObject(dst)
	}
	dst = w.CloseArray(dst)
	dst = w.Key(dst, "ok")
	dst = w.Bool(dst, true)
	dst = w.Key(dst, "none")
	dst = w.Null(dst)
	dst = w.Key(dst, "empty")
	dst = w.OpenArray(dst)
	dst = w.CloseArray(dst)
	return w.CloseObject(dst)
}

// writeNested writes depth nested arrays around an empty object.
func writeNested(w *JSONWriter, dst []byte, depth int) []byte {
	for range depth {
		dst = w.OpenArray(dst)
		dst = w.Int(dst, 1)
	}
	dst = w.OpenObject(dst)
	dst = w.CloseObject(dst)
	for range depth {
		dst = w.CloseArray(dst)
	}
	return dst
}

func TestNoAllocs(t *testing.T) {
	buf := make([]byte, 0, 4096)
	for name, fn := range map[string]func(){
		"AppendFloat": func() {
			for _, f := range benchFloats {
				buf = AppendFloat(buf[:0], f)
			}
		},
		"AppendQuoted": func() {
			for _, s := range benchQuoted {
				buf = AppendQuoted(buf[:0], s)
			}
		},
		"AppendBool": func() { buf = AppendBool(buf[:0], true) },
		"JSONWriter": func() {
			w := NewJSONWriter(2, true)
			buf = writeDocument(&w, buf[:0])
		},
		"JSONWriter depth 32": func() {
			w := NewJSONWriter(0, false)
			buf = writeNested(&w, buf[:0], 31)
		},
		"unchanged Upper": func() { _ = Upper("ALREADY UPPER ÉÀ 日本") },
		"unchanged Lower": func() { _ = Lower("already lower éà 日本") },
		"unchanged Title": func() { _ = Title("Already Titled-Text (Here)") },
		"ASCII ParseInt":  func() { _, _ = ParseInt(" -12_345 ", 0, 10) },
		"ParseFloat":      func() { _ = ParseFloat(" 1.5e3 ", 0) },
	} {
		if n := testing.AllocsPerRun(100, fn); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, n)
		}
	}
}

func BenchmarkAppendFloat(b *testing.B) {
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		buf = AppendFloat(buf[:0], benchFloats[i%len(benchFloats)])
	}
}

func BenchmarkAppendQuoted(b *testing.B) {
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		buf = AppendQuoted(buf[:0], benchQuoted[i%len(benchQuoted)])
	}
}

func BenchmarkUpper(b *testing.B) {
	for _, bc := range []struct{ name, s string }{
		{"ASCII", "the quick brown fox jumps over the lazy dog"},
		{"unchanged", "THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG"},
		{"Unicode", "größe ﬁx ǆ straße ὀδυσσεύς"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = Upper(bc.s)
			}
		})
	}
}

func BenchmarkJSONWriter(b *testing.B) {
	buf := make([]byte, 0, 1024)
	for _, bc := range []struct {
		name      string
		indent    int
		hasIndent bool
	}{{"compact", 0, false}, {"indent2", 2, true}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w := NewJSONWriter(bc.indent, bc.hasIndent)
				buf = writeDocument(&w, buf[:0])
			}
		})
	}
}
