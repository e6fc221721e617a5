package ttfuncs

import (
	"errors"
	"reflect"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/runtime/jinja"
)

// dict is the value of a dict literal: its keys in insertion order, each
// with its value (as element stores it). Like a Python dict it prints in
// insertion order, is true when it has a key and reads a value by its key;
// tojson writes its keys sorted. It holds undefined values (they print as
// Undefined) where it is printed where it stands or converted to a dynamic
// value (a literal with an element that may be undefined); in a typed
// literal an index out of range fails the render instead.
type dict struct {
	keys []string
	vals []any
}

var dictType = reflect.TypeFor[dict]()

// newDict is the dict function: a dict literal from its keys and values,
// alternating, in insertion order.
func newDict(kvs ...any) (dict, error) {
	if len(kvs)%2 != 0 {
		return dict{}, errors.New("dict: odd number of arguments")
	}
	d := dict{keys: make([]string, len(kvs)/2), vals: make([]any, len(kvs)/2)}
	for i := range d.keys {
		k, ok := kvs[2*i].(string)
		if !ok {
			return dict{}, errors.New("dict: key is not a string")
		}
		d.keys[i], d.vals[i] = k, element(kvs[2*i+1])
	}
	return d, nil
}

// intKeyed is the intkeyed function: a dict literal with an int key, from
// its keys (strings and ints) and values, alternating, in insertion order,
// as the dynamic value it is.
func intKeyed(kvs ...any) (jinja.Value, error) {
	if len(kvs)%2 != 0 {
		return jinja.Value{}, errors.New("intkeyed: odd number of arguments")
	}
	out := jinja.DictValue()
	for i := 0; i < len(kvs); i += 2 {
		val, err := toValue(element(kvs[i+1]))
		if err != nil {
			return jinja.Value{}, err
		}
		switch k := kvs[i].(type) {
		case int:
			out.SetInt(k, val)
		case string:
			out.Set(k, val)
		default:
			return jinja.Value{}, errors.New("intkeyed: key is not an int or a string")
		}
	}
	return out, nil
}

// get returns the value of key and whether d has it.
func (d dict) get(key string) (any, bool) {
	if i := slices.Index(d.keys, key); i >= 0 {
		return d.vals[i], true
	}
	return nil, false
}

// element is x as an element of a list or dict literal: a scalar pointer
// followed, undefined (a nil pointer too) as undefined{}.
func element(x any) any {
	v, ok := value(x)
	if !ok {
		return undefined{}
	}
	return v
}

// appendDictRepr appends Python's repr of d: {'key': value, ...} in
// insertion order.
func appendDictRepr(dst []byte, d dict) []byte {
	dst = append(dst, '{')
	for i, k := range d.keys {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = appendRepr(dst, reflect.ValueOf(k))
		dst = append(dst, ": "...)
		dst = appendRepr(dst, reflect.ValueOf(d.vals[i]))
	}
	return append(dst, '}')
}

// dictKeyOrder returns the indexes of d's keys in the order tojson writes
// them: in key order when sorted (Jinja2's), else in insertion order
// (transformers').
func dictKeyOrder(d dict, sorted bool) []int {
	idx := make([]int, len(d.keys))
	for i := range idx {
		idx[i] = i
	}
	if sorted {
		slices.SortFunc(idx, func(a, b int) int { return strings.Compare(d.keys[a], d.keys[b]) })
	}
	return idx
}
