package ttemit

import "github.com/promptgen/promptgen/gen/internal/ir"

// FuncName is the name of Go filter g in the FuncMap of the generated
// template, apart from runtime/ttfuncs' names.
func FuncName(g *ir.GoFilter) string { return "gofilter_" + g.Name }

// goFilter calls Go filter x's function through the FuncMap with the
// operand and the arguments, each of which must be defined (the function
// takes Go values); a fallible function's entry takes the position of the
// call last, for the error it returns.
func (e *ttEmitter) goFilter(x *ir.Call) tval {
	var operands []tval
	for _, a := range append([]ir.Expr{x.X}, x.Args...) {
		operands = append(operands, e.strict(e.expr(a), x.Pos, ir.VarPath(a)))
	}
	pre, vals := e.inOrder(operands...)
	if x.Go.Fallible {
		vals = append(vals, e.pos(x.Pos))
	}
	return tval{pre: pre, val: call(FuncName(x.Go), vals...)}
}
