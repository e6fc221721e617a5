package check

import (
	"slices"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
)

// loopNeighbour checks loop.previtem or loop.nextitem (name) of loop: the
// item before or after the current one, of the loop variable's type (of
// a loop that unpacks its items, the item's: a list, or a dynamic value
// such as a tuple), and undefined at the ends (a dynamic value's
// undefined, of a loop over one). Its use u hints the loop variable's
// type as the variable's own would. Of a loop over m.values(), they are
// the values of the keys before and after, of one over its items the
// (key, value) tuples, dynamic values (the emitters look the keys up).
func (c *checker) loopNeighbour(loop *ir.For, name string, sp tmpl.Span, u use) ir.Expr {
	var t *ir.Type
	switch it := loop.Iter.Type().Resolve(); {
	case loop.Values:
		t = loop.Value.T
		hint(t, u)
	case loop.Key != nil:
		// The (key, value) tuple, a dynamic value.
		t = ir.DynamicType()
	case loop.Unpack == nil:
		t = loop.Value.T
		hint(t, u)
	case loop.Filter != nil:
		c.errorf(sp, "loop.%s of a loop that unpacks its items and filters them with if is not supported (Jinja2's items are then the tuples of the targets, not the iterable's)", name)
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	case it.Kind == ir.KindList:
		t = it.Elem
	case it.Kind == ir.KindDynamic:
		t = ir.DynamicType()
	default:
		c.errorf(sp, "loop.%s of a loop that unpacks %s is not supported", name, ir.A(it))
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	loop.Index = "i"
	return &ir.LoopAttr{For: loop, Attr: name, T: t}
}

// isLoopCycle reports whether e calls loop.cycle(...) of an enclosing loop.
func (c *checker) isLoopCycle(e *tmpl.Call) bool {
	fn, ok := e.Fn.(*tmpl.Attr)
	if !ok || fn.Name != "cycle" {
		return false
	}
	n, ok := fn.X.(*tmpl.Name)
	return ok && n.Name == "loop" && c.lookup("loop") == nil && c.innerLoop() != nil
}

// loopCycle checks loop.cycle(a, b, ...): positional arguments of one
// type, each defined, as a typed result cannot hold Jinja2's mix; with an
// argument that may be undefined (or that a use after the call made so in
// a previous check), a dynamic value, which holds it.
func (c *checker) loopCycle(e *tmpl.Call) ir.Expr {
	loop := c.innerLoop()
	out := &ir.LoopCycle{For: loop, T: &ir.Type{}}
	switch {
	case len(e.Kwargs) > 0:
		c.errorf(e.Kwargs[0].NameSpan, "loop.cycle() takes no keyword arguments")
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	case len(e.Args) == 0:
		c.errorf(e.Span, "loop.cycle() needs at least one value (Jinja2 raises TypeError)")
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	for _, a := range e.Args {
		out.Args = append(out.Args, c.expr(a, useValue))
	}
	if slices.ContainsFunc(out.Args, ir.MaybeUndefined) || c.keepUndefined[c.posString(e.Span)] {
		out.T = ir.DynamicType()
		for i, x := range out.Args {
			c.dynOperand(x, e.Args[i].Pos())
		}
		loop.Index = "i"
		return out
	}
	for i, x := range out.Args {
		c.unify(out.T, types.Slot(x.Type()), e.Args[i].Pos())
	}
	c.later = append(c.later, func() {
		for i, x := range out.Args {
			sp := e.Args[i].Pos()
			if ir.MaybeUndefined(x) { // only a use after the call made it so
				c.undefinedLate[c.posString(e.Span)] = true
				c.errorf(sp, "a loop.cycle() value that only a use after the call shows may be undefined is not supported once promptgen typed the call (a template set is not checked again): give it a value (| default(...))")
			} else if xk, k := x.Type().Resolve().Kind, out.T.Resolve().Kind; xk != k && ir.IsNumber(xk) && ir.IsNumber(k) {
				// unify made them one number type; Python keeps each.
				c.errorf(sp, "loop.cycle() mixes %s and %s: its values must have one type", ir.A(xk), ir.A(k))
			}
		}
	})
	loop.Index = "i"
	return out
}
