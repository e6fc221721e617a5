// Package adapt holds what the provider adapters (runtime/openaiprompt and
// runtime/anthropicprompt) share: reading the loosely typed values of
// runtime.Request.Parameters, and the errors they both report. It depends on
// the standard library and runtime/params only.
package adapt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/promptgen/promptgen/runtime/params"
)

// Errors that both adapters report, for errors.Is. The adapters re-export
// them under the same names.
var (
	ErrNoModel              = errors.New("no model")
	ErrUnsupportedParameter = errors.New("unsupported parameter")
	ErrInvalidParameter     = errors.New("invalid parameter")
	ErrInvalidSchema        = errors.New("invalid output schema")
)

// Param is one parameter of a Request, in key order.
type Param struct {
	Key   string
	Value any
}

// Params returns the parameters of ps sorted by key, leaving out nil values
// (an unset parameter).
func Params(ps map[string]any) []Param {
	out := make([]Param, 0, len(ps))
	for k, v := range ps {
		if v != nil {
			out = append(out, Param{k, v})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Number reads a number: any Go integer or float type, or a json.Number.
// NaN and infinities, which JSON cannot carry, are rejected.
func Number(p Param) (float64, error) {
	var f float64
	switch v := p.Value.(type) {
	case json.Number:
		x, err := v.Float64()
		if err != nil {
			return 0, p.invalid("want a number")
		}
		f = x
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			f = float64(rv.Int())
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			f = float64(rv.Uint())
		case reflect.Float32, reflect.Float64:
			f = rv.Float()
		default:
			return 0, p.invalid("want a number")
		}
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, p.invalid("want a finite number")
	}
	return f, nil
}

// Integer reads an integer: any Go integer type, or a float or json.Number
// with an integral value (as JSON decoding gives).
func Integer(p Param) (int64, error) {
	switch v := p.Value.(type) {
	case json.Number:
		if n, err := v.Int64(); err == nil {
			return n, nil
		}
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return rv.Int(), nil
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			if rv.Uint() <= math.MaxInt64 {
				return int64(rv.Uint()), nil
			}
			return 0, p.invalid("out of range")
		}
	}
	f, err := Number(p)
	if err != nil {
		return 0, p.invalid("want an integer")
	}
	if f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		return 0, p.invalid("want an integer")
	}
	return int64(f), nil
}

// Strings reads a string or a list of strings ([]string, or []any of
// strings as YAML and JSON decoding give). single reports a lone string.
func Strings(p Param) (list []string, single bool, err error) {
	switch v := p.Value.(type) {
	case string:
		return []string{v}, true, nil
	case []string:
		return append([]string(nil), v...), false, nil
	case []any:
		list = make([]string, len(v))
		for i, x := range v {
			s, ok := x.(string)
			if !ok {
				return nil, false, p.invalid("want a string or a list of strings")
			}
			list[i] = s
		}
		return list, false, nil
	}
	return nil, false, p.invalid("want a string or a list of strings")
}

func (p Param) invalid(detail string) error {
	return fmt.Errorf("parameter %q: %w: %s, not %s", p.Key, ErrInvalidParameter, detail, describe(p.Value))
}

// describe names the type of a parameter value for an error message.
func describe(v any) string {
	switch v := v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return string(v)
	case float32, float64:
		return fmt.Sprint(v)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return fmt.Sprint(v)
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// Bool reads true or false.
func Bool(p Param) (bool, error) {
	b, ok := p.Value.(bool)
	if !ok {
		return false, p.invalid("want true or false")
	}
	return b, nil
}

// Enum reads a string that is one of the values that runtime/params lists
// for the parameter.
func Enum(p Param) (string, error) {
	known, _ := params.Lookup(p.Key)
	s, ok := p.Value.(string)
	if !ok {
		return "", p.invalid("want " + known.Type())
	}
	if !slices.Contains(known.Values, s) {
		return "", fmt.Errorf("parameter %q: %w: want %s, not %q", p.Key, ErrInvalidParameter, known.Type(), s)
	}
	return s, nil
}

// TokenBias reads a mapping from token IDs (non-negative integers written
// as strings) to integers, as a map with string keys gives it.
func TokenBias(p Param) (map[string]int64, error) {
	const want = "want a mapping from token IDs to integers"
	rv := reflect.ValueOf(p.Value)
	if rv.Kind() != reflect.Map || rv.Type().Key().Kind() != reflect.String {
		return nil, p.invalid(want)
	}
	keys := rv.MapKeys()
	slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	bias := make(map[string]int64, len(keys))
	for _, k := range keys {
		id := k.String()
		if _, err := strconv.ParseUint(id, 10, 64); err != nil {
			return nil, fmt.Errorf("parameter %q: %w: %s, not the key %q", p.Key, ErrInvalidParameter, want, id)
		}
		v := rv.MapIndex(k).Interface()
		n, err := Integer(Param{p.Key, v})
		if err != nil {
			return nil, fmt.Errorf("parameter %q: %w: %s, not %s for %q", p.Key, ErrInvalidParameter, want, describe(v), id)
		}
		bias[id] = n
	}
	return bias, nil
}

// Supported returns the names of the parameters that runtime/params gives
// provider: those an adapter maps.
func Supported(provider params.Provider) []string {
	var names []string
	for _, p := range params.All() {
		if p.Providers&provider != 0 {
			names = append(names, p.Name)
		}
	}
	return names
}

// Extra returns a copy of a Request's extra parameters, for the SDK's
// SetExtraFields, or nil when there are none.
func Extra(extra map[string]any) map[string]any {
	if len(extra) == 0 {
		return nil
	}
	return maps.Clone(extra)
}

// Unsupported is the error for a parameter that an adapter does not map.
func Unsupported(key string, supported []string) error {
	return fmt.Errorf("parameter %q: %w (supported: %s)", key, ErrUnsupportedParameter, strings.Join(supported, ", "))
}

// Conflict is the error for two parameters that set the same field.
func Conflict(a, b string) error {
	return fmt.Errorf("parameters %q and %q: %w: both set the same field", a, b, ErrInvalidParameter)
}

// SchemaObject decodes an output schema, which must be a JSON object.
// Numbers stay json.Numbers so that they are written back as they were.
func SchemaObject(raw json.RawMessage) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var schema map[string]any
	if err := dec.Decode(&schema); err != nil || schema == nil {
		return nil, fmt.Errorf("%w: not a JSON object", ErrInvalidSchema)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: data after the JSON object", ErrInvalidSchema)
	}
	return schema, nil
}

// CompactJSON returns the text of a structured content, without
// insignificant white space.
func CompactJSON(data json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		return string(data) // not JSON: runtime.Prompt.Validate rejects it first
	}
	return b.String()
}
