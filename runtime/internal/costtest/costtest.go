// Package costtest holds the test helpers that check that parsing a
// completion, or counting tokens, costs time in proportion to its size. They compare the costs
// of the same code on two inputs, so that they hold on a loaded machine:
// each cost is the least CPU time (where the system reports it) of several
// runs, and the margins are wide.
package costtest

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// best returns the least cost of several runs of f(in), each the CPU time
// per call over calls for at least 2 ms (a call on a short input is too
// short to time alone). The garbage collector is kept out of the runs:
// when its cycles fall depends on the heap, not on f.
func best(f func(string), in string) time.Duration {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	d := time.Duration(1<<63 - 1)
	for range 5 {
		runtime.GC()
		d = min(d, perCall(2*time.Millisecond, func() { f(in) }))
	}
	return max(d, 1) // a ratio with a cost too short to measure is a ratio with 1ns
}

// perCall is the CPU time per call of g over calls for at least least.
func perCall(least time.Duration, g func()) time.Duration {
	start, calls := now(), 0
	for calls == 0 || now()-start < least {
		g()
		calls++
	}
	return (now() - start) / time.Duration(calls)
}

// Linear fails t unless f on an input eight times larger (input(8*n)
// rather than input(n)) costs less than 32 times as much: a linear f costs
// about 8 times as much, a quadratic one 64 times.
func Linear(t testing.TB, name string, n int, input func(n int) string, f func(string)) {
	t.Helper()
	small, large := input(n), input(8*n)
	f(small) // warm up
	// A ratio above 32 is measured again, up to five times, as a burst of
	// work in the process can make one, where quadratic time makes it
	// every time.
	var ts, tl time.Duration
	for try := 0; try == 0 || tl > 32*ts && try < 5; try++ {
		ts, tl = best(f, small), best(f, large)
	}
	t.Logf("%s: %d bytes %v, %d bytes %v", name, len(small), ts, len(large), tl)
	if tl > 32*ts {
		t.Errorf("%s: %d bytes took %v, %d bytes %v (%.0f times as long): not linear", name, len(small), ts, len(large), tl, float64(tl)/float64(ts))
	}
}

// Same fails t unless f on probe costs less than 8 times as much as on
// base, an input of the same size and shape.
func Same(t testing.TB, name string, base, probe string, f func(string)) {
	t.Helper()
	f(base) // warm up
	tb, tp := best(f, base), best(f, probe)
	t.Logf("%s: %v, against %v for an input of the same size", name, tp, tb)
	if tp > 8*tb {
		t.Errorf("%s: %v, against %v for an input of the same size (%.0f times as long)", name, tp, tb, float64(tp)/float64(tb))
	}
}

// Repeated fails t unless f on small repeated times over (one input)
// costs less than 8 times as much as f on small, times calls: a linear f
// costs about the same, a quadratic one times as much (times is 16).
// Each cost is CPU time per call over calls for at least 5 ms, the least
// of three turns (a call on 1 KB is too short to time alone); a ratio
// above 8 is measured again, up to five times, as a burst of work in the
// process (the collector, another test) can make one, where quadratic
// time makes it every time.
func Repeated(t testing.TB, name, small string, times int, f func(string)) {
	t.Helper()
	large := strings.Repeat(small, times)
	var smalls, once time.Duration
	for try := 0; try == 0 || once > 8*smalls && try < 5; try++ {
		smalls, once = time.Duration(1<<63-1), time.Duration(1<<63-1)
		for range 3 {
			smalls = min(smalls, perCall(5*time.Millisecond, func() {
				for range times {
					f(small)
				}
			}))
			once = min(once, perCall(5*time.Millisecond, func() { f(large) }))
		}
	}
	if once > 8*smalls {
		t.Errorf("%s: %d bytes %d times took %v, %d bytes once %v (%.1f times as long)", name, len(small), times, smalls, len(large), once, float64(once)/float64(smalls))
	}
}
