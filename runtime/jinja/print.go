package jinja

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// AppendFloat appends Python's repr (and str) of f, which is how Jinja2
// prints a float: the shortest round-tripping digits, in positional notation
// with at least one fractional digit ("1.0", "0.0001", "123456789012345.0")
// when the decimal exponent is in [-4, 16), otherwise in exponent notation
// ("1e-05", "1e+16", "2.5e+300"), and "inf", "-inf" or "nan".
func AppendFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "nan"...)
	case math.IsInf(f, 1):
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-inf"...)
	}
	start := len(dst)
	// Go's shortest %e output is exactly Python's exponent notation, two-digit
	// exponent minimum included, so only positional notation needs rewriting.
	dst = strconv.AppendFloat(dst, f, 'e', -1, 64)
	e := len(dst) - 1
	for dst[e] != 'e' {
		e--
	}
	exp := 0
	for _, c := range dst[e+2:] {
		exp = exp*10 + int(c-'0')
	}
	if dst[e+1] == '-' {
		exp = -exp
	}
	if exp < -4 || exp >= 16 {
		return dst
	}

	var digits [17]byte // a float64 needs at most 17 significant digits
	nd := 0
	neg := dst[start] == '-'
	for _, c := range dst[start:e] {
		if '0' <= c && c <= '9' {
			digits[nd] = c
			nd++
		}
	}
	dst = dst[:start]
	if neg {
		dst = append(dst, '-')
	}
	return appendPositional(dst, digits[:nd], exp)
}

// appendPositional appends the decimal number 0.digits × 10^(exp+1) without
// an exponent and with at least one digit after the point.
func appendPositional(dst, digits []byte, exp int) []byte {
	switch intDigits := exp + 1; {
	case intDigits <= 0:
		dst = append(dst, '0', '.')
		for range -intDigits {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	case intDigits >= len(digits):
		dst = append(dst, digits...)
		for range intDigits - len(digits) {
			dst = append(dst, '0')
		}
		return append(dst, '.', '0')
	default:
		dst = append(dst, digits[:intDigits]...)
		dst = append(dst, '.')
		return append(dst, digits[intDigits:]...)
	}
}

// FormatFloat returns Python's repr of f; see AppendFloat.
func FormatFloat(f float64) string {
	var buf [32]byte
	return string(AppendFloat(buf[:0], f))
}

// AppendBool appends Python's str of a bool: "True" or "False".
func AppendBool(dst []byte, b bool) []byte {
	if b {
		return append(dst, "True"...)
	}
	return append(dst, "False"...)
}

// AppendQuoted appends Python's repr of the str s, as used when Jinja2
// prints a list or dict: single quotes unless s contains a single quote and
// no double quote; backslash, the chosen quote, \t, \n and \r escaped with a
// backslash; other characters that are not str.isprintable() escaped as
// \xhh, \uhhhh or \Uhhhhhhhh. Invalid UTF-8 bytes are written as U+FFFD.
func AppendQuoted(dst []byte, s string) []byte {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	dst = append(dst, quote)
	for i := 0; i < len(s); {
		// Copy runs that need no escaping in one go.
		j := i
		for j < len(s) && ' ' <= s[j] && s[j] < 0x7f && s[j] != quote && s[j] != '\\' {
			j++
		}
		dst = append(dst, s[i:j]...)
		if i = j; i == len(s) {
			break
		}
		if c := s[i]; c < utf8.RuneSelf {
			dst = appendQuotedASCII(dst, c, quote)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsPrint(r) {
			// Copy the encoding of r, not s[i:i+size], so an invalid byte becomes U+FFFD.
			dst = utf8.AppendRune(dst, r)
		} else {
			dst = appendEscapedRune(dst, r)
		}
		i += size
	}
	return append(dst, quote)
}

// appendQuotedASCII appends the escape of an ASCII byte that repr does not
// copy as is.
func appendQuotedASCII(dst []byte, c, quote byte) []byte {
	switch {
	case c == quote || c == '\\':
		return append(dst, '\\', c)
	case c == '\t':
		return append(dst, '\\', 't')
	case c == '\n':
		return append(dst, '\\', 'n')
	case c == '\r':
		return append(dst, '\\', 'r')
	}
	return appendEscapedRune(dst, rune(c)) // control characters and DEL
}

// appendEscapedRune appends the shortest of Python's \x, \u and \U escapes
// that holds r.
func appendEscapedRune(dst []byte, r rune) []byte {
	switch {
	case r <= 0xff:
		return appendHex(append(dst, '\\', 'x'), uint32(r), 2)
	case r <= 0xffff:
		return appendHex(append(dst, '\\', 'u'), uint32(r), 4)
	}
	return appendHex(append(dst, '\\', 'U'), uint32(r), 8)
}

// appendHex appends the n low hex digits of v, lower case.
func appendHex(dst []byte, v uint32, n int) []byte {
	for shift := 4 * (n - 1); shift >= 0; shift -= 4 {
		dst = append(dst, hexDigits[v>>shift&0xf])
	}
	return dst
}
