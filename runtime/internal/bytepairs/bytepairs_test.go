package bytepairs

import (
	"math/rand/v2"
	"testing"
)

// TestGet: every index reads its value, or the default, on tables with
// no index set, all set, and sets at random of several densities, of a
// size that is not a multiple of 64.
func TestGet(t *testing.T) {
	const size, none = 257*256 + 5, ^uint64(0)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, density := range []float64{0, 0.01, 0.08, 0.5, 1} {
		want := make([]uint64, size)
		for i := range want {
			want[i] = none
			if rng.Float64() < density {
				want[i] = rng.Uint64N(1 << 40)
			}
		}
		table := New(size, none, func(i int) uint64 { return want[i] })
		for i, w := range want {
			if got := table.Get(i); got != w {
				t.Fatalf("density %v: Get(%d) = %#x, want %#x", density, i, got, w)
			}
		}
	}
}

// TestSet: every index is in the set or not as chosen, on sets of no
// index, all, and of indexes at random of several densities, of a size
// that is not a multiple of 64.
func TestSet(t *testing.T) {
	const size = 1<<16 + 5
	rng := rand.New(rand.NewPCG(3, 4))
	for _, density := range []float64{0, 0.01, 0.08, 0.5, 1} {
		want, set := make([]bool, size), NewSet(size)
		for i := range want {
			if want[i] = rng.Float64() < density; want[i] {
				set.Add(i)
			}
		}
		for i, w := range want {
			if got := set.Has(i); got != w {
				t.Fatalf("density %v: Has(%d) = %v, want %v", density, i, got, w)
			}
		}
	}
}

// TestPairs: the set of the pairs of some strings holds each pair of
// bytes that follow one another in one of them, and no other.
func TestPairs(t *testing.T) {
	strs := []string{"", "a", "ab", "abc", "\xff\x00\xff", "zz"}
	p := new(Pairs)
	want := map[int]bool{}
	for _, s := range strs {
		p.Add(s)
		for k := 1; k < len(s); k++ {
			want[int(s[k-1])<<8|int(s[k])] = true
		}
	}
	set := p.Set()
	for i := range 1 << 16 {
		if set.Has(i) != want[i] {
			t.Fatalf("Has(%#04x) = %v, want %v", i, set.Has(i), want[i])
		}
	}
}
