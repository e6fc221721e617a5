package jinja

import (
	"errors"
	"fmt"
	"iter"
	"strings"
	"unicode/utf8"

	"github.com/promptgen/promptgen/runtime"
)

// fits reports whether a string of n bytes and k more pieces of size
// bytes each stays within runtime.MaxOutput, without overflowing.
func fits(n, k, size int) bool {
	if n > runtime.MaxOutput {
		return false
	}
	return k <= 0 || size <= 0 || k <= (runtime.MaxOutput-n)/size
}

// Repeat returns Python's s * n: s repeated n times, "" when n <= 0. It
// reports false, building nothing, when the result would be longer than
// runtime.MaxOutput.
func Repeat(s string, n int) (string, bool) {
	if n <= 0 {
		return "", true
	}
	if !fits(0, n, len(s)) {
		return "", false
	}
	return strings.Repeat(s, n), true
}

// RepeatList returns Python's xs * n: the items of xs n times, none when
// n <= 0. It reports false, building nothing, when the result would hold
// more than runtime.MaxOutput items.
func RepeatList[T any](xs []T, n int) ([]T, bool) {
	if n <= 0 || len(xs) == 0 {
		return []T{}, true
	}
	if n > runtime.MaxOutput/len(xs) {
		return nil, false
	}
	out := make([]T, 0, n*len(xs))
	for range n {
		out = append(out, xs...)
	}
	return out, true
}

// markupEscaper escapes as markupsafe.escape does.
var markupEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "'", "&#39;", `"`, "&#34;")

// Escape returns s escaped as Jinja2's Markup escapes a plain string it
// is added to (markupsafe.escape): & < > ' and " as entities. It reports
// false, building nothing, when the result would be longer than
// runtime.MaxOutput.
func Escape(s string) (string, bool) {
	n := strings.Count(s, "&") + strings.Count(s, "<") + strings.Count(s, ">") + strings.Count(s, "'") + strings.Count(s, `"`)
	if !fits(len(s), n, 4) {
		return "", false
	}
	return markupEscaper.Replace(s), true
}

// Join returns strings.Join(parts, sep), reporting false, building
// nothing, when the result would be longer than runtime.MaxOutput.
func Join(parts []string, sep string) (string, bool) {
	n := 0
	for _, p := range parts {
		if n += len(p); n > runtime.MaxOutput {
			return "", false
		}
	}
	if !fits(n, len(parts)-1, len(sep)) {
		return "", false
	}
	return strings.Join(parts, sep), true
}

// Replace returns Python's s.replace(old, new, count) (strings.Replace with
// n = count; a negative count replaces all), reporting false, building
// nothing, when the result would be longer than runtime.MaxOutput.
func Replace(s, old, new string, n int) (string, bool) {
	if len(new) > len(old) {
		m := strings.Count(s, old)
		if n >= 0 {
			m = min(m, n)
		}
		if !fits(len(s), m, len(new)-len(old)) {
			return "", false
		}
	}
	return strings.Replace(s, old, new, n), true
}

// isSpace reports Python's str.isspace for one code point: bidirectional
// class WS, B or S, or category Zs. Unlike unicode.IsSpace it includes the
// information separators U+001C..U+001F.
func isSpace(r rune) bool {
	switch {
	case r <= ' ':
		return r == ' ' || '\t' <= r && r <= '\r' || 0x1c <= r && r <= 0x1f
	case r < 0x85:
		return false
	case r <= 0xa0:
		return r == 0x85 || r == 0xa0
	case r < 0x1680:
		return false
	}
	switch r {
	case 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return 0x2000 <= r && r <= 0x200a
}

// StripSpace returns Python's s.strip(), s.lstrip() or s.rstrip() without
// arguments, trimming the left and/or right end: whitespace is Python's
// str.isspace set, which includes U+001C..U+001F.
func StripSpace(s string, left, right bool) string {
	return strip(s, left, right, isSpace)
}

// StripChars returns Python's s.strip(chars), s.lstrip(chars) or
// s.rstrip(chars), trimming the left and/or right end: every code point in
// chars is removed; an empty chars removes nothing.
func StripChars(s, chars string, left, right bool) string {
	return strip(s, left, right, func(r rune) bool { return strings.ContainsRune(chars, r) })
}

func strip(s string, left, right bool, cut func(rune) bool) string {
	if left {
		for len(s) > 0 {
			r, size := decodeRune(s, 0)
			if !cut(r) {
				break
			}
			s = s[size:]
		}
	}
	if right {
		for len(s) > 0 {
			r, size := utf8.DecodeLastRuneInString(s)
			if !cut(r) {
				break
			}
			s = s[:len(s)-size]
		}
	}
	return s
}

// errEmptySeparator is Python's ValueError for str.split("").
var errEmptySeparator = errors.New("empty separator")

// Split returns Python's s.split(sep, maxsplit), or s.split(None, maxsplit)
// when hasSep is false: without a separator it splits on runs of
// str.isspace whitespace and drops empty strings; a negative maxsplit means
// no limit. An empty sep is an error, as Python raises ValueError. The
// result shares memory with s.
func Split(s, sep string, hasSep bool, maxsplit int) ([]string, error) {
	if !hasSep {
		return splitSpace(s, maxsplit), nil
	}
	if sep == "" {
		return nil, errEmptySeparator
	}
	n := -1
	if maxsplit >= 0 {
		n = maxsplit + 1
	}
	return strings.SplitN(s, sep, n), nil
}

func splitSpace(s string, maxsplit int) []string {
	var parts []string
	for {
		s = StripSpace(s, true, false)
		if s == "" {
			return parts
		}
		if maxsplit == len(parts) {
			// The rest keeps its trailing whitespace, as in Python.
			return append(parts, s)
		}
		end := strings.IndexFunc(s, isSpace)
		if end < 0 {
			return append(parts, s)
		}
		parts = append(parts, s[:end])
		s = s[end:]
	}
}

// Indent returns the Jinja2 3.1 indent filter of s, with the width already
// turned into the indent string: every line after the first gets indent
// prepended, the first line too when first is set, and empty lines only
// when blank is set. Lines are split as by str.splitlines, so every line
// break (\r\n, \r, \v, \f, \x1c-\x1e, \x85, U+2028, U+2029) becomes "\n".
// It reports false, building nothing, when the result would be longer than
// runtime.MaxOutput.
func Indent(s, indent string, first, blank bool) (string, bool) {
	lines := 0
	for range indentLines(s) {
		lines++
	}
	if !fits(len(s), lines, len(indent)) {
		return "", false
	}
	var b strings.Builder
	b.Grow(len(s) + lines*len(indent))
	n := 0
	for line := range indentLines(s) {
		if n > 0 {
			b.WriteByte('\n')
		}
		if n == 0 && first || n > 0 && (blank || line != "") {
			b.WriteString(indent)
		}
		b.WriteString(line)
		n++
	}
	return b.String(), true
}

// indentLines yields (s + "\n").splitlines(), which the indent filter
// splits so that a trailing line break leaves an empty last line.
func indentLines(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		start := 0
		for i := 0; i < len(s); {
			r, size := decodeRune(s, i)
			if !isLineBreak(r) {
				i += size
				continue
			}
			if !yield(s[start:i]) {
				return
			}
			if r == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				size++
			}
			i += size
			start = i
		}
		// The appended "\n" ends the last line, unless it pairs with a final "\r".
		if !strings.HasSuffix(s, "\r") {
			yield(s[start:])
		}
	}
}

// isLineBreak reports whether str.splitlines breaks lines at r.
func isLineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// TruncateArgs returns the error of Jinja2's truncate filter for its
// arguments, whatever the string: its asserts require length >= len(end)
// and leeway >= 0.
func TruncateArgs(length int, end string, leeway int) error {
	if n := utf8.RuneCountInString(end); length < n {
		return fmt.Errorf("expected length >= %d, got %d", n, length)
	}
	if leeway < 0 {
		return fmt.Errorf("expected leeway >= 0, got %d", leeway)
	}
	return nil
}

// Truncate returns the Jinja2 truncate filter of s, counting code points:
// s itself when it is at most length+leeway long, otherwise its first
// length-len(end) code points, cut back to before the last space unless
// killwords is set, followed by end. Jinja's default leeway is 5. Jinja
// asserts length >= len(end) and leeway >= 0; the caller must check that
// with TruncateArgs to raise the same error, otherwise the result is what
// Python computes with assertions disabled (a negative prefix length counts
// from the end).
func Truncate(s string, length int, killwords bool, end string, leeway int) string {
	n := utf8.RuneCountInString(s)
	if n-leeway <= length { // n <= length+leeway, without overflow for leeway >= 0
		return s
	}
	head := s[:runeOffset(s, n, length-utf8.RuneCountInString(end))]
	if !killwords {
		if i := strings.LastIndexByte(head, ' '); i >= 0 {
			head = head[:i]
		}
	}
	return head + end
}

// TruncateMarkup returns Jinja2's truncate filter of Markup s with a
// plain end: Truncate, which counts the end as it is, but Markup's +
// appends the end escaped (Escape). It reports false, building nothing,
// when the result would be longer than runtime.MaxOutput.
func TruncateMarkup(s string, length int, killwords bool, end string, leeway int) (string, bool) {
	if utf8.RuneCountInString(s)-leeway <= length {
		return s, true
	}
	esc, ok := Escape(end)
	if !ok {
		return "", false
	}
	t := Truncate(s, length, killwords, end, leeway)
	head := t[:len(t)-len(end)]
	if len(head)+len(esc) > runtime.MaxOutput {
		return "", false
	}
	return head + esc, true
}

// runeOffset returns the byte offset in s, which has n code points, of the
// Python slice bound i: negative i counts from the end, and i is clamped to
// [0, n].
func runeOffset(s string, n, i int) int {
	if i < 0 {
		i = max(i+n, 0)
	}
	if i >= n {
		return len(s)
	}
	if n == len(s) { // ASCII
		return i
	}
	off := 0
	for ; i > 0; i-- {
		_, size := decodeRune(s, off)
		off += size
	}
	return off
}
