package jinja

import (
	"slices"
	"testing"
)

// TestListsKeepViews checks the invariant the backends rely on: a list
// changed by ListPop, ListInsert or an append after them never writes an
// item that a slice taken before (a view: a loop, a slice, a set of it)
// holds. (Python's values are the render cases' list_methods*.)
func TestListsKeepViews(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(xs []int) []int
	}{
		{"pop last, append", func(xs []int) []int {
			if _, err := ListPop(&xs, -1); err != nil {
				t.Fatal(err)
			}
			return append(xs, 9)
		}},
		{"pop first, append", func(xs []int) []int {
			if _, err := ListPop(&xs, 0); err != nil {
				t.Fatal(err)
			}
			return append(xs, 9)
		}},
		{"pop middle, append", func(xs []int) []int {
			if _, err := ListPop(&xs, 1); err != nil {
				t.Fatal(err)
			}
			return append(xs, 9)
		}},
		{"insert, append", func(xs []int) []int { return append(ListInsert(xs, 1, 9), 9) }},
		{"insert at the end", func(xs []int) []int { return ListInsert(xs, 10, 9) }},
	} {
		xs := make([]int, 3, 10) // room to grow in place
		copy(xs, []int{1, 2, 3})
		view := xs[:3]
		c.change(xs)
		if !slices.Equal(view, []int{1, 2, 3}) {
			t.Errorf("%s: a view of the list became %v", c.name, view)
		}
	}
}

func TestListPopRange(t *testing.T) {
	for _, c := range []struct {
		xs   []string
		i    int
		want string
		rest []string
		ok   bool
	}{
		{[]string{"a", "b", "c"}, -1, "c", []string{"a", "b"}, true},
		{[]string{"a", "b", "c"}, -3, "a", []string{"b", "c"}, true},
		{[]string{"a", "b", "c"}, 1, "b", []string{"a", "c"}, true},
		{[]string{"a", "b", "c"}, 3, "", []string{"a", "b", "c"}, false},
		{[]string{"a", "b", "c"}, -4, "", []string{"a", "b", "c"}, false},
		{nil, -1, "", nil, false},
	} {
		xs := slices.Clone(c.xs)
		got, err := ListPop(&xs, c.i)
		if got != c.want || !slices.Equal(xs, c.rest) || (err == nil) != c.ok {
			t.Errorf("ListPop(%q, %d) = %q, %v, leaving %q; want %q, ok %v, leaving %q", c.xs, c.i, got, err, xs, c.want, c.ok, c.rest)
		}
	}
	for _, c := range []struct {
		i    int
		want []string
	}{{0, []string{"x", "a", "b"}}, {-1, []string{"a", "x", "b"}}, {-9, []string{"x", "a", "b"}}, {9, []string{"a", "b", "x"}}} {
		if got := ListInsert([]string{"a", "b"}, c.i, "x"); !slices.Equal(got, c.want) {
			t.Errorf("ListInsert([a b], %d, x) = %q, want %q", c.i, got, c.want)
		}
	}
}
