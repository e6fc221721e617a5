package types

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/schema"
)

// FieldKeys lists the keys of struct or dict type t, in order.
func FieldKeys(t *ir.Type) []string {
	keys := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		keys[i] = f.Key
	}
	return keys
}

// Constrain makes t of kind k: an unknown type takes the kind, a known one
// must already have it (numbers mix).
func Constrain(t *ir.Type, k ir.Kind) error {
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
	case t.Kind == ir.KindStruct && t.MaybeEmpty && len(t.Fields) == 0 && k == ir.KindMap:
		// Only {} said it was an object: a map holds {} too.
		t.Kind, t.MaybeEmpty, t.Elem = ir.KindMap, false, &ir.Type{}
	default:
		return fmt.Errorf("type mismatch: %s is used as %s", ir.A(t), ir.A(k))
	}
	return nil
}

// Unify makes a and b one type: what is learnt about one applies to both.
// It returns the mismatches found on the way, for the caller to report
// where a and b meet.
func Unify(a, b *ir.Type) []error {
	var errs []error
	unify(a, b, &errs)
	return errs
}

func unify(a, b *ir.Type, errs *[]error) {
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
		*errs = append(*errs, errors.New("type mismatch: a value cannot contain itself"))
	case b.Kind == ir.KindUnknown && b.NoBool && a.Kind == ir.KindBool:
		// The one type of arithmetic's operands and result (a * b of
		// two unknowns, n * x) beside a bool: Python's arithmetic on
		// bools yields an int, so it is a number of another kind, which
		// stays apart from the bool as numbers of different kinds do.
		b.Kind = ir.KindInt
		if b.Hint == ir.KindFloat {
			b.Kind = ir.KindFloat
		}
	case b.Kind == ir.KindUnknown:
		if a.Kind == ir.KindUnknown {
			a.Hint = strongerHint(a.Hint, b.Hint)
			a.Number = a.Number || b.Number
			a.NoBool = a.NoBool || b.NoBool
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
		if b.Kind == ir.KindList && !b.Declared && b.Elem.Resolve().Kind == ir.KindUnknown && !b.Elem.Resolve().Declared {
			// A list whose items have no type yet (an empty list literal):
			// they become dynamic values too.
			unify(b.Elem, ir.DynamicType(), errs)
		}
		if b.Kind != ir.KindDynamic && (b.Declared || !ConvertsToDynamic(b)) {
			*errs = append(*errs, fmt.Errorf("type mismatch: %s and %s", a, b))
			return
		}
		b.Link = a
	case isEmptyDict(b) && a.Kind == ir.KindMap:
		b.Link = a
	case isEmptyDict(a) && b.Kind == ir.KindMap:
		a.Link = b
	case isEmptyDict(b) && a.Kind == ir.KindStruct:
		emptyObject(a, b, errs)
	case isEmptyDict(a) && b.Kind == ir.KindStruct:
		emptyObject(b, a, errs)
	case a.Kind != b.Kind:
		*errs = append(*errs, fmt.Errorf("type mismatch: %s and %s", a, b))
	case a.Kind == ir.KindList || a.Kind == ir.KindMap:
		unify(a.Elem, b.Elem, errs)
	case a.Kind == ir.KindDict:
		if !slices.Equal(FieldKeys(a), FieldKeys(b)) {
			*errs = append(*errs, fmt.Errorf("type mismatch: dicts with keys %s and %s", keyList(a), keyList(b)))
			return
		}
		for i, f := range b.Fields {
			unify(a.Fields[i].Type, f.Type, errs)
		}
		b.Link = a
	case a.Kind == ir.KindStruct:
		if b.Declared && !a.Declared {
			a, b = b, a
		}
		if b.Declared {
			*errs = append(*errs, errors.New("type mismatch: two different objects"))
			return
		}
		for _, f := range b.Fields {
			if g := a.Field(f.Key); g != nil {
				unify(g.Type, f.Type, errs)
				g.Optional = g.Optional && f.Optional
			} else if a.Declared {
				*errs = append(*errs, fmt.Errorf("object has no field %q%s", f.Key, schema.DidYouMean(f.Key, FieldKeys(a))))
			} else {
				a.Fields = append(a.Fields, f)
			}
		}
		if b.MaybeEmpty {
			emptyObject(a, b, errs)
		}
		b.Link = a
	default:
		b.Link = a
	}
}

// isEmptyDict reports whether t is the type of the literal {}, which can
// be an empty map too, or an object none of whose fields is set.
func isEmptyDict(t *ir.Type) bool { return t.Kind == ir.KindDict && len(t.Fields) == 0 }

// emptyObject makes object t hold the literal {} of type empty: an
// inferred object's fields all become optional, a declared or Go one must
// have only optional fields.
func emptyObject(t, empty *ir.Type, errs *[]error) {
	if err := emptyFits(t); err != nil {
		*errs = append(*errs, err)
		return
	}
	t.MaybeEmpty = true
	for _, f := range t.Fields {
		f.Optional = true
	}
	empty.Link = t
}

// emptyFits reports why the literal {} cannot be a value of object t.
func emptyFits(t *ir.Type) error {
	if !t.Declared && t.Go == nil {
		return nil
	}
	for _, f := range t.Fields {
		if !f.Optional {
			return fmt.Errorf("type mismatch: {} has no value for the required field %q of the object", f.Key)
		}
	}
	return nil
}

// Unifiable reports whether Unify would make a and b one type without an
// error; numbers of different kinds are not (each keeps its own), nor an
// unknown type that only a number can be (ir.Type.Number) and a type that
// is no number, nor one that becomes no bool (ir.Type.NoBool) and a bool.
func Unifiable(a, b *ir.Type) bool {
	a, b = a.Resolve(), b.Resolve()
	if b.Kind == ir.KindUnknown {
		a, b = b, a
	}
	switch {
	case a == b:
		return true
	case a.Kind == ir.KindUnknown:
		return !occurs(a, b) && !(a.Number && !ir.IsNumber(b.Kind) && b.Kind != ir.KindUnknown && b.Kind != ir.KindDynamic) && !(a.NoBool && b.Kind == ir.KindBool)
	case isEmptyDict(a) && b.Kind == ir.KindMap, isEmptyDict(b) && a.Kind == ir.KindMap:
		return true
	case isEmptyDict(a) && b.Kind == ir.KindStruct:
		return emptyFits(b) == nil
	case isEmptyDict(b) && a.Kind == ir.KindStruct:
		return emptyFits(a) == nil
	case a.Kind == ir.KindDynamic && b.Kind == ir.KindDynamic:
		return true
	case a.Kind == ir.KindDynamic:
		return !b.Declared && ConvertsToDynamic(b)
	case b.Kind == ir.KindDynamic:
		return !a.Declared && ConvertsToDynamic(a)
	case a.Kind != b.Kind:
		return false
	case a.Kind == ir.KindList || a.Kind == ir.KindMap:
		return Unifiable(a.Elem, b.Elem)
	case a.Kind == ir.KindDict:
		if !slices.Equal(FieldKeys(a), FieldKeys(b)) {
			return false
		}
		for i, f := range a.Fields {
			if !Unifiable(f.Type, b.Fields[i].Type) {
				return false
			}
		}
	case a.Kind == ir.KindStruct:
		return !a.Declared || !b.Declared // as Unify: an inferred object merges
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

// UnifyWeak relates the operands of a comparison: an unknown side takes
// the other's type; known sides may differ (Jinja2 compares any values).
// It returns Unify's mismatches.
func UnifyWeak(a, b *ir.Type) []error {
	a, b = a.Resolve(), b.Resolve()
	switch {
	case a.Kind == ir.KindUnknown || b.Kind == ir.KindUnknown:
		return Unify(a, b)
	case a.Kind == b.Kind && (a.Kind == ir.KindList || a.Kind == ir.KindMap):
		// The elements of [] take the other list's.
		return UnifyWeak(a.Elem, b.Elem)
	case isEmptyDict(a) && b.Kind == ir.KindMap, isEmptyDict(b) && a.Kind == ir.KindMap:
		return Unify(a, b)
	}
	return nil
}

// strongerHint merges two hints: printing beats arithmetic beats reverse
// (a list) beats testing.
func strongerHint(a, b ir.Kind) ir.Kind {
	rank := func(k ir.Kind) int {
		switch k {
		case ir.KindString:
			return 5
		case ir.KindFloat:
			return 4
		case ir.KindInt:
			return 3
		case ir.KindList:
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
