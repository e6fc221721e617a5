package jinja

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/promptgen/promptgen/runtime"
)

// StrFormat is Python's format.format(*args, **kwargs), str.format, as
// CPython 3.11 does it (and Jinja2's sandbox, whose formatter reads the
// same fields): {} and {0} take a positional value, {name} a keyword one
// (kwargs is a dict), !s, !r and !a convert it, and a format spec after :
// (which may hold {} fields itself) formats it as Python's format() does:
// fill, align, sign, z, #, 0, width, grouping, precision and type, for
// strings, ints, bools, floats, and the empty spec of any other value.
// A field reading an attribute or an index ({0.name}, {0[1]}) is not
// supported. It fails where Python raises, and with ErrTooLarge where the
// result would exceed runtime.MaxOutput.
func StrFormat(format string, args []Value, kwargs Value) (string, error) {
	f := strFormatter{args: args, kwargs: kwargs}
	out, err := f.vformat(nil, format, 2)
	return string(out), err
}

// strFormatter is the state of one str.format: the values, and how its
// fields are numbered (CPython's AutoNumber).
type strFormatter struct {
	args   []Value
	kwargs Value
	auto   int // the next automatic field number
	// numbering is 'a' once a field is numbered automatically, 'm'
	// once one is numbered manually.
	numbering byte
}

func (f *strFormatter) vformat(out []byte, format string, depth int) ([]byte, error) {
	if depth < 0 {
		return nil, errInvalid("Max string recursion exceeded")
	}
	for i := 0; i < len(format); {
		c := format[i]
		switch {
		case c == '{' && strings.HasPrefix(format[i:], "{{"), c == '}' && strings.HasPrefix(format[i:], "}}"):
			out = append(out, c)
			i += 2
		case c == '}':
			return nil, errInvalid("Single '}' encountered in format string")
		case c == '{':
			end, err := fieldEnd(format, i+1)
			if err != nil {
				return nil, err
			}
			if out, err = f.field(out, format[i+1:end], depth); err != nil {
				return nil, err
			}
			i = end + 1
		default:
			out = append(out, c)
			i++
		}
		if !fits(len(out), 0, 0) {
			return nil, &runtime.Error{Err: runtime.ErrTooLarge}
		}
	}
	return out, nil
}

// fieldEnd returns the index of the } that closes the field whose text
// starts at i, counting the braces of the fields its spec holds.
func fieldEnd(format string, i int) (int, error) {
	depth := 1
	for ; i < len(format); i++ {
		switch format[i] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i, nil
			}
		}
	}
	return 0, errInvalid("expected '}' before end of string")
}

// field appends the value of one replacement field, its text without the
// braces: name[!conversion][:spec].
func (f *strFormatter) field(out []byte, text string, depth int) ([]byte, error) {
	name, conv, spec := text, byte(0), ""
	if i := strings.IndexAny(text, "!:"); i >= 0 {
		name = text[:i]
		if text[i] == '!' {
			rest := text[i+1:]
			switch {
			case rest == "":
				return nil, errInvalid("end of string while looking for conversion specifier")
			case len(rest) > 1 && rest[1] != ':':
				return nil, errInvalid("expected ':' after conversion specifier")
			}
			conv, rest = rest[0], rest[1:]
			spec = strings.TrimPrefix(rest, ":")
		} else {
			spec = text[i+1:]
		}
	}
	if strings.ContainsAny(name, "{") {
		return nil, errInvalid("unexpected '{' in field name")
	}
	v, err := f.value(name)
	if err != nil {
		return nil, err
	}
	switch conv {
	case 0:
	case 's', 'r', 'a':
		if err := v.CheckPrint(); err != nil {
			return nil, err
		}
		v = StringValue(string(converted(v, conv)))
	default:
		return nil, errInvalid("Unknown conversion specifier %s", string(rune(conv)))
	}
	if strings.ContainsRune(spec, '{') {
		expanded, err := f.vformat(nil, spec, depth-1)
		if err != nil {
			return nil, err
		}
		spec = string(expanded)
	}
	return formatValue(out, v, spec)
}

// value is the value a field names: the next positional one, a numbered
// one, or a keyword one.
func (f *strFormatter) value(name string) (Value, error) {
	if strings.ContainsAny(name, ".[") {
		return Value{}, errInvalid("a format field reading an attribute or an index (%s) is not supported", name)
	}
	var n int
	switch {
	case name == "":
		if f.numbering == 'm' {
			return Value{}, errInvalid("cannot switch from manual field specification to automatic field numbering")
		}
		f.numbering, n = 'a', f.auto
		f.auto++
	case strings.Trim(name, "0123456789") == "":
		if f.numbering == 'a' {
			return Value{}, errInvalid("cannot switch from automatic field numbering to manual field specification")
		}
		f.numbering = 'm'
		i, err := strconv.Atoi(name)
		if err != nil {
			return Value{}, errInvalid("Too many decimal digits in format string")
		}
		n = i
	default:
		if f.kwargs.kind == dictKind {
			if i := f.kwargs.dict.index(name); i >= 0 {
				return f.kwargs.dict.vals[i], nil
			}
		}
		return Value{}, errInvalid("KeyError: %s", AppendQuoted(nil, name))
	}
	if n >= len(f.args) {
		return Value{}, errInvalid("Replacement index %d out of range for positional args tuple", n)
	}
	return f.args[n], nil
}

// formatSpec is Python's format spec mini-language, parsed.
type formatSpec struct {
	fill           rune
	align, sign    byte // 0 where not given
	noNegZero, alt bool
	width, prec    int // -1 where not given
	grouping, typ  byte
	fillGiven      bool
}

// parseFormatSpec parses spec as CPython's
// parse_internal_render_format_spec does, for a value of Python type
// typeName, whose default alignment is align.
func parseFormatSpec(spec, typeName string, align byte) (formatSpec, error) {
	s := formatSpec{fill: ' ', align: align, width: -1, prec: -1}
	isAlign := func(c byte) bool { return c == '<' || c == '>' || c == '=' || c == '^' }
	alignGiven := true
	if r, n := utf8.DecodeRuneInString(spec); n > 0 && n < len(spec) && isAlign(spec[n]) {
		s.fill, s.fillGiven, s.align, spec = r, true, spec[n], spec[n+1:]
	} else if spec != "" && isAlign(spec[0]) {
		s.align, spec = spec[0], spec[1:]
	} else {
		alignGiven = false
	}
	if spec != "" && (spec[0] == '+' || spec[0] == '-' || spec[0] == ' ') {
		s.sign, spec = spec[0], spec[1:]
	}
	if spec != "" && spec[0] == 'z' {
		s.noNegZero, spec = true, spec[1:]
	}
	if spec != "" && spec[0] == '#' {
		s.alt, spec = true, spec[1:]
	}
	if spec != "" && spec[0] == '0' && !s.fillGiven {
		s.fill = '0'
		if !alignGiven && align == '>' {
			s.align = '='
		}
		spec = spec[1:]
	}
	var err error
	if s.width, spec, err = specNumber(spec); err != nil {
		return s, err
	}
	if spec != "" && (spec[0] == ',' || spec[0] == '_') {
		s.grouping, spec = spec[0], spec[1:]
		if spec != "" && (spec[0] == ',' || spec[0] == '_') {
			if spec[0] == s.grouping {
				return s, errInvalid("Cannot specify '%c' with '%c'.", s.grouping, s.grouping)
			}
			return s, errInvalid("Cannot specify both ',' and '_'.")
		}
	}
	if spec != "" && spec[0] == '.' {
		if s.prec, spec, err = specNumber(spec[1:]); err != nil {
			return s, err
		}
		if s.prec < 0 {
			return s, errInvalid("Format specifier missing precision")
		}
	}
	if len(spec) > 1 {
		return s, errInvalid("Invalid format specifier '%s' for object of type '%s'", spec, typeName)
	}
	if spec != "" {
		s.typ = spec[0]
	}
	if s.grouping != 0 {
		switch s.typ {
		case 'd', 'e', 'f', 'g', 'E', 'G', '%', 'F', 0:
		case 'b', 'o', 'x', 'X':
			if s.grouping == '_' {
				break
			}
			fallthrough
		default:
			return s, errInvalid("Cannot specify '%c' with '%c'.", s.grouping, s.typ)
		}
	}
	return s, nil
}

// specNumber reads the decimal number spec starts with, -1 where it
// starts with none.
func specNumber(spec string) (int, string, error) {
	i := 0
	for i < len(spec) && '0' <= spec[i] && spec[i] <= '9' {
		i++
	}
	if i == 0 {
		return -1, spec, nil
	}
	n, err := strconv.Atoi(spec[:i])
	if err != nil || n > runtime.MaxOutput {
		return 0, "", &runtime.Error{Err: runtime.ErrTooLarge}
	}
	return n, spec[i:], nil
}

// formatValue appends Python's format(v, spec).
func formatValue(out []byte, v Value, spec string) ([]byte, error) {
	switch {
	case v.kind == stringKind:
		return formatString(out, v.s, spec)
	case v.kind == intKind || v.kind == boolKind && spec != "":
		return formatInt(out, v, spec)
	case v.kind == floatKind:
		return formatFloat(out, v.f, spec, "float")
	case spec != "":
		return nil, errInvalid("unsupported format string passed to %s.__format__", v.typeName())
	}
	if err := v.CheckPrint(); err != nil {
		return nil, err
	}
	return v.AppendStr(out), nil
}

func formatString(out []byte, str, spec string) ([]byte, error) {
	s, err := parseFormatSpec(spec, "str", '<')
	if err != nil {
		return nil, err
	}
	switch {
	case s.typ != 0 && s.typ != 's':
		return nil, errInvalid("Unknown format code '%c' for object of type 'str'", s.typ)
	case s.sign == ' ':
		return nil, errInvalid("Space not allowed in string format specifier")
	case s.sign != 0:
		return nil, errInvalid("Sign not allowed in string format specifier")
	case s.noNegZero:
		return nil, errInvalid("Negative zero coercion (z) not allowed in format specifier")
	case s.alt:
		return nil, errInvalid("Alternate form (#) not allowed in string format specifier")
	case s.align == '=':
		return nil, errInvalid("'=' alignment not allowed in string format specifier")
	case s.grouping != 0:
		return nil, errInvalid("Cannot specify '%c' with 's'.", s.grouping)
	}
	n := utf8.RuneCountInString(str)
	if s.prec >= 0 && n > s.prec {
		str, n = str[:runeOffset(str, n, s.prec)], s.prec
	}
	return pad(out, s, "", str, n)
}

// pad appends prefix (a sign and a base prefix) and body, of n code
// points in all, padded to the spec's width with its fill and alignment.
func pad(out []byte, s formatSpec, prefix, body string, n int) ([]byte, error) {
	total := max(s.width-n, 0)
	if !fits(len(out), 1, len(prefix)+len(body)+total*utf8.RuneLen(s.fill)) {
		return nil, &runtime.Error{Err: runtime.ErrTooLarge}
	}
	left, right := 0, 0
	switch s.align {
	case '<':
		right = total
	case '^':
		left, right = total/2, total-total/2
	default: // '>' and '='
		left = total
	}
	if s.align == '=' {
		out = append(out, prefix...)
		prefix = ""
	}
	for range left {
		out = utf8.AppendRune(out, s.fill)
	}
	out = append(append(out, prefix...), body...)
	for range right {
		out = utf8.AppendRune(out, s.fill)
	}
	return out, nil
}

func formatInt(out []byte, v Value, spec string) ([]byte, error) {
	s, err := parseFormatSpec(spec, v.typeName(), '>')
	if err != nil {
		return nil, err
	}
	switch s.typ {
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
		return formatFloat(out, float64(v.i), spec, v.typeName())
	case 0, 'd', 'n', 'b', 'o', 'x', 'X', 'c':
	default:
		return nil, errInvalid("Unknown format code '%c' for object of type '%s'", s.typ, v.typeName())
	}
	switch {
	case s.prec >= 0:
		return nil, errInvalid("Precision not allowed in integer format specifier")
	case s.noNegZero:
		return nil, errInvalid("Negative zero coercion (z) not allowed in integer format specifier")
	case s.typ == 'c' && s.sign != 0:
		return nil, errInvalid("Sign not allowed with integer format specifier 'c'")
	case s.typ == 'c' && s.alt:
		return nil, errInvalid("Alternate form (#) not allowed with integer format specifier 'c'")
	case s.typ == 'c' && (v.i < 0 || v.i > utf8.MaxRune):
		return nil, errInvalid("%%c arg not in range(0x110000)")
	case s.typ == 'c' && 0xD800 <= v.i && v.i < 0xE000:
		return nil, errInvalid("%%c arg is a surrogate (U+%04X), which has no UTF-8", v.i)
	case s.typ == 'c':
		return pad(out, s, "", string(rune(v.i)), 1)
	}
	n := v.i
	sign := numberSign(s, n < 0)
	base, prefix := 10, ""
	switch s.typ {
	case 'b':
		base, prefix = 2, "0b"
	case 'o':
		base, prefix = 8, "0o"
	case 'x':
		base, prefix = 16, "0x"
	case 'X':
		base, prefix = 16, "0X"
	}
	if !s.alt {
		prefix = ""
	}
	digits := strconv.FormatUint(absInt(n), base)
	if s.typ == 'X' {
		digits = strings.ToUpper(digits)
	}
	return padNumber(out, s, sign+prefix, digits, "", 3+boolInt(base != 10))
}

// absInt is |n| as an unsigned int, which holds it for math.MinInt64 too.
func absInt(n int64) uint64 {
	if n < 0 {
		return uint64(-(n + 1)) + 1
	}
	return uint64(n)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// numberSign is the sign a number is written with, negative or not.
func numberSign(s formatSpec, negative bool) string {
	switch {
	case negative:
		return "-"
	case s.sign == '+':
		return "+"
	case s.sign == ' ':
		return " "
	}
	return ""
}

// padNumber appends a number: lead (its sign and base prefix), its
// integer digits, grouped every group digits where the spec says so, and
// rest (a decimal point, a fraction, an exponent, %). Where the spec pads
// with zeros after the sign ('0' or fill 0 with =), the zeros are digits
// of the integer part, grouped as they are (CPython's
// calc_number_widths).
func padNumber(out []byte, s formatSpec, lead, digits, rest string, group int) ([]byte, error) {
	sep := ""
	if s.grouping != 0 {
		sep = string(s.grouping)
	}
	minWidth := 0
	if s.fill == '0' && s.align == '=' && digits != "" { // else pad pads inf and nan
		minWidth = s.width - len(lead) - utf8.RuneCountInString(rest)
	}
	if !fits(len(out), 2, max(s.width, len(digits)*2)) {
		return nil, &runtime.Error{Err: runtime.ErrTooLarge}
	}
	grouped := groupDigits(digits, sep, group, minWidth)
	body := lead + grouped + rest
	return pad(out, s, lead, grouped+rest, utf8.RuneCountInString(body))
}

// groupDigits is CPython's _PyUnicode_InsertThousandsGrouping of digits
// with separator sep (none where empty) every group digits, padded with
// zeros (and their separators) to at least minWidth characters.
func groupDigits(digits, sep string, group, minWidth int) string {
	if sep == "" || digits == "" {
		if n := minWidth - len(digits); n > 0 {
			return strings.Repeat("0", n) + digits
		}
		return digits
	}
	var parts []string // from the right
	remaining := len(digits)
	for {
		l := min(group, max(remaining, minWidth, 1))
		zeros, chars := max(0, l-remaining), max(0, min(remaining, l))
		parts = append(parts, strings.Repeat("0", zeros)+digits[remaining-chars:remaining])
		remaining -= chars
		minWidth -= l
		if remaining <= 0 && minWidth <= 0 {
			break
		}
		minWidth -= len(sep)
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteString(parts[i])
		if i > 0 {
			b.WriteString(sep)
		}
	}
	return b.String()
}

// formatFloat appends format(x, spec) of a float, or of an int (typeName)
// with a float's type.
func formatFloat(out []byte, x float64, spec, typeName string) ([]byte, error) {
	s, err := parseFormatSpec(spec, typeName, '>')
	if err != nil {
		return nil, err
	}
	typ, prec, addDot0 := s.typ, s.prec, false
	switch typ {
	case 0:
		// repr(x) without a precision, else 'g' that keeps a digit
		// after the point where it writes no exponent.
		addDot0 = true
		typ = 'r'
		if prec >= 0 {
			typ = 'g'
		}
	case 'n':
		typ = 'g'
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
	default:
		return nil, errInvalid("Unknown format code '%c' for object of type '%s'", s.typ, typeName)
	}
	percent := typ == '%'
	if percent {
		typ, x = 'f', x*100
	}
	if prec < 0 {
		prec = 6
	}
	if !fits(0, prec, 1) {
		return nil, &runtime.Error{Err: runtime.ErrTooLarge}
	}
	var body []byte
	switch {
	case typ == 'r':
		body = AppendFloat(nil, math.Abs(x))
		if s.alt && !strings.Contains(string(body), ".") && strings.Contains(string(body), "e") {
			body = dotBeforeExponent(body) // 1.e+16
		}
	case typ == 'g' || typ == 'G':
		if math.IsInf(x, 0) || math.IsNaN(x) {
			body = formatPyFloat(math.Abs(x), typ, prec, s.alt)
			break
		}
		p, maxExp := max(prec, 1), max(prec, 1)
		if addDot0 {
			maxExp-- // as CPython's add_dot_0_if_integer
		}
		body = formatG(math.Abs(x), p, maxExp, s.alt)
		if addDot0 && !strings.ContainsAny(string(body), ".e") {
			body = append(body, ".0"...)
		}
		if typ == 'G' {
			body = []byte(strings.ToUpper(string(body)))
		}
	default:
		body = formatPyFloat(math.Abs(x), typ, prec, s.alt)
	}
	negative := math.Signbit(x) && !math.IsNaN(x)
	if negative && s.noNegZero && strings.Trim(string(body), "0.eE+-") == "" {
		negative = false // z: a zero rounded from a negative number
	}
	if percent {
		body = append(body, '%')
	}
	// The integer digits are those before the point or the exponent.
	digits := string(body)
	rest := ""
	if i := strings.IndexAny(digits, ".eE%"); i >= 0 {
		digits, rest = digits[:i], digits[i:]
	}
	if strings.Trim(digits, "0123456789") != "" { // inf, nan
		digits, rest = "", digits+rest
	}
	return padNumber(out, s, numberSign(s, negative), digits, rest, 3)
}
