package jinja

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/promptgen/promptgen/runtime"
)

// Printf is Python's format % args, printf-style string formatting, as
// CPython 3.11 does it: args is a tuple of the values to convert, or one
// value, which also serves %(key)s where it is a mapping (a dict, a list,
// undefined). Jinja2's format filter is Printf with the tuple of its
// arguments (or the dict of its keyword arguments). It fails where Python
// raises (ErrUndefined where a conversion reads an undefined value), and
// with ErrTooLarge where the result would exceed runtime.MaxOutput.
func Printf(format string, args Value) (string, error) {
	if err := args.CheckPrint(); err != nil {
		return "", err
	}
	p := printf{format: format, args: args, arglen: -1, argidx: -2}
	if args.kind == listKind && args.tuple {
		p.arglen, p.argidx = len(args.list), 0
	} else if args.kind == dictKind || args.kind == listKind || args.kind == undefinedKind {
		p.dict = &args // Python's PyMapping_Check: a list has __getitem__ too
	}
	return p.run()
}

// FormatFilter is Jinja2's value|format(*args): str(value) % args.
func FormatFilter(x Value, args ...Value) (string, error) {
	s, err := x.Text()
	if err != nil {
		return "", err
	}
	return Printf(s, TupleValue(args...))
}

// printf is the state of CPython's PyUnicode_Format: the values left to
// convert are args[argidx:arglen], or args itself once (arglen -1) where
// it is not a tuple or after a %(key).
type printf struct {
	format         string
	args           Value
	arglen, argidx int
	dict           *Value
	out            []byte
}

// printfSpec is one conversion specifier.
type printfSpec struct {
	ljust, sign, blank, alt, zero bool
	width, prec                   int // prec -1: none given
	conv                          byte
}

func (p *printf) nextArg() (Value, error) {
	if p.argidx < p.arglen {
		p.argidx++
		if p.arglen < 0 {
			return p.args, nil
		}
		return p.args.list[p.argidx-1], nil
	}
	return Value{}, errInvalid("not enough arguments for format string")
}

func (p *printf) run() (string, error) {
	f := p.format
	for i := 0; i < len(f); {
		j := strings.IndexByte(f[i:], '%')
		if j < 0 {
			p.out = append(p.out, f[i:]...)
			break
		}
		p.out = append(p.out, f[i:i+j]...)
		i += j + 1
		if i < len(f) && f[i] == '%' {
			p.out = append(p.out, '%')
			i++
			continue
		}
		next, err := p.conversion(i)
		if err != nil {
			return "", err
		}
		if len(p.out) > runtime.MaxOutput {
			return "", &runtime.Error{Err: runtime.ErrTooLarge}
		}
		i = next
	}
	if p.argidx < p.arglen && p.dict == nil {
		return "", errInvalid("not all arguments converted during string formatting")
	}
	return string(p.out), nil
}

// conversion formats the specifier that starts at f[i], after its '%',
// and returns where the format goes on.
func (p *printf) conversion(i int) (int, error) {
	f := p.format
	if i < len(f) && f[i] == '(' {
		if p.dict == nil {
			return 0, errInvalid("format requires a mapping")
		}
		depth, start := 1, i+1
		for i++; i < len(f) && depth > 0; i++ {
			switch f[i] {
			case '(':
				depth++
			case ')':
				depth--
			}
		}
		if depth > 0 {
			return 0, errInvalid("incomplete format key")
		}
		v, err := mappingItem(*p.dict, f[start:i-1])
		if err != nil {
			return 0, err
		}
		p.args, p.arglen, p.argidx = v, -1, -2
	}
	s := printfSpec{prec: -1}
flags:
	for ; i < len(f); i++ {
		switch f[i] {
		case '-':
			s.ljust = true
		case '+':
			s.sign = true
		case ' ':
			s.blank = true
		case '#':
			s.alt = true
		case '0':
			s.zero = true
		default:
			break flags
		}
	}
	var err error
	if i, s.width, err = p.number(i); err != nil {
		return 0, err
	}
	if s.width < 0 {
		s.ljust, s.width = true, -s.width
	}
	if i < len(f) && f[i] == '.' {
		if i, s.prec, err = p.number(i + 1); err != nil {
			return 0, err
		}
		s.prec = max(s.prec, 0)
	}
	for i < len(f) && (f[i] == 'h' || f[i] == 'l' || f[i] == 'L') {
		i++
	}
	if i >= len(f) {
		return 0, errInvalid("incomplete format")
	}
	s.conv = f[i]
	if !strings.ContainsRune("srad iuxXoeEfFgGc", rune(s.conv)) || s.conv == ' ' {
		r, _ := utf8.DecodeRuneInString(f[i:])
		return 0, errInvalid("unsupported format character %s (0x%x) at index %d", quoteRune(r), r, utf8.RuneCountInString(f[:i]))
	}
	v, err := p.nextArg()
	if err != nil {
		return 0, err
	}
	if err := p.format1(s, v); err != nil {
		return 0, err
	}
	return i + 1, nil
}

// number reads a width or precision at f[i]: digits, or '*' for the next
// argument, an int. It returns where the format goes on.
func (p *printf) number(i int) (int, int, error) {
	f := p.format
	if i < len(f) && f[i] == '*' {
		v, err := p.nextArg()
		if err != nil {
			return 0, 0, err
		}
		if v.kind != intKind && v.kind != boolKind {
			return 0, 0, errInvalid("* wants int")
		}
		if v.i > runtime.MaxOutput || v.i < -runtime.MaxOutput {
			return 0, 0, &runtime.Error{Err: runtime.ErrTooLarge}
		}
		return i + 1, int(v.i), nil
	}
	n := 0
	for ; i < len(f) && isDigit(f[i]); i++ {
		if n = n*10 + int(f[i]-'0'); n > runtime.MaxOutput {
			// Python allows up to sys.maxsize; promptgen's output stops
			// at runtime.MaxOutput.
			return 0, 0, &runtime.Error{Err: runtime.ErrTooLarge}
		}
	}
	return i, n, nil
}

// mappingItem is Python's mapping[key] for %(key)s.
func mappingItem(m Value, key string) (Value, error) {
	switch m.kind {
	case undefinedKind:
		return Value{}, errUndefined()
	case listKind:
		return Value{}, errInvalid("list indices must be integers or slices, not str")
	}
	v, ok := m.Lookup(key)
	if !ok {
		return Value{}, errInvalid("KeyError: %s", AppendQuoted(nil, key))
	}
	return v, nil
}

// format1 appends v converted by s.
func (p *printf) format1(s printfSpec, v Value) error {
	var body []byte
	var prefix string // a number's sign, and the base prefix of #x, #X and #o
	numeric := true
	switch s.conv {
	case 's', 'r', 'a':
		numeric = false
		body = converted(v, s.conv)
		if n := utf8.RuneCount(body); s.prec >= 0 && n > s.prec {
			body = body[:runeOffset(string(body), n, s.prec)]
		}
	case 'c':
		numeric = false
		switch {
		case v.kind == intKind || v.kind == boolKind:
			if v.i < 0 || v.i > utf8.MaxRune {
				return errInvalid("%%c arg not in range(0x110000)")
			}
			if 0xD800 <= v.i && v.i < 0xE000 {
				// Python makes a lone surrogate, which no UTF-8 output holds.
				return errInvalid("%%c arg is a surrogate (U+%04X), which has no UTF-8", v.i)
			}
			body = utf8.AppendRune(nil, rune(v.i))
		case v.kind == stringKind && utf8.RuneCountInString(v.s) == 1:
			body = []byte(v.s)
		default:
			return errInvalid("%%c requires int or char")
		}
	case 'd', 'i', 'u', 'x', 'X', 'o':
		n, err := printfInt(s.conv, v)
		if err != nil {
			return err
		}
		if n.Sign() < 0 {
			prefix = "-"
			n.Neg(n)
		} else if s.sign {
			prefix = "+"
		} else if s.blank {
			prefix = " "
		}
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8}[s.conv]
		if base == 0 {
			base = 10
		}
		digits := n.Text(base)
		if s.conv == 'X' {
			digits = strings.ToUpper(digits)
		}
		if s.alt && base != 10 {
			prefix += "0" + string(map[byte]byte{'x': 'x', 'X': 'X', 'o': 'o'}[s.conv])
		}
		if s.prec > len(digits) {
			if !fits(0, s.prec, 1) {
				return &runtime.Error{Err: runtime.ErrTooLarge}
			}
			digits = strings.Repeat("0", s.prec-len(digits)) + digits
		}
		body = []byte(digits)
	default: // e E f F g G
		x, err := printfFloat(v)
		if err != nil {
			return err
		}
		if math.Signbit(x) && !math.IsNaN(x) {
			prefix = "-"
		} else if s.sign {
			prefix = "+"
		} else if s.blank {
			prefix = " "
		}
		if s.prec < 0 {
			s.prec = 6
		}
		if !fits(0, s.prec, 1) {
			return &runtime.Error{Err: runtime.ErrTooLarge}
		}
		body = formatPyFloat(math.Abs(x), s.conv, s.prec, s.alt)
	}
	n := len(prefix) + utf8.RuneCount(body)
	pad := 0
	if s.width > n {
		pad = s.width - n
	}
	if !fits(len(p.out), 1, len(prefix)+len(body)+pad) {
		return &runtime.Error{Err: runtime.ErrTooLarge}
	}
	switch {
	case s.ljust:
		p.out = append(append(p.out, prefix...), body...)
		p.out = appendRepeat(p.out, ' ', pad)
	case s.zero && numeric:
		p.out = append(p.out, prefix...)
		p.out = appendRepeat(p.out, '0', pad)
		p.out = append(p.out, body...)
	default:
		p.out = appendRepeat(p.out, ' ', pad)
		p.out = append(append(p.out, prefix...), body...)
	}
	return nil
}

func appendRepeat(dst []byte, c byte, n int) []byte {
	for range n {
		dst = append(dst, c)
	}
	return dst
}

// printfInt is the int that %d (which truncates a float) or %x and %o
// (which need an int) convert.
func printfInt(conv byte, v Value) (*big.Int, error) {
	switch v.kind {
	case intKind, boolKind:
		return big.NewInt(v.i), nil
	case floatKind:
		if conv == 'x' || conv == 'X' || conv == 'o' {
			break
		}
		switch {
		case math.IsNaN(v.f):
			return nil, errInvalid("cannot convert float NaN to integer")
		case math.IsInf(v.f, 0):
			return nil, errInvalid("cannot convert float infinity to integer")
		}
		n, _ := new(big.Float).SetFloat64(math.Trunc(v.f)).Int(nil)
		return n, nil
	case undefinedKind:
		if conv == 'd' || conv == 'i' || conv == 'u' {
			return nil, errUndefined() // Undefined's __int__ raises
		}
	}
	if conv == 'x' || conv == 'X' || conv == 'o' {
		return nil, errInvalid("%%%c format: an integer is required, not %s", conv, v.typeName())
	}
	return nil, errInvalid("%%%c format: a real number is required, not %s", conv, v.typeName())
}

// printfFloat is the float that %e, %f and %g convert.
func printfFloat(v Value) (float64, error) {
	switch v.kind {
	case intKind, boolKind, floatKind:
		return v.float(), nil
	case undefinedKind:
		return 0, errUndefined() // Undefined's __float__ raises
	}
	return 0, errInvalid("must be real number, not %s", v.typeName())
}

// formatPyFloat formats x, not negative, as Python's %e, %f or %g (upper
// case for E, F, G) with precision prec; alt is the # flag.
func formatPyFloat(x float64, conv byte, prec int, alt bool) []byte {
	upper := conv == 'E' || conv == 'F' || conv == 'G'
	var out []byte
	switch {
	case math.IsInf(x, 0):
		out = []byte("inf")
	case math.IsNaN(x):
		out = []byte("nan")
	case conv == 'f' || conv == 'F':
		out = strconv.AppendFloat(nil, x, 'f', prec, 64)
		if alt && prec == 0 {
			out = append(out, '.')
		}
	case conv == 'e' || conv == 'E':
		out = strconv.AppendFloat(nil, x, 'e', prec, 64)
		if alt && prec == 0 {
			out = dotBeforeExponent(out)
		}
	default:
		out = formatG(x, max(prec, 1), max(prec, 1), alt)
	}
	if upper {
		for i, c := range out {
			if 'a' <= c && c <= 'z' {
				out[i] = c - 'a' + 'A'
			}
		}
	}
	return out
}

// formatG is Python's %g of x, not negative, with p significant digits:
// exponent notation where the exponent is below -4 or not below maxExp
// (p for %g), and trailing zeros dropped unless alt.
func formatG(x float64, p, maxExp int, alt bool) []byte {
	e := strconv.AppendFloat(nil, x, 'e', p-1, 64)
	exp, _ := strconv.Atoi(string(e[strings.LastIndexByte(string(e), 'e')+1:]))
	var out []byte
	if exp < -4 || exp >= maxExp {
		out = e
	} else {
		out = strconv.AppendFloat(nil, x, 'f', p-1-exp, 64)
	}
	mant, tail := out, []byte(nil)
	if i := strings.IndexByte(string(out), 'e'); i >= 0 {
		mant, tail = out[:i:i], out[i:]
	}
	switch {
	case alt && !strings.Contains(string(mant), "."):
		mant = append(mant, '.')
	case !alt && strings.Contains(string(mant), "."):
		mant = []byte(strings.TrimRight(strings.TrimRight(string(mant), "0"), "."))
	}
	return append(mant, tail...)
}

// dotBeforeExponent puts a '.' before the exponent of e, %e's output.
func dotBeforeExponent(e []byte) []byte {
	i := strings.IndexByte(string(e), 'e')
	return append(append(append([]byte{}, e[:i]...), '.'), e[i:]...)
}

// converted is Python's str(v), repr(v) or ascii(v), by conv: s, r or a
// (%s, %r, %a and !s, !r, !a).
func converted(v Value, conv byte) []byte {
	switch conv {
	case 's':
		return v.AppendStr(nil)
	case 'r':
		return v.AppendRepr(nil)
	}
	return asciiEscape(v.AppendRepr(nil))
}

// asciiEscape is Python's ascii() of a repr: each non-ASCII character as
// \xhh, \uhhhh or \Uhhhhhhhh.
func asciiEscape(repr []byte) []byte {
	var out []byte
	for _, r := range string(repr) {
		switch {
		case r < utf8.RuneSelf:
			out = append(out, byte(r))
		case r < 0x100:
			out = append(out, `\x`...)
			out = appendHex(out, uint32(r), 2)
		case r < 0x10000:
			out = append(out, `\u`...)
			out = appendHex(out, uint32(r), 4)
		default:
			out = append(out, `\U`...)
			out = appendHex(out, uint32(r), 8)
		}
	}
	return out
}

// quoteRune is Python's repr of the one-character string r.
func quoteRune(r rune) string { return string(AppendQuoted(nil, string(r))) }
