package types

import (
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// Clone copies a declared type, so that what one body infers in an
// `object` of it stays its own.
func Clone(t *ir.Type, seen map[*ir.Type]*ir.Type) *ir.Type {
	t = t.Resolve()
	if c := seen[t]; c != nil {
		return c
	}
	if t.Go != nil {
		return t // a Go type is complete: nothing is inferred in it
	}
	c := &ir.Type{Kind: t.Kind, Declared: t.Declared, MaybeEmpty: t.MaybeEmpty, Hint: t.Hint, Number: t.Number, NoBool: t.NoBool}
	seen[t] = c
	if t.Elem != nil {
		c.Elem = Clone(t.Elem, seen)
	}
	for _, f := range t.Fields {
		g := *f
		g.Type = Clone(f.Type, seen)
		c.Fields = append(c.Fields, &g)
	}
	return c
}

// AddUnknown adds to set the types in t that are still unknown.
func AddUnknown(t *ir.Type, set map[*ir.Type]bool) {
	t = t.Resolve()
	switch t.Kind {
	case ir.KindUnknown:
		set[t] = true
	case ir.KindList, ir.KindMap:
		AddUnknown(t.Elem, set)
	case ir.KindStruct, ir.KindDict:
		for _, f := range t.Fields {
			AddUnknown(f.Type, set)
		}
	}
}

// Finalize gives every still-unknown type its default: an int where only
// a number works (ir.Type.Number) and no float is hinted, else the hinted
// kind, else string.
func Finalize(t *ir.Type) {
	t = t.Resolve()
	switch t.Kind {
	case ir.KindUnknown:
		t.Kind = ir.KindString
		if t.Hint != ir.KindUnknown {
			t.Kind = t.Hint
		}
		if t.Number && t.Kind != ir.KindFloat {
			t.Kind = ir.KindInt
		}
		if t.Kind == ir.KindList {
			t.Elem = &ir.Type{}
			Finalize(t.Elem)
		}
	case ir.KindList, ir.KindMap:
		Finalize(t.Elem)
		if r := t.Elem.Resolve(); r != t.Elem {
			t.Elem = r
		}
	case ir.KindStruct, ir.KindDict:
		for _, f := range t.Fields {
			Finalize(f.Type)
			// A final type is not written again: a bound Go type is shared
			// by the prompts that name it, checked concurrently.
			if r := f.Type.Resolve(); r != f.Type {
				f.Type = r
			}
		}
	}
}

// FinalizeExpr finalizes x's type, and points a member read at the field of
// its object's final type: unifying two inferred objects keeps the fields of
// one, and a read of the other's would name a field no longer there.
func FinalizeExpr(x ir.Expr) {
	Finalize(x.Type())
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
