package ir

// ValidatedElem is the struct type whose Validate a generated Validate
// calls for a field of type t: t itself for an object, its element type
// for a list of objects; nil for any other type and for Go types, which
// have no generated Validate.
func ValidatedElem(t *Type) *Type {
	t = t.Resolve()
	if t.Kind == KindList {
		t = t.Elem.Resolve()
	}
	if t.Kind != KindStruct || t.Go != nil {
		return nil
	}
	return t
}

// Validated returns the struct types whose every value a nil error of
// feed's Validate shows complete, their required strings, lists and maps
// set: those Validate reaches from feed (through ValidatedElem), unless a
// value of them can also come another way, which Validate does not check
// (a map's values, a list of lists, a Go type's field).
func Validated(feed *Type) map[*Type]bool {
	reached, unchecked := map[*Type]bool{}, map[*Type]bool{}
	var visit func(t *Type, checked bool)
	visit = func(t *Type, checked bool) {
		t = t.Resolve()
		switch t.Kind {
		case KindList, KindMap:
			visit(t.Elem, false)
			return
		case KindStruct:
		default:
			return
		}
		seen := reached
		if !checked {
			seen = unchecked
		}
		if seen[t] {
			return
		}
		seen[t] = true
		for _, f := range t.Fields {
			if e := ValidatedElem(f.Type); e != nil && checked && t.Go == nil && !f.Chat {
				visit(e, true)
			} else {
				visit(f.Type, false)
			}
		}
	}
	visit(feed, true)
	for t := range unchecked {
		delete(reached, t)
	}
	return reached
}
