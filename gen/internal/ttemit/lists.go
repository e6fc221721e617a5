package ttemit

import "github.com/promptgen/promptgen/gen/internal/ir"

// listMethod translates a list method that modifies the list of a local
// (ir.CallListMethod), a slice or a list value: the local's variable is set to the list changed,
// and the value is none, or the item pop takes out.
func (e *ttEmitter) listMethod(x *ir.Call) tval {
	l := x.X.(*ir.LocalRef).L
	xs := localList(l)
	// set puts list v in the local's variable, or in its box.
	set := func(v string) string {
		if l.Shared {
			return action("$_ := " + call("listset", "$"+l.GoName, "("+v+")"))
		}
		return action(xs + " = " + v)
	}
	args := make([]tval, len(x.Args))
	for i, a := range x.Args {
		args[i] = e.expr(a)
	}
	pre, vals := e.inOrder(args...)
	if x.X.Type().Kind == ir.KindDynamic {
		// A list value, which the local may hold as the slice of a literal.
		pre += set("listvalue " + xs)
	}
	if x.Name == "pop" {
		p := e.temp("pop")
		pre += action(p+" := "+call("listpop", xs, vals[0], e.pos(x.Pos))) + set("index "+p+" 1")
		return tval{pre: pre, val: "(index " + p + " 0)"}
	}
	if x.Name == "extend" {
		vals = append(vals, e.pos(x.Pos)) // a list value extended by what is not iterable
	}
	pre += set(unparen(call("list"+x.Name, append([]string{xs}, vals...)...)))
	return tval{pre: pre, val: e.expr(&ir.Const{T: x.T}).val}
}

// localList is the template variable of local l, or the list in its box
// where l is Shared.
func localList(l *ir.Local) string {
	if l.Shared {
		return "$" + l.GoName + ".V"
	}
	return "$" + l.GoName
}
