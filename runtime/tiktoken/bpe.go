package tiktoken

import (
	"strings"

	"github.com/tiktoken-go/tokenizer/codec"
)

// ranks maps each token of an encoding to its rank, which is also its id:
// byte-pair encoding merges the pair whose union has the lowest rank first.
type ranks map[string]uint32

// loadRanks reads the tokens of ids below firstSpecial (the lowest id of
// a special token) from the dependency's vocabulary, the only part of it
// that is used: an id without a token is skipped. The tokens share one
// string, so that the table is one allocation besides the map.
func loadRanks(c *codec.Codec, firstSpecial uint) ranks {
	var all strings.Builder
	ends := make([]int, firstSpecial)
	for id := range firstSpecial {
		if token, err := c.Decode([]uint{id}); err == nil {
			all.WriteString(token)
		}
		ends[id] = all.Len()
	}
	text := all.String()
	r := make(ranks, firstSpecial)
	start := 0
	for id, end := range ends {
		if end > start {
			r[text[start:end]] = uint32(id)
		}
		start = end
	}
	return r
}

// noRank marks a part that does not merge with the next one.
const noRank = ^uint32(0)

// mergeNode is a part of a piece being merged, in a doubly linked list
// indexed by the byte offset where the part starts. rank is the rank of
// the part joined with the next one.
type mergeNode struct {
	prev, next int32
	rank       uint32
}

// merger merges pieces into tokens. It keeps its buffers from one piece
// to the next, so a text costs a few allocations.
type merger struct {
	ranks ranks
	nodes []mergeNode
	heap  pairHeap
}

// merge calls yield with the end of each token of the piece text[start:end]
// as tiktoken merges them: the pair of adjacent parts with the
// lowest rank first, the leftmost among equal ones, until no pair has a
// rank. tiktoken looks for that pair by a scan of all parts per merge;
// a heap of the pairs finds it in O(log n), so a piece of n bytes costs
// O(n log n). Each byte is a token, so every part ends as one. yield
// returns false to stop.
func (m *merger) merge(text string, start, end int, yield func(end int) bool) bool {
	piece := text[start:end]
	if _, ok := m.ranks[piece]; ok {
		return yield(end)
	}
	n := int32(len(piece))
	m.nodes = m.nodes[:0]
	for i := range n + 1 {
		m.nodes = append(m.nodes, mergeNode{prev: i - 1, next: i + 1, rank: noRank})
	}
	m.nodes[n].next = -1
	m.heap = m.heap[:0]
	for i := range n - 1 {
		if rank := m.rank(piece, i); rank != noRank {
			m.heap = append(m.heap, pair(rank, i))
		}
	}
	m.heap.init()
	for len(m.heap) > 0 {
		rank, i := m.heap.pop()
		if m.nodes[i].rank != rank {
			continue // stale: the part changed since the pair was pushed
		}
		j := m.nodes[i].next
		k := m.nodes[j].next
		m.nodes[j].rank = noRank
		m.nodes[i].next = k
		if k >= 0 {
			m.nodes[k].prev = i
		}
		for _, b := range [2]int32{i, m.nodes[i].prev} {
			if b < 0 {
				continue
			}
			if rank := m.rank(piece, b); rank != noRank {
				m.heap.push(pair(rank, b))
			}
		}
	}
	for i := m.nodes[0].next; i >= 0; i = m.nodes[i].next {
		if !yield(start + int(i)) {
			return false
		}
	}
	return true
}

// rank sets and returns the rank of the part at i joined with the next
// one.
func (m *merger) rank(piece string, i int32) uint32 {
	node := &m.nodes[i]
	node.rank = noRank
	if j := node.next; j >= 0 {
		if k := m.nodes[j].next; k >= 0 {
			if r, ok := m.ranks[piece[i:k]]; ok {
				node.rank = r
			}
		}
	}
	return node.rank
}

// pairHeap is a binary min-heap of the pairs that can merge, each the rank
// of its union above the offset of its first part, so that the top is the
// pair tiktoken merges next: the lowest rank, the leftmost among equal
// ones. It is typed, unlike container/heap, so that a push does not
// allocate.
type pairHeap []uint64

func pair(rank uint32, offset int32) uint64 { return uint64(rank)<<32 | uint64(offset) }

func (h pairHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *pairHeap) push(p uint64) {
	*h = append(*h, p)
	s := *h
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if s[parent] <= s[i] {
			break
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

// pop removes the top pair and returns its rank and offset.
func (h *pairHeap) pop() (rank uint32, offset int32) {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	*h = s[:last]
	h.down(0)
	return uint32(top >> 32), int32(uint32(top))
}

func (h pairHeap) down(i int) {
	for {
		child := 2*i + 1
		if child >= len(h) {
			return
		}
		if right := child + 1; right < len(h) && h[right] < h[child] {
			child = right
		}
		if h[i] <= h[child] {
			return
		}
		h[i], h[child] = h[child], h[i]
		i = child
	}
}
