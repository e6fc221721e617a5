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
