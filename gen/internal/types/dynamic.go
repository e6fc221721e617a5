package types

import (
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// Rebinds reports whether a local of type lt set to a value of type vt
// holds values of two types, which only a dynamic value can: numbers of
// different kinds (widening would print the other sets' values in this
// kind), kinds that do not unify, or none and a type not known yet.
func Rebinds(lt, vt *ir.Type) bool {
	if (lt.Kind == ir.KindNone) != (vt.Kind == ir.KindNone) && (lt.Kind == ir.KindUnknown || vt.Kind == ir.KindUnknown) {
		return true // unified, the unknown would be none
	}
	if lt.Kind == ir.KindUnknown || vt.Kind == ir.KindUnknown || lt.Kind == ir.KindDynamic || vt.Kind == ir.KindDynamic {
		return false
	}
	if lt.Kind != vt.Kind && ir.IsNumber(lt.Kind) && ir.IsNumber(vt.Kind) {
		return true
	}
	return !Unifiable(lt, vt) && ConvertsToDynamic(lt) && ConvertsToDynamic(vt)
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

// ConvertsToDynamic reports whether the backends convert a value of type
// t to a dynamic value.
func ConvertsToDynamic(t *ir.Type) bool {
	switch t = t.Resolve(); t.Kind {
	case ir.KindString, ir.KindInt, ir.KindFloat, ir.KindBool, ir.KindNone, ir.KindDynamic:
		return true
	case ir.KindList:
		return ConvertsToDynamic(t.Elem)
	case ir.KindDict:
		for _, f := range t.Fields {
			if !ConvertsToDynamic(f.Type) {
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
