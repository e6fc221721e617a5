package goemit

import (
	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// goFilter calls the Go function of a filter of `filters:` with the
// operand and the arguments, each of which must be defined: the function
// takes Go values, which cannot be Jinja2's undefined. An error it returns
// fails the render at the filter: a runtime.Error whose Err wraps it.
func (e *emitter) goFilter(x *ir.Call) gval {
	var pre []jen.Code
	args := make([]jen.Code, 0, len(x.Args)+1)
	for _, a := range append([]ir.Expr{x.X}, x.Args...) {
		v := e.strict(e.expr(a), x.Pos, ir.VarPath(a))
		pre = append(pre, v.pre...)
		args = append(args, v.val)
	}
	call := jen.Qual(x.Go.Path, x.Go.Func).Call(args...)
	if !x.Go.Fallible {
		return gval{pre: pre, val: call}
	}
	v, err := e.temp("v"), e.temp("err")
	pre = append(pre,
		jen.List(jen.Id(v), jen.Id(err)).Op(":=").Add(call),
		jen.If(jen.Id(err).Op("!=").Nil()).Block(
			jen.Return(jen.Id("dst"), jen.Qual(ir.RuntimePath, "Fail").Call(jen.Lit(e.p.Key), jen.Lit(x.Pos),
				jen.Qual("fmt", "Errorf").Call(jen.Lit("filter "+x.Name+": %w"), jen.Id(err)), jen.Lit("")))))
	return gval{pre: pre, val: jen.Id(v)}
}
