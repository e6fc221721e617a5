package jinja

import (
	"cmp"
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
	"IndexError":        runtime.ErrInvalid,
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

// TestStrFormat holds str.format to CPython's: every part of a format
// spec, alone and drawn at random together, of each kind of value, the
// syntax of fields, and every error Python raises.
func TestStrFormat(t *testing.T) {
	for _, r := range rows(t, "value_strformat") {
		format := arg[string](t, r[0])
		var args []Value
		for _, a := range arg[[]json.RawMessage](t, r[1]) {
			args = append(args, valueOf(t, a))
		}
		kwargs := DictValue()
		for k, v := range arg[map[string]json.RawMessage](t, r[2]) {
			kwargs.dict.add(k, false, valueOf(t, v))
		}
		got, err := StrFormat(format, args, kwargs)
		checkResult(t, fmt.Sprintf("%q.format(%s, %s)", format, r[1], r[2]), StringValue(got), err, r[3])
	}
	// Not supported: a field reading an attribute or an index, which
	// Jinja2's sandbox reads as its getattr and getitem.
	for _, format := range []string{"{0.real}", "{0[0]}", "{a.b}"} {
		if _, err := StrFormat(format, []Value{ListValue(IntValue(1))}, DictValue()); !errors.Is(err, runtime.ErrInvalid) {
			t.Errorf("%q.format: %v, want ErrInvalid", format, err)
		}
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
	// attribute: a method (TestValueMethod), or one promptgen cannot
	// hold: an int's real, a special name, a method that modifies the
	// value, which transformers' sandbox makes an undefined that fails.
	for _, tc := range []struct {
		v   Value
		key string
	}{{IntValue(5), "real"}, {NoneValue(), "__class__"}, {DictValue(), "pop"}, {jsonValue(t, `[1]`), "append"}, {DictValue(), "__len__"}} {
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

// TestSumAsArith holds Sum to Arith's + followed by a print (CheckPrint,
// AppendStr): every + of the value_arith table, and chains of three of
// its operands, print the same text or fail with the same error, leaving
// dst as it was.
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
		if err := sum.CheckPrint(); err != nil {
			return "", err
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
		dst, err := s.End(dst)
		if err != nil {
			if string(dst) != "before|" {
				t.Errorf("%v: on error dst is %q, want it as it was", xs, dst)
			}
			return "", err
		}
		return strings.TrimPrefix(string(dst), "before|"), nil
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
	gen := TupleValue(IteratorValue("generator", ListValue(IntValue(1))))
	check(gen, TupleValue()) // printed with its address: fails
	check(TupleValue(), TupleValue(), gen)
	big := StringValue(strings.Repeat("x", runtime.MaxOutput/2+1))
	check(big, StringValue("y"))
	check(StringValue("y"), big, big)
}

// TestValueMethod holds a method of a dynamic value (x['items'] where x
// has no such key, x.items of a dict) to what Jinja2 3.1 does with one in
// transformers' sandbox (checked with /usr/bin/python3): true, defined,
// callable, no other type, unequal to other values, its items and
// attributes undefined, int and float their default; printing it (Jinja2
// prints its address), tojson, len, iterating and arithmetic fail, and
// so does comparing two methods, which Python does by their owners'
// identity.
func TestValueMethod(t *testing.T) {
	for _, tc := range []struct {
		v    Value
		key  string
		name string
	}{
		{StringValue("abc"), "upper", "str.upper"}, {StringValue("abc"), "format", "str.format"},
		{jsonValue(t, `[1]`), "count", "list.count"}, {jsonValue(t, `[1]`), "pop", "list.pop"},
		{DictValue(), "items", "dict.items"}, {jsonValue(t, `{"a": 1}`), "get", "dict.get"},
		{TupleValue(IntValue(1)), "index", "tuple.index"}, {IntValue(5), "bit_length", "int.bit_length"},
	} {
		m, err := tc.v.Item(StringValue(tc.key))
		if err != nil || m.kind != methodKind || m.methodName() != tc.name {
			t.Errorf("%s[%q] = %#v, %v; want the method %s", tc.v.AppendRepr(nil), tc.key, m, err, tc.name)
			continue
		}
		if !m.Truth() || !m.Test("defined") || !m.Test("callable") || m.Test("none") || m.Test("undefined") ||
			m.Test("iterable") || m.Test("mapping") || m.Test("string") || m.Test("sequence") || m.Test("number") {
			t.Errorf("%s: truth or tests differ from a bound method's", tc.name)
		}
		if Equal(m, StringValue(tc.key)) || Equal(m, NoneValue()) || Equal(m, Value{}) {
			t.Errorf("%s equals a value that is not a method", tc.name)
		}
		for _, key := range []Value{StringValue("type"), IntValue(0)} {
			if x, err := m.Item(key); err != nil || x.Defined() {
				t.Errorf("%s[%s] = %v, %v; want undefined", tc.name, key.AppendRepr(nil), x, err)
			}
		}
		if x, err := m.Attr("type"); err != nil || x.Defined() {
			t.Errorf("%s.type = %v, %v; want undefined", tc.name, x, err)
		}
		if x, err := Filter("int", m, IntValue(7)); err != nil || !Equal(x, IntValue(7)) {
			t.Errorf("%s | int(7) = %v, %v; want 7", tc.name, x, err)
		}
		if x, err := Filter("float", m, FloatValue(2.5)); err != nil || !Equal(x, FloatValue(2.5)) {
			t.Errorf("%s | float(2.5) = %v, %v; want 2.5", tc.name, x, err)
		}
		fails := map[string]func() error{
			"print":        m.CheckPrint,
			"print a list": ListValue(StringValue("a"), m).CheckPrint,
			"print a dict": DictValue().Set("k", m).CheckPrint,
			"string":       func() error { _, err := Filter("string", m); return err },
			"upper":        func() error { _, err := Filter("upper", m); return err },
			"join":         func() error { _, err := JoinValues(ListValue(m), StringValue(",")); return err },
			"join by":      func() error { _, err := JoinValues(ListValue(), m); return err },
			"printf":       func() error { _, err := Arith("%", StringValue("%s"), m); return err },
			"format":       func() error { _, err := FormatFilter(m); return err },
			"tojson":       func() error { _, err := ToJSON(ListValue(m), 0, false, true); return err },
			"length":       func() error { _, err := m.Len(); return err },
			"iterate":      func() error { _, err := m.Iter(); return err },
			"in":           func() error { _, err := Contains(m, StringValue("a")); return err },
			"+":            func() error { _, err := Arith("+", m, StringValue("a")); return err },
			"<":            func() error { _, err := Compare("<", m, IntValue(1)); return err },
			"==":           func() error { _, err := EqualMethods(m, m); return err },
			"in a list":    func() error { _, err := Contains(ListValue(m), m); return err },
		}
		for what, f := range fails {
			if err := f(); !errors.Is(err, runtime.ErrInvalid) {
				t.Errorf("%s: %s: %v, want ErrInvalid", tc.name, what, err)
			}
		}
		if eq, err := EqualMethods(m, StringValue("a")); eq || err != nil {
			t.Errorf("%s == 'a': %v, %v; want false", tc.name, eq, err)
		}
		if in, err := Contains(ListValue(StringValue("a")), m); in || err != nil {
			t.Errorf("%s in ['a']: %v, %v; want false", tc.name, in, err)
		}
	}
}

// TestValueGenerator holds a generator passed to a macro that calls itself
// (GeneratorValue) to what Jinja2 3.1 does with one in transformers'
// sandbox (checked with /usr/bin/python3): true, defined, iterable, no
// other type, unequal to other values, its items and attributes undefined
// but its methods send, close and throw, int and float their default;
// printing it (Jinja2 prints its address), tojson, len, arithmetic and its
// attributes gi_* fail, and so do iterating it (Python consumes it, which
// promptgen does not follow) and comparing two, which Python does by
// identity.
func TestValueGenerator(t *testing.T) {
	g := GeneratorValue("generator", BoolValue(true))
	if !g.Truth() || !g.Test("defined") || !g.Test("iterable") || g.Test("callable") || g.Test("none") || g.Test("undefined") ||
		g.Test("mapping") || g.Test("string") || g.Test("sequence") || g.Test("number") || g.Test("boolean") {
		t.Error("truth or tests differ from a generator's")
	}
	if Equal(g, StringValue("a")) || Equal(g, NoneValue()) || Equal(g, Value{}) {
		t.Error("a generator equals a value that is not one")
	}
	for _, key := range []Value{StringValue("type"), StringValue("items"), IntValue(0)} {
		if x, err := g.Item(key); err != nil || x.Defined() {
			t.Errorf("g[%s] = %v, %v; want undefined", key.AppendRepr(nil), x, err)
		}
	}
	if x, err := g.Attr("type"); err != nil || x.Defined() {
		t.Errorf("g.type = %v, %v; want undefined", x, err)
	}
	for _, name := range []string{"send", "close", "throw"} {
		if m, err := g.Attr(name); err != nil || m.kind != methodKind || m.methodName() != "generator."+name {
			t.Errorf("g.%s = %#v, %v; want the method generator.%s", name, m, err, name)
		}
	}
	if x, err := GeneratorValue("list_reverseiterator").Attr("send"); err != nil || x.Defined() {
		t.Errorf("reverse iterator's send = %v, %v; want undefined", x, err)
	}
	if x, err := Filter("int", g, IntValue(7)); err != nil || !Equal(x, IntValue(7)) {
		t.Errorf("g | int(7) = %v, %v; want 7", x, err)
	}
	if x, err := Filter("float", g, FloatValue(2.5)); err != nil || !Equal(x, FloatValue(2.5)) {
		t.Errorf("g | float(2.5) = %v, %v; want 2.5", x, err)
	}
	fails := map[string]func() error{
		"print":        g.CheckPrint,
		"print a list": ListValue(StringValue("a"), g).CheckPrint,
		"string":       func() error { _, err := Filter("string", g); return err },
		"join":         func() error { _, err := JoinValues(ListValue(g), StringValue(",")); return err },
		"printf":       func() error { _, err := Arith("%", StringValue("%s"), g); return err },
		"tojson":       func() error { _, err := ToJSON(g, 0, false, true); return err },
		"length":       func() error { _, err := g.Len(); return err },
		"iterate":      func() error { _, err := g.Iter(); return err },
		"list":         func() error { _, err := Filter("list", g); return err },
		"in":           func() error { _, err := Contains(g, StringValue("a")); return err },
		"+":            func() error { _, err := Arith("+", g, IntValue(1)); return err },
		"<":            func() error { _, err := Compare("<", g, IntValue(1)); return err },
		"slice":        func() error { _, err := SliceValue(g, 0, 1, 1, true, true); return err },
		"gi_frame":     func() error { _, err := g.Attr("gi_frame"); return err },
		"gi_running":   func() error { _, err := g.Item(StringValue("gi_running")); return err },
		"==":           func() error { _, err := EqualMethods(g, g); return err },
		"in a list":    func() error { _, err := Contains(ListValue(g), g); return err },
	}
	for what, f := range fails {
		if err := f(); !errors.Is(err, runtime.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", what, err)
		}
	}
	if eq, err := EqualMethods(g, StringValue("a")); eq || err != nil {
		t.Errorf("g == 'a': %v, %v; want false", eq, err)
	}
	if in, err := Contains(ListValue(StringValue("a")), g); in || err != nil {
		t.Errorf("g in ['a']: %v, %v; want false", in, err)
	}
}

// TestValueIntKeys holds a dict with int keys (a dict literal's {0: 'a'},
// SetInt) to Python's dict (checked with /usr/bin/python3): a number
// equal to an int key finds it (True is 1, 2.0 is 2), a string does not;
// it prints its int keys bare, iterates them as ints, and json.dumps
// writes them as strings, sorting them as ints with sort_keys (and
// failing on an int and a string).
func TestValueIntKeys(t *testing.T) {
	d := DictValue().SetInt(16384, IntValue(1024)).SetInt(0, IntValue(0)).Set("512", StringValue("s")).SetInt(1, StringValue("one"))
	if got := d.String(); got != "{16384: 1024, 0: 0, '512': 's', 1: 'one'}" {
		t.Errorf("print: %s", got)
	}
	for _, tc := range []struct {
		key  Value
		want string
	}{
		{IntValue(16384), "1024"}, {BoolValue(true), "one"}, {FloatValue(0), "0"}, {StringValue("512"), "s"},
		{IntValue(512), ""}, {StringValue("0"), ""}, {FloatValue(0.5), ""}, {NoneValue(), ""},
	} {
		x, err := d.Item(tc.key)
		if err != nil || x.Defined() != (tc.want != "") || x.Defined() && x.String() != tc.want {
			t.Errorf("d[%s] = %v, %v; want %q", tc.key.AppendRepr(nil), x, err, tc.want)
		}
		if in, err := Contains(d, tc.key); err != nil || in != (tc.want != "") {
			t.Errorf("%s in d = %v, %v", tc.key.AppendRepr(nil), in, err)
		}
		if g, err := d.Get(tc.key, StringValue("-")); err != nil || g.String() != cmp.Or(tc.want, "-") {
			t.Errorf("d.get(%s) = %v, %v", tc.key.AppendRepr(nil), g, err)
		}
	}
	if keys, err := d.Keys(); err != nil || keys.String() != "[16384, 0, '512', 1]" {
		t.Errorf("keys() = %v, %v", keys, err)
	}
	if s, err := Filter("dictsort", DictValue().SetInt(512, IntValue(1)).SetInt(16384, IntValue(2)).SetInt(2, IntValue(3)), BoolValue(false), StringValue("key"), BoolValue(false)); err != nil || s.String() != "[(2, 3), (512, 1), (16384, 2)]" {
		t.Errorf("dictsort = %v, %v", s, err)
	}
	ints := DictValue().SetInt(512, IntValue(1)).SetInt(16384, IntValue(2)).SetInt(2, IntValue(3))
	if s, err := ToJSON(ints, 0, false, false); err != nil || s != `{"2": 3, "512": 1, "16384": 2}` {
		t.Errorf("tojson = %s, %v", s, err)
	}
	if s, err := ToJSON(ints, 0, false, true); err != nil || s != `{"512": 1, "16384": 2, "2": 3}` {
		t.Errorf("transformers tojson = %s, %v", s, err)
	}
	if _, err := ToJSON(d, 0, false, false); !errors.Is(err, runtime.ErrInvalid) {
		t.Errorf("tojson of an int and a string key: %v, want ErrInvalid", err)
	}
	if Equal(DictValue().SetInt(1, IntValue(1)), DictValue().Set("1", IntValue(1))) || !Equal(ints, DictValue().SetInt(2, IntValue(3)).SetInt(512, IntValue(1)).SetInt(16384, FloatValue(2))) {
		t.Error("== of dicts with int keys differs from Python's")
	}
}

// TestGeneratorItem: a subscript of a generator or a list's reverse
// iterator (GeneratorValue) is undefined (Python cannot subscript one),
// but where the key is a string that names an attribute of it, which
// Jinja2 reads instead (checked with Jinja2 3.1 on Python 3.11), it is
// the method (send), or the render fails (gi_running, a special name).
func TestGeneratorItem(t *testing.T) {
	const undefined, method, fails = "undefined", "method", "fails"
	for _, tc := range []struct {
		typ  string
		key  Value
		want string
	}{
		{"generator", IntValue(1), undefined}, {"generator", FloatValue(1.5), undefined}, {"generator", NoneValue(), undefined},
		{"generator", Value{}, undefined}, {"generator", StringValue("x"), undefined}, {"generator", ListValue(IntValue(1)), undefined},
		{"generator", StringValue("send"), method}, {"generator", StringValue("gi_running"), fails},
		{"generator", StringValue("__doc__"), fails}, {"generator", StringValue("__name__"), fails},
		{"list_reverseiterator", StringValue("send"), undefined}, {"list_reverseiterator", IntValue(0), undefined},
		{"list_reverseiterator", StringValue("__length_hint__"), fails}, {"generator", StringValue("__length_hint__"), undefined},
		{"generator", StringValue(" send "), undefined}, {"generator", StringValue(""), undefined},
	} {
		x, err := GeneratorValue(tc.typ).Item(tc.key)
		got := undefined
		switch {
		case errors.Is(err, runtime.ErrInvalid):
			got = fails
		case err != nil:
			got = err.Error()
		case x.kind == methodKind:
			got = method
		case x.Defined():
			got = x.String()
		}
		if got != tc.want {
			t.Errorf("%s[%s]: %s, want %s", tc.typ, tc.key.AppendRepr(nil), got, tc.want)
		}
	}
}
