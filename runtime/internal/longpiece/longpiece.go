// Package longpiece merges a piece of text longer than two tokens into
// its byte-pair tokens in time linear in its length, by a search for the
// one sequence of tokens that spells it and whose adjacent pairs each
// merge alone into themselves (the backtracking encoder of GitHub's `bpe`
// crate). It serves every merge rule in which the next merge is the pair
// of adjacent parts that comes first by an order of the two parts alone,
// the leftmost among equal ones: tiktoken's (by the rank of their union)
// and Hugging Face's (by the line of their merge). Two facts make the
// search exact under such a rule:
//
//   - The tokens of a text are such a sequence. Merging the text, the
//     merges inside two adjacent tokens t1 t2 happen in the order they
//     happen in t1+t2 alone: each is the first pair of the whole text, so
//     of t1+t2 too. Had t1+t2 alone merged across the boundary, that
//     pair would have come first in the text at the same point, and the
//     text would have merged across it too.
//   - Such a sequence is the tokens of its text, by the same argument: a
//     first merge across a boundary of the text would be one of t1+t2
//     alone. So the sequence is unique, and its prefix up to one of its
//     boundaries is the sequence of that prefix of the text.
//
// The search takes at each offset the longest token whose pair with the
// token before checks, and at a dead end backs up to the token before and
// tries it shorter. An offset it backs up from behind two tokens or more
// is no boundary (the tokens before it, whose pairs check, were the
// prefix's, which are unique), so it is marked and not entered again:
// each offset is tried once per token length at most, and about once on
// runs of one character. A check merges the two tokens
// alone, a short text; the answers are cached by the two ids.
package longpiece

import "slices"

// Piece is what the search asks of a tokenizer about the piece it merges.
type Piece interface {
	// LongestAt returns the length of the longest token that can start at
	// offset i, at least 1 (each byte is a token) and at most to the
	// piece's end.
	LongestAt(i int) int
	// Token returns the id of the bytes from i to j, or ok false if they
	// are no token.
	Token(i, j int) (id uint32, ok bool)
	// PairHolds reports whether the bytes from i to k, merged alone, are
	// the tokens from i to j and from j to k.
	PairHolds(i, j, k int) bool
}

// Search holds the buffers of the search, kept from one piece to the
// next. The zero value is ready to use with pieces of one tokenizer (the
// cache of checked pairs holds its ids).
type Search struct {
	ends  []int32  // where each token of the piece found so far ends
	ids   []uint32 // the id of each
	dead  []uint64 // the offsets known to be no boundary, one bit each
	pairs *[cacheSize]cachedPair
}

const cacheBits = 12
const cacheSize = 1 << cacheBits

// cachedPair is the answer for a pair of token ids, key being the two
// ids + 1 so that the zero value is empty.
type cachedPair struct {
	key   uint64
	holds bool
}

// Tokens returns where each token of the piece p of n bytes ends, and the
// id of each; the slices are valid until the next call. The piece must be
// longer than any token: its tokens are then two or more, each checked in
// a pair.
func (s *Search) Tokens(p Piece, n int) (ends []int32, ids []uint32) {
	s.ends, s.ids = s.ends[:0], s.ids[:0]
	words := (n + 63) / 64
	s.dead = slices.Grow(s.dead[:0], words)[:words]
	clear(s.dead)
	if s.pairs == nil {
		s.pairs = new([cacheSize]cachedPair)
	}
	start, length := 0, p.LongestAt(0)
	for start < n {
		if end, id := s.next(p, n, start, length); end > 0 {
			s.ends, s.ids = append(s.ends, int32(end)), append(s.ids, id)
			start = end
			if start < n {
				length = p.LongestAt(start)
			}
			continue
		}
		// No token fits from start. Behind two tokens or more, whose pairs
		// checked, are the prefix's tokens, so start is no boundary; one
		// token alone is unchecked (it may be one that no merge makes).
		// Try the token before it shorter.
		last := len(s.ends) - 1
		if last > 0 {
			s.dead[start/64] |= 1 << (start % 64)
		}
		before := 0
		if last > 0 {
			before = int(s.ends[last-1])
		}
		s.ends, s.ids = s.ends[:last], s.ids[:last]
		start, length = before, start-before-1
	}
	return s.ends, s.ids
}

// next returns where the longest token of the piece of n bytes that
// starts at start, is at most length long, ends at no dead offset and
// pairs with the token before it ends, and its id; end is 0 if none does.
func (s *Search) next(p Piece, n, start, length int) (end int, id uint32) {
	before, last := 0, len(s.ends)-1
	if last > 0 {
		before = int(s.ends[last-1])
	}
	for ; length > 0; length-- {
		end := start + length
		if end < n && s.dead[end/64]&(1<<(end%64)) != 0 {
			continue
		}
		id, ok := p.Token(start, end)
		if !ok {
			continue
		}
		if last < 0 || s.holds(p, s.ids[last], id, before, start, end) {
			return end, id
		}
	}
	return 0, 0
}

// holds reports whether the tokens from i to j (id1) and from j to k
// (id2) pair, from the cache or by asking p.
func (s *Search) holds(p Piece, id1, id2 uint32, i, j, k int) bool {
	key := (uint64(id1)<<32 | uint64(id2)) + 1
	c := &s.pairs[key*0x9e3779b97f4a7c15>>(64-cacheBits)]
	if c.key != key {
		c.key, c.holds = key, p.PairHolds(i, j, k)
	}
	return c.holds
}

// Size returns the bytes the search's buffers hold, for a caller that
// decides whether to keep them.
func (s *Search) Size() int { return 4*cap(s.ends) + 4*cap(s.ids) + 8*cap(s.dead) }

// Lengths bounds the length of the tokens that start at an offset of a
// text by the text's next 4 bytes: the longest token that starts with 4
// bytes of the same hash, at least 3 (shorter tokens are looked up
// whatever their start). On runs of a character whose tokens are short,
// where the first two bytes start long tokens too, it saves most lookups
// of lengths that are no token.
type Lengths struct {
	longest []uint32
}

const lengthBits = 17

// Add records a token.
func (l *Lengths) Add(token string) {
	if l.longest == nil {
		l.longest = make([]uint32, 1<<lengthBits)
	}
	if len(token) >= 4 {
		slot := &l.longest[lengthSlot(token)]
		*slot = max(*slot, uint32(len(token)))
	}
}

// At returns the length of the longest token that s[i:] can start with,
// at least 1 and at most len(s)-i.
func (l *Lengths) At(s string, i int) int {
	if len(s)-i < 4 {
		return len(s) - i
	}
	return min(max(int(l.longest[lengthSlot(s[i:])]), 3), len(s)-i)
}

func lengthSlot(s string) uint32 {
	head := uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
	return head * 0x9e3779b1 >> (32 - lengthBits)
}
