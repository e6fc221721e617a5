package jinja

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Index returns Python's xs[i]: a negative i counts from the end. It
// reports false where Python raises IndexError.
func Index[T any](xs []T, i int) (T, bool) {
	if i < 0 {
		i += len(xs)
	}
	if i < 0 || i >= len(xs) {
		var zero T
		return zero, false
	}
	return xs[i], true
}

// IndexString returns Python's s[i], the code point at index i as a string
// sharing memory with s: a negative i counts from the end. It reports false
// where Python raises IndexError.
func IndexString(s string, i int) (string, bool) {
	if i >= 0 {
		off := 0
		for ; off < len(s); i-- {
			_, size := decodeRune(s, off)
			if i == 0 {
				return s[off : off+size], true
			}
			off += size
		}
		return "", false
	}
	end := len(s)
	for ; end > 0; i++ {
		_, size := utf8.DecodeLastRuneInString(s[:end])
		if i == -1 {
			return s[end-size : end], true
		}
		end -= size
	}
	return "", false
}

// sliceRange resolves a Python slice on a sequence of length n as
// slice.indices does: it returns the first index and the number of
// elements.
func sliceRange(n, lo, hi, step int, hasLo, hasHi bool) (start, count int) {
	lower, upper := 0, n // bounds that start and stop are clamped to
	if step < 0 {
		lower, upper = -1, n-1
	}
	start, stop := lower, upper
	if step < 0 {
		start, stop = upper, lower
	}
	if hasLo {
		start = clampIndex(lo, n, lower, upper)
	}
	if hasHi {
		stop = clampIndex(hi, n, lower, upper)
	}
	switch {
	case step > 0 && start < stop:
		count = (stop-start-1)/step + 1
	case step < 0 && stop < start:
		count = (start-stop-1)/-step + 1
	}
	return start, count
}

func clampIndex(i, n, lower, upper int) int {
	if i < 0 {
		return max(i+n, lower)
	}
	return min(i, upper)
}

// Slice returns Python's xs[lo:hi:step]; hasLo and hasHi report whether the
// bounds were given, and step must not be 0. With step 1 the result shares
// memory with xs, capped so that appending to it cannot overwrite xs;
// otherwise it is a new slice.
func Slice[T any](xs []T, lo, hi, step int, hasLo, hasHi bool) []T {
	start, count := sliceRange(len(xs), lo, hi, step, hasLo, hasHi)
	if step == 1 {
		return xs[start : start+count : start+count]
	}
	out := make([]T, count)
	for k := range out {
		out[k] = xs[start+k*step]
	}
	return out
}

// SliceString returns Python's s[lo:hi:step] counting code points; hasLo
// and hasHi report whether the bounds were given, and step must not be 0.
// With step 1 the result shares memory with s.
func SliceString(s string, lo, hi, step int, hasLo, hasHi bool) string {
	n := utf8.RuneCountInString(s)
	start, count := sliceRange(n, lo, hi, step, hasLo, hasHi)
	if count == 0 {
		return ""
	}
	off := runeOffset(s, n, start)
	if step == 1 {
		return s[off : runeOffset(s[off:], n-start, count)+off]
	}
	var b strings.Builder
	if n == len(s) { // ASCII: code points are bytes
		b.Grow(count)
		for k := range count {
			b.WriteByte(s[start+k*step])
		}
		return b.String()
	}
	b.Grow(count * 2)
	for k := range count {
		_, size := decodeRune(s, off)
		b.WriteString(s[off : off+size])
		if k+1 < count {
			off = skipRunes(s, off, step)
		}
	}
	return b.String()
}

// skipRunes returns the byte offset step code points away from the code
// point starting at off.
func skipRunes(s string, off, step int) int {
	for ; step > 0; step-- {
		_, size := decodeRune(s, off)
		off += size
	}
	for ; step < 0; step++ {
		_, size := utf8.DecodeLastRuneInString(s[:off])
		off -= size
	}
	return off
}

// SortedKeys returns the keys of m in ascending code point order, which is
// how Python sorts str keys (dictsort, tojson's sort_keys); it gives
// deterministic iteration where Python would use insertion order.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// CompareBools compares a and b as Python orders bools, False first: the
// sort filter's comparison of bool keys, which cmp.Compare does not take.
func CompareBools(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// SortStrings returns a sorted copy of xs as the Jinja2 sort filter does
// for strings: a stable sort by code point order, comparing Lower of each
// string unless caseSensitive is set; reverse sorts descending while
// keeping equal strings in their original order, like Python's sorted.
func SortStrings(xs []string, reverse, caseSensitive bool) []string {
	out := slices.Clone(xs)
	if caseSensitive {
		// Equal strings are identical, so stability does not matter.
		slices.Sort(out)
		if reverse {
			slices.Reverse(out)
		}
		return out
	}
	type keyed struct{ key, s string }
	ks := make([]keyed, len(xs))
	for i, s := range xs {
		ks[i] = keyed{Lower(s), s}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int {
		if reverse {
			return strings.Compare(b.key, a.key)
		}
		return strings.Compare(a.key, b.key)
	})
	for i, k := range ks {
		out[i] = k.s
	}
	return out
}

// UniqueStrings returns the Jinja2 unique filter of xs: the first
// occurrence of each string in order, comparing Lower of each string unless
// caseSensitive is set.
func UniqueStrings(xs []string, caseSensitive bool) []string {
	seen := make(map[string]struct{}, len(xs))
	var out []string
	for _, s := range xs {
		key := CaseKey(s, caseSensitive)
		if _, dup := seen[key]; !dup {
			seen[key] = struct{}{}
			out = append(out, s)
		}
	}
	return out
}

// CaseKey is the key by which sort and unique compare a string: s itself
// when caseSensitive, else Lower(s).
func CaseKey(s string, caseSensitive bool) string {
	if caseSensitive {
		return s
	}
	return Lower(s)
}
