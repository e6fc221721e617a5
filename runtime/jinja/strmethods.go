package jinja

import (
	"errors"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/promptgen/promptgen/runtime"
)

// errNotFound is Python's ValueError of str.index and str.rindex.
var errNotFound = errors.New("substring not found")

// errFillChar is Python's TypeError of ljust, rjust and center.
var errFillChar = errors.New("The fill character must be exactly one character long")

// bounds returns the code point range of Python's s[start:end] as
// str.find adjusts its optional start and end arguments (given, in that
// order, in span): negative ones count from the end, end is clamped to
// [0, n] and start to [0, ∞), so start may pass end. s has n code points.
func bounds(n int, span []int) (start, end int) {
	end = n
	if len(span) > 1 && span[1] < n {
		if end = span[1]; end < 0 {
			end = max(end+n, 0)
		}
	}
	if len(span) > 0 {
		if start = span[0]; start < 0 {
			start = max(start+n, 0)
		}
	}
	return start, end
}

// search finds sub in Python's s[start:end] (see bounds), the first
// occurrence or with last the last one: its code point index, or -1.
func search(s, sub string, last bool, span []int) int {
	n := utf8.RuneCountInString(s)
	start, end := bounds(n, span)
	if end-start < utf8.RuneCountInString(sub) {
		return -1
	}
	lo := runeOffset(s, n, start)
	in := s[lo:runeOffset(s, n, end)]
	i := strings.Index(in, sub)
	if last {
		i = strings.LastIndex(in, sub)
	}
	if i < 0 {
		return -1
	}
	return start + utf8.RuneCountInString(in[:i])
}

// Find returns Python's s.find(sub[, start[, end]]): the code point index
// of the first sub in s[start:end], or -1.
func Find(s, sub string, span ...int) int { return search(s, sub, false, span) }

// RFind returns Python's s.rfind(sub[, start[, end]]): the index of the
// last sub in s[start:end], or -1.
func RFind(s, sub string, span ...int) int { return search(s, sub, true, span) }

// StrIndex returns Python's s.index(sub[, start[, end]]): Find, failing
// where sub is not found.
func StrIndex(s, sub string, span ...int) (int, error) {
	return found(search(s, sub, false, span))
}

// StrRIndex returns Python's s.rindex(sub[, start[, end]]).
func StrRIndex(s, sub string, span ...int) (int, error) {
	return found(search(s, sub, true, span))
}

func found(i int) (int, error) {
	if i < 0 {
		return 0, errNotFound
	}
	return i, nil
}

// Count returns Python's s.count(sub[, start[, end]]): the number of
// non-overlapping sub in s[start:end]; an empty sub is counted before
// every code point and at the end.
func Count(s, sub string, span ...int) int {
	n := utf8.RuneCountInString(s)
	start, end := bounds(n, span)
	if end-start < utf8.RuneCountInString(sub) {
		return 0
	}
	return strings.Count(s[runeOffset(s, n, start):runeOffset(s, n, end)], sub)
}

// errTooLarge fails a method whose result would be longer than
// runtime.MaxOutput.
var errTooLarge = &runtime.Error{Err: runtime.ErrTooLarge}

// ZFill returns Python's s.zfill(width): s padded on the left with zeros
// to width code points, after its sign if it has one.
func ZFill(s string, width int) (string, error) {
	pad := width - utf8.RuneCountInString(s)
	if pad <= 0 {
		return s, nil
	}
	if !fits(len(s), pad, 1) {
		return "", errTooLarge
	}
	zeros := strings.Repeat("0", pad)
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return s[:1] + zeros + s[1:], nil
	}
	return zeros + s, nil
}

// Justify returns Python's s.ljust(width, fill) (align 'l'), s.rjust
// (align 'r') or s.center (align 'c'): s padded with fill, which must be
// one code point, to width code points.
func Justify(s string, width int, fill string, align byte) (string, error) {
	if utf8.RuneCountInString(fill) != 1 {
		return "", errFillChar
	}
	pad := width - utf8.RuneCountInString(s)
	if pad <= 0 {
		return s, nil
	}
	if !fits(len(s), pad, len(fill)) {
		return "", errTooLarge
	}
	left := 0
	switch align {
	case 'r':
		left = pad
	case 'c':
		left = pad/2 + pad&width&1 // CPython's rounding
	}
	return strings.Repeat(fill, left) + s + strings.Repeat(fill, pad-left), nil
}

// SwapCase returns Python's s.swapcase(): uppercase code points lowered
// (final sigma in context), lowercase ones uppercased, fully.
func SwapCase(s string) string {
	c := caser{s: s}
	for i := 0; i < len(s); {
		r, size := decodeRune(s, i)
		switch {
		case unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r):
			c.put(i, i+size, r, lowerAt(s, i, i+size, r))
		case unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r):
			c.put(i, i+size, r, upperOf(r))
		}
		i += size
	}
	return c.String()
}

// SplitLines returns Python's s.splitlines(keepends): s cut at every line
// boundary (\r\n counting as one), without an empty last line; with
// keepends each line keeps its boundary.
func SplitLines(s string, keepends bool) []string {
	lines := []string{}
	for start, i := 0, 0; i < len(s); {
		r, size := decodeRune(s, i)
		if !isLineBreak(r) {
			i += size
			if i == len(s) {
				lines = append(lines, s[start:])
			}
			continue
		}
		end := i
		if i += size; r == '\r' && i < len(s) && s[i] == '\n' {
			i++
		}
		if keepends {
			end = i
		}
		lines = append(lines, s[start:end])
		start = i
	}
	return lines
}

// IsLower returns Python's s.islower(): s has a lowercase code point and
// no uppercase or titlecase one. Jinja2's test lower is str(x).islower().
func IsLower(s string) bool { return isCase(s, isLowerRune, isUpperRune) }

// IsUpper returns Python's s.isupper(), for Jinja2's test upper.
func IsUpper(s string) bool { return isCase(s, isUpperRune, isLowerRune) }

// isCase reports whether s has a code point that is want and none that
// is other or titlecase.
func isCase(s string, want, other func(rune) bool) bool {
	cased := false
	for _, r := range s {
		switch {
		case other(r) || unicode.IsTitle(r):
			return false
		case want(r):
			cased = true
		}
	}
	return cased
}

// isUpperRune and isLowerRune are Unicode's Uppercase and Lowercase
// properties, which Python's isupper and islower test.
func isUpperRune(r rune) bool { return unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r) }
func isLowerRune(r rune) bool { return unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r) }

// FilterNames and TestNames are the names of Jinja2 3.1's builtin filters
// and tests, sorted: the test filter (x is filter) and the test test ask
// whether x is one.
var (
	FilterNames = strings.Fields("abs attr batch capitalize center count d default dictsort e escape filesizeformat first" +
		" float forceescape format groupby indent int items join last length list lower map max min pprint random" +
		" reject rejectattr replace reverse round safe select selectattr slice sort string striptags sum title tojson" +
		" trim truncate unique upper urlencode urlize wordcount wordwrap xmlattr")
	TestNames = strings.Fields("!= < <= == > >= boolean callable defined divisibleby eq equalto escaped even false" +
		" filter float ge greaterthan gt in integer iterable le lessthan lower lt mapping ne none number odd sameas" +
		" sequence string test true undefined upper")
)

// IsName reports whether s is in names (FilterNames or TestNames).
func IsName(s string, names []string) bool {
	_, ok := slices.BinarySearch(names, s)
	return ok
}

// IsNameValue is Jinja2's test filter (which "filter") or test of v: v in
// the environment's filters or tests, a dict, which a list or dict cannot
// be looked up in (Python's TypeError).
func IsNameValue(v Value, which string) (bool, error) {
	if u, ok := unhashable(v); ok {
		return false, errInvalid("unhashable type: '%s'", u.typeName())
	}
	names := TestNames
	if which == "filter" {
		names = FilterNames
	}
	s, ok := v.Str()
	return ok && IsName(s, names), nil
}

// Partition returns Python's s.partition(sep), or with last
// s.rpartition(sep): the tuple (head, sep, tail) cut at the first (last)
// sep; without one, s and two empty strings (s last for rpartition). An
// empty sep is an error, as Python raises ValueError.
func Partition(s, sep string, last bool) (Value, error) {
	if sep == "" {
		return Value{}, errEmptySeparator
	}
	i := strings.Index(s, sep)
	if last {
		i = strings.LastIndex(s, sep)
	}
	parts := []string{s, "", ""}
	switch {
	case i >= 0:
		parts = []string{s[:i], sep, s[i+len(sep):]}
	case last:
		parts = []string{"", "", s}
	}
	v := StringsValue(parts)
	v.tuple = true
	return v, nil
}
