// Package tiktoken counts tokens in OpenAI's encodings, for the token
// budgets of sectioned prompts, as tiktoken does: the same pieces, merged
// into the same tokens. Its pre-tokenizer splits text as the encoding's
// regular expression does, by a scanner that reads each rune a bounded
// number of times (split.go), and its byte-pair encoder merges a piece of
// n bytes in O(n log n) up to two tokens long (256 bytes) and in O(n)
// past that (bpe.go), so counting takes time linear in the text whatever
// it holds.
//
// The vocabularies are OpenAI's published files, embedded compactly
// (vocab.go; testdata/crosscheck writes them and checks the package
// against tiktoken's definition and against github.com/tiktoken-go/tokenizer,
// in a module of its own, so that this one does not require it), and
// the package imports no other library. Counting needs no download or
// cache. The vocabularies make a program larger by about 1.7 MB for
// o200k_base and 0.8 MB more for cl100k_base (linux/amd64), and only the
// encodings it calls are linked in; an encoding's table is built on first
// use. Text is encoded as ordinary text: a feed value that spells a
// special token such as "<|endoftext|>" counts as its characters. Invalid
// UTF-8 is read as a []rune conversion reads it, each invalid byte as
// U+FFFD.
package tiktoken

import (
	_ "embed"
	"sync"
	"unicode/utf8"

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/internal/lossy"
	"github.com/promptgen/promptgen/runtime/internal/reuse"
)

// encoding is a runtime.Tokenizer: a pre-tokenizer and a vocabulary.
type encoding struct {
	split splitter
	vocab *vocabulary
	// A call takes a merger, whose buffers it reuses.
	mergers reuse.Pool[merger]
}

// keptParts is the length of the longest text, or of the longest piece
// merged by rank (up to two tokens: longer ones are searched), whose
// buffers the idle merger keeps; keptSearch the bytes of the search's
// buffers it keeps, about 9 bytes a token and 1 bit a byte: those of a
// piece of 1 MB of one letter.
const (
	keptParts  = 1 << 16
	keptSearch = 2 << 20
)

func (e *encoding) merger() *merger { return e.mergers.Get() }

func (e *encoding) release(m *merger) {
	e.mergers.Put(m, cap(m.nodes) <= keptParts+1 && cap(m.marked) <= keptParts && m.search.Size() <= keptSearch)
}

func newEncoding(split splitter, file string) *encoding {
	e := &encoding{split: split, vocab: newVocabulary(file)}
	e.mergers.SetNew(func() *merger { return &merger{vocab: e.vocab} })
	return e
}

// The encodings are built on first use, which makes their tables. Each
// file is referred to from its function only, so that a program links in
// the vocabularies it uses, not both.
var o200k, cl100k struct {
	once sync.Once
	enc  *encoding
}

//go:embed o200k_base.tokens
var o200kFile string

//go:embed cl100k_base.tokens
var cl100kFile string

// O200kBase returns the o200k_base encoding (GPT-4o, GPT-4.1, GPT-5, o1,
// o3, o4-mini). The first call builds its tables (about 30 ms; they hold
// 9.3 MB); later calls return the same tokenizer, which is safe for
// concurrent use.
func O200kBase() runtime.Tokenizer {
	o200k.once.Do(func() { o200k.enc = newEncoding(splitO200k, o200kFile) })
	return o200k.enc
}

// Cl100kBase returns the cl100k_base encoding (GPT-4, GPT-3.5 Turbo,
// text-embedding-ada-002), built on first use like O200kBase (about 15
// ms; they hold 4.8 MB).
func Cl100kBase() runtime.Tokenizer {
	cl100k.once.Do(func() { cl100k.enc = newEncoding(splitCl100k, cl100kFile) })
	return cl100k.enc
}

// tokens calls yield with the byte offset in text, which is marked
// (lossy.Marked), where each token ends, until yield returns false.
func (e *encoding) tokens(text string, yield func(end int) bool) {
	m := e.merger()
	defer e.release(m)
	m.tokens(e.split, text, yield)
}

func (m *merger) tokens(split splitter, text string, yield func(end int) bool) {
	for start := 0; start < len(text); {
		end := split(text, start)
		for _, tokenEnd := range m.merge(text[start:], end-start) {
			if !yield(start + int(tokenEnd)) {
				return
			}
		}
		start = end
	}
}

// Count returns the number of tokens of text.
func (e *encoding) Count(text string) int {
	m := e.merger()
	defer e.release(m)
	return m.count(e.split, lossy.Marked(&m.marked, text))
}

// count returns the number of tokens of text, which is marked: the
// number of ends of each piece, without a call per token.
func (m *merger) count(split splitter, text string) int {
	n := 0
	for start := 0; start < len(text); {
		end := split(text, start)
		n += m.countPiece(text[start:], end-start)
		start = end
	}
	return n
}

// SplitsAt reports whether i is an offset of text where counts add up
// whatever surrounds text (runtime.SplittingTokenizer): after a line break
// that ends a line of text.
func (e *encoding) SplitsAt(text string, i int) bool { return splitsAt(text, i) }

// Cut returns the longest prefix of text that holds at most n tokens and
// ends on a token boundary that is also a character boundary: a token can
// end inside a multi-byte character, and a prefix never does. It encodes
// text up to the piece that holds the n-th token only.
func (e *encoding) Cut(text string, n int) string {
	if n <= 0 {
		return ""
	}
	m := e.merger()
	defer e.release(m)
	marked := lossy.Marked(&m.marked, text)
	// The tokens are pieces of marked: walk text alongside to find where
	// each token ends in it. U+FFFD, of an invalid byte or of text, is
	// one byte of marked.
	cut, inText, inMarked, count := 0, 0, 0, 0
	m.tokens(e.split, marked, func(end int) bool {
		for inMarked < end {
			r, size := utf8.DecodeRuneInString(text[inText:])
			inText += size
			if r == utf8.RuneError {
				size = 1
			}
			inMarked += size
		}
		if inMarked == end {
			cut = inText
		}
		count++
		return count < n
	})
	return text[:cut]
}
