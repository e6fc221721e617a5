package tiktoken

import (
	"math/bits"
	"slices"

	"github.com/promptgen/promptgen/runtime/internal/longpiece"
	"github.com/promptgen/promptgen/runtime/internal/lossy"
	"github.com/promptgen/promptgen/runtime/internal/minheap"
)

// noRank marks a part that does not merge with the next one.
const noRank = ^uint32(0)

// shortPiece is the length up to which a piece is merged as tiktoken
// merges it, by a scan of all its parts per merge: on so few parts that
// is faster than keeping a queue.
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
	// a long piece's parts, and its pairs that can merge
	nodes []mergeNode
	queue rankQueue
	heap  pairHeap
	// text marked (lossy.Marked), when it is not as it is
	marked []byte
	// a piece longer than two tokens, the search that merges it, and the
	// merger that checks its pairs of tokens
	long     searchedPiece
	search   longpiece.Search
	checking *merger
}

// merge returns the offset in the piece text[:n] where each of its tokens
// ends (text goes on after it, for wider loads), as
// tiktoken merges them: the pair of adjacent parts with the lowest rank
// first, the leftmost among equal ones, until no pair has a rank. Each
// byte is a token, so every part ends as one. The result is valid until
// the next call.
func (m *merger) merge(text string, n int) []int32 {
	m.ends = m.ends[:0]
	if n > 2*m.vocab.longest {
		m.long = searchedPiece{m: m, piece: text, n: n}
		ends, _ := m.search.Tokens(&m.long, n)
		return ends
	}
	switch {
	case m.vocab.rankAt(text, 0, n) != noRank:
		m.ends = append(m.ends, int32(n))
	case n <= shortPiece:
		return m.mergeShort(text, n)
	default:
		m.mergeLong(text, n)
	}
	return m.ends
}

// countPiece returns the number of tokens of the piece text[:n], as
// len(m.merge(text, n)), without merging a piece of up to two bytes, or
// of three that holds U+FFFD (marked, one byte): one byte is one token,
// and two are one token or two by their bit in pairTokens (8 KB, where
// short, which random text reads at random, is 263 KB), which merge
// would look their whole up in first (one lookup for both, of the byte
// and itself for one byte, whose result the count of one ignores, with
// no branch on which: random bytes would mispredict it); three are one
// token if their whole is one, else three if neither pair is a token,
// else two (one pair merges, and the two parts left are the whole). In
// random bytes four pieces in five are such, and this takes fewer
// branches than merge's general lookup and loop, which random text
// mispredicts. Pieces of three bytes are taken only when one is U+FFFD:
// ordinary text has none, and three bytes of it (mostly a token) took
// more mispredicted branches so. A longer piece with U+FFFD in its first
// 8 bytes is counted by countMarked (a shorter one too, if U+FFFD follows
// it there).
func (m *merger) countPiece(text string, n int) int {
	if n <= 2 {
		count := 1
		if !m.vocab.pairTokens.Has(pairIndex(text[0], text[n-1])) {
			count = n
		}
		return count
	}
	if n == 3 && (text[0] == lossy.Marker || text[1] == lossy.Marker || text[2] == lossy.Marker) {
		return m.countThree(text, text[0], text[1], text[2])
	}
	// The marker in the 8 bytes from the piece's start, which may be past
	// its end: countMarked counts any piece, and masking the head to the
	// piece cost ordinary text 2% more instructions.
	var head uint64
	if len(text) >= 8 {
		head = load64(text)
	} else {
		head = headOf(text[:n])
	}
	if hasByte(head, lossy.Marker) {
		return m.countMarked(text, n)
	}
	return len(m.merge(text, n))
}

// countThree returns the number of tokens of the piece text[:3] of the
// bytes a, b and c.
func (m *merger) countThree(text string, a, b, c byte) int {
	switch {
	case m.vocab.rankAt(text, 0, 3) != noRank:
		return 1
	case !m.vocab.pairTokens.Has(pairIndex(a, b)) && !m.vocab.pairTokens.Has(pairIndex(b, c)):
		return 3
	}
	return 2
}

// countMarked returns the number of tokens of the piece text[:n], which
// mostly holds U+FFFD, as len(m.merge(text, n)), by segments: no token holds
// U+FFFD beside most bytes (o200k_base's 22 that hold it hold beside it
// only U+FFFD, a space, a line break, '?', '&', '€' and 8 letters), and
// where a pair of bytes is in no token (pairsInTokens) no merge joins
// them, so the piece's tokens are those of the segments between such
// pairs, each merged alone. In random bytes the pieces of 4 bytes and
// more that hold U+FFFD, a quarter of the time of counting them, are
// mostly segments of one byte, two, or a run of U+FFFD, counted without
// a merge. A piece of one segment is merged as it is, its whole looked
// up first (as tiktoken does, which a part of a piece is not).
func (m *merger) countMarked(text string, n int) int {
	count, start, others := 0, 0, text[0]^lossy.Marker
	for i := 1; i < n; i++ {
		if !m.vocab.pairsInTokens.Has(pairIndex(text[i-1], text[i])) {
			count += m.countSegment(text[start:], i-start, others == 0)
			start, others = i, 0
		}
		others |= text[i] ^ lossy.Marker
	}
	if start == 0 {
		return len(m.merge(text, n))
	}
	return count + m.countSegment(text[start:], n-start, others == 0)
}

// countSegment returns the number of tokens the segment text[:n] of a
// piece merges into, markers whether it is a run of U+FFFD, by
// byte-pair merging alone.
func (m *merger) countSegment(text string, n int, markers bool) int {
	switch {
	case n == 1:
		return 1
	case n == 2:
		count := 1
		if !m.vocab.pairTokens.Has(pairIndex(text[0], text[1])) {
			count = 2
		}
		return count
	case markers && n <= shortPiece:
		return int(m.vocab.markerRuns[n])
	case n <= shortPiece:
		return len(m.mergeShort(text, n))
	case n <= 2*m.vocab.longest:
		m.ends = m.ends[:0]
		m.mergeLong(text, n)
		return len(m.ends)
	}
	return len(m.merge(text, n)) // searched: no whole lookup
}

// mergeShort merges a piece of at most shortPiece bytes by tiktoken's
// loop: a scan of the parts for the lowest rank per merge. It returns
// where each token ends, in m.starts.
func (m *merger) mergeShort(piece string, n int) []int32 {
	for i := range n - 1 {
		m.starts[i] = int32(i)
		m.ranks[i] = m.vocab.short[shortIndex(int(piece[i]), piece[i+1])]
	}
	m.starts[n-1], m.starts[n] = int32(n-1), int32(n)
	parts := n
	for parts > 1 {
		// The lowest rank, the leftmost of it: the minimum of each rank
		// above its index, taken without a branch (the compiler's min
		// branches in a loop), which random text mispredicts.
		best := uint64(noRank) << 32
		for i, r := range m.ranks[:parts-1] {
			pair := uint64(r)<<32 | uint64(i)
			_, less := bits.Sub64(pair, best, 0)
			best ^= (best ^ pair) & -less
		}
		if uint32(best>>32) == noRank {
			break
		}
		at := int(uint32(best))
		// Part at absorbs part at+1. A loop, not copy: the parts are
		// few, and copy calls memmove.
		for k := at + 1; k < parts; k++ {
			m.starts[k] = m.starts[k+1]
			m.ranks[k] = m.ranks[k+1] // what moves past parts-2 is unused
		}
		parts--
		if at+1 < parts {
			m.ranks[at] = m.vocab.rankAt(piece, int(m.starts[at]), int(m.starts[at+2]))
		}
		if at > 0 {
			m.ranks[at-1] = m.vocab.rankAt(piece, int(m.starts[at-1]), int(m.starts[at+1]))
		}
	}
	return m.starts[1 : parts+1]
}

// mergeLong merges a long piece with a queue of the pairs that can merge
// by rank: tiktoken looks for the pair to merge by a scan of all parts
// per merge, the queue finds it in O(log r) for r ranks in it (few, in a
// long piece: its pairs repeat). A merge mostly makes pairs that rank
// above it; when one ranks below, the queue's buckets could need sorting
// again and again, and a heap of the pairs left takes over. Either way a
// piece of n bytes costs O(n log n).
func (m *merger) mergeLong(piece string, length int) {
	m.parts(piece, length)
	if m.queue.bucketOf == nil {
		m.queue.bucketOf = make([]int32, m.vocab.size)
	}
	for i := int32(0); i >= 0; i = m.nodes[i].next {
		if rank := m.nodes[i].rank; rank != noRank {
			m.queue.push(rank, i)
		}
	}
	for {
		rank, i, ok := m.queue.pop()
		if !ok {
			break
		}
		if m.nodes[i].rank != rank {
			continue // stale: the part changed since the pair was pushed
		}
		before, after := m.join(piece, i)
		if min(before, after) < rank {
			m.queue.clear()
			m.mergeByHeap(piece)
			break
		}
		if before != noRank {
			m.queue.push(before, m.nodes[i].prev)
		}
		if after != noRank {
			m.queue.push(after, i)
		}
	}
	m.appendEnds()
}

// parts makes the parts of the piece piece[:length], a byte each, with
// the rank of each pair.
func (m *merger) parts(piece string, length int) {
	m.nodes = slices.Grow(m.nodes[:0], length+1)[:length+1]
	for i := range m.nodes {
		m.nodes[i] = mergeNode{prev: int32(i - 1), next: int32(i + 1), rank: noRank}
	}
	m.nodes[length].next = -1
	for i := int32(0); i >= 0; i = m.nodes[i].next {
		m.rank(piece, i)
	}
}

// appendEnds appends where each part ends to m.ends.
func (m *merger) appendEnds() {
	for i := m.nodes[0].next; i >= 0; i = m.nodes[i].next {
		m.ends = append(m.ends, i)
	}
}

// mergeByHeap goes on merging a long piece with a heap of its pairs that
// can merge, each its rank above its offset.
func (m *merger) mergeByHeap(piece string) {
	m.heap = m.heap[:0]
	for i := int32(0); i >= 0; i = m.nodes[i].next {
		if rank := m.nodes[i].rank; rank != noRank {
			m.heap = append(m.heap, pair(rank, i))
		}
	}
	m.heap.init()
	for len(m.heap) > 0 {
		rank, i := m.heap.top()
		m.heap.pop()
		if m.nodes[i].rank != rank {
			continue
		}
		before, after := m.join(piece, i)
		if before != noRank {
			m.heap.push(pair(before, m.nodes[i].prev))
		}
		if after != noRank {
			m.heap.push(pair(after, i))
		}
	}
}

// join merges the part at i with the next one, and returns the ranks of
// the pairs it makes with the part before and with the part after.
func (m *merger) join(piece string, i int32) (before, after uint32) {
	j := m.nodes[i].next
	k := m.nodes[j].next
	m.nodes[j].rank = noRank
	m.nodes[i].next = k
	if k >= 0 {
		m.nodes[k].prev = i
	}
	before = noRank
	if p := m.nodes[i].prev; p >= 0 {
		before = m.rank(piece, p)
	}
	return before, m.rank(piece, i)
}

// rank sets and returns the rank of the part at i joined with the next
// one.
func (m *merger) rank(piece string, i int32) uint32 {
	node := &m.nodes[i]
	node.rank = noRank
	if j := node.next; j >= 0 {
		if k := m.nodes[j].next; k >= 0 {
			node.rank = m.vocab.rankAt(piece, int(i), int(k))
		}
	}
	return node.rank
}

// rankQueue holds the pairs that can merge, and gives them in the order
// tiktoken merges them: the lowest rank first, the leftmost among equal
// ones. Each rank in it has a bucket, a list of the offsets of its pairs,
// and a heap orders the ranks. A merge never makes a pair of its own rank
// (the union is longer than the token), and the pairs it makes are pushed
// from left to right, so a bucket is mostly filled in order; it is sorted
// when it was not, before its first pop. The queue is empty after the last
// pop, and its buffers serve the next piece.
type rankQueue struct {
	bucketOf []int32 // for each rank, its bucket's index + 1, or 0
	buckets  []bucket
	free     []int32  // the buckets not in use
	ranks    pairHeap // each rank that has a bucket, above the bucket's index
	entries  []entry  // the lists of the buckets
	sorting  []int32
}

// bucket is the list of the pairs of a rank, from entries[head] on, or
// empty when head is -1.
type bucket struct {
	head, tail int32
	sorted     bool // the offsets ascend
}

type entry struct{ offset, next int32 }

func (q *rankQueue) push(rank uint32, offset int32) {
	index := q.bucketOf[rank] - 1
	if index < 0 {
		if len(q.free) > 0 {
			index = q.free[len(q.free)-1]
			q.free = q.free[:len(q.free)-1]
		} else {
			index = int32(len(q.buckets))
			q.buckets = append(q.buckets, bucket{})
		}
		q.buckets[index] = bucket{head: -1, tail: -1, sorted: true}
		q.bucketOf[rank] = index + 1
		q.ranks.push(pair(rank, index))
	}
	e := int32(len(q.entries))
	q.entries = append(q.entries, entry{offset: offset, next: -1})
	b := &q.buckets[index]
	if b.head < 0 {
		b.head = e
	} else {
		if offset < q.entries[b.tail].offset {
			b.sorted = false
		}
		q.entries[b.tail].next = e
	}
	b.tail = e
}

// clear empties the queue.
func (q *rankQueue) clear() {
	for _, p := range q.ranks {
		rank, index := uint32(p>>32), int32(uint32(p))
		q.bucketOf[rank] = 0
		q.free = append(q.free, index)
	}
	q.ranks = q.ranks[:0]
	q.entries = q.entries[:0]
}

// pop removes the pair to merge next and returns its rank and offset, or
// ok false when the queue is empty.
func (q *rankQueue) pop() (rank uint32, offset int32, ok bool) {
	for len(q.ranks) > 0 {
		rank, index := q.ranks.top()
		b := &q.buckets[index]
		if b.head < 0 {
			q.ranks.pop()
			q.bucketOf[rank] = 0
			q.free = append(q.free, index)
			continue
		}
		if !b.sorted {
			q.sorting = q.sorting[:0]
			for e := b.head; e >= 0; e = q.entries[e].next {
				q.sorting = append(q.sorting, q.entries[e].offset)
			}
			slices.Sort(q.sorting)
			for e, i := b.head, 0; e >= 0; e, i = q.entries[e].next, i+1 {
				q.entries[e].offset = q.sorting[i]
			}
			b.sorted = true
		}
		e := q.entries[b.head]
		b.head = e.next
		return rank, e.offset, true
	}
	q.entries = q.entries[:0]
	return 0, 0, false
}

// pairHeap is a binary min-heap of ranks, each above an index
// (minheap's, which unlike container/heap's push does not allocate).
type pairHeap []uint64

func pair(rank uint32, index int32) uint64 { return uint64(rank)<<32 | uint64(index) }

func (h pairHeap) init() { minheap.Init(h) }

func (h pairHeap) top() (rank uint32, index int32) {
	return uint32(h[0] >> 32), int32(uint32(h[0]))
}

func (h *pairHeap) push(p uint64) { minheap.Push((*[]uint64)(h), p) }

// pop removes the top.
func (h *pairHeap) pop() { minheap.Pop((*[]uint64)(h)) }

// searchedPiece is a piece longer than two tokens that longpiece's search
// merges: tiktoken's rule takes the pair whose union ranks lowest, the
// leftmost among equal ones, which is an order of the two parts alone.
type searchedPiece struct {
	m     *merger
	piece string
	n     int
}

func (p *searchedPiece) LongestAt(i int) int { return p.m.vocab.lengths.At(p.piece[:p.n], i) }

func (p *searchedPiece) Token(i, j int) (uint32, bool) {
	rank := p.m.vocab.rankAt(p.piece, i, j)
	return rank, rank != noRank
}

// PairHolds merges the pair alone, with a merger of its own: two tokens
// are short, so that merger never searches.
func (p *searchedPiece) PairHolds(i, j, k int) bool {
	if p.m.checking == nil {
		p.m.checking = &merger{vocab: p.m.vocab}
	}
	ends := p.m.checking.merge(p.piece[i:], k-i)
	return len(ends) == 2 && int(ends[0]) == j-i
}
