package goemit

import (
	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// listMethod emits a list method that modifies the list of a local
// (ir.CallListMethod): the local is set to the list changed, and the
// value is none, or the item pop takes out.
func (e *emitter) listMethod(x *ir.Call) gval {
	xs := jen.Id(x.X.(*ir.LocalRef).L.GoName)
	var pre []jen.Code
	args := make([]jen.Code, len(x.Args))
	for i, a := range x.Args { // an item has the list's item type (check.listItem)
		v := e.expr(a)
		pre, args[i] = append(pre, v.pre...), v.val
	}
	jinja := func(name string) *jen.Statement { return jen.Qual(ir.JinjaPath, name) }
	switch x.Name {
	case "pop":
		return e.fallible(pre, jinja("ListPop").Call(jen.Op("&").Add(xs), args[0]), x.Pos)
	case "append":
		pre = append(pre, jen.Add(xs).Op("=").Append(xs, args[0]))
	case "extend":
		pre = append(pre, jen.Add(xs).Op("=").Append(xs, jen.Add(args[0]).Op("...")))
	case "insert":
		pre = append(pre, jen.Add(xs).Op("=").Add(jinja("ListInsert").Call(xs, args[0], args[1])))
	case "clear":
		pre = append(pre, jen.Add(xs).Op("=").Add(xs).Index(jen.Lit(0), jen.Lit(0), jen.Lit(0)))
	}
	return gval{pre: pre, val: constCode(&ir.Const{T: x.T})}
}
