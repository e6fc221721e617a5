package hftokenizer_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/runtime/hftokenizer"
	"github.com/promptgen/promptgen/runtime/internal/costtest"
	"github.com/promptgen/promptgen/runtime/tiktoken"
)

// mixedText is about 1 MB of English and Go (runtime's sources and the
// README), as runtime/tiktoken's benchmarks count.
func mixedText(b *testing.B) string {
	files, err := filepath.Glob("../*.go")
	if err != nil || len(files) == 0 {
		b.Fatal("no Go files", err)
	}
	files = append(files, "../../README.md")
	var text strings.Builder
	for text.Len() < 1<<20 {
		for _, name := range files {
			data, err := os.ReadFile(name)
			if err != nil {
				b.Fatal(err)
			}
			text.Write(data)
		}
	}
	return text.String()
}

// corpusText is about 1 MB of the reference texts, many scripts.
func corpusText(b *testing.B) string {
	var text strings.Builder
	for text.Len() < 1<<20 {
		for _, t := range loadReference(b).Tokenizers[0].Texts {
			text.WriteString(t.Text)
		}
	}
	return text.String()
}

// BenchmarkCount counts 1 MB of English and Go and 1 MB of the
// multilingual corpus with Qwen 3's tokenizer, and with o200k_base for
// comparison.
func BenchmarkCount(b *testing.B) {
	texts := []struct{ name, text string }{{"mixed", mixedText(b)}, {"corpus", corpusText(b)}}
	toks := []struct {
		name string
		tok  interface{ Count(string) int }
	}{{"qwen3", load(b, "qwen3.tokenizer.json.gz", false)}, {"o200k_base", tiktoken.O200kBase()}}
	for _, tok := range toks {
		for _, text := range texts {
			b.Run(tok.name+"/"+text.name, func(b *testing.B) {
				b.SetBytes(int64(len(text.text)))
				b.ReportAllocs()
				for b.Loop() {
					tok.tok.Count(text.text)
				}
			})
		}
	}
}

// BenchmarkHostile counts 1 MB of each shape that is hard on a
// pre-tokenizer or a merge: runs of one character, and random bytes.
func BenchmarkHostile(b *testing.B) {
	tok := load(b, "qwen3.tokenizer.json.gz", false)
	for _, h := range hostileShapes() {
		b.Run(h.name, func(b *testing.B) {
			b.SetBytes(int64(len(h.text)))
			b.ReportAllocs()
			for b.Loop() {
				tok.Count(h.text)
			}
		})
	}
}

func hostileShapes() []struct{ name, text string } {
	rng := rand.New(rand.NewPCG(26, 1))
	random := make([]byte, 1<<20)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	return []struct{ name, text string }{
		{"spaces", strings.Repeat(" ", 1<<20)},
		{"space_newline", strings.Repeat(" \n", 1<<19)},
		{"letters", strings.Repeat("a", 1<<20)},
		{"emoji", strings.Repeat("🙂", 1<<18)},
		{"combining", strings.Repeat("e\u0301", 1<<19/3)},
		{"random_bytes", string(random)},
	}
}

// BenchmarkLoad reads Qwen 3's tokenizer.json (11 MB).
func BenchmarkLoad(b *testing.B) {
	data := tokenizerFile(b, "qwen3.tokenizer.json.gz")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := hftokenizer.Load(data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLinearTime: counting 16 KB of a hostile shape once takes less than
// 8 times as long as counting 1 KB of it 16 times (quadratic would be
// 16; the merge is O(n log n); costtest.Repeated).
func TestLinearTime(t *testing.T) {
	tok := load(t, "qwen3.tokenizer.json.gz", false)
	goruntime.GC()
	for _, unit := range []string{" ", " \n", "a", "!?", "语", "e\u0301", "\xff", "a \n\t9!语🙂\xe2\x82"} {
		costtest.Repeated(t, strconv.Quote(unit), strings.Repeat(unit, 1<<10/len(unit)), 16, func(s string) { tok.Count(s) })
	}
}
