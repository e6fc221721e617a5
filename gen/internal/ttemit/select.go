package ttemit

import (
	"strconv"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/ir"
)

// selectItems is select, reject, selectattr or rejectattr: the items
// kept, the chain of generators pulled to the end (see pull), in a list
// of the operand's type. An undefined list has no items, as Jinja2
// iterates it; a dynamic value's items are those Jinja2 iterates (none
// when the value is false), and the items kept a list value.
func (e *ttEmitter) selectItems(x *ir.Select) tval {
	kept, list := e.temp("kept"), "nolist"
	dynamic := x.X.Type().Resolve().Kind == ir.KindDynamic
	if !dynamic {
		list = emptyList(x.Type())
	}
	pre, loop := e.pull(x, func(it string) string { return action(kept + " = push " + kept + " " + it) })
	v := tval{pre: pre + action(kept+" := "+list) + loop, val: kept}
	if dynamic {
		v.val = call("dyn", `"list"`, e.pos(x.Pos), kept) // a list value
	}
	return v
}

// mapItems is map with a filter's name: the filter's value of each item,
// the chain of generators pulled to the end (see pull), on a list of the
// result's type. An undefined list has no items, as Jinja2 iterates it.
func (e *ttEmitter) mapItems(x *ir.MapFilter) tval {
	mapped := e.temp("mapped")
	pre, loop := e.pull(x, func(it string) string { return action(mapped + " = push " + mapped + " " + it) })
	return tval{pre: pre + action(mapped+" := "+emptyList(x.T)) + loop, val: mapped}
}

// pullFirst is first of x, a chain of generators (ir.Pulled): Jinja2
// pulls one item, so a link's work on the items after it never runs.
// Without items it is undefined.
func (e *ttEmitter) pullFirst(x ir.Expr) tval {
	v := e.temp("first")
	pre, loop := e.pull(x, func(it string) string { return action(v+" = "+it) + "{{ break }}" })
	return tval{pre: pre + action(v+" := undef") + loop, val: v, maybe: true}
}

// pulledDynamic reports whether x is a chain of generators (ir.Pulled)
// of dynamic values.
func pulledDynamic(x ir.Expr) bool {
	_, ok := ir.Pulled(x)
	return ok && x.Type().Resolve().Kind == ir.KindDynamic
}

// pullContains is x in y (not in), y a chain of generators of dynamic
// values (ir.Pulled): Jinja2 pulls y's items up to the first equal to
// x, so a link's work on the items after it never runs.
func (e *ttEmitter) pullContains(x *ir.Dynamic) tval {
	a := e.expr(x.Args[0])
	needle, found := e.temp("x"), e.temp("found")
	pos := e.pos(x.Pos)
	pre, loop := e.pull(x.Args[1], func(it string) string {
		return action("if "+call("dyn", `"equal"`, pos, `"=="`, it, needle)) + action(found+" = true") + "{{ break }}{{ end }}"
	})
	v := tval{pre: a.pre + action(needle+" := "+a.val) + pre + action(found+" := false") + loop, val: found}
	if x.Name == "not in" {
		v.val = call("not", found)
	}
	return v
}

// pull is x, a chain of generators (ir.Pulled), as Jinja2 runs it for a
// consumer that pulls its items: pre evaluates the source, then each
// link's arguments (Jinja2 evaluates them as it makes the generator);
// loop iterates the source (which Jinja2's generator does once pulled)
// and runs each link's work on an item in turn and, for an item every
// link yields, yield's actions (which may break out of the range).
func (e *ttEmitter) pull(x ir.Expr, yield func(it string) string) (pre, loop string) {
	src, _ := ir.Pulled(x)
	var each func(it string) string // the link's work on an item
	var gen, pos string             // a dynamic link's jinja.Gen
	switch x := x.(type) {
	case *ir.Select:
		pos = e.pos(x.Pos)
		for _, a := range x.Args {
			pre += discard(e.expr(a))
		}
		each = func(it string) string {
			c := e.cond(x.Cond)
			keep := c.val
			if x.Reject {
				keep = call("not", c.val)
			}
			item := "$" + x.Item.GoName
			return action(item+" := "+it) + c.pre + action("if "+keep) + yield(item) + "{{ end }}"
		}
	case *ir.MapFilter:
		for _, a := range x.Args {
			pre += discard(e.expr(a))
		}
		each = func(it string) string {
			el := e.expr(x.Elem)
			out := e.temp("x")
			return action("$"+x.Item.GoName+" := "+it) + el.pre + action(out+" := "+el.val) + yield(out)
		}
	case *ir.Call: // map(attribute=, default=)
		d, _ := e.arg(x, 1)
		dval := d.val
		if strings.HasPrefix(dval, "(") {
			dval = e.temp("d")
			d.pre += action(dval + " := " + d.val)
		}
		pre += d.pre
		each = func(it string) string {
			out := e.temp("x")
			return action(out+" := "+call("attritem", it, dval, attrLookupPath(x.X.Type(), x.Attr), e.pos(x.Pos))) + yield(out)
		}
	case *ir.Dynamic:
		filter, name := x.GenFilter()
		gen, pos = e.temp("gen"), e.pos(x.Pos)
		args := []tval{}
		for _, a := range x.Args[1:] {
			args = append(args, e.expr(a))
		}
		apre, vals := e.inOrder(args...)
		pre += apre + action(gen+" := "+call("gen", append([]string{strconv.Quote(filter), strconv.Quote(name), pos}, vals...)...))
		each = func(it string) string {
			out := e.temp("x")
			return action("if "+call("gennext", gen, it, pos)) + action(out+" := "+gen+".Item") + yield(out) + "{{ end }}"
		}
	}
	if _, ok := ir.Pulled(src); ok {
		inner, loop := e.pull(src, each)
		return inner + pre, loop
	}
	v := e.expr(src)
	xs, it := e.temp("xs"), e.temp("x")
	pre = v.pre + action(xs+" := "+v.val) + pre
	switch {
	case gen != "":
		loop = action(xs + " = " + call("genitems", gen, xs, pos))
	case src.Type().Resolve().Kind == ir.KindDynamic:
		// Jinja2 iterates the value only when it is true: none has no items.
		loop = action("if truth "+xs) + action(xs+" = "+call("dyn", `"iter"`, pos, xs)) + "{{ else }}" + action(xs+" = nolist") + "{{ end }}"
	case v.maybe:
		loop = action(xs + " = " + call("iter", xs))
	}
	return pre, loop + action("range "+it+" := "+xs) + each(it) + "{{ end }}"
}

// withEvaluated evaluates args after v, for their failures only (Jinja2
// evaluates a filter's arguments before it iterates), and returns the
// actions and v's value.
func (e *ttEmitter) withEvaluated(v tval, args []ir.Expr) (pre, val string) {
	operands := []tval{v}
	for _, a := range args {
		operands = append(operands, tval{pre: discard(e.expr(a))})
	}
	pre, vals := e.inOrder(operands...)
	return pre, vals[0]
}
