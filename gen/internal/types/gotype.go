package types

import (
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// UnreadableIn returns a bound type in t with an unreadable field, and
// that field.
func UnreadableIn(t *ir.Type, seen []*ir.Type) (*ir.Type, *ir.UnreadableField) {
	t = t.Resolve()
	switch t.Kind {
	case ir.KindList, ir.KindMap:
		return UnreadableIn(t.Elem, seen)
	case ir.KindStruct, ir.KindDict:
		for _, s := range seen {
			if s == t {
				return nil, nil
			}
		}
		if t.Go != nil && len(t.Go.Unreadable) > 0 {
			return t, t.Go.Unreadable[0]
		}
		for _, f := range t.Fields {
			if s, u := UnreadableIn(f.Type, append(seen, t)); u != nil {
				return s, u
			}
		}
	}
	return nil, nil
}

// UnreadableKey reports whether key is a field of bound Go type t that
// promptgen cannot read: still one of the value's keys.
func UnreadableKey(t *ir.Type, key string) bool {
	if t.Go == nil {
		return false
	}
	for _, u := range t.Go.Unreadable {
		if u.Key == key {
			return true
		}
	}
	return false
}

// KeyedIn returns the object or map type in t, if any.
func KeyedIn(t *ir.Type) *ir.Type {
	switch t = t.Resolve(); t.Kind {
	case ir.KindStruct, ir.KindMap:
		return t
	case ir.KindList:
		return KeyedIn(t.Elem)
	case ir.KindDict:
		for _, f := range t.Fields {
			if k := KeyedIn(f.Type); k != nil {
				return k
			}
		}
	}
	return nil
}

// FromFeed reports whether t, once final, is not an object, or is one
// that feed holds: only those have a Go type.
func FromFeed(feed, t *ir.Type) bool {
	if t = t.Resolve(); t.Kind != ir.KindStruct {
		return true
	}
	seen := map[*ir.Type]bool{}
	var walk func(*ir.Type) bool
	walk = func(u *ir.Type) bool {
		u = u.Resolve()
		if u == t {
			return true
		}
		if seen[u] {
			return false
		}
		seen[u] = true
		if u.Elem != nil && walk(u.Elem) {
			return true
		}
		for _, f := range u.Fields {
			if walk(f.Type) {
				return true
			}
		}
		return false
	}
	return walk(feed)
}

// BoundField returns the field name of struct type t, or nil. Of a type
// bound to a Go struct, it returns instead the field that promptgen cannot
// read as u; a key from a json tag matches exactly, and the Go name of an
// untagged field (whose key is its Go name) also as goName, name
// Go-cased.
func BoundField(t *ir.Type, name, goName string) (f *ir.Field, u *ir.UnreadableField) {
	if f := t.Field(name); f != nil || t.Go == nil {
		return f, nil
	}
	for _, exact := range []bool{true, false} {
		match := func(key, fieldName string) bool {
			return exact && key == name || !exact && key == fieldName && fieldName == goName
		}
		for _, f := range t.Fields {
			if match(f.Key, f.GoName) {
				return f, nil
			}
		}
		for _, u := range t.Go.Unreadable {
			if match(u.Key, u.GoName) {
				return nil, u
			}
		}
	}
	return nil, nil
}
