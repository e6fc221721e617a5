package chatformat

import (
	"sort"
	"strings"
	"unicode/utf8"
)

//go:generate /usr/bin/python3 testdata/gen_entities.py

// StripHTML returns s with its character references decoded and then every
// tag removed (prompt-utils' _strip_html): exactly Python's
// re.sub(r"<[^>]+>", "", html.unescape(s)). A "<" with no ">" after it, or
// directly followed by ">", stays, as do references that name nothing.
// Decoded references are stripped too, so "&lt;b&gt;" disappears.
// Invalid UTF-8 bytes are copied through.
func StripHTML(s string) string {
	s = unescapeHTML(s)
	i := strings.IndexByte(s, '<')
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for i < len(s) {
		k := strings.IndexByte(s[i:], '<')
		if k < 0 {
			break
		}
		i += k
		end := strings.IndexByte(s[i+1:], '>')
		if end < 0 {
			break // no ">" after any later "<" either
		}
		if end == 0 {
			i++ // "<>": [^>]+ needs a character
			continue
		}
		b.WriteString(s[last:i])
		last = i + 1 + end + 1
		i = last
	}
	b.WriteString(s[last:])
	return b.String()
}

// unescapeHTML is Python's html.unescape: it replaces every character
// reference matched by
//
//	&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)
//
// from left to right. A named reference is replaced when it is an HTML5
// name, or else by its longest prefix that is a name allowed without
// semicolon, the rest following as text. A numeric reference becomes its
// character, except as html._invalid_charrefs and _invalid_codepoints say.
func unescapeHTML(s string) string {
	i := strings.IndexByte(s, '&')
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for i < len(s) {
		if s[i] != '&' {
			k := strings.IndexByte(s[i:], '&')
			if k < 0 {
				k = len(s) - i
			}
			b.WriteString(s[i : i+k])
			i += k
			continue
		}
		n := charref(&b, s[i+1:])
		if n == 0 {
			b.WriteByte('&')
		}
		i += 1 + n
	}
	return b.String()
}

// charref decodes the reference at the start of s (after its "&") into b
// and returns its length, or returns 0 when s starts no reference.
func charref(b *strings.Builder, s string) int {
	if strings.HasPrefix(s, "#") {
		return numericRef(b, s)
	}
	// [^\t\n\f <&#;]{1,32};?
	n, count := 0, 0
	for n < len(s) && count < 32 {
		r, size := utf8.DecodeRuneInString(s[n:])
		if strings.ContainsRune("\t\n\f <&#;", r) {
			break
		}
		n += size
		count++
	}
	if n == 0 {
		return 0
	}
	if n < len(s) && s[n] == ';' {
		n++
	}
	name := s[:n]
	if v, ok := entity(name); ok {
		b.WriteString(v)
		return n
	}
	for x := min(len(name)-1, longestEntity); x >= 2; x-- {
		if v, ok := entity(name[:x]); ok {
			b.WriteString(v)
			b.WriteString(name[x:])
			return n
		}
	}
	b.WriteByte('&')
	b.WriteString(name)
	return n
}

// numericRef decodes "#[0-9]+;?" or "#[xX][0-9a-fA-F]+;?" at the start of s.
func numericRef(b *strings.Builder, s string) int {
	base, start := 10, 1
	if len(s) > 1 && (s[1] == 'x' || s[1] == 'X') {
		base, start = 16, 2
	}
	const tooBig = 0x110000
	num, n := 0, start
	for ; n < len(s); n++ {
		d := digitValue(s[n], base)
		if d < 0 {
			break
		}
		num = min(num*base+d, tooBig) // Python's int is unbounded: saturate
	}
	if n == start {
		return 0 // no digits: no alternative matches, not even a name
	}
	if n < len(s) && s[n] == ';' {
		n++
	}
	r := rune(num)
	switch v, ok := invalidCharrefs[r]; {
	case ok:
		b.WriteString(v)
	case 0xD800 <= r && r <= 0xDFFF || r >= tooBig:
		b.WriteRune(utf8.RuneError)
	case invalidCodepoint(r):
	default:
		b.WriteRune(r)
	}
	return n
}

func digitValue(c byte, base int) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case base == 16 && 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case base == 16 && 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// entity looks name up in the HTML5 table.
func entity(name string) (string, bool) {
	i := sort.Search(len(entities), func(i int) bool { return entities[i].name >= name })
	if i < len(entities) && entities[i].name == name {
		return entities[i].value, true
	}
	return "", false
}
