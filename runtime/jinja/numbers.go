package jinja

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Round returns the Jinja2 round filter of f with the given precision.
// Method "common" is Python's round(f, precision): f rounded to a multiple
// of 10^-precision, ties to even on the exact binary value (so round(2.675,
// 2) is 2.67). "ceil" and "floor" compute math.ceil/floor(f * 10**precision)
// / 10**precision with Python's exact integer arithmetic. Round fails
// where Jinja2 or Python raises: FilterArgumentError for another method,
// OverflowError when the result or, for ceil and floor, an intermediate
// value overflows, ValueError for ceil or floor of NaN, ZeroDivisionError
// when 10**precision underflows to 0.
func Round(f float64, precision int, method string) (float64, error) {
	if !roundMethod(method) {
		return 0, errRoundMethod
	}
	if method == "common" {
		r := roundCommon(f, precision)
		if math.IsInf(r, 0) && !math.IsInf(f, 0) {
			return 0, errors.New("rounded value too large to represent")
		}
		return r, nil
	}
	p := pow10(precision)
	switch x := f * p; {
	case math.IsInf(p, 0):
		return 0, errors.New("int too large to convert to float")
	case math.IsNaN(x):
		return 0, errors.New("cannot convert float NaN to integer")
	case math.IsInf(x, 0):
		return 0, errIntOfInfinity
	case p == 0:
		return 0, errors.New("float division by zero")
	}
	if method == "ceil" {
		return roundWith(f, precision, math.Ceil), nil
	}
	return roundWith(f, precision, math.Floor), nil
}

// errRoundMethod is Jinja2's error for a round method it lacks.
var errRoundMethod = errors.New("method must be common, ceil or floor")

// roundMethod reports whether Jinja2's round has method m.
func roundMethod(m string) bool { return m == "common" || m == "ceil" || m == "floor" }

// RoundInt returns Python's round(x, n) of an int, which Jinja2's round
// filter gives with the common method: x for n >= 0, else x rounded to a
// multiple of 10^-n, ties to even. It fails where the result is beyond
// int64 (round(2**63 - 1, -1)).
func RoundInt(x int64, n int) (int64, error) {
	switch {
	case n >= 0:
		return x, nil
	case n < -19:
		return 0, nil // 10^-n > 2|x|
	}
	pow := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-n)), nil)
	q, r := new(big.Int).DivMod(big.NewInt(x), pow, new(big.Int)) // floor division: pow > 0
	if c := new(big.Int).Lsh(r, 1).Cmp(pow); c > 0 || c == 0 && q.Bit(0) == 1 {
		q.Add(q, big.NewInt(1))
	}
	if q.Mul(q, pow); !q.IsInt64() {
		return 0, errIntTooLarge
	}
	return q.Int64(), nil
}

func roundCommon(f float64, n int) float64 {
	// CPython's bounds beyond which every double rounds to itself or to ±0.
	const maxDigits, minDigits = 323, -308
	switch {
	case math.IsInf(f, 0) || math.IsNaN(f) || n > maxDigits:
		return f
	case n < minDigits:
		return math.Copysign(0, f)
	case n >= 0:
		// %f formats the exact binary value, rounding half to even.
		var buf [64]byte
		return parseDecimal(strconv.AppendFloat(buf[:0], f, 'f', n, 64))
	}
	return roundToTens(f, -n)
}

// roundToTens rounds f to a multiple of 10^k, k > 0, half to even on the
// exact value: the exact integer digits decide, and a nonzero fraction
// breaks ties upwards.
func roundToTens(f float64, k int) float64 {
	whole, frac := math.Modf(math.Abs(f))
	var buf [310]byte // the integer part of a double has at most 309 digits
	digits := strconv.AppendFloat(buf[:0], whole, 'f', 0, 64)
	if k > len(digits) {
		return math.Copysign(0, f)
	}
	keep, drop := digits[:len(digits)-k], digits[len(digits)-k:]
	up := drop[0] > '5'
	if drop[0] == '5' {
		up = frac != 0 || !allZeros(drop[1:]) || len(keep) > 0 && (keep[len(keep)-1]-'0')%2 == 1
	}
	if up {
		keep = incrementDecimal(keep)
	}
	if len(keep) == 0 {
		return math.Copysign(0, f)
	}
	var out [340]byte
	num := out[:0]
	if f < 0 {
		num = append(num, '-')
	}
	num = append(append(num, keep...), 'e')
	return parseDecimal(strconv.AppendInt(num, int64(k), 10))
}

func allZeros(digits []byte) bool {
	for _, d := range digits {
		if d != '0' {
			return false
		}
	}
	return true
}

// incrementDecimal adds one to the decimal integer in digits.
func incrementDecimal(digits []byte) []byte {
	for i := len(digits) - 1; i >= 0; i-- {
		if digits[i] < '9' {
			digits[i]++
			return digits
		}
		digits[i] = '0'
	}
	return append([]byte{'1'}, digits...)
}

// parseDecimal parses a well-formed decimal number, correctly rounded;
// overflow gives ±Inf.
func parseDecimal(num []byte) float64 {
	f, _ := strconv.ParseFloat(string(num), 64)
	return f
}

// roundWith implements the ceil and floor methods of the round filter,
// where Python raises no error.
func roundWith(f float64, n int, fn func(float64) float64) float64 {
	p := pow10(n)
	r := fn(f * p)
	if r == 0 {
		r = 0 // Python's math.ceil and math.floor return ints, which have no -0
	}
	if n <= maxExactPow10 {
		// Python divides by the float 10**n (n < 0) or by an int that p
		// holds exactly; either way one float division rounds correctly.
		return r / p
	}
	// Python divides two ints, correctly rounded: parse the exact quotient.
	var buf [340]byte
	num := strconv.AppendFloat(buf[:0], r, 'f', 0, 64)
	return parseDecimal(strconv.AppendInt(append(num, 'e', '-'), int64(n), 10))
}

// exactPow10 holds the powers of ten that a float64 represents exactly.
var exactPow10 = [...]float64{
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
}

const maxExactPow10 = len(exactPow10) - 1

// pow10 returns 10^n correctly rounded, which is Python's 10**n for n < 0
// and float(10**n) for n >= 0.
func pow10(n int) float64 {
	switch {
	case 0 <= n && n <= maxExactPow10:
		return exactPow10[n]
	case -maxExactPow10 <= n && n < 0:
		return 1 / exactPow10[-n] // IEEE division is correctly rounded
	}
	var buf [24]byte
	return parseDecimal(strconv.AppendInt(append(buf[:0], '1', 'e'), int64(n), 10))
}

// ParseInt returns the Jinja2 int filter of the string s: int(s, base),
// failing that int(float(s)), failing that def. It follows Python's syntax:
// surrounding whitespace, a sign, single underscores between digits, the
// 0x/0o/0b prefix when base is 16, 8, 2 or 0 (which also rejects other
// leading zeros), and any Unicode decimal digits. An invalid base (not 0 or
// 2..36) makes Python skip straight to the float fallback, as here. Where
// Python gives an int beyond int64, or raises OverflowError for an infinite
// float ("inf", "1e400"), ParseInt fails.
func ParseInt(s string, def int64, base int) (int64, error) {
	v, ok, err := intOfString(s, base)
	return intOr(v, ok, err, def)
}

// FloatToInt returns the Jinja2 int filter of a float: Python's int(f),
// which truncates towards zero, or def for NaN. Where Python gives an int
// beyond int64 or raises OverflowError (±Inf), FloatToInt fails.
func FloatToInt(f float64, def int64) (int64, error) {
	v, ok, err := intOfFloat(f)
	return intOr(v, ok, err, def)
}

// intOr returns the int filter's result from an int conversion: the int,
// def where Python raises ValueError, or the error.
func intOr(v int64, ok bool, err error, def int64) (int64, error) {
	switch {
	case err != nil:
		return 0, err
	case !ok:
		return def, nil
	}
	return v, nil
}

// The int filter's failures: Python's OverflowError, and an int Python
// holds but int64 does not (printing it would need Python's unbounded ints
// through every later operation).
var (
	errIntOfInfinity = errors.New("cannot convert float infinity to integer")
	errIntTooLarge   = errors.New("int beyond 64 bits, which promptgen does not hold")
)

// intOfString is int(s, base), failing that int(float(s)): ok is false
// where both raise ValueError, err is set where the int is beyond int64 or
// Python raises OverflowError.
func intOfString(s string, base int) (v int64, ok bool, err error) {
	var buf [64]byte
	ascii, ok := asciiNumber(s, buf[:0])
	if !ok {
		return 0, false, nil
	}
	if v, ok, overflow := parsePyInt(ascii, base); ok {
		return v, true, nil
	} else if overflow {
		return 0, false, errIntTooLarge
	}
	f, ok := parsePyFloat(ascii)
	if !ok {
		return 0, false, nil
	}
	return intOfFloat(f)
}

// intOfFloat is int(f), which truncates towards zero: ok is false for NaN
// (ValueError), err is set for ±Inf (OverflowError) and beyond int64.
func intOfFloat(f float64) (v int64, ok bool, err error) {
	const limit = 1 << 63
	switch {
	case math.IsNaN(f):
		return 0, false, nil
	case math.IsInf(f, 0):
		return 0, false, errIntOfInfinity
	case !(-limit <= f && f < limit):
		return 0, false, errIntTooLarge
	}
	return int64(f), true, nil
}

// asciiNumber applies CPython's _PyUnicode_TransformDecimalAndSpaceToASCII,
// which int() and float() use first: non-ASCII decimal digits become ASCII
// digits and non-ASCII whitespace becomes a space. It returns false if any
// other non-ASCII code point is present, which no number syntax accepts.
func asciiNumber(s string, buf []byte) (string, bool) {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return s, true
	}
	buf = append(buf, s[:i]...)
	for _, r := range s[i:] {
		if r < utf8.RuneSelf {
			buf = append(buf, byte(r))
		} else if isSpace(r) {
			buf = append(buf, ' ')
		} else if d := decimalValue(r); d >= 0 {
			buf = append(buf, byte('0'+d))
		} else {
			return "", false
		}
	}
	return string(buf), true
}

// decimalValue returns the digit value of a Unicode decimal digit (category
// Nd), or -1. Nd characters come in contiguous runs from 0 to 9, and Go's
// table ranges start at a zero.
func decimalValue(r rune) int {
	if !unicode.Is(unicode.Nd, r) {
		return -1
	}
	for _, rg := range unicode.Nd.R16 {
		if r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10
		}
	}
	return -1
}

// isASCIISpace is Py_ISSPACE, the whitespace int() and float() skip after
// asciiNumber.
func isASCIISpace(c byte) bool {
	return c == ' ' || '\t' <= c && c <= '\r'
}

func trimASCIISpace(s string) string {
	for len(s) > 0 && isASCIISpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isASCIISpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// parsePyInt parses an ASCII string as CPython's PyLong_FromString does.
// ok is false for a syntax error; overflow reports valid syntax whose value
// does not fit in an int64.
func parsePyInt(s string, base int) (v int64, ok, overflow bool) {
	if base != 0 && (base < 2 || base > 36) {
		return 0, false, false
	}
	s = trimASCIISpace(s)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	zeroOnly := false // base 0 forbids leading zeros on nonzero decimals
	if base == 0 {
		base = 10
		if len(s) > 1 && s[0] == '0' {
			base = prefixBase(s[1])
			if base == 0 {
				base, zeroOnly = 10, true
			}
		}
	}
	if len(s) > 1 && s[0] == '0' && prefixBase(s[1]) == base {
		s = s[2:]
		if s != "" && s[0] == '_' { // allowed once after a prefix
			s = s[1:]
		}
	}
	const limit = 1 << 63
	var mag uint64
	prev := byte('_') // so a leading or trailing underscore, or no digit, fails
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			if prev == '_' {
				return 0, false, false
			}
			prev = c
			continue
		}
		d := digitValue(c)
		if d >= base {
			return 0, false, false
		}
		if mag > (limit-uint64(d))/uint64(base) {
			overflow = true
		}
		mag = mag*uint64(base) + uint64(d)
		prev = c
	}
	if prev == '_' || zeroOnly && (mag != 0 || overflow) {
		return 0, false, false
	}
	if overflow || mag == limit && !neg {
		return 0, false, true
	}
	if neg {
		return -int64(mag), true, false
	}
	return int64(mag), true, false
}

// prefixBase returns the base named by the letter after a leading 0, or 0.
func prefixBase(c byte) int {
	switch c | 0x20 {
	case 'x':
		return 16
	case 'o':
		return 8
	case 'b':
		return 2
	}
	return 0
}

// digitValue returns the value of an ASCII digit or letter, 36 otherwise.
func digitValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c|0x20 && c|0x20 <= 'z':
		return int(c|0x20-'a') + 10
	}
	return 36
}

// ParseFloat returns the Jinja2 float filter of the string s: Python's
// float(s), or def if that raises ValueError. Python's syntax allows
// surrounding whitespace, a sign, single underscores between digits,
// Unicode decimal digits, and inf, infinity and nan in any case; it has no
// hexadecimal floats. Out-of-range values become ±Inf or ±0, as in Python.
func ParseFloat(s string, def float64) float64 {
	if f, ok := floatOfString(s); ok {
		return f
	}
	return def
}

// floatOfString is Python's float(s) of a string s: ok is false where it
// raises ValueError.
func floatOfString(s string) (float64, bool) {
	var buf [64]byte
	ascii, ok := asciiNumber(s, buf[:0])
	if !ok {
		return 0, false
	}
	return parsePyFloat(ascii)
}

// parsePyFloat parses an ASCII string as CPython's PyFloat_FromString does.
func parsePyFloat(s string) (float64, bool) {
	if strings.IndexByte(s, '_') >= 0 {
		var ok bool
		if s, ok = removeUnderscores(s); !ok {
			return 0, false
		}
	}
	s = trimASCIISpace(s)
	if f, ok := parseInfNaN(s); ok {
		return f, true
	}
	if !isDecimalFloat(s) {
		return 0, false
	}
	f, _ := strconv.ParseFloat(s, 64) // ErrRange still yields ±Inf or ±0, as in Python
	return f, true
}

// removeUnderscores drops the underscores from s, which float() allows
// only between two digits.
func removeUnderscores(s string) (string, bool) {
	var buf [64]byte
	out := buf[:0]
	for i := 0; i < len(s); i++ {
		if s[i] != '_' {
			out = append(out, s[i])
			continue
		}
		if i == 0 || !isDigit(s[i-1]) || i+1 == len(s) || !isDigit(s[i+1]) {
			return "", false
		}
	}
	return string(out), true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// parseInfNaN parses Python's optionally signed inf, infinity and nan, in
// any case.
func parseInfNaN(s string) (float64, bool) {
	sign := 1.0
	if s != "" && (s[0] == '+' || s[0] == '-') {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	switch {
	case strings.EqualFold(s, "inf") || strings.EqualFold(s, "infinity"):
		return math.Inf(int(sign)), true
	case strings.EqualFold(s, "nan"):
		return math.Copysign(math.NaN(), sign), true
	}
	return 0, false
}

// isDecimalFloat reports whether s matches Python's decimal float syntax
// [+-](digits[.[digits]] | .digits)[(e|E)[+-]digits], a subset of what
// strconv.ParseFloat accepts.
func isDecimalFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	mantissa := skipDigits(s, &i)
	if i < len(s) && s[i] == '.' {
		i++
		mantissa += skipDigits(s, &i)
	}
	if mantissa == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if skipDigits(s, &i) == 0 {
			return false
		}
	}
	return i == len(s)
}

// skipDigits advances *i past ASCII digits and returns how many it skipped.
func skipDigits(s string, i *int) int {
	start := *i
	for *i < len(s) && isDigit(s[*i]) {
		*i++
	}
	return *i - start
}
