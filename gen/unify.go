package gen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/schema"
)

// constrain makes t of kind k: an unknown type takes the kind, a known one
// must already have it (numbers mix).
func (c *checker) constrain(t *Type, k Kind, sp tmpl.Span) {
	t = t.resolve()
	switch {
	case t.Kind == k:
	case t.Kind == KindUnknown:
		t.Kind = k
		if k == KindList || k == KindMap {
			t.Elem = &Type{}
		}
	case t.Kind == KindInt && k == KindFloat && !t.Declared:
		t.Kind = KindFloat
	case isNumber(t.Kind) && isNumber(k):
	default:
		c.errorf(sp, "type mismatch: a %s is used as a %s", t, k)
	}
}

// unify makes a and b one type: what is learnt about one applies to both.
func (c *checker) unify(a, b *Type, sp tmpl.Span) {
	a, b = a.resolve(), b.resolve()
	if a == b {
		return
	}
	if a.Kind == KindUnknown && !(b.Kind == KindUnknown && b.Declared) {
		a, b = b, a
	}
	// Now a is known, or both are unknown: link b into a.
	switch {
	case b.Kind == KindUnknown && occurs(b, a):
		c.errorf(sp, "type mismatch: a value cannot contain itself")
	case b.Kind == KindUnknown:
		if a.Kind == KindUnknown {
			a.hint = strongerHint(a.hint, b.hint)
		}
		b.link = a
	case a.Kind == KindInt && b.Kind == KindFloat && !a.Declared:
		a.Kind = KindFloat
		b.link = a
	case b.Kind == KindInt && a.Kind == KindFloat && !b.Declared:
		b.link = a
	case isNumber(a.Kind) && isNumber(b.Kind):
	case isEmptyDict(b) && a.Kind == KindMap:
		b.link = a
	case isEmptyDict(a) && b.Kind == KindMap:
		a.link = b
	case a.Kind != b.Kind:
		c.errorf(sp, "type mismatch: %s and %s", a, b)
	case a.Kind == KindList || a.Kind == KindMap:
		c.unify(a.Elem, b.Elem, sp)
	case a.Kind == KindDict:
		if !slices.Equal(fieldKeys(a), fieldKeys(b)) {
			c.errorf(sp, "type mismatch: dicts with keys %s and %s", keyList(a), keyList(b))
			return
		}
		for i, f := range b.Fields {
			c.unify(a.Fields[i].Type, f.Type, sp)
		}
		b.link = a
	case a.Kind == KindStruct:
		if b.Declared && !a.Declared {
			a, b = b, a
		}
		if b.Declared {
			c.errorf(sp, "type mismatch: two different objects")
			return
		}
		for _, f := range b.Fields {
			if g := a.field(f.Key); g != nil {
				c.unify(g.Type, f.Type, sp)
				g.Optional = g.Optional && f.Optional
			} else if a.Declared {
				c.errorf(sp, "object has no field %q%s", f.Key, schema.DidYouMean(f.Key, fieldKeys(a)))
			} else {
				a.Fields = append(a.Fields, f)
			}
		}
		b.link = a
	default:
		b.link = a
	}
}

// isEmptyDict reports whether t is the type of the literal {}, which can
// be an empty map too.
func isEmptyDict(t *Type) bool { return t.Kind == KindDict && len(t.Fields) == 0 }

// unifiable reports whether unify would make a and b one type without an
// error; numbers of different kinds are not (each keeps its own).
func unifiable(a, b *Type) bool {
	a, b = a.resolve(), b.resolve()
	switch {
	case a == b:
		return true
	case a.Kind == KindUnknown:
		return !occurs(a, b)
	case b.Kind == KindUnknown:
		return !occurs(b, a)
	case isEmptyDict(a) && b.Kind == KindMap, isEmptyDict(b) && a.Kind == KindMap:
		return true
	case a.Kind != b.Kind:
		return false
	case a.Kind == KindList || a.Kind == KindMap:
		return unifiable(a.Elem, b.Elem)
	case a.Kind == KindDict:
		if !slices.Equal(fieldKeys(a), fieldKeys(b)) {
			return false
		}
		for i, f := range a.Fields {
			if !unifiable(f.Type, b.Fields[i].Type) {
				return false
			}
		}
	case a.Kind == KindStruct:
		return !a.Declared || !b.Declared // as unify: an inferred object merges
	}
	return true
}

// occurs reports whether u is t or occurs inside it; linking u into such
// a t would make a type that contains itself (y.a == y).
func occurs(u, t *Type) bool {
	t = t.resolve()
	if t == u {
		return true
	}
	switch t.Kind {
	case KindList, KindMap:
		return occurs(u, t.Elem)
	case KindStruct, KindDict:
		for _, f := range t.Fields {
			if occurs(u, f.Type) {
				return true
			}
		}
	}
	return false
}

// unifyWeak relates the operands of a comparison: an unknown side takes
// the other's type; known sides may differ (Jinja2 compares any values).
func (c *checker) unifyWeak(a, b *Type, sp tmpl.Span) {
	a, b = a.resolve(), b.resolve()
	switch {
	case a.Kind == KindUnknown || b.Kind == KindUnknown:
		c.unify(a, b, sp)
	case a.Kind == b.Kind && (a.Kind == KindList || a.Kind == KindMap):
		// The elements of [] take the other list's.
		c.unifyWeak(a.Elem, b.Elem, sp)
	case isEmptyDict(a) && b.Kind == KindMap, isEmptyDict(b) && a.Kind == KindMap:
		c.unify(a, b, sp)
	}
}

// finalize gives every still-unknown type its default: the hinted kind,
// else string.
func finalize(t *Type) {
	t = t.resolve()
	switch t.Kind {
	case KindUnknown:
		t.Kind = KindString
		if t.hint != KindUnknown {
			t.Kind = t.hint
		}
	case KindList, KindMap:
		finalize(t.Elem)
		t.Elem = t.Elem.resolve()
	case KindStruct, KindDict:
		for _, f := range t.Fields {
			finalize(f.Type)
			f.Type = f.Type.resolve()
		}
	}
}

// strongerHint merges two hints: printing beats arithmetic beats testing.
func strongerHint(a, b Kind) Kind {
	rank := func(k Kind) int {
		switch k {
		case KindString:
			return 4
		case KindFloat:
			return 3
		case KindInt:
			return 2
		case KindBool:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// keyList shows a dict type's keys in messages: {"a", "b"}.
func keyList(t *Type) string {
	keys := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		keys[i] = fmt.Sprintf("%q", f.Key)
	}
	return "{" + strings.Join(keys, ", ") + "}"
}
