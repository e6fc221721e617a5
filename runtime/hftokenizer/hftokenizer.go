// Package hftokenizer counts tokens as a Hugging Face tokenizer.json of
// the byte-level BPE kind does (Llama 3, Qwen 2, 2.5 and 3, GPT-4o's),
// so that sections can be budgeted in the tokens of the model a chat
// template formats for:
//
//	tok, err := hftokenizer.LoadFile("tokenizer.json")
//	...
//	prompt := prompts.Think.WithTokenizer(tok)
//
// A Tokenizer is a runtime.Tokenizer. It gives the ids Hugging Face's
// tokenizers give for the text (encode without the special tokens a
// post-processor adds around it), made in the same steps: the added
// tokens, the NFC normalizer, the pre-tokenizer's split (runtime/tiktoken's
// scanners: the expressions of Llama 3, Qwen 2 and GPT-4o are those of
// cl100k_base and o200k_base, or differ only in taking one digit at a
// time; "'ſ" is a contraction, as Unicode case folding makes it in Rust's
// expressions), the byte-level alphabet and the merges in their order of
// priority. A file with any other normalizer, pre-tokenizer expression
// or model option is an error at Load, never a different count.
//
// A special token spelled in the text (a feed value holding
// "<|im_start|>") is ordinary text, as with Hugging Face's
// split_special_tokens, unless MatchSpecialTokens is given; the added
// tokens that are not special (Qwen's "<tool_call>") are always tokens
// of their own, as there. Invalid UTF-8 is read as a []rune conversion
// reads it, each invalid byte as U+FFFD (Hugging Face's tokenizers take
// valid text only; Rust's from_utf8_lossy and JavaScript's TextDecoder
// replace a truncated sequence by one U+FFFD, not one per byte).
//
// Merging a piece of n bytes takes O(n log n) time up to two tokens long
// and O(n) past that (runtime/internal/longpiece), so counting is linear
// in the text whatever it holds; loading reads at most MaxFileSize bytes.
package hftokenizer

import (
	"math/bits"
	"slices"
	"strings"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/internal/bytepairs"
	"github.com/promptgen/promptgen/runtime/internal/longpiece"
	"github.com/promptgen/promptgen/runtime/internal/lossy"
	"github.com/promptgen/promptgen/runtime/internal/minheap"
	"github.com/promptgen/promptgen/runtime/internal/reuse"
	"golang.org/x/text/unicode/norm"
)

// Option changes how a Tokenizer reads text.
type Option func(*options)

type options struct{ matchSpecial bool }

// MatchSpecialTokens makes a special token spelled in the text count as
// the one token it is, as Hugging Face's tokenizers encode by default
// (the text of a whole chat, rendered with its role markers).
func MatchSpecialTokens() Option { return func(o *options) { o.matchSpecial = true } }

var _ runtime.Tokenizer = (*Tokenizer)(nil)

// Tokenizer is a tokenizer.json's byte-level BPE. It is safe for
// concurrent use.
type Tokenizer struct {
	model *model
	added *addedTokens // nil when no added token is found in text
	// A call takes a state, whose buffers it reuses.
	states reuse.Pool[state]
}

// keptBytes is the length of the longest piece or normalized text whose
// buffers the idle state keeps.
const keptBytes = 1 << 16

// keptSearch is the size of the search's buffers that the idle state
// keeps, about 9 bytes a token and 1 bit a byte: those of 1 MB of one
// letter.
const keptSearch = 2 << 20

func (t *Tokenizer) state() *state { return t.states.Get() }

func (t *Tokenizer) release(s *state) {
	t.states.Put(s, max(cap(s.valid), cap(s.normal), cap(s.ids)) <= keptBytes && s.search.Size() <= keptSearch)
}

// model is the BPE of a tokenizer.json and what comes before it.
type model struct {
	nfc   bool
	split func(text string, i int) int
	// vocab maps the bytes of each token to its id; byteIDs is the id of
	// each byte on its own
	vocab   tokenTable
	byteIDs [256]uint32
	// partIDs is the id of each byte as a starting part of a piece:
	// byteIDs, but the marker's is replacementID in marked text
	partIDs [256]uint32
	// merges maps two tokens' ids to the rank of their merge (its line)
	// above the id of the token they make
	merges     pairTable
	mergeCount int // the number of merges: the ranks are below it
	// bytePairs holds the merge of each pair of starting parts (partIDs),
	// first above second, the pairs a short piece starts with: 56 KB for
	// Qwen 3, whose merges holds them scattered in 8 MB
	bytePairs bytepairs.Table[uint64]
	// replacementPart: a piece starts U+FFFD as one part, of id
	// replacementID (replacementMergesFirst); then the text is read
	// marked (lossy.Marked: each U+FFFD the one byte lossy.Marker), the
	// tables hold the tokens so, and every starting part is one byte
	replacementPart bool
	replacementID   uint32
	// the tokens that hold U+FFFD (marked), and the merges of which a
	// side does: random bytes read as valid UTF-8 are mostly U+FFFD, and most of
	// their lookups are of strings and pairs that hold it, and are no
	// token, each a cache miss in the full tables
	replacementVocab  tokenTable
	replacementMerges pairTable
	// in marked text, the pairs of bytes that some token holds, one
	// after the other: no merge joins a pair not in it (countMarked)
	pairsInTokens bytepairs.Set
	// in marked text, the number of parts a run of markers of each
	// length up to shortPiece merges into (mergeParts)
	markerRuns [shortPiece + 1]uint8
	// ignoreMerges: a piece that is a token is that token, whatever the
	// merges would make of it
	ignoreMerges bool
	// whole holds 2 bits per id, learnt as pieces are merged: whether a
	// piece that is the token merges into it (most do, so that a word
	// that is a token is found by one lookup), or not, or is not known yet
	whole []atomic.Uint32
}

const (
	wholeKnown  = 1 << iota // the token's bytes have been merged
	wholeMerges             // ... into the token
)

// wholeBits returns the 2 bits of whole of id, and which word and shift
// hold them.
func (m *model) wholeBits(id uint32) (bits uint32, word *atomic.Uint32, shift uint) {
	word, shift = &m.whole[id/16], uint(id%16*2)
	return word.Load() >> shift & 3, word, shift
}

// state holds the buffers of a call, kept for the next.
type state struct {
	valid   []byte    // text read (model.read)
	normal  []byte    // a piece of text in NFC
	changes []segment // how normal maps back to the text
	iter    norm.Iter
	nfc     nfcBuffers
	small   [1 << 6]smallForm
	// the parts of a piece being merged: the id of each, the next and
	// previous part, and the pair it makes with the next one
	ids        []uint32
	next, prev []int32
	pairs      []uint64
	queue      pairQueue
	short      shortParts
	// a piece longer than two tokens, and the search that merges it
	long   searchedPiece
	search longpiece.Search
	count  int // the tokens counted (tokens with yield nil)
}

// segment is a span of text that NFC normalizes on its own, and where it
// ends in the text and in its normal form.
type segment struct {
	textEnd, normalEnd int
	same               bool // its normal form is itself
}

func newTokenizer(m *model, added *addedTokens) *Tokenizer {
	t := &Tokenizer{model: m, added: added}
	t.states.SetNew(func() *state { return new(state) })
	return t
}

// Count returns the number of tokens of text.
func (t *Tokenizer) Count(text string) int {
	s := t.state()
	defer t.release(s)
	s.count = 0
	t.tokens(s, t.model.read(s, text), false, nil)
	return s.count
}

// Encode returns the ids of the tokens of text.
func (t *Tokenizer) Encode(text string) []int {
	s := t.state()
	defer t.release(s)
	var ids []int
	t.tokens(s, t.model.read(s, text), false, func(id uint32, _ int) bool {
		ids = append(ids, int(id))
		return true
	})
	return ids
}

// Cut returns the longest prefix of text that holds at most n tokens and
// ends where a token ends and a character of text does: a token can end
// inside a multi-byte character, or inside one that NFC changes.
func (t *Tokenizer) Cut(text string, n int) string {
	if n <= 0 {
		return ""
	}
	s := t.state()
	defer t.release(s)
	read := t.model.read(s, text)
	// The tokens end in read: walk text alongside to find where.
	cut, inText, inRead, count := 0, 0, 0, 0
	t.tokens(s, read, true, func(_ uint32, end int) bool {
		if end >= 0 {
			for inRead < end {
				r, size := utf8.DecodeRuneInString(text[inText:])
				inText += size
				if r == utf8.RuneError && t.model.replacementPart {
					inRead++ // the marker
				} else {
					inRead += utf8.RuneLen(r)
				}
			}
			if inRead == end {
				cut = inText
			}
		}
		count++
		return count < n
	})
	return text[:cut]
}

// read returns text as the model reads it, in s.valid if it differs:
// marked if pieces start U+FFFD as one part, else valid UTF-8.
func (m *model) read(s *state, text string) string {
	if m.replacementPart {
		return lossy.Marked(&s.valid, text)
	}
	return lossy.Valid(&s.valid, text)
}

// tokens calls yield with the id of each token of text, which is read
// (model.read), and, if ends, the offset in text where it ends, or -1
// where that is inside a character NFC changed (without ends, end is
// meaningless after such a character), until yield returns false. It
// returns false when yield did. With yield nil and not ends, it adds the
// number of tokens to s.count instead.
func (t *Tokenizer) tokens(s *state, text string, ends bool, yield func(id uint32, end int) bool) bool {
	for start := 0; start < len(text); {
		addedStart, addedEnd, id := len(text), len(text), uint32(0)
		if t.added != nil {
			addedStart, addedEnd, id = t.added.next(text, start)
		}
		if !t.model.normalized(s, text[start:addedStart], start, ends, yield) {
			return false
		}
		switch {
		case addedStart == len(text):
		case yield == nil:
			s.count++
		case !yield(id, addedEnd):
			return false
		}
		start = addedEnd
	}
	return true
}

// normalized yields the tokens of text, a span between added tokens that
// starts at offset base, normalized if the model does, and, if ends,
// where each ends in the text; with yield nil, it counts them (tokens).
func (m *model) normalized(s *state, text string, base int, ends bool, yield func(uint32, int) bool) bool {
	quick := 0
	if m.nfc {
		quick = norm.NFC.QuickSpanString(text)
	}
	if !m.nfc || quick == len(text) {
		return m.pieces(s, text, base, yield)
	}
	s.normalize(text, quick)
	normal := unsafe.String(unsafe.SliceData(s.normal), len(s.normal))
	if !ends {
		return m.pieces(s, normal, base, yield)
	}
	k := 0
	return m.pieces(s, normal, 0, func(id uint32, end int) bool {
		for s.changes[k].normalEnd < end {
			k++
		}
		switch seg := s.changes[k]; {
		case seg.normalEnd == end:
			end = base + seg.textEnd
		case seg.same:
			end = base + seg.textEnd - (seg.normalEnd - end)
		default:
			end = -1
		}
		return yield(id, end)
	})
}

// normalize sets s.normal to text in NFC, and s.changes to its segments;
// text[:quick] is NFC at a glance (norm's QuickSpan). Only the spans
// where it is not are normalized (normalizeSpan), each from the boundary
// QuickSpan returns, where norm's Append starts to normalize too. Random
// bytes, mostly NFC at a glance, are so copied, not iterated.
func (s *state) normalize(text string, quick int) {
	s.normal, s.changes = s.normal[:0], s.changes[:0]
	for quick < len(text) {
		s.addSame(text, quick)
		quick = quickSpan(text, s.normalizeSpan(text, quick))
	}
	s.addSame(text, len(text))
}

// inert marks the bytes that quickSpan passes over as runes of their own:
// ASCII and the marker, one table read, where random bytes, at random
// either, mispredicted a test of which.
var inert = func() (t [256]bool) {
	for b := range utf8.RuneSelf {
		t[b] = true
	}
	t[lossy.Marker] = true
	return t
}()

// inertTwo marks the runes of two bytes that quickSpan passes over as it
// does ASCII: in NFC alone, of combining class 0 and combining with no
// rune before them (norm's BoundaryBefore), as Latin letters with their
// accents composed; random bytes hold one such rune in about 40 bytes,
// which QuickSpan took a call to pass.
var inertTwo = func() (t [0x800]bool) {
	for r := rune(0x80); r < 0x800; r++ {
		s := string(r)
		p := norm.NFC.PropertiesString(s)
		t[r] = p.CCC() == 0 && p.BoundaryBefore() && norm.NFC.IsNormalString(s)
	}
	return t
}()

// quickSpan returns where text stops being NFC at a glance from i, a
// boundary, as QuickSpan does. It passes over ASCII and U+FFFD itself,
// the marker in marked text (QuickSpan looks each U+FFFD up, and norm
// reads the marker, invalid UTF-8, as a starter that composes with
// nothing): neither combines with a rune before it, and both have
// combining class 0, which blocks all after them from any starter
// before, so text normalizes piecewise before each. QuickSpan reads each
// run of other runes from the rune before it.
func quickSpan(text string, i int) int {
	for {
		start, before := i, i // before: where the last rune passed over starts
	scan:
		for start < len(text) {
			c := text[start]
			switch {
			case inert[c]:
				before, start = start, start+1
			case c&0xe0 == 0xc0 && start+1 < len(text) && inertTwo[rune(c&0x1f)<<6|rune(text[start+1]&0x3f)]:
				before, start = start, start+2
			case strings.HasPrefix(text[start:], lossy.ReplacementChar):
				before, start = start, start+len(lossy.ReplacementChar)
			default:
				break scan
			}
		}
		if start == len(text) {
			return start
		}
		end := start + 1
		for end < len(text) && !inert[text[end]] && !strings.HasPrefix(text[end:], lossy.ReplacementChar) {
			end++
		}
		if quick := before + norm.NFC.QuickSpanString(text[before:end]); quick < end {
			return quick
		}
		i = end
	}
}

// addSame adds text from the end of the last segment to end, which NFC
// leaves as it is, as one segment, if it is not empty.
func (s *state) addSame(text string, end int) {
	start := 0
	if len(s.changes) > 0 {
		start = s.changes[len(s.changes)-1].textEnd
	}
	if start == end {
		return
	}
	s.normal = append(s.normal, text[start:end]...)
	s.changes = append(s.changes, segment{textEnd: end, normalEnd: len(s.normal), same: true})
}

// normalizeSpan adds text from from on in NFC, segment by segment, up to
// two ASCII bytes in a row or the end of text, and returns where it
// stopped. An ASCII byte has combining class 0, combines with nothing
// before it and blocks all after it from any starter before it, so text
// normalizes piecewise before it; the byte after it is ASCII too, so that
// QuickSpan is not called again at every letter that a mark follows.
// Between ASCII bytes, a rune of two bytes after one (a letter and its
// accent) is normalized by addSmall, the rest by norm's iterator.
func (s *state) normalizeSpan(text string, from int) int {
	it := &s.iter
	base := -1 // where the iterator started, or -1 when it is behind
	long := -1 // where a run of more than 30 non-starters starts, while in one
	at := from
	for at < len(text) {
		if at > from && at+1 < len(text) && text[at] < utf8.RuneSelf && text[at+1] < utf8.RuneSelf {
			break
		}
		if long < 0 && s.addSmall(text, at) {
			at += smallSegment
			base = -1
			continue
		}
		if base < 0 {
			it.InitString(norm.NFC, text[at:])
			base = at
		}
		start := at
		out := it.Next()
		at = base + it.Pos()
		if string(out[:min(len(out), len(graphemeJoiner))]) == graphemeJoiner && !strings.HasPrefix(text[start:], graphemeJoiner) {
			// The iterator cut the run where it inserted U+034F: the run
			// starts with the segment before, and is normalized whole.
			if long < 0 {
				long = s.undoSegment()
			}
			continue
		}
		if long >= 0 {
			s.addExact(text, long, start)
			long = -1
		}
		if combinesBackward(text[start:at]) {
			s.addExact(text, start, at)
			continue
		}
		s.normal = append(s.normal, out...)
		s.changes = append(s.changes, segment{textEnd: at, normalEnd: len(s.normal), same: string(out) == text[start:at]})
	}
	if long >= 0 {
		s.addExact(text, long, at)
	}
	return at
}

// smallSegment is the length of the text addSmall normalizes: an ASCII
// byte and a rune of two bytes.
const smallSegment = 3

// smallForm is the NFC form of a small segment, kept in state.small.
type smallForm struct {
	key  uint32 // the segment's bytes, above a bit that marks it set
	n    uint8
	form [7]byte
}

// addSmall adds text[at:at+3] in NFC as one segment if it is an ASCII
// byte and a rune of two bytes before an ASCII byte or the end of text
// (bounds of NFC), and reports whether it is: from s.small, a cache of
// the forms of such segments, or by appendExactNFC, whose form it keeps
// there. Text in NFD, such as e and U+0301, is so normalized by a lookup
// per letter.
func (s *state) addSmall(text string, at int) bool {
	if at+smallSegment > len(text) || text[at] >= utf8.RuneSelf || text[at+1] < 0xc2 || text[at+1] > 0xdf ||
		at+smallSegment < len(text) && text[at+smallSegment] >= utf8.RuneSelf {
		return false
	}
	key := 1<<24 | uint32(text[at])<<16 | uint32(text[at+1])<<8 | uint32(text[at+2])
	small, start := &s.small[key*0x9e3779b1>>(32-6)], len(s.normal)
	if small.key == key {
		s.normal = append(s.normal, small.form[:small.n]...)
	} else {
		s.normal = appendExactNFC(s.normal, text[at:at+smallSegment], &s.nfc)
		if form := s.normal[start:]; len(form) <= len(small.form) {
			small.key, small.n = key, uint8(copy(small.form[:], form))
		}
	}
	s.changes = append(s.changes, segment{textEnd: at + smallSegment, normalEnd: len(s.normal), same: string(s.normal[start:]) == text[at:at+smallSegment]})
	return true
}

// undoSegment takes the last segment out of s.normal and s.changes, and
// returns where it starts in the text.
func (s *state) undoSegment() int {
	s.changes = s.changes[:len(s.changes)-1]
	if len(s.changes) == 0 {
		s.normal = s.normal[:0]
		return 0
	}
	last := s.changes[len(s.changes)-1]
	s.normal = s.normal[:last.normalEnd]
	return last.textEnd
}

// addExact adds text[from:to], a segment that golang.org/x/text's NFC
// gets wrong, in NFC (appendExactNFC) as one segment.
func (s *state) addExact(text string, from, to int) {
	s.normal = appendExactNFC(s.normal, text[from:to], &s.nfc)
	s.changes = append(s.changes, segment{textEnd: to, normalEnd: len(s.normal)})
}

// pieces yields the tokens of text, which starts at offset base: the
// pre-tokenizer's pieces, each merged; with yield nil, it counts them
// (merge).
func (m *model) pieces(s *state, text string, base int, yield func(uint32, int) bool) bool {
	for start := 0; start < len(text); {
		end := m.split(text, start)
		if !m.merge(s, text[start:end], base+start, yield) {
			return false
		}
		start = end
	}
	return true
}

// noPair marks parts that do not merge.
const noPair = ^uint64(0)

// merge yields the tokens of a piece that starts at offset base, as
// Hugging Face's BPE makes them (mergePiece), or, with yield nil, adds
// their number to s.count: random bytes make 2.7 times the tokens per
// byte of ordinary text, and Count so takes no call per token.
func (m *model) merge(s *state, piece string, base int, yield func(uint32, int) bool) bool {
	n := len(piece)
	if n > 2*m.vocab.longest {
		s.long = searchedPiece{m: m, s: s, piece: piece}
		ends, ids := s.search.Tokens(&s.long, n)
		if yield == nil {
			s.count += len(ids)
			return true
		}
		for k, id := range ids {
			if !yield(id, base+int(ends[k])) {
				return false
			}
		}
		return true
	}
	if yield == nil && m.replacementPart && n > 2 && hasMarker(headOf(piece)) {
		s.count += m.countMarked(s, piece)
		return true
	}
	id, tokens := m.mergePiece(s, piece)
	switch {
	case yield == nil:
		s.count += tokens
		return true
	case tokens == 1:
		return yield(id, base+n)
	case tokens == n:
		for i := range n {
			if !yield(m.partIDs[piece[i]], base+i+1) {
				return false
			}
		}
		return true
	}
	for i := int32(0); int(i) < n; i = s.next[i] {
		if !yield(s.ids[i], base+int(s.next[i])) {
			return false
		}
	}
	return true
}

// mergePiece merges a piece of at most two tokens' length as Hugging
// Face's BPE does: each byte a part, then, while two adjacent parts have
// a merge, the merge that comes first in the file joins them, the
// leftmost pair of it first (a pairQueue gives each in O(log n)). A
// piece that is a token the merges make is that token. It returns the
// number of tokens, and the token if one; when they are more than one
// and fewer than the bytes (each its starting part), the parts are in s.
func (m *model) mergePiece(s *state, piece string) (id uint32, tokens int) {
	n := len(piece)
	switch {
	case n == 1:
		return m.partIDs[piece[0]], 1
	case n == 2:
		// One read of the merge of the pair: in random bytes about a
		// piece in four is two parts. Two parts that do not merge may
		// still be a token the merges do not make (ignoreMerges).
		if pair := m.bytePairs.Get(int(piece[0])<<8 | int(piece[1])); pair != noPair {
			return uint32(pair), 1
		} else if !m.ignoreMerges {
			return 0, 2
		}
	}
	id, isToken := m.token(piece)
	bits, word, shift := uint32(0), (*atomic.Uint32)(nil), uint(0)
	if isToken {
		bits, word, shift = m.wholeBits(id)
		if m.ignoreMerges || bits&wholeMerges != 0 {
			return id, 1
		}
	}
	tokens = m.mergeParts(s, piece)
	if isToken && bits&wholeKnown == 0 {
		bits = wholeKnown
		if tokens == 1 && s.ids[0] == id {
			bits |= wholeMerges
		}
		word.Or(bits << shift)
	}
	return s.ids[0], tokens
}

// countMarked returns the number of tokens of a piece of marked text
// that holds the marker, of at most two tokens' length, by segments: no
// token holds U+FFFD beside most bytes, and where a pair of bytes is in
// no token (pairsInTokens) no merge joins them, so the piece's tokens are
// those of the segments between such pairs, each merged alone. Then the
// piece is no token, and the whole-piece rules are not in play. In random
// bytes the pieces of 3 bytes and more that hold U+FFFD, a quarter of the
// time of counting them, are mostly segments of one byte, two, or a run
// of U+FFFD, counted without a merge. A piece of one segment is merged as
// it is (mergePiece).
func (m *model) countMarked(s *state, piece string) int {
	count, start, others := 0, 0, piece[0]^lossy.Marker
	for i := 1; i < len(piece); i++ {
		if !m.pairsInTokens.Has(int(piece[i-1])<<8 | int(piece[i])) {
			count += m.countSegment(s, piece[start:i], others == 0)
			start, others = i, 0
		}
		others |= piece[i] ^ lossy.Marker
	}
	if start == 0 {
		_, tokens := m.mergePiece(s, piece)
		return tokens
	}
	return count + m.countSegment(s, piece[start:], others == 0)
}

// countSegment returns the number of parts a segment of a piece merges
// into, markers whether it is a run of the marker.
func (m *model) countSegment(s *state, segment string, markers bool) int {
	n := len(segment)
	switch {
	case n == 1:
		return 1
	case n == 2:
		count := 1
		if m.bytePairs.Get(int(segment[0])<<8|int(segment[1])) == noPair {
			count = 2
		}
		return count
	case markers && n <= shortPiece:
		return int(m.markerRuns[n])
	}
	return m.mergeParts(s, segment)
}

// hasMarker reports whether one of the 8 bytes of head is the marker.
func hasMarker(head uint64) bool {
	const ones = 0x0101010101010101
	x := ^head // the marker is 0xFF
	return (x-ones)&^x&(ones<<7) != 0
}

// token returns the id of piece, if it is a token: from the tokens that
// hold U+FFFD if the piece is marked and holds the marker in its first
// 8 bytes (a head's padding is zeros, never the marker).
func (m *model) token(piece string) (uint32, bool) {
	head := headOf(piece)
	if m.replacementPart && hasMarker(head) {
		return m.replacementVocab.getHead(piece, head)
	}
	return m.vocab.getHead(piece, head)
}

// searchedPiece is a piece longer than two tokens that longpiece's search
// merges: Hugging Face's rule takes the pair whose merge comes first in
// the file, the leftmost among equal ones, which is an order of the two
// parts alone. Each token of the search is one the merges make (its pair
// checks), so the whole-piece rules (ignore_merges) are not in play.
type searchedPiece struct {
	m     *model
	s     *state
	piece string
}

func (p *searchedPiece) LongestAt(i int) int { return p.m.vocab.lengths.At(p.piece, i) }

func (p *searchedPiece) Token(i, j int) (uint32, bool) { return p.m.vocab.get(p.piece[i:j]) }

// PairHolds merges the pair alone in the state's parts, which the search
// does not use.
func (p *searchedPiece) PairHolds(i, j, k int) bool {
	p.m.mergeParts(p.s, p.piece[i:k])
	return p.s.next[0] == int32(j-i) && p.s.next[j-i] == int32(k-i)
}

// mergeParts merges the bytes of piece into parts, each byte one at the
// start (partIDs), and returns their number. The parts are indexed by the
// offset where they start; an offset inside a part is in no list.
func (m *model) mergeParts(s *state, piece string) int {
	n := len(piece)
	s.ids, s.next, s.prev, s.pairs = slices.Grow(s.ids[:0], n)[:n], slices.Grow(s.next[:0], n)[:n], slices.Grow(s.prev[:0], n)[:n], slices.Grow(s.pairs[:0], n)[:n]
	if n <= shortPiece {
		return m.mergeShort(s, piece)
	}
	s.queue.reset(n >= longPiece, m.mergeCount)
	ids, next, prev := s.ids[:n], s.next[:n], s.prev[:n]
	for i := range n {
		ids[i], next[i], prev[i] = m.partIDs[piece[i]], int32(i+1), int32(i-1)
	}
	for i := int32(0); int(i) < n; i = s.next[i] {
		s.pairs[i] = m.pair(s, i)
	}
	for parts := n; ; parts-- {
		top, ok := s.queue.pop()
		for ok && s.pairs[uint32(top)]>>32 != top>>32 {
			top, ok = s.queue.pop() // the parts changed since
		}
		if !ok {
			return parts
		}
		i := int32(uint32(top))
		j := s.next[i]
		s.ids[i] = uint32(s.pairs[i])
		s.next[i] = s.next[j]
		if int(s.next[j]) < n {
			s.prev[s.next[j]] = i
		}
		s.pairs[j] = noPair
		s.pairs[i] = m.pair(s, i)
		if p := s.prev[i]; p >= 0 {
			s.pairs[p] = m.pair(s, p)
		}
	}
}

// shortPiece is the length up to which a piece is merged as the
// specification says, by a scan of all its pairs per merge: on so few
// parts that is faster than a queue, and takes no branch per part.
const shortPiece = 32

// shortParts are the parts of a piece of at most shortPiece bytes, in
// arrays a state keeps: as a function's, they were cleared at each call.
type shortParts struct {
	starts [shortPiece + 1]int32
	ids    [shortPiece + 1]uint32
	pairs  [shortPiece + 1]uint64 // the merge of each part with the next
	held   [shortPiece + 1]bool   // the part holds U+FFFD (marked text)
}

// mergeShort is mergeParts for a piece of at most shortPiece bytes: it
// merges the parts in s.short, then lists them in s.
func (m *model) mergeShort(s *state, piece string) int {
	starts, ids, pairs, held := &s.short.starts, &s.short.ids, &s.short.pairs, &s.short.held
	parts := len(piece)
	for i := range parts {
		starts[i], ids[i], held[i] = int32(i), m.partIDs[piece[i]], piece[i] == lossy.Marker && m.replacementPart
		if i > 0 {
			pairs[i-1] = m.bytePairs.Get(int(piece[i-1])<<8 | int(piece[i]))
		}
	}
	starts[parts] = int32(len(piece))
	for parts > 1 {
		// The first merge in the file, the leftmost of it: the minimum of
		// each rank above its index, taken without a branch (the
		// compiler's min branches in a loop).
		best := noPair
		for k, p := range pairs[:parts-1] {
			p = p>>32<<32 | uint64(k)
			_, less := bits.Sub64(p, best, 0)
			best ^= (best ^ p) & -less
		}
		if best>>32 == noPair>>32 {
			break
		}
		at := int(uint32(best))
		ids[at], held[at] = uint32(pairs[at]), held[at] || held[at+1]
		for k := at + 1; k < parts; k++ {
			starts[k], ids[k], pairs[k], held[k] = starts[k+1], ids[k+1], pairs[k+1], held[k+1]
		}
		parts--
		if at+1 < parts {
			pairs[at] = m.pairOf(ids[at], ids[at+1], held[at] || held[at+1])
		}
		if at > 0 {
			pairs[at-1] = m.pairOf(ids[at-1], ids[at], held[at-1] || held[at])
		}
	}
	for k := range parts {
		s.ids[starts[k]], s.next[starts[k]] = ids[k], starts[k+1]
	}
	return parts
}

// pairOf returns the merge of the parts left and right, from the merges
// of tokens that hold U+FFFD when one of them does.
func (m *model) pairOf(left, right uint32, held bool) uint64 {
	if held {
		return m.replacementMerges.get(left, right)
	}
	return m.merges.get(left, right)
}

// pair returns the merge of the part at i with the next one, rank above
// id, or noPair, and pushes it on the heap.
func (m *model) pair(s *state, i int32) uint64 {
	j := s.next[i]
	if int(j) >= len(s.ids) {
		return noPair
	}
	p := m.merges.get(s.ids[i], s.ids[j])
	if p == noPair {
		return noPair
	}
	s.queue.push(p>>32<<32 | uint64(i))
	return p
}

// longPiece is the length from which a piece's pairs are queued in
// buckets by rank.
const longPiece = 64

// pairQueue gives the pairs that can merge in the order they merge, each
// its rank above its offset: the lowest rank first, the leftmost of it
// first. A short piece's pairs are in a binary heap. A long piece's pairs
// hold few ranks, each many times (a run of spaces, of one letter), so
// they go to a bucket per rank, a heap ordering the ranks: a bucket is
// sorted by offset when it was not filled in order, before its first pop.
// A merge mostly makes pairs that rank after it; one that ranks before
// could make a bucket need sorting again and again, and the pairs left go
// to the binary heap instead. Either way a piece of n bytes costs
// O(n log n).
type pairQueue struct {
	heap     []uint64 // when not bucketed
	bucketed bool
	popped   int64   // the rank of the last pop while bucketed, or -1
	bucketOf []int32 // for each rank, its bucket's index + 1, or 0
	buckets  []rankBucket
	ranks    []uint64 // each rank that has a bucket, above the bucket's index
	free     []int32  // the buckets not in use
}

type rankBucket struct {
	offsets []int32
	next    int // offsets[next:] are still to pop
	sorted  bool
}

// reset empties the queue for a piece, bucketed or not, with ranks below
// ranks.
func (q *pairQueue) reset(bucketed bool, ranks int) {
	q.heap, q.bucketed, q.popped = q.heap[:0], bucketed, -1
	if bucketed && len(q.bucketOf) < ranks {
		q.bucketOf = make([]int32, ranks)
	}
}

func (q *pairQueue) push(pair uint64) {
	if !q.bucketed {
		minheap.Push(&q.heap, pair)
		return
	}
	rank, offset := pair>>32, int32(uint32(pair))
	if int64(rank) <= q.popped {
		q.unbucket()
		minheap.Push(&q.heap, pair)
		return
	}
	index := q.bucketOf[rank] - 1
	if index < 0 {
		if len(q.free) > 0 {
			index = q.free[len(q.free)-1]
			q.free = q.free[:len(q.free)-1]
		} else {
			index = int32(len(q.buckets))
			q.buckets = append(q.buckets, rankBucket{})
		}
		q.buckets[index].sorted = true
		q.bucketOf[rank] = index + 1
		minheap.Push(&q.ranks, rank<<32|uint64(index))
	}
	b := &q.buckets[index]
	if len(b.offsets) > 0 && offset < b.offsets[len(b.offsets)-1] {
		b.sorted = false
	}
	b.offsets = append(b.offsets, offset)
}

// pop removes the pair to merge next and returns it, or ok false when the
// queue is empty.
func (q *pairQueue) pop() (pair uint64, ok bool) {
	if !q.bucketed {
		if len(q.heap) == 0 {
			return 0, false
		}
		return minheap.Pop(&q.heap), true
	}
	for len(q.ranks) > 0 {
		rank, index := q.ranks[0]>>32, int32(uint32(q.ranks[0]))
		b := &q.buckets[index]
		if b.next == len(b.offsets) {
			minheap.Pop(&q.ranks)
			q.release(rank, index)
			continue
		}
		if !b.sorted {
			slices.Sort(b.offsets[b.next:])
			b.sorted = true
		}
		q.popped = int64(rank)
		b.next++
		return rank<<32 | uint64(uint32(b.offsets[b.next-1])), true
	}
	return 0, false
}

// release frees the bucket of a rank.
func (q *pairQueue) release(rank uint64, index int32) {
	q.buckets[index] = rankBucket{offsets: q.buckets[index].offsets[:0]}
	q.bucketOf[rank] = 0
	q.free = append(q.free, index)
}

// unbucket moves the pairs left in the buckets to the heap.
func (q *pairQueue) unbucket() {
	for _, r := range q.ranks {
		rank, index := r>>32, int32(uint32(r))
		b := &q.buckets[index]
		for _, offset := range b.offsets[b.next:] {
			q.heap = append(q.heap, rank<<32|uint64(uint32(offset)))
		}
		q.release(rank, index)
	}
	q.ranks, q.bucketed = q.ranks[:0], false
	minheap.Init(q.heap)
}
