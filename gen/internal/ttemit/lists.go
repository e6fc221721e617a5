package ttemit

import "github.com/promptgen/promptgen/gen/internal/ir"

// listMethod translates a list method that modifies the list of a local
// (ir.CallListMethod), a slice or a list value: the local's variable is set to the list changed,
// and the value is none, or the item pop takes out.
func (e *ttEmitter) listMethod(x *ir.Call) tval {
	xs := "$" + x.X.(*ir.LocalRef).L.GoName
	args := make([]tval, len(x.Args))
	for i, a := range x.Args {
		args[i] = e.expr(a)
	}
	pre, vals := e.inOrder(args...)
	if x.X.Type().Kind == ir.KindDynamic {
		// A list value, which the local may hold as the slice of a literal.
		pre += action(xs + " = listvalue " + xs)
	}
	if x.Name == "pop" {
		p := e.temp("pop")
		pre += action(p+" := "+call("listpop", xs, vals[0], e.pos(x.Pos))) + action(xs+" = index "+p+" 1")
		return tval{pre: pre, val: "(index " + p + " 0)"}
	}
	if x.Name == "extend" {
		vals = append(vals, e.pos(x.Pos)) // a list value extended by what is not iterable
	}
	pre += action(xs + " = " + call("list"+x.Name, append([]string{xs}, vals...)...))
	return tval{pre: pre, val: e.expr(&ir.Const{T: x.T}).val}
}
