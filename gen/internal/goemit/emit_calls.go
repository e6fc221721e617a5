package goemit

import (
	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/ir"
)

func (e *emitter) filter(x *ir.Call) gval {
	xt := x.X.Type()
	switch x.Name {
	case "default":
		return e.defaultFilter(x)
	case "length":
		if xt.Kind == ir.KindStruct {
			return e.keyCount(e.expr(x.X), x.X)
		}
		v := e.defined(e.expr(x.X), xt)
		switch xt.Kind {
		case ir.KindString:
			return gval{pre: v.pre, val: jen.Qual("unicode/utf8", "RuneCountInString").Call(v.val)}
		case ir.KindDict:
			// Known from the keys; the value is still evaluated.
			return gval{pre: append(v.pre, jen.Id("_").Op("=").Add(v.val)), val: jen.Lit(len(xt.Fields))}
		}
		return gval{pre: v.pre, val: jen.Len(v.val)}
	case "first", "last":
		if _, ok := ir.Pulled(x.X); ok && x.Name == "first" {
			return e.pullFirst(x.X, x.Type())
		}
		v := e.defined(e.expr(x.X), xt) // first of undefined is undefined
		i := 0
		if x.Name == "last" {
			i = -1
		}
		fn := "Index"
		if xt.Kind == ir.KindString {
			fn = "IndexString"
		}
		val, ok := e.temp("v"), e.temp("ok")
		pre := append(v.pre, jen.List(jen.Id(val), jen.Id(ok)).Op(":=").Qual(ir.JinjaPath, fn).Call(v.val, jen.Lit(i)))
		return gval{pre: pre, val: jen.Id(val), def: jen.Id(ok)}
	case "tojson":
		buf := e.temp("b")
		pre := []jen.Code{jen.Var().Id(buf).Index().Byte()}
		pre = append(pre, e.appendJSON(jen.Id(buf), x)...)
		return gval{pre: pre, val: jen.String().Parens(jen.Id(buf))}
	case "join":
		return e.join(x)
	case "sort", "unique", "list":
		return e.listFilter(x)
	case "map":
		out := e.temp("l")
		pre := e.pull(x, func(it jen.Code) []jen.Code {
			return []jen.Code{jen.Id(out).Op("=").Append(jen.Id(out), it)}
		}, jen.Id(out).Op(":=").Add(GoType(x.T, false)).Values())
		return gval{pre: pre, val: jen.Id(out)}
	case "reverse":
		// Of a list that may be undefined, nothing; check rejects a string that may be.
		v := e.defined(e.expr(x.X), xt)
		fn := "Slice"
		if xt.Kind == ir.KindString {
			fn = "SliceString"
		}
		return gval{pre: v.pre, val: jen.Qual(ir.JinjaPath, fn).Call(v.val, jen.Lit(0), jen.Lit(0), jen.Lit(-1), jen.False(), jen.False())}
	case "int", "float":
		return e.numberFilter(x)
	}
	// The remaining filters take a string.
	var s gval
	if x.Name == "indent" {
		// Jinja2's indent appends "\n" to its operand, which undefined fails.
		s = e.str(e.strict(e.expr(x.X), x.Pos, ir.VarPath(x.X)), x.X.Type())
	} else if x.Name == "truncate" {
		s = e.strKeep(e.expr(x.X), x.X.Type()) // returns an undefined operand
	} else {
		s = e.strOf(x.X)
	}
	argPre, args, given := e.args(x)
	pre := append(s.pre, argPre...)
	var val jen.Code
	switch x.Name {
	case "string":
		val = s.val
	case "upper", "lower", "title", "capitalize":
		val = jen.Qual(ir.JinjaPath, map[string]string{"upper": "Upper", "lower": "Lower", "title": "Title", "capitalize": "Capitalize"}[x.Name]).Call(s.val)
	case "trim":
		val = e.strip(s.val, args[0], given[0], true, true)
	case "replace":
		count := jen.Code(jen.Lit(-1))
		if given[2] {
			count = args[2]
		}
		return e.checked(pre, jen.Qual(ir.JinjaPath, "Replace").Call(s.val, args[0], args[1], count), x.Pos)
	case "indent":
		width := args[0]
		if x.Args[0].Type().Kind == ir.KindInt {
			w := e.checked(pre, jen.Qual(ir.JinjaPath, "Repeat").Call(jen.Lit(" "), width), x.Pos)
			pre, width = w.pre, w.val
		}
		return e.checked(pre, jen.Qual(ir.JinjaPath, "Indent").Call(s.val, width, args[1], args[2]), x.Pos)
	case "truncate":
		err := e.temp("err")
		pre = append(pre, jen.If(jen.Id(err).Op(":=").Qual(ir.JinjaPath, "TruncateArgs").Call(args[0], args[2], args[3]), jen.Id(err).Op("!=").Nil()).Block(
			e.invalid(x.Pos, jen.Id(err).Dot("Error").Call())))
		if x.EscapeEnd {
			v := e.checked(pre, jen.Qual(ir.JinjaPath, "TruncateMarkup").Call(s.val, args[0], args[1], args[2], args[3]), x.Pos)
			v.def = s.def
			return v
		}
		return gval{pre: pre, val: jen.Qual(ir.JinjaPath, "Truncate").Call(s.val, args[0], args[1], args[2], args[3]), def: s.def}
	case "round":
		return e.round(x)
	}
	return gval{pre: pre, val: val}
}

func (e *emitter) strip(s, chars jen.Code, hasChars, left, right bool) jen.Code {
	if hasChars {
		return jen.Qual(ir.JinjaPath, "StripChars").Call(s, chars, jen.Lit(left), jen.Lit(right))
	}
	return jen.Qual(ir.JinjaPath, "StripSpace").Call(s, jen.Lit(left), jen.Lit(right))
}

func (e *emitter) defaultFilter(x *ir.Call) gval {
	v := e.expr(x.X)
	d, given := e.arg(x, 0)
	if !given {
		return e.defined(v, x.X.Type())
	}
	boolean := false
	if k, ok := x.Args[1].(*ir.Const); ok {
		boolean, _ = k.Value.(bool)
	}
	if v.def == nil && !boolean {
		// The default is not needed, but Go needs the variables it reads
		// to be used.
		v.pre = append(v.pre, unused(x.Args[0], e.expr(x.Args[0]))...)
		if !ir.SameKind(x.X.Type(), x.T) {
			return e.str(v, x.X.Type()) // the filter's type is string when the kinds differ
		}
		return v
	}
	same := ir.SameKind(x.X.Type(), x.Args[0].Type())
	t := e.temp("t")
	pre := append(v.pre, jen.Var().Id(t).Add(GoType(x.T, false)))
	use := v.def
	if boolean {
		use = e.truth(gval{val: v.val, def: v.def}, x.X.Type()).val
	}
	a := gval{val: v.val}
	if !same {
		a = e.str(a, x.X.Type())
		d = e.str(d, x.Args[0].Type())
	}
	// Jinja2 evaluates the default, which may fail, even where it is not
	// used.
	pre = append(pre, d.pre...)
	pre = append(pre, jen.If(use).Block(append(a.pre, jen.Id(t).Op("=").Add(a.val))...).Else().Block(jen.Id(t).Op("=").Add(d.val)))
	return gval{pre: pre, val: jen.Id(t)}
}

func (e *emitter) join(x *ir.Call) gval {
	if l, ok := x.X.(*ir.List); ok && l.Inline {
		// Each element is converted with its own type: [1, 2.0] joins as "1,2.0".
		var pre []jen.Code
		parts := make([]jen.Code, len(l.Items))
		for i, it := range l.Items {
			s := e.strOf(it)
			pre = append(pre, s.pre...)
			parts[i] = s.val
		}
		sep, _ := e.arg(x, 0)
		return e.joined(x, append(pre, sep.pre...), jen.Index().String().Values(parts...), sep.val)
	}
	v := e.defined(e.expr(x.X), x.X.Type())
	sep, _ := e.arg(x, 0)
	pre := append(v.pre, sep.pre...)
	elem := x.X.Type().Elem
	if x.Attr == nil && elem.Kind == ir.KindString {
		return e.joined(x, pre, v.val, sep.val)
	}
	parts, it := e.temp("parts"), e.temp("x")
	item := gval{val: jen.Id(it)}
	t := elem
	if x.Attr != nil {
		item = e.attribute(x, item)
		t = ir.AttrType(x.Attr)
	}
	s := e.str(item, t)
	body := append(s.pre, jen.Id(parts).Op("=").Append(jen.Id(parts), s.val))
	pre = append(pre,
		jen.Id(parts).Op(":=").Make(jen.Index().String(), jen.Lit(0), jen.Len(v.val)),
		jen.For(jen.List(jen.Id("_"), jen.Id(it)).Op(":=").Range().Add(v.val)).Block(body...),
	)
	return e.joined(x, pre, jen.Id(parts), sep.val)
}

// joined joins parts with sep. Only a separator that is not a constant can
// make the result much longer than the parts: that join is checked
// against runtime.MaxOutput.
func (e *emitter) joined(x *ir.Call, pre []jen.Code, parts, sep jen.Code) gval {
	if _, ok := x.Args[0].(*ir.Const); ok {
		return gval{pre: pre, val: jen.Qual("strings", "Join").Call(parts, sep)}
	}
	return e.checked(pre, jen.Qual(ir.JinjaPath, "Join").Call(parts, sep), x.Pos)
}

// member reads field f of a struct value; an unset optional field is
// undefined.
func (e *emitter) member(v gval, f *ir.Field) gval {
	acc := jen.Add(v.val).Dot(f.GoName)
	if !f.Optional {
		return gval{pre: v.pre, val: acc}
	}
	out := gval{pre: v.pre, val: acc, def: acc.Clone().Op("!=").Nil()}
	switch k := f.Type.Resolve().Kind; {
	case k == ir.KindDynamic:
		out.def = acc.Clone().Dot("Defined").Call() // a jinja.Value holds its undefined
	case ir.IsScalar(k):
		out.val = jen.Parens(jen.Op("*").Add(acc))
	case k == ir.KindList || k == ir.KindMap:
		out.nilIfUndefined = true
	}
	return out
}

// attribute reads the attribute= path of x from a list element. As in
// Jinja2, an unset optional object on the way fails the render, while an
// unset last field is undefined.
func (e *emitter) attribute(x *ir.Call, item gval) gval {
	v := item
	for i, f := range x.Attr {
		if i > 0 {
			v = e.strict(v, x.Pos, x.Attr[i-1].Key)
		}
		v = e.member(v, f)
	}
	return v
}

func (e *emitter) listFilter(x *ir.Call) gval {
	xt := x.X.Type()
	v := e.defined(e.expr(x.X), xt)
	pre := v.pre
	out := e.temp("l")
	switch x.Name {
	case "list":
		switch xt.Kind {
		case ir.KindString:
			return gval{pre: pre, val: jen.Qual("strings", "Split").Call(v.val, jen.Lit(""))}
		case ir.KindMap:
			return gval{pre: pre, val: jen.Qual(ir.JinjaPath, "SortedKeys").Call(v.val)}
		case ir.KindDict:
			keys := make([]jen.Code, len(xt.Fields))
			for i, f := range xt.Fields {
				keys[i] = jen.Lit(f.Key)
			}
			return gval{pre: append(pre, jen.Id("_").Op("=").Add(v.val)), val: jen.Index().String().Values(keys...)}
		}
		return gval{pre: pre, val: jen.Qual("slices", "Clone").Call(v.val)}
	}
	var flags []jen.Code
	for i := 0; i < len(x.Args)-1; i++ {
		a, _ := e.arg(x, i)
		pre = append(pre, a.pre...)
		flags = append(flags, a.val)
	}
	elem := xt.Elem
	if x.Attr == nil && elem.Kind == ir.KindString {
		if x.Name == "sort" {
			return gval{pre: pre, val: jen.Qual(ir.JinjaPath, "SortStrings").Call(append([]jen.Code{v.val}, flags...)...)}
		}
		return gval{pre: pre, val: jen.Qual(ir.JinjaPath, "UniqueStrings").Call(append([]jen.Code{v.val}, flags...)...)}
	}
	a, b := e.temp("a"), e.temp("b")
	caseSensitive := x.Args[ir.ParamIndex(ir.FilterParams[x.Name], "case_sensitive")]
	// key is what an element is compared by: a string lower-cased unless
	// case_sensitive, as Jinja2's ignore_case does. Sort's key is computed
	// in a comparison func, which cannot fail the render: check rejects
	// optional objects on its attribute= path.
	key := func(id string) (gval, *ir.Type) {
		k, t := gval{val: jen.Id(id)}, elem
		if x.Attr != nil {
			k, t = e.attribute(x, k), ir.AttrType(x.Attr)
		}
		if t.Kind != ir.KindString {
			return k, t
		}
		if c, ok := caseSensitive.(*ir.Const); ok {
			if c.Value != true {
				k.val = jen.Qual(ir.JinjaPath, "Lower").Call(k.val)
			}
			return k, t
		}
		k.val = jen.Qual(ir.JinjaPath, "CaseKey").Call(k.val, flags[len(flags)-1])
		return k, t
	}
	if x.Name == "unique" {
		seen := e.temp("seen")
		it := e.temp("x")
		ki, kt := key(it)
		pre = append(pre,
			jen.Var().Id(out).Add(GoType(xt, false)),
			jen.Id(seen).Op(":=").Map(GoType(kt, false)).Bool().Values(),
			jen.For(jen.List(jen.Id("_"), jen.Id(it)).Op(":=").Range().Add(v.val)).Block(append(ki.pre,
				jen.If(jen.Op("!").Id(seen).Index(ki.val)).Block(
					jen.Id(seen).Index(ki.val).Op("=").True(),
					jen.Id(out).Op("=").Append(jen.Id(out), jen.Id(it)),
				),
			)...),
		)
		return gval{pre: pre, val: jen.Id(out)}
	}
	ka, kt := key(a)
	kb, _ := key(b)
	if ka.def != nil {
		// Python compares every item of a list of two or more, and an
		// unset field (undefined) does not compare: Jinja2 raises.
		it := e.temp("x")
		ki, _ := key(it)
		pre = append(pre, jen.If(jen.Len(v.val).Op(">").Lit(1)).Block(
			jen.For(jen.List(jen.Id("_"), jen.Id(it)).Op(":=").Range().Add(v.val)).Block(
				append(ki.pre, jen.If(jen.Op("!").Parens(ki.def)).Block(e.fail(x.Pos, ir.AttrPath(x.Attr), "ErrUndefined")))...)))
	}
	cmpCall := jen.Qual("cmp", "Compare").Call(ka.val, kb.val)
	if kt.Kind == ir.KindBool {
		cmpCall = jen.Qual(ir.JinjaPath, "CompareBools").Call(ka.val, kb.val)
	}
	compare := append(append(ka.pre, kb.pre...),
		jen.If(flags[0]).Block(jen.Return(jen.Op("-").Add(cmpCall))),
		jen.Return(cmpCall),
	)
	pre = append(pre,
		jen.Id(out).Op(":=").Qual("slices", "Clone").Call(v.val),
		jen.Qual("slices", "SortStableFunc").Call(jen.Id(out), jen.Func().Params(jen.List(jen.Id(a), jen.Id(b)).Add(GoType(elem, false))).Int().Block(compare...)),
	)
	return gval{pre: pre, val: jen.Id(out)}
}

func (e *emitter) numberFilter(x *ir.Call) gval {
	xt := x.X.Type()
	v := e.strict(e.expr(x.X), x.Pos, ir.VarPath(x.X)) // int(Undefined) raises
	d, _ := e.arg(x, 0)
	pre := append(v.pre, d.pre...)
	var conv jen.Code
	if x.Name == "int" {
		base, _ := e.arg(x, 1)
		pre = append(pre, base.pre...)
		switch xt.Kind {
		case ir.KindString, ir.KindFloat:
			call := jen.Qual(ir.JinjaPath, "FloatToInt").Call(v.val, jen.Int64().Parens(d.val))
			if xt.Kind == ir.KindString {
				call = jen.Qual(ir.JinjaPath, "ParseInt").Call(v.val, jen.Int64().Parens(d.val), base.val)
			}
			n := e.fallible(pre, call, x.Pos) // OverflowError, or an int beyond 64 bits
			return gval{pre: n.pre, val: jen.Int().Parens(n.val)}
		case ir.KindBool:
			conv = boolInt(v.val)
		default:
			conv = v.val
		}
	} else {
		switch xt.Kind {
		case ir.KindString:
			conv = jen.Qual(ir.JinjaPath, "ParseFloat").Call(v.val, jen.Float64().Parens(d.val))
		case ir.KindBool:
			conv = jen.Func().Params().Float64().Block(jen.If(v.val).Block(jen.Return(jen.Lit(1.0))), jen.Return(jen.Lit(0.0))).Call()
		default:
			conv = jen.Float64().Parens(v.val)
		}
	}
	return gval{pre: pre, val: conv}
}

func (e *emitter) round(x *ir.Call) gval {
	v := e.strict(e.expr(x.X), x.Pos, ir.VarPath(x.X))
	p, _ := e.arg(x, 0)
	m, _ := e.arg(x, 1)
	pre := append(append(v.pre, p.pre...), m.pre...)
	if x.T.Kind == ir.KindInt {
		n := e.fallible(pre, jen.Qual(ir.JinjaPath, "RoundInt").Call(jen.Int64().Parens(v.val), p.val), x.Pos)
		return gval{pre: n.pre, val: jen.Int().Parens(n.val)}
	}
	return e.fallible(pre, jen.Qual(ir.JinjaPath, "Round").Call(num(v.val, x.X.Type(), true), p.val, m.val), x.Pos)
}

func (e *emitter) method(x *ir.Call) gval {
	s := e.strict(e.expr(x.X), x.Pos, ir.VarPath(x.X))
	argPre, args, given := e.args(x)
	pre := append(s.pre, argPre...)
	var val jen.Code
	switch x.Name {
	case "strip", "lstrip", "rstrip":
		val = e.strip(s.val, args[0], given[0], x.Name != "rstrip", x.Name != "lstrip")
	case "upper", "lower", "capitalize":
		val = jen.Qual(ir.JinjaPath, map[string]string{"upper": "Upper", "lower": "Lower", "capitalize": "Capitalize"}[x.Name]).Call(s.val)
	case "title":
		val = jen.Qual(ir.JinjaPath, "PyTitle").Call(s.val)
	case "startswith":
		val = jen.Qual("strings", "HasPrefix").Call(s.val, args[0])
	case "endswith":
		val = jen.Qual("strings", "HasSuffix").Call(s.val, args[0])
	case "replace":
		return e.checked(pre, jen.Qual(ir.JinjaPath, "Replace").Call(s.val, args[0], args[1], args[2]), x.Pos)
	case "split":
		sep := args[0]
		if !given[0] {
			sep = jen.Lit("")
		}
		return e.fallible(pre, jen.Qual(ir.JinjaPath, "Split").Call(s.val, sep, jen.Lit(given[0]), args[1]), x.Pos)
	case "find", "rfind", "count":
		name := map[string]string{"find": "Find", "rfind": "RFind", "count": "Count"}[x.Name]
		val = jen.Qual(ir.JinjaPath, name).Call(append([]jen.Code{s.val}, searchArgs(args, given)...)...)
	case "index", "rindex":
		name := map[string]string{"index": "StrIndex", "rindex": "StrRIndex"}[x.Name]
		return e.atFallible(pre, jen.Qual(ir.JinjaPath, name).Call(append([]jen.Code{s.val}, searchArgs(args, given)...)...), x.Pos)
	case "zfill":
		return e.atFallible(pre, jen.Qual(ir.JinjaPath, "ZFill").Call(s.val, args[0]), x.Pos)
	case "ljust", "rjust", "center":
		return e.atFallible(pre, jen.Qual(ir.JinjaPath, "Justify").Call(s.val, args[0], args[1], jen.LitRune(rune(x.Name[0]))), x.Pos)
	case "partition", "rpartition":
		return e.atFallible(pre, jen.Qual(ir.JinjaPath, "Partition").Call(s.val, args[0], jen.Lit(x.Name == "rpartition")), x.Pos)
	case "swapcase":
		val = jen.Qual(ir.JinjaPath, "SwapCase").Call(s.val)
	case "splitlines":
		val = jen.Qual(ir.JinjaPath, "SplitLines").Call(s.val, args[0])
	}
	return gval{pre: pre, val: val}
}

// searchArgs are the arguments of jinja.Find and the like for those of
// str.find: sub, then start and end as far as given (a start not given
// before a given end is 0, as Python's None is).
func searchArgs(args []jen.Code, given []bool) []jen.Code {
	switch {
	case given[2]:
		if !given[1] {
			args[1] = jen.Lit(0)
		}
		return args
	case given[1]:
		return args[:2]
	}
	return args[:1]
}

// atFallible binds the results of call, a value and an error, failing the
// render with the error at pos (see jinja.At).
func (e *emitter) atFallible(pre []jen.Code, call jen.Code, pos string) gval {
	return e.dynFallible(pre, call, pos, func(v jen.Code) gval { return gval{val: v} })
}

// args compiles every argument of x: their statements, values, and
// whether each was given.
func (e *emitter) args(x *ir.Call) (pre []jen.Code, vals []jen.Code, given []bool) {
	vals = make([]jen.Code, len(x.Args))
	given = make([]bool, len(x.Args))
	for i := range x.Args {
		a, ok := e.arg(x, i)
		pre = append(pre, a.pre...)
		vals[i], given[i] = a.val, ok
	}
	return pre, vals, given
}
