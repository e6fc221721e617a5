package ttfuncs

import (
	"encoding/json"
	"errors"
	"reflect"

	"github.com/promptgen/promptgen/runtime/jinja"
)

// toValue converts v to a dynamic value (runtime/jinja.Value): a Value as
// it is, raw JSON decoded (promptgen render's feeds hold dynamic values
// so), undefined and nil pointers as undefined, and the other values of
// a template as Python would hold them: a struct as the dict of its set
// fields in order, a map as the dict of its keys sorted.
func toValue(v any) (jinja.Value, error) {
	switch x := v.(type) {
	case jinja.Value:
		return x, nil
	case json.RawMessage:
		var out jinja.Value
		if len(x) == 0 {
			return out, nil
		}
		err := json.Unmarshal(x, &out)
		return out, err
	case none:
		return jinja.NoneValue(), nil
	case dict:
		out := jinja.DictValue()
		for i, k := range x.keys {
			val, err := toValue(x.vals[i])
			if err != nil {
				return jinja.Value{}, err
			}
			out.Set(k, val)
		}
		return out, nil
	}
	x, ok := value(v)
	if !ok {
		return jinja.Value{}, nil
	}
	switch x := x.(type) {
	case string:
		return jinja.StringValue(x), nil
	case int:
		return jinja.IntValue(x), nil
	case float64:
		return jinja.FloatValue(x), nil
	case bool:
		return jinja.BoolValue(x), nil
	}
	rv := reflect.ValueOf(x)
	if rv.Kind() == reflect.Pointer {
		rv = rv.Elem() // a struct: value follows the others
	}
	switch rv.Kind() {
	case reflect.Slice:
		items := make([]jinja.Value, rv.Len())
		for i := range items {
			item, err := toValue(rv.Index(i).Interface())
			if err != nil {
				return jinja.Value{}, err
			}
			items[i] = item
		}
		return jinja.ListValue(items...), nil
	case reflect.Map:
		keys := sortedKeys(rv)
		vals := make([]jinja.Value, len(keys))
		for i, k := range keys {
			val, err := toValue(rv.MapIndex(reflect.ValueOf(k)).Interface())
			if err != nil {
				return jinja.Value{}, err
			}
			vals[i] = val
		}
		return jinja.DictOf(keys, vals), nil
	case reflect.Struct:
		// The dict of its set fields in order, as its JSON object.
		out := jinja.DictValue()
		for _, f := range structFields(rv.Type()) {
			fv := rv.Field(f.index)
			if f.optional && fv.IsNil() {
				continue
			}
			val, err := toValue(fv.Interface())
			if err != nil {
				return jinja.Value{}, err
			}
			out.Set(f.key, val)
		}
		return out, nil
	}
	return jinja.Value{}, errors.New("ttfuncs: no dynamic value of " + rv.Type().String())
}

// dyn is an operation on dynamic values, as runtime/jinja.Value has it:
// op names it (see gen/internal/ttemit's dynOps), pos is where it stands,
// and args are its name argument, if any, and its operands, converted
// with toValue (a slice's bounds and tojson's indent are ints).
func dyn(op, pos string, args ...any) (any, error) {
	var name string
	switch op {
	case "attr", "equal", "compare", "arith", "contains", "test", "filter", "mapfilter", "asindex", "missing", "generator", "iteratoritem", "method", "iterator":
		name, args = args[0].(string), args[1:]
	}
	vals := make([]jinja.Value, len(args))
	for i, a := range args {
		if op == "method" || op == "slice" && i > 0 || (op == "tojson" || op == "tfjson" || op == "tfjsonascii") && i == 1 || op == "unpack" && i == 1 || op == "unpackitem" && i > 0 {
			continue
		}
		v, err := toValue(a)
		if err != nil {
			return nil, invalid(pos, err.Error())
		}
		vals[i] = v
	}
	out, err := dynOp(op, name, vals, args)
	if err != nil {
		return nil, jinja.At(err, "", pos)
	}
	return out, nil
}

func dynOp(op, name string, v []jinja.Value, args []any) (any, error) {
	switch op {
	case "ornone":
		return v[0].Default(jinja.NoneValue(), false), nil
	case "missing":
		return jinja.Missing(name, v...)
	case "generator":
		return jinja.GeneratorValue(name, v...), nil
	case "method":
		return jinja.DictMethod(name), nil // of its owner, evaluated
	case "iterator":
		return jinja.IteratorValue(name, v[0]), nil
	case "attr":
		return v[0].Attr(name)
	case "item":
		return v[0].Item(v[1])
	case "iteratoritem":
		return jinja.GeneratorValue(name).Item(v[0])
	case "slice":
		lo, hasLo := args[1].(int)
		hi, hasHi := args[2].(int)
		step, ok := args[3].(int)
		if !ok {
			step = 1
		}
		return jinja.SliceValue(v[0], lo, hi, step, hasLo, hasHi)
	case "equal":
		eq, err := jinja.EqualMethods(v[0], v[1])
		return eq == (name == "=="), err
	case "compare":
		return jinja.Compare(name, v[0], v[1])
	case "arith":
		return jinja.Arith(name, v[0], v[1])
	case "neg":
		return jinja.Negate(v[0])
	case "markup":
		if len(v) == 2 {
			return jinja.MarkupItemsOf(v[0], v[1]), nil
		}
		return jinja.MarkupValue(v[0]), nil
	case "contains":
		in, err := jinja.Contains(v[1], v[0])
		return in == (name == "in"), err
	case "test":
		n, negated := cutNot(name)
		if n == "filter" || n == "test" {
			is, err := jinja.IsNameValue(v[0], n)
			return is != negated, err
		}
		return v[0].Test(n) != negated, nil
	case "length":
		return v[0].Len()
	case "str":
		return v[0].Text()
	case "asstring":
		return v[0].AsString()
	case "stroperand":
		return v[0].StrOperand()
	case "asint":
		return v[0].AsInt()
	case "asindex":
		return v[0].AsSliceIndex(name == "end")
	case "default":
		return v[0].Default(v[1], v[2].Truth()), nil
	case "tojson", "tfjson":
		indent, hasIndent := args[1].(int)
		return jinja.ToJSON(v[0], indent, hasIndent, op == "tfjson")
	case "tfjsonascii":
		indent, hasIndent := args[1].(int)
		return jinja.ToTransformersASCIIJSON(v[0], indent, hasIndent)
	case "first":
		return v[0].First()
	case "last":
		return v[0].Last()
	case "join":
		return jinja.JoinValues(v[0], v[1])
	case "list":
		return v[0].ToList()
	case "get":
		return v[0].Get(v[1], v[2])
	case "keys":
		return v[0].Keys()
	case "values":
		return v[0].Values()
	case "itemslist":
		return v[0].ItemsList()
	case "filter":
		return jinja.Filter(name, v[0], v[1:]...)
	case "mapfilter":
		return jinja.MapFilter(name, v[0], v[1:]...)
	case "iter":
		return v[0].Iter()
	case "items":
		return v[0].Items()
	case "dictitems":
		return v[0].DictItems()
	case "unpack":
		return v[0].Unpack(args[1].(int))
	case "unpackitem":
		items, err := v[0].Unpack(args[2].(int))
		if err != nil {
			return nil, err
		}
		return items[args[1].(int)], nil
	case "tuple":
		return jinja.TupleValue(v...), nil
	}
	return nil, errors.New("ttfuncs: unknown dynamic operation " + op)
}

func cutNot(name string) (string, bool) {
	if len(name) > 4 && name[:4] == "not " {
		return name[4:], true
	}
	return name, false
}

// newGen is jinja.NewGen of filter ("unique", "map", or "mapfilter"
// and the filter's name) with dynamic arguments: a generator filter that a
// range pulls item by item with genItems and genNext.
func newGen(filter, name, pos string, args ...any) (*jinja.Gen, error) {
	vals := make([]jinja.Value, len(args))
	for i, a := range args {
		v, err := toValue(a)
		if err != nil {
			return nil, invalid(pos, err.Error())
		}
		vals[i] = v
	}
	return jinja.NewGen(filter, name, vals...), nil
}

// genIter is jinja.GenIterator of src, a generator held as a value whose
// items are made as pulled.
func genIter(typ, pos string, src any, gens ...*jinja.Gen) (any, error) {
	v, err := toValue(src)
	if err != nil {
		return nil, invalid(pos, err.Error())
	}
	return jinja.GenIterator(typ, v, gens...), nil
}

// genItems is g.Items of x: the items the generator filter iterates.
func genItems(g *jinja.Gen, x any, pos string) ([]jinja.Value, error) {
	return onValue(x, pos, g.Items)
}

// genNext is g.Next of item: whether the filter yields an item for it
// (g.Item).
func genNext(g *jinja.Gen, item any, pos string) (bool, error) {
	return onValue(item, pos, g.Next)
}

// onValue is f of x as a dynamic value, failing at pos.
func onValue[T any](x any, pos string, f func(jinja.Value) (T, error)) (T, error) {
	var zero T
	v, err := toValue(x)
	if err != nil {
		return zero, invalid(pos, err.Error())
	}
	out, err := f(v)
	if err != nil {
		return zero, jinja.At(err, "", pos)
	}
	return out, nil
}
