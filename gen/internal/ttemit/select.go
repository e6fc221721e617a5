package ttemit

import "github.com/promptgen/promptgen/gen/internal/ir"

// selectItems is select, reject, selectattr or rejectattr: a range that
// keeps the items whose condition holds (fails, for reject). An undefined
// list has no items, as Jinja2 iterates it.
func (e *ttEmitter) selectItems(x *ir.Select) tval {
	v := e.expr(x.X)
	items := v.val
	if v.maybe {
		items = call("iter", v.val)
	}
	kept, item := e.temp("kept"), "$"+x.Item.GoName
	c := e.cond(x.Cond)
	keep := unparen(c.val)
	if x.Reject {
		keep = "not " + c.val
	}
	pre := v.pre + action(kept+" := nolist") + action("range "+item+" := "+items) +
		c.pre + action("if "+keep) + action(kept+" = keep "+kept+" "+item) + "{{ end }}{{ end }}"
	return tval{pre: pre, val: kept}
}
