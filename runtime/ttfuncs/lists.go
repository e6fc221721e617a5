package ttfuncs

import (
	"reflect"

	"github.com/promptgen/promptgen/runtime/jinja"
)

// Python's list methods that modify a list, on the slice or list value
// (jinja.Value) of a local (listappend, ...): each returns the local's new
// list, made as runtime/jinja's list functions make it, which never write
// an item that another slice may hold.

// listItem is v as an item of a slice of items t, as the list literal
// functions (strs, ints, list, ...) make it.
func listItem(t reflect.Type, v any) reflect.Value {
	if t.Kind() == reflect.Interface {
		out := reflect.New(t).Elem()
		if e := element(v); e != nil {
			out.Set(reflect.ValueOf(e))
		}
		return out
	}
	return reflect.ValueOf(v).Convert(t)
}

func listAppend(xs, v any) (any, error) {
	if d, ok := xs.(jinja.Value); ok {
		item, err := toValue(v)
		return d.Appended(item), err
	}
	l := reflect.ValueOf(xs)
	return reflect.Append(l, listItem(l.Type().Elem(), v)).Interface(), nil
}

func listExtend(xs, ys any, pos string) (any, error) {
	if d, ok := xs.(jinja.Value); ok {
		items, err := toValue(ys)
		if err != nil {
			return nil, err
		}
		out, err := d.Extended(items)
		return out, at(err, pos)
	}
	l, m := reflect.ValueOf(xs), reflect.ValueOf(ys)
	for i := range m.Len() {
		l = reflect.Append(l, listItem(l.Type().Elem(), m.Index(i).Interface()))
	}
	return l.Interface(), nil
}

// listInsert is jinja.ListInsert of any slice.
func listInsert(xs, i, v any) (any, error) {
	if d, ok := xs.(jinja.Value); ok {
		item, err := toValue(v)
		return d.Inserted(asInt(i), item), err
	}
	l := reflect.ValueOf(xs)
	n, at := l.Len(), asInt(i)
	if at < 0 {
		at = max(at+n, 0)
	}
	at = min(at, n)
	out := reflect.MakeSlice(l.Type(), 0, n+1)
	out = reflect.AppendSlice(out, l.Slice(0, at))
	out = reflect.Append(out, listItem(l.Type().Elem(), v))
	return reflect.AppendSlice(out, l.Slice(at, n)).Interface(), nil
}

// listPop is jinja.ListPop of any slice: the item and the list left, in a
// list of two.
func listPop(xs, i any, pos string) ([]any, error) {
	if d, ok := xs.(jinja.Value); ok {
		v, err := d.Pop(asInt(i))
		return []any{v, d}, at(err, pos)
	}
	l := reflect.ValueOf(xs)
	items := make([]any, l.Len())
	for j := range items {
		items[j] = l.Index(j).Interface()
	}
	v, err := jinja.ListPop(&items, asInt(i))
	if err != nil {
		return nil, at(err, pos)
	}
	rest := reflect.MakeSlice(l.Type(), len(items), len(items))
	for j, it := range items {
		rest.Index(j).Set(listItem(l.Type().Elem(), it))
	}
	return []any{v, rest.Interface()}, nil
}

func listClear(xs any) any {
	if d, ok := xs.(jinja.Value); ok {
		return d.Cleared()
	}
	l := reflect.ValueOf(xs)
	return reflect.MakeSlice(l.Type(), 0, 0).Interface()
}

// listShare boxes list xs for the locals that share it (ir.Local.Shared):
// a template variable holds the box, which a set of one to another copies,
// and reads the list as .V.
func listShare(xs any) map[string]any { return map[string]any{"V": xs} }

// listSet puts list xs, changed, in box.
func listSet(box map[string]any, xs any) string {
	box["V"] = xs
	return ""
}
