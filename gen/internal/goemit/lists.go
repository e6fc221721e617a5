package goemit

import (
	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// listMethod emits a list method that modifies the list of a local
// (ir.CallListMethod), a slice or a list value: the local is set to the
// list changed, and the value is none, or the item pop takes out.
func (e *emitter) listMethod(x *ir.Call) gval {
	xs := e.localList(x.X.(*ir.LocalRef).L)()
	t := x.X.Type().Resolve()
	dyn := x.X.Type().Kind == ir.KindDynamic
	var pre []jen.Code
	args := make([]jen.Code, len(x.Args))
	for i, a := range x.Args {
		// An item has the slice's item type (check.listItem), or is
		// converted to a dynamic value, as the list value holds them,
		// and as a slice of dynamic values does, which a set after the
		// call may have made the list.
		v := e.expr(a)
		switch {
		case dyn && (x.Name != "insert" && x.Name != "pop" || x.Name == "insert" && i == 1):
			v = e.toDynamic(v, a.Type())
		case t.Kind != ir.KindList || t.Elem.Resolve().Kind != ir.KindDynamic:
		case x.Name == "append" || x.Name == "insert" && i == 1:
			v = e.toDynamic(v, a.Type())
		case x.Name == "extend" && a.Type().Resolve().Elem.Resolve().Kind != ir.KindDynamic:
			v.val = jen.Id(e.dynamicItems(&v, a.Type().Resolve().Elem))
		}
		pre, args[i] = append(pre, v.pre...), v.val
	}
	jinja := func(name string) *jen.Statement { return jen.Qual(ir.JinjaPath, name) }
	set := func(v jen.Code) { pre = append(pre, jen.Add(xs).Op("=").Add(v)) }
	fallible := func(call jen.Code) gval { // a runtime.Error at x.Pos
		return e.dynFallible(pre, call, x.Pos, func(v jen.Code) gval { return gval{val: v} })
	}
	switch {
	case x.Name == "pop" && dyn:
		return fallible(jen.Add(xs).Dot("Pop").Call(args[0]))
	case x.Name == "pop":
		return fallible(jinja("ListPop").Call(jen.Op("&").Add(xs), args[0]))
	case x.Name == "extend" && dyn:
		v := fallible(jen.Add(xs).Dot("Extended").Call(args[0]))
		pre = v.pre
		set(v.val)
	case dyn:
		set(jen.Add(xs).Dot(map[string]string{"append": "Appended", "insert": "Inserted", "clear": "Cleared"}[x.Name]).Call(args...))
	case x.Name == "append":
		set(jen.Append(xs, args[0]))
	case x.Name == "extend":
		set(jen.Append(xs, jen.Add(args[0]).Op("...")))
	case x.Name == "insert":
		set(jinja("ListInsert").Call(xs, args[0], args[1]))
	case x.Name == "clear":
		set(jen.Add(xs).Index(jen.Lit(0), jen.Lit(0), jen.Lit(0)))
	}
	return gval{pre: pre, val: constCode(&ir.Const{T: x.T})}
}

// localList returns a function that makes the variable of local l anew
// each time: the list behind its pointer where l is Shared.
func (e *emitter) localList(l *ir.Local) func() *jen.Statement {
	if l.Shared {
		return func() *jen.Statement { return jen.Parens(jen.Op("*").Id(l.GoName)) }
	}
	return func() *jen.Statement { return jen.Id(l.GoName) }
}
