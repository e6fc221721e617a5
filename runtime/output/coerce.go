package output

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Fix is one repair the schema-aligned parser made to reach a value of the
// schema: where (a JSON pointer into the output), and what.
type Fix struct {
	Pointer string
	Kind    string
}

func (f Fix) String() string {
	if f.Pointer == "" {
		return f.Kind
	}
	return f.Pointer + ": " + f.Kind
}

// Fixes the coercion makes, besides the reader's repairs.
const (
	fixNumberFromString = "number read from a string"
	fixStringFromValue  = "value written as a string"
	fixBoolFromString   = "boolean read from text"
	fixOneItemList      = "single value made a one-item list"
	fixItemOfList       = "one-item list read as its item"
	fixEnumCase         = "enum value matched ignoring case and punctuation"
	fixEnumPrefix       = "enum value matched with text after it"
	fixEnumInText       = "enum value found in the text"
	fixEnumAlias        = "enum value matched by its alias"
	fixMemberName       = "member name matched ignoring case and punctuation"
	fixMemberAlias      = "member name matched by its alias"
	fixExtraMember      = "member the schema does not have dropped"
	fixRepeatedMember   = "member given twice with the same value dropped"
	fixIntegralFloat    = "integral number made an integer"
	fixTruncated        = "value the answer ended inside, closed (nothing required is missing)"
	fixMissingNull      = "required member that may be null left out, read as null"
)

// kindChanges are the fixes that read a value as another kind than the
// one written: a string as a number or a boolean, a value as a string or
// as a one-item list.
var kindChanges = map[string]bool{
	fixNumberFromString: true, fixStringFromValue: true, fixBoolFromString: true,
	fixOneItemList: true, fixItemOfList: true,
}

// compareFixes orders two readings of an answer, or of a value: the one
// that changes fewer values' kinds is better (a list written as a list
// beats the whole text as a one-item list, an object member beats the
// object as a string), then the one with fewer fixes. It returns -1 when
// a is better, 1 when b is, 0 when they fit as well.
func compareFixes(a, b []Fix) int {
	count := func(fs []Fix) (changes int) {
		for _, f := range fs {
			if kindChanges[f.Kind] {
				changes++
			}
		}
		return changes
	}
	if ca, cb := count(a), count(b); ca != cb {
		return cmpInt(ca, cb)
	}
	return cmpInt(len(a), len(b))
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// mismatch is the error of a value that cannot be mapped onto the schema,
// with the keyword the rest of the package uses (type, required, enum) or
// ambiguous (it fits more than one way) or truncated (the answer ends
// inside it).
func mismatch(ptr, keyword, format string, args ...any) error {
	return Errors{{Pointer: ptr, Keyword: keyword, Message: fmt.Sprintf(format, args...)}}
}

// coercer turns what the reader read into JSON of the shape.
type coercer struct {
	fixes []Fix
}

func (c *coercer) fix(ptr, kind string) { c.fixes = append(c.fixes, Fix{ptr, kind}) }

// value returns the JSON value (for encoding/json) of n as shape s wants.
func (c *coercer) value(n *loose, s *shape, ptr string) (any, error) {
	for _, r := range n.repairs {
		c.fix(ptr, r)
	}
	return c.shaped(n, s, ptr)
}

// shaped is value without reporting the reader's repairs of n: for the
// members of a union and the item of a one-item list, which stand where n
// was reported.
func (c *coercer) shaped(n *loose, s *shape, ptr string) (any, error) {
	for s.ref != nil {
		s = s.ref
	}
	if n.kind == looseString && !n.closed {
		// Whatever the schema wants, the string may go on.
		return nil, mismatch(ptr, "truncated", "the answer ends inside the string")
	}
	if len(s.anyOf) > 0 {
		return c.union(n, s, ptr)
	}
	if s.types&typeNull != 0 && n.kind == looseWord && isNullWord(n.text) {
		return nil, nil
	}
	if n.kind == looseArray && len(n.elems) == 1 && n.closed && s.types&typeArray == 0 && (s.types != 0 || s.enum != nil) {
		// One item where one value is wanted: ["TWO"] for an enum.
		c.fix(ptr, fixItemOfList)
		return c.value(n.elems[0], s, ptr)
	}
	if s.enum != nil {
		return c.enumValue(n, s, ptr)
	}
	switch primary := s.types &^ typeNull; {
	case primary == 0:
		return c.anyValue(n)
	case primary&typeObject != 0 && n.kind == looseObject:
		return c.object(n, s, ptr)
	case primary&typeArray != 0:
		return c.array(n, s, ptr)
	case primary&typeObject != 0:
		return nil, mismatch(ptr, "type", "got %s, want an object", describeLoose(n))
	case primary&(typeNumber|typeInteger) != 0 && (n.kind == looseNumber || primary&typeString == 0):
		return c.number(n, primary&typeNumber == 0, ptr)
	case primary&typeBoolean != 0 && primary&typeString == 0:
		return c.boolean(n, ptr)
	case primary&typeString != 0:
		return c.str(n, ptr)
	}
	return c.anyValue(n)
}

// union tries every member; the best fit wins (compareFixes). Two members
// that fit as well and give different values are an error.
func (c *coercer) union(n *loose, s *shape, ptr string) (any, error) {
	var best any
	var bestFixes []Fix
	found, tie := false, false
	var lastErr error
	for _, m := range s.anyOf {
		try := &coercer{}
		v, err := try.shaped(n, m, ptr)
		if err != nil {
			lastErr = err
			continue
		}
		switch cmp := compareFixes(try.fixes, bestFixes); {
		case !found || cmp < 0:
			best, bestFixes, found, tie = v, try.fixes, true, false
		case cmp == 0 && !sameJSON(v, best):
			tie = true
		}
	}
	switch {
	case !found:
		return nil, lastErr
	case tie:
		return nil, mismatch(ptr, "ambiguous", "fits more than one of the schema's alternatives")
	}
	c.fixes = append(c.fixes, bestFixes...)
	return best, nil
}

func (c *coercer) object(n *loose, s *shape, ptr string) (any, error) {
	out := map[string]any{}
	taken := map[*property]bool{}
	for i, key := range n.keys {
		p, how := s.property(key)
		if p != nil && taken[p] {
			// A second member for one property: the same value twice is
			// a repair, two values a guess the parser does not make.
			v, err := (&coercer{}).value(n.elems[i], p.shape, ptr+"/"+escapeToken(p.name))
			if err != nil || !sameJSON(v, out[p.name]) {
				return nil, mismatch(ptr+"/"+escapeToken(p.name), "duplicate", "member %q is given twice, with different values", p.name)
			}
			c.fix(ptr+"/"+escapeToken(key), fixRepeatedMember)
			continue
		}
		if p == nil {
			if s.additional == nil {
				c.fix(ptr+"/"+escapeToken(key), fixExtraMember)
				continue
			}
			v, err := c.value(n.elems[i], s.additional, ptr+"/"+escapeToken(key))
			if err != nil {
				return nil, err
			}
			out[key] = v
			continue
		}
		taken[p] = true
		if how != "" {
			c.fix(ptr+"/"+escapeToken(p.name), how)
		}
		v, err := c.value(n.elems[i], p.shape, ptr+"/"+escapeToken(p.name))
		if err != nil {
			return nil, err
		}
		out[p.name] = v
	}
	for _, p := range s.props {
		switch {
		case !p.required || taken[p]:
		case n.closed && p.shape.acceptsNull():
			// Left out, as a model that writes only what it has leaves a
			// member whose schema lets it be null (strict mode's way of
			// saying optional); the answer ending early is not that.
			out[p.name] = nil
			c.fix(ptr+"/"+escapeToken(p.name), fixMissingNull)
		default:
			return nil, mismatch(ptr, "required", "missing required member %q", p.name)
		}
	}
	if !n.closed {
		c.fix(ptr, fixTruncated)
	}
	return out, nil
}

// acceptsNull reports whether s says null is one of its values (by type,
// enum or anyOf; a schema that says nothing of null is not taken to).
func (s *shape) acceptsNull() bool {
	for s.ref != nil {
		s = s.ref
	}
	if s.enum != nil {
		return slices.Contains(s.enum, nil)
	}
	if s.types&typeNull != 0 {
		return true
	}
	return slices.ContainsFunc(s.anyOf, (*shape).acceptsNull)
}

// property finds the property that member name key stands for, and how
// it matched ("" when exactly).
func (s *shape) property(key string) (*property, string) {
	for _, p := range s.props {
		if p.name == key {
			return p, ""
		}
	}
	for _, p := range s.props {
		for _, a := range p.aliases {
			if a == key {
				return p, fixMemberAlias
			}
		}
	}
	var match *property
	for _, p := range s.props {
		if normalize(p.name) == normalize(key) {
			if match != nil {
				return nil, ""
			}
			match = p
		}
	}
	if match != nil {
		return match, fixMemberName
	}
	return nil, ""
}

func (c *coercer) array(n *loose, s *shape, ptr string) (any, error) {
	items := s.items
	if items == nil {
		items = &shape{}
	}
	if n.kind != looseArray {
		v, err := c.shaped(n, items, ptr+"/0")
		if err != nil {
			return nil, err
		}
		c.fix(ptr, fixOneItemList)
		return []any{v}, nil
	}
	out := []any{}
	for i, e := range n.elems {
		v, err := c.value(e, items, ptr+"/"+strconv.Itoa(i))
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if !n.closed {
		c.fix(ptr, fixTruncated)
	}
	return out, nil
}

// numberText is the number a text writes, as strconv reads it: without a
// currency sign (also after the sign: -$5.00), commas between groups of
// three, or the full stop of a sentence (12.11.).
func numberText(text string) string {
	t := strings.TrimSpace(text)
	sign := ""
	if strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+") {
		sign, t = t[:1], t[1:]
	}
	t = sign + strings.TrimLeft(t, "$€£")
	if strings.HasSuffix(t, ".") && !strings.HasSuffix(t, "..") {
		t = strings.TrimSuffix(t, ".")
	}
	if thousands.MatchString(t) {
		t = strings.ReplaceAll(t, ",", "")
	}
	return t
}

// thousands is a number written with commas between groups of three.
var thousands = regexp.MustCompile(`^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$`)

func (c *coercer) number(n *loose, integer bool, ptr string) (any, error) {
	text := n.text
	switch n.kind {
	case looseNumber:
		if !n.closed {
			return nil, mismatch(ptr, "truncated", "the answer ends inside the number %s", text)
		}
		if t := numberText(text); t != text {
			text = t // 12.11. at the end of a sentence
			c.fix(ptr, fixNumberFromString)
		}
	case looseString, looseWord:
		text = numberText(text)
		c.fix(ptr, fixNumberFromString)
	default:
		return nil, mismatch(ptr, "type", "got %s, want a number", describeLoose(n))
	}
	text = strings.TrimPrefix(text, "+")
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, mismatch(ptr, "type", "%q is not a number", n.text)
	}
	exact := jsonNumber.MatchString(text) // kept as written: no digit is lost
	if integer {
		if f != math.Trunc(f) {
			return nil, mismatch(ptr, "type", "%s is not an integer", text)
		}
		if !strings.ContainsAny(text, ".eE") && exact {
			return json.Number(text), nil
		}
		c.fix(ptr, fixIntegralFloat)
		return json.Number(strconv.FormatFloat(f, 'f', -1, 64)), nil
	}
	if exact {
		return json.Number(text), nil
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
}

// jsonNumber is a number literal as JSON writes it.
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$`)

// boolWord finds the one boolean a text states: "true", "False", or a
// sentence holding exactly one of the two words.
var boolWord = regexp.MustCompile(`(?i)\b(true|false)\b`)

func (c *coercer) boolean(n *loose, ptr string) (any, error) {
	if n.kind != looseWord && n.kind != looseString {
		return nil, mismatch(ptr, "type", "got %s, want a boolean", describeLoose(n))
	}
	t := strings.ToLower(strings.TrimSpace(n.text))
	if n.kind == looseWord && (t == "true" || t == "false") && n.text == t {
		return t == "true", nil
	}
	found := map[bool]bool{}
	for _, m := range boolWord.FindAllString(n.text, -1) {
		found[strings.EqualFold(m, "true")] = true
	}
	switch len(found) {
	case 0:
		return nil, mismatch(ptr, "type", "%q states no boolean", n.text)
	case 2:
		return nil, mismatch(ptr, "ambiguous", "%q states both true and false", n.text)
	}
	c.fix(ptr, fixBoolFromString)
	return found[true], nil
}

func (c *coercer) str(n *loose, ptr string) (any, error) {
	switch n.kind {
	case looseString:
		return n.text, nil
	case looseWord:
		if n.text == "null" {
			return nil, mismatch(ptr, "type", "got null, want a string")
		}
		return n.text, nil // the reader recorded the unquoted string
	}
	v, err := c.anyValue(n)
	if err != nil {
		return nil, err
	}
	b, _ := json.Marshal(v)
	c.fix(ptr, fixStringFromValue)
	return strings.Trim(string(b), `"`), nil
}

// enumValue matches the text of n against the enum: exactly, by alias,
// ignoring case and punctuation, then as the start of the text ("ONE: the
// first"). Each step must find exactly one value.
func (c *coercer) enumValue(n *loose, s *shape, ptr string) (any, error) {
	if n.kind == looseNumber {
		v, err := c.number(n, false, ptr)
		if err != nil {
			return nil, err
		}
		for _, e := range s.enum {
			if f, ok := e.(float64); ok && json.Number(strconv.FormatFloat(f, 'g', -1, 64)) == v {
				return e, nil
			}
		}
		return nil, mismatch(ptr, "enum", "%s is not one of %s", n.text, enumList(s.enum))
	}
	if n.kind != looseString && n.kind != looseWord {
		return nil, mismatch(ptr, "enum", "got %s, want one of %s", describeLoose(n), enumList(s.enum))
	}
	text := n.text
	for _, e := range s.enum {
		if es, ok := e.(string); ok && es == text {
			return e, nil
		}
	}
	if v, ok := s.aliases[text]; ok {
		c.fix(ptr, fixEnumAlias)
		return v, nil
	}
	// Matched by a spelling (the value or an alias) ignoring case and
	// punctuation, then as words in the text ("ONE: the first", "The
	// answer is **one**"): either way, exactly one value may match.
	spellings := s.spellings()
	var found []spelling
	for _, sp := range spellings {
		if normalize(sp.text) == normalize(text) && !hasValue(found, sp.value) {
			found = append(found, sp)
		}
	}
	how := fixEnumCase
	if len(found) == 0 {
		found = mentioned(normalizeKeepSpace(text), spellings)
		how = fixEnumInText
		if len(found) == 1 && startsWithWord(normalizeKeepSpace(text), normalizeKeepSpace(found[0].text)) {
			how = fixEnumPrefix
		}
	}
	switch {
	case len(found) > 1:
		return nil, mismatch(ptr, "ambiguous", "%q matches several enum values", text)
	case len(found) == 1:
		if found[0].alias {
			c.fix(ptr, fixEnumAlias)
		}
		c.fix(ptr, how)
		return found[0].value, nil
	}
	return nil, mismatch(ptr, "enum", "%q is not one of %s", text, enumList(s.enum))
}

// spelling is a way to write an enum value: itself, or an alias.
type spelling struct {
	text  string
	value any
	alias bool
}

// spellings returns the string values of s's enum and their aliases.
func (s *shape) spellings() []spelling {
	var out []spelling
	for _, e := range s.enum {
		if es, ok := e.(string); ok {
			out = append(out, spelling{text: es, value: e})
		}
	}
	for _, a := range slices.Sorted(maps.Keys(s.aliases)) {
		out = append(out, spelling{text: a, value: s.aliases[a], alias: true})
	}
	return out
}

func hasValue(found []spelling, v any) bool {
	return slices.ContainsFunc(found, func(sp spelling) bool { return sp.value == v })
}

// mentioned returns the values whose spellings occur as words in text
// (normalized), one spelling each: the first that occurs. A mention inside
// a longer one ("one" in "one two" when "one two" is a spelling too) does
// not count.
func mentioned(text string, spellings []spelling) []spelling {
	type mention struct {
		start, end int
		sp         spelling
	}
	var ms []mention
	for _, sp := range spellings {
		word := normalizeKeepSpace(sp.text)
		for i := 0; word != "" && i+len(word) <= len(text); {
			j := strings.Index(text[i:], word)
			if j < 0 {
				break
			}
			j += i
			if (j == 0 || text[j-1] == ' ') && startsWithWord(text[j:], word) {
				ms = append(ms, mention{j, j + len(word), sp})
			}
			i = j + 1
		}
	}
	var found []spelling
	for _, m := range ms {
		inside := slices.ContainsFunc(ms, func(o mention) bool {
			return o.start <= m.start && m.end <= o.end && o.end-o.start > m.end-m.start
		})
		if !inside && !hasValue(found, m.sp.value) {
			found = append(found, m.sp)
		}
	}
	return found
}

// enumList writes the first values of an enum for a message.
func enumList(enum []any) string {
	const shown = 10
	var b strings.Builder
	for i, e := range enum {
		if i == shown {
			fmt.Fprintf(&b, " and %d more", len(enum)-shown)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		v, _ := json.Marshal(e)
		b.Write(v)
	}
	return b.String()
}

// anyValue is n as plain JSON, for a schema that allows anything there.
func (c *coercer) anyValue(n *loose) (any, error) {
	switch n.kind {
	case looseObject:
		out := map[string]any{}
		for i, k := range n.keys {
			v, err := c.anyValue(n.elems[i])
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return out, nil
	case looseArray:
		out := []any{}
		for _, e := range n.elems {
			v, err := c.anyValue(e)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case looseNumber:
		if _, err := strconv.ParseFloat(n.text, 64); err != nil {
			return n.text, nil
		}
		return json.Number(strings.TrimPrefix(n.text, "+")), nil
	case looseWord:
		switch strings.ToLower(n.text) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		if isNullWord(n.text) {
			return nil, nil
		}
	}
	return n.text, nil
}

func isNullWord(s string) bool {
	switch s {
	case "null", "None", "nil", "undefined", "NULL":
		return true
	}
	return false
}

// normalize keeps the letters and digits of s, lower-cased.
func normalize(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// normalizeKeepSpace is normalize with every run of other characters one
// space, so that word boundaries stay.
func normalizeKeepSpace(s string) string {
	fields := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return strings.Join(fields, " ")
}

// startsWithWord reports whether text starts with the words of value,
// followed by the end or a word boundary.
func startsWithWord(text, value string) bool {
	return value != "" && strings.HasPrefix(text, value) && (len(text) == len(value) || text[len(value)] == ' ')
}

func describeLoose(n *loose) string {
	switch n.kind {
	case looseObject:
		return "an object"
	case looseArray:
		return "a list"
	case looseString:
		return "a string"
	case looseNumber:
		return "a number"
	}
	return strconv.Quote(n.text)
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
