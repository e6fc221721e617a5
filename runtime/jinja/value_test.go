package jinja

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/runtime"
)

// The expected values of these tests are what Python 3.11 with Jinja2 3.1
// renders for the same values: the value_* tables of testdata/cases.json,
// written by testdata/gen_cases.py (make golden), name each value by a text
// that valueOf reads.

func jsonValue(t *testing.T, s string) Value {
	t.Helper()
	var v Value
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return v
}

// valueOf reads a value as gen_cases.py names it: JSON, or one of the
// values JSON cannot write (its VALUE_SPECIALS).
func valueOf(t *testing.T, raw json.RawMessage) Value {
	t.Helper()
	switch s := arg[string](t, raw); s {
	case "nan":
		return FloatValue(math.NaN())
	case "undefined":
		return Value{}
	case "[undefined]":
		return ListValue(Value{})
	default:
		return jsonValue(t, s)
	}
}

// pyErrors are the render errors promptgen returns where Python raises.
var pyErrors = map[string]error{
	"TypeError":         runtime.ErrInvalid,
	"ZeroDivisionError": runtime.ErrInvalid,
	"ValueError":        runtime.ErrInvalid,
	"KeyError":          runtime.ErrInvalid,
	"AttributeError":    runtime.ErrInvalid,
	"OverflowError":     runtime.ErrInvalid,
	"UndefinedError":    runtime.ErrUndefined,
}

// checkResult compares what promptgen computed with what Jinja2 rendered,
// or, where it raised, the error with the one pyErrors maps it to.
func checkResult(t *testing.T, what string, got Value, err error, want json.RawMessage) {
	t.Helper()
	if raised(want) {
		py := arg[map[string]string](t, want)["raises"]
		if wantErr, ok := pyErrors[py]; !ok || !errors.Is(err, wantErr) {
			t.Errorf("%s: %v, want %v (Python raises %s)", what, err, wantErr, py)
		}
		return
	}
	if w := arg[string](t, want); err != nil || got.String() != w {
		t.Errorf("%s = %s, %v; want %s", what, got, err, w)
	}
}

// checkIntResult is checkResult of an int operation, which fails where
// Jinja2 prints an int beyond int64, rather than wrap.
func checkIntResult(t *testing.T, what string, got Value, err error, want json.RawMessage) {
	t.Helper()
	if raised(want) {
		checkResult(t, what, got, err, want)
		return
	}
	w := arg[string](t, want)
	if _, perr := strconv.ParseInt(w, 10, 64); !errors.Is(perr, strconv.ErrRange) {
		checkResult(t, what, got, err, want)
	} else if !errors.Is(err, runtime.ErrInvalid) || !strings.Contains(err.Error(), errIntTooLarge.Error()) {
		t.Errorf("%s = %s, %v; want the error %q (Jinja2 prints %s)", what, got, err, errIntTooLarge, w)
	}
}

func TestValuePrint(t *testing.T) {
	for _, r := range rows(t, "value_print") {
		checkResult(t, "str("+arg[string](t, r[0])+")", valueOf(t, r[0]), nil, r[1])
	}
}

func TestValueDecodeKinds(t *testing.T) {
	tests := []string{"integer", "float", "number", "boolean", "none", "string", "mapping", "sequence"}
	for _, r := range rows(t, "value_kinds") {
		v, want := valueOf(t, r[0]), arg[[]string](t, r[1])
		for _, test := range tests {
			if got := v.Test(test); got != slices.Contains(want, test) {
				t.Errorf("%s is %s: %v, want %v", arg[string](t, r[0]), test, got, !got)
			}
		}
	}
	var v Value
	if err := json.Unmarshal([]byte(`99999999999999999999`), &v); err == nil {
		t.Error("an int beyond 64 bits decoded")
	}
	for _, r := range rows(t, "value_marshal") {
		out, err := json.Marshal(valueOf(t, r[0]))
		if want := arg[string](t, r[1]); err != nil || string(out) != want { // keys in insertion order
			t.Errorf("MarshalJSON(%s) = %s, %v; want %s", arg[string](t, r[0]), out, err, want)
		}
	}
}

func TestValueTruth(t *testing.T) {
	for _, r := range rows(t, "value_truth") {
		checkResult(t, "bool("+arg[string](t, r[0])+")", BoolValue(valueOf(t, r[0]).Truth()), nil, r[1])
	}
}

func TestValueCompare(t *testing.T) {
	for _, r := range rows(t, "value_compare") {
		a, op, b := valueOf(t, r[0]), arg[string](t, r[1]), valueOf(t, r[2])
		var got bool
		var err error
		switch op {
		case "==":
			got = Equal(a, b)
		default:
			got, err = Compare(op, a, b)
		}
		checkResult(t, arg[string](t, r[0])+" "+op+" "+arg[string](t, r[2]), BoolValue(got), err, r[3])
	}
}

func TestValueArith(t *testing.T) {
	for _, r := range rows(t, "value_arith") {
		a, op, b := valueOf(t, r[0]), arg[string](t, r[1]), valueOf(t, r[2])
		got, err := Arith(op, a, b)
		checkIntResult(t, arg[string](t, r[0])+" "+op+" "+arg[string](t, r[2]), got, err, r[3])
	}
}

func TestValueNegate(t *testing.T) {
	for _, r := range rows(t, "value_negate") {
		got, err := Negate(valueOf(t, r[0]))
		checkIntResult(t, "-"+arg[string](t, r[0]), got, err, r[1])
	}
}

// TestPrintf holds Python's format % args (Arith's % of a string) to
// CPython's: every flag, width, precision and conversion, a tuple, a
// single value and a mapping, and every error it raises.
func TestPrintf(t *testing.T) {
	for _, r := range rows(t, "value_printf") {
		format, args := arg[string](t, r[0]), valueOf(t, r[1])
		if arg[bool](t, r[2]) {
			args = TupleValue(args.list...)
		}
		got, err := Arith("%", StringValue(format), args)
		checkResult(t, fmt.Sprintf("%q %% %s", format, args.AppendRepr(nil)), got, err, r[3])
	}
}

func TestValueContainsAndItems(t *testing.T) {
	for _, r := range rows(t, "value_contains") {
		got, err := Contains(valueOf(t, r[0]), valueOf(t, r[1]))
		checkResult(t, arg[string](t, r[1])+" in "+arg[string](t, r[0]), BoolValue(got), err, r[2])
	}
	for _, r := range rows(t, "value_item") {
		x, err := valueOf(t, r[0]).Item(valueOf(t, r[1]))
		what := arg[string](t, r[0]) + "[" + arg[string](t, r[1]) + "]"
		checkResult(t, what+" is defined", BoolValue(x.Defined()), err, r[2])
		checkResult(t, what, x, err, r[3])
	}
	for _, r := range rows(t, "value_len") {
		n, err := valueOf(t, r[0]).Len()
		checkResult(t, "length of "+arg[string](t, r[0]), IntValue(n), err, r[1])
	}
	for _, r := range rows(t, "value_reverse") {
		x, err := SliceValue(valueOf(t, r[0]), 0, 0, -1, false, false)
		checkResult(t, arg[string](t, r[0])+"[::-1]", x, err, r[1])
	}
	// Where the key is missing, Jinja2 reads the Python value's
	// attribute: a method, or an int's real, which promptgen cannot hold.
	for _, tc := range []struct {
		v   Value
		key string
	}{{StringValue("abc"), "upper"}, {jsonValue(t, `[1]`), "count"}, {DictValue(), "items"}, {IntValue(5), "real"}, {NoneValue(), "__class__"}} {
		if _, err := tc.v.Item(StringValue(tc.key)); !errors.Is(err, runtime.ErrInvalid) {
			t.Errorf("%s[%q]: %v, want ErrInvalid", tc.v.AppendRepr(nil), tc.key, err)
		}
	}
	undefined := map[string]func() (Value, error){
		"{{ x.items() }}": func() (Value, error) {
			_, err := Value{}.DictItems()
			return Value{}, err
		},
		"{{ x|items|list }}": func() (Value, error) {
			items, err := Value{}.Items()
			var pairs []Value
			for _, kv := range items {
				pairs = append(pairs, ListValue(kv[0], kv[1]))
			}
			return ListValue(pairs...), err
		},
	}
	for _, r := range rows(t, "value_undefined") {
		src := arg[string](t, r[0])
		f, ok := undefined[src]
		if !ok {
			t.Fatalf("value_undefined: no Go operation for %s", src)
		}
		got, err := f()
		checkResult(t, src+" of undefined", got, err, r[1])
	}
}

func TestValueToJSON(t *testing.T) {
	for _, r := range rows(t, "value_tojson") {
		got, err := ToJSON(valueOf(t, r[0]), 0, false, false)
		checkResult(t, "tojson("+arg[string](t, r[0])+")", StringValue(got), err, r[1])
	}
	for _, r := range rows(t, "value_keys") {
		keys, err := valueOf(t, r[0]).Keys()
		checkResult(t, "keys of "+arg[string](t, r[0]), keys, err, r[1])
	}
}

// TestMoreFilters holds abs, center, escape, filesizeformat, urlencode,
// sum, min and max (Filter) to what Jinja2 renders for the same values.
func TestMoreFilters(t *testing.T) {
	for _, r := range rows(t, "value_filter") {
		name, x := arg[string](t, r[0]), valueOf(t, r[1])
		var args []Value
		var texts []string
		for _, a := range arg[[]json.RawMessage](t, r[2]) {
			args = append(args, valueOf(t, a))
			texts = append(texts, arg[string](t, a))
		}
		got, err := Filter(name, x, args...)
		check := checkResult
		if name == "sum" || name == "abs" {
			check = checkIntResult
		}
		check(t, fmt.Sprintf("%s|%s(%s)", arg[string](t, r[1]), name, strings.Join(texts, ", ")), got, err, r[3])
	}
}

// TestWordwrap holds Wordwrap to Jinja2's wordwrap (Python's textwrap).
func TestWordwrap(t *testing.T) {
	for _, r := range rows(t, "value_wordwrap") {
		text, width := arg[string](t, r[0]), arg[int](t, r[1])
		args := []Value{IntValue(width), BoolValue(arg[bool](t, r[2])), NoneValue(), BoolValue(arg[bool](t, r[4]))}
		if ws := arg[*string](t, r[3]); ws != nil {
			args[2] = StringValue(*ws)
		}
		got, err := Filter("wordwrap", StringValue(text), args...)
		checkResult(t, fmt.Sprintf("%q|wordwrap(%d, %s, %s, %s)", text, width, r[2], r[3], r[4]), got, err, r[5])
	}
}

// TestSumAsArith holds Sum to Arith's + followed by AppendStr: every +
// of the value_arith table, and chains of three of its operands, print
// the same text or fail with the same error, leaving dst as it was.
func TestSumAsArith(t *testing.T) {
	var operands []Value
	for _, r := range rows(t, "value_arith") {
		if arg[string](t, r[1]) == "+" {
			operands = append(operands, valueOf(t, r[0]), valueOf(t, r[2]))
		}
	}
	viaArith := func(xs []Value) (string, error) {
		sum := xs[0]
		for _, x := range xs[1:] {
			var err error
			if sum, err = Arith("+", sum, x); err != nil {
				return "", err
			}
		}
		return string(sum.AppendStr(nil)), nil
	}
	viaSum := func(xs []Value) (string, error) {
		var s Sum
		dst := s.Start([]byte("before|"), xs[0])
		for _, x := range xs[1:] {
			var err error
			if dst, err = s.Add(dst, x); err != nil {
				if string(dst) != "before|" {
					t.Errorf("%v: on error dst is %q, want it as it was", xs, dst)
				}
				return "", err
			}
		}
		return strings.TrimPrefix(string(s.End(dst)), "before|"), nil
	}
	check := func(xs ...Value) {
		want, werr := viaArith(xs)
		got, err := viaSum(xs)
		if got != want || fmt.Sprint(err) != fmt.Sprint(werr) {
			t.Errorf("sum of %v = %q, %v; Arith gives %q, %v", xs, got, err, want, werr)
		}
	}
	for i := 0; i+1 < len(operands); i += 2 {
		check(operands[i], operands[i+1])
	}
	for _, a := range operands {
		for _, b := range operands {
			check(a, b, StringValue("!"))
			check(StringValue("!"), a, b)
		}
	}
	big := StringValue(strings.Repeat("x", runtime.MaxOutput/2+1))
	check(big, StringValue("y"))
	check(StringValue("y"), big, big)
}
