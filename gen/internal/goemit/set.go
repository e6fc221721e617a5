package goemit

import (
	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// The go parts of a template set: a template includes a component by
// calling its render function (emit.SetFile writes one per component and
// version), passing on the feed f and the variant v.

// componentPrint renders a component into dst where it stands.
func (e *emitter) componentPrint(x *ir.Include) []jen.Code {
	err := e.temp("err")
	return []jen.Code{
		jen.Var().Id(err).Error(),
		jen.If(jen.List(dst, jen.Id(err)).Op("=").Id(x.Comp.Func).Call(dst, jen.Id("f"), jen.Id("v")), jen.Id(err).Op("!=").Nil()).Block(
			jen.Return(dst, jen.Id(err))),
	}
}

// componentValue renders a component to a string, for a component used as a value.
func (e *emitter) componentValue(x *ir.Include) gval {
	b, err := e.temp("b"), e.temp("err")
	return gval{
		pre: []jen.Code{
			jen.List(jen.Id(b), jen.Id(err)).Op(":=").Id(x.Comp.Func).Call(jen.Nil(), jen.Id("f"), jen.Id("v")),
			jen.If(jen.Id(err).Op("!=").Nil()).Block(jen.Return(dst, jen.Id(err))),
		},
		val: jen.String().Parens(jen.Id(b)),
	}
}
