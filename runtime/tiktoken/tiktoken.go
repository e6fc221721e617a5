// Package tiktoken counts tokens in OpenAI's encodings, for the token
// budgets of sectioned prompts, as tiktoken does: the same pieces, merged
// into the same tokens. Its pre-tokenizer splits text as the encoding's
// regular expression does, by a scanner that reads each rune a bounded
// number of times (split.go), and its byte-pair encoder merges a piece of
// n bytes in O(n log n) (bpe.go), so counting takes O(n log n) time in the
// text whatever it holds.
//
// The vocabularies come from github.com/tiktoken-go/tokenizer (MIT
// licensed, the only library the package imports), whose own encoder is
// not used: the Go code generated for its expressions rescans a run of
// spaces and line breaks once per line break (quadratic time), cuts such a
// run at its first line break where tiktoken cuts at the last (more
// tokens), and drops U+007F. The vocabularies are compiled in, so counting
// needs no download or cache; they make a program larger by about 7.4 MB
// for o200k_base and 2.5 MB more for cl100k_base (linux/amd64), and only
// the encodings it calls are linked in. Text is encoded as ordinary text:
// a feed value that spells a special token such as "<|endoftext|>" counts
// as its characters. Invalid UTF-8 is read as tiktoken-go reads it, each
// invalid byte as U+FFFD.
package tiktoken

import (
	"sync"
	"unicode/utf8"

	"github.com/promptgen/promptgen/runtime"
	"github.com/tiktoken-go/tokenizer/codec"
)

// encoding is a runtime.Tokenizer: a pre-tokenizer and a vocabulary.
type encoding struct {
	split   splitter
	ranks   ranks
	mergers sync.Pool // of *merger, whose buffers a call reuses
}

func newEncoding(split splitter, ranks ranks) *encoding {
	e := &encoding{split: split, ranks: ranks}
	e.mergers.New = func() any { return &merger{ranks: ranks} }
	return e
}

// The encodings are built on first use, which fills their vocabulary
// maps. Each is referred to from its function only, so that a program
// links in the vocabularies it uses, not both.
var o200k, cl100k struct {
	once sync.Once
	enc  *encoding
}

// O200kBase returns the o200k_base encoding (GPT-4o, GPT-4.1, GPT-5, o1,
// o3, o4-mini). The first call builds it (about 0.1 s; it holds about 14
// MB); later calls return the same tokenizer, which is safe for concurrent
// use.
func O200kBase() runtime.Tokenizer {
	o200k.once.Do(func() {
		const endOfText = 199999 // the lowest special token
		o200k.enc = newEncoding(splitO200k, loadRanks(codec.NewO200kBase(), endOfText))
	})
	return o200k.enc
}

// Cl100kBase returns the cl100k_base encoding (GPT-4, GPT-3.5 Turbo,
// text-embedding-ada-002), built on first use like O200kBase.
func Cl100kBase() runtime.Tokenizer {
	cl100k.once.Do(func() {
		const endOfText = 100257 // the lowest special token
		cl100k.enc = newEncoding(splitCl100k, loadRanks(codec.NewCl100kBase(), endOfText))
	})
	return cl100k.enc
}

// tokens calls yield with the byte offset in text, which is valid UTF-8,
// where each token ends, until yield returns false.
func (e *encoding) tokens(text string, yield func(end int) bool) {
	m := e.mergers.Get().(*merger)
	defer e.mergers.Put(m)
	for start := 0; start < len(text); {
		end := e.split(text, start)
		if !m.merge(text, start, end, yield) {
			return
		}
		start = end
	}
}

// valid returns text with each invalid byte replaced by U+FFFD, as a
// []rune conversion does.
func valid(text string) string {
	if utf8.ValidString(text) {
		return text
	}
	return string([]rune(text))
}

// Count returns the number of tokens of text.
func (e *encoding) Count(text string) int {
	n := 0
	e.tokens(valid(text), func(int) bool {
		n++
		return true
	})
	return n
}

// Cut returns the longest prefix of text that holds at most n tokens and
// ends on a token boundary that is also a character boundary: a token can
// end inside a multi-byte character, and a prefix never does.
func (e *encoding) Cut(text string, n int) string {
	if n <= 0 {
		return ""
	}
	// The tokens are pieces of valid(text): walk text alongside to find
	// where each token ends in it.
	cut, inText, inValid, count := 0, 0, 0, 0
	e.tokens(valid(text), func(end int) bool {
		for inValid < end {
			r, size := utf8.DecodeRuneInString(text[inText:])
			inText += size
			inValid += utf8.RuneLen(r)
		}
		if inValid == end {
			cut = inText
		}
		count++
		return count < n
	})
	return text[:cut]
}
