package longpiece

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// toyPiece is a piece merged by tiktoken's rule over a small random
// vocabulary whose ranks are in no order of the tokens' lengths, so that a
// merge often makes a pair that ranks before it.
type toyPiece struct {
	ranks   map[string]uint32
	longest int
	text    string
}

func (p *toyPiece) LongestAt(i int) int { return min(p.longest, len(p.text)-i) }

func (p *toyPiece) Token(i, j int) (uint32, bool) {
	rank, ok := p.ranks[p.text[i:j]]
	return rank, ok
}

func (p *toyPiece) PairHolds(i, j, k int) bool {
	return slices.Equal(p.mergeLoop(p.text[i:k]), []int32{int32(j - i), int32(k - i)})
}

// mergeLoop returns where each token of s ends, by the rule's definition:
// join the adjacent parts whose union ranks lowest, the leftmost among
// equal ones, while any union is a token.
func (p *toyPiece) mergeLoop(s string) []int32 {
	var ends []int32
	for i := range len(s) {
		ends = append(ends, int32(i+1))
	}
	for {
		best, at := ^uint32(0), -1
		for k := 0; k+1 < len(ends); k++ {
			start := int32(0)
			if k > 0 {
				start = ends[k-1]
			}
			if rank, ok := p.ranks[s[start:ends[k+1]]]; ok && rank < best {
				best, at = rank, k
			}
		}
		if at < 0 {
			return ends
		}
		ends = slices.Delete(ends, at, at+1)
	}
}

// TestTokensMatchesMergeLoop: on random texts over three letters and
// random vocabularies of them, the search finds the tokens of the rule's
// definition, on texts longer than a token. Some tokens are made by no
// merge (their bytes merge into others), which a first token may be.
func TestTokensMatchesMergeLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 6))
	random := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abc"[rng.IntN(3)]
		}
		return string(b)
	}
	var s Search
	for range 200 {
		p := &toyPiece{ranks: map[string]uint32{"a": 0, "b": 1, "c": 2}}
		used := map[uint32]bool{}
		for range 5 + rng.IntN(40) {
			token := random(2 + rng.IntN(5))
			if _, ok := p.ranks[token]; !ok {
				rank := uint32(3 + rng.IntN(1000))
				for used[rank] {
					rank++
				}
				used[rank], p.ranks[token] = true, rank // an id is one token
				p.longest = max(p.longest, len(token))
			}
		}
		s = Search{} // the cache holds the ids of one vocabulary
		for range 20 {
			p.text = random(p.longest + 1 + rng.IntN(200))
			ends, ids := s.Tokens(p, len(p.text))
			if want := p.mergeLoop(p.text); !slices.Equal(ends, want) {
				t.Fatalf("%v: %q\ngot  %v\nwant %v", p.ranks, p.text, ends, want)
			}
			for k, id := range ids {
				start := int32(0)
				if k > 0 {
					start = ends[k-1]
				}
				if id != p.ranks[p.text[start:ends[k]]] {
					t.Fatalf("%q: token %d is %q, id %d", p.text, k, p.text[start:ends[k]], id)
				}
			}
		}
	}
}
