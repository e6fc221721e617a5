package goemit

import (
	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// GoBody is the go backend: the template compiled to Go statements
// appending to dst.
func GoBody(f *jen.File, p *ir.Prompt) []jen.Code {
	e := &emitter{p: p, tmp: p.NumLocals, read: readLocals(p.Body), loops: map[*ir.For][3]string{}}
	body := e.declare(p.Locals)
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
