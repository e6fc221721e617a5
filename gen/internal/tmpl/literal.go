package tmpl

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

func isDigit(c byte) bool    { return '0' <= c && c <= '9' }
func isOctDigit(c byte) bool { return '0' <= c && c <= '7' }
func isBinDigit(c byte) bool { return c == '0' || c == '1' }
func isZero(c byte) bool     { return c == '0' }
func isHexDigit(c byte) bool {
	return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f'
}

// scanNumber scans a float or an integer literal at pos, which is a digit.
func (lx *lexer) scanNumber() (token, *Error) {
	s, start := lx.src, lx.pos
	// Jinja2's float rule does not match right after a ".", so that x.0.1
	// reads as x[0][1].
	if start == 0 || s[start-1] != '.' {
		if end := floatEnd(s, start); end >= 0 {
			lx.pos = end
			f, err := strconv.ParseFloat(strings.ReplaceAll(s[start:end], "_", ""), 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) { // ±Inf on overflow, as in Python
				return token{}, errorf(Span{start, end}, "invalid float literal")
			}
			return token{kind: tokFloat, val: f}, nil
		}
	}
	end, base := intEnd(s, start)
	lx.pos = end
	digits := strings.ReplaceAll(s[start:end], "_", "")
	if base != 10 {
		digits = digits[2:]
	}
	n, err := strconv.ParseInt(digits, base, 64)
	if err != nil {
		return token{}, errorf(Span{start, end}, "integer literal out of range")
	}
	return token{kind: tokInt, val: n}, nil
}

// floatEnd matches Jinja2's float rule at p and returns its end, or -1:
// digits, then a fraction and an exponent, an exponent, or a fraction.
func floatEnd(s string, p int) int {
	intPart := digitRun(s, p)
	if intPart < 0 {
		return -1
	}
	fraction := -1
	if intPart < len(s) && s[intPart] == '.' {
		fraction = digitRun(s, intPart+1)
	}
	if fraction >= 0 {
		if end := exponentEnd(s, fraction); end >= 0 {
			return end
		}
	}
	if end := exponentEnd(s, intPart); end >= 0 {
		return end
	}
	return fraction
}

// exponentEnd matches e[+-]?digits at p and returns its end, or -1.
func exponentEnd(s string, p int) int {
	if p >= len(s) || s[p]|0x20 != 'e' {
		return -1
	}
	p++
	if p < len(s) && (s[p] == '+' || s[p] == '-') {
		p++
	}
	return digitRun(s, p)
}

// digitRun matches decimal digits with single underscores between them at p
// and returns their end, or -1.
func digitRun(s string, p int) int {
	if p >= len(s) || !isDigit(s[p]) {
		return -1
	}
	return underscoredRun(s, p+1, isDigit)
}

// underscoredRun matches (_?D)* at p, D being a digit per isDigit.
func underscoredRun(s string, p int, isDigit func(byte) bool) int {
	for {
		switch {
		case p < len(s) && isDigit(s[p]):
			p++
		case p+1 < len(s) && s[p] == '_' && isDigit(s[p+1]):
			p += 2
		default:
			return p
		}
	}
}

// intEnd matches Jinja2's integer rule at p, which is a digit: 0b, 0o or 0x
// prefixed digits, a decimal without leading zeros, or zeros.
func intEnd(s string, p int) (end, base int) {
	if s[p] != '0' {
		return underscoredRun(s, p+1, isDigit), 10
	}
	if p+1 < len(s) {
		prefixes := []struct {
			letter  byte
			base    int
			isDigit func(byte) bool
		}{{'b', 2, isBinDigit}, {'o', 8, isOctDigit}, {'x', 16, isHexDigit}}
		for _, pre := range prefixes {
			if s[p+1]|0x20 != pre.letter {
				continue
			}
			if end := underscoredRun(s, p+2, pre.isDigit); end > p+2 {
				return end, pre.base
			}
		}
	}
	return underscoredRun(s, p+1, isZero), 10
}

// scanName scans a run of identifier characters at pos, which must form an
// identifier.
func (lx *lexer) scanName() (token, *Error) {
	start := lx.pos
	for lx.pos < len(lx.src) {
		r, size := utf8.DecodeRuneInString(lx.src[lx.pos:])
		if !isWordRune(r) {
			break
		}
		lx.pos += size
	}
	name := lx.src[start:lx.pos]
	if !isIdentifier(name) {
		return token{}, errorf(Span{start, lx.pos}, "invalid character in identifier")
	}
	return token{kind: tokName, text: name}, nil
}

// isWordRune approximates the characters of Jinja2's name rule: Python's \w
// and the combining characters that may continue an identifier.
func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) ||
		unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc) || r == '\u00b7' || r == '\u0387'
}

// isIdentifier approximates Python's str.isidentifier.
func isIdentifier(s string) bool {
	for i, r := range s {
		start := r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r)
		if !start && (i == 0 || !unicode.In(r, unicode.Nd, unicode.Mn, unicode.Mc, unicode.Pc) && r != '\u00b7' && r != '\u0387') {
			return false
		}
	}
	return true
}

// scanString scans a quoted string literal at pos.
func (lx *lexer) scanString() (token, *Error) {
	s, start := lx.src, lx.pos
	quote := s[start]
	for i := start + 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // a backslash escapes any character
		case quote:
			lx.pos = i + 1
			value, err := unescape(s[start+1:i], start+1)
			return token{kind: tokString, val: value}, err
		}
	}
	return token{}, errorf(Span{start, len(s)}, "unterminated string literal")
}

// unescape decodes the body of a string literal, which starts at offset base
// in the source, the way Jinja2 does: newlines are normalised, then Python's
// unicode_escape codec decodes escapes after non-ASCII characters were
// replaced by backslash escapes.
func unescape(s string, base int) (string, *Error) {
	if !strings.ContainsAny(s, "\\\r") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		switch s[i] {
		case '\r':
			b.WriteByte('\n')
			i = skipNewline(s, i)
		case '\\':
			n, err := unescapeOne(&b, s, i)
			if err != nil {
				err.Span.Start += base
				err.Span.End += base
				return "", err
			}
			i += n
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String(), nil
}

var simpleEscapes = map[byte]byte{
	'\\': '\\', '\'': '\'', '"': '"',
	'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v',
}

// unescapeOne decodes the escape at s[i] (a backslash followed by at least
// one character) into b and returns its length. Error spans are relative to s.
func unescapeOne(b *strings.Builder, s string, i int) (int, *Error) {
	c := s[i+1]
	if r, ok := simpleEscapes[c]; ok {
		b.WriteByte(r)
		return 2, nil
	}
	switch {
	case c == '\n' || c == '\r': // line continuation
		return skipNewline(s, i+1) - i, nil
	case isOctDigit(c):
		n, end := 0, i+1
		for ; end < len(s) && end < i+4 && isOctDigit(s[end]); end++ {
			n = n*8 + int(s[end]-'0')
		}
		b.WriteRune(rune(n))
		return end - i, nil
	case c == 'x' || c == 'u' || c == 'U':
		return unescapeHex(b, s, i)
	case c == 'N':
		return 0, errorf(Span{i, i + 2}, `\N{...} escapes are not supported`)
	case c >= utf8.RuneSelf:
		// The backslash escapes the first character of the backslash escape
		// Python substituted for c, so the rest of that escape is literal.
		r, size := utf8.DecodeRuneInString(s[i+1:])
		switch {
		case r < 0x100:
			fmt.Fprintf(b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			fmt.Fprintf(b, `\U%08x`, r)
		}
		return 1 + size, nil
	}
	b.WriteByte('\\') // unknown escapes are kept
	b.WriteByte(c)
	return 2, nil
}

// unescapeHex decodes a \xXX, \uXXXX or \UXXXXXXXX escape at s[i].
func unescapeHex(b *strings.Builder, s string, i int) (int, *Error) {
	width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[i+1]]
	end := i + 2
	for end < len(s) && end < i+2+width && isHexDigit(s[end]) {
		end++
	}
	if end-(i+2) < width {
		return 0, errorf(Span{i, end}, `truncated \%c%s escape`, s[i+1], strings.Repeat("X", width))
	}
	n, _ := strconv.ParseUint(s[i+2:end], 16, 32)
	if n > unicode.MaxRune {
		return 0, errorf(Span{i, end}, "illegal Unicode character")
	}
	b.WriteRune(rune(n))
	return end - i, nil
}
