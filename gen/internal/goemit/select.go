package goemit

import (
	"github.com/dave/jennifer/jen"

	"github.com/promptgen/promptgen/gen/internal/ir"
)

// selectItems is select, reject, selectattr or rejectattr: a loop that
// keeps the items whose condition holds (fails, for reject). An undefined
// list has no items, as Jinja2 iterates it; a dynamic value's items are
// those Jinja2 iterates (a string's characters, a dict's keys; none when
// the value is false), and the items kept are a list value.
func (e *emitter) selectItems(x *ir.Select) gval {
	t := x.X.Type()
	dynamic := t.Resolve().Kind == ir.KindDynamic
	kept, item := e.temp("kept"), e.temp("x")
	c := e.truthOf(x.Cond)
	keep := c.val
	if x.Reject {
		keep = jen.Op("!").Parens(c.val)
	}
	body := append(bindTarget(x.Item, jen.Id(item)), c.pre...)
	body = append(body, jen.If(keep).Block(jen.Id(kept).Op("=").Append(jen.Id(kept), jen.Id(item))))
	var v gval
	if dynamic {
		// Jinja2 iterates the value only when it is true: none has no items.
		d := e.dynArg(x.X)
		seq, items, err := e.temp("seq"), e.temp("items"), e.temp("err")
		v.pre = append(d.pre,
			jen.Id(seq).Op(":=").Add(d.val),
			jen.Var().Id(items).Index().Add(jinjaValue()),
			jen.If(jen.Id(seq).Dot("Truth").Call()).Block(
				jen.Var().Id(err).Error(),
				jen.List(jen.Id(items), jen.Id(err)).Op("=").Id(seq).Dot("Iter").Call(),
				jen.If(jen.Id(err).Op("!=").Nil()).Block(jen.Return(dst, e.dynErr(jen.Id(err), x.Pos)))))
		v.val = jen.Id(items)
	} else {
		v = e.defined(e.expr(x.X), t)
	}
	pre := v.pre
	for _, a := range x.Args {
		av := e.expr(a)
		pre = append(append(pre, av.pre...), jen.Id("_").Op("=").Add(av.val))
	}
	list := GoType(t, false)
	if dynamic {
		list = jen.Index().Add(jinjaValue())
	}
	pre = append(pre,
		jen.Id(kept).Op(":=").Add(list).Values(),
		jen.For(jen.List(jen.Id("_"), jen.Id(item)).Op(":=").Range().Add(v.val)).Block(body...),
	)
	if dynamic {
		return gval{pre: pre, val: jen.Qual(ir.JinjaPath, "ListValue").Call(jen.Id(kept).Op("..."))}
	}
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
		jen.Id(mapped).Op(":=").Add(GoType(x.T, false)).Values(),
		jen.For(jen.List(jen.Id("_"), jen.Id(item)).Op(":=").Range().Add(v.val)).Block(body...),
	)
	return gval{pre: pre, val: jen.Id(mapped)}
}
