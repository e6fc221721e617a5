package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/schema"
)

// constrain makes t of kind k: an unknown type takes the kind, a known one
// must already have it (numbers mix).
func (c *checker) constrain(t *ir.Type, k ir.Kind, sp tmpl.Span) {
	t = t.Resolve()
	switch {
	case t.Kind == k:
	case t.Kind == ir.KindUnknown:
		t.Kind = k
		if k == ir.KindList || k == ir.KindMap {
			t.Elem = &ir.Type{}
		}
	case t.Kind == ir.KindInt && k == ir.KindFloat && !t.Declared:
		t.Kind = ir.KindFloat
	case ir.IsNumber(t.Kind) && ir.IsNumber(k):
	default:
		c.errorf(sp, "type mismatch: a %s is used as a %s", t, k)
	}
}

// unify makes a and b one type: what is learnt about one applies to both.
func (c *checker) unify(a, b *ir.Type, sp tmpl.Span) {
	a, b = a.Resolve(), b.Resolve()
	if a == b {
		return
	}
	if a.Kind == ir.KindUnknown && !(b.Kind == ir.KindUnknown && b.Declared) {
		a, b = b, a
	}
	// Now a is known, or both are unknown: link b into a.
	switch {
	case b.Kind == ir.KindUnknown && occurs(b, a):
		c.errorf(sp, "type mismatch: a value cannot contain itself")
	case b.Kind == ir.KindUnknown:
		if a.Kind == ir.KindUnknown {
			a.Hint = strongerHint(a.Hint, b.Hint)
		}
		b.Link = a
	case a.Kind == ir.KindInt && b.Kind == ir.KindFloat && !a.Declared:
		a.Kind = ir.KindFloat
		b.Link = a
	case b.Kind == ir.KindInt && a.Kind == ir.KindFloat && !b.Declared:
		b.Link = a
	case ir.IsNumber(a.Kind) && ir.IsNumber(b.Kind):
	case a.Kind == ir.KindDynamic || b.Kind == ir.KindDynamic:
		// A dynamic value holds a value of any other type the backends
		// convert: the other becomes dynamic.
		if b.Kind == ir.KindDynamic {
			a, b = b, a
		}
		if b.Kind != ir.KindDynamic && (b.Declared || !convertsToDynamic(b)) {
			c.errorf(sp, "type mismatch: %s and %s", a, b)
			return
		}
		b.Link = a
	case isEmptyDict(b) && a.Kind == ir.KindMap:
		b.Link = a
	case isEmptyDict(a) && b.Kind == ir.KindMap:
		a.Link = b
	case a.Kind != b.Kind:
		c.errorf(sp, "type mismatch: %s and %s", a, b)
	case a.Kind == ir.KindList || a.Kind == ir.KindMap:
		c.unify(a.Elem, b.Elem, sp)
	case a.Kind == ir.KindDict:
		if !slices.Equal(fieldKeys(a), fieldKeys(b)) {
			c.errorf(sp, "type mismatch: dicts with keys %s and %s", keyList(a), keyList(b))
			return
		}
		for i, f := range b.Fields {
			c.unify(a.Fields[i].Type, f.Type, sp)
		}
		b.Link = a
	case a.Kind == ir.KindStruct:
		if b.Declared && !a.Declared {
			a, b = b, a
		}
		if b.Declared {
			c.errorf(sp, "type mismatch: two different objects")
			return
		}
		for _, f := range b.Fields {
			if g := a.Field(f.Key); g != nil {
				c.unify(g.Type, f.Type, sp)
				g.Optional = g.Optional && f.Optional
			} else if a.Declared {
				c.errorf(sp, "object has no field %q%s", f.Key, schema.DidYouMean(f.Key, fieldKeys(a)))
			} else {
				a.Fields = append(a.Fields, f)
			}
		}
		b.Link = a
	default:
		b.Link = a
	}
}

// isEmptyDict reports whether t is the type of the literal {}, which can
// be an empty map too.
func isEmptyDict(t *ir.Type) bool { return t.Kind == ir.KindDict && len(t.Fields) == 0 }

// unifiable reports whether unify would make a and b one type without an
// error; numbers of different kinds are not (each keeps its own).
func unifiable(a, b *ir.Type) bool {
	a, b = a.Resolve(), b.Resolve()
	switch {
	case a == b:
		return true
	case a.Kind == ir.KindUnknown:
		return !occurs(a, b)
	case b.Kind == ir.KindUnknown:
		return !occurs(b, a)
	case isEmptyDict(a) && b.Kind == ir.KindMap, isEmptyDict(b) && a.Kind == ir.KindMap:
		return true
	case a.Kind == ir.KindDynamic && b.Kind == ir.KindDynamic:
		return true
	case a.Kind == ir.KindDynamic:
		return !b.Declared && convertsToDynamic(b)
	case b.Kind == ir.KindDynamic:
		return !a.Declared && convertsToDynamic(a)
	case a.Kind != b.Kind:
		return false
	case a.Kind == ir.KindList || a.Kind == ir.KindMap:
		return unifiable(a.Elem, b.Elem)
	case a.Kind == ir.KindDict:
		if !slices.Equal(fieldKeys(a), fieldKeys(b)) {
			return false
		}
		for i, f := range a.Fields {
			if !unifiable(f.Type, b.Fields[i].Type) {
				return false
			}
		}
	case a.Kind == ir.KindStruct:
		return !a.Declared || !b.Declared // as unify: an inferred object merges
	}
	return true
}

// occurs reports whether u is t or occurs inside it; linking u into such
// a t would make a type that contains itself (y.a == y).
func occurs(u, t *ir.Type) bool {
	t = t.Resolve()
	if t == u {
		return true
	}
	switch t.Kind {
	case ir.KindList, ir.KindMap:
		return occurs(u, t.Elem)
	case ir.KindStruct, ir.KindDict:
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
func (c *checker) unifyWeak(a, b *ir.Type, sp tmpl.Span) {
	a, b = a.Resolve(), b.Resolve()
	switch {
	case a.Kind == ir.KindUnknown || b.Kind == ir.KindUnknown:
		c.unify(a, b, sp)
	case a.Kind == b.Kind && (a.Kind == ir.KindList || a.Kind == ir.KindMap):
		// The elements of [] take the other list's.
		c.unifyWeak(a.Elem, b.Elem, sp)
	case isEmptyDict(a) && b.Kind == ir.KindMap, isEmptyDict(b) && a.Kind == ir.KindMap:
		c.unify(a, b, sp)
	}
}

// finalize gives every still-unknown type its default: the hinted kind,
// else string.
func finalize(t *ir.Type) {
	t = t.Resolve()
	switch t.Kind {
	case ir.KindUnknown:
		t.Kind = ir.KindString
		if t.Hint != ir.KindUnknown {
			t.Kind = t.Hint
		}
	case ir.KindList, ir.KindMap:
		finalize(t.Elem)
		t.Elem = t.Elem.Resolve()
	case ir.KindStruct, ir.KindDict:
		for _, f := range t.Fields {
			finalize(f.Type)
			f.Type = f.Type.Resolve()
		}
	}
}

// finalizeExpr finalizes x's type, and points a member read at the field of
// its object's final type: unifying two inferred objects keeps the fields of
// one, and a read of the other's would name a field no longer there.
func finalizeExpr(x ir.Expr) {
	finalize(x.Type())
	switch x := x.(type) {
	case *ir.FieldRef:
		if x.Of != nil {
			x.Field = finalField(x.Of.Type(), x.Field)
		}
	case *ir.DictValue:
		x.Field = finalField(x.Of.Type(), x.Field)
	}
}

// finalField is the field of parent with f's key.
func finalField(parent *ir.Type, f *ir.Field) *ir.Field {
	if g := parent.Resolve().Field(f.Key); g != nil {
		return g
	}
	return f
}

// strongerHint merges two hints: printing beats arithmetic beats testing.
func strongerHint(a, b ir.Kind) ir.Kind {
	rank := func(k ir.Kind) int {
		switch k {
		case ir.KindString:
			return 4
		case ir.KindFloat:
			return 3
		case ir.KindInt:
			return 2
		case ir.KindBool:
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
func keyList(t *ir.Type) string {
	keys := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		keys[i] = fmt.Sprintf("%q", f.Key)
	}
	return "{" + strings.Join(keys, ", ") + "}"
}
