package goemit

import (
	"maps"

	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// GoBody is the go backend: the template compiled to Go statements
// appending to dst.
func GoBody(f *jen.File, p *ir.Prompt) []jen.Code {
	read := readLocals(p.Body)
	for _, f := range p.Funcs {
		maps.Copy(read, readLocals(f.Body))
	}
	e := &emitter{p: p, tmp: p.NumLocals, read: read, loops: map[*ir.For][3]string{}, loopMaps: map[*ir.For]jen.Code{}}
	body := e.declare(p.Locals)
	body = append(body, e.funcs()...)
	body = append(body, e.nodes(p.Body)...)
	if e.looped {
		body = append([]jen.Code{jen.Id("start").Op(":=").Len(dst)}, body...)
	}
	if !ir.FallsThrough(p.Body) {
		return body // it ends raising
	}
	return append(body, jen.Return(dst, jen.Nil()))
}

// readLocals returns the locals whose value ns or xs read.
func readLocals(ns []ir.Node, xs ...ir.Expr) map[*ir.Local]bool {
	read := map[*ir.Local]bool{}
	mark := func(x ir.Expr) {
		if l, ok := x.(*ir.LocalRef); ok {
			read[l.L] = true
		}
	}
	ir.Walk(ns, mark)
	for _, x := range xs {
		ir.WalkExpr(x, mark)
	}
	return read
}

// funcs declares p's functions, closures that append to dst like the
// body, all declared before any is assigned so that they can call each
// other. calls counts their calls in the render (runtime.EnterMacro).
func (e *emitter) funcs() []jen.Code {
	if len(e.p.Funcs) == 0 {
		return nil
	}
	e.calls = e.temp("calls")
	out := []jen.Code{jen.Id(e.calls).Op(":=").Lit(0)}
	params := func(f *ir.Func) []jen.Code {
		ps := []jen.Code{jen.Id(DstName).Index().Byte(), jen.Id("depth").Int()}
		for _, p := range f.Params {
			ps = append(ps, jen.Id(p.GoName).Add(jinjaValue()))
		}
		if f.Caller != "" {
			ps = append(ps, jen.Id(f.Caller).Add(callerType()))
		}
		return ps
	}
	results := []jen.Code{jen.Index().Byte(), jen.Error()}
	for _, f := range e.p.Funcs {
		out = append(out, jen.Var().Id(f.GoName).Func().Params(params(f)...).Params(results...))
	}
	for _, f := range e.p.Funcs {
		body := e.declare(f.Locals)
		e.inFunc = true
		body = append(body, e.nodes(f.Body)...)
		e.inFunc = false
		if ir.FallsThrough(f.Body) {
			body = append(body, jen.Return(dst, jen.Nil()))
		}
		out = append(out, jen.Id(f.GoName).Op("=").Func().Params(params(f)...).Params(results...).Block(body...))
	}
	return out
}

// callerType is the type of a caller: a closure that appends its body's
// output to dst, depth macro frames deep.
func callerType() *jen.Statement {
	return jen.Func().Params(jen.Index().Byte(), jen.Int()).Params(jen.Index().Byte(), jen.Error())
}

// caller is the closure of x, the caller of a {% call %} block, whose
// body appends to dst; nil for none.
func (e *emitter) caller(x *ir.Caller) jen.Code {
	if x == nil {
		return jen.Nil()
	}
	inFunc := e.inFunc
	e.inFunc = true // its calls are deeper than its own depth
	body := append(e.declare(x.Locals), e.nodes(x.Body)...)
	e.inFunc = inFunc
	if ir.FallsThrough(x.Body) {
		body = append(body, jen.Return(dst, jen.Nil()))
	}
	return jen.Func().Params(jen.Id(DstName).Index().Byte(), jen.Id("depth").Int()).Params(jen.Index().Byte(), jen.Error()).Block(body...)
}

// callCaller prints a call of caller() in a function's body: the caller
// its call passed, undefined where it passed none.
func (e *emitter) callCaller(x *ir.CallCaller) []jen.Code {
	depth := jen.Id("depth").Op("+").Lit(x.Frames + 1)
	err := e.temp("err")
	return []jen.Code{
		jen.If(jen.Id(x.Func.Caller).Op("==").Nil()).Block(e.fail(x.Pos, "caller", "ErrUndefined")),
		jen.If(jen.Err().Op(":=").Qual(ir.RuntimePath, "EnterMacro").Call(jen.Lit(e.p.Key), jen.Lit(x.Pos), jen.Lit("caller"), depth, jen.Op("&").Id(e.calls)), jen.Err().Op("!=").Nil()).Block(jen.Return(dst, jen.Err())),
		jen.Var().Id(err).Error(),
		jen.If(jen.List(dst, jen.Id(err)).Op("=").Id(x.Func.Caller).Call(dst, depth.Clone()), jen.Id(err).Op("!=").Nil()).Block(jen.Return(dst, jen.Id(err))),
	}
}

// callFunc prints a call of a function: the macro frame it opens is
// counted, and its body appends to dst.
func (e *emitter) callFunc(x *ir.CallFunc) []jen.Code {
	depth := jen.Lit(x.Frames + 1)
	if e.inFunc {
		depth = jen.Id("depth").Op("+").Lit(x.Frames + 1)
	}
	var pre []jen.Code
	args := []jen.Code{dst, depth}
	for _, a := range x.Args {
		v := e.expr(a)
		pre = append(pre, v.pre...)
		args = append(args, v.val)
	}
	if x.Func.Caller != "" {
		args = append(args, e.caller(x.Caller))
	}
	err := e.temp("err")
	return append(pre,
		jen.If(jen.Err().Op(":=").Qual(ir.RuntimePath, "EnterMacro").Call(jen.Lit(e.p.Key), jen.Lit(x.Pos), jen.Lit(x.Func.Name), depth, jen.Op("&").Id(e.calls)), jen.Err().Op("!=").Nil()).Block(jen.Return(dst, jen.Err())),
		jen.Var().Id(err).Error(),
		jen.If(jen.List(dst, jen.Id(err)).Op("=").Id(x.Func.GoName).Call(args...), jen.Id(err).Op("!=").Nil()).Block(jen.Return(dst, jen.Id(err))))
}

// readsNeighbour reports whether the body of loop n reads its
// loop.previtem or loop.nextitem.
func readsNeighbour(n *ir.For) bool {
	found := false
	ir.Walk(n.Body, func(x ir.Expr) {
		if a, ok := x.(*ir.LoopAttr); ok && a.For == n && ir.IsLoopNeighbour(a) {
			found = true
		}
	})
	return found
}
