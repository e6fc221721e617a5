package goemit

import (
	"github.com/dave/jennifer/jen"

	"github.com/promptgen/promptgen/gen/internal/ir"
)

// selectItems is select, reject, selectattr or rejectattr: the items
// kept, the chain of generators pulled to the end (see pull). An
// undefined list has no items, as Jinja2 iterates it; a dynamic value's
// items are those Jinja2 iterates (a string's characters, a dict's keys;
// none when the value is false), and the items kept are a list value.
func (e *emitter) selectItems(x *ir.Select) gval {
	list := GoType(x.Type(), false)
	dynamic := x.Type().Resolve().Kind == ir.KindDynamic
	if dynamic {
		list = jen.Index().Add(jinjaValue())
	}
	kept := e.temp("kept")
	pre := e.pull(x, func(it jen.Code) []jen.Code {
		return []jen.Code{jen.Id(kept).Op("=").Append(jen.Id(kept), it)}
	}, jen.Id(kept).Op(":=").Add(list).Values())
	if dynamic {
		return gval{pre: pre, val: jen.Qual(ir.JinjaPath, "ListValue").Call(jen.Id(kept).Op("..."))}
	}
	return gval{pre: pre, val: jen.Id(kept)}
}

// mapItems is map with a filter's name: the filter's value of each item,
// the chain of generators pulled to the end (see pull). An undefined list
// has no items, as Jinja2 iterates it.
func (e *emitter) mapItems(x *ir.MapFilter) gval {
	mapped := e.temp("mapped")
	pre := e.pull(x, func(it jen.Code) []jen.Code {
		return []jen.Code{jen.Id(mapped).Op("=").Append(jen.Id(mapped), it)}
	}, jen.Id(mapped).Op(":=").Add(GoType(x.T, false)).Values())
	return gval{pre: pre, val: jen.Id(mapped)}
}

// pullFirst is first of x, a chain of generators (ir.Pulled): Jinja2
// pulls one item, so a link's work on the items after it never runs.
// The value is a dynamic one (undefined without items) where x is, or
// else t's with def.
func (e *emitter) pullFirst(x ir.Expr, t *ir.Type) gval {
	v, ok, loop := e.temp("v"), e.temp("ok"), e.temp("first")
	dynamic := t.Resolve().Kind == ir.KindDynamic
	pre := []jen.Code{jen.Var().Id(v).Add(GoType(t, false))}
	if !dynamic {
		pre = append(pre, jen.Var().Id(ok).Bool())
	}
	pre = append(pre, e.pull(x, func(it jen.Code) []jen.Code {
		found := []jen.Code{jen.Id(v).Op("=").Add(it)}
		if !dynamic {
			found = append(found, jen.Id(ok).Op("=").True())
		}
		return append(found, jen.Break().Id(loop))
	}, jen.Id(loop).Op(":"))...)
	if dynamic {
		return gval{pre: pre, val: jen.Id(v)}
	}
	return gval{pre: pre, val: jen.Id(v), def: jen.Id(ok)}
}

// pullContains is x in y (not in), y a chain of generators of dynamic
// values (ir.Pulled): Jinja2 pulls y's items up to the first equal to
// x, so a link's work on the items after it never runs.
func (e *emitter) pullContains(x *ir.Dynamic) gval {
	a := e.dynArg(x.Args[0])
	needle, found, loop := e.temp("x"), e.temp("found"), e.temp("in")
	pre := append(a.pre, jen.Id(needle).Op(":=").Add(a.val), jen.Var().Id(found).Bool())
	pre = append(pre, e.pull(x.Args[1], func(it jen.Code) []jen.Code {
		eq, err := e.temp("eq"), e.temp("err")
		return []jen.Code{
			jen.List(jen.Id(eq), jen.Id(err)).Op(":=").Qual(ir.JinjaPath, "EqualMethods").Call(it, jen.Id(needle)),
			jen.If(jen.Id(err).Op("!=").Nil()).Block(jen.Return(dst, e.dynErr(jen.Id(err), x.Pos))),
			jen.If(jen.Id(eq)).Block(jen.Id(found).Op("=").True(), jen.Break().Id(loop)),
		}
	}, jen.Id(loop).Op(":"))...)
	if x.Name == "not in" {
		return gval{pre: pre, val: jen.Op("!").Id(found)}
	}
	return gval{pre: pre, val: jen.Id(found)}
}

// evalArgs appends to pre the evaluation of a link's arguments, which
// Jinja2 evaluates as it makes the generator; their values are unused
// here (the link's work reads them).
func (e *emitter) evalArgs(pre []jen.Code, args []ir.Expr) []jen.Code {
	for _, a := range args {
		av := e.expr(a)
		use := jen.Id("_").Op("=").Add(av.val)
		if av.def != nil {
			use = jen.If(av.def).Block(use) // the value is read only where defined
		}
		pre = append(append(pre, av.pre...), use)
	}
	return pre
}

// pull emits x, a chain of generators (ir.Pulled), as Jinja2 runs it for
// a consumer that pulls its items: the source, then each link's arguments
// (Jinja2 evaluates them as it makes the generator), then label (a
// statement before the loop, or its label) and one loop over the source
// that runs each link's work on an item in turn and, for an item every
// link yields, yield's statements (which may break out of the loop).
func (e *emitter) pull(x ir.Expr, yield func(it jen.Code) []jen.Code, label jen.Code) []jen.Code {
	pre, loop := e.pullLoop(x, yield, label)
	return append(pre, loop...)
}

// pullLoop is pull's statements before the loop (the source and the
// arguments) and from there on (the source's iteration, which Jinja2's
// generator does once pulled, after every link's arguments, and the loop).
func (e *emitter) pullLoop(x ir.Expr, yield func(it jen.Code) []jen.Code, label jen.Code) (pre, loop []jen.Code) {
	src, _ := ir.Pulled(x)
	var each func(it jen.Code) []jen.Code // the link's work on an item
	var gen jen.Code                      // a dynamic link's jinja.Gen
	var pos string
	switch x := x.(type) {
	case *ir.Select:
		pos = x.Pos
		pre = e.evalArgs(pre, x.Args)
		each = func(it jen.Code) []jen.Code {
			c := e.truthOf(x.Cond)
			keep := c.val
			if x.Reject {
				keep = jen.Op("!").Parens(c.val)
			}
			body := append(bindTarget(x.Item, it), c.pre...)
			return append(body, jen.If(keep).Block(yield(jen.Id(x.Item.GoName))...))
		}
	case *ir.MapFilter:
		pre = e.evalArgs(pre, x.Args)
		each = func(it jen.Code) []jen.Code {
			el := e.expr(x.Elem)
			out := e.temp("x")
			body := append(bindTarget(x.Item, it), el.pre...)
			return append(append(body, jen.Id(out).Op(":=").Add(el.val)), yield(jen.Id(out))...)
		}
	case *ir.Call: // map(attribute=, default=)
		d, given := e.arg(x, 1)
		if given && e.attribute(x, gval{val: jen.Id("_")}).def != nil {
			pre = append(pre, d.pre...)
		}
		each = func(it jen.Code) []jen.Code {
			m := e.attribute(x, gval{val: it})
			if given && m.def != nil {
				t := e.temp("t")
				m = gval{pre: append(m.pre,
					jen.Var().Id(t).Add(GoType(ir.AttrType(x.Attr), false)),
					jen.If(m.def).Block(jen.Id(t).Op("=").Add(m.val)).Else().Block(jen.Id(t).Op("=").Add(d.val)),
				), val: jen.Id(t)}
			}
			m = e.defined(m, ir.AttrType(x.Attr))
			out := e.temp("x")
			return append(append(m.pre, jen.Id(out).Op(":=").Add(m.val)), yield(jen.Id(out))...)
		}
	case *ir.Dynamic:
		filter, name := x.GenFilter()
		args := []jen.Code{jen.Lit(filter), jen.Lit(name)}
		for _, a := range x.Args[1:] {
			v := e.dynArg(a)
			pre = append(pre, v.pre...)
			args = append(args, v.val)
		}
		g := e.temp("gen")
		gen, pos = jen.Id(g), x.Pos
		pre = append(pre, jen.Id(g).Op(":=").Qual(ir.JinjaPath, "NewGen").Call(args...))
		_, chained := ir.Pulled(src)
		each = func(it jen.Code) []jen.Code {
			keep, err, out := e.temp("keep"), e.temp("err"), e.temp("x")
			v := gval{val: it}
			if t := src.Type().Resolve(); chained && t.Kind == ir.KindList && t.Elem.Resolve().Kind != ir.KindDynamic {
				// A typed link's item (xs|map('upper')|map(attribute='a')).
				v = e.toDynamic(v, t.Elem)
			}
			return append(v.pre,
				jen.List(jen.Id(keep), jen.Id(err)).Op(":=").Id(g).Dot("Next").Call(v.val),
				jen.If(jen.Id(err).Op("!=").Nil()).Block(jen.Return(dst, e.dynErr(jen.Id(err), x.Pos))),
				jen.If(jen.Id(keep)).Block(append([]jen.Code{jen.Id(out).Op(":=").Id(g).Dot("Item").Call()}, yield(jen.Id(out))...)...),
			)
		}
	}
	if _, ok := ir.Pulled(src); ok {
		inner, loop := e.pullLoop(src, each, label)
		return append(inner, pre...), loop
	}
	it := e.temp("x")
	var items gval
	if gen != nil || src.Type().Resolve().Kind == ir.KindDynamic {
		// Jinja2 iterates the value only when it is true (select, map),
		// or any value (unique).
		d := e.dynArg(src)
		seq, list, err := e.temp("seq"), e.temp("items"), e.temp("err")
		iter := jen.If(jen.Id(seq).Dot("Truth").Call()).Block(
			jen.Var().Id(err).Error(),
			jen.List(jen.Id(list), jen.Id(err)).Op("=").Id(seq).Dot("Iter").Call(),
			jen.If(jen.Id(err).Op("!=").Nil()).Block(jen.Return(dst, e.dynErr(jen.Id(err), pos))))
		if gen != nil {
			iter = jen.Block(
				jen.Var().Id(err).Error(),
				jen.List(jen.Id(list), jen.Id(err)).Op("=").Add(gen).Dot("Items").Call(jen.Id(seq)),
				jen.If(jen.Id(err).Op("!=").Nil()).Block(jen.Return(dst, e.dynErr(jen.Id(err), pos))))
		}
		items.pre = append(d.pre, jen.Id(seq).Op(":=").Add(d.val), jen.Var().Id(list).Index().Add(jinjaValue()))
		items.val = jen.Id(list)
		loop = []jen.Code{iter}
	} else {
		items = e.defined(e.expr(src), src.Type())
	}
	loop = append(loop, label, jen.For(jen.List(jen.Id("_"), jen.Id(it)).Op(":=").Range().Add(items.val)).Block(each(jen.Id(it))...))
	return append(items.pre, pre...), loop
}
