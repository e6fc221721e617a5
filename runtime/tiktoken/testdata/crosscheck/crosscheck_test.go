package main

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/tiktoken"
	"github.com/tiktoken-go/tokenizer/codec"
)

// This module holds what runtime/tiktoken is checked against but its
// module must not require (tiktoken-go needs Go 1.26, regexp2/v2 Go 1.25):
// the oracle, which encodes by the encodings' definition, and tiktoken-go,
// an implementation of its own. The package is seen from outside, through
// Count and Cut: equal counts and equal cuts after every token make equal
// token boundaries, and with the vocabulary of TestFilesUpToDate (whose
// hash runtime/tiktoken checks against OpenAI's) equal token ids.

// oracle encodes as tiktoken does, by its definition: the encoding's
// regular expression, run by regexp2's backtracking interpreter, splits
// the text, and each piece is merged by tiktoken's own loop, one scan of
// all parts per merge. It is slow and independent of the package's
// scanner and heap. Wrapped in (?:), the expressions are not the ones
// tiktoken-go compiled to Go code, which has two bugs (see
// dependencyDiverges).
type oracle struct {
	name  string
	tok   func() runtime.Tokenizer
	re    *regexp2.Regexp
	codec func() *codec.Codec
	ranks map[string]uint32 // from the embedded file, read here
}

var oracles = []*oracle{
	{
		"o200k_base", tiktoken.O200kBase,
		regexp2.MustCompile(`(?:[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)`, regexp2.None),
		codec.NewO200kBase, nil,
	},
	{
		"cl100k_base", tiktoken.Cl100kBase,
		regexp2.MustCompile(`(?:(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)`, regexp2.None),
		codec.NewCl100kBase, nil,
	},
}

// vocabulary returns the ranks of the encoding's embedded file.
func (o *oracle) vocabulary(t testing.TB) map[string]uint32 {
	if o.ranks == nil {
		data, err := os.ReadFile(filepath.Join("..", "..", o.name+".tokens"))
		if err != nil {
			t.Fatal(err)
		}
		o.ranks = make(map[string]uint32)
		for i := 0; i < len(data); i += 1 + int(data[i]) {
			o.ranks[string(data[i+1:i+1+int(data[i])])] = uint32(len(o.ranks))
		}
	}
	return o.ranks
}

// pieces splits text by the regular expression.
func (o *oracle) pieces(t testing.TB, text string) []string {
	var pieces []string
	m, err := o.re.FindStringMatch(text)
	for ; m != nil && err == nil; m, err = o.re.FindNextMatch(m) {
		pieces = append(pieces, m.String())
	}
	if err != nil {
		t.Fatal(err)
	}
	return pieces
}

// encode returns the token ids of text, read as valid UTF-8, and the
// byte offset in it where each token ends.
func (o *oracle) encode(t testing.TB, text string) (ids []uint32, ends []int) {
	ranks := o.vocabulary(t)
	start := 0
	for _, piece := range o.pieces(t, valid(text)) {
		parts := make([]int, len(piece)+1) // the offsets where parts start
		for i := range parts {
			parts[i] = i
		}
		for {
			best, at := uint32(math.MaxUint32), -1
			for i := 0; i+2 < len(parts); i++ {
				if r, ok := ranks[piece[parts[i]:parts[i+2]]]; ok && r < best {
					best, at = r, i
				}
			}
			if at < 0 {
				break
			}
			parts = slices.Delete(parts, at+1, at+2)
		}
		for i := 0; i+1 < len(parts); i++ {
			ids = append(ids, ranks[piece[parts[i]:parts[i+1]]])
			ends = append(ends, start+parts[i+1])
		}
		start += len(piece)
	}
	return ids, ends
}

// check compares the package's Count of text with the oracle's, and, for
// valid text, its Cut after each token: the last end up to the n-th that
// is between runes. It compares the oracle's token ids with tiktoken-go's
// where that does not diverge.
func (o *oracle) check(t testing.TB, text string) {
	t.Helper()
	ids, ends := o.encode(t, text)
	tok := o.tok()
	if n := tok.Count(text); n != len(ids) {
		t.Fatalf("%s: %q: Count = %d, want %d\noracle's pieces %q", o.name, text, n, len(ids), o.pieces(t, valid(text)))
	}
	if utf8.ValidString(text) {
		want := 0
		for n := 0; n <= len(ends)+1; n++ {
			if n > 0 && n <= len(ends) && (ends[n-1] == len(text) || utf8.RuneStart(text[ends[n-1]])) {
				want = ends[n-1]
			}
			if cut := tok.Cut(text, n); cut != text[:want] {
				t.Fatalf("%s: %q: Cut(text, %d) = %q, want %q\noracle's pieces %q", o.name, text, n, cut, text[:want], o.pieces(t, text))
			}
		}
	}
	if !dependencyDiverges(text) {
		if got := dependencyIDs(t, o.codec(), text); !slices.Equal(got, ids) {
			t.Fatalf("%s: %q: tiktoken-go differs from the oracle\ngot  %v\nwant %v", o.name, text, got, ids)
		}
	}
}

// valid returns text with each invalid byte replaced by U+FFFD, as
// tiktoken-go reads it.
func valid(text string) string { return string([]rune(text)) }

// dependencyIDs encodes text with tiktoken-go.
func dependencyIDs(t testing.TB, c *codec.Codec, text string) []uint32 {
	ids, _, err := c.Encode(text)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]uint32, len(ids))
	for i, id := range ids {
		out[i] = uint32(id)
	}
	return out
}

// lineBreakRun is a whitespace run that holds a line break, other
// whitespace, then another line break.
var lineBreakRun = regexp.MustCompile(`[\r\n][\t\v\f \x{85}\p{Z}]+[\r\n]`)

// dependencyDiverges reports whether tiktoken-go may encode text otherwise
// than tiktoken, for one of the two bugs of the Go code that regexp2cg
// generated for its regular expressions:
//   - \s*[\r\n]+ ends a whitespace run's piece at the run's first line
//     breaks, so on " \n \n x" it gives " \n", " \n" where tiktoken (and
//     js-tiktoken, testdata/reference.json) gives " \n \n", one token fewer;
//     this is also what makes it quadratic;
//   - its ASCII bitmap leaves U+007F out of [^\s\p{L}\p{N}], so the rune
//     starts no piece and is dropped: "\x7f" is no token, not one.
func dependencyDiverges(text string) bool {
	text = valid(text)
	return lineBreakRun.MatchString(text) || strings.ContainsRune(text, '\x7f')
}

// corpus holds texts in many scripts and shapes; the reference texts are
// added to it.
var corpus = []string{
	"The quick brown fox jumps over the lazy dog. I'm sure they'd've LIKED it; WE'LL see, won'T we? It'S O'Neil's.",
	"Contractions: 'S 'T 'RE 'Ve 'M 'Ll 'D 're 'x 'ſ 'ſt ''s 's' 'l 'L 'r it'ſ IT'ſt x'ſx x'Sx X'Tx x'rex x'VEx x'LLx x'dx x'mx x're'll x'r x'v x'l x'",
	"Ünïcödé Tëxt: ÀÉÎÕÜ àéîõü ǅungla ǈe ǋa ŉ ß ẞ ĲĳǱǲǳ ﬁ ﬂ ǅǅǅabc ABCdef ABCDEF aBC",
	"Ελληνικά: Η γρήγορη καφέ αλεπού. Русский: Съешь же ещё этих мягких французских булок. Ԁԁ Ꙁ",
	"हिन्दी: नमस्ते दुनिया। বাংলা: আমি বাংলায় গান গাই। தமிழ் ழ்க்கு ภาษาไทย ไม่มีช่องว่าง ລາວ ဗမာ",
	"日本語のテキストです。漢字、ひらがな、カタカナ。中文：你好，世界！한국어: 안녕하세요 세계 ㄱㄴㄷ",
	"עברית: שָׁלוֹם עוֹלָם. العربية: مَرْحَبًا بِالعَالَم ١٢٣٤٥٦٧ ۱۲۳ ߀߁ ܫܠܡܐ ދިވެހި",
	"ქართული ენა, Հայերեն, አማርኛ ቋንቋ, ᏣᎳᎩ, ᠮᠣᠩᠭᠣᠯ, ꦗꦮ, 𐌲𐌿𐍄𐌹𐍃𐌺, 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝐁𝐨𝐥𝐝 ⅫⅣ ½¾ ²³ ①②",
	"Marks: e\u0301 a\u0300\u0301\u0302 \u0301\u0301x \u0301 \u20dd\u20dd x\u0301Y\u0302 ABC\u0301def a\u0903b \u0903\u0903",
	"Modifiers: ʰʱʲ ˆˇ ʼn ʻokina ꜰ ᵃᵇᶜ ㇰ 々〆 ー ｱｲｳ ﾞﾟ",
	"Scripts and capitals: 中文ABC 日本X's ʰA ǅ́A x́ÝZ ÀÉ日本ÎÕ 東京GPT-4o カタカナTEXT'll",
	"Emoji: 👍🏽👨‍👩‍👧‍👦🇫🇷🇯🇵❤️💙🎉🎉🎉 1️⃣ #️⃣ 👋🏻👋🏿🦀 ☃ ★☆ ♠♣ ✓✗ 🀄 🂡",
	"func (e *encoding) Count(text string) int {\n\tn := 0\n\tfor i := range 10 {\n\t\tn += i // sum\n\t}\n\treturn n\n}\n",
	"def f(x):\n    if x['k'] == \"v\":\n        return [y**2 for y in x.items() if y]\n    # comment\n\n\n",
	`{"key": [1, 2.5e10, true, null, -0.0001], "nested": {"a": "b\"c\\d", "url": "https://example.com/a/b?c=d&e=f#g"}, "ids": [12345678901234567890]}`,
	"<!DOCTYPE html>\n<html><body class=\"x\"><p>Hi &amp; bye</p><br/></body></html>\r\n/* c */ // a/b//c ///\n",
	"Numbers: 1 12 123 1234 12345 123456 1,234,567.89 3.14159 0x1F 1e-9 ٣٤٥ ๑๒๓ ⅷ 1st 2nd 3rd 10th 2026-01-08T10:45:00Z",
	"Punct: !!! ??? ... --- === *** ### @@@ $$$ %%% ^^^ &&& ((( ))) [[[ ]]] {{{ }}} ||| \\\\ /// ~~~ ``` ''' \"\"\" ;;; ::: ,,, <<< >>>",
	"a   b\t\t\tc\n\n\n   \n\t \r\n  end   \n \n \n x\n\n \n\n y \r\n \r\n z  \n  \n  w\f\v\u0085\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000q   ",
	" \n \n x", "\n \n\n  \n   x", "a\n\n b \n\t\n", "x \n", "x\n ", " ", "\n", "\r\n", "  x", " !x", " !\n/x", "!/\n/", "a/\n",
	"\ufeffBOM and\u200bzero\u200cwidth\u200djoiners\u2060 and\u00adsoft hyphen",
	"Invalid: ab\xffcd\xe2\x82 héllo \xf0\x9f \xed\xa0\x80 \xc0\xaf \xff\xfe\xfd 日本\xe6\x97 ok \xef\xbf\xbd real U+FFFD",
	strings.Repeat("a", 500) + " " + strings.Repeat("🙂", 100) + " " + strings.Repeat("9", 100) + " " + strings.Repeat("ab", 200) + " " + strings.Repeat("=", 300),
	strings.Repeat(" \n", 300) + strings.Repeat("\t \r\n\u3000", 100) + "end",
	strings.Repeat("A", 300) + strings.Repeat("ǅ", 50) + strings.Repeat("\u0301", 50) + strings.Repeat("ʰ", 50) + "x",
}

// texts is the corpus and the texts of runtime/tiktoken's reference.
func texts(t testing.TB) []string {
	data, err := os.ReadFile(filepath.Join("..", "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref struct{ Texts []struct{ Text string } }
	if err := json.Unmarshal(data, &ref); err != nil || len(ref.Texts) == 0 {
		t.Fatalf("no reference texts: %v", err)
	}
	all := slices.Clone(corpus)
	for _, text := range ref.Texts {
		all = append(all, text.Text)
	}
	return all
}

// TestMatchesOracle: the package counts and cuts each text of the corpus
// as the oracle encodes it, and tiktoken-go encodes it so too where it
// does not diverge.
func TestMatchesOracle(t *testing.T) {
	for _, o := range oracles {
		for _, text := range texts(t) {
			o.check(t, text)
		}
	}
}

// tricky holds runes and strings of every class the expressions tell
// apart, for random texts: upper, lower, title case, modifier and other
// letters, marks of each kind, numbers, whitespace of each kind, line
// breaks, apostrophes and the letters of contractions, '/', U+007F,
// U+FFFD and invalid bytes.
var tricky = []string{
	"a", "z", "A", "Z", "é", "É", "ǅ", "ʰ", "々", "日", "ا", "\u0301", "\u0903", "\u20dd",
	"0", "9", "٣", "Ⅻ", "½", " ", " ", "\t", "\v", "\f", "\u0085", "\u00a0", "\u2028", "\u3000",
	"\n", "\r", "\r\n", "'", "'", "s", "S", "t", "re", "VE", "m", "ll", "LL", "d", "ſ",
	"!", ".", "/", "//", "\x7f", "\x00", "\ufffd", "🙂", "\xff", "\xe2\x82",
}

// TestRandomTexts compares with the oracle, and tiktoken-go with it where
// it does not diverge, on random texts of tricky runes.
func TestRandomTexts(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 10))
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(24) + 1 {
			b.WriteString(tricky[rng.IntN(len(tricky))])
		}
		for _, o := range oracles {
			o.check(t, b.String())
		}
	}
}

// TestDependencyDiverges keeps dependencyDiverges to what tiktoken-go
// does: on such runs it still differs from tiktoken (when it no longer
// does, drop the exception), and its exception holds no other text.
func TestDependencyDiverges(t *testing.T) {
	for _, o := range oracles {
		for _, text := range []string{" \n \n x", "\x7f"} {
			if !dependencyDiverges(text) {
				t.Fatalf("%q is not an exception", text)
			}
			want, _ := o.encode(t, text)
			if got := dependencyIDs(t, o.codec(), text); slices.Equal(got, want) {
				t.Errorf("%s: tiktoken-go now encodes %q as tiktoken does (%v): drop its exception", o.name, text, got)
			}
		}
	}
	for _, text := range []string{"\n\n x", " \n  x", "\n x\n y", "\r\n\r\n", "\n \t"} {
		if dependencyDiverges(text) {
			t.Errorf("%q is an exception", text)
		}
	}
}

// TestFilesUpToDate: the embedded files are what the generator writes
// from tiktoken-go's vocabularies.
func TestFilesUpToDate(t *testing.T) {
	for _, v := range vocabularies {
		want, err := tokensFile(v.codec(), v.tokens)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("..", "..", v.name+".tokens"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s.tokens is stale: run go run . in this directory", v.name)
		}
	}
}

// FuzzOracle compares the package with the oracle and tiktoken-go.
func FuzzOracle(f *testing.F) {
	for _, text := range texts(f) {
		if len(text) <= 512 { // the oracle is quadratic: the tests above take the long texts
			f.Add(text)
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, o := range oracles {
			o.check(t, text)
		}
	})
}

// BenchmarkTiktokenGo counts with tiktoken-go's encoder, the previous
// implementation, what runtime/tiktoken's BenchmarkCount and
// BenchmarkHostile count: about 1 MB of English and Go (the runtime's
// sources and the README), and 64 KB of each hostile shape but " \n", of
// which 16 KB: tiktoken-go takes time quadratic in a run of whitespace
// with line breaks (5 s for 64 KB), so its MB/s there falls as the run
// grows.
func BenchmarkTiktokenGo(b *testing.B) {
	var mixed strings.Builder
	files, err := filepath.Glob("../../../*.go")
	if err != nil || len(files) == 0 {
		b.Fatal("no Go files", err)
	}
	files = append(files, "../../../../README.md")
	for mixed.Len() < 1<<20 {
		for _, name := range files {
			data, err := os.ReadFile(name)
			if err != nil {
				b.Fatal(err)
			}
			mixed.Write(data)
		}
	}
	random := make([]byte, 64<<10)
	rng := rand.New(rand.NewPCG(26, 1))
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	texts := []struct{ name, text string }{
		{"mixed", mixed.String()},
		{"spaces", strings.Repeat(" ", 64<<10)},
		{"newlines", strings.Repeat("\n", 64<<10)},
		{"space_newline", strings.Repeat(" \n", 8<<10)},
		{"letters", strings.Repeat("a", 64<<10)},
		{"emoji", strings.Repeat("🙂", 16<<10)},
		{"random_bytes", string(random)},
	}
	for _, o := range oracles {
		c := o.codec()
		for _, text := range texts {
			b.Run(o.name+"/"+text.name, func(b *testing.B) {
				b.SetBytes(int64(len(text.text)))
				b.ReportAllocs()
				for b.Loop() {
					c.Count(text.text)
				}
			})
		}
	}
}
