package jinja

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/promptgen/promptgen/runtime"
)

// The expected values of these tests are what Python 3.11 with Jinja2 3.1
// (/usr/bin/python3, python3-jinja2) prints for the same JSON, read with
// json.loads and rendered with {{ ... }}: a script run by hand, its output
// pasted.

func jsonValue(t *testing.T, s string) Value {
	t.Helper()
	var v Value
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return v
}

func TestValuePrint(t *testing.T) {
	for _, tc := range []struct{ json, want string }{
		{`{"b": 1, "a": [1, 2.5, "x'y", null, true, {"k": "é"}], "u": "日本\u200b\n"}`,
			`{'b': 1, 'a': [1, 2.5, "x'y", None, True, {'k': 'é'}], 'u': '日本\u200b\n'}`},
		{`"日本\u200b\n"`, "日本\u200b\n"},
		{`["日本\u200b\n"]`, `['日本\u200b\n']`},
		{`9007199254740993`, "9007199254740993"},
		{`-9223372036854775808`, "-9223372036854775808"},
		{`1e16`, "1e+16"},
		{`1e-07`, "1e-07"},
		{`1.0`, "1.0"},
		{`1e2`, "100.0"},
		{`1`, "1"},
		{`-0.0`, "-0.0"},
		{`1e400`, "inf"},
		{`-1e400`, "-inf"},
		{`null`, "None"},
		{`false`, "False"},
		{`[]`, "[]"},
		{`{}`, "{}"},
		// A key given twice keeps its first place and its last value.
		{`{"a": 1, "b": 2, "a": 3}`, "{'a': 3, 'b': 2}"},
	} {
		if got := jsonValue(t, tc.json).String(); got != tc.want {
			t.Errorf("str(%s) = %q, want %q", tc.json, got, tc.want)
		}
	}
	if got := FloatValue(math.NaN()).String(); got != "nan" {
		t.Errorf("str(nan) = %q", got)
	}
	if got := (Value{}).String(); got != "" {
		t.Errorf("str(undefined) = %q, want empty", got)
	}
	if got := string(ListValue(Value{}).AppendStr(nil)); got != "[Undefined]" {
		t.Errorf("str([undefined]) = %q", got)
	}
}

func TestValueDecodeKinds(t *testing.T) {
	for _, tc := range []struct{ json, test string }{
		{`1`, "integer"}, {`1.0`, "float"}, {`1e2`, "float"}, {`true`, "boolean"}, {`null`, "none"},
		{`"s"`, "string"}, {`{}`, "mapping"}, {`[]`, "sequence"},
	} {
		if v := jsonValue(t, tc.json); !v.Test(tc.test) {
			t.Errorf("%s is not %s", tc.json, tc.test)
		}
	}
	var v Value
	if err := json.Unmarshal([]byte(`99999999999999999999`), &v); err == nil {
		t.Error("an int beyond 64 bits decoded")
	}
	if d := jsonValue(t, `{"z": 1, "a": 2, "m": 3}`); d.String() != "{'z': 1, 'a': 2, 'm': 3}" {
		t.Errorf("order lost: %s", d)
	}
	out, err := json.Marshal(jsonValue(t, `{"z": [1, 2.0, null], "a": "é"}`))
	if err != nil || string(out) != `{"z":[1,2.0,null],"a":"\u00e9"}` { // keys in insertion order
		t.Errorf("MarshalJSON = %s, %v", out, err)
	}
}

func TestValueTruth(t *testing.T) {
	for _, tc := range []struct {
		json string
		want bool
	}{
		{`""`, false}, {`0`, false}, {`0.0`, false}, {`[]`, false}, {`{}`, false}, {`null`, false}, {`false`, false},
		{`"0"`, true}, {`[0]`, true}, {`{"a": null}`, true}, {`-1`, true}, {`1e-300`, true}, {`true`, true},
	} {
		if got := jsonValue(t, tc.json).Truth(); got != tc.want {
			t.Errorf("bool(%s) = %v, want %v", tc.json, got, tc.want)
		}
	}
	if (Value{}).Truth() {
		t.Error("undefined is true")
	}
}

func TestValueCompare(t *testing.T) {
	big := jsonValue(t, `9007199254740993`)
	for _, tc := range []struct {
		a    Value
		op   string
		b    Value
		want bool
	}{
		// Python compares an int and a float exactly.
		{big, "==", FloatValue(9007199254740992), false},
		{big, ">", FloatValue(9007199254740992), true},
		{big, "<", FloatValue(9007199254740994), true},
		{FloatValue(9007199254740992), "<", big, true},
		{IntValue(math.MaxInt64), "<", FloatValue(0x1p63), true},
		{IntValue(math.MinInt64), "==", FloatValue(-0x1p63), true},
		{IntValue(-5), ">", FloatValue(-5.5), true},
		{IntValue(5), "<", FloatValue(5.5), true},
		{IntValue(1), "==", FloatValue(1), true},
		{BoolValue(true), "==", IntValue(1), true},
		{jsonValue(t, `[1, 2]`), "<", jsonValue(t, `[1, 3]`), true},
		{jsonValue(t, `{"a": 1}`), "==", jsonValue(t, `{"a": 1.0}`), true},
		{jsonValue(t, `{"a": 1, "b": 2}`), "==", jsonValue(t, `{"b": 2, "a": 1}`), true},
		{StringValue("b"), ">", StringValue("a"), true},
		{FloatValue(math.Inf(1)), ">", IntValue(math.MaxInt64), true},
		// NaN is unordered and unequal.
		{FloatValue(math.NaN()), "==", FloatValue(math.NaN()), false},
		{FloatValue(math.NaN()), "<", IntValue(1), false},
		{FloatValue(math.NaN()), ">=", IntValue(1), false},
		{IntValue(1), ">", FloatValue(math.NaN()), false},
		{Value{}, "==", Value{}, true},
		{Value{}, "==", NoneValue(), false},
	} {
		var got bool
		var err error
		switch tc.op {
		case "==":
			got = Equal(tc.a, tc.b)
		default:
			got, err = Compare(tc.op, tc.a, tc.b)
		}
		if err != nil || got != tc.want {
			t.Errorf("%s %s %s = %v, %v; want %v", tc.a.AppendRepr(nil), tc.op, tc.b.AppendRepr(nil), got, err, tc.want)
		}
	}
	// What Python rejects fails, with its reason; undefined is Jinja2's
	// UndefinedError.
	for _, tc := range []struct {
		a, b Value
		want error
	}{
		{jsonValue(t, `[1, "a"]`), jsonValue(t, `[1, 2]`), runtime.ErrInvalid},
		{StringValue("a"), IntValue(1), runtime.ErrInvalid},
		{NoneValue(), IntValue(1), runtime.ErrInvalid},
		{Value{}, IntValue(1), runtime.ErrUndefined},
	} {
		if _, err := Compare("<", tc.a, tc.b); !errors.Is(err, tc.want) {
			t.Errorf("%s < %s: %v, want %v", tc.a.AppendRepr(nil), tc.b.AppendRepr(nil), err, tc.want)
		}
	}
}

func TestValueArith(t *testing.T) {
	for _, tc := range []struct {
		a    Value
		op   string
		b    Value
		want string
	}{
		{IntValue(7), "//", IntValue(2), "3"},
		{IntValue(-7), "//", IntValue(2), "-4"},
		{IntValue(-7), "%", IntValue(3), "2"},
		{IntValue(7), "/", IntValue(2), "3.5"},
		{IntValue(2), "**", IntValue(-1), "0.5"},
		{IntValue(1), "+", FloatValue(1.5), "2.5"},
		{StringValue("a"), "+", StringValue("b"), "ab"},
		{jsonValue(t, `[1]`), "+", jsonValue(t, `[2]`), "[1, 2]"},
		{StringValue("ab"), "*", IntValue(2), "abab"},
		{BoolValue(true), "+", IntValue(1), "2"},
	} {
		got, err := Arith(tc.op, tc.a, tc.b)
		if err != nil || got.String() != tc.want {
			t.Errorf("%s %s %s = %s, %v; want %s", tc.a.AppendRepr(nil), tc.op, tc.b.AppendRepr(nil), got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		a    Value
		op   string
		b    Value
		want error
	}{
		{IntValue(1), "+", StringValue("a"), runtime.ErrInvalid},
		{IntValue(1), "//", IntValue(0), runtime.ErrInvalid},
		{IntValue(1), "+", Value{}, runtime.ErrUndefined},
		// Python formats the string (printf style), which promptgen does
		// not do: "abc" % {} is "abc" in Python.
		{StringValue("abc"), "%", DictValue(), runtime.ErrInvalid},
		{StringValue("abc"), "%", Value{}, runtime.ErrInvalid},
	} {
		if _, err := Arith(tc.op, tc.a, tc.b); !errors.Is(err, tc.want) {
			t.Errorf("%s %s %s: %v, want %v", tc.a.AppendRepr(nil), tc.op, tc.b.AppendRepr(nil), err, tc.want)
		}
	}
}

func TestValueContainsAndItems(t *testing.T) {
	list, dict := jsonValue(t, `["a", 1.0]`), jsonValue(t, `{"k": null}`)
	for _, tc := range []struct {
		c, x Value
		want bool
	}{
		{list, StringValue("a"), true}, {list, IntValue(1), true}, {dict, StringValue("k"), true},
		{StringValue("xyz"), StringValue("x"), true}, {Value{}, StringValue("x"), false},
	} {
		if got, err := Contains(tc.c, tc.x); err != nil || got != tc.want {
			t.Errorf("%s in %s = %v, %v", tc.x.AppendRepr(nil), tc.c.AppendRepr(nil), got, err)
		}
	}
	if _, err := Contains(dict, jsonValue(t, `[1]`)); !errors.Is(err, runtime.ErrInvalid) {
		t.Errorf("[1] in a dict: %v, want unhashable type", err)
	}
	if _, err := Contains(StringValue("abc"), IntValue(1)); !errors.Is(err, runtime.ErrInvalid) {
		t.Errorf("1 in a string: %v", err)
	}
	s := StringValue("日本語")
	if n, _ := s.Len(); n != 3 {
		t.Errorf("len = %d", n)
	}
	if x, _ := s.Item(IntValue(-1)); x.String() != "語" {
		t.Errorf("[-1] = %s", x)
	}
	if x, _ := SliceValue(s, 0, 0, -1, false, false); x.String() != "語本日" {
		t.Errorf("[::-1] = %s", x)
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
	if x, err := jsonValue(t, `{"items": 5}`).Item(StringValue("items")); err != nil || x.String() != "5" {
		t.Errorf(`{"items": 5}['items'] = %s, %v`, x, err)
	}
	if x, err := NoneValue().Item(StringValue("a")); err != nil || x.Defined() {
		t.Errorf("None['a'] = %s, %v; want undefined", x, err)
	}
	if _, err := (Value{}).DictItems(); !errors.Is(err, runtime.ErrUndefined) {
		t.Errorf("undefined.items(): %v", err)
	}
	if items, err := (Value{}).Items(); err != nil || items != nil {
		t.Errorf("undefined|items = %v, %v; want nothing", items, err)
	}
}

func TestValueToJSON(t *testing.T) {
	v := jsonValue(t, `{"b": 1, "a": [1, 2.5, "x'y", null, true, {"k": "é"}], "u": "日本\u200b\n"}`)
	got, err := ToJSON(v, 0, false, false)
	want := `{"a": [1, 2.5, "x\u0027y", null, true, {"k": "\u00e9"}], "b": 1, "u": "\u65e5\u672c\u200b\n"}`
	if err != nil || got != want {
		t.Errorf("tojson = %s, %v\nwant %s", got, err, want)
	}
	if got, _ := ToJSON(FloatValue(math.Inf(1)), 0, false, false); got != "Infinity" {
		t.Errorf("tojson(inf) = %s", got)
	}
	if _, err := ToJSON(ListValue(Value{}), 0, false, false); !errors.Is(err, runtime.ErrInvalid) {
		t.Errorf("tojson([undefined]): %v", err)
	}
	if keys, _ := v.Keys(); keys.String() != "['b', 'a', 'u']" {
		t.Errorf("keys = %s", keys)
	}
}
