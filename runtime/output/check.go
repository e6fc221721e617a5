package output

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// Checker reads a JSON document for the checks that promptgen generates
// from an output schema. Generated code walks the document value by
// value, applying each schema keyword as JSON Schema (draft 2020-12 and
// draft-07, as santhosh-tekuri/jsonschema implements them) does, and the
// Checker collects the violations with their JSON pointers. It reads the
// document itself rather than the decoded Go value, so that it sees what
// decoding hides: absent members (required is presence, not a zero value)
// and nulls.
//
// Besides the schema's keywords, every output must name no member twice
// (keyword "duplicate"), name no member in another case than the property
// it stands for (keyword "properties"), and hold no number beyond
// MaxNumberLength and MaxExponent (keyword "number"). encoding/json would
// decode what the checks did not see otherwise: it matches member names
// to struct fields in any case, and decodes a member given twice into the
// value of the first (merging objects, keeping map entries).
//
// Every method that reads a value consumes exactly one value. Checkers
// are made by Check; generated code never keeps one.
type Checker struct {
	doc    string
	i      int  // offset of the next token
	bad    bool // a syntax error: checking has stopped at i
	errs   Errors
	frames []frame // the open objects and arrays, outermost first
	depth  int     // len of the used part of frames
	count  int     // distinct members or items of the container last closed
}

// frame is an open object or array.
type frame struct {
	object  bool
	started bool     // a member or item was read
	index   int      // the current item
	key     string   // the current member's name
	names   []string // the distinct member names read so far
	byName  map[string]bool
}

// largeObject is the member count from which duplicates are found with a map.
const largeObject = 32

// Limits on the numbers of an output. Comparing numbers exactly, as JSON
// Schema does, costs time that grows with their length and exponent, so
// that one short completion could otherwise take minutes to check; no Go
// number type holds such values anyway.
const (
	MaxNumberLength = 100 // bytes of a number's text
	MaxExponent     = 999 // magnitude of the exponent written after e or E
)

// Kind is the JSON type of a value.
type Kind uint8

const (
	Invalid Kind = iota // not a value: a syntax error, or the end
	Null
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"invalid", "null", "boolean", "number", "string", "array", "object"}

func (k Kind) String() string { return kindNames[k] }

var checkers = sync.Pool{New: func() any { return new(Checker) }}

// Check runs the generated check of a document's root value and returns
// nil, Errors, or an error wrapping ErrInvalidJSON when doc is not one
// JSON value. It neither modifies nor retains doc.
func Check(doc []byte, check func(*Checker)) error {
	c := checkers.Get().(*Checker)
	c.doc, c.i, c.bad, c.errs, c.depth = unsafe.String(unsafe.SliceData(doc), len(doc)), 0, false, c.errs[:0], 0
	check(c)
	if !c.bad && skipSpace(c.doc, c.i) != len(c.doc) {
		c.i, c.bad = skipSpace(c.doc, c.i), true
	}
	var err error
	switch {
	case c.bad:
		err = fmt.Errorf("%w at offset %d", ErrInvalidJSON, c.i)
	case len(c.errs) > 0:
		err = sortErrors(append(Errors(nil), c.errs...))
	}
	// Drop what refers to doc or to the errors returned.
	clear(c.errs)
	for i := range c.frames {
		f := &c.frames[i]
		clear(f.names[:cap(f.names)])
		f.key, f.byName = "", nil
	}
	c.doc = ""
	checkers.Put(c)
	return err
}

// Kind returns the type of the next value without reading it.
func (c *Checker) Kind() Kind {
	if c.bad {
		return Invalid
	}
	c.i = skipSpace(c.doc, c.i)
	if c.i == len(c.doc) {
		return Invalid
	}
	switch ch := c.doc[c.i]; {
	case ch == '{':
		return Object
	case ch == '[':
		return Array
	case ch == '"':
		return String
	case ch == 't' || ch == 'f':
		return Bool
	case ch == 'n':
		return Null
	case ch == '-' || '0' <= ch && ch <= '9':
		return Number
	}
	return Invalid
}

// fail stops checking at a syntax error.
func (c *Checker) fail(i int) {
	c.i, c.bad = i, true
}

// Skip reads the next value and checks only what every output must
// satisfy, whatever its schema: that objects name no member twice and
// that numbers are within the limits.
func (c *Checker) Skip() {
	if c.bad {
		return
	}
	base := c.depth
	for {
		switch c.Kind() {
		case Object, Array:
			c.Enter()
		case Number:
			c.Num()
		default:
			c.skipScalar()
		}
		// Move to the next member or item, closing containers down to base.
		for {
			if c.bad || c.depth == base {
				return
			}
			if f := &c.frames[c.depth-1]; f.object && c.Member() || !f.object && c.Item() {
				break
			}
		}
	}
}

// skipScalar reads a string, true, false or null.
func (c *Checker) skipScalar() {
	if c.bad {
		return
	}
	end, st := scanValue(c.doc, c.i)
	if st != scanOK {
		c.fail(end)
		return
	}
	c.i = end
}

// Str reads a string.
func (c *Checker) Str() string {
	if c.Kind() != String {
		c.fail(c.i)
		return ""
	}
	return c.readString()
}

// readString reads the string at c.i, decoded as encoding/json decodes it.
func (c *Checker) readString() string {
	start := c.i
	// The common case: printable ASCII, read once.
	for i := start + 1; i < len(c.doc); i++ {
		if b := c.doc[i]; b == '"' {
			c.i = i + 1
			return c.doc[start+1 : i]
		} else if !asciiPlain[b] {
			break
		}
	}
	end, st := scanString(c.doc, start)
	if st != scanOK {
		c.fail(end)
		return ""
	}
	c.i = end
	raw := c.doc[start+1 : end-1]
	if strings.IndexByte(raw, '\\') < 0 && utf8.ValidString(raw) {
		return raw
	}
	var s string
	if err := json.Unmarshal([]byte(c.doc[start:end]), &s); err != nil {
		c.fail(start)
	}
	return s
}

// asciiPlain marks the ASCII bytes that stand for themselves in a JSON string.
var asciiPlain = func() (t [256]bool) {
	for c := range 0x80 {
		t[c] = c >= 0x20 && c != '"' && c != '\\'
	}
	return t
}()

// Num reads a number and returns its text. A number beyond the limits is
// reported.
func (c *Checker) Num() string {
	if c.Kind() != Number {
		c.fail(c.i)
		return ""
	}
	start := c.i
	end, st := scanNumber(c.doc, start)
	if st != scanOK {
		c.fail(end)
		return ""
	}
	c.i = end
	n := c.doc[start:end]
	if !withinLimits(n) {
		c.Fail("number", "number beyond the limits: at most "+strconv.Itoa(MaxNumberLength)+" bytes, with an exponent of at most "+strconv.Itoa(MaxExponent))
	}
	return n
}

// withinLimits reports whether the JSON number n is within MaxNumberLength
// and MaxExponent.
func withinLimits(n string) bool {
	if len(n) > MaxNumberLength {
		return false
	}
	i := strings.IndexAny(n, "eE")
	if i < 0 {
		return true
	}
	e := strings.TrimLeft(strings.TrimLeft(n[i+1:], "+-"), "0")
	x, err := strconv.Atoi(e)
	return e == "" || err == nil && x <= MaxExponent
}

// Bool reads true or false.
func (c *Checker) Bool() bool {
	if c.Kind() != Bool {
		c.fail(c.i)
		return false
	}
	lit := "true"
	if c.doc[c.i] == 'f' {
		lit = "false"
	}
	if i, st := scanLiteral(c.doc, c.i, lit); st != scanOK {
		c.fail(i)
		return false
	}
	c.i += len(lit)
	return lit == "true"
}

// Enter reads the opening of the object or array that is the next value;
// Member or Item then read its contents.
func (c *Checker) Enter() {
	k := c.Kind()
	if k != Object && k != Array {
		c.fail(c.i)
		return
	}
	c.i++
	if c.depth == len(c.frames) {
		c.frames = append(c.frames, frame{})
	}
	f := &c.frames[c.depth]
	c.depth++
	f.object, f.started, f.index, f.key, f.names, f.byName = k == Object, false, 0, "", f.names[:0], nil
}

// Member moves to the next member of the object entered last and reports
// whether there is one; Key is then its name, and the caller reads its
// value; a name given before is reported. At the end of the object it
// closes it: Count is then the number of distinct member names.
func (c *Checker) Member() bool {
	if c.bad || c.depth == 0 {
		return false
	}
	f := &c.frames[c.depth-1]
	c.i = skipSpace(c.doc, c.i)
	if c.i == len(c.doc) {
		c.fail(c.i)
		return false
	}
	switch ch := c.doc[c.i]; {
	case ch == '}':
		c.i++
		c.count = len(f.names)
		c.depth--
		return false
	case f.started && ch != ',':
		c.fail(c.i)
		return false
	case f.started:
		c.i = skipSpace(c.doc, c.i+1)
	}
	if c.i == len(c.doc) || c.doc[c.i] != '"' {
		c.fail(c.i)
		return false
	}
	name := c.readString()
	c.i = skipSpace(c.doc, c.i)
	if c.bad || c.i == len(c.doc) || c.doc[c.i] != ':' {
		c.fail(c.i)
		return false
	}
	c.i++
	f.started, f.key = true, name
	if !f.add(name) {
		c.Fail("duplicate", "member "+strconv.Quote(name)+" is given more than once")
	}
	return true
}

// add adds a member name to the object f, unless f has it: then it
// reports false.
func (f *frame) add(name string) bool {
	if f.byName != nil {
		if f.byName[name] {
			return false
		}
		f.byName[name] = true
	} else {
		for _, n := range f.names {
			if n == name {
				return false
			}
		}
	}
	f.names = append(f.names, name)
	if f.byName == nil && len(f.names) > largeObject {
		f.byName = make(map[string]bool, 2*len(f.names))
		for _, n := range f.names {
			f.byName[n] = true
		}
	}
	return true
}

// Unknown reports the current member, whose name is none of properties,
// when it differs from one of them only in case: encoding/json would
// decode it as that property. Generated checks call it for every member
// that matches no property.
func (c *Checker) Unknown(properties ...string) {
	if p, ok := caseVariant(c.Key(), properties); ok {
		c.Fail("properties", caseMessage(c.Key(), p))
	}
}

// caseVariant returns the property that name differs from only in case,
// when name is none of properties: the field that encoding/json, which
// folds case as strings.EqualFold does, would decode the member into.
func caseVariant(name string, properties []string) (string, bool) {
	match := ""
	for _, p := range properties {
		if p == name {
			return "", false
		}
		if match == "" && strings.EqualFold(p, name) {
			match = p
		}
	}
	return match, match != ""
}

func caseMessage(name, property string) string {
	return "member " + strconv.Quote(name) + " is not " + strconv.Quote(property) + ": names are case-sensitive"
}

// Key returns the name of the current member.
func (c *Checker) Key() string {
	if c.depth == 0 {
		return ""
	}
	return c.frames[c.depth-1].key
}

// Item moves to the next item of the array entered last and reports
// whether there is one. At the end of the array it closes it: Count is
// then the number of items.
func (c *Checker) Item() bool {
	if c.bad || c.depth == 0 {
		return false
	}
	f := &c.frames[c.depth-1]
	c.i = skipSpace(c.doc, c.i)
	if c.i == len(c.doc) {
		c.fail(c.i)
		return false
	}
	switch ch := c.doc[c.i]; {
	case ch == ']':
		c.i++
		c.count = f.index
		if f.started {
			c.count++
		}
		c.depth--
		return false
	case f.started && ch != ',':
		c.fail(c.i)
		return false
	case f.started:
		c.i++
		f.index++
		if k := c.Kind(); k == Invalid {
			c.fail(c.i) // a trailing comma, or no value
			return false
		}
	}
	f.started = true
	return true
}

// Count returns the number of distinct members, or items, of the object
// or array that Member or Item closed last.
func (c *Checker) Count() int { return c.count }

// Offset returns the offset of the next value, for Seek.
func (c *Checker) Offset() int {
	c.i = skipSpace(c.doc, c.i)
	return c.i
}

// Seek moves back to a value at an offset that Offset returned.
func (c *Checker) Seek(offset int) { c.i = offset }

// pointer returns the JSON pointer of the current value.
func (c *Checker) pointer(depth int) string {
	var b strings.Builder
	for _, f := range c.frames[:depth] {
		b.WriteByte('/')
		if f.object {
			b.WriteString(escapeToken(f.key))
		} else {
			b.WriteString(strconv.Itoa(f.index))
		}
	}
	return b.String()
}

// Fail reports a violation of the current value (the member or item being
// read, or the container last closed).
func (c *Checker) Fail(keyword, message string) {
	c.errs = append(c.errs, &Error{Pointer: c.pointer(c.depth), Keyword: keyword, Message: message})
}

// failParent reports a violation of the object that holds the current member.
func (c *Checker) failParent(keyword, message string) {
	c.errs = append(c.errs, &Error{Pointer: c.pointer(c.depth - 1), Keyword: keyword, Message: message})
}

// TypeError reports that the next value is not of the types want (such as
// "string or null") and skips it.
func (c *Checker) TypeError(want string) {
	got := c.Kind().String()
	if c.bad {
		return
	}
	c.Fail("type", "expected "+want+", but got "+got)
	c.Skip()
}

// Extra reports that the current member is not allowed
// (additionalProperties: false) and skips its value.
func (c *Checker) Extra() {
	c.failParent("additionalProperties", "additionalProperties '"+c.Key()+"' not allowed")
	c.Skip()
}

// Required reports the required members that the object last closed
// lacks: names[i] was seen when bit i of has is set.
func (c *Checker) Required(has uint64, names ...string) {
	var missing []string
	for i, n := range names {
		if has&(1<<i) == 0 {
			missing = append(missing, "'"+n+"'")
		}
	}
	if len(missing) > 0 {
		c.Fail("required", "missing properties: "+strings.Join(missing, ", "))
	}
}

// Properties checks the member count of the object last closed; -1 is no
// limit.
func (c *Checker) Properties(min, max int) {
	if min >= 0 && c.count < min {
		c.Fail("minProperties", "minimum "+strconv.Itoa(min)+" properties allowed, but found "+strconv.Itoa(c.count)+" properties")
	}
	if max >= 0 && c.count > max {
		c.Fail("maxProperties", "maximum "+strconv.Itoa(max)+" properties allowed, but found "+strconv.Itoa(c.count)+" properties")
	}
}

// Items checks the item count of the array last closed; -1 is no limit.
func (c *Checker) Items(min, max int) {
	if min >= 0 && c.count < min {
		c.Fail("minItems", "minimum "+strconv.Itoa(min)+" items required, but found "+strconv.Itoa(c.count)+" items")
	}
	if max >= 0 && c.count > max {
		c.Fail("maxItems", "maximum "+strconv.Itoa(max)+" items required, but found "+strconv.Itoa(c.count)+" items")
	}
}

// UniqueItems checks that the items of the array that starts at offset
// start, and that was last closed, are distinct JSON values.
func (c *Checker) UniqueItems(start int) {
	if c.bad {
		return
	}
	end := c.i
	first := map[string]int{} // the index of the first item of each canonical text
	var b strings.Builder
	c.i = skipSpace(c.doc, start+1)
	for index := 0; c.i < end && c.doc[c.i] != ']'; index++ {
		b.Reset()
		if !c.canonical(&b) {
			c.fail(c.i)
			return
		}
		if j, ok := first[b.String()]; ok {
			c.Fail("uniqueItems", "items at index "+strconv.Itoa(j)+" and "+strconv.Itoa(index)+" are equal")
			break
		}
		first[b.String()] = index
		c.i = skipSpace(c.doc, c.i)
		if c.i < end && c.doc[c.i] == ',' {
			c.i = skipSpace(c.doc, c.i+1)
		}
	}
	c.i = end
}

// canonical reads the next value and writes a text that is the same for
// two values exactly when JSON Schema holds them equal: numbers by their
// value, objects whatever the order of their members (the last of
// duplicates counts, as in the validators that decode the document).
func (c *Checker) canonical(b *strings.Builder) bool {
	var v any
	switch k := c.Kind(); k {
	case String:
		v = c.readString()
	default:
		start := c.i
		end, st := scanValue(c.doc, start)
		if st != scanOK {
			return false
		}
		c.i = end
		text := c.doc[start:end]
		switch k {
		case Number:
			v = json.Number(text)
		case Bool:
			v = text == "true"
		case Object, Array:
			dec := json.NewDecoder(strings.NewReader(text))
			dec.UseNumber()
			if dec.Decode(&v) != nil {
				return false
			}
		}
	}
	canonicalValue(b, v)
	return !c.bad
}

// canonicalValue writes the canonical text of a decoded value.
func canonicalValue(b *strings.Builder, v any) {
	switch v := v.(type) {
	case string:
		b.WriteString(strconv.Quote(v))
	case json.Number:
		d := parseDecimal(string(v))
		if d.neg {
			b.WriteByte('-')
		}
		b.WriteString("0." + d.digits + "e" + strconv.FormatInt(d.exp, 10))
	case []any:
		b.WriteByte('[')
		for _, x := range v {
			canonicalValue(b, x)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case map[string]any:
		b.WriteByte('{')
		for _, k := range slices.Sorted(maps.Keys(v)) {
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			canonicalValue(b, v[k])
			b.WriteByte(',')
		}
		b.WriteByte('}')
	case bool:
		b.WriteString(strconv.FormatBool(v))
	default:
		b.WriteString("null")
	}
}

// Length checks the length of s in code points; -1 is no limit.
func (c *Checker) Length(s string, min, max int) {
	n := utf8.RuneCountInString(s)
	if min >= 0 && n < min {
		c.Fail("minLength", "length must be >= "+strconv.Itoa(min)+", but got "+strconv.Itoa(n))
	}
	if max >= 0 && n > max {
		c.Fail("maxLength", "length must be <= "+strconv.Itoa(max)+", but got "+strconv.Itoa(n))
	}
}

// Pattern is a compiled pattern keyword.
type Pattern struct {
	re *regexp.Regexp
	// class is set for patterns of the form ^[...]+$ or ^[...]*$ over
	// ASCII: a byte table decides them, as regexp would.
	class *[256]bool
	empty bool // the class pattern matches ""
}

// MustCompilePattern compiles a pattern (Go's RE2 syntax, as jsonschema
// compiles it) for package-level variables of generated code.
func MustCompilePattern(expr string) *Pattern {
	p := &Pattern{re: regexp.MustCompile(expr)}
	p.class, p.empty = asciiClass(expr)
	return p
}

// asciiClass returns the byte table of a pattern ^[class]+$ or
// ^[class]*$ whose class holds only ASCII, or nil.
func asciiClass(expr string) (*[256]bool, bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, false
	}
	re = re.Simplify()
	if re.Op != syntax.OpConcat || len(re.Sub) != 3 || re.Sub[0].Op != syntax.OpBeginText || re.Sub[2].Op != syntax.OpEndText {
		return nil, false
	}
	rep := re.Sub[1]
	if rep.Op != syntax.OpPlus && rep.Op != syntax.OpStar || len(rep.Sub) != 1 || rep.Sub[0].Op != syntax.OpCharClass {
		return nil, false
	}
	var t [256]bool
	rs := rep.Sub[0].Rune
	for i := 0; i+1 < len(rs); i += 2 {
		if rs[i+1] >= utf8.RuneSelf {
			return nil, false
		}
		for r := rs[i]; r <= rs[i+1]; r++ {
			t[r] = true
		}
	}
	return &t, rep.Op == syntax.OpStar
}

// MatchString reports whether the pattern matches s anywhere, as the
// pattern keyword requires.
func (p *Pattern) MatchString(s string) bool {
	if p.class == nil {
		return p.re.MatchString(s)
	}
	if s == "" {
		return p.empty
	}
	for i := 0; i < len(s); i++ {
		if !p.class[s[i]] {
			return false
		}
	}
	return true
}

// Pattern checks that p matches s.
func (c *Checker) Pattern(s string, p *Pattern) {
	if !p.MatchString(s) {
		c.Fail("pattern", "does not match pattern '"+p.re.String()+"'")
	}
}

// IsInteger reports whether the JSON number n has an integer value, as
// the type "integer" requires ("1.0" and "1e2" do).
func IsInteger(n string) bool {
	if strings.IndexAny(n, ".eE") < 0 {
		return true
	}
	d := parseDecimal(n)
	return int64(len(d.digits)) <= d.exp
}

// decimal is the exact value of a JSON number: 0.digits × 10^exp, negated
// when neg. digits has neither leading nor trailing zeros; zero has none
// and is not negative.
type decimal struct {
	neg    bool
	digits string
	exp    int64
}

// parseDecimal reads a JSON number in time linear in its length, however
// large its exponent.
func parseDecimal(n string) decimal {
	var d decimal
	if n[0] == '-' {
		d.neg, n = true, n[1:]
	}
	mant, e := n, ""
	if i := strings.IndexAny(n, "eE"); i >= 0 {
		mant, e = n[:i], n[i+1:]
	}
	whole, frac, _ := strings.Cut(mant, ".")
	d.digits, d.exp = whole+frac, int64(len(whole))+exponent(e)
	for len(d.digits) > 0 && d.digits[0] == '0' {
		d.digits, d.exp = d.digits[1:], d.exp-1
	}
	d.digits = strings.TrimRight(d.digits, "0")
	if d.digits == "" {
		return decimal{}
	}
	return d
}

// exponent reads the exponent of a JSON number, saturating far beyond any
// number a document can hold.
func exponent(e string) int64 {
	neg := strings.HasPrefix(e, "-")
	var x int64
	for _, c := range strings.TrimLeft(e, "+-") {
		x = min(10*x+int64(c-'0'), 1<<40)
	}
	if neg {
		return -x
	}
	return x
}

// cmp compares two decimals.
func (a decimal) cmp(b decimal) int {
	if a.neg != b.neg {
		if a.neg {
			return -1
		}
		return 1
	}
	c := 0
	switch {
	case a.digits == "" || b.digits == "":
		c = len(a.digits) - len(b.digits) // zero is the smallest magnitude
	case a.exp != b.exp:
		c = int(a.exp - b.exp)
	default:
		c = strings.Compare(a.digits, b.digits)
	}
	if a.neg {
		c = -c
	}
	return min(max(c, -1), 1)
}

// numberCmp compares two JSON numbers by their exact values.
func numberCmp(a, b string) int {
	if a == b {
		return 0
	}
	x, errX := strconv.ParseFloat(a, 64)
	y, errY := strconv.ParseFloat(b, 64)
	// Rounding to float64 keeps order, so different floats decide;
	// equal ones (or out of range) need the exact values.
	if errX == nil && errY == nil && x != y {
		if x < y {
			return -1
		}
		return 1
	}
	return parseDecimal(a).cmp(parseDecimal(b))
}

// Minimum checks n >= min, given as JSON text.
func (c *Checker) Minimum(n, min string) {
	if numberCmp(n, min) < 0 {
		c.Fail("minimum", "must be >= "+min+" but found "+n)
	}
}

// Maximum checks n <= max.
func (c *Checker) Maximum(n, max string) {
	if numberCmp(n, max) > 0 {
		c.Fail("maximum", "must be <= "+max+" but found "+n)
	}
}

// ExclusiveMinimum checks n > min.
func (c *Checker) ExclusiveMinimum(n, min string) {
	if numberCmp(n, min) <= 0 {
		c.Fail("exclusiveMinimum", "must be > "+min+" but found "+n)
	}
}

// ExclusiveMaximum checks n < max.
func (c *Checker) ExclusiveMaximum(n, max string) {
	if numberCmp(n, max) >= 0 {
		c.Fail("exclusiveMaximum", "must be < "+max+" but found "+n)
	}
}

// MultipleOf checks that n divided by m is an integer. A number beyond
// the limits, which Num reported, is not divided.
func (c *Checker) MultipleOf(n, m string) {
	if !withinLimits(n) {
		return
	}
	x, okX := new(big.Rat).SetString(n)
	y, okY := new(big.Rat).SetString(m)
	if !okX || !okY || y.Sign() == 0 || !new(big.Rat).Quo(x, y).IsInt() {
		c.Fail("multipleOf", n+" not multipleOf "+m)
	}
}

// NumberIn reports whether the JSON number n equals one of values.
func NumberIn(n string, values ...string) bool {
	for _, v := range values {
		if numberCmp(n, v) == 0 {
			return true
		}
	}
	return false
}

// try runs check on the value at start without keeping its errors, and
// returns how many it reported; the position is back at start.
func (c *Checker) try(start int, check func(*Checker)) int {
	n, depth := len(c.errs), c.depth
	c.i = start
	check(c)
	found := len(c.errs) - n
	clear(c.errs[n:])
	c.errs, c.i, c.depth = c.errs[:n], start, depth
	return found
}

// OneOf checks that exactly one of the branches accepts the next value,
// without reading it. When none does, it reports the errors of the branch
// with the fewest, the one the model most likely meant.
func (c *Checker) OneOf(branches ...func(*Checker)) {
	c.union("oneOf", branches)
}

// AnyOf checks that at least one of the branches accepts the next value,
// without reading it, and reports as OneOf does when none does.
func (c *Checker) AnyOf(branches ...func(*Checker)) {
	c.union("anyOf", branches)
}

func (c *Checker) union(keyword string, branches []func(*Checker)) {
	if c.Kind() == Invalid {
		c.fail(c.i)
		return
	}
	start := c.i
	valid, best, fewest := 0, 0, -1
	for k, b := range branches {
		n := c.try(start, b)
		if c.bad {
			return
		}
		switch {
		case n == 0:
			valid++
		case fewest < 0 || n < fewest:
			best, fewest = k, n
		}
	}
	switch {
	case valid == 0:
		branches[best](c)
		c.i = start
	case valid > 1 && keyword == "oneOf":
		c.Fail("oneOf", "valid against more than one schema of oneOf")
	}
}
