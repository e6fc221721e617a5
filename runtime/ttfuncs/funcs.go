package ttfuncs

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/jinja"
)

// The functions below receive values as the translation passes them:
// operands that Jinja2 requires to be defined have been through strict,
// and lenient operands may be undefined (which then acts as empty).

// asInt returns an int argument.
func asInt(v any) int {
	x, _ := value(v)
	switch x := x.(type) {
	case int:
		return x
	case float64:
		return int(x)
	case bool:
		if x {
			return 1
		}
	}
	return 0
}

// asFloat returns a number as a float64.
func asFloat(v any) float64 {
	x, _ := value(v)
	switch x := x.(type) {
	case float64:
		return x
	case int:
		return float64(x)
	case bool:
		if x {
			return 1
		}
	}
	return 0
}

// number reports whether x is a number (bool included, as in Python) and
// whether it is a float.
func number(x any) (ok, float bool) {
	switch x.(type) {
	case int, bool:
		return true, false
	case float64:
		return true, true
	}
	return false, false
}

// iter returns what a for loop iterates: a list as it is, the characters
// of a string, the keys of a map in order and of a dict in insertion
// order; nothing for undefined.
func iter(v any) any {
	x, ok := value(v)
	if !ok {
		return []any(nil)
	}
	switch x := x.(type) {
	case string:
		return strings.Split(x, "")
	case dict:
		return x.keys
	}
	if rv := reflect.ValueOf(x); rv.Kind() == reflect.Map {
		return sortedKeys(rv)
	}
	return x
}

// dictSort returns the keys of map m in the order of m|dictsort.
func dictSort(m, caseSensitive, reverse any) []string {
	x, _ := value(m)
	rv := reflect.ValueOf(x)
	if rv.Kind() != reflect.Map {
		return nil
	}
	return jinja.SortStrings(sortedKeys(rv), truth(reverse), truth(caseSensitive))
}

// unpack checks that a list unpacked into n loop targets has n items, as
// Python does.
func unpack(x any, n int, pos string) (string, error) {
	if rv := reflect.ValueOf(x); rv.Kind() != reflect.Slice || rv.Len() != n {
		return "", fail(pos, "", runtime.ErrInvalid)
	}
	return "", nil
}

// keep appends an item that passed a loop's filter.
func keep(xs []any, x any) []any { return append(xs, x) }

// push appends x to a list that strs, ints, floats, bools or list built,
// converting it as they do.
func push(xs, x any) any {
	switch xs := xs.(type) {
	case []string:
		return append(xs, str(x))
	case []int:
		return append(xs, asInt(x))
	case []float64:
		return append(xs, asFloat(x))
	case []bool:
		return append(xs, truth(x))
	case []any:
		return append(xs, x)
	}
	return xs
}

// strs, ints, floats and bools build list literals of scalars; an
// undefined item is the zero value.
func strs(xs ...any) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = str(x)
	}
	return out
}

func ints(xs ...any) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = asInt(x)
	}
	return out
}

func floats(xs ...any) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = asFloat(x)
	}
	return out
}

func bools(xs ...any) []bool {
	out := make([]bool, len(xs))
	for i, x := range xs {
		out[i] = truth(x)
	}
	return out
}

// list keeps each item as it is (see element), so that a literal printed
// where it stands shows [1, 2.0] and Undefined.
func list(xs ...any) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = element(x)
	}
	return out
}

// getItem is x[i] on a list, string, map or dict; undefined when i is out
// of range or missing.
func getItem(x, i any) any {
	x, _ = value(x)
	switch x := x.(type) {
	case string:
		if c, ok := jinja.IndexString(x, asInt(i)); ok {
			return c
		}
		return undefined{}
	case dict:
		k, _ := value(i)
		ks, _ := k.(string)
		if v, ok := x.get(ks); ok {
			return v
		}
		return undefined{}
	}
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.Slice:
		n := asInt(i)
		if n < 0 {
			n += rv.Len()
		}
		if n < 0 || n >= rv.Len() {
			return undefined{}
		}
		return rv.Index(n).Interface()
	case reflect.Map:
		k, _ := value(i)
		ks, _ := k.(string)
		e := rv.MapIndex(reflect.ValueOf(ks).Convert(rv.Type().Key()))
		if !e.IsValid() {
			return undefined{}
		}
		return e.Interface()
	}
	return undefined{}
}

// pyRange is Jinja2's global range(start, stop, step) of ints.
func pyRange(start, stop, step any, pos string) ([]int, error) {
	xs, err := jinja.Range(asInt(start), asInt(stop), asInt(step))
	if err != nil {
		return nil, invalid(pos, err.Error())
	}
	return xs, nil
}

// pySlice is x[lo:hi:step]; lo and hi are nil when not given.
func pySlice(x, lo, hi, step any, pos string) (any, error) {
	st := asInt(step)
	if st == 0 {
		return nil, invalid(pos, "slice step cannot be zero")
	}
	l, h := asInt(lo), asInt(hi)
	hasLo, hasHi := lo != nil, hi != nil
	x, ok := value(x)
	if !ok {
		return []any(nil), nil
	}
	switch x := x.(type) {
	case string:
		return jinja.SliceString(x, l, h, st, hasLo, hasHi), nil
	case []string:
		return jinja.Slice(x, l, h, st, hasLo, hasHi), nil
	}
	rv := reflect.ValueOf(x)
	if rv.Kind() != reflect.Slice {
		return []any(nil), nil
	}
	idx := make([]int, rv.Len())
	for i := range idx {
		idx[i] = i
	}
	idx = jinja.Slice(idx, l, h, st, hasLo, hasHi)
	out := reflect.MakeSlice(rv.Type(), len(idx), len(idx))
	for k, i := range idx {
		out.Index(k).Set(rv.Index(i))
	}
	return out.Interface(), nil
}

// equal is ==: undefined equals only undefined; numbers compare by value;
// strings, bools and None by value; lists of the same scalar type item by
// item; other values are never equal.
func equal(a, b any) bool {
	x, okx := value(a)
	y, oky := value(b)
	if !okx || !oky {
		return okx == oky
	}
	return eq(x, y)
}

func eq(x, y any) bool {
	nx, fx := number(x)
	ny, fy := number(y)
	switch {
	case nx && ny && fx && fy:
		return asFloat(x) == asFloat(y)
	case nx && ny && fx:
		return jinja.CompareIntFloat(int64(asInt(y)), "==", asFloat(x))
	case nx && ny && fy:
		return jinja.CompareIntFloat(int64(asInt(x)), "==", asFloat(y))
	case nx && ny:
		return asInt(x) == asInt(y)
	}
	switch x := x.(type) {
	case string:
		s, ok := y.(string)
		return ok && x == s
	case none:
		_, ok := y.(none)
		return ok
	}
	rx, ry := reflect.ValueOf(x), reflect.ValueOf(y)
	if rx.Kind() != reflect.Slice || rx.Type() != ry.Type() {
		return false
	}
	switch rx.Type().Elem().Kind() {
	case reflect.String, reflect.Int, reflect.Float64, reflect.Bool:
	default:
		return false
	}
	if rx.Len() != ry.Len() {
		return false
	}
	for i := range rx.Len() {
		if !eq(rx.Index(i).Interface(), ry.Index(i).Interface()) {
			return false
		}
	}
	return true
}

// mirrored is the comparison operator with its operands swapped.
var mirrored = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}

// compare is <, <=, > or >= on two numbers or two strings.
func compare(a any, op string, b any) bool {
	x, _ := value(a)
	y, _ := value(b)
	var c int
	nx, fx := number(x)
	ny, fy := number(y)
	switch {
	case nx && ny && !fx && fy:
		return jinja.CompareIntFloat(int64(asInt(x)), op, asFloat(y))
	case nx && ny && fx && !fy:
		return jinja.CompareIntFloat(int64(asInt(y)), mirrored[op], asFloat(x))
	case nx && ny && (fx || fy):
		fa, fb := asFloat(x), asFloat(y)
		switch op {
		case "<":
			return fa < fb
		case "<=":
			return fa <= fb
		case ">":
			return fa > fb
		case ">=":
			return fa >= fb
		}
		return false
	case nx && ny:
		c = cmp.Compare(asInt(x), asInt(y))
	default:
		sx, _ := x.(string)
		sy, _ := y.(string)
		c = strings.Compare(sx, sy)
	}
	switch op {
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	}
	return false
}

// in is x in c for a string, list, map, struct or dict c (the keys of the
// last three); an undefined c is empty.
func in(x, c any) bool {
	c, ok := value(c)
	if !ok {
		return false
	}
	x, ok = value(x)
	if !ok {
		return false // undefined is in no list, map or object
	}
	switch c := c.(type) {
	case string:
		return strings.Contains(c, str(x))
	case dict:
		_, has := c.get(str(x))
		return has
	}
	rv := reflect.Indirect(reflect.ValueOf(c)) // value keeps struct pointers
	switch rv.Kind() {
	case reflect.Slice:
		for i := range rv.Len() {
			if eq(rv.Index(i).Interface(), x) {
				return true
			}
		}
	case reflect.Map:
		k, _ := x.(string)
		return rv.MapIndex(reflect.ValueOf(k).Convert(rv.Type().Key())).IsValid()
	case reflect.Struct:
		for _, f := range structFields(rv.Type()) {
			if f.key == x && isKey(rv, f) {
				return true
			}
		}
	}
	return false
}

func neg(a any, pos string) (any, error) {
	if x, _ := value(a); x != nil {
		if f, ok := x.(float64); ok {
			return -f, nil
		}
	}
	r, err := jinja.NegInt(int64(asInt(a)))
	return intAt(r, err, pos)
}

// intAt is the result r of a jinja int operation, or its failure err
// (Python's int would leave 64 bits) at pos.
func intAt(r int64, err error, pos string) (any, error) {
	if err != nil {
		return nil, invalid(pos, err.Error())
	}
	return int(r), nil
}

// inc is loop.index of loop.index0 i, and diff the difference of two loop
// counters: neither can leave int.
func inc(i int) int     { return i + 1 }
func diff(a, b int) int { return a - b }

// arith resolves the numeric operands of an arithmetic operator.
func arith(a, b any) (x, y any, float bool) {
	x, _ = value(a)
	y, _ = value(b)
	_, fx := number(x)
	_, fy := number(y)
	return x, y, fx || fy
}

// add is +: numbers, string concatenation, list concatenation.
func add(a, b any, pos string) (any, error) {
	x, y, f := arith(a, b)
	if s, ok := x.(string); ok {
		t, _ := y.(string)
		return s + t, nil
	}
	if rx := reflect.ValueOf(x); rx.Kind() == reflect.Slice {
		ry := reflect.ValueOf(y)
		if ry.Kind() == reflect.Slice && ry.Type() == rx.Type() {
			n := rx.Len()
			return reflect.AppendSlice(rx.Slice3(0, n, n), ry).Interface(), nil
		}
		out := list()
		for i := range rx.Len() {
			out = append(out, rx.Index(i).Interface())
		}
		for i := range ry.Len() {
			out = append(out, ry.Index(i).Interface())
		}
		return out, nil
	}
	if f {
		return asFloat(x) + asFloat(y), nil
	}
	r, err := jinja.AddInt(int64(asInt(x)), int64(asInt(y)))
	return intAt(r, err, pos)
}

func sub(a, b any, pos string) (any, error) {
	x, y, f := arith(a, b)
	if f {
		return asFloat(x) - asFloat(y), nil
	}
	r, err := jinja.SubInt(int64(asInt(x)), int64(asInt(y)))
	return intAt(r, err, pos)
}

// mul is * on numbers.
func mul(a, b any, pos string) (any, error) {
	x, y, f := arith(a, b)
	if f {
		return asFloat(x) * asFloat(y), nil
	}
	r, err := jinja.MulInt(int64(asInt(x)), int64(asInt(y)))
	return intAt(r, err, pos)
}

// repeat is * on a string or a list and an int, in either order.
func repeat(a, b any, pos string) (any, error) {
	x, y, _ := arith(a, b)
	if rx := reflect.ValueOf(x); rx.Kind() == reflect.Slice {
		return repeatList(rx, asInt(y), pos)
	}
	if ry := reflect.ValueOf(y); ry.Kind() == reflect.Slice {
		return repeatList(ry, asInt(x), pos)
	}
	s, ok := x.(string)
	if !ok {
		s, y = str(y), x
	}
	r, ok := jinja.Repeat(s, asInt(y))
	if !ok {
		return "", fail(pos, "", runtime.ErrTooLarge)
	}
	return r, nil
}

// repeatList is jinja.RepeatList of a slice of any type.
func repeatList(xs reflect.Value, n int, pos string) (any, error) {
	if n <= 0 || xs.Len() == 0 {
		return reflect.MakeSlice(xs.Type(), 0, 0).Interface(), nil
	}
	if n > runtime.MaxOutput/xs.Len() {
		return nil, fail(pos, "", runtime.ErrTooLarge)
	}
	out := reflect.MakeSlice(xs.Type(), 0, n*xs.Len())
	for range n {
		out = reflect.AppendSlice(out, xs)
	}
	return out.Interface(), nil
}

// escape is jinja.Escape: the plain string that Markup is added to.
func escape(s, pos string) (string, error) {
	r, ok := jinja.Escape(s)
	if !ok {
		return "", fail(pos, "", runtime.ErrTooLarge)
	}
	return r, nil
}

// div is /, which always gives a float.
func div(a, b any, pos string) (any, error) {
	x, y, f := arith(a, b)
	d := asFloat(y)
	switch {
	case d == 0:
		return nil, invalid(pos, "division by zero")
	case !f:
		return jinja.TrueDiv(int64(asInt(x)), int64(asInt(y))), nil
	}
	return asFloat(x) / d, nil
}

func floorDiv(a, b any, pos string) (any, error) {
	x, y, f := arith(a, b)
	if asFloat(y) == 0 {
		return nil, invalid(pos, "division by zero")
	}
	if f {
		return jinja.FloorDivFloat(asFloat(x), asFloat(y)), nil
	}
	r, err := jinja.FloorDiv(int64(asInt(x)), int64(asInt(y)))
	return intAt(r, err, pos)
}

func mod(a, b any, pos string) (any, error) {
	x, y, f := arith(a, b)
	if asFloat(y) == 0 {
		return nil, invalid(pos, "division by zero")
	}
	if f {
		return jinja.ModFloat(asFloat(x), asFloat(y)), nil
	}
	return int(jinja.Mod(int64(asInt(x)), int64(asInt(y)))), nil
}

// negativeExponent is the detail of the error of an int to a negative int
// power; the go backend's is the same.
const negativeExponent = "an int to a negative int power is a float (make the base a float, such as 2.0)"

// pow is **. An int to a negative int power, a float in Python, fails:
// the translation makes the base a float where it knows the exponent.
func pow(a, b any, pos string) (any, error) {
	x, y, f := arith(a, b)
	if f {
		r, err := jinja.PowFloat(asFloat(x), asFloat(y))
		if err != nil {
			return nil, invalid(pos, err.Error())
		}
		return r, nil
	}
	if asInt(y) < 0 {
		return nil, invalid(pos, negativeExponent)
	}
	r, err := jinja.PowInt(int64(asInt(x)), int64(asInt(y)))
	return intAt(r, err, pos)
}

// length is the length filter: code points of a string, items of a list,
// map or dict, keys of a struct; 0 for undefined.
func length(v any) int {
	x, ok := value(v)
	if !ok {
		return 0
	}
	switch x := x.(type) {
	case string:
		return utf8.RuneCountInString(x)
	case dict:
		return len(x.keys)
	}
	rv := reflect.Indirect(reflect.ValueOf(x)) // value keeps struct pointers
	switch rv.Kind() {
	case reflect.Slice, reflect.Map:
		return rv.Len()
	case reflect.Struct:
		n := 0
		for _, f := range structFields(rv.Type()) {
			if isKey(rv, f) {
				n++
			}
		}
		return n
	}
	return 0
}

func first(v any) any { return getItem(v, 0) }

func last(v any) any { return getItem(v, -1) }

// join is the join filter: the str of each item, joined with sep.
func join(xs, sep any, pos string) (string, error) {
	x, ok := value(xs)
	if !ok {
		return "", nil
	}
	parts, ok := x.([]string)
	if !ok {
		rv := reflect.ValueOf(x)
		if rv.Kind() != reflect.Slice {
			return "", nil
		}
		parts = make([]string, rv.Len())
		for i := range parts {
			item := rv.Index(i).Interface()
			if err := checkPrint(item); err != nil {
				return "", jinja.At(err, "", pos)
			}
			parts[i] = str(item)
		}
	}
	return joinParts(parts, sep, pos)
}

// joinParts joins parts with the str of sep, failing past runtime.MaxOutput.
func joinParts(parts []string, sep any, pos string) (string, error) {
	s, ok := jinja.Join(parts, str(sep))
	if !ok {
		return "", fail(pos, "", runtime.ErrTooLarge)
	}
	return s, nil
}

// joinAttr is join(sep, attribute=path) on a list of structs or dicts (see
// attr for the path); an unset last field joins as "", an unset object on
// the way fails.
func joinAttr(xs, sep any, path, pos string) (string, error) {
	rv := listValue(xs)
	parts := make([]string, rv.Len())
	for i := range parts {
		f, ok, unset := attr(rv.Index(i), path)
		if unset != "" {
			return "", fail(pos, unset, runtime.ErrUndefined)
		}
		if ok {
			parts[i] = str(f.Interface())
		}
	}
	return joinParts(parts, sep, pos)
}

// listValue returns a list operand as a reflect.Value; undefined is an
// empty list.
func listValue(v any) reflect.Value {
	x, ok := value(v)
	if rv := reflect.ValueOf(x); ok && rv.Kind() == reflect.Slice {
		return rv
	}
	return reflect.ValueOf([]any(nil))
}

// sortList is the sort filter on a list of strings or numbers.
func sortList(xs, reverse, caseSensitive any) any {
	x, _ := value(xs)
	if ss, ok := x.([]string); ok {
		return jinja.SortStrings(ss, truth(reverse), truth(caseSensitive))
	}
	rv := listValue(xs)
	out := reflect.MakeSlice(rv.Type(), rv.Len(), rv.Len())
	reflect.Copy(out, rv)
	sortStable(out, truth(reverse), func(i int) reflect.Value { return out.Index(i) })
	return out.Interface()
}

// sortAttr is sort(attribute=path); string keys compare in lower case
// unless caseSensitive. The checker rejects paths through optional
// objects, so no object on the way is unset; an unset last field in a list
// of two or more fails, as Python cannot compare Jinja2's undefined.
func sortAttr(xs, reverse, caseSensitive any, path, pos string) (any, error) {
	rv := listValue(xs)
	if rv.Len() > 1 {
		for i := range rv.Len() {
			if _, ok, _ := attr(rv.Index(i), path); !ok {
				return nil, fail(pos, attrKeys(rv.Index(i), path), runtime.ErrUndefined)
			}
		}
	}
	out := reflect.MakeSlice(rv.Type(), rv.Len(), rv.Len())
	reflect.Copy(out, rv)
	sortStable(out, truth(reverse), func(i int) reflect.Value { return attrKey(out.Index(i), path, !truth(caseSensitive)) })
	return out.Interface(), nil
}

// attrKeys is path (see attr) as the template writes it, with the keys of
// the members of v: "customer.name" for "Customer.Name".
func attrKeys(v reflect.Value, path string) string {
	var keys []string
	for name := range strings.SplitSeq(path, ".") {
		f, key, _ := member(v, name)
		keys = append(keys, key)
		v = f
	}
	return strings.Join(keys, ".")
}

// attrKey returns the value at path in v (see attr) as a comparison key:
// the zero value when unset, strings lowered when lower is set.
func attrKey(v reflect.Value, path string, lower bool) reflect.Value {
	f, _, _ := attr(v, path)
	switch {
	case !f.IsValid():
		return reflect.Zero(reflect.TypeFor[any]())
	case lower && f.Kind() == reflect.String:
		return reflect.ValueOf(jinja.Lower(f.String()))
	}
	return f
}

// sortStable sorts the slice s stably by the keys key(i), descending when
// reverse is set (keeping equal items in order).
func sortStable(s reflect.Value, reverse bool, key func(int) reflect.Value) {
	n := s.Len()
	keys := make([]reflect.Value, n)
	perm := make([]int, n)
	for i := range n {
		keys[i] = key(i)
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(a, b int) int {
		c := compareKeys(keys[a], keys[b])
		if reverse {
			return -c
		}
		return c
	})
	sorted := reflect.MakeSlice(s.Type(), n, n)
	for i, p := range perm {
		sorted.Index(i).Set(s.Index(p))
	}
	reflect.Copy(s, sorted)
}

func compareKeys(a, b reflect.Value) int {
	switch a.Kind() {
	case reflect.String:
		return strings.Compare(a.String(), b.String())
	case reflect.Int, reflect.Int64:
		return cmp.Compare(a.Int(), b.Int())
	case reflect.Float64:
		return cmp.Compare(a.Float(), b.Float())
	case reflect.Bool:
		return cmp.Compare(asInt(a.Bool()), asInt(b.Bool()))
	}
	return 0
}

// unique is the unique filter on a list of strings or numbers.
func unique(xs, caseSensitive any) any {
	x, _ := value(xs)
	if ss, ok := x.([]string); ok {
		return jinja.UniqueStrings(ss, truth(caseSensitive))
	}
	rv := listValue(xs)
	return uniqueBy(rv, func(i int) any { return rv.Index(i).Interface() })
}

// uniqueAttr is unique(attribute=path): the first item of each value at
// path (see attr); an unset object on the way fails.
func uniqueAttr(xs, caseSensitive any, path, pos string) (any, error) {
	rv := listValue(xs)
	for i := range rv.Len() {
		if _, _, unset := attr(rv.Index(i), path); unset != "" {
			return nil, fail(pos, unset, runtime.ErrUndefined)
		}
	}
	return uniqueBy(rv, func(i int) any { return attrKey(rv.Index(i), path, !truth(caseSensitive)).Interface() }), nil
}

func uniqueBy(rv reflect.Value, key func(int) any) any {
	out := reflect.Zero(rv.Type())
	seen := map[any]bool{}
	for i := range rv.Len() {
		k := key(i)
		if !seen[k] {
			seen[k] = true
			out = reflect.Append(out, rv.Index(i))
		}
	}
	return out.Interface()
}

// toList is the list filter: a copy of a list, the characters of a string,
// the keys of a map in order.
// reverse is the reverse filter of a string or a list (a copy); an
// undefined list reverses as nothing.
func reverse(v any) any {
	x, ok := value(v)
	if !ok {
		return []string{}
	}
	if s, ok := x.(string); ok {
		return jinja.SliceString(s, 0, 0, -1, false, false)
	}
	rv := reflect.ValueOf(x)
	if rv.Kind() != reflect.Slice {
		return x
	}
	n := rv.Len()
	out := reflect.MakeSlice(rv.Type(), n, n)
	for i := range n {
		out.Index(i).Set(rv.Index(n - 1 - i))
	}
	return out.Interface()
}

func toList(v any) any {
	x, ok := value(v)
	if !ok {
		return []string{}
	}
	switch x := x.(type) {
	case string:
		return strings.Split(x, "")
	case dict:
		return slices.Clone(x.keys)
	}
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.Map:
		return sortedKeys(rv)
	case reflect.Slice:
		if rv.IsNil() {
			return x
		}
		out := reflect.MakeSlice(rv.Type(), rv.Len(), rv.Len())
		reflect.Copy(out, rv)
		return out.Interface()
	}
	return []string{}
}

// mapAttr is map(attribute=path, default=dflt): the value at path (see
// attr) of each item, dflt where it is unset (nil for none, and then the
// zero value: the translation passes a default where a field can be
// unset); an unset object on the way fails. The result is a slice of the
// values' type: the static one through structs, else (through dicts, whose
// values are any) the type they all have.
func mapAttr(xs, dflt any, path, pos string) (any, error) {
	rv := listValue(xs)
	t, static := pathType(rv.Type().Elem(), path)
	vals := make([]reflect.Value, rv.Len())
	for i := range vals {
		f, err := attrOrDefault(rv.Index(i), dflt, path, pos, t, static)
		if err != nil {
			return nil, err
		}
		vals[i] = f
	}
	if !static {
		t = commonType(vals)
	}
	out := reflect.MakeSlice(reflect.SliceOf(t), len(vals), len(vals))
	for i, f := range vals {
		if f.IsValid() {
			out.Index(i).Set(f)
		}
	}
	return out.Interface(), nil
}

// attrOrDefault is mapAttr's value of item, of type t where static.
func attrOrDefault(item reflect.Value, dflt any, path, pos string, t reflect.Type, static bool) (reflect.Value, error) {
	f, ok, unset := attr(item, path)
	if unset != "" {
		return f, fail(pos, unset, runtime.ErrUndefined)
	}
	if !ok && dflt != nil {
		f = reflect.ValueOf(dflt)
		if static && f.CanConvert(t) {
			f = f.Convert(t)
		}
	}
	return f, nil
}

// mapAttrItem (attritem) is mapAttr of the one item x: what
// map(attribute=path, default=dflt) yields for it.
func mapAttrItem(x, dflt any, path, pos string) (any, error) {
	rv := reflect.ValueOf(x)
	if !rv.IsValid() {
		return nil, nil
	}
	t, static := pathType(rv.Type(), path)
	f, err := attrOrDefault(rv, dflt, path, pos, t, static)
	if err != nil || !f.IsValid() {
		return nil, err
	}
	return f.Interface(), nil
}

// commonType is the type of every valid value of vals, or any when they
// have none or several.
func commonType(vals []reflect.Value) reflect.Type {
	var t reflect.Type
	for _, v := range vals {
		switch {
		case !v.IsValid():
		case t == nil:
			t = v.Type()
		case t != v.Type():
			return reflect.TypeFor[any]()
		}
	}
	if t == nil {
		return reflect.TypeFor[any]()
	}
	return t
}

// toInt is the int filter; d when v is undefined or does not parse. It
// fails where Python raises OverflowError or gives an int beyond 64 bits.
func toInt(v, d, base any, pos string) (int, error) {
	x, ok := value(v)
	if !ok {
		return asInt(d), nil
	}
	var n int64
	var err error
	switch x := x.(type) {
	case string:
		n, err = jinja.ParseInt(x, int64(asInt(d)), asInt(base))
	case float64:
		n, err = jinja.FloatToInt(x, int64(asInt(d)))
	default:
		return asInt(x), nil
	}
	if err != nil {
		return 0, invalid(pos, err.Error())
	}
	return int(n), nil
}

// toFloat is the float filter; d when v is undefined or does not parse.
func toFloat(v, d any) float64 {
	x, ok := value(v)
	if !ok {
		return asFloat(d)
	}
	if s, ok := x.(string); ok {
		return jinja.ParseFloat(s, asFloat(d))
	}
	return asFloat(x)
}

// round is the round filter with a float result.
func round(v, precision, method any, pos string) (float64, error) {
	r, err := jinja.Round(asFloat(v), asInt(precision), str(method))
	if err != nil {
		return 0, invalid(pos, err.Error())
	}
	return r, nil
}

// roundInt is the round filter of an int with the common method.
func roundInt(v, precision any, pos string) (int, error) {
	r, err := jinja.RoundInt(int64(asInt(v)), asInt(precision))
	if err != nil {
		return 0, invalid(pos, err.Error())
	}
	return int(r), nil
}

func upper(s any) string      { return jinja.Upper(str(s)) }
func lower(s any) string      { return jinja.Lower(str(s)) }
func title(s any) string      { return jinja.Title(str(s)) }
func pyTitle(s any) string    { return jinja.PyTitle(str(s)) }
func capitalize(s any) string { return jinja.Capitalize(str(s)) }

// strip, lstrip and rstrip remove whitespace, or the characters in chars
// when it is not nil.
func strip(s, chars any) string  { return stripSide(s, chars, true, true) }
func lstrip(s, chars any) string { return stripSide(s, chars, true, false) }
func rstrip(s, chars any) string { return stripSide(s, chars, false, true) }

func stripSide(s, chars any, left, right bool) string {
	if chars == nil {
		return jinja.StripSpace(str(s), left, right)
	}
	return jinja.StripChars(str(s), str(chars), left, right)
}

func replace(s, old, new, count any, pos string) (string, error) {
	r, ok := jinja.Replace(str(s), str(old), str(new), asInt(count))
	if !ok {
		return "", fail(pos, "", runtime.ErrTooLarge)
	}
	return r, nil
}

// indent is the indent filter; width is a number of spaces or a string.
func indent(s, width, first, blank any, pos string) (string, error) {
	w, _ := value(width)
	ind, ok := w.(string)
	if !ok {
		ind, ok = jinja.Repeat(" ", asInt(w))
	}
	var r string
	if ok {
		r, ok = jinja.Indent(str(s), ind, truth(first), truth(blank))
	}
	if !ok {
		return "", fail(pos, "", runtime.ErrTooLarge)
	}
	return r, nil
}

// truncate returns an undefined s as it is, as Jinja2 does.
func truncate(s, length, killwords, end, leeway any, pos string) (any, error) {
	if err := jinja.TruncateArgs(asInt(length), str(end), asInt(leeway)); err != nil {
		return "", invalid(pos, err.Error())
	}
	if _, ok := value(s); !ok {
		return s, nil
	}
	return jinja.Truncate(str(s), asInt(length), truth(killwords), str(end), asInt(leeway)), nil
}

// truncateMarkup is truncate of Markup with a plain end, which it
// appends escaped (jinja.TruncateMarkup).
func truncateMarkup(s, length, killwords, end, leeway any, pos string) (string, error) {
	if err := jinja.TruncateArgs(asInt(length), str(end), asInt(leeway)); err != nil {
		return "", invalid(pos, err.Error())
	}
	r, ok := jinja.TruncateMarkup(str(s), asInt(length), truth(killwords), str(end), asInt(leeway))
	if !ok {
		return "", fail(pos, "", runtime.ErrTooLarge)
	}
	return r, nil
}

func startsWith(s, prefix any) bool { return strings.HasPrefix(str(s), str(prefix)) }
func endsWith(s, suffix any) bool   { return strings.HasSuffix(str(s), str(suffix)) }

// split is str.split; sep is nil for whitespace.
func split(s, sep, maxsplit any, pos string) ([]string, error) {
	parts, err := jinja.Split(str(s), str(sep), sep != nil, asInt(maxsplit))
	if err != nil {
		return nil, invalid(pos, err.Error())
	}
	return parts, nil
}

// span is the start and end arguments of str.find and the like, as far as
// given (nil when absent; a start absent before a given end is 0, as
// Python's None is).
func span(start, end any) []int {
	switch {
	case end != nil:
		return []int{asInt(start), asInt(end)}
	case start != nil:
		return []int{asInt(start)}
	}
	return nil
}

func strFind(s, sub, start, end any) int  { return jinja.Find(str(s), str(sub), span(start, end)...) }
func strRFind(s, sub, start, end any) int { return jinja.RFind(str(s), str(sub), span(start, end)...) }
func strCount(s, sub, start, end any) int { return jinja.Count(str(s), str(sub), span(start, end)...) }

func strIndex(s, sub, start, end any, pos string) (int, error) {
	i, err := jinja.StrIndex(str(s), str(sub), span(start, end)...)
	return i, at(err, pos)
}

func strRIndex(s, sub, start, end any, pos string) (int, error) {
	i, err := jinja.StrRIndex(str(s), str(sub), span(start, end)...)
	return i, at(err, pos)
}

func zfill(s, width any, pos string) (string, error) {
	r, err := jinja.ZFill(str(s), asInt(width))
	return r, at(err, pos)
}

// justify is str.ljust, rjust or center by align's first letter.
func justify(s, width, fill any, align, pos string) (string, error) {
	r, err := jinja.Justify(str(s), asInt(width), str(fill), align[0])
	return r, at(err, pos)
}

// partition is str.partition, or with last str.rpartition: a tuple.
func partition(s, sep any, last bool, pos string) (jinja.Value, error) {
	v, err := jinja.Partition(str(s), str(sep), last)
	return v, at(err, pos)
}

func isLower(s any) bool { return jinja.IsLower(str(s)) }
func isUpper(s any) bool { return jinja.IsUpper(str(s)) }

// isName is the test filter or test (which) of s, a string that may be
// undefined, which names nothing.
func isName(s any, which string) bool {
	x, ok := value(s)
	if !ok {
		return false
	}
	names := jinja.TestNames
	if which == "filter" {
		names = jinja.FilterNames
	}
	return jinja.IsName(str(x), names)
}

func swapCase(s any) string               { return jinja.SwapCase(str(s)) }
func splitLines(s, keepends any) []string { return jinja.SplitLines(str(s), truth(keepends)) }

// at is err, a failure of a jinja function, at pos; nil without one.
func at(err error, pos string) error {
	if err != nil {
		return jinja.At(err, "", pos)
	}
	return nil
}

// pathType is the type of the field at the dotted path of Go names in
// struct type t, pointers removed; not ok when the path does not go
// through structs only (a dict's values are any).
func pathType(t reflect.Type, path string) (reflect.Type, bool) {
	for _, name := range strings.Split(path, ".") {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return t, false
		}
		f, ok := t.FieldByName(name)
		if !ok {
			return t, false
		}
		t = f.Type
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t, true
}

// loopItem is loop.previtem (delta -1) or loop.nextitem (delta 1) of a
// loop over items at index i: undefined past either end.
func loopItem(items any, i, delta int) any {
	rv := listValue(items)
	j := i + delta
	if j < 0 || j >= rv.Len() {
		return undefined{}
	}
	return rv.Index(j).Interface()
}

// pad returns the items of a loop that reads loop.index after one more,
// the zero value, that the loop skips: the index of the range over it is
// then loop.index. Nothing (nil, an empty list) stays as it is, so that
// the range's else runs.
func pad(items any) (any, error) {
	rv := reflect.ValueOf(items)
	if rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	switch {
	case !rv.IsValid() || (rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array) && rv.Len() == 0:
		return items, nil
	case rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array:
		return nil, fmt.Errorf("ttfuncs: loop over %T", items)
	}
	out := reflect.MakeSlice(reflect.SliceOf(rv.Type().Elem()), rv.Len()+1, rv.Len()+1)
	reflect.Copy(out.Slice(1, out.Len()), rv)
	return out.Interface(), nil
}

// loopCycle is loop.cycle(values...) at the loop index i.
func loopCycle(i int, values ...any) any {
	if len(values) == 0 {
		return undefined{} // the checker rejects it; never panic
	}
	return values[i%len(values)]
}

// pick is select and reject: the items of the list xs whose flag (the
// test's result) is true, or false when reject, in a list of xs's type.
func pick(xs any, flags []any, reject bool) any {
	rv := listValue(xs)
	out := reflect.MakeSlice(rv.Type(), 0, rv.Len())
	for i := range min(rv.Len(), len(flags)) {
		if truth(flags[i]) != reject {
			out = reflect.Append(out, rv.Index(i))
		}
	}
	return out.Interface()
}
