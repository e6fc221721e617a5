package hftokenizer_test

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/runtime/hftokenizer"
)

// FuzzLoad: whatever a tokenizer.json holds, Load returns a tokenizer or
// an error, never panics, and a tokenizer it returns counts as it cuts.
func FuzzLoad(f *testing.F) {
	seed := tiny([][2]string{{"a", "b"}, {"ab", "c"}, {" ", "a"}}, nil)
	seed["added_tokens"] = []any{map[string]any{"id": 400, "content": "<s>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": false}}
	data, err := json.Marshal(seed)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(strings.Replace(string(data), `"normalizer":null`, `"normalizer":{"type":"NFC"}`, 1)))
	f.Add([]byte(strings.Replace(string(data), `"ignore_merges":false`, `"ignore_merges":true`, 1)))
	f.Add([]byte(`{"model":{"type":"BPE","vocab":{"a":0},"merges":["a a"]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tok, err := hftokenizer.Load(data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "hftokenizer: ") {
				t.Errorf("err = %v", err)
			}
			return
		}
		checkInvariants(t, tok, "abc ab<s>c  \n\t9 é e\u0301 \xff🙂")
	})
}

// FuzzCount: on any text, Qwen 3's tokenizer counts as many tokens as it
// encodes, and Cut returns prefixes, longer as n grows, each holding at
// most n of the text's tokens, all of it at the count; and on text
// without "<", where no added token starts, it encodes as the text read
// valid and merged by the specification's scan does (EncodeByScan).
func FuzzCount(f *testing.F) {
	for _, text := range loadReference(f).Tokenizers[0].Texts {
		f.Add(text.Text)
	}
	f.Add("ab\xffcd\xe2\x82 héllo \xf0\x9f")
	f.Add("A\u030a\u212b<|im_start|><tool_call>")
	toks := []*hftokenizer.Tokenizer{load(f, "qwen3.tokenizer.json.gz", false), load(f, "qwen3.tokenizer.json.gz", true)}
	f.Fuzz(func(t *testing.T, text string) {
		for _, tok := range toks {
			checkInvariants(t, tok, text)
		}
		if !strings.Contains(text, "<") {
			if ids, want := toks[0].Encode(text), hftokenizer.EncodeByScan(toks[0], text); !slices.Equal(toUint32(ids), want) {
				t.Fatalf("Encode(%q) = %v, want %v", text, ids, want)
			}
		}
	})
}

func checkInvariants(t *testing.T, tok *hftokenizer.Tokenizer, text string) {
	t.Helper()
	count := tok.Count(text)
	if ids := tok.Encode(text); len(ids) != count {
		t.Fatalf("Count(%q) = %d, Encode has %d ids", text, count, len(ids))
	}
	prev := ""
	ns := []int{-1, 0, 1, 2, count / 2, count - 1, count, count + 1}
	slices.Sort(ns)
	for _, n := range ns {
		cut := tok.Cut(text, n)
		if !strings.HasPrefix(text, cut) || (n > 0 && len(cut) < len(prev)) {
			t.Fatalf("Cut(%q, %d) = %q after %q", text, n, cut, prev)
		}
		if n <= 0 && cut != "" || n >= count && cut != text {
			t.Fatalf("Cut(%q, %d) = %q of %d tokens", text, n, cut, count)
		}
		prev = cut
	}
}

// FuzzMerge: the heap's merge makes of any piece (not only those the
// pre-tokenizer makes) what the specification's scan does, and so does
// longpiece's search of the piece repeated past two tokens.
func FuzzMerge(f *testing.F) {
	for _, seed := range []string{"aaaaaaaaaaa", "    \n \n", "hello world", "语言模型语言模型", "🙂🙂🙂", "\xff\xfe abcabcabc", "============"} {
		f.Add(seed)
	}
	tok := load(f, "qwen3.tokenizer.json.gz", false)
	f.Fuzz(func(t *testing.T, piece string) {
		if piece == "" {
			return
		}
		if merged, scanned := hftokenizer.MergeAndScan(tok, piece); !slices.Equal(merged, scanned) {
			t.Errorf("merge(%q) = %v, want %v", piece, merged, scanned)
		}
		if len(piece) <= 64 {
			checkSearch(t, tok, strings.Repeat(piece, 2*hftokenizer.Longest(tok)/len(piece)+1))
		}
	})
}

// TestMergeLongPieces: on pieces long enough for the buckets by rank, of
// one character, of a few, and of varied text (where merges make pairs
// that rank before them, which the heap then takes over), the merge makes
// what the specification's scan does; so does longpiece's search on those
// longer than two tokens.
func TestMergeLongPieces(t *testing.T) {
	tok := load(t, "qwen3.tokenizer.json.gz", false)
	var corpus strings.Builder
	for _, text := range loadReference(t).Tokenizers[0].Texts {
		corpus.WriteString(text.Text)
	}
	pieces := []string{corpus.String()[:3000], strings.ReplaceAll(corpus.String(), " ", "")[:2000]}
	for _, unit := range []string{" ", "\n", " \n", "a", "ab", "abc", "=", "-=", "语", "🙂", "e\u0301", "\xff", "00"} {
		for _, n := range []int{64, 65, 100, 1000} {
			pieces = append(pieces, strings.Repeat(unit, n))
		}
	}
	for _, piece := range pieces {
		if merged, scanned := hftokenizer.MergeAndScan(tok, piece); !slices.Equal(merged, scanned) {
			t.Errorf("merge(%.40q, %d bytes) = %v, want %v", piece, len(piece), merged, scanned)
		}
		checkSearch(t, tok, piece)
	}
	// Qwen's merges each rank before the merges of the tokens they make, as
	// files made from tiktoken's ranks do; these do not: joining "a" "b"
	// makes pairs of "ab" "c", which rank first.
	tok = mustLoad(t, tiny([][2]string{{"ab", "c"}, {"a", "b"}, {"c", "c"}, {"abc", "abc"}, {"b", "c"}}, map[string]int{"ab": 300}))
	rng := rand.New(rand.NewPCG(26, 2))
	pieces = []string{strings.Repeat("abc", 40), strings.Repeat("abcc", 30)}
	for range 50 {
		piece := make([]byte, 64+rng.IntN(200))
		for i := range piece {
			piece[i] = "abc"[rng.IntN(3)]
		}
		pieces = append(pieces, string(piece))
	}
	for _, piece := range pieces {
		if merged, scanned := hftokenizer.MergeAndScan(tok, piece); !slices.Equal(merged, scanned) {
			t.Errorf("merge(%q) = %v, want %v", piece, merged, scanned)
		}
		checkSearch(t, tok, piece)
	}
}

// checkSearch holds longpiece's search to the specification's scan on
// piece, when it is longer than two tokens.
func checkSearch(t *testing.T, tok *hftokenizer.Tokenizer, piece string) {
	t.Helper()
	if len(piece) <= 2*hftokenizer.Longest(tok) {
		return
	}
	if searched, scanned := hftokenizer.SearchAndScan(tok, piece); !slices.Equal(searched, scanned) {
		t.Errorf("search(%.40q, %d bytes) = %v, want %v", piece, len(piece), searched, scanned)
	}
}

// TestMergeTwo: every piece of two starting parts (each pair of bytes,
// the marker U+FFFD), which merge takes by one lookup, merges as the
// specification's scan does the bytes of the piece not marked.
func TestMergeTwo(t *testing.T) {
	tok := load(t, "qwen3.tokenizer.json.gz", false)
	if !hftokenizer.ReplacementPart(tok) {
		t.Fatal("Qwen 3's pieces do not start U+FFFD as one part")
	}
	for a := range 256 {
		for b := range 256 {
			piece := string([]byte{byte(a), byte(b)})
			if two, scanned := hftokenizer.MergeAndScanMarked(tok, piece); !slices.Equal(two, scanned) {
				t.Fatalf("merge(%q) = %v, want %v", piece, two, scanned)
			}
		}
	}
}

// TestEncodeMarked: on random bytes, and on runes around U+FFFD that NFC,
// the splitter and the merges treat apart, Encode, which reads the text
// marked, gives the ids that the text read as valid UTF-8 makes by the
// specification's steps, apart from the marked tables (EncodeByScan), and
// Count, which counts pieces that hold U+FFFD by segments, their number:
// also on runs of U+FFFD of every length up to past shortPiece.
func TestEncodeMarked(t *testing.T) {
	tok := load(t, "qwen3.tokenizer.json.gz", false)
	units := []string{"\xff", "\xe2\x82", "\uFFFD", " ", "a", "7", "\u0301", "\u0b3e", "e", "\n", "!", "语", "\xc3", "\xa9", "'s"}
	texts := []string{"a\xff" + strings.Repeat("\u0301", 40) + "b", "\xff\u0b3e\u0301", "\uFFFD\u0b3e\u0301 \xe2\x82\u0301"}
	rng := rand.New(rand.NewPCG(26, 2))
	for k := range 400 {
		var text []byte
		for range rng.IntN(64) {
			if k%2 == 0 {
				text = append(text, byte(rng.Uint32()))
			} else {
				text = append(text, units[rng.IntN(len(units))]...)
			}
		}
		texts = append(texts, string(text))
	}
	// runs of U+FFFD, which Count merges by segments, between bytes that
	// tokens hold beside it and bytes that none does
	for n := 1; n <= 40; n++ {
		for _, around := range []string{"!", "\x01", " ", "?", "\n", "s"} {
			texts = append(texts, around+strings.Repeat("\xff", n)+around+"\xff", "\x01"+strings.Repeat("\uFFFD", n)+around)
		}
	}
	for _, text := range texts {
		want := hftokenizer.EncodeByScan(tok, text)
		if ids := tok.Encode(text); !slices.Equal(toUint32(ids), want) {
			t.Fatalf("Encode(%q) = %v, want %v", text, ids, want)
		}
		if count := tok.Count(text); count != len(want) {
			t.Fatalf("Count(%q) = %d, want %d", text, count, len(want))
		}
	}
}

func toUint32(ids []int) []uint32 {
	out := make([]uint32, len(ids))
	for i, id := range ids {
		out[i] = uint32(id)
	}
	return out
}
