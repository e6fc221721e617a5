package ttemit

import (
	"strconv"

	"github.com/promptgen/promptgen/gen/internal/ir"
)

// selectItems is select, reject, selectattr or rejectattr: a range that
// records each item's condition, then the items picked by it, in a list
// of the operand's type. An undefined list has no items, as Jinja2
// iterates it; a dynamic value's items are those Jinja2 iterates (none
// when the value is false), and the items kept a list value.
func (e *ttEmitter) selectItems(x *ir.Select) tval {
	v := e.expr(x.X)
	pre, items := e.withEvaluated(v, x.Args)
	dynamic := x.X.Type().Resolve().Kind == ir.KindDynamic
	if v.maybe && !dynamic {
		items = call("iter", items)
	}
	xs, flags, item := e.temp("xs"), e.temp("flags"), "$"+x.Item.GoName
	c := e.cond(x.Cond)
	if dynamic {
		// Jinja2 iterates the value only when it is true: none has no items.
		seq := e.temp("seq")
		pre += action(seq+" := "+items) + action(xs+" := nolist") + action("if truth "+seq) +
			action(xs+" = "+call("dyn", `"iter"`, e.pos(x.Pos), seq)) + "{{ end }}"
	} else {
		pre += action(xs + " := " + items)
	}
	pre += action(flags+" := nolist") + action("range "+item+" := "+xs) +
		c.pre + action(flags+" = keep "+flags+" "+c.val) + "{{ end }}"
	kept := call("pick", xs, flags, strconv.FormatBool(x.Reject))
	if dynamic {
		kept = call("dyn", `"list"`, e.pos(x.Pos), kept) // a list value
	}
	return tval{pre: pre, val: kept}
}

// mapItems is map with a filter's name: a range that pushes the filter's
// value of each item onto a list of the result's type. An undefined list
// has no items, as Jinja2 iterates it.
func (e *ttEmitter) mapItems(x *ir.MapFilter) tval {
	v := e.expr(x.X)
	pre, items := e.withEvaluated(v, x.Args)
	if v.maybe {
		items = call("iter", items)
	}
	mapped, item := e.temp("mapped"), "$"+x.Item.GoName
	el := e.expr(x.Elem)
	pre += action(mapped+" := "+emptyList(x.T)) + action("range "+item+" := "+items) +
		el.pre + action(mapped+" = push "+mapped+" "+el.val) + "{{ end }}"
	return tval{pre: pre, val: mapped}
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
