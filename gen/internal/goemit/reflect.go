package goemit

import (
	"encoding/json"
	"reflect"

	"github.com/promptgen/promptgen/gen/internal/ir"
)

// ReflectType is the Go type that the generated code declares for t, built
// with reflect: the same fields, json tags and pointers, so that JSON
// decodes into it as into the generated struct. promptgen render feeds its
// text/template preview with it, without compiling anything.
func ReflectType(t *ir.Type) reflect.Type {
	switch t = t.Resolve(); t.Kind {
	case ir.KindString:
		return reflect.TypeFor[string]()
	case ir.KindInt:
		return reflect.TypeFor[int]()
	case ir.KindFloat:
		return reflect.TypeFor[float64]()
	case ir.KindBool:
		return reflect.TypeFor[bool]()
	case ir.KindList:
		return reflect.SliceOf(ReflectType(t.Elem))
	case ir.KindMap:
		return reflect.MapOf(reflect.TypeFor[string](), ReflectType(t.Elem))
	case ir.KindStruct:
		fields := make([]reflect.StructField, len(t.Fields))
		for i, f := range t.Fields {
			ft := ReflectType(f.Type)
			tag := f.Key
			if f.Optional {
				tag += ",omitempty"
				if ir.IsPointerKind(f.Type) {
					ft = reflect.PointerTo(ft)
				}
			}
			fields[i] = reflect.StructField{Name: f.GoName, Type: ft, Tag: reflect.StructTag(`json:"` + tag + `"`)}
		}
		return reflect.StructOf(append(fields, unreadableFields(t)...))
	case ir.KindDynamic:
		// Kept as JSON: runtime/ttfuncs reads it as a runtime/jinja.Value,
		// keys in order (gen names no runtime type).
		return reflect.TypeFor[json.RawMessage]()
	}
	return reflect.TypeFor[any]()
}

// unreadableFields are the fields of a bound Go type t that promptgen
// cannot read, as fields of the preview's feed: JSON may hold them (as any),
// and they count among the value's keys, as in the Go type.
func unreadableFields(t *ir.Type) []reflect.StructField {
	if t.Go == nil {
		return nil
	}
	var fields []reflect.StructField
	for _, u := range t.Go.Unreadable {
		tag := u.Key
		if u.Optional {
			tag += ",omitempty"
		}
		fields = append(fields, reflect.StructField{Name: u.GoName, Type: reflect.TypeFor[any](), Tag: reflect.StructTag(`json:"` + tag + `"`)})
	}
	return fields
}
