package jinja

import (
	"html"
	"math"
	"math/big"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/promptgen/promptgen/runtime"
)

// moreFilters are the filters of Filter that take every argument as
// Jinja2 3.1 does: center(width), escape, filesizeformat(binary),
// urlencode, sum(attribute, start), min and max(case_sensitive,
// attribute), wordwrap(width, break_long_words, wrapstring,
// break_on_hyphens), striptags, wordcount, xmlattr(autospace),
// forceescape, groupby(attribute, default, case_sensitive) and
// slice(slices, fill_with) (lists where Jinja2 yields generators), and
// tojson(indent) as map applies it: Jinja2's (Markup), "tfjson"
// transformers' and "tfjsonascii" transformers' with ensure_ascii=True
// (see ToJSON); and "index()" and "count()", the methods of a dynamic
// value (indexCount), whose arguments are those given.
var moreFilters = map[string]func(x Value, args []Value) (Value, error){
	"index()":        func(x Value, args []Value) (Value, error) { return indexCount("index", x, args) },
	"count()":        func(x Value, args []Value) (Value, error) { return indexCount("count", x, args) },
	"center":         centerValue,
	"indent":         indentValue,
	"escape":         escapeValue,
	"filesizeformat": fileSizeFormat,
	"urlencode":      urlEncode,
	"sum":            sumValue,
	"min":            func(x Value, args []Value) (Value, error) { return minMax(x, "<", args) },
	"max":            func(x Value, args []Value) (Value, error) { return minMax(x, ">", args) },
	"wordwrap":       wordwrapValue,
	"striptags":      func(x Value, _ []Value) (Value, error) { return StringValue(StripTags(x.String())), nil },
	"xmlattr":        xmlAttr,
	"wordcount":      func(x Value, _ []Value) (Value, error) { return IntValue(WordCount(x.String())), nil },
	"forceescape":    func(x Value, _ []Value) (Value, error) { return escapeValue(StringValue(x.String()), nil) },
	"groupby":        groupBy,
	"slice":          sliceColumns,
	"tojson":         jsonFilter("tojson"),
	"tfjson":         jsonFilter("tfjson"),
	"tfjsonascii":    jsonFilter("tfjsonascii"),
}

// jsonFilter is the tojson filter op, one of moreFilters' names, with an
// int indent argument (none for none): Markup where it is Jinja2's, a str
// where it is transformers'.
func jsonFilter(op string) func(Value, []Value) (Value, error) {
	return func(x Value, args []Value) (Value, error) {
		indent := argAt(args, 0)
		var s string
		var err error
		if op == "tfjsonascii" {
			s, err = ToTransformersASCIIJSON(x, int(indent.i), indent.kind == intKind)
		} else {
			s, err = ToJSON(x, int(indent.i), indent.kind == intKind, op == "tfjson")
		}
		if err != nil || op != "tojson" {
			return StringValue(s), err
		}
		return MarkupValue(StringValue(s)), nil
	}
}

// groupBy is Jinja2's groupby(attribute, default, case_sensitive): the
// items of x sorted by their attribute (strings lowered unless
// case_sensitive), grouped where consecutive keys are equal, as the
// (grouper, list) namedtuples whose grouper is the attribute of the
// group's first item.
func groupBy(x Value, args []Value) (Value, error) {
	items, err := x.rest()
	if err != nil {
		return Value{}, err
	}
	path, def, caseSensitive := attrPath(argAt(args, 0).String()), argAt(args, 1), argAt(args, 2).Truth()
	key := func(v Value) (Value, error) {
		k, err := getPathDefault(v, path, def)
		if err != nil || caseSensitive {
			return k, err
		}
		return ignoreCase(k), nil
	}
	keys := make([]Value, len(items))
	for i, item := range items {
		if keys[i], err = key(item); err != nil {
			return Value{}, err
		}
	}
	sorted, err := pySorted(items, keys, false)
	if err != nil {
		return Value{}, err
	}
	var out []Value
	var groupKey Value
	for i, item := range sorted {
		k, _ := key(item) // read without error above
		if i > 0 && Equal(k, groupKey) {
			last := &out[len(out)-1].list[1]
			last.list = append(last.list, item)
			continue
		}
		grouper, _ := getPathDefault(item, path, def)
		group := TupleValue(grouper, ListValue(item))
		group.group = true
		out, groupKey = append(out, group), k
	}
	return ListValue(out...), nil
}

// sliceColumns is Jinja2's slice(slices, fill_with): the items of x cut
// into slices lists of consecutive items, the first ones one longer
// where the count does not divide, the others filled with fill_with
// where it is not None.
func sliceColumns(x Value, args []Value) (Value, error) {
	slices, fill := argAt(args, 0), argAt(args, 1)
	if slices.kind != intKind && slices.kind != boolKind {
		return Value{}, errInvalid("slice needs an int count of slices, not '%s'", slices.typeName())
	}
	items, err := x.rest()
	if err != nil {
		return Value{}, err
	}
	n := int(slices.i)
	switch {
	case n == 0:
		return Value{}, errInvalid("integer division or modulo by zero")
	case n < 0:
		return ListValue(), nil // range(n) is empty
	case !fits(0, n, 2): // each slice prints as "[]" at least
		return Value{}, &runtime.Error{Err: runtime.ErrTooLarge}
	}
	var out []Value
	per, extra := len(items)/n, len(items)%n
	offset := 0
	for i := 0; i < n; i++ {
		start := offset + i*per
		if i < extra {
			offset++
		}
		column := append([]Value{}, items[start:offset+(i+1)*per]...)
		if fill.kind != noneKind && fill.kind != undefinedKind && i >= extra {
			column = append(column, fill)
		}
		out = append(out, ListValue(column...))
	}
	return ListValue(out...), nil
}

// WordCount is Jinja2's wordcount: the number of runs of Python's Unicode
// \w, which is exactly the letters, numbers and '_' (a combining mark
// splits a word, as in Python).
func WordCount(s string) int {
	n, inWord := 0, false
	for _, r := range s {
		w := r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
		if w && !inWord {
			n++
		}
		inWord = w
	}
	return n
}

// xmlAttr is Jinja2's xmlattr(autospace=True) of a dict: key="value" of
// each key whose value is not None (nor undefined), escaped, joined with
// spaces, after a space where autospace.
func xmlAttr(x Value, args []Value) (Value, error) {
	switch x.kind {
	case undefinedKind:
		return Value{}, errUndefined()
	case dictKind:
	default:
		return Value{}, errInvalid("'%s' object has no attribute 'items'", x.typeName())
	}
	var b strings.Builder
	for i, k := range x.dict.keys {
		v := x.dict.vals[i]
		if v.kind == noneKind || v.kind == undefinedKind {
			continue
		}
		if strings.ContainsAny(k, " \t\n\r\f\v/>=") {
			return Value{}, errInvalid("Invalid character in attribute name: %s", AppendQuoted(nil, k))
		}
		if b.Len() > 0 || argAt(args, 0).kind == undefinedKind || argAt(args, 0).Truth() {
			b.WriteByte(' ')
		}
		ek, okK := Escape(k)
		ev, okV := v.String(), true
		if !v.markup { // escape leaves Markup as it is
			ev, okV = Escape(ev)
		}
		if !okK || !okV {
			return Value{}, &runtime.Error{Err: runtime.ErrTooLarge}
		}
		b.WriteString(ek + `="` + ev + `"`)
	}
	return StringValue(b.String()), nil
}

// StripTags is Jinja2's striptags (markupsafe 3's Markup.striptags): s
// without its comments, then its tags, its whitespace runs made single
// spaces, and its HTML entities unescaped.
func StripTags(s string) string {
	for _, cut := range [][2]string{{"<!--", "-->"}, {"<", ">"}} {
		for {
			start := strings.Index(s, cut[0])
			if start < 0 {
				break
			}
			end := strings.Index(s[start:], cut[1])
			if end < 0 {
				break
			}
			s = s[:start] + s[start+end+len(cut[1]):]
		}
	}
	return pyUnescape(strings.Join(splitSpace(s, -1), " "))
}

// pyUnescape is Python's html.unescape: numeric references by its rules,
// named ones by Go's, which agrees on them, between.
func pyUnescape(s string) string {
	var b strings.Builder
	last := 0
	named := func(text string) {
		// Go reads "&#" without digits as a reference, Python as text.
		for i, part := range strings.Split(text, "&#") {
			if i > 0 {
				b.WriteString("&#")
			}
			b.WriteString(html.UnescapeString(part))
		}
	}
	for _, m := range numericCharRef.FindAllStringIndex(s, -1) {
		named(s[last:m[0]])
		last = m[1]
		ref := s[m[0]:m[1]]
		digits, base := strings.TrimSuffix(ref[2:], ";"), 10
		if digits[0] == 'x' || digits[0] == 'X' {
			digits, base = digits[1:], 16
		}
		n, _ := new(big.Int).SetString(digits, base)
		switch c := n.Int64(); {
		case !n.IsInt64() || c > utf8.MaxRune || 0xD800 <= c && c <= 0xDFFF || c == 0:
			b.WriteRune(utf8.RuneError)
		case 0x80 <= c && c <= 0x9f || c == 0x0d:
			b.WriteString(html.UnescapeString("&#" + n.String() + ";")) // cp1252, as Python's _invalid_charrefs
		case !pyInvalidCodepoint(c):
			b.WriteRune(rune(c))
		}
	}
	named(s[last:])
	return b.String()
}

var numericCharRef = regexp.MustCompile(`&#(?:[0-9]+|[xX][0-9a-fA-F]+);?`)

// pyInvalidCodepoint reports whether Python's html.unescape drops the
// numeric reference of code point c (its _invalid_codepoints).
func pyInvalidCodepoint(c int64) bool {
	switch {
	case 0x1 <= c && c <= 0x8, c == 0xb, 0xe <= c && c <= 0x1f, 0x7f <= c && c <= 0x9f, 0xfdd0 <= c && c <= 0xfdef:
		return true
	}
	return c <= 0x10ffff && c&0xfffe == 0xfffe
}

// wordwrapValue is Wordwrap with the filter's arguments: width=79,
// break_long_words=True, wrapstring=None (a newline), break_on_hyphens=True.
func wordwrapValue(x Value, args []Value) (Value, error) {
	switch x.kind {
	case undefinedKind:
		return Value{}, errUndefined()
	case stringKind:
	default:
		return Value{}, errInvalid("'%s' object has no attribute 'splitlines'", x.typeName())
	}
	width, breakLong, wrapstring, breakHyphens := 79, true, "\n", true
	var err error
	if w := argAt(args, 0); w.kind != undefinedKind {
		if width, err = intArg(w, "wordwrap", "width"); err != nil {
			return Value{}, err
		}
	}
	if b := argAt(args, 1); b.kind != undefinedKind {
		breakLong = b.Truth()
	}
	switch w := argAt(args, 2); w.kind {
	case undefinedKind, noneKind:
	case stringKind:
		wrapstring = w.s
	default:
		return Value{}, errInvalid("'%s' object has no attribute 'join'", w.typeName())
	}
	if b := argAt(args, 3); b.kind != undefinedKind {
		breakHyphens = b.Truth()
	}
	s, err := Wordwrap(x.s, width, breakLong, wrapstring, breakHyphens)
	return StringValue(s), err
}

// argAt is args[i], undefined where absent.
func argAt(args []Value, i int) Value {
	if i < len(args) {
		return args[i]
	}
	return Value{}
}

// intArg is the int argument name of filter, as Python's int parameters
// take it (a bool is an int).
func intArg(v Value, filter, name string) (int, error) {
	if v.kind != intKind && v.kind != boolKind {
		return 0, errInvalid("%s: %s must be an integer, not %s", filter, name, v.typeName())
	}
	return int(v.i), nil
}

// centerValue is str(x).center(width), with Python's placement of an odd
// margin (Markup of Markup).
func centerValue(x Value, args []Value) (Value, error) {
	width := 80
	if w := argAt(args, 0); w.kind != undefinedKind && w.kind != noneKind {
		var err error
		if width, err = intArg(w, "center", "width"); err != nil {
			return Value{}, err
		}
	}
	s := x.String()
	marg := width - utf8.RuneCountInString(s)
	if marg <= 0 {
		return x.textOf(s), nil
	}
	if !fits(len(s), marg, 1) {
		return Value{}, &runtime.Error{Err: runtime.ErrTooLarge}
	}
	left := marg/2 + (marg & width & 1)
	return x.textOf(strings.Repeat(" ", left) + s + strings.Repeat(" ", marg-left)), nil
}

// indentValue is Jinja2 3.1's indent(width, first, blank) of x: width
// spaces (an int or a bool) or width itself (a string) before the lines
// Indent indents. Python raises where x is no string (the filter appends
// "\n" to it) and where width is neither; of Markup it returns Markup.
func indentValue(x Value, args []Value) (Value, error) {
	s, ok := x.Str()
	switch {
	case x.kind == undefinedKind || argAt(args, 0).kind == undefinedKind:
		return Value{}, errUndefined()
	case !ok:
		return Value{}, errInvalid("unsupported operand type(s) for +=: '%s' and 'str'", x.typeName())
	}
	indent, ok := argAt(args, 0).Str()
	if !ok {
		n, err := intArg(argAt(args, 0), "indent", "width")
		if err != nil {
			return Value{}, err
		}
		if !fits(len(s), max(n, 0), 1) {
			return Value{}, &runtime.Error{Err: runtime.ErrTooLarge}
		}
		indent = strings.Repeat(" ", max(n, 0))
	}
	out, ok := Indent(s, indent, argAt(args, 1).Truth(), argAt(args, 2).Truth())
	if !ok {
		return Value{}, &runtime.Error{Err: runtime.ErrTooLarge}
	}
	return Value{kind: stringKind, s: out, markup: x.markup}, nil
}

// escapeValue is the filter escape: markupsafe's escape of str(x)
// (Escape), Markup; Markup as it is.
func escapeValue(x Value, _ []Value) (Value, error) {
	if x.markup {
		return x, nil
	}
	s, ok := Escape(x.String())
	if !ok {
		return Value{}, &runtime.Error{Err: runtime.ErrTooLarge}
	}
	return MarkupValue(StringValue(s)), nil
}

// fileSizeFormat is Jinja2's filesizeformat: float(x) bytes as decimal
// (kB, MB, ...) or, with binary, binary (KiB, MiB, ...) units.
func fileSizeFormat(x Value, args []Value) (Value, error) {
	var bytes float64
	switch x.kind {
	case undefinedKind:
		return Value{}, errUndefined()
	case intKind, boolKind, floatKind:
		bytes = x.float()
	case stringKind:
		f, ok := floatOfString(x.s)
		if !ok {
			return Value{}, errInvalid("could not convert string to float: %s", AppendQuoted(nil, x.s))
		}
		bytes = f
	default:
		return Value{}, errInvalid("float() argument must be a string or a real number, not '%s'", x.typeName())
	}
	base, prefixes := int64(1000), []string{"kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"}
	if argAt(args, 0).Truth() {
		base, prefixes = 1024, []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"}
	}
	switch {
	case bytes == 1:
		return StringValue("1 Byte"), nil
	case bytes < float64(base):
		n, err := intOfFloatValue(bytes)
		if err != nil {
			return Value{}, err
		}
		return StringValue(n + " Bytes"), nil
	}
	// Python compares the float with the exact int unit, and divides by
	// the unit rounded to a float.
	unit := new(big.Int)
	prefix := ""
	for i, p := range prefixes {
		unit.Exp(big.NewInt(base), big.NewInt(int64(i+2)), nil)
		prefix = p
		if !math.IsNaN(bytes) && new(big.Float).SetFloat64(bytes).Cmp(new(big.Float).SetInt(unit)) < 0 {
			break
		}
	}
	u, _ := new(big.Float).SetInt(unit).Float64()
	// The value is not negative: a negative size is less than base.
	return StringValue(string(formatPyFloat(float64(base)*bytes/u, 'f', 1, false)) + " " + prefix), nil
}

// intOfFloatValue is str(int(f)).
func intOfFloatValue(f float64) (string, error) {
	n, err := printfInt('d', FloatValue(f))
	if err != nil {
		return "", err
	}
	return n.String(), nil
}

// urlEncode is Jinja2's urlencode: a string (or a value that is not
// iterable) quoted for a URL path, or a dict or list of pairs as a query
// string.
func urlEncode(x Value, _ []Value) (Value, error) {
	if x.kind != listKind && x.kind != dictKind && x.kind != undefinedKind {
		return StringValue(urlQuote(x.String(), false)), nil
	}
	var pairs [][2]Value
	if x.kind == dictKind {
		for i := range x.dict.keys {
			pairs = append(pairs, [2]Value{x.dict.key(i), x.dict.vals[i]})
		}
	} else {
		items, _ := x.rest()
		for _, it := range items {
			kv, err := it.Unpack(2)
			if err != nil {
				return Value{}, err
			}
			pairs = append(pairs, [2]Value{kv[0], kv[1]})
		}
	}
	var b strings.Builder
	for i, kv := range pairs {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(urlQuote(kv[0].String(), true))
		b.WriteByte('=')
		b.WriteString(urlQuote(kv[1].String(), true))
		if b.Len() > runtime.MaxOutput {
			return Value{}, &runtime.Error{Err: runtime.ErrTooLarge}
		}
	}
	return StringValue(b.String()), nil
}

// urlQuote is Jinja2's url_quote: the UTF-8 bytes of s percent-encoded
// but letters, digits, _.-~ and, for a path (not forQuery), /; for a
// query, a space is +.
func urlQuote(s string, forQuery bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("_.-~", c) >= 0, c == '/' && !forQuery:
			b.WriteByte(c)
		case c == ' ' && forQuery:
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&15])
		}
	}
	return b.String()
}

// sumValue is sum(items, start) of the items of x (their attribute where
// given), added with Python's +.
func sumValue(x Value, args []Value) (Value, error) {
	items, err := x.rest()
	if err != nil {
		return Value{}, err
	}
	total := IntValue(0)
	if s := argAt(args, 1); s.kind != undefinedKind {
		total = s
	}
	if total.kind == stringKind {
		return Value{}, errInvalid("sum() can't sum strings [use ''.join(seq) instead]")
	}
	var path []Value
	if a := argAt(args, 0); a.kind == stringKind || a.kind == intKind {
		path = attrPath(a.String())
	}
	for _, it := range items {
		if path != nil {
			if it, err = getPath(it, path); err != nil {
				return Value{}, err
			}
		}
		if total, err = Arith("+", total, it); err != nil {
			return Value{}, err
		}
	}
	return total, nil
}

// minMax is min (op "<") or max (op ">") of the items of x by their key:
// the item or its attribute, strings lowered unless case_sensitive; the
// first of equal items; undefined of no item.
func minMax(x Value, op string, args []Value) (Value, error) {
	items, err := x.rest()
	if err != nil || len(items) == 0 {
		return Value{}, err
	}
	caseSensitive := argAt(args, 0).Truth()
	var path []Value
	if a := argAt(args, 1); a.kind == stringKind || a.kind == intKind {
		path = attrPath(a.String())
	}
	key := func(v Value) (Value, error) {
		k, err := getPath(v, path)
		if err != nil || caseSensitive {
			return k, err
		}
		return ignoreCase(k), nil
	}
	best := items[0]
	bestKey, err := key(best)
	if err != nil {
		return Value{}, err
	}
	for _, it := range items[1:] {
		k, err := key(it)
		if err != nil {
			return Value{}, err
		}
		better, err := Compare(op, k, bestKey)
		if err != nil {
			return Value{}, err
		}
		if better {
			best, bestKey = it, k
		}
	}
	return best, nil
}

// indexCount is Python's x.index(args...) or x.count(args...) (name) of
// a dynamic value: str's of a string (a substring, in x[start:end]),
// list's and tuple's of a list (an item equal to args[0]; index in
// x[start:end], count with no more argument), and the UndefinedError of
// another value, which has no such method. ValueError where index finds
// nothing, TypeError for arguments Python refuses, fail with ErrInvalid.
func indexCount(name string, x Value, args []Value) (Value, error) {
	if x.kind != stringKind && x.kind != listKind {
		return Value{}, errUndefined()
	}
	most := 3
	if x.kind == listKind && name == "count" {
		most = 1
	}
	switch {
	case most == 1 && len(args) != 1:
		return Value{}, errInvalid("%s() takes exactly one argument (%d given)", name, len(args))
	case len(args) == 0 || len(args) > most:
		return Value{}, errInvalid("%s() takes from 1 to %d arguments (%d given)", name, most, len(args))
	}
	// start and end: ints (a bool is one) or, of a string, None for the
	// default; a start not given before a given end is 0.
	span := make([]int, len(args)-1)
	for i, a := range args[1:] {
		switch {
		case a.kind == intKind || a.kind == boolKind:
			span[i] = int(a.i)
		case a.kind == noneKind && x.kind == stringKind && i == 0:
		case a.kind == noneKind && x.kind == stringKind:
			span = span[:1]
		default:
			return Value{}, errInvalid("slice indices must be integers or None or have an __index__ method")
		}
	}
	if x.kind == stringKind {
		sub := args[0]
		if sub.kind != stringKind {
			return Value{}, errInvalid("must be str, not %s", sub.typeName())
		}
		if name == "count" {
			return IntValue(Count(x.s, sub.s, span...)), nil
		}
		i := search(x.s, sub.s, false, span)
		if i < 0 {
			return Value{}, errInvalid("substring not found")
		}
		return IntValue(i), nil
	}
	if name == "count" {
		n := 0
		for _, it := range x.list {
			if Equal(it, args[0]) {
				n++
			}
		}
		return IntValue(n), nil
	}
	start, end := bounds(len(x.list), span)
	for i := start; i < end; i++ {
		if Equal(x.list[i], args[0]) {
			return IntValue(i), nil
		}
	}
	return Value{}, errInvalid("list.index(x): x not in list")
}
