// Package par runs independent jobs on every CPU (issue 28): the prompt
// files of a tree load and check, and the generated files are emitted and
// written, independently of one another. A job writes only its own
// results, by index, so that what its caller returns is in the order of
// its input whatever the order the jobs ran in.
//
// It imports only the standard library.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Each calls job(i) for each i in [0, n), on up to GOMAXPROCS goroutines,
// and returns when every call has returned.
func Each(n int, job func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			job(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				job(i)
			}
		}()
	}
	wg.Wait()
}
