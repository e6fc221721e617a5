package jinja

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// specialCase holds the full case mappings of a code point that has at
// least one multi-code-point mapping (Unicode SpecialCasing.txt).
type specialCase struct {
	r                   rune
	lower, upper, title string
}

// lookupSpecial returns the special case entry for r, or nil.
func lookupSpecial(r rune) *specialCase {
	if r < specialCases[0].r {
		return nil
	}
	i, ok := slices.BinarySearchFunc(specialCases[:], r, func(sc specialCase, r rune) int {
		return int(sc.r - r)
	})
	if !ok {
		return nil
	}
	return &specialCases[i]
}

// A caseMapping is the full mapping of one code point: the rune r, or the
// string s when it is not empty.
type caseMapping struct {
	r rune
	s string
}

// upperOf returns the full uppercase mapping of r, as str.upper maps it.
func upperOf(r rune) caseMapping {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' {
			r -= 'a' - 'A'
		}
		return caseMapping{r: r}
	}
	if sc := lookupSpecial(r); sc != nil {
		return caseMapping{s: sc.upper}
	}
	return caseMapping{r: unicode.ToUpper(r)}
}

// titleOf returns the full titlecase mapping of r, as str.title maps the
// first letter of a word.
func titleOf(r rune) caseMapping {
	if r < utf8.RuneSelf {
		return upperOf(r)
	}
	if sc := lookupSpecial(r); sc != nil {
		return caseMapping{s: sc.title}
	}
	return caseMapping{r: unicode.ToTitle(r)}
}

// lowerAt returns the full lowercase mapping of the code point r at s[i:j],
// where s is the whole string being lowered: Python maps U+03A3 to final
// sigma depending on its neighbours in s.
func lowerAt(s string, i, j int, r rune) caseMapping {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return caseMapping{r: r}
	}
	if r == 'Σ' {
		if isFinalSigma(s, i, j) {
			return caseMapping{r: 'ς'}
		}
		return caseMapping{r: 'σ'}
	}
	if sc := lookupSpecial(r); sc != nil {
		return caseMapping{s: sc.lower}
	}
	return caseMapping{r: unicode.ToLower(r)}
}

// isFinalSigma reports whether the capital sigma at s[i:j] is in Unicode's
// Final_Sigma context, as CPython's handle_capital_sigma decides it: a cased
// letter before it and none after it, skipping case-ignorable characters.
func isFinalSigma(s string, i, j int) bool {
	before := false
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		if !isCaseIgnorable(r) {
			before = isCased(r)
			break
		}
		i -= size
	}
	if !before {
		return false
	}
	for j < len(s) {
		r, size := utf8.DecodeRuneInString(s[j:])
		if !isCaseIgnorable(r) {
			return !isCased(r)
		}
		j += size
	}
	return true
}

// isCased reports the Unicode Cased property: Lowercase, Uppercase or Lt.
func isCased(r rune) bool {
	return unicode.IsLower(r) || unicode.IsUpper(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// isCaseIgnorable reports the Unicode Case_Ignorable property: categories
// Mn, Me, Cf, Lm and Sk plus Word_Break MidLetter, MidNumLet and Single_Quote.
func isCaseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '\u00B7', '\u0387', '\u055F', '\u05F4', '\u2018', '\u2019',
		'\u2024', '\u2027', '\uFE13', '\uFE52', '\uFE55', '\uFF07', '\uFF0E', '\uFF1A':
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// A caser builds a case-mapped copy of s lazily: as long as every code
// point maps to itself nothing is copied and String returns s.
type caser struct {
	s     string
	pos   int // s[:pos] has been written to b, once b is in use
	b     strings.Builder
	dirty bool
}

// put records that s[i:j], which decodes to r, maps to m.
func (c *caser) put(i, j int, r rune, m caseMapping) {
	if m.s == "" && m.r == r || m.s != "" && m.s == c.s[i:j] {
		return
	}
	if !c.dirty {
		c.dirty = true
		c.b.Grow(len(c.s) + 8)
	}
	c.b.WriteString(c.s[c.pos:i])
	if m.s != "" {
		c.b.WriteString(m.s)
	} else {
		c.b.WriteRune(m.r)
	}
	c.pos = j
}

// String returns the mapped string.
func (c *caser) String() string {
	if !c.dirty {
		return c.s
	}
	c.b.WriteString(c.s[c.pos:])
	return c.b.String()
}

// Upper returns Python's s.upper(): full Unicode uppercase mapping,
// including expansions such as ß → SS and ŉ → ʼN.
func Upper(s string) string {
	if isASCII(s) {
		return strings.ToUpper(s)
	}
	c := caser{s: s}
	for i := 0; i < len(s); {
		r, size := decodeRune(s, i)
		c.put(i, i+size, r, upperOf(r))
		i += size
	}
	return c.String()
}

// Lower returns Python's s.lower(): full Unicode lowercase mapping,
// including İ → i̇ and final sigma (Σ → ς at the end of a word).
func Lower(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	c := caser{s: s}
	lowerInto(&c, 0)
	return c.String()
}

// lowerInto lowercases c.s from byte offset from on, with all of c.s as the
// context for final sigma.
func lowerInto(c *caser, from int) {
	s := c.s
	for i := from; i < len(s); {
		r, size := decodeRune(s, i)
		c.put(i, i+size, r, lowerAt(s, i, i+size, r))
		i += size
	}
}

// Capitalize returns Python's s.capitalize(), which the Jinja2 capitalize
// filter calls: the first code point titlecased (ǆ → ǅ, ß → Ss), the rest
// lowercased.
func Capitalize(s string) string {
	if s == "" {
		return s
	}
	c := caser{s: s}
	r, size := decodeRune(s, 0)
	c.put(0, size, r, titleOf(r))
	lowerInto(&c, size)
	return c.String()
}

// PyTitle returns Python's s.title(): a code point is titlecased when the
// one before it is not cased and lowercased otherwise.
func PyTitle(s string) string {
	c := caser{s: s}
	prevCased := false
	for i := 0; i < len(s); {
		r, size := decodeRune(s, i)
		if prevCased {
			c.put(i, i+size, r, lowerAt(s, i, i+size, r))
		} else {
			c.put(i, i+size, r, titleOf(r))
		}
		prevCased = isCased(r)
		i += size
	}
	return c.String()
}

// Title returns the Jinja2 title filter (do_title), which is not
// str.title(): s is split into words by runs of whitespace and "-({[<",
// and each word becomes word[0].upper() + word[1:].lower(), so an
// apostrophe does not start a new word and ß at a word start becomes SS.
func Title(s string) string {
	c := caser{s: s}
	word := -1 // start of the current word, or -1 in a separator run
	for i := 0; i < len(s); {
		r, size := decodeRune(s, i)
		switch {
		case isTitleSeparator(r):
			titleWord(&c, word, i)
			word = -1
		case word < 0:
			word = i
		}
		i += size
	}
	titleWord(&c, word, len(s))
	return c.String()
}

// titleWord maps the word c.s[start:end] (none when start < 0) to
// word[0].upper() + word[1:].lower(). The lowered part is a string of its
// own in Python, so final sigma looks only inside it.
func titleWord(c *caser, start, end int) {
	if start < 0 {
		return
	}
	r, n := decodeRune(c.s, start)
	c.put(start, start+n, r, upperOf(r))
	rest, off := c.s[start+n:end], start+n
	for i := 0; i < len(rest); {
		r, size := decodeRune(rest, i)
		c.put(off+i, off+i+size, r, lowerAt(rest, i, i+size, r))
		i += size
	}
}

// isTitleSeparator matches one character of do_title's split regex
// [-\s({\[<]; \s is str.isspace in Python's re.
func isTitleSeparator(r rune) bool {
	switch r {
	case '-', '(', '{', '[', '<':
		return true
	}
	return isSpace(r)
}

// decodeRune decodes the code point at s[i:]; an invalid byte decodes to
// utf8.RuneError with size 1, which every mapping leaves alone, so the
// caser copies the byte through.
func decodeRune(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
