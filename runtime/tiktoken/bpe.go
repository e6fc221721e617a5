package tiktoken

// noRank marks a part that does not merge with the next one.
const noRank = ^uint32(0)

// shortPiece is the length up to which a piece is merged as tiktoken
// merges it, by a scan of all its parts per merge: on so few parts that
// is faster than keeping a heap.
const shortPiece = 32

// mergeNode is a part of a long piece being merged, in a doubly linked
// list indexed by the byte offset where the part starts. rank is the rank
// of the part joined with the next one.
type mergeNode struct {
	prev, next int32
	rank       uint32
}

// merger merges pieces into tokens. It keeps its buffers from one piece
// to the next, so that counting allocates nothing once they have grown.
type merger struct {
	vocab *vocabulary
	ends  []int32 // where each token of the piece ends
	// a short piece's parts: where each starts, and the rank of each
	// joined with the next one
	starts [shortPiece + 1]int32
	ranks  [shortPiece + 1]uint32
	// a long piece's parts
	nodes []mergeNode
	heap  pairHeap
	// text read as valid UTF-8, when it is not
	valid []byte
}

// merge returns the offset in piece where each of its tokens ends, as
// tiktoken merges them: the pair of adjacent parts with the lowest rank
// first, the leftmost among equal ones, until no pair has a rank. Each
// byte is a token, so every part ends as one. The result is valid until
// the next call.
func (m *merger) merge(piece string) []int32 {
	m.ends = m.ends[:0]
	switch {
	case m.vocab.rank(piece) != noRank:
		m.ends = append(m.ends, int32(len(piece)))
	case len(piece) <= shortPiece:
		m.mergeShort(piece)
	default:
		m.mergeLong(piece)
	}
	return m.ends
}

// mergeShort merges a piece of at most shortPiece bytes by tiktoken's
// loop: a scan of the parts for the lowest rank per merge.
func (m *merger) mergeShort(piece string) {
	parts := len(piece)
	for i := range parts + 1 {
		m.starts[i] = int32(i)
	}
	for i := range parts - 1 {
		m.ranks[i] = m.vocab.rank(piece[i : i+2])
	}
	for parts > 1 {
		best, at := noRank, -1
		for i, r := range m.ranks[:parts-1] {
			if r < best {
				best, at = r, i
			}
		}
		if at < 0 {
			break
		}
		// Part at absorbs part at+1.
		copy(m.starts[at+1:parts], m.starts[at+2:parts+1])
		copy(m.ranks[at+1:], m.ranks[at+2:]) // what moves past parts-2 is unused
		parts--
		if at+1 < parts {
			m.ranks[at] = m.vocab.rank(piece[m.starts[at]:m.starts[at+2]])
		}
		if at > 0 {
			m.ranks[at-1] = m.vocab.rank(piece[m.starts[at-1]:m.starts[at+1]])
		}
	}
	m.ends = append(m.ends, m.starts[1:parts+1]...)
}

// mergeLong merges a long piece with a heap of the pairs that can merge:
// tiktoken looks for the pair to merge by a scan of all parts per merge;
// the heap finds it in O(log n), so a piece of n bytes costs O(n log n).
func (m *merger) mergeLong(piece string) {
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
		m.ends = append(m.ends, i)
	}
}

// rank sets and returns the rank of the part at i joined with the next
// one.
func (m *merger) rank(piece string, i int32) uint32 {
	node := &m.nodes[i]
	node.rank = noRank
	if j := node.next; j >= 0 {
		if k := m.nodes[j].next; k >= 0 {
			node.rank = m.vocab.rank(piece[i:k])
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
