package ttemit

import (
	"strconv"

	"github.com/promptgen/promptgen/gen/internal/ir"
)

// selectItems is select, reject, selectattr or rejectattr: a range that
// records each item's condition, then the items picked by it, in a list
// of the operand's type. An undefined list has no items, as Jinja2
// iterates it.
func (e *ttEmitter) selectItems(x *ir.Select) tval {
	v := e.expr(x.X)
	items := v.val
	if v.maybe {
		items = call("iter", v.val)
	}
	xs, flags, item := e.temp("xs"), e.temp("flags"), "$"+x.Item.GoName
	c := e.cond(x.Cond)
	pre := v.pre
	for _, a := range x.Args {
		av := e.expr(a)
		pre += av.pre + action("$_ := "+av.val)
	}
	pre += action(xs+" := "+items) + action(flags+" := nolist") + action("range "+item+" := "+xs) +
		c.pre + action(flags+" = keep "+flags+" "+c.val) + "{{ end }}"
	return tval{pre: pre, val: call("pick", xs, flags, strconv.FormatBool(x.Reject))}
}

// mapItems is map with a filter's name: a range that pushes the filter's
// value of each item onto a list of the result's type. An undefined list
// has no items, as Jinja2 iterates it.
func (e *ttEmitter) mapItems(x *ir.MapFilter) tval {
	v := e.expr(x.X)
	items := v.val
	if v.maybe {
		items = call("iter", v.val)
	}
	mapped, item := e.temp("mapped"), "$"+x.Item.GoName
	pre := v.pre
	for _, a := range x.Args {
		av := e.expr(a)
		pre += av.pre + action("$_ := "+av.val)
	}
	el := e.expr(x.Elem)
	pre += action(mapped+" := "+emptyList(x.T)) + action("range "+item+" := "+items) +
		el.pre + action(mapped+" = push "+mapped+" "+el.val) + "{{ end }}"
	return tval{pre: pre, val: mapped}
}
