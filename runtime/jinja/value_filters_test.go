package jinja

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/runtime"
)

// The expected values are what Jinja2 3.1 (/usr/bin/python3) prints for
// {{ (x|name(args...))|list }} (|list where the filter yields an
// iterator), x and args read with json.loads; "!undefined" is an
// UndefinedError, "!..." another exception's message. Made by a script
// run by hand, its output pasted.
func TestFilter(t *testing.T) {
	for _, tc := range []struct{ name, x, args, want string }{
		{"reverse", `"héllo"`, `[]`, "olléh"},
		{"reverse", `[1,"a",null]`, `[]`, "[None, 'a', 1]"},
		{"reverse", `{"b":1,"a":2}`, `[]`, "['a', 'b']"},
		{"reverse", `null`, `[]`, "!argument must be iterable"},
		{"reverse", `3`, `[]`, "!argument must be iterable"},
		{"sort", `[3,1,2]`, `[false, false, null]`, "[1, 2, 3]"},
		{"sort", `[3,1,2]`, `[true, false, null]`, "[3, 2, 1]"},
		{"sort", `["b","A","a","B"]`, `[false, false, null]`, "['A', 'a', 'b', 'B']"},
		{"sort", `["b","A","a","B"]`, `[false, true, null]`, "['A', 'B', 'a', 'b']"},
		{"sort", `[{"r":"b","n":1},{"r":"a","n":2},{"r":"a","n":0}]`, `[false, false, "r"]`, "[{'r': 'a', 'n': 2}, {'r': 'a', 'n': 0}, {'r': 'b', 'n': 1}]"},
		{"sort", `[{"r":"b","n":1},{"r":"a","n":2},{"r":"a","n":0}]`, `[true, false, "r,n"]`, "[{'r': 'b', 'n': 1}, {'r': 'a', 'n': 2}, {'r': 'a', 'n': 0}]"},
		{"sort", `[{"r":"b"},{"n":2}]`, `[false, false, "n"]`, "!undefined"},
		{"sort", `[1,"a"]`, `[false, false, null]`, "!'<' not supported between instances of 'str' and 'int'"},
		{"sort", `[2, 1.5, true]`, `[false, false, null]`, "[True, 1.5, 2]"},
		{"sort", `{"b":1,"a":2}`, `[false, false, null]`, "['a', 'b']"},
		{"sort", `[[2,"x"],[1,3],[2,"a"]]`, `[false, false, null]`, "[[1, 3], [2, 'a'], [2, 'x']]"},
		{"sort", `[{"a":[1,2]},{"a":[0]}]`, `[false, false, "a.0"]`, "[{'a': [0]}, {'a': [1, 2]}]"},
		{"dictsort", `{"b":1,"a":"X","C":2}`, `[false, "key", false]`, "[('a', 'X'), ('b', 1), ('C', 2)]"},
		{"dictsort", `{"b":1,"a":"X","C":2}`, `[true, "key", true]`, "[('b', 1), ('a', 'X'), ('C', 2)]"},
		{"dictsort", `{"b":1,"a":"X","C":2}`, `[false, "value", false]`, "!'<' not supported between instances of 'str' and 'int'"},
		{"dictsort", `{"b":2,"a":1}`, `[false, "value", false]`, "[('a', 1), ('b', 2)]"},
		{"dictsort", `[1]`, `[false, "key", false]`, "!'list' object has no attribute 'items'"},
		{"dictsort", `{"a":1}`, `[false, "x", false]`, "!You can only sort by either \"key\" or \"value\""},
		{"map", `[{"r":"u","n":{"k":1}},{"r":"a"},"s",null]`, `["r", null]`, "['u', 'a', Undefined, Undefined]"},
		{"map", `[{"n":{"k":1}},{"r":"a"}]`, `["n.k", 0]`, "[1, 0]"},
		{"map", `[[1,2],[3]]`, `["1", "-"]`, "[2, '-']"},
		{"map", `5`, `["r", null]`, "!'int' object is not iterable"},
		{"map", `null`, `["r", null]`, "[]"},
		{"map", `0`, `["r", null]`, "[]"},
		{"map", `false`, `["r", null]`, "[]"},
		{"map", `{"a":1}`, `["x", null]`, "[Undefined]"},
		{"batch", `[1,2,3,4,5]`, `[2, null]`, "[[1, 2], [3, 4], [5]]"},
		{"batch", `[1,2,3]`, `[2, 0]`, "[[1, 2], [3, 0]]"},
		{"batch", `"abc"`, `[0, null]`, "[[], ['a', 'b', 'c']]"},
		{"batch", `[1,2,3]`, `[-1, "x"]`, "[[1, 2, 3]]"},
		{"items", `{"a":1,"b":[2]}`, `[]`, "[('a', 1), ('b', [2])]"},
		{"items", `[1]`, `[]`, "!Can only get item pairs from a mapping."},
		{"int", `" 12 "`, `[0, 10]`, "12"},
		{"int", `"0x1A"`, `[0, 16]`, "26"},
		{"int", `"1e3"`, `[0, 10]`, "1000"},
		{"int", `"x"`, `["d", 10]`, "d"},
		{"int", `2.9`, `[0, 10]`, "2"},
		{"int", `-2.9`, `[0, 10]`, "-2"},
		{"int", `true`, `[0, 10]`, "1"},
		{"int", `null`, `[0, 10]`, "0"},
		{"int", `[1]`, `[0, 10]`, "0"},
		{"int", `"1_000"`, `[0, 10]`, "1000"},
		{"float", `" 2.5 "`, `[0.0]`, "2.5"},
		{"float", `"x"`, `[null]`, "None"},
		{"float", `3`, `[0.0]`, "3.0"},
		{"float", `"inf"`, `[0.0]`, "inf"},
		{"float", `{}`, `[1]`, "1"},
		{"abs", `-3`, `[]`, "3"},
		{"abs", `-2.5`, `[]`, "2.5"},
		{"abs", `false`, `[]`, "0"},
		{"abs", `"x"`, `[]`, "!bad operand type for abs(): 'str'"},
		{"abs", `null`, `[]`, "!bad operand type for abs(): 'NoneType'"},
	} {
		var args []Value
		if err := json.Unmarshal([]byte(tc.args), &args); err != nil {
			t.Fatal(err)
		}
		got, err := Filter(tc.name, jsonValue(t, tc.x), args...)
		var re *runtime.Error
		switch {
		case tc.want == "!undefined":
			if !errors.Is(err, runtime.ErrUndefined) {
				t.Errorf("%s(%s, %s) = %v, %v; want UndefinedError", tc.name, tc.x, tc.args, got, err)
			}
		case tc.want[0] == '!':
			if !errors.As(err, &re) || re.Detail != tc.want[1:] {
				t.Errorf("%s(%s, %s) = %v, %v; want error %q", tc.name, tc.x, tc.args, got, err, tc.want[1:])
			}
		case err != nil || got.String() != tc.want:
			t.Errorf("%s(%s, %s) = %q, %v; want %q", tc.name, tc.x, tc.args, got.String(), err, tc.want)
		}
	}
}

// A tuple prints, compares and concatenates as Python's tuple.
func TestTuple(t *testing.T) {
	d := jsonValue(t, `{"a": 1, "b": [2]}`)
	items, err := d.ItemsList()
	if err != nil {
		t.Fatal(err)
	}
	pair := items.list[0]
	if got := pair.String(); got != "('a', 1)" {
		t.Errorf("str = %q", got)
	}
	if got := TupleValue(IntValue(1)).String(); got != "(1,)" {
		t.Errorf("one-tuple = %q", got)
	}
	if Equal(pair, ListValue(StringValue("a"), IntValue(1))) {
		t.Error("('a', 1) == ['a', 1]")
	}
	if !Equal(pair, TupleValue(StringValue("a"), IntValue(1))) {
		t.Error("('a', 1) != ('a', 1)")
	}
	if _, err := Compare("<", pair, ListValue()); err == nil {
		t.Error("tuple < list did not fail")
	}
	sum, err := Arith("+", pair, items.list[1])
	if err != nil || sum.String() != "('a', 1, 'b', [2])" {
		t.Errorf("tuple + tuple = %v, %v", sum, err)
	}
	if _, err := Arith("+", pair, ListValue()); err == nil {
		t.Error("tuple + list did not fail")
	}
	if in, err := Contains(d, pair); in || err != nil {
		t.Errorf("tuple in dict = %v, %v; want False", in, err)
	}
	if _, err := Contains(d, items.list[1]); err == nil {
		t.Error("('b', [2]) in dict did not fail (unhashable list)")
	}
	if s, _ := ToJSON(items, 0, false, false); s != `[["a", 1], ["b", [2]]]` {
		t.Errorf("tojson = %s", s)
	}
	if _, err := (ListValue()).ItemsList(); !errors.Is(err, runtime.ErrUndefined) {
		t.Errorf("[].items() = %v, want UndefinedError", err)
	}
}

func TestMapFilter(t *testing.T) {
	got, err := MapFilter("upper", jsonValue(t, `["a", {"b": "c"}, null]`))
	if err != nil || got.String() != `['A', "{'B': 'C'}", 'NONE']` {
		t.Errorf("map('upper') = %q, %v", got.String(), err)
	}
	if _, err := MapFilter("int", IntValue(1), IntValue(0), IntValue(10)); err == nil {
		t.Error("map of an int did not fail")
	}
	if got, err := MapFilter("upper", NoneValue()); err != nil || got.String() != "[]" {
		t.Errorf("map('upper') of None = %q, %v; want []", got.String(), err)
	}
}

// A Gen does a generator filter's work one item at a time: the items
// before one whose work fails are yielded, as Jinja2 yields them to a
// consumer that stops there.
func TestGen(t *testing.T) {
	items := []Value{jsonValue(t, `{"n": 1, "d": "x"}`), jsonValue(t, `{"n": 1, "d": {"b": null}}`)}
	for _, tc := range []struct {
		g    *Gen
		want string // the first item's yield
		err  string // the second's error, or its yield
	}{
		{NewGen("unique", "", BoolValue(false), StringValue("d")), `{'n': 1, 'd': 'x'}`, "unhashable type: 'dict'"},
		{NewGen("unique", "", BoolValue(false), StringValue("n")), `{'n': 1, 'd': 'x'}`, "no item"},
		{NewGen("map", "", StringValue("d"), Value{}), "x", "{'b': None}"},
		{NewGen("mapfilter", "length"), "2", "2"},
	} {
		keep, err := tc.g.Next(items[0])
		if !keep || err != nil || tc.g.Item().String() != tc.want {
			t.Errorf("%+v: first item %v %v %q, want %q", tc.g, keep, err, tc.g.Item().String(), tc.want)
		}
		got := "no item"
		if keep, err := tc.g.Next(items[1]); err != nil {
			got = err.Error()
		} else if keep {
			got = tc.g.Item().String()
		}
		if !strings.Contains(got, tc.err) {
			t.Errorf("%+v: second item %q, want %q", tc.g, got, tc.err)
		}
	}
	if items, err := NewGen("map", "", StringValue("d"), Value{}).Items(NoneValue()); err != nil || items != nil {
		t.Errorf("map's items of None = %v, %v; want none", items, err)
	}
	if _, err := NewGen("unique", "").Items(NoneValue()); err == nil {
		t.Error("unique's items of None did not fail")
	}
}

// A list of 64 or more items is merge sorted: the same result, stable.
func TestFilterSortLong(t *testing.T) {
	var items []Value
	for i := range 100 {
		d := DictValue().Set("k", IntValue((i*37)%10)).Set("i", IntValue(i))
		items = append(items, d)
	}
	for _, reverse := range []bool{false, true} {
		got, err := Filter("sort", ListValue(items...), BoolValue(reverse), BoolValue(false), StringValue("k"))
		if err != nil {
			t.Fatal(err)
		}
		for j := 1; j < len(got.list); j++ {
			a, b := got.list[j-1], got.list[j]
			ka, _ := a.Lookup("k")
			kb, _ := b.Lookup("k")
			ia, _ := a.Lookup("i")
			ib, _ := b.Lookup("i")
			if c := cmpNumbers(ka, kb); reverse && c < 0 || !reverse && c > 0 || c == 0 && cmpNumbers(ia, ib) > 0 {
				t.Fatalf("reverse=%v: %v before %v", reverse, a, b)
			}
		}
	}
	if _, err := Filter("sort", ListValue(append(items, StringValue("x"))...), BoolValue(false), BoolValue(false), NoneValue()); err == nil {
		t.Error("sort of dicts and a string did not fail")
	}
}

// TestMarkup: Jinja2 3.1's Markup (markupsafe 2.1). Markup('<b>') + x
// escapes a str x on either side and fails on any other value, a
// TypeError for 1, None and [1], an UndefinedError for undefined; Markup
// + Markup escapes nothing; *, an item, a slice, last and reverse keep
// Markup, first does not (of a list, both return the item as it is); escape of Markup leaves it; a list prints it as
// Markup('...'). Of a list, MarkupValue makes the string items of a copy
// Markup, as Markup's split() returns them. A chain of + (Sum) prints what Arith adds up.
func TestMarkup(t *testing.T) {
	markup := MarkupValue(StringValue("<b>"))
	plain := ListValue(StringValue("a"), IntValue(1))
	repr := func(v Value) string { return string(ListValue(v).AppendRepr(nil)) }
	must := func(v Value, err error) Value {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		what string
		got  Value
		want string
	}{
		{"Markup + str", must(Arith("+", markup, StringValue("a<'"))), `[Markup('<b>a&lt;&#39;')]`},
		{"str + Markup", must(Arith("+", StringValue("a&"), markup)), `[Markup('a&amp;<b>')]`},
		{"Markup + Markup", must(Arith("+", markup, markup)), `[Markup('<b><b>')]`},
		{"str + str", must(Arith("+", StringValue("<"), StringValue("<"))), `['<<']`},
		{"Markup * 2", must(Arith("*", markup, IntValue(2))), `[Markup('<b><b>')]`},
		{"Markup[0]", must(markup.Item(IntValue(0))), `[Markup('<')]`},
		{"Markup[1:]", must(SliceValue(markup, 1, 0, 1, true, false)), `[Markup('b>')]`},
		{"last of Markup", must(markup.Last()), `[Markup('>')]`},
		{"first of Markup", must(markup.First()), `['<']`},
		{"first of a list", must(ListValue(markup, IntValue(1)).First()), `[Markup('<b>')]`},
		{"last of a list", must(ListValue(IntValue(1), markup).Last()), `[Markup('<b>')]`},
		{"reverse of Markup", must(Filter("reverse", markup)), `[Markup('>b<')]`},
		{"escape of Markup", must(Filter("escape", markup)), `[Markup('<b>')]`},
		{"escape of str", must(Filter("escape", StringValue("<"))), `[Markup('&lt;')]`},
		{"int", MarkupValue(IntValue(1)), `[1]`},
		{"list (a split() of Markup)", MarkupValue(plain), `[[Markup('a'), 1]]`},
		{"the list it copied", plain, `[['a', 1]]`},
	} {
		if got := repr(c.got); got != c.want {
			t.Errorf("%s = %s, want %s", c.what, got, c.want)
		}
	}
	for _, x := range []Value{IntValue(1), NoneValue(), ListValue(IntValue(1))} {
		if _, err := Arith("+", markup, x); !errors.Is(err, runtime.ErrInvalid) {
			t.Errorf("Markup + %s: err %v, want ErrInvalid", x.String(), err)
		}
	}
	if _, err := Arith("+", markup, Value{}); !errors.Is(err, runtime.ErrUndefined) {
		t.Errorf("Markup + undefined: err %v, want ErrUndefined", err)
	}
	for _, ops := range [][]Value{
		{StringValue("a<"), markup, StringValue("&")},
		{markup, StringValue("a<"), markup},
		{StringValue("<"), StringValue(">"), markup, StringValue("'")},
		{StringValue("<"), StringValue(">")},
	} {
		want := ops[0]
		for _, x := range ops[1:] {
			want = must(Arith("+", want, x))
		}
		var s Sum
		dst := s.Start([]byte("x"), ops[0])
		for _, x := range ops[1:] {
			var err error
			if dst, err = s.Add(dst, x); err != nil {
				t.Fatal(err)
			}
		}
		dst, err := s.End(dst)
		if got := string(dst); err != nil || got != "x"+want.String() {
			t.Errorf("Sum of %s = %q, %v, want %q", repr(ListValue(ops...)), got, err, "x"+want.String())
		}
	}
}

// A groupby group is the namedtuple (grouper, list): its items are also
// the attributes grouper and list, read by x.name and by x['name'] (a
// tuple has no such item, so Jinja2 reads the attribute); its other
// attributes are undefined, its methods are method values (whose printing
// fails) and _fields fails the render.
// Jinja2 3.1 prints a|[{'c': 'a'}, {'c': 'A'}]|a|2|False|a for
// {{ g.grouper }}|{{ g.list }}|{{ g["grouper"] }}|{{ g["list"]|length }}|{{ g.x is defined }}|{{ g[0] }}.
func TestGroupTuple(t *testing.T) {
	must := func(v Value, err error) string {
		if err != nil {
			t.Fatal(err)
		}
		return v.String()
	}
	groups, err := Filter("groupby", jsonValue(t, `[{"c":"a"},{"c":"A"}]`), StringValue("c"), NoneValue(), BoolValue(false))
	if err != nil {
		t.Fatal(err)
	}
	g := groups.list[0]
	list, _ := g.Item(StringValue("list"))
	x, _ := g.Attr("x")
	got := []string{must(g.Attr("grouper")), must(g.Attr("list")), must(g.Item(StringValue("grouper"))),
		must(Filter("length", list)), BoolValue(x.kind != undefinedKind).String(), must(g.Item(IntValue(0)))}
	if s := strings.Join(got, "|"); s != "a|[{'c': 'a'}, {'c': 'A'}]|a|2|False|a" {
		t.Errorf("group read as %s", s)
	}
	if _, err := g.Attr("_fields"); err == nil {
		t.Errorf("group._fields does not fail")
	}
	if m, err := g.Attr("count"); err != nil || m.kind != methodKind {
		t.Errorf("group.count is %v, %v: want the method tuple.count", m, err)
	}
}
