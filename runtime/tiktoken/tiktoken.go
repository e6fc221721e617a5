// Package tiktoken counts tokens in OpenAI's encodings, for the token
// budgets of sectioned prompts: it adapts github.com/tiktoken-go/tokenizer
// (a pure Go port of tiktoken, MIT licensed, the only library it imports) to
// runtime.Tokenizer. The vocabularies are compiled in, so counting needs no
// download or cache; they make a program larger by about 7.4 MB for
// o200k_base and 2.5 MB more for cl100k_base (linux/amd64), and only the
// encodings it calls are linked in. Text is encoded as ordinary text: a
// feed value that spells a special token such as "<|endoftext|>" counts as
// its characters.
package tiktoken

import (
	"sync"
	"unicode/utf8"

	"github.com/promptgen/promptgen/runtime"
	"github.com/tiktoken-go/tokenizer/codec"
)

// encoding is a runtime.Tokenizer over one codec. A codec is safe for
// concurrent use as long as its error mode is not changed.
type encoding struct{ codec *codec.Codec }

// The codecs are built on first use, which fills their vocabulary maps.
// Each is referred to from its function only, so that a program links in
// the vocabularies it uses, not both.
var o200k, cl100k struct {
	once sync.Once
	enc  encoding
}

// O200kBase returns the o200k_base encoding (GPT-4o, GPT-4.1, GPT-5, o1,
// o3, o4-mini). The first call builds it (tens of milliseconds); later
// calls return the same tokenizer, which is safe for concurrent use.
func O200kBase() runtime.Tokenizer {
	o200k.once.Do(func() { o200k.enc = encoding{codec.NewO200kBase()} })
	return o200k.enc
}

// Cl100kBase returns the cl100k_base encoding (GPT-4, GPT-3.5 Turbo,
// text-embedding-ada-002), built on first use like O200kBase.
func Cl100kBase() runtime.Tokenizer {
	cl100k.once.Do(func() { cl100k.enc = encoding{codec.NewCl100kBase()} })
	return cl100k.enc
}

// Count returns the number of tokens of text.
func (e encoding) Count(text string) int {
	n, _ := e.codec.Count(text) // it fails only on a regexp timeout, and sets none
	return n
}

// Cut returns the longest prefix of text that holds at most n tokens and
// ends on a token boundary that is also a character boundary: a token can
// end inside a multi-byte character, and a prefix never does.
func (e encoding) Cut(text string, n int) string {
	if n <= 0 {
		return ""
	}
	_, tokens, _ := e.codec.Encode(text) // see Count
	if n >= len(tokens) {
		return text
	}
	// The tokens are pieces of text's characters, each invalid byte of
	// text read as U+FFFD (three bytes), as a []rune conversion does: walk
	// text alongside to find where each token ends in it.
	cut, inText, inTokens, end := 0, 0, 0, 0
	for _, t := range tokens[:n] {
		end += len(t)
		for inTokens < end && inText < len(text) {
			r, size := utf8.DecodeRuneInString(text[inText:])
			inText += size
			inTokens += utf8.RuneLen(r)
		}
		if inTokens == end {
			cut = inText
		}
	}
	return text[:cut]
}
