package hftokenizer_test

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/hftokenizer"
	"golang.org/x/text/unicode/norm"
)

// reference is testdata/reference.json, which testdata/reference.mjs
// writes with Hugging Face's JavaScript tokenizers: for each tokenizer.json
// (gzipped in testdata), each text's ids and token ends in each mode.
type reference struct {
	Tokenizers []struct {
		Name, File string
		NFC        bool // the file's normalizer: token ends are offsets in the text's NFC form
		Texts      []referenceText
	}
}

type referenceText struct {
	Name, Text string
	IDs, Ends  map[string][]int // by mode
}

// modes are the reference's modes: special tokens read as text, and
// matched.
var modes = []struct {
	name    string
	special bool
}{{"text", false}, {"special", true}}

func loadReference(t testing.TB) reference {
	t.Helper()
	data, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref reference
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	return ref
}

// tokenizerFile returns a gzipped tokenizer.json of testdata, unpacked.
func tokenizerFile(t testing.TB, name string) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

var loaded struct {
	sync.Mutex
	files map[string][]byte
	toks  map[string]*hftokenizer.Tokenizer
}

// load returns the tokenizer of a file of testdata, loaded once per
// file and options.
func load(t testing.TB, name string, matchSpecial bool) *hftokenizer.Tokenizer {
	t.Helper()
	loaded.Lock()
	defer loaded.Unlock()
	if loaded.toks == nil {
		loaded.files, loaded.toks = map[string][]byte{}, map[string]*hftokenizer.Tokenizer{}
	}
	key := name
	var opts []hftokenizer.Option
	if matchSpecial {
		key += " special"
		opts = append(opts, hftokenizer.MatchSpecialTokens())
	}
	if tok, ok := loaded.toks[key]; ok {
		return tok
	}
	data, ok := loaded.files[name]
	if !ok {
		data = tokenizerFile(t, name)
		loaded.files[name] = data
	}
	tok, err := hftokenizer.Load(data, opts...)
	if err != nil {
		t.Fatal(err)
	}
	loaded.toks[key] = tok
	return tok
}

// TestReferenceIDs: the ids of each text are those of Hugging Face's
// tokenizers, with special tokens read as text and matched, and Count is
// their number.
func TestReferenceIDs(t *testing.T) {
	for _, ref := range loadReference(t).Tokenizers {
		for _, mode := range modes {
			tok := load(t, ref.File, mode.special)
			for _, text := range ref.Texts {
				want := text.IDs[mode.name]
				if want == nil {
					t.Fatalf("%s %s %s: no ids", ref.Name, mode.name, text.Name)
				}
				if got := tok.Encode(text.Text); !slices.Equal(got, want) {
					t.Errorf("%s %s %s:\n got %v\nwant %v", ref.Name, mode.name, text.Name, got, want)
				}
				if got := tok.Count(text.Text); got != len(want) {
					t.Errorf("%s %s %s: Count = %d, want %d", ref.Name, mode.name, text.Name, got, len(want))
				}
			}
		}
	}
}

// TestReferenceCut: in both modes, Cut(n) ends where the last of the
// first n tokens that ends on a character boundary does (for a text whose
// token ends are offsets in it: any text if the file has no normalizer,
// else one that NFC leaves as it is), and in any text returns prefixes,
// longer as n grows, all of it at its count.
func TestReferenceCut(t *testing.T) {
	for _, ref := range loadReference(t).Tokenizers {
		for _, mode := range modes {
			tok := load(t, ref.File, mode.special)
			for _, text := range ref.Texts {
				ends := text.Ends[mode.name]
				if len(ends) != len(text.IDs[mode.name]) {
					t.Fatalf("%s %s %s: %d ends for %d ids", ref.Name, mode.name, text.Name, len(ends), len(text.IDs[mode.name]))
				}
				offsets := !ref.NFC || norm.NFC.IsNormalString(text.Text)
				prev := ""
				for _, n := range cutCounts(len(ends), ref.Name == "qwen3" && mode.name == "text") {
					got := tok.Cut(text.Text, n)
					if !strings.HasPrefix(text.Text, got) || len(got) < len(prev) {
						t.Fatalf("%s %s %s: Cut(%d) = %q after %q", ref.Name, mode.name, text.Name, n, got, prev)
					}
					prev = got
					if offsets {
						want := 0
						for _, end := range ends[:min(n, len(ends))] {
							if end == len(text.Text) || text.Text[end]&0xc0 != 0x80 {
								want = end
							}
						}
						if len(got) != want {
							t.Errorf("%s %s %s: Cut(%d) is %d bytes, want %d", ref.Name, mode.name, text.Name, n, len(got), want)
						}
					}
				}
				if prev != text.Text {
					t.Errorf("%s %s %s: Cut at the count is %q, want the text", ref.Name, mode.name, text.Name, prev)
				}
			}
		}
	}
}

// cutCounts returns the n that TestReferenceCut cuts a text of count
// tokens at, ascending, ending at count+1: each n for a text of up to 256
// tokens, or for any text where every is set (Qwen 3's text mode, checked
// so before the other files and modes came); for a longer one (the
// corpus's hostile runs, where each cut encodes up to thousands of bytes,
// so that every n would take time quadratic in the text) the first and
// the last 64 and every 32nd between.
func cutCounts(count int, every bool) []int {
	var ns []int
	for n := 0; n <= count+1; n++ {
		if every || count <= 256 || n < 64 || n > count-64 || n%32 == 0 {
			ns = append(ns, n)
		}
	}
	return ns
}

// TestLoadFile: a file loads as its bytes do; one over MaxFileSize is
// refused before it is read.
func TestLoadFile(t *testing.T) {
	data, err := json.Marshal(tiny([][2]string{{"a", "b"}, {"ab", "c"}}, nil))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tokenizer.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	fromFile, err := hftokenizer.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fromFile.Encode("abc ab"), []int{257, ' ', 256}; !slices.Equal(got, want) {
		t.Errorf("Encode = %v, want %v", got, want)
	}
	big, err := os.Create(filepath.Join(t.TempDir(), "big.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer big.Close()
	if err := big.Truncate(hftokenizer.MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	if _, err := hftokenizer.LoadFile(big.Name()); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("LoadFile of a file over MaxFileSize: err = %v", err)
	}
}

// TestNoAllocations: once a tokenizer has counted a text, counting and
// cutting it again allocate nothing: the buffers of a call are kept for
// the next.
func TestNoAllocations(t *testing.T) {
	texts := []string{strings.Repeat("a", 5000), strings.Repeat(" \n", 3000), strings.Repeat("🙂", 2000), "ab\xffcd\xe2\x82 héllo \xf0\x9f"}
	for _, text := range loadReference(t).Tokenizers[0].Texts {
		texts = append(texts, text.Text)
	}
	for _, special := range []bool{false, true} {
		tok := load(t, "qwen3.tokenizer.json.gz", special)
		for _, text := range texts {
			tok.Count(text)
			if n := testing.AllocsPerRun(10, func() { tok.Count(text) }); n != 0 {
				t.Errorf("Count(%.40q) allocates %v times", text, n)
			}
			if n := testing.AllocsPerRun(10, func() { tok.Cut(text, 7) }); n != 0 {
				t.Errorf("Cut(%.40q) allocates %v times", text, n)
			}
		}
	}
}

// TestTruncateTextBudgets: a tokenizer.json budgets sections: the corpus
// texts cut to budgets at, under and over their tokens end with "…", fit,
// and hold whole characters of the text.
func TestTruncateTextBudgets(t *testing.T) {
	tok := load(t, "qwen3.tokenizer.json.gz", false)
	for _, text := range loadReference(t).Tokenizers[0].Texts {
		body := strings.TrimRight(text.Text, "\n")
		full := tok.Count(body)
		for _, budget := range []int{1, 2, 5, full / 2, full - 1, full, full + 1} {
			if budget < 1 {
				continue // no budget
			}
			s, err := runtime.BuildSection(tok, runtime.SectionInput{Name: "s", Body: body, Budget: budget, Truncate: runtime.TruncateText})
			if err != nil {
				t.Fatalf("%s, budget %d: %v", text.Name, budget, err)
			}
			prefix, cut := strings.CutSuffix(s.Text, "…")
			switch {
			case budget >= full && (s.Text != body || s.Truncated):
				t.Errorf("%s, budget %d: cut a text of %d tokens", text.Name, budget, full)
			case budget < full && (!cut || !s.Truncated || !strings.HasPrefix(body, prefix)):
				t.Errorf("%s, budget %d: got %q", text.Name, budget, s.Text)
			case s.Tokens != tok.Count(s.Text) || s.Tokens > budget || !utf8.ValidString(s.Text):
				t.Errorf("%s, budget %d: %d tokens, %q", text.Name, budget, s.Tokens, s.Text)
			}
		}
	}
}

// TestConcurrentUse: goroutines counting and cutting with one tokenizer
// get what one does alone (go test -race checks the learnt whole tokens
// and the kept buffers).
func TestConcurrentUse(t *testing.T) {
	data, err := json.Marshal(tiny([][2]string{{"a", "b"}, {"ab", "c"}, {"abc", "abc"}, {" ", "a"}}, nil))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := hftokenizer.Load(data) // a new one: nothing learnt yet
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"abc abcabc ab", strings.Repeat("abc", 100), "a\xffb é " + strings.Repeat(" ", 80)}
	want := make([][]int, len(texts))
	for i, text := range texts {
		fresh, err := hftokenizer.Load(data)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = fresh.Encode(text)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 50 {
				i := (g + k) % len(texts)
				if got := tok.Encode(texts[i]); !slices.Equal(got, want[i]) {
					t.Errorf("Encode(%.20q) = %v, want %v", texts[i], got, want[i])
					return
				}
				tok.Cut(texts[i], k)
			}
		}()
	}
	wg.Wait()
}
