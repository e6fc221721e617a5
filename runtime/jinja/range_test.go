package jinja

import (
	"math"
	"slices"
	"testing"
)

func TestRange(t *testing.T) {
	for _, c := range []struct {
		start, stop, step int
		want              []int
	}{
		{0, 3, 1, []int{0, 1, 2}},
		{0, 0, 1, []int{}},
		{3, 0, 1, []int{}},
		{1, 8, 3, []int{1, 4, 7}},
		{1, 7, 3, []int{1, 4}},
		{5, 0, -2, []int{5, 3, 1}},
		{0, 5, -1, []int{}},
		{-2, 2, 1, []int{-2, -1, 0, 1}},
		{math.MaxInt - 1, math.MaxInt, math.MaxInt, []int{math.MaxInt - 1}},
		{math.MinInt, math.MaxInt, math.MaxInt, []int{math.MinInt, -1, math.MaxInt - 1}},
		{math.MaxInt, math.MinInt, math.MinInt, []int{math.MaxInt, -1}},
	} {
		got, err := Range(c.start, c.stop, c.step)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("Range(%d, %d, %d) = %v, %v; want %v", c.start, c.stop, c.step, got, err, c.want)
		}
	}
	for _, c := range [][3]int{{0, 3, 0}, {math.MinInt, math.MaxInt, 1}, {0, 1 << 40, 1}} {
		if got, err := Range(c[0], c[1], c[2]); err == nil {
			t.Errorf("Range(%d, %d, %d) = %d items, want an error", c[0], c[1], c[2], len(got))
		}
	}
}
