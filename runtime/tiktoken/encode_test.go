package tiktoken

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/internal/lossy"
)

// ids encodes text, read as valid UTF-8 (marked), with the merger.
func (e *encoding) ids(text string) []uint32 {
	var buf []byte
	text = lossy.Marked(&buf, text)
	var ids []uint32
	start := 0
	e.tokens(text, func(end int) bool {
		ids = append(ids, e.vocab.rankAt(text, start, end))
		start = end
		return true
	})
	return ids
}

// fileVocabulary is the vocabulary read from the file into a map, not
// marked: the loop's ranks, independent of the tables.
type fileVocabulary struct {
	tokens []string // by rank
	ranks  map[string]uint32
}

var fileVocabularies sync.Map // *vocabulary to *fileVocabulary

func (e *encoding) file() *fileVocabulary {
	if f, ok := fileVocabularies.Load(e.vocab); ok {
		return f.(*fileVocabulary)
	}
	f := &fileVocabulary{ranks: map[string]uint32{}}
	for i := 0; i < len(e.vocab.file); i += 1 + int(e.vocab.file[i]) {
		token := e.vocab.file[i+1 : i+1+int(e.vocab.file[i])]
		f.ranks[token] = uint32(len(f.tokens))
		f.tokens = append(f.tokens, token)
	}
	fileVocabularies.Store(e.vocab, f)
	return f
}

// rank returns the rank of token in the file, or noRank.
func (f *fileVocabulary) rank(token string) uint32 {
	if r, ok := f.ranks[token]; ok {
		return r
	}
	return noRank
}

// unmarked returns marked text with each marker U+FFFD again.
func unmarked(text string) string {
	return strings.ReplaceAll(text, string([]byte{lossy.Marker}), lossy.ReplacementChar)
}

// loopIDs encodes text, read as valid UTF-8 (not marked), with the
// package's scanner and tiktoken's merge loop on bytes and the file's
// ranks: one scan of all parts per merge, for the pair of the lowest
// rank, the leftmost among equal ones.
func (e *encoding) loopIDs(text string) []uint32 {
	text = valid(text)
	var ids []uint32
	for start := 0; start < len(text); {
		end := e.split(text, start)
		ids = append(ids, e.mergeLoop(text[start:end])...)
		start = end
	}
	return ids
}

// mergeLoop returns the token ids of a piece, not marked, by tiktoken's
// merge loop.
func (e *encoding) mergeLoop(piece string) []uint32 {
	f := e.file()
	parts := make([]int, len(piece)+1) // the offsets where parts start
	for i := range parts {
		parts[i] = i
	}
	for {
		best, at := noRank, -1
		for i := 0; i+2 < len(parts); i++ {
			if r := f.rank(piece[parts[i]:parts[i+2]]); r < best {
				best, at = r, i
			}
		}
		if at < 0 {
			break
		}
		parts = slices.Delete(parts, at+1, at+2)
	}
	var ids []uint32
	for i := 0; i+1 < len(parts); i++ {
		ids = append(ids, f.rank(piece[parts[i]:parts[i+1]]))
	}
	return ids
}

// TestMergeMatchesLoop: the merger's tokens are those of tiktoken's merge
// loop on random texts of the reference's runes, in pieces short and long:
// runs of one rune, and words and runs of punctuation of random runes.
func TestMergeMatchesLoop(t *testing.T) {
	var all, letters, symbols []string
	for _, text := range LoadReference(t).Texts {
		for _, r := range text.Text {
			all = append(all, string(r))
			if unicode.IsLetter(r) {
				letters = append(letters, string(r))
			} else if unicode.IsPunct(r) || unicode.IsSymbol(r) {
				symbols = append(symbols, string(r))
			}
		}
	}
	rng := rand.New(rand.NewPCG(26, 2))
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(20) + 1 {
			switch runes := [][]string{all, letters, symbols}[rng.IntN(3)]; rng.IntN(2) {
			case 0:
				b.WriteString(strings.Repeat(runes[rng.IntN(len(runes))], 1+rng.IntN(3)*rng.IntN(30)))
			default:
				for range rng.IntN(60) {
					b.WriteString(runes[rng.IntN(len(runes))])
				}
			}
		}
		for _, v := range vocabularies {
			text := b.String()
			if got, want := v.enc().ids(text), v.enc().loopIDs(text); !slices.Equal(got, want) {
				t.Fatalf("%s: %q\ngot  %v\nwant %v", v.name, text, got, want)
			}
		}
	}
}

// TestMergeByHeap: the heap that takes over from the rank queue when a
// merge makes a pair that ranks below it (which no text of the tests
// does) merges as tiktoken's loop, from the start of long pieces.
func TestMergeByHeap(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 4))
	for _, v := range vocabularies {
		e := v.enc()
		m := &merger{vocab: e.vocab}
		for _, ref := range LoadReference(t).Texts {
			var buf []byte
			text := lossy.Marked(&buf, ref.Text)
			for start := 0; start < len(text); {
				end := min(start+33+rng.IntN(200), len(text))
				piece := text[start:end]
				m.ends = m.ends[:0]
				m.parts(piece, len(piece))
				m.mergeByHeap(piece)
				m.appendEnds()
				var got []uint32
				last := int32(0)
				for _, end := range m.ends {
					got = append(got, e.vocab.rankAt(piece, int(last), int(end)))
					last = end
				}
				if want := e.mergeLoop(unmarked(piece)); !slices.Equal(got, want) {
					t.Fatalf("%s: %q\ngot  %v\nwant %v", v.name, piece, got, want)
				}
				start = end
			}
		}
	}
}

// Hostile holds texts on which a backtracking pre-tokenizer or a
// byte-pair encoder that scans all parts per merge takes quadratic time,
// each made of a unit repeated: a run of spaces and line breaks is one
// piece that a backtracking engine reads once per line break, and a long
// word, number or run of symbols is one piece of many merges.
var Hostile = []struct{ Name, Unit string }{
	{"space_newline", " \n"},
	{"mixed_whitespace", " \t\u00a0\u3000\r\n"},
	{"spaces", " "},
	{"letters", "a"},
	{"capitals_marks", "A\u0301"},
	{"digits", "7"},
	{"punctuation", "!?"},
	{"cjk", "语"},
	{"emoji", "🙂"},
	{"invalid_utf8", "\xff"},
	{"mixed", "a \n\t9!语🙂\xe2\x82"},
}

// searched returns the token ends of piece, longer than two tokens, by
// longpiece's search, and queued by mergeLong, the queue and heap that
// merged long pieces before (held to tiktoken's loop by
// TestMergeMatchesLoop and TestMergeByHeap).
func (m *merger) searchedAndQueued(piece string) (searched, queued []int32) {
	searched = slices.Clone(m.merge(piece, len(piece)))
	m.ends = m.ends[:0]
	m.mergeLong(piece, len(piece))
	return searched, m.ends
}

// longerPieces returns byte strings longer than over bytes (two tokens),
// each a piece that longpiece's search merges, marked: runs of one unit
// (the hostile ones, runes of the reference, short random strings, with
// U+FFFD among their bytes), random strings over a few bytes, which make
// its search back up often, random bytes, and the reference texts whole,
// repeated.
func longerPieces(t *testing.T, rng *rand.Rand, over int) []string {
	var units, pieces []string
	for _, h := range Hostile {
		units = append(units, h.Unit)
	}
	var buf []byte
	repeat := func(unit string, n int) string {
		unit = lossy.Marked(&buf, unit)
		return strings.Repeat(unit, n/len(unit)+1)
	}
	for _, text := range LoadReference(t).Texts {
		pieces = append(pieces, repeat(text.Text, over))
		for _, r := range text.Text {
			if !slices.Contains(units, string(r)) {
				units = append(units, string(r))
			}
		}
	}
	randomString := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 100 {
		units = append(units, randomString("ab \n=9\xff", 1+rng.IntN(5)))
	}
	for _, unit := range units {
		pieces = append(pieces, repeat(unit, over+rng.IntN(1000)))
	}
	for range 100 {
		pieces = append(pieces, randomString("a \n", over+1+rng.IntN(2000)), randomString("aab ", over+1+rng.IntN(2000)))
		bytes := make([]byte, over+1+rng.IntN(2000))
		for i := range bytes {
			bytes[i] = byte(rng.Uint32())
		}
		pieces = append(pieces, string(bytes))
	}
	return pieces
}

// TestSearchMatchesQueue: longpiece's search for the sequence of tokens
// whose pairs check finds the tokens that merging by rank finds.
func TestSearchMatchesQueue(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 5))
	for _, v := range vocabularies {
		m := &merger{vocab: v.enc().vocab}
		for _, piece := range longerPieces(t, rng, 2*m.vocab.longest) {
			if got, want := m.searchedAndQueued(piece); !slices.Equal(got, want) {
				t.Fatalf("%s: %q\ngot  %v\nwant %v", v.name, piece, got, want)
			}
		}
	}
}

// FuzzMergeLonger holds longpiece's search to mergeLong on a fuzzed unit
// repeated past two tokens, and on the input itself when it is that long.
func FuzzMergeLonger(f *testing.F) {
	for _, h := range Hostile {
		f.Add(h.Unit)
	}
	f.Fuzz(func(t *testing.T, unit string) {
		if unit == "" {
			return
		}
		for _, v := range vocabularies {
			m := &merger{vocab: v.enc().vocab}
			over := 2 * m.vocab.longest
			for _, piece := range []string{strings.Repeat(unit, over/len(unit)+1), unit} {
				if len(piece) <= over || len(piece) > 1<<16 {
					continue
				}
				if got, want := m.searchedAndQueued(piece); !slices.Equal(got, want) {
					t.Fatalf("%s: %q\ngot  %v\nwant %v", v.name, piece, got, want)
				}
			}
		}
	})
}

// TestRankQueue: the queue pops the pair of the lowest rank, the
// leftmost among equal ones, whatever the order of the pushes, and serves
// again once empty.
func TestRankQueue(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 3))
	q := rankQueue{bucketOf: make([]int32, 50)}
	for round := range 200 {
		var pending []uint64 // pair(rank, offset) of each push not popped
		for step := 0; step < 300 || len(pending) > 0; step++ {
			if step < 300 && (rng.IntN(3) > 0 || len(pending) == 0) {
				rank, offset := uint32(rng.IntN(50)), int32(rng.IntN(1000))
				q.push(rank, offset)
				pending = append(pending, pair(rank, offset))
				continue
			}
			want := slices.Min(pending)
			if rank, offset, ok := q.pop(); !ok || pair(rank, offset) != want {
				t.Fatalf("round %d: pop = %d, %d, %v; want %d, %d", round, rank, offset, ok, want>>32, uint32(want))
			}
			i := slices.Index(pending, want)
			pending = slices.Delete(pending, i, i+1)
		}
		if rank, offset, ok := q.pop(); ok {
			t.Fatalf("round %d: pop = %d, %d from an empty queue", round, rank, offset)
		}
	}
}

// TestClassify: the class of every rune is the set of the expressions'
// classes it is in, by their definitions.
func TestClassify(t *testing.T) {
	bits := []struct {
		class
		in func(r rune) bool
	}{
		{upper, func(r rune) bool { return unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M) }},
		{lower, func(r rune) bool { return unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M) }},
		{letter, unicode.IsLetter},
		{number, unicode.IsNumber},
		{space, unicode.IsSpace},
		{newline, func(r rune) bool { return r == '\r' || r == '\n' }},
		{symbol, func(r rune) bool { return !unicode.IsSpace(r) && !unicode.IsLetter(r) && !unicode.IsNumber(r) }},
	}
	for r := range rune(unicode.MaxRune + 1) {
		var want class
		for _, b := range bits {
			if b.in(r) {
				want |= b.class
			}
		}
		if got := classify(r); got != want {
			t.Fatalf("%U: class %07b, want %07b", r, got, want)
		}
	}
}

// valid returns text with each invalid byte replaced by U+FFFD, by a
// []rune conversion, not marked.
func valid(text string) string { return string([]rune(text)) }

// IDs returns the token ids of text in tok, one of the package's
// encodings.
func IDs(tok runtime.Tokenizer, text string) []uint32 { return tok.(*encoding).ids(text) }

// vocabularies are the encodings with the SHA-256 of the file OpenAI
// publishes for each (https://openaipublic.blob.core.windows.net/encodings/),
// which tiktoken checks when it downloads it, and its number of tokens.
var vocabularies = []struct {
	name, sha256 string
	enc          func() *encoding
	tokens       int
}{
	{"o200k_base", "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d", func() *encoding { return O200kBase().(*encoding) }, 199998},
	{"cl100k_base", "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7", func() *encoding { return Cl100kBase().(*encoding) }, 100256},
}

// TestVocabularyIsOpenAIs: the embedded file, written back in the format
// of OpenAI's (each token in base64, a space, its rank and a line break),
// is that file byte for byte; the tables find every token, marked, at its
// rank but the byte 0xFF, which they leave out (the marker stands for
// U+FFFD in them), and the strings one byte longer or shorter or with the
// last byte changed, and strings of U+FFFD and random bytes, at theirs or
// nowhere.
func TestVocabularyIsOpenAIs(t *testing.T) {
	for _, v := range vocabularies {
		e := v.enc()
		var tokens []string
		for i := 0; i < len(e.vocab.file); i += 1 + int(e.vocab.file[i]) {
			tokens = append(tokens, e.vocab.file[i+1:i+1+int(e.vocab.file[i])])
		}
		var published bytes.Buffer
		ranks := make(map[string]uint32, len(tokens))
		for rank, token := range tokens {
			fmt.Fprintf(&published, "%s %d\n", base64.StdEncoding.EncodeToString([]byte(token)), rank)
			ranks[token] = uint32(rank)
		}
		if sum := sha256.Sum256(published.Bytes()); hex.EncodeToString(sum[:]) != v.sha256 {
			t.Errorf("%s: the file's SHA-256 is %x, want OpenAI's %s", v.name, sum, v.sha256)
		}
		if len(tokens) != v.tokens || len(ranks) != v.tokens || e.vocab.size != v.tokens {
			t.Errorf("%s: %d tokens (%d distinct, %d in the table), want %d", v.name, len(tokens), len(ranks), e.vocab.size, v.tokens)
		}
		var left []string
		for _, token := range tokens {
			if _, ok := marked(token); !ok {
				left = append(left, token)
				continue
			}
			changed := token[:len(token)-1] + string([]byte{token[len(token)-1] ^ 1})
			for _, s := range []string{token, token + "\x00", token + "e", " " + token, token[1:], token[:len(token)-1], changed} {
				m, ok := marked(s)
				if !ok {
					continue
				}
				want, ok := ranks[s]
				if !ok {
					want = noRank
				}
				if got := e.vocab.rankAt(m, 0, len(m)); got != want {
					t.Fatalf("%s: %q has rank %d in the table, want %d", v.name, s, got, want)
				}
			}
		}
		if !slices.Equal(left, []string{"\xff"}) {
			t.Errorf("%s: the tables leave out %q, want the byte 0xFF alone", v.name, left)
		}
		// U+FFFD with bytes around, and random mixes, marked, looked up
		// at random offsets in marked text.
		rng := rand.New(rand.NewPCG(26, 6))
		marker := string([]byte{lossy.Marker})
		for range 200_000 {
			var b strings.Builder
			for n := 1 + rng.IntN(8); n > 0; n-- {
				if c := byte(rng.Uint32()); rng.IntN(2) == 0 || c == lossy.Marker {
					b.WriteString(marker)
				} else {
					b.WriteByte(c)
				}
			}
			s, before := b.String(), rng.IntN(3)
			text := strings.Repeat(marker, before) + s + strings.Repeat(marker, rng.IntN(3))
			want, ok := ranks[unmarked(s)]
			if !ok {
				want = noRank
			}
			if got := e.vocab.rankAt(text, before, before+len(s)); got != want {
				t.Fatalf("%s: %q has rank %d in the table, want %d", v.name, unmarked(s), got, want)
			}
		}
	}
}

// FuzzEncode holds the merger to tiktoken's loop, and Count and Cut to
// the token ends (the tests of
// testdata/crosscheck compare those with tiktoken's definition and with
// tiktoken-go): Count is their number, on text read as valid UTF-8, and
// Cut ends at the last of the first n that is between runes.
func FuzzEncode(f *testing.F) {
	for _, text := range LoadReference(f).Texts {
		f.Add(text.Text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, v := range vocabularies {
			e := v.enc()
			ids := e.ids(text)
			if want := e.loopIDs(text); !slices.Equal(ids, want) {
				t.Fatalf("%s: %q\ngot  %v\nwant %v", v.name, text, ids, want)
			}
			if n := e.Count(text); n != len(ids) {
				t.Fatalf("%s: %q: Count = %d, want %d", v.name, text, n, len(ids))
			}
			if !utf8.ValidString(text) {
				continue
			}
			var ends []int // of the loop's tokens in text
			end := 0
			for _, id := range e.loopIDs(text) {
				end += len(e.file().tokens[id])
				ends = append(ends, end)
			}
			for _, n := range []int{0, 1, len(ends) / 3, len(ends) / 2, len(ends) - 1, len(ends), len(ends) + 1} {
				want := 0 // the last end up to the n-th that is between runes
				for _, end := range ends[:min(max(n, 0), len(ends))] {
					if end == len(text) || utf8.RuneStart(text[end]) {
						want = end
					}
				}
				if cut := e.Cut(text, n); cut != text[:want] {
					t.Fatalf("%s: %q: Cut(text, %d) = %q, want %q", v.name, text, n, cut, text[:want])
				}
			}
		}
	})
}

// Reference is testdata/reference.json, which testdata/reference.mjs
// writes with js-tiktoken: for each text and encoding, the token ids and
// the byte offset where each token ends.
type Reference struct {
	Texts []struct {
		Name, Text string
		Encodings  map[string]struct {
			IDs  []uint32 `json:"ids"`
			Ends []int    `json:"ends"`
		}
	}
}

// LoadReference reads testdata/reference.json.
func LoadReference(t testing.TB) Reference {
	t.Helper()
	data, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref Reference
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Texts) == 0 {
		t.Fatal("no reference texts")
	}
	return ref
}

// TestCutStopsEarly: Cut splits no piece past the one that holds the n-th
// token, so that cutting a long text to a few tokens costs those tokens
// only. The encodings are wrapped with a splitter that records where each
// piece it is asked for starts.
func TestCutStopsEarly(t *testing.T) {
	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 200) + strings.Repeat(" \n", 5000)
	for _, v := range vocabularies {
		e := v.enc()
		ends := []int{}
		e.tokens(text, func(end int) bool {
			ends = append(ends, end)
			return true
		})
		furthest := 0
		recording := &encoding{split: func(text string, i int) int {
			furthest = max(furthest, i)
			return e.split(text, i)
		}, vocab: e.vocab}
		recording.mergers.SetNew(func() *merger { return &merger{vocab: e.vocab} })
		for _, n := range []int{1, 2, 10, 500} {
			furthest = 0
			if got, want := recording.Cut(text, n), text[:ends[n-1]]; got != want {
				t.Fatalf("%s: Cut(text, %d) is %d bytes, want %d", v.name, n, len(got), len(want))
			}
			if furthest >= ends[n-1] {
				t.Errorf("%s: Cut(text, %d) split a piece at byte %d, past the %d-th token's end at %d", v.name, n, furthest, n, ends[n-1])
			}
		}
	}
}

// TestReplacementCharMergesFirst: in each vocabulary, U+FFFD's bytes
// merge into it before any token that holds some of them and a byte
// around them (one that ends in a proper prefix of U+FFFD or starts with
// a proper suffix), so that the merger may start it as one part.
func TestReplacementCharMergesFirst(t *testing.T) {
	for _, v := range vocabularies {
		e := v.enc()
		// The rank of the last merge inside U+FFFD, by the cheaper of the
		// two ways to its first pair.
		f := e.file()
		first := min(f.rank(lossy.ReplacementChar[:2]), f.rank(lossy.ReplacementChar[1:]))
		inside := max(first, f.rank(lossy.ReplacementChar))
		if inside == noRank {
			t.Fatalf("%s: U+FFFD is not a token merged from its bytes", v.name)
		}
		crossing, lowest := noRank, ""
		for i, rank := 0, uint32(0); i < len(e.vocab.file); i, rank = i+1+int(e.vocab.file[i]), rank+1 {
			token := e.vocab.file[i+1 : i+1+int(e.vocab.file[i])]
			for k := 1; k < len(lossy.ReplacementChar); k++ {
				enters := len(token) > k && strings.HasSuffix(token, lossy.ReplacementChar[:k])
				leaves := len(token) > k && strings.HasPrefix(token, lossy.ReplacementChar[len(lossy.ReplacementChar)-k:])
				if (enters || leaves) && rank < crossing {
					crossing, lowest = rank, token
				}
			}
		}
		if crossing <= inside {
			t.Errorf("%s: %q (rank %d) crosses U+FFFD's bytes before they merge (rank %d)", v.name, lowest, crossing, inside)
		}
		t.Logf("%s: U+FFFD merges by rank %d, the first token crossing it is %q at %d", v.name, inside, lowest, crossing)
	}
}

// TestInvalidUTF8MatchesLoop: the merger, which starts each U+FFFD as one
// part, finds the tokens of tiktoken's loop, which starts each byte as
// one, on random bytes and on U+FFFD among the bytes and runes that
// merge with it, and Count counts them.
func TestInvalidUTF8MatchesLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 6))
	units := []string{lossy.ReplacementChar, "\xef", "\xbf", "\xbd", "\xef\xbf", "\xbf\xbd", " ", "a", "!", "?", ".", "€", "\n", "é", "🙂", "\x80"}
	for range 3000 {
		b := make([]byte, 1+rng.IntN(400))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		var mixed strings.Builder
		for range 1 + rng.IntN(200) {
			mixed.WriteString(units[rng.IntN(len(units))])
		}
		for _, text := range []string{string(b), mixed.String()} {
			for _, v := range vocabularies {
				want := v.enc().loopIDs(text)
				if got := v.enc().ids(text); !slices.Equal(got, want) {
					t.Fatalf("%s: %q\ngot  %v\nwant %v", v.name, text, got, want)
				}
				if got := v.enc().Count(text); got != len(want) {
					t.Fatalf("%s: %q: Count = %d, want %d", v.name, text, got, len(want))
				}
			}
		}
	}
}

// TestCountPiece: countPiece, which counts a piece of up to three bytes
// that holds U+FFFD without merging it, counts every piece of one byte or
// two (each byte and U+FFFD, marked, alone and in pairs, with text after
// it), and of three with U+FFFD among them, as tiktoken's loop does, and
// longer pieces as merge does.
func TestCountPiece(t *testing.T) {
	var parts []string // the marker is U+FFFD
	for b := range 256 {
		parts = append(parts, string([]byte{byte(b)}))
	}
	marker := string([]byte{lossy.Marker})
	for _, v := range vocabularies {
		e := v.enc()
		m := e.merger()
		check := func(piece string) {
			want := len(e.mergeLoop(unmarked(piece)))
			if got := m.countPiece(piece+"after", len(piece)); got != want {
				t.Fatalf("%s: countPiece(%q) = %d, want %d", v.name, unmarked(piece), got, want)
			}
		}
		for _, a := range parts {
			check(a)
			for _, b := range parts {
				check(a + b)
				check(marker + a + b)
				check(a + marker + b)
				check(a + b + marker)
			}
		}
		for _, piece := range []string{"abc", "hello", marker + "abc", "a" + marker + "bc"} {
			check(piece)
		}
		e.release(m)
	}
}

// TestCountMarked: countPiece counts pieces of 4 bytes and more that hold
// U+FFFD or that it follows, which it counts by segments (countMarked),
// as tiktoken's loop does: of U+FFFD among bytes that tokens hold beside
// it and bytes that none does, and runs of it of every length up to past
// two tokens between such bytes.
func TestCountMarked(t *testing.T) {
	marker := string([]byte{lossy.Marker})
	units := []string{marker, marker, marker, " ", "?", "&", "\n", "s", "t", "!", "\x01", "a", "€", "é", ")"}
	rng := rand.New(rand.NewPCG(26, 3))
	for _, v := range vocabularies {
		e := v.enc()
		m := e.merger()
		check := func(piece string) {
			want := len(e.mergeLoop(unmarked(piece)))
			// text after the piece, which countPiece may read: U+FFFD
			// there takes a piece without it to countMarked too
			for _, after := range []string{"after", marker + "after"} {
				if got := m.countPiece(piece+after, len(piece)); got != want {
					t.Fatalf("%s: countPiece(%q) = %d, want %d", v.name, unmarked(piece), got, want)
				}
			}
		}
		for k := range 20000 {
			pieceUnits := []string{marker}
			if k%4 == 0 {
				pieceUnits[0] = units[rng.IntN(len(units))]
			}
			for range 3 + rng.IntN(12) {
				pieceUnits = append(pieceUnits, units[rng.IntN(len(units))])
			}
			rng.Shuffle(len(pieceUnits), func(i, j int) { pieceUnits[i], pieceUnits[j] = pieceUnits[j], pieceUnits[i] })
			check(strings.Join(pieceUnits, ""))
		}
		// runs merged by markerRuns, by mergeShort, by mergeLong and
		// searched
		long := 2 * e.vocab.longest
		lengths := []int{long - 1, long, long + 1, long + 9}
		for n := 1; n <= shortPiece+2; n++ {
			lengths = append(lengths, n)
		}
		for _, n := range lengths {
			run := strings.Repeat(marker, n)
			for _, around := range []string{"!", "\x01", " ", "?"} {
				check(run + around + marker)
				check(around + run + around)
			}
		}
		e.release(m)
	}
}
