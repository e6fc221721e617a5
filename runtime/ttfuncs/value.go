package ttfuncs

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/jinja"
)

// undefined is Jinja2's undefined: an out-of-range index, a missing map
// key, a conditional expression without else that is false.
type undefined struct{}

// none is Python's None.
type none struct{}

// value returns v with a pointer to a scalar followed, and whether v is
// defined: nil, undefined and nil pointers are not. A pointer to a struct
// is kept, as it reads like the struct.
func value(v any) (any, bool) {
	switch x := v.(type) {
	case string, int, float64, bool:
		return v, true
	case nil, undefined:
		return nil, false
	case jinja.Value, json.RawMessage:
		d, err := toValue(v)
		return d, err == nil && d.Defined()
	case *string:
		if x == nil {
			return nil, false
		}
		return *x, true
	case *int:
		if x == nil {
			return nil, false
		}
		return *x, true
	case *float64:
		if x == nil {
			return nil, false
		}
		return *x, true
	case *bool:
		if x == nil {
			return nil, false
		}
		return *x, true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return nil, false
		}
		if rv.Elem().Kind() != reflect.Struct {
			return rv.Elem().Interface(), true
		}
	}
	return v, true
}

func isDefined(v any) bool {
	_, ok := value(v)
	return ok
}

// req returns v, or ErrMissing when v is a required variable left unset:
// an empty string or a nil slice or map.
func req(v any, pos, name string) (any, error) {
	switch x := v.(type) {
	case string:
		if x == "" {
			return nil, fail(pos, name, runtime.ErrMissing)
		}
		return v, nil
	}
	rv := reflect.ValueOf(v)
	if (rv.Kind() == reflect.Slice || rv.Kind() == reflect.Map) && rv.IsNil() {
		return nil, fail(pos, name, runtime.ErrMissing)
	}
	return v, nil
}

// missing fails with ErrMissing: a required string was left empty.
func missing(pos, name string) (string, error) {
	return "", fail(pos, name, runtime.ErrMissing)
}

// strict returns the value of v, or ErrUndefined where Jinja2 raises
// UndefinedError.
func strict(v any, pos, name string) (any, error) {
	x, ok := value(v)
	if !ok {
		return nil, fail(pos, name, runtime.ErrUndefined)
	}
	return x, nil
}

// opt makes an unset optional list or map (nil) undefined.
func opt(v any) any {
	rv := reflect.ValueOf(v)
	if (rv.Kind() == reflect.Slice || rv.Kind() == reflect.Map) && rv.IsNil() {
		return undefined{}
	}
	return v
}

// truth is Python's truthiness; undefined is false.
func truth(v any) bool {
	x, ok := value(v)
	if !ok {
		return false
	}
	switch x := x.(type) {
	case string:
		return x != ""
	case int:
		return x != 0
	case float64:
		return x != 0
	case bool:
		return x
	case none:
		return false
	case dict:
		return len(x.keys) > 0
	case jinja.Value:
		return x.Truth()
	}
	rv := reflect.Indirect(reflect.ValueOf(x)) // value keeps struct pointers
	switch rv.Kind() {
	case reflect.Slice, reflect.Map:
		return rv.Len() > 0
	case reflect.Struct:
		return hasKey(rv)
	}
	return true
}

// hasKey reports whether a struct, printed as a dict, has a key.
func hasKey(v reflect.Value) bool {
	for _, f := range structFields(v.Type()) {
		if isKey(v, f) {
			return true
		}
	}
	return false
}

// isKey reports whether field f of struct v is a key of v as a dict: it
// is required, or optional and set, and not a dynamic value that is
// undefined (an optional field unset).
func isKey(v reflect.Value, f field) bool {
	fv := v.Field(f.index)
	if f.optional && fv.IsNil() {
		return false
	}
	return fv.Type() != reflect.TypeFor[jinja.Value]() || fv.Interface().(jinja.Value).Defined()
}

// dflt is the default filter: the value of v when it is defined, else d.
func dflt(v, d any) any {
	if x, ok := value(v); ok {
		return x
	}
	return d
}

// dfltb is default(d, boolean=true): the value of v when it is true.
func dfltb(v, d any) any {
	if truth(v) {
		x, _ := value(v)
		return x
	}
	return d
}

// str is Python's str() as Jinja2 prints values; undefined is "".
func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	}
	x, ok := value(v)
	if !ok {
		return ""
	}
	if s, ok := x.(string); ok {
		return s
	}
	return string(appendStr(nil, x))
}

// checkPrint fails where one of vs is or holds (in a list or dict) a
// dynamic value that is or holds a method (jinja.Value's CheckPrint),
// which str, strkeep, cat and join print otherwise: the translation
// prints dynamic values with dyn "str", which knows the position, and
// this catches the others.
func checkPrint(vs ...any) error {
	for _, v := range vs {
		switch x := v.(type) {
		case jinja.Value:
			if err := x.CheckPrint(); err != nil {
				return err
			}
		case dict:
			if err := checkPrint(x.vals...); err != nil {
				return err
			}
		case []any:
			if err := checkPrint(x...); err != nil {
				return err
			}
		case []jinja.Value:
			for _, y := range x {
				if err := y.CheckPrint(); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// strAt is str of v, a list or dict, failing at pos where it holds a
// method (checkPrint).
func strAt(pos string, v any) (string, error) {
	if err := checkPrint(v); err != nil {
		return "", jinja.At(err, "", pos)
	}
	return str(v), nil
}

// strKeep is str that leaves undefined undefined.
func strKeep(v any) any {
	if !isDefined(v) {
		return undefined{}
	}
	return str(v)
}

// cat is the ~ operator: the str of each operand, concatenated.
func cat(vs ...any) string {
	var b []byte
	for _, v := range vs {
		if x, ok := value(v); ok {
			b = appendStr(b, x)
		}
	}
	return string(b)
}

// appendStr appends str of the defined value x.
func appendStr(dst []byte, x any) []byte {
	switch x := x.(type) {
	case string:
		return append(dst, x...)
	case int:
		return strconv.AppendInt(dst, int64(x), 10)
	case float64:
		return jinja.AppendFloat(dst, x)
	case bool:
		return jinja.AppendBool(dst, x)
	case none:
		return append(dst, "None"...)
	case jinja.Value:
		return x.AppendStr(dst)
	}
	return appendRepr(dst, reflect.ValueOf(x))
}

// appendRepr appends Python's repr of v, as used inside printed lists and
// dicts: strings quoted, maps in key order, structs as dicts in field order
// without unset optional fields, dicts in insertion order.
func appendRepr(dst []byte, v reflect.Value) []byte {
	switch v.Kind() {
	case reflect.Invalid:
		return append(dst, "None"...)
	case reflect.Interface:
		if v.IsNil() {
			return append(dst, "None"...)
		}
		return appendRepr(dst, v.Elem())
	case reflect.Pointer:
		if v.IsNil() {
			return append(dst, "None"...)
		}
		return appendRepr(dst, v.Elem())
	case reflect.String:
		return jinja.AppendQuoted(dst, v.String())
	case reflect.Int, reflect.Int64:
		return strconv.AppendInt(dst, v.Int(), 10)
	case reflect.Float64:
		return jinja.AppendFloat(dst, v.Float())
	case reflect.Bool:
		return jinja.AppendBool(dst, v.Bool())
	case reflect.Slice:
		if raw, ok := v.Interface().(json.RawMessage); ok {
			// A dynamic value of promptgen render's feeds.
			d, _ := toValue(raw)
			return d.AppendRepr(dst)
		}
		dst = append(dst, '[')
		for i := range v.Len() {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = appendRepr(dst, v.Index(i))
		}
		return append(dst, ']')
	case reflect.Map:
		dst = append(dst, '{')
		for i, k := range sortedKeys(v) {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = jinja.AppendQuoted(dst, k)
			dst = append(dst, ": "...)
			dst = appendRepr(dst, v.MapIndex(reflect.ValueOf(k)))
		}
		return append(dst, '}')
	case reflect.Struct:
		switch v.Type() {
		case reflect.TypeFor[none]():
			return append(dst, "None"...)
		case reflect.TypeFor[undefined]():
			// Only an element of a literal printed where it stands.
			return append(dst, "Undefined"...)
		case dictType:
			return appendDictRepr(dst, v.Interface().(dict))
		case reflect.TypeFor[jinja.Value]():
			return v.Interface().(jinja.Value).AppendRepr(dst)
		}
		dst = append(dst, '{')
		sep := ""
		for _, f := range structFields(v.Type()) {
			if !isKey(v, f) {
				continue
			}
			dst = append(dst, sep...)
			dst = jinja.AppendQuoted(dst, f.key)
			dst = append(dst, ": "...)
			dst = appendRepr(dst, v.Field(f.index))
			sep = ", "
		}
		return append(dst, '}')
	}
	return append(dst, v.String()...)
}

// sortedKeys returns the keys of a map with string keys in code point
// order.
func sortedKeys(m reflect.Value) []string {
	keys := make([]string, 0, m.Len())
	for it := m.MapRange(); it.Next(); {
		keys = append(keys, it.Key().String())
	}
	slices.Sort(keys)
	return keys
}

// field describes a struct field: its key in templates and JSON (from the
// json tag, else the Go name) and whether it is optional: a pointer, or a
// slice, map or interface tagged omitempty or omitzero (nil when unset).
type field struct {
	key      string
	index    int
	optional bool
	named    bool // the json tag names the key
}

var fieldCache sync.Map // reflect.Type → []field

// structFields returns the exported fields of struct type t in order that
// are keys of its JSON form, as encoding/json and gen/internal/bind decide
// (of fields sharing a key, the only one whose tag names it).
func structFields(t reflect.Type) []field {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.([]field)
	}
	var fs []field
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		f := field{key: sf.Name, index: i, optional: sf.Type.Kind() == reflect.Pointer}
		if tag, ok := sf.Tag.Lookup("json"); ok {
			name, opts, _ := strings.Cut(tag, ",")
			if tag == "-" {
				continue
			}
			if validKey(name) {
				f.key, f.named = name, true
			}
			if o := strings.Split(opts, ","); slices.Contains(o, "omitempty") || slices.Contains(o, "omitzero") {
				switch sf.Type.Kind() {
				case reflect.Slice, reflect.Map, reflect.Interface:
					f.optional = true
				}
			}
		}
		fs = append(fs, f)
	}
	all := fs
	fs = slices.DeleteFunc(slices.Clone(all), func(f field) bool {
		same, named := 0, 0
		for _, o := range all {
			if o.key == f.key {
				same++
				if o.named {
					named++
				}
			}
		}
		return same > 1 && !(f.named && named == 1)
	})
	fieldCache.Store(t, fs)
	return fs
}

// validKey is encoding/json's isValidTag (gen/internal/ir.ValidJSONKey):
// a json key of letters, digits and punctuation other than quotes and
// backslash; others leave the Go name.
func validKey(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c) && !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			return false
		}
	}
	return true
}

// attr returns the value at path, the dotted path of an attribute=
// argument, in v: a struct or a dict, or a pointer to or interface holding
// one. The path names a struct field by its Go name and a dict's value by
// its key. ok reports whether the value is defined; an unset last field is
// returned as the zero value of its type, pointers removed. unset is the
// key of an object on the way that is undefined, where Jinja2 fails.
func attr(v reflect.Value, path string) (f reflect.Value, ok bool, unset string) {
	for {
		name, rest, nested := strings.Cut(path, ".")
		f, key, ok := member(v, name)
		if !nested {
			return f, ok, ""
		}
		if !ok {
			return reflect.Value{}, false, key
		}
		v, path = f, rest
	}
}

// member returns the member name of v (as in attr), its key in templates
// and whether it is defined. An unset struct field is the zero value of its
// type, pointers removed.
func member(v reflect.Value, name string) (reflect.Value, string, bool) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return reflect.Value{}, name, false
		}
		v = v.Elem()
	}
	if v.Type() == dictType {
		x, _ := v.Interface().(dict).get(name)
		if x, ok := value(x); ok {
			return reflect.ValueOf(x), name, true
		}
		return reflect.Value{}, name, false
	}
	if v.Kind() != reflect.Struct {
		return reflect.Value{}, name, false
	}
	sf, ok := v.Type().FieldByName(name)
	if !ok {
		return reflect.Value{}, name, false
	}
	key, optional := name, false
	for _, fd := range structFields(v.Type()) {
		if fd.index == sf.Index[0] {
			key, optional = fd.key, fd.optional
		}
	}
	f := v.FieldByIndex(sf.Index)
	switch f.Kind() {
	case reflect.Pointer:
		if f.IsNil() {
			return reflect.Zero(sf.Type.Elem()), key, false
		}
		if f.Elem().Kind() != reflect.Struct {
			return f.Elem(), key, true
		}
	case reflect.Slice, reflect.Map:
		if f.IsNil() && optional {
			return f, key, false
		}
	}
	return f, key, true
}

// fieldOf is x.name (a Go field name) of a struct that may be the dict
// literal {} instead (x.get('k', {})), where each field is undefined: nil
// then, which the translation tests as it tests an unset optional field.
func fieldOf(x any, name string) any {
	f, _, ok := member(reflect.ValueOf(x), name)
	if !ok {
		return nil
	}
	return f.Interface()
}

// toJSON is the tojson filter; indent is nil without an indent.
func toJSON(v any, indent any, pos string) (string, error) {
	return writeJSONValue(jinja.NewJSONWriter, v, indent, pos)
}

// toJSONTransformers is the tojson filter of the transformers profile.
func toJSONTransformers(v any, indent any, pos string) (string, error) {
	return writeJSONValue(jinja.NewTransformersJSONWriter, v, indent, pos)
}

// toJSONTransformersASCII is the tojson filter of the transformers profile
// called with ensure_ascii=True.
func toJSONTransformersASCII(v any, indent any, pos string) (string, error) {
	return writeJSONValue(jinja.NewTransformersASCIIJSONWriter, v, indent, pos)
}

func writeJSONValue(writer func(indent int, hasIndent bool) jinja.JSONWriter, v any, indent any, pos string) (string, error) {
	w := writer(0, false)
	if n, ok := indent.(int); ok {
		w = writer(n, true)
	}
	out, err := writeJSON(nil, &w, reflect.ValueOf(v))
	switch {
	case err != nil:
		return "", jinja.At(err, "", pos)
	case w.TooLarge():
		return "", fail(pos, "", runtime.ErrTooLarge)
	}
	return string(out), nil
}

// writeDynamic writes x, a dynamic value (toValue), as tojson does.
func writeDynamic(dst []byte, w *jinja.JSONWriter, x any) ([]byte, error) {
	d, err := toValue(x)
	if err != nil {
		return nil, err
	}
	return w.Value(dst, d)
}

// writeJSON writes v as tojson does; a dynamic value in it that JSON
// cannot hold is Python's error.
func writeJSON(dst []byte, w *jinja.JSONWriter, v reflect.Value) ([]byte, error) {
	var err error
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return w.Null(dst), nil
		}
		return writeJSON(dst, w, v.Elem())
	case reflect.String:
		return w.String(dst, v.String()), nil
	case reflect.Int, reflect.Int64:
		return w.Int(dst, v.Int()), nil
	case reflect.Float64:
		return w.Float(dst, v.Float()), nil
	case reflect.Bool:
		return w.Bool(dst, v.Bool()), nil
	case reflect.Slice:
		if raw, ok := v.Interface().(json.RawMessage); ok {
			return writeDynamic(dst, w, raw) // promptgen render's feeds hold them so
		}
		dst = w.OpenArray(dst)
		for i := range v.Len() {
			if dst, err = writeJSON(dst, w, v.Index(i)); err != nil {
				return nil, err
			}
		}
		return w.CloseArray(dst), nil
	case reflect.Map:
		dst = w.OpenObject(dst)
		for _, k := range sortedKeys(v) {
			dst = w.Key(dst, k)
			if dst, err = writeJSON(dst, w, v.MapIndex(reflect.ValueOf(k))); err != nil {
				return nil, err
			}
		}
		return w.CloseObject(dst), nil
	case reflect.Struct:
		switch v.Type() {
		case reflect.TypeFor[none](), reflect.TypeFor[undefined]():
			return w.Null(dst), nil
		case reflect.TypeFor[jinja.Value]():
			return writeDynamic(dst, w, v.Interface())
		case dictType:
			d := v.Interface().(dict)
			dst = w.OpenObject(dst)
			for _, i := range dictKeyOrder(d, w.SortKeys()) {
				dst = w.Key(dst, d.keys[i])
				if dst, err = writeJSON(dst, w, reflect.ValueOf(d.vals[i])); err != nil {
					return nil, err
				}
			}
			return w.CloseObject(dst), nil
		}
		fs := slices.Clone(structFields(v.Type()))
		slices.SortFunc(fs, func(a, b field) int { return strings.Compare(a.key, b.key) })
		dst = w.OpenObject(dst)
		for _, f := range fs {
			fv := v.Field(f.index)
			if !isKey(v, f) {
				continue
			}
			dst = w.Key(dst, f.key)
			if dst, err = writeJSON(dst, w, fv); err != nil {
				return nil, err
			}
		}
		return w.CloseObject(dst), nil
	}
	return w.Null(dst), nil
}
