package tiktoken_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/internal/costtest"
	"github.com/promptgen/promptgen/runtime/tiktoken"
)

var encodings = []struct {
	name string
	tok  func() runtime.Tokenizer
}{
	{"o200k_base", tiktoken.O200kBase},
	{"cl100k_base", tiktoken.Cl100kBase},
}

// TestReferenceCounts: Count is tiktoken's count, token for token, for
// English, CJK, emoji, Arabic and Hebrew, code, whitespace runs (with line
// breaks between spaces, where tiktoken-go differs), other scripts and
// long runs of one character.
func TestReferenceCounts(t *testing.T) {
	for _, text := range tiktoken.LoadReference(t).Texts {
		for _, enc := range encodings {
			want, ok := text.Encodings[enc.name]
			if !ok {
				t.Fatalf("%s: no %s reference", text.Name, enc.name)
			}
			if got := enc.tok().Count(text.Text); got != len(want.IDs) {
				t.Errorf("%s, %s: Count = %d, want %d", text.Name, enc.name, got, len(want.IDs))
			}
			if ids := tiktoken.IDs(enc.tok(), text.Text); !slices.Equal(ids, want.IDs) {
				t.Errorf("%s, %s: token ids differ from the reference\ngot  %v\nwant %v", text.Name, enc.name, ids, want.IDs)
			}
		}
	}
}

// TestReferenceCut: for every n, Cut ends at the reference's boundary after
// the n-th token, or the last one before it that is not inside a character.
func TestReferenceCut(t *testing.T) {
	insideChar := 0
	for _, text := range tiktoken.LoadReference(t).Texts {
		for _, enc := range encodings {
			ends := text.Encodings[enc.name].Ends
			tok := enc.tok()
			cut := 0
			for n := 0; n <= len(ends)+1; n++ {
				if n > 0 && n <= len(ends) {
					if e := ends[n-1]; e == len(text.Text) || utf8.RuneStart(text.Text[e]) {
						cut = e
					} else {
						insideChar++
					}
				}
				if got := tok.Cut(text.Text, n); got != text.Text[:cut] {
					t.Fatalf("%s, %s: Cut(text, %d) is %d bytes, want %d", text.Name, enc.name, n, len(got), cut)
				}
			}
		}
	}
	if insideChar == 0 {
		t.Error("no reference token ends inside a character: the texts do not test that Cut avoids it")
	}
	if got := tiktoken.O200kBase().Cut("hello", -1); got != "" {
		t.Errorf("Cut(text, -1) = %q, want \"\"", got)
	}
}

// TestCutInvalidUTF8: an invalid byte is read as U+FFFD, also beside
// U+FFFD of the text; Cut still returns prefixes of the text, longer as n
// grows, all of it at its count.
func TestCutInvalidUTF8(t *testing.T) {
	texts := []string{"ab\xffcd\xe2\x82 héllo \xf0\x9f", "\xff\xfe\xfd", "日本\xe6\x97", "\xed\xa0\x80 surrogate", "ok 👍🏽\xc0\xaf", "\uFFFD\xff \uFFFD\uFFFD\xef\xbf"}
	for _, enc := range encodings {
		tok := enc.tok()
		for _, text := range texts {
			prev := ""
			count := tok.Count(text)
			for n := 0; n <= count+1; n++ {
				got := tok.Cut(text, n)
				if !strings.HasPrefix(text, got) || len(got) < len(prev) {
					t.Fatalf("%s: Cut(%q, %d) = %q after %q", enc.name, text, n, got, prev)
				}
				prev = got
			}
			if prev != text {
				t.Errorf("%s: Cut(%q, %d) = %q, want all of it", enc.name, text, count, prev)
			}
		}
	}
}

// TestNoAllocations: once a tokenizer has counted a text, counting and
// cutting it again allocate nothing, whatever it holds: the buffers of a
// call are kept for the next.
func TestNoAllocations(t *testing.T) {
	texts := []string{strings.Repeat("a", 5000), strings.Repeat(" \n", 3000), strings.Repeat("🙂", 2000), "ab\xffcd\xe2\x82 héllo \xf0\x9f"}
	for _, text := range tiktoken.LoadReference(t).Texts {
		texts = append(texts, text.Text)
	}
	for _, enc := range encodings {
		tok := enc.tok()
		for _, text := range texts {
			n := tok.Count(text)
			if allocs := testing.AllocsPerRun(10, func() { tok.Count(text) }); allocs != 0 {
				t.Errorf("%s: Count(%.20q) allocates %v times", enc.name, text, allocs)
			}
			if allocs := testing.AllocsPerRun(10, func() { tok.Cut(text, n/2) }); allocs != 0 {
				t.Errorf("%s: Cut(%.20q, %d) allocates %v times", enc.name, text, n/2, allocs)
			}
		}
	}
}

func TestSameTokenizer(t *testing.T) {
	if tiktoken.O200kBase() != tiktoken.O200kBase() || tiktoken.Cl100kBase() != tiktoken.Cl100kBase() {
		t.Error("a second call built another tokenizer")
	}
}

func TestConcurrentUse(t *testing.T) {
	ref := tiktoken.LoadReference(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			enc := encodings[i%2]
			for _, text := range ref.Texts {
				want := text.Encodings[enc.name]
				if got := enc.tok().Count(text.Text); got != len(want.IDs) {
					t.Errorf("%s, %s: Count = %d, want %d", text.Name, enc.name, got, len(want.IDs))
				}
				if got := enc.tok().Cut(text.Text, 1); len(got) > want.Ends[0] {
					t.Errorf("%s, %s: Cut(text, 1) = %q", text.Name, enc.name, got)
				}
			}
		}()
	}
	wg.Wait()
}

// entities renders the Entities in Context section of the Think prompt
// with n inventory items, with trim_blocks (each iteration one line) or
// without (each iteration a blank line and a line), and returns it with
// what it becomes with k iterations kept.
func entities(n int, trimBlocks bool) (runtime.SectionInput, func(k int) string) {
	names := []string{"chicken thighs", "basmati rice", "frozen cod", "limes", "dried chilies", "coconut milk", "garam masala"}
	var its []string
	for i := range n {
		it := fmt.Sprintf("  - `inv_%d`: %s\n", i+1, names[i%len(names)])
		if !trimBlocks {
			it = "\n" + it
		}
		its = append(its, it)
	}
	before := fmt.Sprintf("These refs are available. Act can use them directly.\n\n**inventory:** (%d items)\n", n)
	after := "\n⚠️ Only use refs shown above. Dashboard items not listed here must be searched by name.\n"
	var b strings.Builder
	b.WriteString(before)
	loop := []int{b.Len()}
	for _, it := range its {
		b.WriteString(it)
		loop = append(loop, b.Len())
	}
	b.WriteString(after)
	in := runtime.SectionInput{Name: "entities_in_context", Title: "Entities in Context", Body: b.String(), Truncate: runtime.TruncateItems, Loop: loop, Markers: true}
	return in, func(k int) string {
		text := "## Entities in Context\n" + before + strings.Join(its[:k], "")
		if k < n {
			text += fmt.Sprintf("  ... and %d more\n", n-k)
		}
		return text + strings.TrimRight(after, "\n")
	}
}

// TestTruncateItemsBudgets: with the real tokenizers, a budget at, one
// under and one over the tokens of the section with k items keeps the
// most items that fit.
func TestTruncateItemsBudgets(t *testing.T) {
	for _, enc := range encodings {
		tok := enc.tok()
		for _, trimBlocks := range []bool{true, false} {
			in, want := entities(200, trimBlocks)
			for _, k := range []int{0, 1, 2, 10, 37, 199, 200} {
				tokens := tok.Count(want(k))
				for _, budget := range []int{tokens - 1, tokens, tokens + 1} {
					kept := -1
					for j := max(0, k-2); j <= min(200, k+2); j++ {
						if tok.Count(want(j)) <= budget {
							kept = j
						}
					}
					in.Budget = budget
					s, err := runtime.BuildSection(tok, in)
					if kept < 0 {
						if err == nil {
							t.Errorf("%s, trim_blocks %v, budget %d: got %d tokens, want a BudgetError", enc.name, trimBlocks, budget, s.Tokens)
						}
						continue
					}
					if err != nil || s.Text != want(kept) || s.Tokens != tok.Count(want(kept)) || s.Dropped != 200-kept {
						t.Errorf("%s, trim_blocks %v, budget %d: got %d items (%d tokens), %v; want %d items", enc.name, trimBlocks, budget, 200-s.Dropped, s.Tokens, err, kept)
					}
				}
			}
		}
	}
}

// TestTruncateTextBudgets: the multilingual texts cut to budgets at, under
// and over their tokens end with "…", fit, and hold whole characters.
func TestTruncateTextBudgets(t *testing.T) {
	for _, text := range tiktoken.LoadReference(t).Texts {
		for _, enc := range encodings {
			tok := enc.tok()
			body := strings.TrimRight(text.Text, "\n")
			full := tok.Count(body)
			for _, budget := range []int{1, 2, 5, full / 2, full - 1, full, full + 1} {
				s, err := runtime.BuildSection(tok, runtime.SectionInput{Name: "s", Body: body, Budget: budget, Truncate: runtime.TruncateText})
				if err != nil {
					t.Fatalf("%s, %s, budget %d: %v", text.Name, enc.name, budget, err)
				}
				prefix, cut := strings.CutSuffix(s.Text, "…")
				switch {
				case budget >= full && (s.Text != body || s.Truncated):
					t.Errorf("%s, %s, budget %d: cut a text of %d tokens", text.Name, enc.name, budget, full)
				case budget < full && (!cut || !s.Truncated || !strings.HasPrefix(body, prefix)):
					t.Errorf("%s, %s, budget %d: got %q", text.Name, enc.name, budget, s.Text)
				case s.Tokens != tok.Count(s.Text) || s.Tokens > budget || !utf8.ValidString(s.Text):
					t.Errorf("%s, %s, budget %d: %d tokens, %q", text.Name, enc.name, budget, s.Tokens, s.Text)
				}
			}
		}
	}
}

// TestDependencies keeps the package to the standard library and the
// runtime.
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(dep, "/")
		if strings.Contains(first, ".") && !strings.HasPrefix(dep, "github.com/promptgen/promptgen/runtime") {
			t.Errorf("tiktoken depends on %s", dep)
		}
	}
}

// BenchmarkTruncateItems compares keeping about 10 of 200 items to one
// count of the result: what choosing the items costs over counting.
func BenchmarkTruncateItems(b *testing.B) {
	tok := tiktoken.O200kBase()
	in, want := entities(200, true)
	in.Budget = tok.Count(want(10))
	s, err := runtime.BuildSection(tok, in)
	if err != nil || s.Dropped != 190 {
		b.Fatalf("dropped %d, %v; want 190", s.Dropped, err)
	}
	b.Run("BuildSection", func(b *testing.B) {
		for b.Loop() {
			runtime.BuildSection(tok, in)
		}
	})
	b.Run("CountResult", func(b *testing.B) {
		for b.Loop() {
			tok.Count(s.Text)
		}
	})
}

// TestLinearTime: counting 16 KB of hostile text once takes less than 8
// times as long as counting 1 KB of it 16 times (linear is 1, n log n a
// little more, quadratic 16: tiktoken-go's encoder takes 10 to 12 times as
// long on spaces and line breaks, ours at most about 2; costtest.Repeated).
// Counting allocates next to nothing, so after one collection of garbage
// no call pays for marking the vocabularies.
func TestLinearTime(t *testing.T) {
	for _, enc := range encodings {
		enc.tok()
	}
	goruntime.GC()
	for _, enc := range encodings {
		tok := enc.tok()
		for _, h := range tiktoken.Hostile {
			costtest.Repeated(t, enc.name+", "+h.Name, strings.Repeat(h.Unit, 1<<10/len(h.Unit)), 16, func(s string) { tok.Count(s) })
		}
	}
}

// mixedText returns about 1 MB of English and Go: the README and the
// runtime's sources, repeated.
func mixedText(b *testing.B) string {
	var text strings.Builder
	files, err := filepath.Glob("../*.go")
	if err != nil || len(files) == 0 {
		b.Fatal("no Go files", err)
	}
	files = append(files, "../../README.md")
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

// BenchmarkCount counts about 1 MB of English and Go. Before the package
// had its own vocabularies, the same run measured tiktoken-go's encoder at
// 4.6 MB/s (o200k_base) and 5.0 MB/s (cl100k_base), 1.9 million
// allocations a count, and this package with tiktoken-go's vocabularies
// at 35 and 27 MB/s, 5 allocations (testdata/crosscheck's
// BenchmarkTiktokenGo measures tiktoken-go again).
func BenchmarkCount(b *testing.B) {
	text := mixedText(b)
	for _, enc := range encodings {
		b.Run(enc.name, func(b *testing.B) {
			tok := enc.tok()
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				tok.Count(text)
			}
		})
	}
}

// hostileMB holds the shapes of 1 MB that the time per byte of counting
// is held to against ordinary text: runs of spaces, of line breaks, of
// " \n", of one letter, of one emoji, and random bytes (mostly invalid
// UTF-8).
var hostileMB = []struct{ name, text string }{
	{"spaces", strings.Repeat(" ", 1<<20)},
	{"newlines", strings.Repeat("\n", 1<<20)},
	{"space_newline", strings.Repeat(" \n", 1<<19)},
	{"letters", strings.Repeat("a", 1<<20)},
	{"emoji", strings.Repeat("🙂", 1<<18)},
	{"random_bytes", func() string {
		rng := rand.New(rand.NewPCG(26, 1))
		b := make([]byte, 1<<20)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return string(b)
	}()},
}

// BenchmarkHostile counts 100 KB of each hostile text, and 1 MB of each
// hostile shape.
func BenchmarkHostile(b *testing.B) {
	for _, h := range tiktoken.Hostile {
		text := strings.Repeat(h.Unit, 100<<10/len(h.Unit))
		b.Run(h.Name, func(b *testing.B) {
			tok := tiktoken.O200kBase()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				tok.Count(text)
			}
		})
	}
	for _, enc := range encodings {
		for _, h := range hostileMB {
			b.Run(enc.name+"/1MB/"+h.name, func(b *testing.B) {
				tok := enc.tok()
				b.SetBytes(int64(len(h.text)))
				b.ReportAllocs()
				for b.Loop() {
					tok.Count(h.text)
				}
			})
		}
	}
}

// splitFragments are the shapes around a line break where pieces join:
// whitespace before a letter or a line break, contractions, numbers of
// one to four digits, punctuation that takes the line breaks after it
// (and '/' in o200k_base), capitals and marks, other scripts, invalid
// UTF-8 and a character cut in two.
var splitFragments = []string{
	" ", "  ", "\t", "\u00a0", "\u3000", "\n", "\n\n", "\r\n", "\r", " \n", "\n ", "\n\t",
	"a", "word", "Word", "ABC", "aB", "é", "É\u0301", "\u0301", "语言", "中文ABC", "👍🏽",
	"'s", "'S", "'ll", "'re", "'", "'ſ", "x'", "7", "123", "1234",
	"!", "...", "/", "//", "-", "`", "**", "<\\!--",
	"\xff", "\x80", "\xe3\x80", "\xf0\x9f",
}

func randomFragments(rng *rand.Rand, max int) string {
	var b strings.Builder
	for range rng.IntN(max + 1) {
		b.WriteString(splitFragments[rng.IntN(len(splitFragments))])
	}
	return b.String()
}

// TestSplitsAt: where SplitsAt holds, the count of the text with anything
// before and after it is the count of the part before the offset plus the
// part after, for random texts of the fragments that join across a line
// break. It holds often enough for the test to mean something.
func TestSplitsAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 5))
	for _, enc := range encodings {
		tok := enc.tok().(runtime.SplittingTokenizer)
		splits := 0
		for range 4000 {
			text := randomFragments(rng, 10)
			for i := range len(text) + 1 {
				if !tok.SplitsAt(text, i) {
					continue
				}
				splits++
				// and the bytes that complete "\xe3\x80" into a space, then a
				// line break
				for _, y := range []string{randomFragments(rng, 3), randomFragments(rng, 3), randomFragments(rng, 3), "\x80\n"} {
					x := randomFragments(rng, 3)
					if whole, parts := tok.Count(x+text+y), tok.Count(x+text[:i])+tok.Count(text[i:]+y); whole != parts {
						t.Fatalf("%s: SplitsAt(%q, %d), but %q + %q counts %d, %q and %q %d", enc.name, text, i, x, y, whole, x+text[:i], text[i:]+y, parts)
					}
				}
			}
		}
		if splits < 1000 {
			t.Errorf("%s: SplitsAt held %d times: the texts do not test it", enc.name, splits)
		}
	}
}

// TestTruncateItemsExact: with the encodings, which know where counts add
// up, BuildSection's count of the kept iterations is the count of its
// text, and one iteration more is over the budget, for iterations of
// random fragments on lines of their own and random budgets.
func TestTruncateItemsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 7))
	for _, enc := range encodings {
		tok := enc.tok()
		for range 300 {
			var its []string
			for range 1 + rng.IntN(20) {
				its = append(its, []string{"", "\n"}[rng.IntN(2)]+"  - "+randomFragments(rng, 6)+"\n")
			}
			before := randomFragments(rng, 3) + "\n"
			after := []string{"", "\n⚠️ Only use refs shown above.\n", randomFragments(rng, 4)}[rng.IntN(3)]
			body := before + strings.Join(its, "") + after
			loop := []int{len(before)}
			for _, it := range its {
				loop = append(loop, loop[len(loop)-1]+len(it))
			}
			n := len(its)
			// the text with k iterations kept, as runtime's documentation
			// says
			candidate := func(k int) string {
				if k == n {
					return strings.TrimRight(body, "\n")
				}
				kept, after := body[:loop[k]], strings.TrimRight(body[loop[n]:], "\n")
				text := kept
				if kept != "" && !strings.HasSuffix(kept, "\n") {
					text += "\n"
				}
				text += fmt.Sprintf("  ... and %d more", n-k)
				if after != "" {
					text += "\n" + after
				}
				return text
			}
			budget := 1 + rng.IntN(tok.Count(body)+2)
			s, err := runtime.BuildSection(tok, runtime.SectionInput{Name: "s", Body: body, Truncate: runtime.TruncateItems, Loop: loop, Budget: budget})
			if err != nil {
				var be *runtime.BudgetError
				if !errors.As(err, &be) || be.Tokens != tok.Count(candidate(0)) || be.Tokens <= budget {
					t.Fatalf("%s: %q, budget %d: %v; %d tokens with every iteration dropped", enc.name, body, budget, err, tok.Count(candidate(0)))
				}
				continue
			}
			k := n - s.Dropped
			if s.Text != candidate(k) || s.Tokens != tok.Count(s.Text) || s.Tokens > budget || k < n && tok.Count(candidate(k+1)) <= budget {
				t.Fatalf("%s: %q, budget %d: kept %d iterations, %d tokens, %q counts %d; with one more %d", enc.name, body, budget, k, s.Tokens, s.Text, tok.Count(s.Text), tok.Count(candidate(min(k+1, n))))
			}
		}
	}
}
