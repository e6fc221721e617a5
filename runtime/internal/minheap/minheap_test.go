package minheap

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestHeap: pushes, an Init of random values and pops give the values in
// ascending order.
func TestHeap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 50 {
		var want, h []uint64
		for range n {
			x := r.Uint64N(20)
			want = append(want, x)
			if r.IntN(2) == 0 {
				Push(&h, x)
			} else {
				h = append(h, x)
				Init(h)
			}
		}
		slices.Sort(want)
		var got []uint64
		for len(h) > 0 {
			got = append(got, Pop(&h))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: got %v, want %v", n, got, want)
		}
	}
}
