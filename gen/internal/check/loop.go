package check

import (
	"slices"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
)

// loopNeighbour checks loop.previtem or loop.nextitem (name) of loop: the
// item before or after the current one, of the loop variable's type, and
// undefined at the ends (a dynamic value's undefined, of a loop over one).
// Its use u hints the loop variable's type as the variable's own would.
func (c *checker) loopNeighbour(loop *ir.For, name string, sp tmpl.Span, u use) ir.Expr {
	if loop.Value == nil || loop.Key != nil || loop.Unpack != nil {
		c.errorf(sp, "loop.%s of a loop with several targets is not supported", name)
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	loop.Index = "i"
	hint(loop.Value.T, u)
	return &ir.LoopAttr{For: loop, Attr: name, T: loop.Value.T}
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
