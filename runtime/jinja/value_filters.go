package jinja

import (
	"errors"
	"math"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/runtime"
)

// Filter applies Jinja2's built-in filter name to x, with the filter's
// arguments in order (each given, an absent one as its default), as
// Jinja2 3.1 applies it to the Python value:
//
//	reverse; sort(reverse, case_sensitive, attribute);
//	dictsort(case_sensitive, by, reverse); map(attribute, default);
//	batch(linecount, fill_with); items; int(default, base);
//	float(default); abs; upper, lower, title, capitalize, trim(chars),
//	string, replace(old, new, count), truncate(length, killwords, end,
//	leeway), length, first, last, list, format(args...) (see
//	FormatFilter), unique(case_sensitive, attribute), and those of
//	moreFilters.
//
// Where Jinja2 yields a generator (map, batch, items) Filter yields a
// list: the caller only iterates it, as reverse's does; reversed is
// reverse where the caller takes it as a value (reversedValue). It fails where
// Jinja2 raises, and on an unknown name.
func Filter(name string, x Value, args ...Value) (Value, error) {
	arg := func(i int) Value {
		if i < len(args) {
			return args[i]
		}
		return Value{}
	}
	// wordcount of a method or a generator counts the words of its text,
	// which its address does not change.
	if printingFilters[name] && name != "wordcount" {
		if err := x.CheckPrint(); err != nil {
			return Value{}, err
		}
	}
	switch name {
	case "reverse":
		return reverseValue(x)
	case "reversed":
		return reversedValue(x)
	case "sort":
		return sortValue(x, arg(0).Truth(), arg(1).Truth(), arg(2))
	case "dictsort":
		return dictSort(x, arg(0).Truth(), arg(1), arg(2).Truth())
	case "map":
		return mapAttr(x, arg(0), arg(1))
	case "unique":
		// The items of x, in order, whose key (the item or its attribute,
		// a string lowered unless case_sensitive) equals no earlier
		// item's key. A key Python cannot hash (a list or dict) fails, as
		// Python's set does.
		return NewGen("unique", "", args...).all(x)
	case "batch":
		return batch(x, arg(0), arg(1))
	case "items":
		if x.kind == undefinedKind {
			return ListValue(), nil
		}
		if x.kind != dictKind {
			return Value{}, errInvalid("Can only get item pairs from a mapping.")
		}
		return itemsList(x), nil
	case "int":
		return intValue(x, arg(0), arg(1))
	case "float":
		return floatValue(x, arg(0))
	case "abs":
		return absValue(x)
	case "round":
		return roundValue(x, arg(0), arg(1))
	case "upper":
		return x.textOf(Upper(x.String())), nil
	case "lower":
		return x.textOf(Lower(x.String())), nil
	case "title":
		return StringValue(Title(x.String())), nil
	case "capitalize":
		return x.textOf(Capitalize(x.String())), nil
	case "trim":
		if chars, ok := arg(0).Str(); ok {
			if x.markup && !arg(0).markup {
				// Markup's strip escapes the characters.
				if chars, ok = Escape(chars); !ok {
					return Value{}, &runtime.Error{Err: runtime.ErrTooLarge}
				}
			}
			return x.textOf(StripChars(x.String(), chars, true, true)), nil
		}
		return x.textOf(StripSpace(x.String(), true, true)), nil
	case "string":
		return x.textOf(x.String()), nil
	case "replace":
		return replaceValue(x, arg(0), arg(1), arg(2))
	case "truncate":
		return truncateValue(x, arg(0), arg(1).Truth(), arg(2), arg(3))
	case "length":
		n, err := x.Len()
		return IntValue(n), err
	case "first":
		return x.First()
	case "last":
		return x.Last()
	case "format":
		s, err := FormatFilter(x, args...)
		return StringValue(s), err
	case "str.format":
		// x.format(*args[1:], **args[0]), Python's str.format of a string.
		s, err := StrFormat(x.s, args[1:], arg(0))
		return StringValue(s), err
	case "list":
		items, err := x.rest()
		return ListValue(append([]Value{}, items...)...), err
	}
	if f, ok := moreFilters[name]; ok {
		return f(x, args)
	}
	return Value{}, errInvalid("promptgen has no filter %q for dynamic values", name)
}

// textOf is s, a string filter's result of x: Markup where x is, as
// Jinja2's upper, lower, capitalize, trim, string and center return
// Markup of Markup (soft_str keeps it, and Markup's str methods return
// Markup).
func (x Value) textOf(s string) Value { return Value{kind: stringKind, s: s, markup: x.markup} }

// printingFilters are the filters that take str of their operand (or of
// its values: xmlattr, urlencode).
var printingFilters = map[string]bool{
	"upper": true, "lower": true, "title": true, "capitalize": true, "trim": true, "string": true, "replace": true,
	"center": true, "escape": true, "urlencode": true, "striptags": true, "wordcount": true, "xmlattr": true,
}

// Missing fails as Jinja2 does where it runs what it compiled to fail
// there: a filter or a test it lacks, which it compiles to fail lazily in
// an if or a conditional expression (what is "filter f" or "test f"), or
// {% set x.a = v %} of an x that is not a namespace (what is "setattr",
// without args), or tojson of a generator or an iterator, which json.dumps
// cannot serialize (what is "tojson generator" or "tojson
// list_reverseiterator"), or a call of a name that is undefined (what is
// "function f"), which fails with ErrUndefined, or a list method that
// transformers' sandbox forbids (what is "unsafe append": SecurityError),
// or a method of another type it forbids (what is "unsafe dict.update"),
// or update() of args[0], a dynamic value (what is "unsafe update"): the
// SecurityError of a dict's, the UndefinedError of another value's, which
// has no such method,
// or an operation Python refuses whatever the values (what is "TypeError
// msg" or "UndefinedError msg", msg the detail), which fails with
// ErrUndefined where an operand is undefined, as Jinja2's Undefined fails
// every operation: args[1:] are then whether each operand that may be is
// defined (a generator's use, length, a slice, +, passes none), or one
// that prints a generator or an iterator, which Jinja2 prints with its
// address (what is "printed generator" or "printed
// list_reverseiterator"). A filter's or test's operand and arguments,
// args, were evaluated first.
func Missing(what string, args ...Value) (Value, error) {
	if what == "setattr" {
		return Value{}, errInvalid("cannot assign attribute on non-namespace object")
	}
	kind, name, _ := strings.Cut(what, " ")
	switch kind {
	case "TypeError":
		for _, defined := range args[1:] {
			if !defined.Truth() {
				return Value{}, &runtime.Error{Err: runtime.ErrUndefined}
			}
		}
		return Value{}, errInvalid("%s", name)
	case "UndefinedError":
		return Value{}, &runtime.Error{Err: runtime.ErrUndefined, Detail: name}
	case "function":
		return Value{}, &runtime.Error{Var: name, Err: runtime.ErrUndefined}
	case "tojson":
		return Value{}, errInvalid("Object of type %s is not JSON serializable", name)
	case "unsafe":
		if name == "update" && args[0].kind != dictKind {
			return Value{}, errUndefined()
		}
		typ, method, ok := strings.Cut(name, ".")
		if name == "update" {
			typ, method, ok = "dict", name, true
		}
		if !ok {
			typ, method = "list", name
		}
		return Value{}, errInvalid("access to attribute '%s' of '%s' object is unsafe.", method, typ)
	case "printed":
		return Value{}, errPrintsAddress(name)
	}
	return Value{}, errInvalid("No %s named '%s' found.", kind, name)
}

// replaceValue is Jinja2's replace filter without autoescape:
// str(x).replace(str(old), str(new), count), all where count is None.
func replaceValue(x, old, new, count Value) (Value, error) {
	n := -1
	if count.kind != undefinedKind && count.kind != noneKind {
		var err error
		if n, err = count.AsInt(); err != nil {
			return Value{}, err
		}
	}
	s, ok := Replace(x.String(), old.String(), new.String(), n)
	if !ok {
		return Value{}, &runtime.Error{Err: runtime.ErrTooLarge}
	}
	return StringValue(s), nil
}

// truncateValue is Jinja2's truncate filter of x: after its asserts on
// the arguments, x itself where its length (of a string, list or dict; 0
// of undefined) is at most length+leeway, else a string cut as Truncate
// does (Markup with the end escaped); Python fails to cut another value
// (a list or tuple has no rsplit, nor a str to add with killwords; a dict
// no slice).
func truncateValue(x, length Value, killwords bool, end, leeway Value) (Value, error) {
	n, err := intArg(length, "truncate", "length")
	if err != nil {
		return Value{}, err
	}
	lw, err := intArg(leeway, "truncate", "leeway")
	if err != nil {
		return Value{}, err
	}
	e := end.String()
	if err := TruncateArgs(n, e, lw); err != nil {
		return Value{}, errInvalid("%s", err)
	}
	size, err := x.Len()
	if err != nil {
		return Value{}, err
	}
	switch {
	case size-lw <= n:
		return x, nil
	case x.kind == dictKind:
		return Value{}, errInvalid("unhashable type: 'slice'")
	case x.kind != stringKind && killwords:
		return Value{}, errInvalid("can only concatenate %[1]s (not \"str\") to %[1]s", x.typeName())
	case x.kind != stringKind:
		return Value{}, errInvalid("'%s' object has no attribute 'rsplit'", x.typeName())
	case x.markup:
		s, ok := TruncateMarkup(x.s, n, killwords, e, lw)
		if !ok {
			return Value{}, &runtime.Error{Err: runtime.ErrTooLarge}
		}
		return MarkupValue(StringValue(s)), nil
	}
	return StringValue(Truncate(x.s, n, killwords, e, lw)), nil
}

// MapFilter is Jinja2's map with a filter's name: the filter name
// applied, with args, to each item of x (nothing of a false x).
func MapFilter(name string, x Value, args ...Value) (Value, error) {
	return NewGen("mapfilter", name, args...).all(x)
}

// ItemsList is dict.items() of v as a list of (key, value) tuples; on
// any other value Jinja2 calls an undefined attribute.
func (v Value) ItemsList() (Value, error) {
	if v.kind != dictKind {
		return Value{}, errUndefined()
	}
	return itemsList(v), nil
}

func itemsList(v Value) Value {
	out := make([]Value, len(v.dict.keys))
	for i := range v.dict.keys {
		out[i] = TupleValue(v.dict.key(i), v.dict.vals[i])
	}
	return ListValue(out...)
}

// TupleValue is the Python tuple of items: ('a', 1), (), ('a',).
func TupleValue(items ...Value) Value {
	v := ListValue(items...)
	v.tuple = true
	return v
}

// reverseValue is the reverse filter where its consumer iterates it: a
// string backwards, else the items of x in reverse order (a dict's keys,
// nothing of undefined).
func reverseValue(x Value) (Value, error) {
	out, err := reversedValue(x)
	if out.kind == generatorKind {
		out = ListValue(out.it.items...)
	}
	return out, err
}

// reversedValue is the reverse filter as Jinja2's: a string backwards;
// Python's reversed() of a list, tuple, dict (its keys) or undefined
// (nothing), an iterator of the Python type reversed() makes; and of an
// iterator, which reversed() refuses, a list of the items it has left,
// in reverse order.
func reversedValue(x Value) (Value, error) {
	if x.kind == stringKind {
		return Value{kind: stringKind, s: SliceString(x.s, 0, 0, -1, false, false), markup: x.markup}, nil
	}
	items, err := x.rest()
	if err != nil && x.kind == generatorKind {
		// Its work's failure, or one on purpose (read again after a
		// loop over it): Jinja2's TypeError of the work is an
		// ErrInvalid too.
		return Value{}, err
	}
	if err != nil {
		return Value{}, errInvalid("argument must be iterable")
	}
	out := make([]Value, len(items))
	for i, item := range items {
		out[len(items)-1-i] = item
	}
	switch {
	case x.tuple || x.kind == undefinedKind:
		return IteratorValue("reversed", ListValue(out...)), nil
	case x.kind == listKind:
		return IteratorValue("list_reverseiterator", ListValue(out...)), nil
	case x.kind == dictKind:
		return IteratorValue("dict_reversekeyiterator", ListValue(out...)), nil
	}
	return ListValue(out...), nil
}

// attrPath splits attribute= as Jinja2 does: dotted parts, digits as
// int indexes.
func attrPath(attr string) []Value {
	parts := strings.Split(attr, ".")
	out := make([]Value, len(parts))
	for i, p := range parts {
		out[i] = StringValue(p)
		if p != "" && strings.Trim(p, "0123456789") == "" {
			if n, err := ParseInt(p, -1, 10); err == nil && n >= 0 {
				out[i] = IntValue(int(n))
			}
		}
	}
	return out
}

// getPath reads the parts of path from x, as Jinja2's environment.getitem.
func getPath(x Value, path []Value) (Value, error) {
	var err error
	for _, p := range path {
		if x, err = x.Item(p); err != nil {
			return Value{}, err
		}
	}
	return x, nil
}

// mapAttr is map(attribute=attr, default=def): each item's attribute,
// def where it is undefined (unless def is None).
func mapAttr(x, attr, def Value) (Value, error) {
	return NewGen("map", "", attr, def).all(x)
}

// getPathDefault is Jinja2's make_attrgetter(attribute, default=def) of
// x: the parts of path read from x, def for each that is undefined
// (unless def is None).
func getPathDefault(x Value, path []Value, def Value) (Value, error) {
	var err error
	for _, p := range path {
		if x, err = x.Item(p); err != nil {
			return Value{}, err
		}
		if x.kind == undefinedKind && def.kind != noneKind && def.kind != undefinedKind {
			x = def
		}
	}
	return x, nil
}

// ignoreCase is Jinja2's ignore_case: a string lowered, another value as
// it is.
func ignoreCase(v Value) Value {
	if v.kind == stringKind {
		return StringValue(Lower(v.s))
	}
	return v
}

// sortValue is the sort filter: sorted(x, key, reverse) where the key of
// an item is the list of its comma-separated attributes (the item itself
// without attribute), strings lowered unless caseSensitive.
func sortValue(x Value, reverse, caseSensitive bool, attribute Value) (Value, error) {
	items, err := x.rest()
	if err != nil {
		return Value{}, err
	}
	paths := [][]Value{nil}
	if s, ok := attribute.Str(); ok {
		paths = paths[:0]
		for _, a := range strings.Split(s, ",") {
			paths = append(paths, attrPath(a))
		}
	}
	keys := make([]Value, len(items))
	missing := "" // an attribute some item lacks
	for i, item := range items {
		key := make([]Value, len(paths))
		for j, p := range paths {
			if key[j], err = getPath(item, p); err != nil {
				return Value{}, err
			}
			if key[j].kind == undefinedKind && len(p) > 0 {
				missing = p[len(p)-1].String()
			}
			if !caseSensitive {
				key[j] = ignoreCase(key[j])
			}
		}
		keys[i] = ListValue(key...)
	}
	out, err := pySorted(items, keys, reverse)
	var re *runtime.Error
	if errors.As(err, &re) && re.Err == runtime.ErrUndefined && missing != "" {
		// Name the attribute whose Undefined was compared, as the typed
		// sort names the field.
		named := *re
		named.Var = missing
		err = &named
	}
	return ListValue(out...), err
}

// dictSort is the dictsort filter: the (key, value) tuples of dict x,
// sorted by key or value.
func dictSort(x Value, caseSensitive bool, by Value, reverse bool) (Value, error) {
	pos := 0
	switch s, _ := by.Str(); s {
	case "key":
	case "value":
		pos = 1
	default:
		return Value{}, errInvalid("You can only sort by either \"key\" or \"value\"")
	}
	switch x.kind {
	case dictKind:
	case undefinedKind:
		return Value{}, errUndefined()
	default:
		return Value{}, errInvalid("'%s' object has no attribute 'items'", x.typeName())
	}
	items := itemsList(x).list
	keys := make([]Value, len(items))
	for i, item := range items {
		keys[i] = item.list[pos]
		if !caseSensitive {
			keys[i] = ignoreCase(keys[i])
		}
	}
	out, err := pySorted(items, keys, reverse)
	return ListValue(out...), err
}

// pySorted is Python's sorted(items, key, reverse) by keys, stable. For
// fewer than 64 items it compares the pairs CPython's list.sort compares
// (a run, then binary insertion), so that it fails where Python's '<'
// raises; longer lists are merge sorted, failing at the first comparison
// that raises, which may not be one CPython makes.
func pySorted(items, keys []Value, reverse bool) ([]Value, error) {
	items, keys = append([]Value{}, items...), append([]Value{}, keys...)
	if reverse {
		reverseBoth(items, keys, 0, len(items))
	}
	var err error
	if len(items) < 64 {
		err = binarySort(items, keys)
	} else {
		idx := make([]int, len(items))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			if err != nil {
				return 0
			}
			if lt, e := less(keys[a], keys[b]); e != nil || lt {
				err = e
				return -1
			}
			gt, e := less(keys[b], keys[a])
			if err = e; gt {
				return 1
			}
			return 0
		})
		sorted := make([]Value, len(items))
		for i, j := range idx {
			sorted[i] = items[j]
		}
		items = sorted
	}
	if err != nil {
		return nil, err
	}
	if reverse {
		reverseBoth(items, keys, 0, len(items))
	}
	return items, nil
}

func less(a, b Value) (bool, error) {
	c, err := compare("<", a, b)
	return c == -1, err
}

// binarySort is CPython's count_run then binarysort of a list shorter
// than its minimum run, sorting items by keys.
func binarySort(items, keys []Value) error {
	n := len(items)
	if n < 2 {
		return nil
	}
	// count_run: the longest ascending or strictly descending run.
	run := 2
	desc, err := less(keys[1], keys[0])
	if err != nil {
		return err
	}
	for ; run < n; run++ {
		lt, err := less(keys[run], keys[run-1])
		if err != nil {
			return err
		}
		if lt != desc {
			break
		}
	}
	if desc {
		reverseBoth(items, keys, 0, run)
	}
	// binarysort of the rest into the run.
	for start := run; start < n; start++ {
		pivot, pitem := keys[start], items[start]
		l, r := 0, start
		for l < r {
			p := l + (r-l)/2
			lt, err := less(pivot, keys[p])
			if err != nil {
				return err
			}
			if lt {
				r = p
			} else {
				l = p + 1
			}
		}
		copy(keys[l+1:start+1], keys[l:start])
		copy(items[l+1:start+1], items[l:start])
		keys[l], items[l] = pivot, pitem
	}
	return nil
}

func reverseBoth(items, keys []Value, lo, hi int) {
	for i, j := lo, hi-1; i < j; i, j = i+1, j-1 {
		items[i], items[j] = items[j], items[i]
		keys[i], keys[j] = keys[j], keys[i]
	}
}

// batch is batch(linecount, fill_with): the items of x in lists of
// linecount, the last filled up with fill_with unless it is None.
func batch(x, linecount, fill Value) (Value, error) {
	if linecount.kind != intKind && linecount.kind != boolKind {
		return Value{}, errInvalid("batch needs an int linecount, not '%s'", linecount.typeName())
	}
	items, err := x.Iter()
	if err != nil {
		return Value{}, err
	}
	n := int(linecount.i)
	var out []Value
	var tmp []Value
	for _, item := range items {
		if len(tmp) == n {
			out = append(out, ListValue(tmp...))
			tmp = nil
		}
		tmp = append(tmp, item)
	}
	if len(tmp) > 0 {
		if fill.kind != noneKind && fill.kind != undefinedKind && len(tmp) < n {
			if !fits(len(tmp), n-len(tmp), 1) {
				return Value{}, &runtime.Error{Err: runtime.ErrTooLarge}
			}
			for len(tmp) < n {
				tmp = append(tmp, fill)
			}
		}
		out = append(out, ListValue(tmp...))
	}
	return ListValue(out...), nil
}

// intValue is the int filter: int(x) (a string in base), failing that
// int(float(x)), failing that def.
func intValue(x, def, base Value) (Value, error) {
	var v int64
	var ok bool
	var err error
	switch x.kind {
	case undefinedKind:
		return Value{}, errUndefined()
	case intKind, boolKind:
		return IntValue(int(x.i)), nil
	case floatKind:
		v, ok, err = intOfFloat(x.f)
	case stringKind:
		b := 10
		if base.kind == intKind || base.kind == boolKind {
			b = int(base.i)
		}
		v, ok, err = intOfString(x.s, b)
	}
	switch {
	case err != nil:
		return Value{}, errInvalid("%s", err)
	case !ok:
		return def, nil
	}
	return IntValue(int(v)), nil
}

// floatValue is the float filter: float(x), failing that def.
func floatValue(x, def Value) (Value, error) {
	switch x.kind {
	case undefinedKind:
		return Value{}, errUndefined()
	case intKind, boolKind:
		return FloatValue(float64(x.i)), nil
	case floatKind:
		return x, nil
	case stringKind:
		if f, ok := floatOfString(x.s); ok {
			return FloatValue(f), nil
		}
	}
	return def, nil
}

// absValue is Python's abs(x) of a number.
// roundValue is Jinja2's round(x, precision, method): Python's round for
// "common", which keeps an int (or bool) an int; math.ceil or floor of x
// scaled, divided back to a float, for the others. The method is checked
// first, as Jinja2 does.
func roundValue(x, precision, method Value) (Value, error) {
	m, _ := method.Str()
	p := int(precision.i)
	switch {
	case !roundMethod(m):
		return Value{}, errInvalid("%s", errRoundMethod)
	case (x.kind == intKind || x.kind == boolKind) && m == "common":
		return intResult(RoundInt(x.i, p))
	case x.isNumber():
		f, err := Round(x.float(), p, m)
		if err != nil {
			return Value{}, errInvalid("%s", err)
		}
		return FloatValue(f), nil
	case m == "common":
		return Value{}, errInvalid("type %s doesn't define __round__ method", x.typeName())
	case x.kind == undefinedKind:
		return Value{}, errUndefined() // Undefined * 10**precision
	}
	return Value{}, errInvalid("must be real number, not %s", x.typeName())
}

func absValue(x Value) (Value, error) {
	switch x.kind {
	case intKind, boolKind:
		if x.i < 0 {
			return intResult(NegInt(x.i))
		}
		return IntValue(int(x.i)), nil
	case floatKind:
		return FloatValue(math.Abs(x.f)), nil
	}
	return Value{}, errInvalid("bad operand type for abs(): '%s'", x.typeName())
}
