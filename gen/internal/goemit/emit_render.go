package goemit

import (
	"sort"

	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// appendValue appends v printed as Jinja2 prints it (str()) to buf.
func (e *emitter) appendValue(buf *jen.Statement, v gval, t *ir.Type) []jen.Code {
	t = t.Resolve()
	set := func(c jen.Code) []jen.Code { return []jen.Code{buf.Clone().Op("=").Add(c)} }
	switch t.Kind {
	case ir.KindString:
		return set(jen.Append(buf.Clone(), jen.Add(v.val).Op("...")))
	case ir.KindInt:
		return set(jen.Qual("strconv", "AppendInt").Call(buf.Clone(), jen.Int64().Parens(v.val), jen.Lit(10)))
	case ir.KindFloat:
		return set(jen.Qual(ir.JinjaPath, "AppendFloat").Call(buf.Clone(), v.val))
	case ir.KindBool:
		return set(jen.Qual(ir.JinjaPath, "AppendBool").Call(buf.Clone(), v.val))
	case ir.KindDynamic:
		return append([]jen.Code{e.checkPrint(v.val)}, set(jen.Add(v.val).Dot("AppendStr").Call(buf.Clone()))...)
	case ir.KindNone:
		// None prints without reading the value; Go still needs it read.
		return append([]jen.Code{jen.Id("_").Op("=").Add(v.val)}, set(jen.Append(buf.Clone(), jen.Lit("None").Op("...")))...)
	}
	if t.Kind == ir.KindDict && len(t.Fields) > 1 {
		// Printing reads every key, and a dict may be a literal to build once.
		d := e.bind(v, t)
		return append(d.pre, e.appendRepr(buf, d.val, t)...)
	}
	return e.appendRepr(buf, v.val, t)
}

// checkPrint fails the render at e.at where v, a dynamic value, is or
// holds a method, which Jinja2 prints with its address in memory.
func (e *emitter) checkPrint(v jen.Code) jen.Code {
	err := e.temp("err")
	return jen.If(jen.Id(err).Op(":=").Add(v).Dot("CheckPrint").Call(), jen.Id(err).Op("!=").Nil()).Block(jen.Return(dst, e.dynErr(jen.Id(err), e.at)))
}

// appendRepr appends Python's repr of a value, as used inside printed
// lists and dicts: strings quoted, maps in key order, structs in field
// order without unset optional fields.
func (e *emitter) appendRepr(buf *jen.Statement, v jen.Code, t *ir.Type) []jen.Code {
	t = t.Resolve()
	lit := func(s string) jen.Code { return buf.Clone().Op("=").Append(buf.Clone(), jen.Lit(s).Op("...")) }
	switch t.Kind {
	case ir.KindString:
		return []jen.Code{buf.Clone().Op("=").Qual(ir.JinjaPath, "AppendQuoted").Call(buf.Clone(), v)}
	case ir.KindDynamic:
		return []jen.Code{e.checkPrint(v), buf.Clone().Op("=").Add(v).Dot("AppendRepr").Call(buf.Clone())}
	case ir.KindList:
		i, x := e.temp("i"), e.temp("x")
		body := append([]jen.Code{jen.If(jen.Id(i).Op(">").Lit(0)).Block(lit(", "))}, e.appendRepr(buf, jen.Id(x), t.Elem)...)
		return []jen.Code{
			lit("["),
			jen.For(jen.List(jen.Id(i), jen.Id(x)).Op(":=").Range().Add(v)).Block(body...),
			lit("]"),
		}
	case ir.KindMap:
		i, k := e.temp("i"), e.temp("k")
		body := []jen.Code{jen.If(jen.Id(i).Op(">").Lit(0)).Block(lit(", "))}
		body = append(body, e.appendRepr(buf, jen.Id(k), &ir.Type{Kind: ir.KindString})...)
		body = append(body, lit(": "))
		body = append(body, e.appendRepr(buf, jen.Add(v).Index(jen.Id(k)), t.Elem)...)
		return []jen.Code{
			lit("{"),
			jen.For(jen.List(jen.Id(i), jen.Id(k)).Op(":=").Range().Qual(ir.JinjaPath, "SortedKeys").Call(v)).Block(body...),
			lit("}"),
		}
	case ir.KindStruct, ir.KindDict:
		if len(t.Fields) == 0 {
			return []jen.Code{jen.Id("_").Op("=").Add(v), lit("{}")} // still a use of v, for Go
		}
		sep := e.temp("sep")
		out := []jen.Code{lit("{"), jen.Id(sep).Op(":=").Lit("")}
		for _, f := range t.Fields {
			m := e.member(gval{val: v}, f)
			item := []jen.Code{
				buf.Clone().Op("=").Append(buf.Clone(), jen.Id(sep).Op("...")),
				buf.Clone().Op("=").Qual(ir.JinjaPath, "AppendQuoted").Call(buf.Clone(), jen.Lit(f.Key)),
				lit(": "),
			}
			item = append(item, e.appendRepr(buf, m.val, f.Type)...)
			item = append(item, jen.Id(sep).Op("=").Lit(", "))
			if m.def != nil {
				out = append(out, jen.If(m.def).Block(item...))
			} else {
				out = append(out, item...)
			}
		}
		return append(out, jen.Id("_").Op("=").Id(sep), lit("}"))
	}
	return e.appendValue(buf, gval{val: v}, t)
}

// appendLiteral appends Python's repr of an Inline list or dict literal:
// element by element, each with its own type, an undefined element as
// Undefined, dict keys in insertion order.
func (e *emitter) appendLiteral(buf *jen.Statement, x ir.Expr) []jen.Code {
	eval, print := e.literal(buf, x)
	return append(eval, print...)
}

// literal returns the statements that evaluate the elements of x, an
// Inline literal, and those that append its repr: Jinja2 makes the
// literal before it prints it, so an element that fails fails before an
// element before it that cannot be printed (a generator) does.
func (e *emitter) literal(buf *jen.Statement, x ir.Expr) (eval, print []jen.Code) {
	lit := func(s string) jen.Code { return buf.Clone().Op("=").Append(buf.Clone(), jen.Lit(s).Op("...")) }
	element := func(x ir.Expr) {
		if ir.IsInline(x) {
			ev, pr := e.literal(buf, x)
			eval, print = append(eval, ev...), append(print, pr...)
			return
		}
		v := e.expr(x)
		eval = append(eval, v.pre...)
		repr := e.appendRepr(buf, v.val, x.Type())
		if v.def != nil {
			repr = []jen.Code{jen.If(v.def).Block(repr...).Else().Block(lit("Undefined"))}
		}
		print = append(print, repr...)
	}
	switch x := x.(type) {
	case *ir.List:
		print = append(print, lit("["))
		for i, it := range x.Items {
			if i > 0 {
				print = append(print, lit(", "))
			}
			element(it)
		}
		print = append(print, lit("]"))
	case *ir.Dict:
		print = append(print, lit("{"))
		for i, f := range x.T.Fields { // its keys, also when it is dynamic
			if i > 0 {
				print = append(print, lit(", "))
			}
			if x.IntKeys != nil && x.IntKeys[i] {
				print = append(print, lit(f.Key+": "))
			} else {
				print = append(print, buf.Clone().Op("=").Qual(ir.JinjaPath, "AppendQuoted").Call(buf.Clone(), jen.Lit(f.Key)), lit(": "))
			}
			element(x.Values[i])
		}
		print = append(print, lit("}"))
	}
	return eval, print
}

// appendJSON appends the tojson filter's output for x to buf.
func (e *emitter) appendJSON(buf *jen.Statement, x *ir.Call) []jen.Code {
	v := e.strict(e.expr(x.X), x.Pos, ir.VarPath(x.X))
	if t := x.X.Type(); t.Kind == ir.KindDict && len(t.Fields) > 1 {
		v = e.bind(v, t) // as in appendValue
	}
	w := e.temp("w")
	indent, hasIndent := e.arg(x, 0)
	pre := append(v.pre, indent.pre...)
	writer := "NewJSONWriter"
	switch {
	case ir.ToJSONEnsureASCII(x.Args):
		writer = "NewTransformersASCIIJSONWriter"
	case e.p.Transformers:
		writer = "NewTransformersJSONWriter"
	}
	if !hasIndent {
		pre = append(pre, jen.Id(w).Op(":=").Qual(ir.JinjaPath, writer).Call(jen.Lit(0), jen.False()))
		return append(pre, e.writeJSON(buf, jen.Id(w), v.val, x.X.Type(), x.Pos)...)
	}
	// Only indentation can make the output much longer than the value.
	pre = append(pre, jen.Id(w).Op(":=").Qual(ir.JinjaPath, writer).Call(indent.val, jen.True()))
	pre = append(pre, e.writeJSON(buf, jen.Id(w), v.val, x.X.Type(), x.Pos)...)
	return append(pre, jen.If(jen.Id(w).Dot("TooLarge").Call()).Block(e.fail(x.Pos, "", "ErrTooLarge")))
}

// writeJSON writes v, of type t, with the JSON writer w; a dynamic value
// that JSON cannot hold fails the render at pos.
func (e *emitter) writeJSON(buf, w *jen.Statement, v jen.Code, t *ir.Type, pos string) []jen.Code {
	t = t.Resolve()
	call := func(method string, args ...jen.Code) jen.Code {
		return buf.Clone().Op("=").Add(w.Clone()).Dot(method).Call(append([]jen.Code{buf.Clone()}, args...)...)
	}
	switch t.Kind {
	case ir.KindString:
		return []jen.Code{call("String", v)}
	case ir.KindInt:
		return []jen.Code{call("Int", jen.Int64().Parens(v))}
	case ir.KindFloat:
		return []jen.Code{call("Float", v)}
	case ir.KindBool:
		return []jen.Code{call("Bool", v)}
	case ir.KindDynamic:
		b, err := e.temp("b"), e.temp("err")
		return []jen.Code{
			jen.List(jen.Id(b), jen.Id(err)).Op(":=").Add(w.Clone()).Dot("Value").Call(buf.Clone(), v),
			jen.If(jen.Id(err).Op("!=").Nil()).Block(jen.Return(dst, e.dynErr(jen.Id(err), pos))),
			buf.Clone().Op("=").Id(b),
		}
	case ir.KindList:
		x := e.temp("x")
		return []jen.Code{
			call("OpenArray"),
			jen.For(jen.List(jen.Id("_"), jen.Id(x)).Op(":=").Range().Add(v)).Block(e.writeJSON(buf, w, jen.Id(x), t.Elem, pos)...),
			call("CloseArray"),
		}
	case ir.KindMap:
		k := e.temp("k")
		body := append([]jen.Code{call("Key", jen.Id(k))}, e.writeJSON(buf, w, jen.Add(v).Index(jen.Id(k)), t.Elem, pos)...)
		return []jen.Code{
			call("OpenObject"),
			jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Qual(ir.JinjaPath, "SortedKeys").Call(v)).Block(body...),
			call("CloseObject"),
		}
	case ir.KindStruct, ir.KindDict:
		fields := append([]*ir.Field(nil), t.Fields...)
		if !e.p.Transformers { // transformers' tojson keeps the insertion order
			sort.Slice(fields, func(i, j int) bool { return fields[i].Key < fields[j].Key })
		}
		out := []jen.Code{call("OpenObject")}
		if len(fields) == 0 {
			out = append(out, jen.Id("_").Op("=").Add(v)) // still a use of v, for Go
		}
		for _, f := range fields {
			m := e.member(gval{val: v}, f)
			item := append([]jen.Code{call("Key", jen.Lit(f.Key))}, e.writeJSON(buf, w, m.val, f.Type, pos)...)
			if m.def != nil {
				out = append(out, jen.If(m.def).Block(item...))
			} else {
				out = append(out, item...)
			}
		}
		return append(out, call("CloseObject"))
	}
	// null is written without reading the value; Go still needs it read.
	return []jen.Code{jen.Id("_").Op("=").Add(v), call("Null")}
}

// DstName is the buffer that a body appends to and returns: the parameter
// of the function around the body, which the file's writer declares.
const DstName = "dst"

var dst = jen.Id(DstName)

func (e *emitter) print(x ir.Expr) []jen.Code {
	switch c := x.(type) {
	case *ir.CallFunc:
		return e.callFunc(c)
	case *ir.CallCaller:
		return e.callCaller(c)
	}
	// Print the operands of ~ and tojson straight into dst, with no
	// intermediate string.
	if b, ok := x.(*ir.Binary); ok && b.Op == "~" {
		return append(e.print(b.X), e.print(b.Y)...)
	}
	if d, ok := x.(*ir.Dynamic); ok && isDynPlus(d) {
		return e.printSum(d)
	}
	if c, ok := x.(*ir.Call); ok && c.Kind == ir.CallFilter && c.Name == "tojson" {
		return e.appendJSON(dst, c)
	}
	if ir.IsInline(x) {
		return e.appendLiteral(dst, x)
	}
	if c, ok := x.(*ir.Cond); ok {
		// Each branch prints with its own type, as in Python: the 0 of
		// "price if price else 0" is not widened to 0.0.
		cv := e.truthOf(c.Cond)
		stmt := jen.If(cv.val).Block(e.print(c.Then)...)
		if c.Else != nil {
			stmt = stmt.Else().Block(e.print(c.Else)...)
		}
		return append(cv.pre, stmt)
	}
	if b, ok := x.(*ir.Binary); ok && b.Value {
		// Each operand an and/or yields prints with its own type.
		return e.choose(b, func(leaf ir.Expr, v *gval) []jen.Code {
			if v == nil {
				return e.print(leaf)
			}
			return e.printValue(*v, leaf.Type())
		})
	}
	if c, ok := x.(*ir.Include); ok {
		return e.componentPrint(c)
	}
	return e.printValue(e.expr(x), x.Type())
}

func isDynPlus(x ir.Expr) bool {
	d, ok := x.(*ir.Dynamic)
	return ok && d.Op == ir.DynArith && d.Name == "+"
}

// printSum prints a chain of + on dynamic values (a + b + c, as chat
// templates build each message) with a jinja.Sum, which appends string
// operands straight to dst: no intermediate string per +. The operands
// are evaluated and added in Jinja2's order, each + failing at its own
// position, and the sum fails where Jinja2 prints an address.
func (e *emitter) printSum(x *ir.Dynamic) []jen.Code {
	var adds []*ir.Dynamic // innermost first
	for n := x; ; n = n.Args[0].(*ir.Dynamic) {
		adds = append([]*ir.Dynamic{n}, adds...)
		if !isDynPlus(n.Args[0]) {
			break
		}
	}
	sum, err := e.temp("sum"), e.temp("err")
	first := e.dynArg(adds[0].Args[0])
	out := append(first.pre,
		jen.Var().Id(sum).Qual(ir.JinjaPath, "Sum"),
		jen.Var().Id(err).Error(),
		dst.Clone().Op("=").Id(sum).Dot("Start").Call(dst, first.val))
	for _, n := range adds {
		v := e.dynArg(n.Args[1])
		out = append(out, v.pre...)
		out = append(out,
			jen.List(dst, jen.Id(err)).Op("=").Id(sum).Dot("Add").Call(dst, v.val),
			jen.If(jen.Id(err).Op("!=").Nil()).Block(jen.Return(dst, e.dynErr(jen.Id(err), n.Pos))))
	}
	return append(out,
		jen.List(dst, jen.Id(err)).Op("=").Id(sum).Dot("End").Call(dst),
		jen.If(jen.Id(err).Op("!=").Nil()).Block(jen.Return(dst, e.dynErr(jen.Id(err), e.at))))
}

// printValue prints v, a value of type t; undefined prints nothing.
func (e *emitter) printValue(v gval, t *ir.Type) []jen.Code {
	body := e.appendValue(dst, gval{val: v.val}, t)
	if v.def != nil {
		return append(v.pre, jen.If(v.def).Block(body...))
	}
	return append(v.pre, body...)
}

func (e *emitter) nodes(ns []ir.Node) []jen.Code {
	var out []jen.Code
	for _, n := range ns {
		out = append(out, e.node(n)...)
	}
	return out
}

func (e *emitter) node(n ir.Node) []jen.Code {
	switch n := n.(type) {
	case *ir.Text:
		return []jen.Code{dst.Clone().Op("=").Append(dst.Clone(), jen.Lit(n.Value).Op("..."))}
	case *ir.Print:
		defer e.within(n.Pos)()
		return e.print(n.X)
	case *ir.If:
		return e.ifChain(n.Branches, n.Else)
	case *ir.For:
		return e.forLoop(n)
	case *ir.Set:
		return e.set(n)
	case *ir.LoopControl:
		// No Go loop or switch stands between a node and its loop's for.
		if n.Break {
			return []jen.Code{jen.Break()}
		}
		return []jen.Code{jen.Continue()}
	case *ir.Raise:
		return e.raise(n)
	}
	return nil
}

// raise returns the statements that fail the render with ErrRaised and
// the message.
func (e *emitter) raise(n *ir.Raise) []jen.Code {
	v := e.defined(e.expr(n.Msg), n.Msg.Type())
	return append(v.pre, e.failDetail(n.Pos, "ErrRaised", v.val))
}

// ifChain emits if/elif/else. With elif branches, the ifs follow one
// another at one level, each after the first running only if none before
// it was taken (done), so that the Go code does not nest deeper with the
// number of branches: go/parser, which formats it, stops at 1000 nested
// scopes, and Jinja2 compiles chains of about 2,990.
func (e *emitter) ifChain(bs []ir.Branch, els []ir.Node) []jen.Code {
	if len(bs) == 0 {
		return e.nodes(els)
	}
	c := e.truthOf(bs[0].Cond)
	if len(bs) == 1 {
		stmt := jen.If(c.val).Block(e.assumeWhile(bs[0].Cond, func() []jen.Code { return e.nodes(bs[0].Body) })...)
		if rest := e.nodes(els); len(rest) > 0 {
			stmt = stmt.Else().Block(rest...)
		}
		return append(c.pre, stmt)
	}
	done := e.temp("done")
	out := []jen.Code{jen.Id(done).Op(":=").False()}
	for i, b := range bs {
		if i > 0 {
			c = e.truthOf(b.Cond)
		}
		body := e.assumeWhile(b.Cond, func() []jen.Code { return e.nodes(b.Body) })
		if i < len(bs)-1 || len(els) > 0 {
			body = append(body, jen.Id(done).Op("=").True())
		}
		branch := append(c.pre, jen.If(c.val).Block(body...))
		if i > 0 {
			branch = []jen.Code{jen.If(jen.Op("!").Id(done)).Block(branch...)}
		}
		out = append(out, branch...)
	}
	if rest := e.nodes(els); len(rest) > 0 {
		out = append(out, jen.If(jen.Op("!").Id(done)).Block(rest...))
	}
	return out
}

func (e *emitter) declare(locals []*ir.Local) []jen.Code {
	var out []jen.Code
	for _, l := range locals {
		if !e.read[l] {
			continue
		}
		t := GoType(l.T, false)
		if l.Shared {
			t = jen.Op("*").Add(t)
		}
		out = append(out, jen.Var().Id(l.GoName).Add(t))
		if l.MaybeUndefined {
			out = append(out, jen.Var().Id(l.GoName+"Def").Bool())
		}
	}
	return out
}

// capture runs a macro call's body, which appends to dst, and takes what
// it appended back out as the call's value.
func (e *emitter) capture(x *ir.Capture) gval {
	start, out := e.temp("start"), e.temp("macro")
	var pre []jen.Code
	if x.Defined != nil {
		pre = append(pre, jen.If(jen.Op("!").Add(e.expr(x.Defined).val)).Block(e.fail(x.Pos, x.Macro, "ErrUndefined")))
	}
	pre = append(append(pre, e.declare(x.Locals)...), jen.Id(start).Op(":=").Len(dst))
	pre = append(pre, e.nodes(x.Body)...)
	pre = append(pre,
		jen.Id(out).Op(":=").String().Parens(dst.Clone().Index(jen.Id(start), jen.Empty())),
		dst.Clone().Op("=").Add(dst).Index(jen.Empty(), jen.Id(start)))
	return gval{pre: pre, val: jen.Id(out)}
}

func (e *emitter) set(n *ir.Set) []jen.Code {
	l := n.Local
	if n.Value == nil {
		start := e.temp("start")
		out := []jen.Code{jen.Id(start).Op(":=").Len(dst)}
		out = append(out, e.nodes(n.Body)...)
		target := jen.Id("_")
		if e.read[l] {
			target = jen.Id(l.GoName)
		}
		body := jen.String().Parens(dst.Clone().Index(jen.Id(start), jen.Empty()))
		if l.T.Resolve().Kind == ir.KindDynamic {
			body = jen.Qual(ir.JinjaPath, "StringValue").Call(body)
		}
		out = append(out,
			target.Op("=").Add(body),
			dst.Clone().Op("=").Add(dst).Index(jen.Empty(), jen.Id(start)))
		if e.read[l] && l.MaybeUndefined { // another set of the name may leave it undefined
			out = append(out, jen.Id(l.GoName+"Def").Op("=").True())
		}
		return out
	}
	if r, ok := ir.Unstrict(n.Value).(*ir.LocalRef); ok && l.Shared && e.read[l] {
		return []jen.Code{jen.Id(l.GoName).Op("=").Id(r.L.GoName)} // the list both share
	}
	v := e.expr(n.Value)
	if !e.read[l] {
		return unused(n.Value, v) // evaluated for its errors only
	}
	switch {
	case l.T.Resolve().Kind == ir.KindDynamic:
		v = e.toDynamic(v, n.Value.Type())
	case !ir.SameKind(n.Value.Type(), l.T):
		v = e.strKeep(v, n.Value.Type())
	}
	out := v.pre
	if l.MaybeUndefined {
		out = append(out, jen.Id(l.GoName+"Def").Op("=").Add(orTrue(v.def)))
		if v.def != nil {
			return append(out, jen.If(v.def).Block(jen.Id(l.GoName).Op("=").Add(v.val)))
		}
	}
	if l.Shared { // a new list, behind a pointer of its own
		return append(out, jen.Id(l.GoName).Op("=").New(GoType(l.T, false)), jen.Op("*").Id(l.GoName).Op("=").Add(v.val))
	}
	return append(out, jen.Id(l.GoName).Op("=").Add(v.val))
}

// bindTarget declares loop target l with value x; a set in the body may
// make it undefined.
func bindTarget(l *ir.Local, x jen.Code) []jen.Code {
	s := []jen.Code{jen.Id(l.GoName).Op(":=").Add(x)}
	if l.MaybeUndefined {
		s = append(s, jen.Id(l.GoName+"Def").Op(":=").True())
	}
	return s
}

func (e *emitter) forLoop(n *ir.For) []jen.Code {
	it := n.Iter.Type()
	var v gval
	switch {
	case it.Kind == ir.KindDynamic: // dynIter evaluates it
	case n.Strict:
		v = e.strict(e.expr(n.Iter), n.Pos, ir.VarPath(n.Iter))
	default:
		v = e.defined(e.expr(n.Iter), it)
	}
	out := v.pre
	items := e.temp("items")
	var elem *ir.Type
	switch it.Kind {
	case ir.KindDynamic:
		if !n.Live { // which reads the local itself at each iteration
			out = append(out, e.dynIter(n, items)...)
		}
		elem = it
	case ir.KindString:
		out = append(out, jen.Id(items).Op(":=").Qual("strings", "Split").Call(v.val, jen.Lit("")))
		elem = &ir.Type{Kind: ir.KindString}
	case ir.KindMap:
		keys := jen.Qual(ir.JinjaPath, "SortedKeys").Call(v.val)
		if n.Dictsort != nil {
			cs := e.strict(e.expr(n.Dictsort[0]), n.Pos, ir.VarPath(n.Dictsort[0]))
			rev := e.strict(e.expr(n.Dictsort[1]), n.Pos, ir.VarPath(n.Dictsort[1]))
			out = append(append(out, cs.pre...), rev.pre...)
			keys = jen.Qual(ir.JinjaPath, "SortStrings").Call(keys, rev.val, cs.val)
		}
		out = append(out, jen.Id(items).Op(":=").Add(keys))
		elem = &ir.Type{Kind: ir.KindString}
	case ir.KindDict:
		// A dict literal iterates its keys in insertion order; its items
		// read the values from a map of them.
		keys := make([]jen.Code, len(it.Fields))
		for i, f := range it.Fields {
			keys[i] = jen.Lit(f.Key)
		}
		out = append(out, jen.Id(items).Op(":=").Index().String().Values(keys...))
		if n.Key != nil && (readLocals(n.Body, n.Filter)[n.Value] || readsNeighbour(n)) {
			// The literal is evaluated once; a value of a dict whose
			// values are of several types is a dynamic value.
			d, m := e.temp("d"), e.temp("m")
			vals := jen.Dict{}
			for _, f := range it.Fields {
				var val jen.Code = jen.Id(d).Dot(f.GoName)
				if n.Value.T.Resolve().Kind == ir.KindDynamic {
					val = e.toDynamic(gval{val: val}, f.Type).val
				}
				vals[jen.Lit(f.Key)] = val
			}
			out = append(out, jen.Id(d).Op(":=").Add(v.val), jen.Id(m).Op(":=").Map(jen.String()).Add(GoType(n.Value.T, false)).Values(vals))
			v.val = jen.Id(m)
		} else {
			out = append(out, jen.Id("_").Op("=").Add(v.val)) // still a use, for Go
		}
		elem = &ir.Type{Kind: ir.KindString}
	default:
		if !n.Live { // which reads the local itself at each iteration
			out = append(out, jen.Id(items).Op(":=").Add(v.val))
		}
		elem = it.Elem
	}
	// target binds, for one element, the loop variables that used reads.
	target := func(x jen.Code, used map[*ir.Local]bool) []jen.Code {
		var s []jen.Code
		if it.Kind == ir.KindDynamic && n.Key != nil {
			if used[n.Key] {
				s = append(s, bindTarget(n.Key, jen.Add(x).Index(jen.Lit(0)))...)
			}
			if used[n.Value] {
				s = append(s, bindTarget(n.Value, jen.Add(x).Index(jen.Lit(1)))...)
			}
			return s
		}
		if (it.Kind == ir.KindDynamic || elem.Resolve().Kind == ir.KindDynamic) && n.Unpack != nil {
			return e.dynUnpack(n, x, used)
		}
		if n.Key != nil {
			if used[n.Key] {
				s = append(s, bindTarget(n.Key, x)...)
			}
			if used[n.Value] {
				s = append(s, bindTarget(n.Value, jen.Add(v.val).Index(x))...)
			}
			return s
		}
		if n.Unpack != nil {
			// Python unpacks each element, used or not.
			s = append(s, jen.If(jen.Len(x).Op("!=").Lit(len(n.Unpack))).Block(e.fail(n.Pos, "", "ErrInvalid")))
			for i, l := range n.Unpack {
				if used[l] {
					s = append(s, bindTarget(l, jen.Add(x).Index(jen.Lit(i)))...)
				}
			}
			return s
		}
		if used[n.Value] {
			s = append(s, bindTarget(n.Value, x)...)
		}
		return s
	}
	if n.Filter != nil {
		kept, x := e.temp("kept"), e.temp("x")
		c := e.truthOf(n.Filter)
		body := append(target(jen.Id(x), readLocals(nil, n.Filter)), c.pre...)
		body = append(body, jen.If(c.val).Block(jen.Id(kept).Op("=").Append(jen.Id(kept), jen.Id(x))))
		elemType := GoType(elem, false)
		if it.Kind == ir.KindDynamic && n.Key != nil {
			elemType = jen.Index(jen.Lit(2)).Add(jinjaValue())
		}
		out = append(out,
			jen.Var().Id(kept).Index().Add(elemType),
			jen.For(jen.List(jen.Id("_"), jen.Id(x)).Op(":=").Range().Id(items)).Block(body...),
			jen.Id(items).Op("=").Id(kept),
		)
	}
	index, length := "_", e.temp("n")
	if n.Index != "" {
		index = e.temp("i")
	}
	e.loops[n] = [3]string{index, length, items}
	if n.Key != nil && it.Kind != ir.KindDynamic {
		e.loopMaps[n] = v.val
	}
	x := e.temp("x")
	used := readLocals(n.Body)
	for _, l := range append([]*ir.Local{n.Key, n.Value}, n.Unpack...) {
		if l != nil {
			e.read[l] = used[l] // not the filter's: a set in the body assigns the body's
		}
	}
	bind := target(jen.Id(x), used)
	// Stop a loop that makes the output too long before it exhausts memory.
	e.looped = true
	body := append(bind, jen.If(jen.Len(dst).Op("-").Id("start").Op(">").Qual(ir.RuntimePath, "MaxOutput")).Block(e.fail(n.Pos, "", "ErrTooLarge")))
	body = append(body, e.declare(n.Locals)...)
	body = append(body, e.nodes(n.Body)...)
	if n.Items {
		mark := jen.Op("*").Id("ends").Op("=").Append(jen.Op("*").Id("ends"), jen.Len(dst).Op("-").Id("start"))
		out = append(out, mark)
		if ir.FallsThrough(n.Body) {
			body = append(body, mark.Clone())
		}
	}
	// With loop controls, the else runs when no iteration ran to the end.
	done := ""
	if len(n.Else) > 0 && ir.HasLoopControl(n.Body, n) {
		done = e.temp("done")
		out = append(out, jen.Id(done).Op(":=").False())
		if ir.FallsThrough(n.Body) {
			body = append(body, jen.Id(done).Op("=").True())
		}
	}
	if n.Length != "" {
		out = append(out, jen.Id(length).Op(":=").Len(jen.Id(items)))
	}
	// Name only the index and element the body uses: Go rejects unused ones.
	var clause *jen.Statement
	switch {
	case n.Live:
		return e.liveLoop(n, out, body, index, x, done, len(bind) > 0)
	case len(bind) > 0:
		clause = jen.List(jen.Id(index), jen.Id(x)).Op(":=").Range()
	case index != "_":
		clause = jen.Id(index).Op(":=").Range()
	default:
		clause = jen.Range()
	}
	out = append(out, jen.For(clause.Id(items)).Block(body...))
	switch {
	case done != "":
		out = append(out, jen.If(jen.Op("!").Id(done)).Block(e.nodes(n.Else)...))
	case len(n.Else) > 0:
		out = append(out, jen.If(jen.Len(jen.Id(items)).Op("==").Lit(0)).Block(e.nodes(n.Else)...))
	}
	return []jen.Code{jen.Block(out...)}
}

// liveLoop ends forLoop for a Live loop n, given the statements before
// the loop (out) and its body: it takes item i while i is below the list's
// length at that moment, as Python's list iterator does, and binds it to
// x where bind. The else runs where no iteration ran (done, declared
// already where the body has loop controls).
func (e *emitter) liveLoop(n *ir.For, out, body []jen.Code, index, x, done string, bind bool) []jen.Code {
	if index == "_" {
		index = e.temp("i")
	}
	l := e.localList(ir.LiveList(n))
	items, dyn := l, n.Iter.Type().Kind == ir.KindDynamic
	var pre []jen.Code
	cond := jen.Id(index).Op("<").Len(items())
	if dyn { // a list value's items, as they are now
		cur := e.temp("items")
		items = func() *jen.Statement { return jen.Id(cur) }
		iter := jen.List(items(), jen.Id("_")).Op(":=").Add(l()).Dot("Iter").Call()
		if len(n.Else) > 0 && done == "" {
			out = append(out, iter.Clone())
		}
		pre = append(pre, iter, jen.If(jen.Id(index).Op(">=").Len(items())).Block(jen.Break()))
		cond = jen.Empty()
	}
	if len(n.Else) > 0 && done == "" {
		done = e.temp("done")
		out = append(out, jen.Id(done).Op(":=").Len(items()).Op(">").Lit(0))
	}
	if bind {
		pre = append(pre, jen.Id(x).Op(":=").Add(items()).Index(jen.Id(index)))
	}
	out = append(out, jen.For(jen.Id(index).Op(":=").Lit(0), cond, jen.Id(index).Op("++")).Block(append(pre, body...)...))
	if len(n.Else) > 0 {
		out = append(out, jen.If(jen.Op("!").Id(done)).Block(e.nodes(n.Else)...))
	}
	return []jen.Code{jen.Block(out...)}
}
