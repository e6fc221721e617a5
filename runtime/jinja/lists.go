package jinja

import (
	"errors"
	"slices"
)

// Python's list methods that modify a list, on the Go slice of a list
// that only one local holds. None writes an item that another slice of the
// same array may hold: append writes past the end, and a list made
// shorter, or with an item inserted, is a new slice or one whose capacity
// is its length, so that a later append copies it.

var (
	errPopEmpty = errors.New("pop from empty list")
	errPopRange = errors.New("pop index out of range")
)

// ListPop is Python's xs.pop(i): the item at index i (from the end where
// i is negative), which it takes out of *xs.
func ListPop[T any](xs *[]T, i int) (T, error) {
	n := len(*xs)
	if n == 0 {
		var zero T
		return zero, errPopEmpty
	}
	if i < 0 {
		i += n
	}
	if i < 0 || i >= n {
		var zero T
		return zero, errPopRange
	}
	v := (*xs)[i]
	switch i {
	case n - 1:
		*xs = (*xs)[:i:i]
	case 0:
		*xs = slices.Clip((*xs)[1:])
	default:
		*xs = slices.Concat((*xs)[:i:i], (*xs)[i+1:])
	}
	return v, nil
}

// ListInsert is Python's xs.insert(i, v): xs with v before index i (from
// the end where i is negative), at the end where i is past it, at the
// start where it is before it.
func ListInsert[T any](xs []T, i int, v T) []T {
	n := len(xs)
	if i < 0 {
		i = max(i+n, 0)
	}
	return slices.Insert(slices.Clip(xs), min(i, n), v)
}

// Python's list methods of a list value, which a list literal of dynamic
// values makes: each returns the value changed, or changes it (Pop).

// Appended is v with item appended (xs.append(item)).
func (v Value) Appended(item Value) Value {
	v.list = append(v.list, item)
	return v
}

// Extended is v with the items of items appended (xs.extend(items)), as
// Python iterates them (a string's characters, a dict's keys); it fails
// where items is not iterable.
func (v Value) Extended(items Value) (Value, error) {
	its, err := items.rest()
	if err != nil {
		return Value{}, err
	}
	v.list = append(v.list, its...)
	return v, nil
}

// Inserted is v with item inserted before index i (xs.insert(i, item)).
func (v Value) Inserted(i int, item Value) Value {
	v.list = ListInsert(v.list, i, item)
	return v
}

// Pop takes the item at index i out of v (xs.pop(i)).
func (v *Value) Pop(i int) (Value, error) { return ListPop(&v.list, i) }

// Cleared is v emptied (xs.clear()).
func (v Value) Cleared() Value {
	v.list = v.list[:0:0]
	return v
}
