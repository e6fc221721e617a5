package types

import (
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// Rebinds reports whether a local of type lt set to a value of type vt
// holds values of two types, which only a dynamic value can: numbers of
// different kinds (widening would print the other sets' values in this
// kind), kinds that do not unify, none and a type not known yet, or a bool
// and the type of arithmetic not known yet (ir.Type.NoBool).
func Rebinds(lt, vt *ir.Type) bool {
	if (lt.Kind == ir.KindNone) != (vt.Kind == ir.KindNone) && (lt.Kind == ir.KindUnknown || vt.Kind == ir.KindUnknown) {
		return true // unified, the unknown would be none
	}
	if BoolBesideArith(lt, vt) {
		return true
	}
	if lt.Kind == ir.KindUnknown || vt.Kind == ir.KindUnknown || lt.Kind == ir.KindDynamic || vt.Kind == ir.KindDynamic {
		return false
	}
	if lt.Kind != vt.Kind && ir.IsNumber(lt.Kind) && ir.IsNumber(vt.Kind) {
		return true
	}
	return !Unifiable(lt, vt) && ConvertsToDynamic(lt) && ConvertsToDynamic(vt)
}

// BoolBesideArith reports whether one of a and b is a bool and the other
// the type of arithmetic not known yet (ir.Type.NoBool), which Unify
// makes an int beside the bool: numbers of different kinds.
func BoolBesideArith(a, b *ir.Type) bool {
	a, b = a.Resolve(), b.Resolve()
	arith := func(t *ir.Type) bool { return t.Kind == ir.KindUnknown && t.NoBool }
	return arith(a) && b.Kind == ir.KindBool || arith(b) && a.Kind == ir.KindBool
}

// NumbersDiffer reports whether a and b hold numbers of different kinds
// at the same place (a list of int and a list of bool), which Unify
// relates but no one Go type holds.
func NumbersDiffer(a, b *ir.Type) bool {
	a, b = a.Resolve(), b.Resolve()
	switch {
	case ir.IsNumber(a.Kind) && ir.IsNumber(b.Kind):
		return a.Kind != b.Kind
	case a.Kind == b.Kind && (a.Kind == ir.KindList || a.Kind == ir.KindMap):
		return NumbersDiffer(a.Elem, b.Elem)
	}
	return false
}

// HoldsDynamic reports whether t is dynamic or a list or dict literal
// holding dynamic values (the chat context's messages): comparing one, and
// its JSON, are dynamic operations.
func HoldsDynamic(t *ir.Type) bool {
	switch t = t.Resolve(); t.Kind {
	case ir.KindDynamic:
		return true
	case ir.KindList:
		return HoldsDynamic(t.Elem)
	case ir.KindDict:
		for _, f := range t.Fields {
			if HoldsDynamic(f.Type) {
				return true
			}
		}
	}
	return false
}

// ConvertsToDynamic reports whether a value of type t can be stored as a
// dynamic value: a local, list or dict that holds values of several types.
func ConvertsToDynamic(t *ir.Type) bool { return converts(t, false) }

// OperandConverts reports whether the backends convert a value of type t
// to a dynamic value as the operand of a dynamic operation (a filter
// runtime/jinja computes, such as groupby of a list of objects): as
// ConvertsToDynamic, and also an object, the dict of its set fields in
// declaration order, and a map, the dict of its keys in sorted order, as
// Jinja2 holds the feed's JSON objects.
func OperandConverts(t *ir.Type) bool { return converts(t, true) }

// InferredObjectIn reports whether t holds an object whose fields are
// inferred from the template's reads (not declared in inputs nor bound to
// a Go type).
func InferredObjectIn(t *ir.Type) bool {
	switch t = t.Resolve(); t.Kind {
	case ir.KindList, ir.KindMap:
		return InferredObjectIn(t.Elem)
	case ir.KindStruct, ir.KindDict:
		if t.Kind == ir.KindStruct && !t.Declared && t.Go == nil {
			return true
		}
		for _, f := range t.Fields {
			if InferredObjectIn(f.Type) {
				return true
			}
		}
	}
	return false
}

func converts(t *ir.Type, objects bool) bool {
	switch t = t.Resolve(); t.Kind {
	case ir.KindString, ir.KindInt, ir.KindFloat, ir.KindBool, ir.KindNone, ir.KindDynamic:
		return true
	case ir.KindList:
		return converts(t.Elem, objects)
	case ir.KindMap:
		return objects && converts(t.Elem, objects)
	case ir.KindDict, ir.KindStruct:
		if t.Kind == ir.KindStruct && !objects {
			return false
		}
		for _, f := range t.Fields {
			if !converts(f.Type, objects) {
				return false
			}
		}
		return true
	}
	return false
}

// Slot is the type for storing a value of type t in a list (or dict)
// literal or a local: a copy of a known scalar type, so that widening the
// slot to number for another element leaves the value's own type alone,
// and of a list (its items' type shared), so that a slot made dynamic
// leaves the value, which the backends convert, a list.
func Slot(t *ir.Type) *ir.Type {
	switch t = t.Resolve(); {
	case ir.IsScalar(t.Kind) || t.Kind == ir.KindNone:
		return &ir.Type{Kind: t.Kind}
	case t.Kind == ir.KindList:
		return &ir.Type{Kind: t.Kind, Elem: t.Elem, Declared: t.Declared}
	}
	return t
}
