package par

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// TestEach checks that every index runs exactly once, with one worker and
// with several.
func TestEach(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 4} {
		runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 3, 1000} {
			runs := make([]atomic.Int32, n)
			Each(n, func(i int) { runs[i].Add(1) })
			for i := range runs {
				if got := runs[i].Load(); got != 1 {
					t.Fatalf("GOMAXPROCS %d, n %d: job %d ran %d times", procs, n, i, got)
				}
			}
		}
	}
}

// TestEachConcurrent checks that the jobs run at the same time: each of
// four waits until all four have started, which returns only if four run
// at once.
func TestEachConcurrent(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	var started atomic.Int32
	Each(4, func(int) {
		started.Add(1)
		for started.Load() < 4 {
			runtime.Gosched()
		}
	})
}
