package jinja

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/promptgen/promptgen/runtime"
)

// Value is a dynamic value, as a chat template's context holds them (the
// messages, tools and documents that apply_chat_template passes): Jinja2's
// undefined (the zero Value), None, a bool, an int, a float, a string, a
// list or a dict whose keys are strings in insertion order. It behaves as
// the Python value does in Jinja2 3.1: it prints as str() does, is true as
// Python's truth, compares with ==, <, in, subscripts, iterates and has a
// length as Python's, and decodes from and encodes to JSON keeping the
// order of object keys. Operations that Jinja2 rejects at render time
// return a *runtime.Error without position, with ErrUndefined where Jinja2
// raises UndefinedError and ErrInvalid (and Python's reason) elsewhere.
//
// Ints are int64 and wrap, as promptgen's typed ints do.
type Value struct {
	kind valueKind
	// tuple marks a list that is a Python tuple: dict items and
	// dictsort's pairs.
	tuple bool
	// group marks a tuple that is groupby's (grouper, list) namedtuple,
	// whose items are also its attributes grouper and list.
	group bool
	// markup marks a string that is Jinja2's Markup (MarkupValue).
	markup bool
	s      string
	i      int64 // an int, or a bool as 0 or 1
	f      float64
	list   []Value
	dict   *dict
	// it is the state of an iterator (IteratorValue), which every copy
	// of the Value shares; nil for a generator passed unrun.
	it *iterator
}

// iterator is what an iterator has yet to yield: items from pos on,
// then where its items are made as pulled (GenIterator) what pull makes
// (nil once it has none left). handed marks one whose items Iter handed
// out to a loop, which may stop before the end; src is the iterator pull
// reads, handed out with it.
type iterator struct {
	items  []Value
	pos    int
	handed bool
	pull   func() (Value, bool, error)
	src    *iterator
}

type valueKind uint8

const (
	undefinedKind valueKind = iota
	noneKind
	boolKind
	intKind
	floatKind
	stringKind
	listKind
	dictKind
	// methodKind is a method of a dict, str, list or number that Jinja2
	// reads for x['items'] where x has no such key (and for x.items):
	// s names it, i holds the kind of its owner.
	methodKind
	// generatorKind is a Python iterator: a generator or a reverse
	// iterator (IteratorValue), or one passed unrun to a macro that
	// calls itself, as Hermes-2-Pro's template passes json_spec|items
	// (GeneratorValue). s names its Python type.
	generatorKind
)

// dict is a Python dict with string keys (and int keys, a dict
// literal's), in insertion order.
type dict struct {
	keys []string
	vals []Value
	// ints marks the keys that are ints, written in decimal in keys
	// ({0: 'a'}); nil where every key is a string.
	ints []bool
}

// isInt reports whether key i is an int.
func (d *dict) isInt(i int) bool { return d.ints != nil && d.ints[i] }

// key returns key i as a Value.
func (d *dict) key(i int) Value {
	if d.isInt(i) {
		n, _ := strconv.ParseInt(d.keys[i], 10, 64)
		return Value{kind: intKind, i: n}
	}
	return StringValue(d.keys[i])
}

// find returns the index of key, as Python's dict finds it: a string
// key, or an int one by a number equal to it (True is 1, 2.0 is 2); -1
// where it has none.
func (d *dict) find(key Value) int {
	switch {
	case key.kind == stringKind:
		return d.index(key.s)
	case d.ints == nil:
	case key.kind == intKind || key.kind == boolKind:
		return d.intIndex(key.i)
	case key.kind == floatKind && key.f == math.Trunc(key.f) && math.Abs(key.f) < 1<<63:
		return d.intIndex(int64(key.f))
	}
	return -1
}

// intIndex returns the index of the int key n, or -1.
func (d *dict) intIndex(n int64) int {
	s := strconv.FormatInt(n, 10)
	for i, k := range d.keys {
		if k == s && d.isInt(i) {
			return i
		}
	}
	return -1
}

// index returns the index of the string key, or -1.
func (d *dict) index(key string) int {
	for i, k := range d.keys {
		if k == key && !d.isInt(i) {
			return i
		}
	}
	return -1
}

// StringValue returns the string s.
func StringValue(s string) Value { return Value{kind: stringKind, s: s} }

// MarkupItemsOf returns v, the list Python's split() or splitlines() of
// recv made (or the string another str method of recv returned), with
// Markup items (as Markup: MarkupValue) where recv is Markup, as
// Markup's methods return them, and as it is elsewhere.
func MarkupItemsOf(v, recv Value) Value {
	if recv.markup {
		return MarkupValue(v)
	}
	return v
}

// MarkupValue returns v as Jinja2's Markup when v is a string, as a
// tojson, safe or escape result is: + escapes the plain string it is
// added to, and so does the sum; *, an item, a slice and reverse keep
// it Markup, and a list prints it as Markup('...'). Of a list or tuple
// (Markup's split() or partition()), it returns a copy whose string
// items are Markup. Other values are returned as they are.
func MarkupValue(v Value) Value {
	if v.kind == listKind {
		items := make([]Value, len(v.list))
		for i, it := range v.list {
			items[i] = it
			items[i].markup = it.kind == stringKind
		}
		v.list = items
		return v
	}
	v.markup = v.kind == stringKind
	return v
}

// IntValue returns the int i.
func IntValue(i int) Value { return Value{kind: intKind, i: int64(i)} }

// FloatValue returns the float f.
func FloatValue(f float64) Value { return Value{kind: floatKind, f: f} }

// BoolValue returns the bool b.
func BoolValue(b bool) Value {
	v := Value{kind: boolKind}
	if b {
		v.i = 1
	}
	return v
}

// NoneValue returns None.
func NoneValue() Value { return Value{kind: noneKind} }

// ListValue returns a list of items.
func ListValue(items ...Value) Value {
	if items == nil {
		items = []Value{}
	}
	return Value{kind: listKind, list: items}
}

// StringsValue returns a list of the strings ss.
func StringsValue(ss []string) Value {
	items := make([]Value, len(ss))
	for i, s := range ss {
		items[i] = StringValue(s)
	}
	return ListValue(items...)
}

// GeneratorValue returns a generator of Python type typ ("generator", or
// "list_reverseiterator" for reverse of a list), as Jinja2's map,
// select, reject, unique, items, batch and slice filters return one
// without running (after evaluating their operand and arguments, whose
// values, evaluated, it takes): it is true, defined and iterable, its
// attributes other than its methods are undefined, and it is not
// printed, iterated (errNotIterated) or compared with another.
func GeneratorValue(typ string, evaluated ...Value) Value {
	return Value{kind: generatorKind, s: typ}
}

// DictMethod returns the method name of a dict (items, get, keys,
// values, copy, fromkeys), as Jinja2 reads d.name of a dict whatever its
// keys: it is true, defined and callable, and is not printed.
func DictMethod(name string) Value {
	return Value{kind: methodKind, s: name, i: int64(dictKind)}
}

// IteratorValue returns a Python iterator of type typ ("generator",
// "list_reverseiterator", "reversed", "dict_reversekeyiterator") that
// yields the items of items, a list, in order: what a generator filter
// yields (its work already done, where it cannot fail) or what reverse
// makes of a list. Every copy of it shares its place, as Python's name
// for one object: a loop, list, join, sort or reverse of it takes the
// items left (and leaves none), first one, in those up to the one found.
// It is true, defined and iterable, no sequence, equal only to itself;
// its attributes are the Python type's (most undefined); it has no
// length, last or JSON, and is not printed (CheckPrint).
func IteratorValue(typ string, items Value) Value {
	return Value{kind: generatorKind, s: typ, it: &iterator{items: items.list}}
}

// GenIterator returns the generator of Python type typ that Jinja2's
// generator filters gens (from the innermost out: unique, map of an
// attribute or of a filter) make of src: its items are made as they are
// pulled, each filter's work on an item where it is pulled (a later item
// that fails fails nothing until then), the items of src too where it is
// an iterator, whose place the generator shares. It is an IteratorValue
// otherwise.
func GenIterator(typ string, src Value, gens ...*Gen) Value {
	it := &iterator{}
	var items []Value // src's, once pulled
	started := false
	if src.kind == generatorKind && src.it != nil {
		it.src = src.it
	}
	it.pull = func() (Value, bool, error) {
		for {
			var x Value
			switch {
			case it.src != nil:
				y, ok, err := src.next()
				if !ok || err != nil {
					return Value{}, false, err
				}
				x = y
			default:
				if !started {
					started = true
					var err error
					if items, err = gens[0].Items(src); err != nil {
						return Value{}, false, err
					}
				}
				if len(items) == 0 {
					return Value{}, false, nil
				}
				x, items = items[0], items[1:]
			}
			keep := true
			for _, g := range gens {
				k, err := g.Next(x)
				if err != nil {
					return Value{}, false, err
				}
				if keep = k; !keep {
					break
				}
				x = g.Item()
			}
			if keep {
				return x, true, nil
			}
		}
	}
	return Value{kind: generatorKind, s: typ, it: it}
}

// next pulls the next item of v, an iterator, if it has one left.
func (v Value) next() (x Value, ok bool, err error) {
	if v.it.handed {
		return Value{}, false, errHandedOut(v)
	}
	if v.it.pos < len(v.it.items) {
		v.it.pos++
		return v.it.items[v.it.pos-1], true, nil
	}
	if v.it.pull == nil {
		return Value{}, false, nil
	}
	x, ok, err = v.it.pull()
	if !ok {
		v.it.pull = nil // a Python generator that raised is done
	}
	return x, ok, err
}

// errHandedOut is the failure of reading g, an iterator, after Iter
// handed out its items to a loop: Python's is left where the loop
// stopped, which promptgen does not follow.
func errHandedOut(g Value) error {
	return errInvalid("a %s read again after a loop over it: Python resumes it where the loop stopped, which promptgen does not follow (convert it with | list where it is made)", g.s)
}

// DictValue returns an empty dict; Set adds its keys.
func DictValue() Value { return Value{kind: dictKind, dict: &dict{}} }

// DictOf returns the dict of keys and vals, distinct keys each with the
// value at its index, in that order. It keeps both slices, which the
// caller must not change after: a caller that builds many dicts can carve
// them out of one array each.
func DictOf(keys []string, vals []Value) Value {
	return Value{kind: dictKind, dict: &dict{keys: keys[:len(keys):len(keys)], vals: vals[:len(vals):len(vals)]}}
}

// Set sets key to val in v, a dict, in place: a new key goes last, an
// existing key keeps its place. It returns v; on a value that is not a
// dict it does nothing.
func (v Value) Set(key string, val Value) Value {
	if v.kind != dictKind {
		return v
	}
	if i := v.dict.index(key); i >= 0 {
		v.dict.vals[i] = val
	} else {
		v.dict.add(key, false, val)
	}
	return v
}

// SetInt sets the int key n to val in v, a dict, as Set does.
func (v Value) SetInt(n int, val Value) Value {
	if v.kind != dictKind {
		return v
	}
	if i := v.dict.intIndex(int64(n)); i >= 0 {
		v.dict.vals[i] = val
	} else {
		v.dict.add(strconv.Itoa(n), true, val)
	}
	return v
}

// add adds a key, an int one written in decimal where isInt, last.
func (d *dict) add(key string, isInt bool, val Value) {
	if isInt && d.ints == nil {
		d.ints = make([]bool, len(d.keys), len(d.keys)+1)
	}
	d.keys = append(d.keys, key)
	d.vals = append(d.vals, val)
	if d.ints != nil {
		d.ints = append(d.ints, isInt)
	}
}

// Defined reports whether v is not Jinja2's undefined.
func (v Value) Defined() bool { return v.kind != undefinedKind }

// Str returns v as a Go string when it is a string.
func (v Value) Str() (string, bool) { return v.s, v.kind == stringKind }

// Lookup returns the value of key in v when v is a dict that has it.
func (v Value) Lookup(key string) (Value, bool) {
	if v.kind != dictKind {
		return Value{}, false
	}
	if i := v.dict.index(key); i >= 0 {
		return v.dict.vals[i], true
	}
	return Value{}, false
}

// List returns the items of v when it is a list.
func (v Value) List() ([]Value, bool) { return v.list, v.kind == listKind }

// Dict returns the keys of v and their values, in order, when it is a
// dict: the dict's own slices, which the caller must not change.
func (v Value) Dict() (keys []string, values []Value, ok bool) {
	if v.kind != dictKind {
		return nil, nil, false
	}
	return v.dict.keys, v.dict.vals, true
}

// typeName is the name of v's Python type, for error details.
func (v Value) typeName() string {
	if v.tuple {
		return "tuple"
	}
	if v.markup {
		return "Markup"
	}
	if v.kind == generatorKind {
		return cmp.Or(v.s, "generator") // a method's owner has no name
	}
	return [...]string{"Undefined", "NoneType", "bool", "int", "float", "str", "list", "dict", "builtin_function_or_method"}[v.kind]
}

// isNumber reports whether v is an int, a float or a bool, which Python
// computes with alike.
func (v Value) isNumber() bool { return v.kind == boolKind || v.kind == intKind || v.kind == floatKind }

func (v Value) float() float64 {
	if v.kind == floatKind {
		return v.f
	}
	return float64(v.i)
}

// errUndefined is Jinja2's UndefinedError for a use of an undefined value.
func errUndefined() error { return &runtime.Error{Err: runtime.ErrUndefined} }

// errInvalid is a Python exception at render time, with its reason.
func errInvalid(format string, args ...any) error {
	return &runtime.Error{Err: runtime.ErrInvalid, Detail: fmt.Sprintf(format, args...)}
}

// At returns err, a failure of a Value operation, with the prompt and the
// position of the template where it happened.
func At(err error, prompt, pos string) error {
	var re *runtime.Error
	if !errors.As(err, &re) {
		return &runtime.Error{Prompt: prompt, Pos: pos, Err: runtime.ErrInvalid, Detail: err.Error()}
	}
	e := *re
	e.Prompt, e.Pos = prompt, pos
	return &e
}

// Truth is Python's truthiness of v; undefined is false.
func (v Value) Truth() bool {
	switch v.kind {
	case boolKind, intKind:
		return v.i != 0
	case floatKind:
		return v.f != 0
	case stringKind:
		return v.s != ""
	case listKind:
		return len(v.list) > 0
	case dictKind:
		return len(v.dict.keys) > 0
	case methodKind, generatorKind:
		return true
	}
	return false
}

// AppendStr appends str(v), as Jinja2 prints v; undefined prints nothing.
func (v Value) AppendStr(dst []byte) []byte {
	if v.kind == stringKind {
		return append(dst, v.s...)
	}
	if v.kind == undefinedKind {
		return dst
	}
	return v.AppendRepr(dst)
}

// CheckPrint fails where v is or holds a method or a generator, whose
// str Jinja2 prints with its address in memory (<built-in method items
// of dict object at 0x7f...>, <generator object ... at 0x7f...>), which
// no other renderer reproduces. Where it returns nil, AppendStr and
// String print v as Jinja2 does.
func (v Value) CheckPrint() error {
	if m, ok := findMethod(v, false); ok && m.kind == generatorKind {
		return errPrintsAddress(m.s)
	} else if ok {
		return errInvalid("%s is a method, which Jinja2 prints with its address in memory (<built-in method %s of %s object at 0x...>): promptgen does not print it", m.methodName(), m.s, valueKind(m.i).typeName())
	}
	return nil
}

// errPrintsAddress is the failure on printing a generator of Python type
// typ (generator, list_reverseiterator).
func errPrintsAddress(typ string) error {
	return errInvalid("a %s, which Jinja2 prints with its address in memory (<%s object ... at 0x...>): promptgen does not print it", typ, typ)
}

// findMethod returns the first method or generator v is or holds; with
// unkept, the first method or generator passed unrun (GeneratorValue),
// whose identity a Value does not keep.
func findMethod(v Value, unkept bool) (Value, bool) {
	switch v.kind {
	case methodKind:
		return v, true
	case generatorKind:
		return v, !unkept || v.it == nil
	case listKind:
		for _, x := range v.list {
			if m, ok := findMethod(x, unkept); ok {
				return m, true
			}
		}
	case dictKind:
		for _, x := range v.dict.vals {
			if m, ok := findMethod(x, unkept); ok {
				return m, true
			}
		}
	}
	return Value{}, false
}

// Text returns str(v), failing as CheckPrint does.
func (v Value) Text() (string, error) {
	if err := v.CheckPrint(); err != nil {
		return "", err
	}
	return v.String(), nil
}

// String returns str(v).
func (v Value) String() string {
	if v.kind == stringKind {
		return v.s
	}
	return string(v.AppendStr(nil))
}

// AppendRepr appends Python's repr of v, as it prints inside a list or
// dict: a string quoted, undefined as Undefined.
func (v Value) AppendRepr(dst []byte) []byte {
	switch v.kind {
	case undefinedKind:
		return append(dst, "Undefined"...)
	case noneKind:
		return append(dst, "None"...)
	case boolKind:
		return AppendBool(dst, v.i != 0)
	case intKind:
		return strconv.AppendInt(dst, v.i, 10)
	case floatKind:
		return AppendFloat(dst, v.f)
	case stringKind:
		if v.markup {
			return append(AppendQuoted(append(dst, "Markup("...), v.s), ')')
		}
		return AppendQuoted(dst, v.s)
	case methodKind:
		// Python's text at a made-up address: CheckPrint keeps the
		// renderers from printing it; only its words count (wordcount).
		dst = append(append(append(dst, "<built-in method "...), v.s...), " of "...)
		return append(append(dst, valueKind(v.i).typeName()...), " object at 0x0>"...)
	case generatorKind:
		// As a method's. A generator's text names its function, one word.
		dst = append(append(dst, '<'), v.s...)
		if v.s == "generator" {
			dst = append(dst, " object genexpr at 0x0>"...)
		} else {
			dst = append(dst, " object at 0x0>"...)
		}
		return dst
	case listKind:
		open, close := byte('['), byte(']')
		if v.tuple {
			open, close = '(', ')'
		}
		dst = append(dst, open)
		for i, x := range v.list {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = x.AppendRepr(dst)
		}
		if v.tuple && len(v.list) == 1 {
			dst = append(dst, ',')
		}
		return append(dst, close)
	}
	dst = append(dst, '{')
	for i, k := range v.dict.keys {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		if v.dict.isInt(i) {
			dst = append(dst, k...)
		} else {
			dst = AppendQuoted(dst, k)
		}
		dst = append(dst, ": "...)
		dst = v.dict.vals[i].AppendRepr(dst)
	}
	return append(dst, '}')
}

// EqualMethods is Equal where a and b may hold methods or generators:
// it fails where both do, as Python compares two methods by the identity
// of their owners (x['items'] == x['items'] is true, and false for
// another dict with the same items), and two generators passed unrun by
// their own, which Values do not keep. An iterator (IteratorValue) is
// equal only to itself.
func EqualMethods(a, b Value) (bool, error) {
	if m, ok := findMethod(a, true); ok {
		if n, ok := findMethod(b, true); ok {
			why := "methods by the identity of their owners"
			if m.kind == generatorKind || n.kind == generatorKind {
				why = "a generator by its identity"
			}
			return false, errInvalid("%s compared with %s: Python compares %s, which promptgen does not keep", m.opaqueName(), n.opaqueName(), why)
		}
	}
	return Equal(a, b), nil
}

// opaqueName names v, a method (dict.items) or a generator (generator).
func (v Value) opaqueName() string {
	if v.kind == generatorKind {
		return v.s
	}
	return v.methodName()
}

// Equal is Python's a == b (True == 1, 1 == 1.0; dicts equal whatever
// their order); undefined equals only undefined.
func Equal(a, b Value) bool {
	switch {
	case a.isNumber() && b.isNumber():
		return cmpNumbers(a, b) == 0
	case a.kind != b.kind || a.tuple != b.tuple:
		return false
	case a.kind == stringKind:
		return a.s == b.s
	case a.kind == listKind:
		if len(a.list) != len(b.list) {
			return false
		}
		for i := range a.list {
			if !Equal(a.list[i], b.list[i]) {
				return false
			}
		}
		return true
	case a.kind == dictKind:
		if len(a.dict.keys) != len(b.dict.keys) {
			return false
		}
		for i := range a.dict.keys {
			j := b.dict.find(a.dict.key(i))
			if j < 0 || !Equal(a.dict.vals[i], b.dict.vals[j]) {
				return false
			}
		}
		return true
	case a.kind == methodKind:
		return a.s == b.s && a.i == b.i // as if of the same owner: see EqualMethods
	case a.kind == generatorKind && (a.it != nil || b.it != nil):
		return a.it == b.it
	case a.kind == generatorKind:
		return a.s == b.s // as if the same: see EqualMethods
	}
	return true // undefined, None
}

// Compare is Python's ordering of a and b, -1, 0 or +1: numbers, strings
// (by code point) and lists (item by item) order; other operands fail.
func Compare(op string, a, b Value) (bool, error) {
	c, err := compare(op, a, b)
	if err != nil || c == unordered {
		return false, err
	}
	switch op {
	case "<":
		return c < 0, nil
	case "<=":
		return c <= 0, nil
	case ">":
		return c > 0, nil
	}
	return c >= 0, nil
}

func compare(op string, a, b Value) (int, error) {
	switch {
	case a.kind == undefinedKind || b.kind == undefinedKind:
		return 0, errUndefined()
	case a.isNumber() && b.isNumber():
		return cmpNumbers(a, b), nil
	case a.kind == stringKind && b.kind == stringKind:
		return cmp.Compare(a.s, b.s), nil
	case a.kind == listKind && b.kind == listKind && a.tuple == b.tuple:
		for i := 0; i < len(a.list) && i < len(b.list); i++ {
			if Equal(a.list[i], b.list[i]) {
				continue
			}
			return compare(op, a.list[i], b.list[i])
		}
		return cmp.Compare(len(a.list), len(b.list)), nil
	}
	return 0, errInvalid("'%s' not supported between instances of '%s' and '%s'", op, a.typeName(), b.typeName())
}

// unordered is what cmpNumbers returns for NaN, which every comparison
// is false with.
const unordered = 2

// cmpNumbers orders two numbers exactly, as Python does (an int is not
// rounded to a float: 2**53+1 > 2.0**53): -1, 0 or +1, or unordered.
func cmpNumbers(a, b Value) int {
	switch {
	case a.kind != floatKind && b.kind != floatKind:
		return cmp.Compare(a.i, b.i)
	case a.kind == floatKind && b.kind == floatKind:
		switch x, y := a.f, b.f; {
		case x < y:
			return -1
		case x > y:
			return 1
		case x == y:
			return 0
		}
		return unordered
	case a.kind == floatKind:
		if c := cmpIntFloat(b.i, a.f); c != unordered {
			return -c
		}
		return unordered
	}
	return cmpIntFloat(a.i, b.f)
}

// CompareIntFloat reports Python's i op f for an int and a float, op one
// of ==, !=, <, <=, > and >=: it compares the exact values, where the
// float of i may round (2**53 + 1 > 2.0**53); NaN is unequal to all.
func CompareIntFloat(i int64, op string, f float64) bool {
	c := cmpIntFloat(i, f)
	switch op {
	case "==":
		return c == 0
	case "!=":
		return c != 0
	case "<":
		return c == -1
	case "<=":
		return c == -1 || c == 0
	case ">":
		return c == 1
	}
	return c == 1 || c == 0
}

// cmpIntFloat orders the int i and the float f exactly.
func cmpIntFloat(i int64, f float64) int {
	switch {
	case f != f:
		return unordered
	case f >= 0x1p63: // beyond every int64, as +inf
		return -1
	case f < -0x1p63:
		return 1
	}
	t := math.Trunc(f)
	if c := cmp.Compare(i, int64(t)); c != 0 {
		return c
	}
	switch {
	case f > t: // i is the integral part of f, which has a fraction
		return -1
	case f < t:
		return 1
	}
	return 0
}

// Arith is Python's a op b for +, -, *, /, //, % and **: numbers, + of
// strings and of lists, * of a string or list and an int.
func Arith(op string, a, b Value) (Value, error) {
	switch {
	case op == "%" && a.kind == stringKind:
		s, err := Printf(a.s, b)
		if err != nil {
			return Value{}, err
		}
		return StringValue(s), nil
	case a.kind == undefinedKind || b.kind == undefinedKind:
		return Value{}, errUndefined()
	case a.isNumber() && b.isNumber():
		return arithNumbers(op, a, b)
	case op == "+" && a.kind == stringKind && b.kind == stringKind:
		a, b, err := markupOperands(a, b)
		if err != nil {
			return Value{}, err
		}
		if !fits(len(a.s), 1, len(b.s)) {
			return Value{}, &runtime.Error{Err: runtime.ErrTooLarge}
		}
		return Value{kind: stringKind, s: a.s + b.s, markup: a.markup}, nil
	case op == "+" && a.kind == listKind && b.kind == listKind && a.tuple == b.tuple:
		out := ListValue(append(append([]Value{}, a.list...), b.list...)...)
		out.tuple = a.tuple
		return out, nil
	case op == "+" && a.tuple && b.kind == listKind:
		return Value{}, errInvalid("can only concatenate tuple (not \"%s\") to tuple", b.typeName())
	case op == "+" && a.kind == listKind && b.tuple:
		return Value{}, errInvalid("can only concatenate list (not \"tuple\") to list")
	case op == "*" && (a.kind == stringKind || a.kind == listKind) && (b.kind == intKind || b.kind == boolKind):
		return repeat(a, int(b.i))
	case op == "*" && (b.kind == stringKind || b.kind == listKind) && (a.kind == intKind || a.kind == boolKind):
		return repeat(b, int(a.i))
	}
	return Value{}, errInvalid("unsupported operand type(s) for %s: '%s' and '%s'", op, a.typeName(), b.typeName())
}

// markupOperands returns the strings a and b as Markup adds them: where
// one is Markup, the other is escaped (markupsafe.escape) and both are.
func markupOperands(a, b Value) (Value, Value, error) {
	if a.markup == b.markup {
		return a, b, nil
	}
	for _, x := range []*Value{&a, &b} {
		if !x.markup {
			s, ok := Escape(x.s)
			if !ok {
				return Value{}, Value{}, &runtime.Error{Err: runtime.ErrTooLarge}
			}
			*x = Value{kind: stringKind, s: s, markup: true}
		}
	}
	return a, b, nil
}

// Sum prints a chain of + (a + b + c ...) as Arith would add it up and
// AppendStr print it, without building the intermediate strings: while
// the operands are strings it appends them straight to the output, and
// only a sum of other values (numbers, lists) is held as a Value. Python
// fails on a string + anything but a string, so the strings need no
// Value; a sum of strings only notes whether it is Markup. Start begins
// it, Add adds each operand in order, End prints the sum.
type Sum struct {
	mark    int   // where the sum starts in dst
	v       Value // the sum, once it is not a string
	spilled bool  // v holds the sum, not dst[mark:]
	markup  bool  // dst[mark:] is Markup
}

// Start begins the sum with its first operand at the end of dst.
func (s *Sum) Start(dst []byte, first Value) []byte {
	*s = Sum{mark: len(dst)}
	if first.kind == stringKind {
		s.markup = first.markup
		return append(dst, first.s...)
	}
	s.v, s.spilled = first, true
	return dst
}

// Add adds x to the sum, as Arith("+", sum, x). On error it returns dst
// without the sum, and Arith's error.
func (s *Sum) Add(dst []byte, x Value) ([]byte, error) {
	if !s.spilled && x.kind == stringKind {
		if x.markup != s.markup {
			// Markup escapes the plain operand: the sum so far, or x.
			sum, y, err := markupOperands(Value{kind: stringKind, s: string(dst[s.mark:]), markup: s.markup}, x)
			if err != nil {
				return dst[:s.mark], err
			}
			dst, x, s.markup = append(dst[:s.mark], sum.s...), y, true
		}
		if len(x.s) > runtime.MaxOutput-(len(dst)-s.mark) {
			return dst[:s.mark], &runtime.Error{Err: runtime.ErrTooLarge}
		}
		return append(dst, x.s...), nil
	}
	if !s.spilled {
		s.v, s.spilled = Value{kind: stringKind, s: string(dst[s.mark:]), markup: s.markup}, true
		dst = dst[:s.mark]
	}
	v, err := Arith("+", s.v, x)
	if err != nil {
		return dst[:s.mark], err
	}
	s.v = v
	return dst, nil
}

// End prints the sum: it returns dst with str() of the sum at its end,
// or, where the sum holds what Jinja2 prints with its address (a
// generator in a tuple), dst and CheckPrint's error.
func (s *Sum) End(dst []byte) ([]byte, error) {
	if !s.spilled {
		return dst, nil
	}
	if err := s.v.CheckPrint(); err != nil {
		return dst, err
	}
	return s.v.AppendStr(dst), nil
}

func repeat(x Value, n int) (Value, error) {
	if x.kind == stringKind {
		s, ok := Repeat(x.s, n)
		if !ok {
			return Value{}, &runtime.Error{Err: runtime.ErrTooLarge}
		}
		return Value{kind: stringKind, s: s, markup: x.markup}, nil
	}
	out := ListValue()
	out.tuple = x.tuple
	if n <= 0 {
		return out, nil
	}
	if !fits(0, n, len(x.list)) {
		return Value{}, &runtime.Error{Err: runtime.ErrTooLarge}
	}
	for range n {
		out.list = append(out.list, x.list...)
	}
	return out, nil
}

func arithNumbers(op string, a, b Value) (Value, error) {
	if op == "/" || a.kind == floatKind || b.kind == floatKind {
		x, y := a.float(), b.float()
		switch op {
		case "+":
			return FloatValue(x + y), nil
		case "-":
			return FloatValue(x - y), nil
		case "*":
			return FloatValue(x * y), nil
		case "**":
			f, err := PowFloat(x, y)
			if err != nil {
				return Value{}, errInvalid("%s", err.Error())
			}
			return FloatValue(f), nil
		}
		if y == 0 {
			return Value{}, errInvalid("division by zero")
		}
		switch {
		case op == "/" && a.kind != floatKind && b.kind != floatKind:
			return FloatValue(TrueDiv(a.i, b.i)), nil
		case op == "/":
			return FloatValue(x / y), nil
		case op == "//":
			return FloatValue(FloorDivFloat(x, y)), nil
		}
		return FloatValue(ModFloat(x, y)), nil
	}
	x, y := a.i, b.i
	var r int64
	var err error
	switch op {
	case "+":
		r, err = AddInt(x, y)
	case "-":
		r, err = SubInt(x, y)
	case "*":
		r, err = MulInt(x, y)
	case "**":
		if y < 0 {
			f, err := PowFloat(float64(x), float64(y))
			if err != nil {
				return Value{}, errInvalid("%s", err.Error())
			}
			return FloatValue(f), nil
		}
		r, err = PowInt(x, y)
	default:
		if y == 0 {
			return Value{}, errInvalid("division by zero")
		}
		if op == "//" {
			r, err = FloorDiv(x, y)
		} else {
			r = Mod(x, y)
		}
	}
	return intResult(r, err)
}

// intResult is the Value of an int operation's result, or its failure.
func intResult(r int64, err error) (Value, error) {
	if err != nil {
		return Value{}, errInvalid("%s", err)
	}
	return IntValue(int(r)), nil
}

// Negate is Python's -v of a number.
func Negate(v Value) (Value, error) {
	switch v.kind {
	case undefinedKind:
		return Value{}, errUndefined()
	case floatKind:
		return FloatValue(-v.f), nil
	case intKind, boolKind:
		return intResult(NegInt(v.i))
	}
	return Value{}, errInvalid("bad operand type for unary -: '%s'", v.typeName())
}

// Contains is Python's item in container: a substring of a string, an
// item equal to it in a list, a key of a dict. Nothing is in undefined.
func Contains(container, item Value) (bool, error) {
	switch container.kind {
	case undefinedKind:
		return false, nil
	case stringKind:
		if item.kind == undefinedKind {
			return false, errUndefined()
		}
		s, ok := item.Str()
		if !ok {
			return false, errInvalid("'in <string>' requires string as left operand, not %s", item.typeName())
		}
		return containsString(container.s, s), nil
	case listKind:
		for _, x := range container.list {
			if eq, err := EqualMethods(x, item); eq || err != nil {
				return eq, err
			}
		}
		return false, nil
	case generatorKind:
		if container.it == nil {
			return false, errNotIterated(container)
		}
		for {
			x, ok, err := container.next()
			if !ok || err != nil {
				return false, err
			}
			if eq, err := EqualMethods(x, item); eq || err != nil {
				return eq, err
			}
		}
	case dictKind:
		if u, ok := unhashable(item); ok {
			return false, errInvalid("unhashable type: '%s'", u.typeName())
		}
		return container.dict.find(item) >= 0, nil
	}
	return false, errInvalid("argument of type '%s' is not iterable", container.typeName())
}

// unhashable returns the first value in v that Python cannot hash: a
// list or dict, also inside a tuple.
func unhashable(v Value) (Value, bool) {
	switch {
	case v.tuple:
		for _, x := range v.list {
			if u, ok := unhashable(x); ok {
				return u, true
			}
		}
	case v.kind == listKind || v.kind == dictKind:
		return v, true
	}
	return Value{}, false
}

func containsString(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// Attr is Jinja2's v.name: a dict's key name, else undefined. It fails
// on undefined, and where Jinja2 reads an attribute of the Python value
// (a dict's or str's method, an int's real, ...), which has no Value.
func (v Value) Attr(name string) (Value, error) {
	switch {
	case v.kind == undefinedKind:
		return Value{}, errUndefined()
	case v.hasPyAttr(name):
		return v.pyAttr(name)
	case v.group:
		x, _ := v.groupField(name)
		return x, nil
	case v.kind == dictKind:
		x, _ := v.Lookup(name)
		return x, nil
	}
	return Value{}, nil
}

// Item is Jinja2's v[key]: a dict's key, a list's or a string's item at
// an int index (negative from the end), else undefined. It fails on
// undefined, and on a string key that is not there but names an
// attribute of the Python value, which Jinja2 reads instead (see Attr).
func (v Value) Item(key Value) (Value, error) {
	switch v.kind {
	case undefinedKind:
		return Value{}, errUndefined()
	case dictKind:
		if s, ok := key.Str(); ok {
			x, ok := v.Lookup(s)
			if !ok && v.hasPyAttr(s) {
				return v.pyAttr(s)
			}
			return x, nil
		}
		if i := v.dict.find(key); i >= 0 {
			return v.dict.vals[i], nil
		}
	case listKind:
		if key.kind == intKind || key.kind == boolKind {
			x, _ := Index(v.list, int(key.i))
			return x, nil
		}
		if s, ok := key.Str(); ok && v.group {
			// Jinja2 reads the attribute where a tuple has no such item.
			if x, ok := v.groupField(s); ok {
				return x, nil
			}
		}
	case stringKind:
		if key.kind == intKind || key.kind == boolKind {
			if s, ok := IndexString(v.s, int(key.i)); ok {
				return Value{kind: stringKind, s: s, markup: v.markup}, nil
			}
		}
	}
	if s, ok := key.Str(); ok && v.hasPyAttr(s) {
		return v.pyAttr(s)
	}
	return Value{}, nil
}

// SliceValue is v[lo:hi:step] of a list or string (absent bounds are
// Python's None); it fails on undefined and on other values.
func SliceValue(v Value, lo, hi, step int, hasLo, hasHi bool) (Value, error) {
	if step == 0 {
		return Value{}, errInvalid("slice step cannot be zero")
	}
	switch v.kind {
	case undefinedKind:
		return Value{}, errUndefined()
	case listKind:
		out := ListValue(Slice(v.list, lo, hi, step, hasLo, hasHi)...)
		out.tuple = v.tuple
		return out, nil
	case stringKind:
		return Value{kind: stringKind, s: SliceString(v.s, lo, hi, step, hasLo, hasHi), markup: v.markup}, nil
	}
	return Value{}, errInvalid("'%s' object is not subscriptable", v.typeName())
}

// Len is Python's len(v), as the length filter takes it: characters of a
// string, items of a list, keys of a dict; undefined has none.
func (v Value) Len() (int, error) {
	switch v.kind {
	case undefinedKind:
		return 0, nil
	case stringKind:
		return utf8.RuneCountInString(v.s), nil
	case listKind:
		return len(v.list), nil
	case dictKind:
		return len(v.dict.keys), nil
	}
	return 0, errInvalid("object of type '%s' has no len()", v.typeName())
}

// Iter returns what a for loop over v iterates: a list's items, a dict's
// keys, a string's characters, an iterator's items left (then it has
// none); undefined iterates nothing. A loop may stop before the end,
// where Python's iterator keeps the items after it: a later read of an
// iterator whose items Iter handed out fails (errHandedOut).
func (v Value) Iter() ([]Value, error) {
	lazy := v.kind == generatorKind && v.it != nil && v.it.pull != nil
	items, err := v.rest()
	switch {
	case lazy && err != nil && len(items) > 0:
		// Python runs the loop's body on the items before the failure.
		return nil, errLoopFails(v, err)
	case v.kind == generatorKind && err == nil:
		for it := v.it; it != nil; it = it.src {
			it.handed = true
		}
	}
	if err != nil {
		return nil, err
	}
	return items, nil
}

// errLoopFails is the failure of a loop over g, a generator whose work on
// an item after some others fails (err): Python runs the loop's body on
// those first, which may stop the loop or fail first, which promptgen
// does not follow.
func errLoopFails(g Value, err error) error {
	why := err.Error()
	if re := (*runtime.Error)(nil); errors.As(err, &re) {
		why = re.Detail
	}
	return errInvalid("a %s looped over fails on an item after others (%s): Python runs the loop on those first, which promptgen does not follow (convert it with | list where it is made)", g.s, why)
}

// ToList is the list filter of v: the items Iter returns, as a list; of
// an iterator every item it has left (a later read finds none).
func (v Value) ToList() (Value, error) {
	items, err := v.rest()
	return ListValue(items...), err
}

// rest is Iter for a caller that takes every item: an iterator is left
// with none, which a later read finds.
func (v Value) rest() ([]Value, error) {
	switch v.kind {
	case undefinedKind:
		return nil, nil
	case listKind:
		return v.list, nil
	case dictKind:
		return v.dict.keyValues(), nil
	case stringKind:
		var out []Value
		for i := 0; i < len(v.s); {
			_, size := decodeRune(v.s, i)
			out = append(out, StringValue(v.s[i:i+size]))
			i += size
		}
		return out, nil
	case generatorKind:
		if v.it == nil {
			return nil, errNotIterated(v)
		}
		if v.it.handed {
			return nil, errHandedOut(v)
		}
		rest := v.it.items[v.it.pos:]
		v.it.pos = len(v.it.items)
		for v.it.pull != nil {
			x, ok, err := v.next()
			if err != nil {
				return rest, err // the items before, for Iter
			}
			if ok {
				rest = append(rest, x)
			}
		}
		return rest, nil
	}
	return nil, errInvalid("'%s' object is not iterable", v.typeName())
}

// errNotIterated is the failure of iterating g, a generator: Python
// consumes one as it iterates it (a second loop sees nothing, first takes
// one item), which promptgen does not follow.
func errNotIterated(g Value) error {
	return errInvalid("promptgen does not iterate a %s passed to a macro that calls itself, which Python consumes as it iterates it (convert it with | list)", g.s)
}

// Items returns the (key, value) pairs of a dict, for dict.items() and
// the items filter; undefined has none.
func (v Value) Items() ([][2]Value, error) {
	switch v.kind {
	case undefinedKind:
		return nil, nil
	case dictKind:
		out := make([][2]Value, len(v.dict.keys))
		for i := range v.dict.keys {
			out[i] = [2]Value{v.dict.key(i), v.dict.vals[i]}
		}
		return out, nil
	}
	return nil, errInvalid("'%s' object has no attribute 'items'", v.typeName())
}

// DictItems is dict.items() called on v: the pairs of a dict. On any
// other value, undefined included, Jinja2 calls an undefined attribute.
func (v Value) DictItems() ([][2]Value, error) {
	if v.kind != dictKind {
		return nil, errUndefined()
	}
	return v.Items()
}

// Unpack returns the n items of v, a loop item unpacked into n targets.
func (v Value) Unpack(n int) ([]Value, error) {
	items, err := v.rest()
	if err != nil {
		return nil, err
	}
	if len(items) != n {
		return nil, errInvalid("cannot unpack %d values into %d targets", len(items), n)
	}
	return items, nil
}

// Get is dict.get(key, def): the value of key, else def (None when the
// template gives no default).
func (v Value) Get(key, def Value) (Value, error) {
	switch v.kind {
	case undefinedKind:
		return Value{}, errUndefined()
	case dictKind:
		if i := v.dict.find(key); i >= 0 {
			return v.dict.vals[i], nil
		}
		return def, nil
	}
	return Value{}, errUndefined() // Jinja2 calls the undefined attribute
}

// Keys and Values are dict.keys() and dict.values() as lists.
func (v Value) Keys() (Value, error) {
	if v.kind != dictKind {
		return Value{}, errUndefined()
	}
	return ListValue(v.dict.keyValues()...), nil
}

// keyValues returns the keys as Values.
func (d *dict) keyValues() []Value {
	out := make([]Value, len(d.keys))
	for i := range d.keys {
		out[i] = d.key(i)
	}
	return out
}

// Values returns a dict's values, for dict.values().
func (v Value) Values() (Value, error) {
	if v.kind != dictKind {
		return Value{}, errUndefined()
	}
	return ListValue(append([]Value{}, v.dict.vals...)...), nil
}

// StrOperand returns v as the operand of filter indent, which Jinja2 does
// not convert with str(): a string is itself; undefined fails
// (Undefined + "\n"), and so does another value, as Python does.
func (v Value) StrOperand() (string, error) {
	switch {
	case v.kind == stringKind:
		return v.s, nil
	case v.kind == undefinedKind:
		return "", errUndefined()
	case v.kind == listKind && !v.tuple:
		return "", errInvalid("'list' object has no attribute 'splitlines'")
	}
	return "", errInvalid("unsupported operand type(s) for +=: '%s' and 'str'", v.typeName())
}

// AsString returns v when it is a string, for a str method called on it
// (v.strip()); on another value Jinja2 calls an undefined attribute.
func (v Value) AsString() (string, error) {
	if v.kind != stringKind {
		return "", errUndefined()
	}
	return v.s, nil
}

// AsInt returns v as a str method's int argument (zfill's width,
// replace's count): an int, or a bool, which Python takes as 0 or 1;
// another value is Python's TypeError.
func (v Value) AsInt() (int, error) {
	if v.kind != intKind && v.kind != boolKind {
		return 0, errInvalid("'%s' object cannot be interpreted as an integer", v.typeName())
	}
	return int(v.i), nil
}

// AsSliceIndex returns v as str.find's start (or end): an int or a
// bool; None is the default, 0 (or past any string's end); another value
// is Python's TypeError.
func (v Value) AsSliceIndex(end bool) (int, error) {
	switch {
	case v.kind == noneKind && end:
		return math.MaxInt, nil
	case v.kind == noneKind:
		return 0, nil
	case v.kind != intKind && v.kind != boolKind:
		return 0, errInvalid("slice indices must be integers or None or have an __index__ method")
	}
	return int(v.i), nil
}

// Test is the Jinja2 test name of v: defined, undefined, none, boolean,
// true, false, integer, float, number, string, mapping, iterable,
// sequence, callable, escaped (Markup). It reports false for other names.
func (v Value) Test(name string) bool {
	if v.kind == generatorKind {
		// It iterates, and has no length: no sequence.
		return name == "defined" || name == "iterable"
	}
	switch name {
	case "defined":
		return v.kind != undefinedKind
	case "undefined":
		return v.kind == undefinedKind
	case "none":
		return v.kind == noneKind
	case "boolean":
		return v.kind == boolKind
	case "true":
		return v.kind == boolKind && v.i != 0
	case "false":
		return v.kind == boolKind && v.i == 0
	case "integer":
		return v.kind == intKind
	case "float":
		return v.kind == floatKind
	case "number":
		return v.isNumber()
	case "string":
		return v.kind == stringKind
	case "mapping":
		return v.kind == dictKind
	case "iterable", "sequence":
		// Undefined iterates (as nothing) and has a length.
		return v.kind == stringKind || v.kind == listKind || v.kind == dictKind || v.kind == undefinedKind
	case "callable":
		// Undefined has a __call__ (that fails); no JSON value has one.
		return v.kind == undefinedKind || v.kind == methodKind
	case "escaped":
		return v.markup // Markup has __html__
	}
	return false
}

// Default is the default filter: v, or def when v is undefined (or, with
// boolean, false).
func (v Value) Default(def Value, boolean bool) Value {
	if v.kind == undefinedKind || boolean && !v.Truth() {
		return def
	}
	return v
}

// First and Last are the first and last filters: undefined when empty.
func (v Value) First() (Value, error) { return v.end(0) }

// Last is the last filter.
func (v Value) Last() (Value, error) { return v.end(-1) }

func (v Value) end(i int) (Value, error) {
	switch {
	case v.kind == generatorKind && v.it != nil && i == 0:
		x, _, err := v.next()
		return x, err
	case v.kind == generatorKind && i < 0:
		return Value{}, errInvalid("'%s' object is not reversible", v.s)
	}
	items, err := v.Iter()
	if err != nil {
		return Value{}, err
	}
	x, _ := Index(items, i)
	// last reads Markup by index (reversed()), which keeps it; first
	// iterates it, which yields plain strings. A list's items are as they
	// are.
	if v.kind == stringKind {
		x.markup = v.markup && i < 0
	}
	return x, nil
}

// JoinValues is the join filter of v: the str of each item, separated by
// str of sep. It fails where Python does, and on a method (CheckPrint).
func JoinValues(v Value, sepValue Value) (string, error) {
	sep, err := sepValue.Text()
	if err != nil {
		return "", err
	}
	items, err := v.rest()
	if err != nil {
		return "", err
	}
	var b []byte
	for i, x := range items {
		if i > 0 {
			b = append(b, sep...)
		}
		if err := x.CheckPrint(); err != nil {
			return "", err
		}
		if b = x.AppendStr(b); len(b) > runtime.MaxOutput {
			return "", &runtime.Error{Err: runtime.ErrTooLarge}
		}
	}
	return string(b), nil
}

// ToJSON is the tojson filter of v, Jinja2's (keys sorted, HTML-safe) or,
// with transformers, that of transformers' chat templates (keys in
// insertion order, strings as NewTransformersJSONWriter writes them). It
// fails on undefined, which JSON cannot hold.
func ToJSON(v Value, indent int, hasIndent, transformers bool) (string, error) {
	w := NewJSONWriter(indent, hasIndent)
	if transformers {
		w = NewTransformersJSONWriter(indent, hasIndent)
	}
	return v.toJSON(&w)
}

// ToTransformersASCIIJSON is the tojson filter of transformers' chat
// templates called with ensure_ascii=True (NewTransformersASCIIJSONWriter).
func ToTransformersASCIIJSON(v Value, indent int, hasIndent bool) (string, error) {
	w := NewTransformersASCIIJSONWriter(indent, hasIndent)
	return v.toJSON(&w)
}

func (v Value) toJSON(w *JSONWriter) (string, error) {
	out, err := w.Value(nil, v)
	if err != nil {
		return "", err
	}
	if w.TooLarge() {
		return "", &runtime.Error{Err: runtime.ErrTooLarge}
	}
	return string(out), nil
}

func (v Value) writeJSON(dst []byte, w *JSONWriter, insertion bool) ([]byte, error) {
	var err error
	switch v.kind {
	case undefinedKind:
		return nil, errInvalid("Object of type Undefined is not JSON serializable")
	case noneKind:
		return w.Null(dst), nil
	case boolKind:
		return w.Bool(dst, v.i != 0), nil
	case intKind:
		return w.Int(dst, v.i), nil
	case floatKind:
		return w.Float(dst, v.f), nil
	case stringKind:
		return w.String(dst, v.s), nil
	case methodKind, generatorKind:
		return nil, errInvalid("Object of type %s is not JSON serializable", v.typeName())
	case listKind:
		dst = w.OpenArray(dst)
		for _, x := range v.list {
			if dst, err = x.writeJSON(dst, w, insertion); err != nil {
				return nil, err
			}
		}
		return w.CloseArray(dst), nil
	}
	order := make([]int, len(v.dict.keys))
	for i := range order {
		order[i] = i
	}
	if !insertion {
		if err := v.dict.sortKeys(order); err != nil {
			return nil, err
		}
	}
	dst = w.OpenObject(dst)
	for _, i := range order {
		dst = w.Key(dst, v.dict.keys[i])
		if dst, err = v.dict.vals[i].writeJSON(dst, w, insertion); err != nil {
			return nil, err
		}
	}
	return w.CloseObject(dst), nil
}

// sortKeys sorts order, indexes of d's keys, as json.dumps's sort_keys
// sorts the keys: strings by code point, ints by value; it fails on a
// string and an int, which Python does not order.
func (d *dict) sortKeys(order []int) error {
	if d.ints == nil || len(order) == 0 {
		sortInts(order, func(a, b int) bool { return d.keys[a] < d.keys[b] })
		return nil
	}
	for i := range order {
		if d.isInt(i) != d.isInt(0) {
			return errInvalid("'<' not supported between instances of 'str' and 'int'")
		}
	}
	if !d.isInt(0) {
		sortInts(order, func(a, b int) bool { return d.keys[a] < d.keys[b] })
		return nil
	}
	sortInts(order, func(a, b int) bool { return d.key(a).i < d.key(b).i })
	return nil
}

// sortInts sorts xs stably by less (insertion sort: dicts are small).
func sortInts(xs []int, less func(a, b int) bool) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && less(xs[j], xs[j-1]); j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}
