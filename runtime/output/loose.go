package output

// This file is the tolerant reader of what models write for JSON: the
// first pass of schema-aligned parsing (issue 24). It reads a value the way
// a careful person would, records each repair on the node where it made it,
// and never fails: what it cannot read it keeps as a word. The coercion
// pass, led by the schema, decides what the tree means.
//
// It is linear in its input by construction: every byte is consumed once,
// and the only look-ahead (after a quote inside a string) skips blanks that
// are then consumed. Nesting is bounded by maxLooseDepth.

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// looseKind is the kind of a node the tolerant reader made.
type looseKind uint8

const (
	looseObject looseKind = iota
	looseArray
	looseString // a quoted string, text unescaped
	looseNumber // a JSON number literal, text as written
	looseWord   // unquoted text: true, None, an unquoted value, prose
)

// Repairs the tolerant reader makes, as a node records them.
const (
	repairComment       = "comment removed"
	repairTrailingComma = "trailing comma removed"
	repairExtraComma    = "extra comma removed"
	repairMissingComma  = "missing comma added"
	repairMissingColon  = "missing colon added"
	repairUnquotedKey   = "unquoted key"
	repairUnquotedValue = "unquoted string"
	repairSingleQuotes  = "single-quoted string"
	repairBacktick      = "backtick-quoted string"
	repairTripleQuotes  = "triple-quoted string"
	repairInnerQuote    = "unescaped quote kept in the string"
	repairRawNewline    = "raw newline kept in the string"
	repairBadEscape     = "invalid escape kept as written"
	repairWrongBracket  = "wrong closing bracket"
	repairMissingClose  = "missing closing bracket added"
	repairEllipsis      = "ellipsis removed"
	repairMissingValue  = "member without a value dropped"
	repairUnclosed      = "closed where the text ended"
	repairTooDeep       = "nesting too deep: kept as text"
)

// maxLooseDepth bounds the nesting the reader follows; deeper text is kept
// as a word, so no input can exhaust the stack.
const maxLooseDepth = 512

// loose is one value as the tolerant reader read it.
type loose struct {
	kind  looseKind
	text  string   // a string's contents, a number's literal, a word
	keys  []string // an object's member names, in order, duplicates kept
	elems []*loose // an object's member values (by keys) or an array's elements
	// closed is false when the text ended inside the value.
	closed  bool
	repairs []string
	// start and end are the value's byte offsets in the text.
	start, end int
}

func (n *loose) repair(r string) { n.repairs = append(n.repairs, r) }

// looseReader reads values from s.
type looseReader struct {
	s string
	i int
	// open holds the opening bracket of each value being read, outermost
	// first; its length is the depth.
	open []byte
}

// readLoose reads the value that starts at s[from:] (after blanks and
// comments) and returns it with the offset where it ends; nil when only
// blanks and comments follow.
func readLoose(s string, from int) (*loose, int) {
	r := &looseReader{s: s, i: from}
	var comments []string
	r.skip(&comments)
	if r.i >= len(s) {
		return nil, r.i
	}
	v := r.value(false)
	v.repairs = append(comments, v.repairs...)
	return v, r.i
}

// skip consumes blanks and comments, recording each comment in repairs.
func (r *looseReader) skip(repairs *[]string) {
	for r.i < len(r.s) {
		switch c := r.s[r.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			r.i++
		case strings.HasPrefix(r.s[r.i:], "//"):
			end := strings.IndexByte(r.s[r.i:], '\n')
			if end < 0 {
				end = len(r.s) - r.i
			}
			r.i += end
			*repairs = append(*repairs, repairComment)
		case strings.HasPrefix(r.s[r.i:], "/*"):
			end := strings.Index(r.s[r.i+2:], "*/")
			if end < 0 {
				r.i = len(r.s)
			} else {
				r.i += 2 + end + 2
			}
			*repairs = append(*repairs, repairComment)
		default:
			return
		}
	}
}

// value reads one value at r.i, which is not a blank. inContainer says
// whether a comma, a closing bracket or a line end ends an unquoted word.
func (r *looseReader) value(inContainer bool) *loose {
	switch c := r.s[r.i]; {
	case c == '{' || c == '[':
		if len(r.open) >= maxLooseDepth {
			start := r.i
			r.i = len(r.s)
			n := &loose{kind: looseWord, text: r.s[start:], start: start, end: r.i}
			n.repair(repairTooDeep)
			return n
		}
		r.open = append(r.open, c)
		defer func() { r.open = r.open[:len(r.open)-1] }()
		if c == '{' {
			return r.object()
		}
		return r.array()
	case c == '"' || c == '\'' || c == '`':
		return r.str()
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		if n := r.number(); n != nil {
			return n
		}
	}
	n := r.word(inContainer, false)
	n.repair(repairUnquotedValue)
	return n
}

// object reads an object; r.i is at its '{'.
func (r *looseReader) object() *loose {
	n := &loose{kind: looseObject, start: r.i}
	r.i++
	for {
		r.skip(&n.repairs)
		if r.i >= len(r.s) {
			n.repair(repairUnclosed)
			n.end = r.i
			return n
		}
		switch r.s[r.i] {
		case '}':
			r.i++
			n.closed, n.end = true, r.i
			return n
		case ']':
			r.closeOther(n)
			return n
		case ',':
			r.i++
			n.repair(repairExtraComma)
			continue
		}
		if r.ellipsis() {
			n.repair(repairEllipsis)
			continue
		}
		n.keys = append(n.keys, r.key(n))
		r.skip(&n.repairs)
		if r.i < len(r.s) && r.s[r.i] == ':' {
			r.i++
		} else {
			n.repair(repairMissingColon)
		}
		r.skip(&n.repairs)
		if r.i >= len(r.s) || r.s[r.i] == '}' || r.s[r.i] == ',' {
			// A key without a value: the value is missing, as in a
			// truncated answer; the coercion decides.
			n.keys = n.keys[:len(n.keys)-1]
			if r.i < len(r.s) {
				n.repair(repairMissingValue)
			}
			continue
		}
		n.elems = append(n.elems, r.value(true))
		r.separator(n, '}')
	}
}

// array reads an array; r.i is at its '['.
func (r *looseReader) array() *loose {
	n := &loose{kind: looseArray, start: r.i}
	r.i++
	for {
		r.skip(&n.repairs)
		if r.i >= len(r.s) {
			n.repair(repairUnclosed)
			n.end = r.i
			return n
		}
		switch r.s[r.i] {
		case ']':
			r.i++
			n.closed, n.end = true, r.i
			return n
		case '}':
			r.closeOther(n)
			return n
		case ',':
			r.i++
			n.repair(repairExtraComma)
			continue
		}
		if r.ellipsis() {
			n.repair(repairEllipsis)
			continue
		}
		n.elems = append(n.elems, r.value(true))
		r.separator(n, ']')
	}
}

// closeOther ends n at the other kind of closing bracket. When a value
// around n opens with that bracket, the bracket is its, and n's own was
// left out ({"a": [1, 2}); otherwise it is n's, written wrong.
func (r *looseReader) closeOther(n *loose) {
	opening := byte('{')
	if r.s[r.i] == ']' {
		opening = '['
	}
	if bytes.IndexByte(r.open[:len(r.open)-1], opening) >= 0 {
		n.repair(repairMissingClose)
	} else {
		r.i++
		n.repair(repairWrongBracket)
	}
	n.closed, n.end = true, r.i
}

// separator consumes what follows a member or element of n: a comma (a
// trailing one before the closing bracket is a repair), the closing
// bracket, or nothing, which is a missing comma.
func (r *looseReader) separator(n *loose, closing byte) {
	r.skip(&n.repairs)
	if r.i >= len(r.s) {
		return
	}
	switch r.s[r.i] {
	case ',':
		r.i++
		r.skip(&n.repairs)
		if r.i < len(r.s) && (r.s[r.i] == closing || r.s[r.i] == '}' || r.s[r.i] == ']') {
			n.repair(repairTrailingComma)
		}
	case '}', ']':
	default:
		n.repair(repairMissingComma)
	}
}

// ellipsis consumes "..." or "…" standing for elided members.
func (r *looseReader) ellipsis() bool {
	for _, e := range []string{"...", "…"} {
		if strings.HasPrefix(r.s[r.i:], e) {
			r.i += len(e)
			return true
		}
	}
	return false
}

// key reads a member name of object n: quoted, or unquoted up to the colon.
func (r *looseReader) key(n *loose) string {
	switch r.s[r.i] {
	case '"', '\'', '`':
		k := r.str()
		n.repairs = append(n.repairs, k.repairs...)
		return k.text
	}
	k := r.word(true, true)
	n.repair(repairUnquotedKey)
	return k.text
}

// word reads unquoted text. In a container it ends at a comma, a closing
// bracket or a line end; a key also ends at a colon. At the top level it is
// the rest of the text.
func (r *looseReader) word(inContainer, isKey bool) *loose {
	start := r.i
	for r.i < len(r.s) {
		c := r.s[r.i]
		if inContainer && (c == ',' || c == '}' || c == ']' || c == '\n') || isKey && c == ':' {
			break
		}
		r.i++
	}
	if r.i == start { // a stray closing bracket or colon where a value belongs
		r.i++
	}
	return &loose{kind: looseWord, text: strings.TrimSpace(r.s[start:r.i]), closed: true, start: start, end: r.i}
}

// number reads a JSON number, or returns nil (r.i unchanged) when the text
// there is not one followed by a delimiter: "12abc" is a word.
func (r *looseReader) number() *loose {
	start, i := r.i, r.i
	if i < len(r.s) && (r.s[i] == '-' || r.s[i] == '+') {
		i++
	}
	digits := 0
	for i < len(r.s) && (r.s[i] >= '0' && r.s[i] <= '9' || r.s[i] == '.') {
		digits++
		i++
	}
	if digits == 0 {
		return nil
	}
	if i < len(r.s) && (r.s[i] == 'e' || r.s[i] == 'E') {
		j := i + 1
		if j < len(r.s) && (r.s[j] == '-' || r.s[j] == '+') {
			j++
		}
		if j < len(r.s) && r.s[j] >= '0' && r.s[j] <= '9' {
			for j < len(r.s) && r.s[j] >= '0' && r.s[j] <= '9' {
				j++
			}
			i = j
		}
	}
	if i < len(r.s) && !strings.ContainsRune(" \t\r\n,}]:/", rune(r.s[i])) {
		return nil
	}
	r.i = i
	// A number cut by the end of the text may be cut short ("12" of
	// "125"): it is not closed.
	return &loose{kind: looseNumber, text: r.s[start:i], closed: i < len(r.s), start: start, end: i}
}

// str reads a quoted string; r.i is at its quote. A quote that does not
// end the structure there (followed by a delimiter, a colon or the end of
// the text) is taken as part of the string.
func (r *looseReader) str() *loose {
	n := &loose{kind: looseString, start: r.i}
	q := r.s[r.i]
	delim := string(q)
	switch {
	case strings.HasPrefix(r.s[r.i:], `"""`) || strings.HasPrefix(r.s[r.i:], "'''"):
		delim = r.s[r.i : r.i+3]
		n.repair(repairTripleQuotes)
	case q == '\'':
		n.repair(repairSingleQuotes)
	case q == '`':
		n.repair(repairBacktick)
	}
	r.i += len(delim)
	var b strings.Builder
	for r.i < len(r.s) {
		c := r.s[r.i]
		switch {
		case strings.HasPrefix(r.s[r.i:], delim) && (len(delim) == 3 || r.endsValue(r.i+1)):
			r.i += len(delim)
			n.text, n.closed, n.end = b.String(), true, r.i
			return n
		case c == '\\' && len(delim) == 1:
			r.escape(&b, n)
			continue
		case c == q && len(delim) == 1:
			n.repair(repairInnerQuote)
		case c == '\n' && len(delim) == 1:
			n.repair(repairRawNewline)
		}
		b.WriteByte(c)
		r.i++
	}
	n.text, n.end = b.String(), r.i
	n.repair(repairUnclosed)
	return n
}

// endsValue reports whether a quote before offset i ends its string: what
// follows, after blanks, is a delimiter, a colon, another string (a comma
// left out) or the end of the text.
func (r *looseReader) endsValue(i int) bool {
	for i < len(r.s) && (r.s[i] == ' ' || r.s[i] == '\t' || r.s[i] == '\r') {
		i++
	}
	return i >= len(r.s) || strings.IndexByte(",}]:\n\"'", r.s[i]) >= 0 || strings.HasPrefix(r.s[i:], "//") || strings.HasPrefix(r.s[i:], "/*")
}

// escape reads a backslash escape at r.i into b.
func (r *looseReader) escape(b *strings.Builder, n *loose) {
	if r.i+1 >= len(r.s) {
		r.i++
		return
	}
	c := r.s[r.i+1]
	if simple := strings.IndexByte(`"\/bfnrt'`, c); simple >= 0 {
		b.WriteByte("\"\\/\b\f\n\r\t'"[simple])
		r.i += 2
		return
	}
	if c == 'u' && r.i+6 <= len(r.s) {
		if v, ok := hex4(r.s[r.i+2 : r.i+6]); ok {
			r.i += 6
			if v >= 0xD800 && v < 0xDC00 && strings.HasPrefix(r.s[r.i:], `\u`) && r.i+6 <= len(r.s) {
				if lo, ok := hex4(r.s[r.i+2 : r.i+6]); ok && lo >= 0xDC00 && lo < 0xE000 {
					r.i += 6
					b.WriteRune(rune((v-0xD800)<<10|(lo-0xDC00)) + 0x10000)
					return
				}
			}
			if v >= 0xD800 && v < 0xE000 {
				b.WriteRune(utf8.RuneError)
				return
			}
			b.WriteRune(rune(v))
			return
		}
	}
	n.repair(repairBadEscape)
	b.WriteByte('\\')
	r.i++
}

// hex4 parses four hex digits.
func hex4(s string) (int, bool) {
	v := 0
	for i := 0; i < 4; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | int(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | int(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | int(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}
