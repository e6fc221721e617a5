// Package minheap is a binary min-heap of uint64s kept in a slice: the
// tokenizers' merge queues order their pairs by it (a rank in the high
// bits, an offset in the low ones, so that ties go leftmost first).
package minheap

// Init makes h a heap.
func Init(h []uint64) {
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(h, i)
	}
}

// Push adds x to the heap *h.
func Push(h *[]uint64, x uint64) {
	*h = append(*h, x)
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

// Pop removes and returns the least element of the heap *h, which must
// not be empty.
func Pop(h *[]uint64) uint64 {
	s := *h
	top, last := s[0], len(s)-1
	s[0] = s[last]
	*h = s[:last]
	down(s[:last], 0)
	return top
}

func down(h []uint64, i int) {
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
