package jinja

import (
	"errors"
	"fmt"

	"github.com/promptgen/promptgen/runtime"
)

// Range returns the items of Python's range(start, stop, step), which
// raises ValueError for a zero step. A range longer than runtime.MaxOutput
// items is an error: a loop over it could not finish within the output
// bound, and its list alone would exhaust memory.
func Range(start, stop, step int) ([]int, error) {
	if step == 0 {
		return nil, errors.New("range() arg 3 must not be zero")
	}
	// The differences are taken in uint64, where they cannot overflow.
	var span, by uint64
	switch {
	case step > 0 && start < stop:
		span, by = uint64(stop-start), uint64(step)
	case step < 0 && start > stop:
		span, by = uint64(start-stop), uint64(-step)
	default:
		return []int{}, nil
	}
	last := (span - 1) / by // the index of the last item
	if last >= runtime.MaxOutput {
		return nil, fmt.Errorf("range() of more than %d items", runtime.MaxOutput)
	}
	out := make([]int, last+1)
	for i := range out {
		out[i] = start + i*step
	}
	return out, nil
}
