package goemit

import (
	"github.com/dave/jennifer/jen"

	"github.com/promptgen/promptgen/gen/internal/ir"
)

// selectItems is select, reject, selectattr or rejectattr: a loop that
// keeps the items whose condition holds (fails, for reject). An undefined
// list has no items, as Jinja2 iterates it.
func (e *emitter) selectItems(x *ir.Select) gval {
	t := x.X.Type()
	v := e.defined(e.expr(x.X), t)
	kept, item := e.temp("kept"), e.temp("x")
	c := e.truthOf(x.Cond)
	keep := c.val
	if x.Reject {
		keep = jen.Op("!").Parens(c.val)
	}
	body := append(bindTarget(x.Item, jen.Id(item)), c.pre...)
	body = append(body, jen.If(keep).Block(jen.Id(kept).Op("=").Append(jen.Id(kept), jen.Id(item))))
	pre := v.pre
	for _, a := range x.Args {
		av := e.expr(a)
		pre = append(append(pre, av.pre...), jen.Id("_").Op("=").Add(av.val))
	}
	pre = append(pre,
		jen.Id(kept).Op(":=").Add(goType(t, false)).Values(),
		jen.For(jen.List(jen.Id("_"), jen.Id(item)).Op(":=").Range().Add(v.val)).Block(body...),
	)
	return gval{pre: pre, val: jen.Id(kept)}
}

// mapItems is map with a filter's name: a loop that appends the filter's
// value of each item. An undefined list has no items, as Jinja2 iterates it.
func (e *emitter) mapItems(x *ir.MapFilter) gval {
	v := e.defined(e.expr(x.X), x.X.Type())
	mapped, item := e.temp("mapped"), e.temp("x")
	el := e.expr(x.Elem)
	body := append(bindTarget(x.Item, jen.Id(item)), el.pre...)
	body = append(body, jen.Id(mapped).Op("=").Append(jen.Id(mapped), el.val))
	pre := v.pre
	for _, a := range x.Args {
		av := e.expr(a)
		pre = append(append(pre, av.pre...), jen.Id("_").Op("=").Add(av.val))
	}
	pre = append(pre,
		jen.Id(mapped).Op(":=").Add(goType(x.T, false)).Values(),
		jen.For(jen.List(jen.Id("_"), jen.Id(item)).Op(":=").Range().Add(v.val)).Block(body...),
	)
	return gval{pre: pre, val: jen.Id(mapped)}
}
