package hftokenizer_test

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/runtime/hftokenizer"
)

const (
	qwen2Pattern  = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	cl100kPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
)

// byteLevel spells bytes in GPT-2's byte-level alphabet.
func byteLevel(s string) string {
	var b strings.Builder
	next := rune(256)
	var runes [256]rune
	for c := range 256 {
		runes[c] = rune(c)
		if !('!' <= c && c <= '~' || 0xa1 <= c && c <= 0xac || 0xae <= c && c <= 0xff) {
			runes[c] = next
			next++
		}
	}
	for i := range len(s) {
		b.WriteRune(runes[s[i]])
	}
	return b.String()
}

// tiny is a tokenizer.json of the kind Load reads: each byte a token (its
// value its id), then the merges' tokens, ids from 256 in order, unless
// vocab gives the id of a token.
func tiny(merges [][2]string, vocab map[string]int) map[string]any {
	v := map[string]any{}
	for c := range 256 {
		v[byteLevel(string([]byte{byte(c)}))] = c
	}
	var list []any
	for _, m := range merges {
		left, right := byteLevel(m[0]), byteLevel(m[1])
		if _, ok := v[left+right]; !ok {
			v[left+right] = len(v)
		}
		list = append(list, []string{left, right})
	}
	for token, id := range vocab {
		v[byteLevel(token)] = id
	}
	return map[string]any{
		"version":      "1.0",
		"added_tokens": []any{},
		"normalizer":   nil,
		"pre_tokenizer": map[string]any{"type": "Sequence", "pretokenizers": []any{
			map[string]any{"type": "Split", "pattern": map[string]any{"Regex": qwen2Pattern}, "behavior": "Isolated", "invert": false},
			map[string]any{"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": false, "use_regex": false},
		}},
		"post_processor": nil,
		"decoder":        nil,
		"model": map[string]any{
			"type": "BPE", "dropout": nil, "unk_token": nil, "continuing_subword_prefix": "", "end_of_word_suffix": "",
			"fuse_unk": false, "byte_fallback": false, "ignore_merges": false, "vocab": v, "merges": list,
		},
	}
}

func loadJSON(t *testing.T, f map[string]any, opts ...hftokenizer.Option) (*hftokenizer.Tokenizer, error) {
	t.Helper()
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return hftokenizer.Load(data, opts...)
}

func mustLoad(t *testing.T, f map[string]any, opts ...hftokenizer.Option) *hftokenizer.Tokenizer {
	t.Helper()
	tok, err := loadJSON(t, f, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func preTokenizer(f map[string]any, i int) map[string]any {
	return f["pre_tokenizer"].(map[string]any)["pretokenizers"].([]any)[i].(map[string]any)
}

func model(f map[string]any) map[string]any { return f["model"].(map[string]any) }

// TestLoadRefuses: a tokenizer.json with a component or option the
// package does not implement is an error that names it, never a
// tokenizer that counts differently.
func TestLoadRefuses(t *testing.T) {
	ab := [][2]string{{"a", "b"}}
	for _, tc := range []struct {
		name   string
		change func(f map[string]any)
		want   string
	}{
		{"normalizer", func(f map[string]any) { f["normalizer"] = map[string]any{"type": "NFKC"} },
			`normalizer "NFKC" is not implemented`},
		{"normalizer with fields of its own", func(f map[string]any) {
			f["normalizer"] = map[string]any{"type": "Replace", "pattern": map[string]any{"String": " "}, "content": "▁"}
		}, `normalizer "Replace" is not implemented`},
		{"normalizer in a sequence", func(f map[string]any) {
			f["normalizer"] = map[string]any{"type": "Sequence", "normalizers": []any{map[string]any{"type": "NFC"}, map[string]any{"type": "NFKC"}}}
		}, `normalizer Sequence(NFC, NFKC) is not implemented`},
		{"DeepSeek V3's pre-tokenizer", func(f map[string]any) {
			f["normalizer"] = map[string]any{"type": "Sequence", "normalizers": []any{}}
			split := preTokenizer(f, 0)
			f["pre_tokenizer"].(map[string]any)["pretokenizers"] = []any{split, split, split, preTokenizer(f, 1)}
		}, "pre_tokenizer: Sequence(Split, Split, Split, ByteLevel): only a Sequence of Split and ByteLevel is implemented"},
		{"pre-tokenizer with fields of its own", func(f map[string]any) {
			f["pre_tokenizer"] = map[string]any{"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": true}
		}, "pre_tokenizer: Metaspace: only a Sequence of Split and ByteLevel is implemented"},
		{"no pre_tokenizer", func(f map[string]any) { f["pre_tokenizer"] = nil },
			"pre_tokenizer: none"},
		{"GPT-2's ByteLevel", func(f map[string]any) {
			f["pre_tokenizer"] = map[string]any{"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true}
		}, "pre_tokenizer: ByteLevel: only a Sequence of Split and ByteLevel is implemented"},
		{"pattern", func(f map[string]any) { preTokenizer(f, 0)["pattern"] = map[string]any{"Regex": `\w+|\s+`} },
			`Split: pattern "\\w+|\\s+" is not implemented`},
		{"string pattern", func(f map[string]any) { preTokenizer(f, 0)["pattern"] = map[string]any{"String": " "} },
			"Split: only a Regex pattern is implemented"},
		{"behavior", func(f map[string]any) { preTokenizer(f, 0)["behavior"] = "MergedWithPrevious" },
			`Split: behavior "MergedWithPrevious" with invert false is not implemented`},
		{"inverted isolation", func(f map[string]any) { preTokenizer(f, 0)["invert"] = true },
			`Split: behavior "Isolated" with invert true is not implemented`},
		{"prefix space", func(f map[string]any) { preTokenizer(f, 1)["add_prefix_space"] = true },
			"ByteLevel: add_prefix_space is not implemented"},
		{"ByteLevel's own expression", func(f map[string]any) { delete(preTokenizer(f, 1), "use_regex") },
			"ByteLevel: use_regex (GPT-2's expression) is not implemented"},
		{"unknown pre-tokenizer field", func(f map[string]any) { preTokenizer(f, 0)["lowercase"] = true },
			`unknown field "lowercase"`},
		{"unknown top-level field", func(f map[string]any) { f["pre_normalizer"] = nil },
			`unknown field "pre_normalizer"`},
		{"model type", func(f map[string]any) { model(f)["type"] = "Unigram" },
			`model: type "Unigram" is not implemented`},
		{"dropout", func(f map[string]any) { model(f)["dropout"] = 0.1 },
			"model: dropout is not implemented"},
		{"byte fallback", func(f map[string]any) { model(f)["byte_fallback"] = true },
			"model: byte_fallback is not implemented"},
		{"subword prefix", func(f map[string]any) { model(f)["continuing_subword_prefix"] = "##" },
			"model: continuing_subword_prefix and end_of_word_suffix are not implemented"},
		{"missing byte", func(f map[string]any) { delete(model(f)["vocab"].(map[string]any), "A") },
			"model: the vocabulary has no token for byte 0x41"},
		{"negative id", func(f map[string]any) { model(f)["vocab"].(map[string]any)["ab"] = -1 },
			`model: token "ab" has id "-1"`},
		{"fractional id", func(f map[string]any) { model(f)["vocab"].(map[string]any)["ab"] = 1.5 },
			`model: token "ab" has id "1.5"`},
		{"id twice", func(f map[string]any) { model(f)["vocab"].(map[string]any)["ab"] = 65 },
			`model: vocab: tokens "A" and "ab" have the same id 65`},
		{"vocab not an object", func(f map[string]any) { model(f)["vocab"] = []any{} },
			"model: vocab is not a JSON object"},
		{"merges not an array", func(f map[string]any) { model(f)["merges"] = "a b" },
			"model: merges is not a JSON array"},
		{"merge not a string", func(f map[string]any) { model(f)["merges"] = []any{1} },
			"model: a merge, neither a string nor a pair, is not a JSON array"},
		{"merge out of the vocabulary", func(f map[string]any) { model(f)["merges"] = []any{"a b", "ab Ā"} },
			`model: merge 1 ("ab" "Ā"): "abĀ" is not in the vocabulary`},
		{"merge twice", func(f map[string]any) { model(f)["merges"] = []any{"a b", []string{"a", "b"}} },
			`model: merge 1 ("a" "b") is listed twice`},
		{"merge of three", func(f map[string]any) { model(f)["merges"] = []any{"a b c"} },
			`merge "a b c" is not two tokens separated by a space`},
		{"merge of one", func(f map[string]any) { model(f)["merges"] = []any{[]string{"a"}} },
			`merge ["a"] is not a pair of tokens`},
		{"escaped merge", func(f map[string]any) { model(f)["merges"] = []any{"\"\u0041 b"} },
			`model: merge 0 ("\"A" "b"): "\"A" is not in the vocabulary`},
		{"added token stripping", func(f map[string]any) {
			f["added_tokens"] = []any{map[string]any{"id": 300, "content": "<x>", "single_word": false, "lstrip": true, "rstrip": false, "normalized": false, "special": false}}
		}, `added_tokens: token "<x>": single_word, lstrip and rstrip are not implemented`},
		{"added token normalized with NFC", func(f map[string]any) {
			f["normalizer"] = map[string]any{"type": "NFC"}
			f["added_tokens"] = []any{map[string]any{"id": 300, "content": "<x>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": true, "special": true}}
		}, `added_tokens: token "<x>": tokens found after normalization are not implemented with others or with NFC`},
		{"empty added token", func(f map[string]any) {
			f["added_tokens"] = []any{map[string]any{"id": 300, "content": "", "normalized": false}}
		}, "added_tokens: token 300 is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tiny(ab, nil)
			tc.change(f)
			_, err := loadJSON(t, f)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "hftokenizer: ") {
				t.Errorf("err = %v, want hftokenizer: ...%s", err, tc.want)
			}
		})
	}
}

// TestLoadRefusesBadJSON: what is not one JSON object of a tokenizer is
// an error, never a panic.
func TestLoadRefusesBadJSON(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{"", "not a tokenizer.json this package reads: EOF"},
		{"{} {}", "not a tokenizer.json: more than one JSON value"},
		{`{"model": []}`, "cannot unmarshal array"},
		{"{}", "pre_tokenizer: none"},
	} {
		_, err := hftokenizer.Load([]byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%q): err = %v, want %s", tc.data, err, tc.want)
		}
	}
	if _, err := hftokenizer.Load(make([]byte, hftokenizer.MaxFileSize+1)); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("Load of more than MaxFileSize: err = %v", err)
	}
}

// encode returns the tokens of text, each as its bytes.
func encode(t *testing.T, tok *hftokenizer.Tokenizer, text string) []string {
	t.Helper()
	var tokens []string
	prev := 0
	for n := 1; n <= tok.Count(text); n++ {
		cut := tok.Cut(text, n)
		tokens = append(tokens, text[prev:len(cut)])
		prev = len(cut)
	}
	return tokens
}

// TestMergeOrder: the merge listed first joins first, whatever the ids of
// the tokens it and the others make (tiktoken's encoder ranks the token a
// merge makes), and of a merge's pairs, the leftmost.
func TestMergeOrder(t *testing.T) {
	// "ab" has the lower id, "b c" is listed first
	tok := mustLoad(t, tiny([][2]string{{"b", "c"}, {"a", "b"}}, map[string]int{"ab": 256, "bc": 257}))
	if got, want := encode(t, tok, "abc"), []string{"a", "bc"}; !slices.Equal(got, want) {
		t.Errorf("abc: %q, want %q", got, want)
	}
	tok = mustLoad(t, tiny([][2]string{{"a", "a"}}, nil))
	if got, want := encode(t, tok, "aaaaa"), []string{"aa", "aa", "a"}; !slices.Equal(got, want) {
		t.Errorf("aaaaa: %q, want %q", got, want)
	}
}

// TestWholePiece: a piece that is a token is that token when the merges
// make it, or always with ignore_merges; without, it is what the merges
// make of it, every time (the package learns which tokens merges make).
func TestWholePiece(t *testing.T) {
	// "abc" is a token, but the merges make "a" "bc" of it
	f := tiny([][2]string{{"b", "c"}, {"a", "b"}, {"ab", "c"}}, nil)
	tok := mustLoad(t, f)
	for range 2 {
		if got, want := encode(t, tok, "abc abc"), []string{"a", "bc", " ", "a", "bc"}; !slices.Equal(got, want) {
			t.Errorf("abc abc: %q, want %q", got, want)
		}
	}
	model(f)["ignore_merges"] = true
	tok = mustLoad(t, f)
	if got, want := encode(t, tok, "abc"), []string{"abc"}; !slices.Equal(got, want) {
		t.Errorf("abc with ignore_merges: %q, want %q", got, want)
	}
}

// TestSplitPatterns: Qwen 2's expression takes digits one at a time,
// Llama 3's (cl100k_base's) up to three; the pieces between the matches
// of the expression are empty, so keeping the matches (Removed, inverted,
// as GPT-4o's file has it) is isolating them.
func TestSplitPatterns(t *testing.T) {
	f := tiny([][2]string{{"1", "2"}}, nil)
	if got, want := encode(t, mustLoad(t, f), "1212"), []string{"1", "2", "1", "2"}; !slices.Equal(got, want) {
		t.Errorf("Qwen 2: %q, want %q", got, want)
	}
	preTokenizer(f, 0)["pattern"] = map[string]any{"Regex": cl100kPattern}
	if got, want := encode(t, mustLoad(t, f), "1212"), []string{"12", "1", "2"}; !slices.Equal(got, want) {
		t.Errorf("Llama 3: %q, want %q", got, want)
	}
	preTokenizer(f, 0)["behavior"], preTokenizer(f, 0)["invert"] = "Removed", true
	if got, want := encode(t, mustLoad(t, f), "1212"), []string{"12", "1", "2"}; !slices.Equal(got, want) {
		t.Errorf("Llama 3, matches kept: %q, want %q", got, want)
	}
}

// TestAddedTokens: added tokens are found leftmost, the longest first; a
// special one is text unless MatchSpecialTokens, and, as in Hugging
// Face's tokenizers, what it spells is not searched again for others.
func TestAddedTokens(t *testing.T) {
	f := tiny(nil, nil)
	token := func(id int, content string, special bool) map[string]any {
		return map[string]any{"id": id, "content": content, "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": special}
	}
	f["added_tokens"] = []any{token(300, "<a>", false), token(301, "<a>>", false), token(302, "<s>", true), token(303, "s>!", false)}
	tok := mustLoad(t, f)
	if got, want := tok.Encode("x<a>><a><s>!"), []int{'x', 301, 300, '<', 's', '>', '!'}; !slices.Equal(got, want) {
		t.Errorf("special as text: %v, want %v", got, want)
	}
	tok = mustLoad(t, f, hftokenizer.MatchSpecialTokens())
	if got, want := tok.Encode("x<a>><a><s>!"), []int{'x', 301, 300, 302, '!'}; !slices.Equal(got, want) {
		t.Errorf("special matched: %v, want %v", got, want)
	}
}

// TestReplacementCharMergesFirst: a piece starts U+FFFD as one part only
// when the file's merges make it of its bytes before any merge that
// crosses them, which Qwen 3's do; otherwise its bytes start apart. Either
// way the merge makes what the specification's scan makes of U+FFFD among
// the bytes that merge with it.
func TestReplacementCharMergesFirst(t *testing.T) {
	const fffd = "\uFFFD"
	ef, bf, bd, efbf, bfbd := fffd[:1], fffd[1:2], fffd[2:], fffd[:2], fffd[1:]
	for _, c := range []struct {
		name   string
		merges [][2]string
		part   bool
	}{
		{"inside first", [][2]string{{ef, bf}, {efbf, bd}, {"a", ef}, {bd, "a"}, {fffd, fffd}}, true},
		{"inside first, by its second pair", [][2]string{{bf, bd}, {ef, bfbd}, {"a", ef}, {fffd, "a"}}, true},
		{"a byte before its first", [][2]string{{"a", ef}, {ef, bf}, {efbf, bd}}, false},
		{"a byte after its last", [][2]string{{ef, bf}, {bd, "a"}, {efbf, bd}}, false},
		{"a pair of it before its bytes", [][2]string{{ef, bf}, {"a", efbf}, {efbf, bd}}, false},
		{"its first pair's merge missing", [][2]string{{bf, bd}, {ef, bf}, {efbf, bd}}, false},
		{"no merge completes it", [][2]string{{ef, bf}, {"a", ef}}, false},
	} {
		tok := mustLoad(t, tiny(c.merges, nil))
		if got := hftokenizer.ReplacementPart(tok); got != c.part {
			t.Errorf("%s: U+FFFD one part: %v, want %v", c.name, got, c.part)
		}
		for _, piece := range []string{fffd, "a" + fffd, fffd + "a", "a" + fffd + fffd + "a", fffd + fffd + fffd, "a" + ef + fffd + bd + "a"} {
			if merged, scanned := hftokenizer.MergeAndScan(tok, piece); !slices.Equal(merged, scanned) {
				t.Errorf("%s: merge(%q) = %v, want %v", c.name, piece, merged, scanned)
			}
		}
	}
	tok := load(t, "qwen3.tokenizer.json.gz", false)
	if !hftokenizer.ReplacementPart(tok) {
		t.Fatal("Qwen 3: U+FFFD does not start as one part")
	}
	rng := rand.New(rand.NewPCG(26, 7))
	units := []string{fffd, ef, bf, bd, efbf, bfbd, " ", "a", "!", "\n", "é", "🙂", "\x80", "\xff"}
	for range 20000 {
		var piece strings.Builder
		for range 1 + rng.IntN(12) {
			piece.WriteString(units[rng.IntN(len(units))])
		}
		if merged, scanned := hftokenizer.MergeAndScan(tok, piece.String()); !slices.Equal(merged, scanned) {
			t.Fatalf("Qwen 3: merge(%q) = %v, want %v", piece.String(), merged, scanned)
		}
	}
}

// TestNormalizerSequence: a Sequence of normalizers is read as its
// parts: an empty one (DeepSeek V3's) normalizes nothing, one of NFC as
// NFC does.
func TestNormalizerSequence(t *testing.T) {
	text := "cafe\u0301 cafe\u0301" // NFC composes e and the accent into é
	for _, tc := range []struct {
		normalizers []any
		like        any
	}{
		{[]any{}, nil},
		{[]any{map[string]any{"type": "NFC"}}, map[string]any{"type": "NFC"}},
	} {
		f, like := tiny([][2]string{{"a", "b"}}, nil), tiny([][2]string{{"a", "b"}}, nil)
		f["normalizer"] = map[string]any{"type": "Sequence", "normalizers": tc.normalizers}
		like["normalizer"] = tc.like
		if got, want := mustLoad(t, f).Encode(text), mustLoad(t, like).Encode(text); !slices.Equal(got, want) {
			t.Errorf("Sequence%v: %v, want %v as with %v", tc.normalizers, got, want, tc.like)
		}
	}
	nfc, none := tiny(nil, nil), tiny(nil, nil)
	nfc["normalizer"] = map[string]any{"type": "NFC"}
	if slices.Equal(mustLoad(t, nfc).Encode(text), mustLoad(t, none).Encode(text)) {
		t.Fatalf("NFC and none encode %q alike: the test cannot tell them apart", text)
	}
}
