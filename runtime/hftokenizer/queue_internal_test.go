package hftokenizer

import (
	"slices"
	"testing"
)

// TestPairQueue: bucketed or not, the queue gives its pairs by rank,
// then offset, whatever order they came in, also when a pair pushed
// after the pops began ranks before the last popped (the heap takes the
// rest over).
func TestPairQueue(t *testing.T) {
	pair := func(rank, offset int) uint64 { return uint64(rank)<<32 | uint64(offset) }
	for _, bucketed := range []bool{false, true} {
		var q pairQueue
		for range 2 { // the second time on the buffers of the first
			q.reset(bucketed, 10)
			for _, p := range []uint64{pair(5, 10), pair(5, 3), pair(7, 1), pair(5, 7), pair(9, 0)} {
				q.push(p)
			}
			var got []uint64
			pop := func() {
				p, ok := q.pop()
				if !ok {
					t.Fatalf("bucketed %t: empty after %v", bucketed, got)
				}
				got = append(got, p)
			}
			pop()
			pop()
			q.push(pair(8, 2)) // after the last popped: to a bucket
			q.push(pair(7, 0))
			pop()
			pop()
			pop()
			q.push(pair(6, 4)) // before the last popped: to the heap
			for range 3 {
				pop()
			}
			if p, ok := q.pop(); ok {
				t.Errorf("bucketed %t: %x left", bucketed, p)
			}
			want := []uint64{pair(5, 3), pair(5, 7), pair(5, 10), pair(7, 0), pair(7, 1), pair(6, 4), pair(8, 2), pair(9, 0)}
			if !slices.Equal(got, want) {
				t.Errorf("bucketed %t: popped %x, want %x", bucketed, got, want)
			}
		}
	}
}
