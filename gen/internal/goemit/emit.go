package goemit

import (
	"fmt"
	"math"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// gval is a compiled expression: statements to run first, the value, and
// (for values that may be undefined) a bool expression saying whether it
// is defined.
type gval struct {
	pre []jen.Code
	val jen.Code
	def jen.Code
	// nilIfUndefined: def is val != nil, a list or map field's, which
	// len(val) > 0 implies.
	nilIfUndefined bool
}

// emitter writes one prompt's renderer.
type emitter struct {
	p     *ir.Prompt
	tmp   int
	read  map[*ir.Local]bool
	loops map[*ir.For][3]string // Go names of a loop's index, length and items
	// loopMaps holds the map or dict of a loop over its values or items,
	// where loop.previtem or loop.nextitem looks up the key's value.
	loopMaps map[*ir.For]jen.Code
	// assumed counts the conditions (Go source) that an enclosing if makes
	// true where the code being emitted runs: the definedness of the
	// feed's fields it tested, which no statement changes.
	assumed map[string]int
	// inFunc is set while a function's body is emitted, whose depth
	// parameter counts the macro frames open; calls is the Go local that
	// counts the calls of functions.
	inFunc bool
	calls  string
	// looped is set once a loop compares the output's length with start,
	// the length of dst before the render (a name no local or temporary
	// takes: theirs end in _N).
	looped bool
	// at is the position of the print or expression being compiled,
	// where printing a dynamic value that is a method fails.
	at string
}

func (e *emitter) temp(prefix string) string {
	e.tmp++
	return fmt.Sprintf("%s_%d", prefix, e.tmp)
}

// within makes pos the position of what is compiled, e.at, until the
// function it returns is called.
func (e *emitter) within(pos string) func() {
	outer := e.at
	e.at = pos
	return func() { e.at = outer }
}

// fail returns the statement that aborts rendering with a runtime.Error.
func (e *emitter) fail(pos, variable, sentinel string) jen.Code {
	return jen.Return(jen.Id("dst"), FailCall(e.p.Key, pos, sentinel, variable))
}

// FailCall is the call of runtime.Fail that makes the runtime.Error of
// prompt key at pos with sentinel, about variable (or "").
func FailCall(key, pos, sentinel, variable string) *jen.Statement {
	return jen.Qual(ir.RuntimePath, "Fail").Call(jen.Lit(key), jen.Lit(pos), jen.Qual(ir.RuntimePath, sentinel), jen.Lit(variable))
}

// negativeExponent is the detail of the error of an int to a negative
// int power at run time, as runtime/ttfuncs words it.
const NegativeExponent = "an int to a negative int power is a float (make the base a float, such as 2.0)"

// invalid returns the statement that aborts rendering with ErrInvalid and
// detail, a string.
func (e *emitter) invalid(pos string, detail jen.Code) jen.Code {
	return e.failDetail(pos, "ErrInvalid", detail)
}

// failDetail returns the statement that aborts rendering with sentinel and
// detail, a string.
func (e *emitter) failDetail(pos, sentinel string, detail jen.Code) jen.Code {
	return jen.Return(jen.Id("dst"), jen.Qual(ir.RuntimePath, "FailDetail").Call(jen.Lit(e.p.Key), jen.Lit(pos), jen.Qual(ir.RuntimePath, sentinel), detail))
}

// checked binds the results of call, a value and an ok bool, failing the
// render with ErrTooLarge when ok is false: the value would be longer than
// runtime.MaxOutput.
func (e *emitter) checked(pre []jen.Code, call jen.Code, pos string) gval {
	v, ok := e.temp("v"), e.temp("ok")
	pre = append(pre,
		jen.List(jen.Id(v), jen.Id(ok)).Op(":=").Add(call),
		jen.If(jen.Op("!").Id(ok)).Block(e.fail(pos, "", "ErrTooLarge")))
	return gval{pre: pre, val: jen.Id(v)}
}

// fallible binds the results of call, a value and an error, failing the
// render with ErrInvalid and the error's text when there is one.
func (e *emitter) fallible(pre []jen.Code, call jen.Code, pos string) gval {
	v, err := e.temp("v"), e.temp("err")
	pre = append(pre,
		jen.List(jen.Id(v), jen.Id(err)).Op(":=").Add(call),
		jen.If(jen.Id(err).Op("!=").Nil()).Block(e.invalid(pos, jen.Id(err).Dot("Error").Call())))
	return gval{pre: pre, val: jen.Id(v)}
}

// GoType is the Go type of a value of t; optional fields of scalar and
// struct types are pointers.
func GoType(t *ir.Type, optional bool) *jen.Statement {
	var s *jen.Statement
	switch t = t.Resolve(); t.Kind {
	case ir.KindString:
		s = jen.String()
	case ir.KindInt:
		s = jen.Int()
	case ir.KindFloat:
		s = jen.Float64()
	case ir.KindBool:
		s = jen.Bool()
	case ir.KindList:
		return jen.Index().Add(GoType(t.Elem, false))
	case ir.KindMap:
		return jen.Map(jen.String()).Add(GoType(t.Elem, false))
	case ir.KindStruct:
		s = jen.Id(t.Name)
		if t.Go != nil {
			s = jen.Qual(t.Go.Path, t.Go.Name)
		}
	case ir.KindDict:
		return jen.StructFunc(func(g *jen.Group) {
			for _, f := range t.Fields {
				g.Id(f.GoName).Add(GoType(f.Type, false))
			}
		})
	case ir.KindDynamic:
		return jinjaValue()
	case ir.KindImage:
		s = jen.Qual(ir.RuntimePath, "Image")
	default:
		s = jen.Any()
	}
	if optional {
		return jen.Op("*").Add(s)
	}
	return s
}

// strict returns v's value, aborting the render when v is undefined, as
// Jinja2 does for attribute access, arithmetic and ordering.
func (e *emitter) strict(v gval, pos, name string) gval {
	if v.def == nil || e.isAssumed(v.def) {
		return gval{pre: v.pre, val: v.val}
	}
	pre := append(v.pre, jen.If(jen.Op("!").Parens(v.def)).Block(e.fail(pos, name, "ErrUndefined")))
	return gval{pre: pre, val: v.val}
}

// isAssumed reports whether an enclosing if made cond true.
func (e *emitter) isAssumed(cond jen.Code) bool {
	return len(e.assumed) > 0 && e.assumed[codeKey(cond)] > 0
}

// codeKey returns c as jennifer writes it, unformatted: the same for the
// same code, at a fraction of the cost of gofmt'ing it.
func codeKey(c jen.Code) string {
	f := jen.NewFile("k")
	f.NoFormat = true
	f.Add(c)
	var b strings.Builder
	if err := f.Render(&b); err != nil {
		panic(err) // as jen.Statement's GoString: emit writes code that renders
	}
	return b.String()
}

// assumeWhile emits the statements of body where cond, an if's condition,
// holds: the feed's fields that cond being true shows defined are not
// tested again there.
func (e *emitter) assumeWhile(cond ir.Expr, body func() []jen.Code) []jen.Code {
	var facts []string
	ir.DefinedWhenTrue(cond, func(x *ir.FieldRef) {
		if v := e.field(x); v.def != nil {
			facts = append(facts, codeKey(v.def))
		}
	})
	if e.assumed == nil {
		e.assumed = map[string]int{}
	}
	for _, f := range facts {
		e.assumed[f]++
	}
	out := body()
	for _, f := range facts {
		e.assumed[f]--
	}
	return out
}

// bind stores v in a temporary so it is evaluated once.
func (e *emitter) bind(v gval, t *ir.Type) gval {
	name := e.temp("t")
	pre := append(v.pre, jen.Id(name).Op(":=").Add(v.val))
	return gval{pre: pre, val: jen.Id(name), def: v.def}
}

func (e *emitter) expr(x ir.Expr) gval {
	if pos := ir.PosOf(x); pos != "" {
		defer e.within(pos)()
	}
	v := e.typedExpr(x)
	if v.def != nil && x.Type().Kind == ir.KindDynamic {
		// A dynamic value read where it may be undefined (an index out of
		// range of a list of them) holds its undefined itself.
		name := e.temp("t")
		v.pre = append(v.pre, jen.Var().Id(name).Add(jinjaValue()), jen.If(v.def).Block(jen.Id(name).Op("=").Add(v.val)))
		return gval{pre: v.pre, val: jen.Id(name)}
	}
	return v
}

func (e *emitter) typedExpr(x ir.Expr) gval {
	switch x := x.(type) {
	case *ir.Dynamic:
		return e.dynamic(x)
	case *ir.FieldRef:
		return e.field(x)
	case *ir.LocalRef:
		v := gval{val: e.localList(x.L)()}
		if x.L.MaybeUndefined {
			v.def = jen.Id(x.L.GoName + "Def")
		}
		return v
	case *ir.LoopAttr:
		names := e.loops[x.For]
		i, n := jen.Id(names[0]), jen.Id(names[1])
		switch x.Attr {
		case "index":
			return gval{val: i.Clone().Op("+").Lit(1)}
		case "index0":
			return gval{val: i}
		case "first":
			return gval{val: i.Clone().Op("==").Lit(0)}
		case "last":
			return gval{val: i.Clone().Op("==").Add(n).Op("-").Lit(1)}
		case "length":
			return gval{val: n}
		case "revindex":
			return gval{val: n.Clone().Op("-").Add(i)}
		case "revindex0":
			return gval{val: n.Clone().Op("-").Add(i).Op("-").Lit(1)}
		case "previtem", "nextitem":
			at := i.Clone().Op("+").Lit(1)
			if x.Attr == "previtem" {
				at = i.Clone().Op("-").Lit(1)
			}
			v, ok := e.temp("v"), e.temp("ok")
			item := jen.List(jen.Id(v), jen.Id(ok)).Op(":=").Qual(ir.JinjaPath, "LoopItem").Call(jen.Id(names[2]), at)
			tuple := func(a, b jen.Code) *jen.Statement { return jen.Qual(ir.JinjaPath, "TupleValue").Call(a, b) }
			switch m, byKey := e.loopMaps[x.For]; {
			case byKey && x.For.Values: // the item is the key of the value
				return gval{pre: []jen.Code{item}, val: jen.Add(m).Index(jen.Id(v)), def: jen.Id(ok)}
			case byKey: // the (key, value) tuple of a map's or dict's key
				val := e.toDynamic(gval{val: jen.Add(m).Index(jen.Id(v))}, x.For.Value.T)
				key := jen.Qual(ir.JinjaPath, "StringValue").Call(jen.Id(v))
				return gval{pre: append([]jen.Code{item}, val.pre...), val: tuple(key, val.val), def: jen.Id(ok)}
			case x.For.Key != nil: // a dynamic value's (key, value) pair
				return gval{pre: []jen.Code{item}, val: tuple(jen.Id(v).Index(jen.Lit(0)), jen.Id(v).Index(jen.Lit(1))), def: jen.Id(ok)}
			}
			return gval{pre: []jen.Code{item}, val: jen.Id(v), def: jen.Id(ok)}
		}
	case *ir.Select:
		return e.selectItems(x)
	case *ir.MapFilter:
		return e.mapItems(x)
	case *ir.LoopCycle:
		var pre []jen.Code
		vals := make([]jen.Code, len(x.Args))
		for i, a := range x.Args {
			v := e.expr(a) // the checker rejects a value that may be undefined
			if x.T.Resolve().Kind == ir.KindDynamic {
				v = e.toDynamic(v, a.Type()) // a typed value among dynamic ones (seed 202 case 9319)
			}
			pre, vals[i] = append(pre, v.pre...), v.val
		}
		at := jen.Id(e.loops[x.For][0]).Op("%").Lit(len(x.Args))
		return gval{pre: pre, val: jen.Index().Add(GoType(x.T, false)).Values(vals...).Index(at)}
	case *ir.Const:
		return gval{val: constCode(x)}
	case *ir.List:
		if x.Type().Kind == ir.KindDynamic {
			return e.dynComposite(nil, nil, x.Items)
		}
		return e.composite(x.T, x.Items)
	case *ir.Dict:
		if x.Type().Kind == ir.KindDynamic {
			keys := make([]string, len(x.T.Fields))
			for i, f := range x.T.Fields {
				keys[i] = f.Key
			}
			return e.dynComposite(keys, x.IntKeys, x.Values)
		}
		if x.Type().Kind == ir.KindStruct { // {} of an object: its zero value
			return gval{val: jen.Parens(GoType(x.T, false).Values())}
		}
		return e.composite(x.T, x.Values)
	case *ir.DictValue:
		v := e.strict(e.expr(x.Of), x.Pos, ir.VarPath(x.Of))
		return gval{pre: v.pre, val: jen.Add(v.val).Dot(x.Field.GoName)}
	case *ir.Index:
		return e.index(x)
	case *ir.Slice:
		return e.slice(x)
	case *ir.Unary:
		if x.Op == "not" {
			v := e.truthOf(x.X)
			return gval{pre: v.pre, val: jen.Op("!").Parens(v.val)}
		}
		v := e.strict(e.expr(x.X), x.Pos, ir.VarPath(x.X))
		switch {
		case x.Op == "-" && x.T.Resolve().Kind == ir.KindFloat:
			return gval{pre: v.pre, val: jen.Qual(ir.JinjaPath, "Neg").Call(v.val)}
		case x.Op == "-":
			return e.intOp(v.pre, "NegInt", x.Pos, v.val)
		}
		return v
	case *ir.Binary:
		return e.binary(x)
	case *ir.Cond:
		return e.cond(x)
	case *ir.Include:
		return e.componentValue(x)
	case *ir.Capture:
		return e.capture(x)
	case *ir.Strict:
		v := e.expr(x.X)
		if x.X.Type().Kind == ir.KindDynamic {
			// A dynamic value holds its undefined.
			t := e.temp("v")
			pre := append(v.pre, jen.Id(t).Op(":=").Add(v.val), jen.If(jen.Op("!").Id(t).Dot("Defined").Call()).Block(e.fail(x.Pos, ir.VarPath(x.X), "ErrUndefined")))
			return gval{pre: pre, val: jen.Id(t)}
		}
		return e.strict(v, x.Pos, ir.VarPath(x.X))
	case *ir.Strftime:
		v := e.strict(e.expr(x.Format), x.Pos, ir.VarPath(x.Format)) // Python's strftime takes no Undefined
		now := jen.Qual(ir.RuntimePath, "RenderNow").Call(jen.Id("opts"))
		return e.fallible(v.pre, jen.Qual(ir.JinjaPath, "Strftime").Call(now, v.val), x.Pos)
	case *ir.Range:
		var pre []jen.Code
		args := make([]jen.Code, 3)
		for i, a := range []ir.Expr{x.Start, x.Stop, x.Step} {
			v := e.strict(e.expr(a), x.Pos, ir.VarPath(a)) // Python's range takes no Undefined
			pre, args[i] = append(pre, v.pre...), v.val
		}
		return e.fallible(pre, jen.Qual(ir.JinjaPath, "Range").Call(args...), x.Pos)
	case *ir.Call:
		switch x.Kind {
		case ir.CallFilter:
			return e.filter(x)
		case ir.CallTest:
			return e.test(x)
		case ir.CallGoFilter:
			return e.goFilter(x)
		case ir.CallListMethod:
			return e.listMethod(x)
		}
		return e.method(x)
	}
	panic(fmt.Sprintf("emit: unexpected expression %T", x))
}

// composite builds a typed list or dict literal as a Go value of type t:
// an element whose slot is dynamic (a list of dynamic values, a dict value
// unified with one) is converted to a dynamic value. The checker rejects
// elements that may be undefined (beside an index out of range) there.
func (e *emitter) composite(t *ir.Type, elems []ir.Expr) gval {
	rt := t.Resolve()
	slots := make([]*ir.Type, len(elems))
	for i := range slots {
		if rt.Kind == ir.KindList {
			slots[i] = rt.Elem
		} else {
			slots[i] = rt.Fields[i].Type
		}
	}
	pre, vals := e.elements(elems, slots)
	return gval{pre: pre, val: GoType(t, false).Values(vals...)}
}

// elements compiles the elements of a list or dict literal, each converted
// to a dynamic value where its slot is dynamic (every one when slots is
// nil): the statements to run first and the values. In a typed literal an
// element out of range fails the render (see ir.OutOfRange); a dynamic one
// (slots nil, or a tuple), or a dynamic slot, holds it as Jinja2's
// Undefined.
func (e *emitter) elements(elems []ir.Expr, slots []*ir.Type) (pre, vals []jen.Code) {
	vals = make([]jen.Code, len(elems))
	for i, x := range elems {
		v := e.expr(x)
		if pos := ir.OutOfRange(x); pos != "" && slots != nil && slots[i].Resolve().Kind != ir.KindDynamic {
			v = e.strict(v, pos, "")
		}
		if slots == nil || slots[i].Resolve().Kind == ir.KindDynamic {
			v = e.toDynamic(v, x.Type())
		} else {
			v = e.defined(v, x.Type())
		}
		pre = append(pre, v.pre...)
		vals[i] = v.val
	}
	return pre, vals
}

func constCode(x *ir.Const) jen.Code {
	switch v := x.Value.(type) {
	case string:
		return jen.Lit(v)
	case int64:
		return jen.Lit(int(v))
	case float64:
		if math.IsInf(v, 0) { // 1e400 is inf in Python
			return jen.Qual("math", "Inf").Call(jen.Lit(int(math.Copysign(1, v))))
		}
		return jen.Qual(ir.JinjaPath, "Float").Call(jen.Lit(v))
	case bool:
		return jen.Lit(v)
	}
	return jen.Any().Parens(jen.Nil()) // typed, so that _ = any(nil) compiles
}

func (e *emitter) field(x *ir.FieldRef) gval {
	var base gval
	if x.Of == nil {
		base = gval{val: jen.Id("f")}
	} else {
		base = e.strict(e.expr(x.Of), x.Pos, ir.VarPath(x.Of))
	}
	acc := jen.Add(base.val).Dot(x.Field.GoName)
	t := x.Field.Type.Resolve()
	if t.Kind == ir.KindDynamic {
		if x.Field.NoneIfUnset {
			return gval{pre: base.pre, val: acc.Dot("Default").Call(jen.Qual(ir.JinjaPath, "NoneValue").Call(), jen.False())}
		}
		return gval{pre: base.pre, val: acc}
	}
	if x.Field.Optional {
		v := gval{pre: base.pre, val: acc, def: acc.Clone().Op("!=").Nil()}
		if ir.IsPointerKind(t) {
			v.val = jen.Parens(jen.Op("*").Add(acc))
		} else {
			v.nilIfUndefined = t.Kind == ir.KindList || t.Kind == ir.KindMap
		}
		return v
	}
	switch t.Kind {
	case ir.KindString:
		return gval{pre: append(base.pre, jen.If(acc.Clone().Op("==").Lit("")).Block(e.fail(x.Pos, ir.VarPath(x), "ErrMissing"))), val: acc}
	case ir.KindList, ir.KindMap:
		return gval{pre: append(base.pre, jen.If(acc.Clone().Op("==").Nil()).Block(e.fail(x.Pos, ir.VarPath(x), "ErrMissing"))), val: acc}
	}
	return gval{pre: base.pre, val: acc}
}

// defined turns a possibly undefined value into its lenient form: the
// zero value when undefined, as Jinja2's Undefined prints empty, has
// length 0 and iterates as empty.
func (e *emitter) defined(v gval, t *ir.Type) gval {
	if v.def == nil || e.isAssumed(v.def) {
		return gval{pre: v.pre, val: v.val}
	}
	name := e.temp("t")
	pre := append(v.pre,
		jen.Var().Id(name).Add(GoType(t, false)),
		jen.If(v.def).Block(jen.Id(name).Op("=").Add(v.val)),
	)
	return gval{pre: pre, val: jen.Id(name)}
}

// truth is Jinja2's truthiness of v, as a Go bool.
func (e *emitter) truth(v gval, t *ir.Type) gval {
	var c jen.Code
	switch t = t.Resolve(); t.Kind {
	case ir.KindString:
		c = jen.Add(v.val).Op("!=").Lit("")
	case ir.KindInt, ir.KindFloat:
		c = jen.Add(v.val).Op("!=").Lit(0)
	case ir.KindBool:
		c = v.val
	case ir.KindList, ir.KindMap:
		c = jen.Len(v.val).Op(">").Lit(0)
	case ir.KindStruct:
		c = structTruth(v.val, t)
		if c == nil { // always true: only definedness counts
			return gval{pre: v.pre, val: orTrue(v.def)}
		}
	case ir.KindDynamic:
		c = jen.Add(v.val).Dot("Truth").Call()
	case ir.KindDict:
		// Known from the keys; the value is still evaluated.
		v.pre = append(v.pre, jen.Id("_").Op("=").Add(v.val))
		c = jen.Lit(len(t.Fields) > 0)
	case ir.KindNone:
		// None is false; a local holding it is still read.
		v.pre = append(v.pre, jen.Id("_").Op("=").Add(v.val))
		c = jen.False()
	default:
		c = jen.False()
	}
	if v.def != nil && !(v.nilIfUndefined && (t.Kind == ir.KindList || t.Kind == ir.KindMap)) {
		c = jen.Add(v.def).Op("&&").Add(c)
	}
	return gval{pre: v.pre, val: c}
}

// truthOf is the truth of x. When the type alone decides it, a local or
// temporary holding x still counts as used.
func (e *emitter) truthOf(x ir.Expr) gval {
	v := e.expr(x)
	c := e.truth(v, x.Type())
	if t := x.Type().Resolve(); t.Kind == ir.KindStruct && (ir.HasRequiredField(t) || len(t.Fields) == 0) {
		if !feedField(x) {
			c.pre = unused(x, v)
		}
	}
	return c
}

// structTruth is a struct's truth as a dict's: true when it has a key. A
// required field is always a key, so then it is nil (always true); an
// optional one is a key when set.
func structTruth(val jen.Code, t *ir.Type) jen.Code {
	if ir.HasRequiredField(t) {
		return nil
	}
	var c *jen.Statement
	for _, f := range keyFields(t) {
		set := jen.Add(val).Dot(f.GoName).Op("!=").Nil()
		if c == nil {
			c = set
		} else {
			c = c.Op("||").Add(set)
		}
	}
	if c == nil {
		return jen.False()
	}
	return jen.Parens(c)
}

// str converts v to a Go string as Jinja2's str() does; undefined is "".
func (e *emitter) str(v gval, t *ir.Type) gval {
	t = t.Resolve()
	if t.Kind == ir.KindString {
		return e.defined(v, t)
	}
	name := e.temp("s")
	pre := append(v.pre, jen.Var().Id(name).Index().Byte())
	body := e.appendValue(jen.Id(name), gval{val: v.val}, t)
	if v.def != nil {
		pre = append(pre, jen.If(v.def).Block(body...))
	} else {
		pre = append(pre, body...)
	}
	return gval{pre: pre, val: jen.String().Parens(jen.Id(name))}
}

// strKeep is str that keeps v undefined when it is.
func (e *emitter) strKeep(v gval, t *ir.Type) gval {
	s := e.str(v, t)
	s.def = v.def
	return s
}

// strOf is str() of x, as a Go string; an Inline literal is written out
// element by element.
func (e *emitter) strOf(x ir.Expr) gval {
	if !ir.IsInline(x) {
		return e.str(e.expr(x), x.Type())
	}
	name := e.temp("s")
	pre := append([]jen.Code{jen.Var().Id(name).Index().Byte()}, e.appendLiteral(jen.Id(name), x)...)
	return gval{pre: pre, val: jen.String().Parens(jen.Id(name))}
}

func (e *emitter) index(x *ir.Index) gval {
	xv := e.strict(e.expr(x.X), x.Pos, ir.VarPath(x.X))
	iv := e.strict(e.expr(x.Index), x.Pos, ir.VarPath(x.Index))
	v, ok := e.temp("v"), e.temp("ok")
	pre := append(xv.pre, iv.pre...)
	var call jen.Code
	switch x.X.Type().Kind {
	case ir.KindList:
		call = jen.Qual(ir.JinjaPath, "Index").Call(xv.val, intOf(iv.val, x.Index.Type()))
	case ir.KindString:
		call = jen.Qual(ir.JinjaPath, "IndexString").Call(xv.val, intOf(iv.val, x.Index.Type()))
	default:
		call = jen.Add(xv.val).Index(iv.val)
	}
	pre = append(pre, jen.List(jen.Id(v), jen.Id(ok)).Op(":=").Add(call))
	return gval{pre: pre, val: jen.Id(v), def: jen.Id(ok)}
}

// keyed is x where the key it reads is known to be there (the value of
// m.get(k) where k in m): a map's value is read without ok.
func (e *emitter) keyed(x ir.Expr) gval {
	ix, ok := x.(*ir.Index)
	if !ok || ix.X.Type().Kind != ir.KindMap {
		return e.expr(x)
	}
	xv := e.strict(e.expr(ix.X), ix.Pos, ir.VarPath(ix.X))
	iv := e.strict(e.expr(ix.Index), ix.Pos, ir.VarPath(ix.Index))
	return gval{pre: append(xv.pre, iv.pre...), val: jen.Add(xv.val).Index(iv.val)}
}

func (e *emitter) slice(x *ir.Slice) gval {
	xv := e.strict(e.expr(x.X), x.Pos, ir.VarPath(x.X))
	pre := xv.pre
	bound := func(b ir.Expr, def int) (jen.Code, jen.Code) {
		if b == nil {
			return jen.Lit(def), jen.False()
		}
		v := e.strict(e.expr(b), x.Pos, ir.VarPath(b))
		pre = append(pre, v.pre...)
		return intOf(v.val, b.Type()), jen.True()
	}
	lo, hasLo := bound(x.Lo, 0)
	hi, hasHi := bound(x.Hi, 0)
	step, _ := bound(x.Step, 1)
	if x.Step != nil {
		if _, ok := x.Step.(*ir.Const); !ok {
			s := e.bind(gval{val: step}, x.Step.Type())
			pre = append(pre, s.pre...)
			pre = append(pre, jen.If(s.val.(*jen.Statement).Clone().Op("==").Lit(0)).Block(e.invalid(x.Pos, jen.Lit("slice step cannot be zero"))))
			step = s.val
		}
	}
	fn := "Slice"
	if x.X.Type().Kind == ir.KindString {
		fn = "SliceString"
	}
	return gval{pre: pre, val: jen.Qual(ir.JinjaPath, fn).Call(xv.val, lo, hi, step, hasLo, hasHi)}
}

func (e *emitter) cond(x *ir.Cond) gval {
	c := e.truthOf(x.Cond)
	t, def, decl := e.result(x)
	branch := func(b ir.Expr) []jen.Code {
		if b == nil {
			return nil
		}
		if b == x.Then && x.KeyTested { // defined: the condition tested its key
			v := e.keyed(b)
			v.def = nil
			return e.assign(t, def, x.T, v, b.Type())
		}
		return e.assign(t, def, x.T, e.expr(b), b.Type())
	}
	pre := append(append(c.pre, decl...), jen.If(c.val).Block(branch(x.Then)...).Else().Block(branch(x.Else)...))
	return resultVal(t, def, pre)
}

// result declares the variables that hold the value of x, a choice among
// values (a conditional, an and/or): t, and def, which says whether it is
// defined. def is declared only when it can be false, so that it is
// always used.
func (e *emitter) result(x ir.Expr) (t, def string, decl []jen.Code) {
	t = e.temp("t")
	decl = []jen.Code{jen.Var().Id(t).Add(GoType(x.Type(), false))}
	if ir.MaybeUndefined(x) {
		def = e.temp("def")
		decl = append(decl, jen.Var().Id(def).Bool())
	}
	return t, def, decl
}

func resultVal(t, def string, pre []jen.Code) gval {
	if def == "" {
		return gval{pre: pre, val: jen.Id(t)}
	}
	return gval{pre: pre, val: jen.Id(t), def: jen.Id(def)}
}

// assign stores v, a value of type from, in the result t of type to (see
// result), converted: an int widens to a float, other kinds become their
// str() (to is then a string).
func (e *emitter) assign(t, def string, to *ir.Type, v gval, from *ir.Type) []jen.Code {
	switch {
	case to.Resolve().Kind == ir.KindDynamic:
		v = e.toDynamic(v, from)
	case ir.IsNumber(from.Kind) && to.Resolve().Kind == ir.KindFloat:
		v.val = num(v.val, from, true)
	case !ir.SameKind(from, to):
		v = e.strKeep(v, from)
	}
	if v.def != nil && def != "" {
		// An undefined value leaves t unset: its value may be a nil pointer.
		return append(v.pre, jen.Id(def).Op("=").Add(v.def), jen.If(jen.Id(def)).Block(jen.Id(t).Op("=").Add(v.val)))
	}
	out := append(v.pre, jen.Id(t).Op("=").Add(v.val))
	if def != "" {
		out = append(out, jen.Id(def).Op("=").True())
	}
	return out
}

// num converts a numeric value to float64 when the other operand is a float.
func num(v jen.Code, t *ir.Type, float bool) jen.Code {
	if float && t.Kind != ir.KindFloat {
		return jen.Float64().Parens(v)
	}
	return v
}

// compareNumbers is a op b of numbers (or strings, for the ordering
// operators) of types at and bt. An int meets a float exactly, as in
// Python: float64 of an int beyond 2^53 rounds.
// A bool is the int 0 or 1 there, as in Python (True == 1, False < 2),
// except where == meets two bools.
func compareNumbers(a jen.Code, at *ir.Type, op string, b jen.Code, bt *ir.Type) jen.Code {
	if at.Kind == ir.KindBool && (bt.Kind != ir.KindBool || op != "==") {
		a, at = boolInt(a), &ir.Type{Kind: ir.KindInt}
	}
	if bt.Kind == ir.KindBool && (at.Kind != ir.KindBool || op != "==") {
		b, bt = boolInt(b), &ir.Type{Kind: ir.KindInt}
	}
	switch af, bf := at.Kind == ir.KindFloat, bt.Kind == ir.KindFloat; {
	case at.Kind == ir.KindInt && bf:
		return jen.Qual(ir.JinjaPath, "CompareIntFloat").Call(jen.Int64().Parens(a), jen.Lit(op), b)
	case af && bt.Kind == ir.KindInt:
		return jen.Qual(ir.JinjaPath, "CompareIntFloat").Call(jen.Int64().Parens(b), jen.Lit(mirrored[op]), a)
	}
	return jen.Add(a).Op(op).Add(b)
}

// boolInt is the int 0 or 1 of the bool v.
func boolInt(v jen.Code) jen.Code {
	return jen.Func().Params().Int().Block(jen.If(v).Block(jen.Return(jen.Lit(1))), jen.Return(jen.Lit(0))).Call()
}

// intOf is v, an index or slice bound of type t, as an int: a bool is 0
// or 1, as in Python.
func intOf(v jen.Code, t *ir.Type) jen.Code {
	if t.Kind == ir.KindBool {
		return boolInt(v)
	}
	return v
}

// mirrored is the comparison operator with its operands swapped.
var mirrored = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}

func (e *emitter) binary(x *ir.Binary) gval {
	xt, yt := x.X.Type(), x.Y.Type()
	switch x.Op {
	case "and", "or":
		return e.logic(x)
	case "~":
		a, b := e.strOf(x.X), e.strOf(x.Y)
		return gval{pre: append(a.pre, b.pre...), val: jen.Add(a.val).Op("+").Add(b.val)}
	case "==", "!=":
		a, b := e.expr(x.X), e.expr(x.Y)
		a.val, b.val = nested(x.X, a.val), nested(x.Y, b.val)
		var c jen.Code
		switch {
		case ir.IsNumber(xt.Kind) && ir.IsNumber(yt.Kind):
			c = compareNumbers(a.val, xt, "==", b.val, yt)
		case xt.Kind == yt.Kind && ir.IsScalar(xt.Kind):
			c = jen.Add(a.val).Op("==").Add(b.val)
		case xt.Kind == ir.KindList && yt.Kind == ir.KindList && ir.IsScalar(xt.Elem.Kind) && xt.Elem.Kind == yt.Elem.Kind:
			c = jen.Qual("slices", "Equal").Call(a.val, b.val)
		case xt.Kind == ir.KindNone || yt.Kind == ir.KindNone:
			c = jen.Lit(xt.Kind == yt.Kind)
			a.pre, b.pre = unused(x.X, a), unused(x.Y, b)
		default:
			c = jen.False() // values of different kinds are never equal
			a.pre, b.pre = unused(x.X, a), unused(x.Y, b)
		}
		pre := append(a.pre, b.pre...)
		if a.def != nil || b.def != nil {
			// undefined equals only undefined.
			da, db := jen.Code(jen.True()), jen.Code(jen.True())
			if a.def != nil {
				da = a.def
			}
			if b.def != nil {
				db = b.def
			}
			c = jen.Parens(jen.Parens(jen.Add(da).Op("&&").Add(db).Op("&&").Add(c)).Op("||").Parens(jen.Op("!").Parens(da).Op("&&").Op("!").Parens(db)))
		}
		if x.Op == "!=" {
			c = jen.Op("!").Parens(c)
		}
		return gval{pre: pre, val: c}
	case "<", "<=", ">", ">=":
		a := e.strict(e.expr(x.X), x.Pos, ir.VarPath(x.X))
		b := e.strict(e.expr(x.Y), x.Pos, ir.VarPath(x.Y))
		return gval{pre: append(a.pre, b.pre...), val: compareNumbers(nested(x.X, a.val), xt, x.Op, nested(x.Y, b.val), yt)}
	case "in", "not in":
		// Undefined is in no list, map or object; in a string it fails.
		a := e.expr(x.X)
		if yt.Kind == ir.KindString {
			y := e.expr(x.Y)
			pre := append(a.pre, y.pre...)
			if a.def != nil {
				// Jinja2 fails to look for undefined in a string.
				fails := jen.Op("!").Parens(a.def)
				if y.def != nil {
					fails = fails.Op("&&").Add(y.def)
				}
				pre = append(pre, jen.If(fails).Block(e.fail(x.Pos, ir.VarPath(x.X), "ErrUndefined")))
			}
			b := e.defined(gval{val: y.val, def: y.def}, yt)
			c := jen.Qual("strings", "Contains").Call(b.val, a.val)
			// Undefined holds nothing, and an undefined a must not be read.
			for _, def := range []jen.Code{a.def, y.def} {
				if def != nil {
					c = jen.Parens(jen.Add(def).Op("&&").Add(c))
				}
			}
			if x.Op == "not in" {
				c = jen.Op("!").Parens(c)
			}
			return gval{pre: append(pre, b.pre...), val: c}
		}
		if yt.Kind == ir.KindStruct || yt.Kind == ir.KindDict {
			v := e.hasKey(x.X, a, e.expr(x.Y), x.Y, yt)
			if x.Op == "not in" {
				v.val = jen.Op("!").Parens(v.val)
			}
			return v
		}
		b := e.defined(e.expr(x.Y), yt)
		pre := append(a.pre, b.pre...)
		var c jen.Code
		switch yt.Kind {
		case ir.KindList:
			c = jen.Qual("slices", "Contains").Call(b.val, num(a.val, xt, yt.Elem.Kind == ir.KindFloat))
			if xt.Kind != yt.Elem.Kind && !(xt.Kind == ir.KindInt && yt.Elem.Kind == ir.KindFloat) {
				c = jen.False() // values of different kinds are never equal
				if a.def != nil {
					pre = append(append(a.pre, jen.If(a.def).Block(jen.Id("_").Op("=").Add(a.val))), unused(x.Y, b)...)
				} else {
					pre = append(unused(x.X, a), unused(x.Y, b)...)
				}
			} else if a.def != nil {
				c = jen.Parens(jen.Add(a.def).Op("&&").Add(c))
			}
		case ir.KindMap:
			ok := e.temp("ok")
			if a.def != nil {
				pre = append(pre, jen.Var().Id(ok).Bool(), jen.If(a.def).Block(jen.List(jen.Id("_"), jen.Id(ok)).Op("=").Add(b.val).Index(a.val)))
			} else {
				pre = append(pre, jen.List(jen.Id("_"), jen.Id(ok)).Op(":=").Add(b.val).Index(a.val))
			}
			c = jen.Id(ok)
		}
		if x.Op == "not in" {
			c = jen.Op("!").Parens(c)
		}
		return gval{pre: pre, val: c}
	}
	return e.arith(x)
}

func (e *emitter) arith(x *ir.Binary) gval {
	xt, yt := x.X.Type(), x.Y.Type()
	// Jinja2 evaluates both operands before the operator fails on an
	// undefined one: y may fail first (x // s.rindex('y')).
	xv, yv := e.expr(x.X), e.expr(x.Y)
	a := e.strict(gval{val: xv.val, def: xv.def}, x.Pos, ir.VarPath(x.X))
	b := e.strict(gval{val: yv.val, def: yv.def}, x.Pos, ir.VarPath(x.Y))
	pre := append(append(append(xv.pre, yv.pre...), a.pre...), b.pre...)
	if x.EscapeX {
		a = e.checked(pre, jen.Qual(ir.JinjaPath, "Escape").Call(a.val), x.Pos)
		pre = a.pre
	}
	if x.EscapeY {
		b = e.checked(pre, jen.Qual(ir.JinjaPath, "Escape").Call(b.val), x.Pos)
		pre = b.pre
	}
	switch {
	case xt.Kind == ir.KindString && yt.Kind == ir.KindString, x.Op == "+" && xt.Kind == ir.KindList:
		if xt.Kind == ir.KindList {
			return gval{pre: pre, val: jen.Append(jen.Qual("slices", "Clip").Call(a.val), jen.Add(b.val).Op("..."))}
		}
		return gval{pre: pre, val: jen.Add(a.val).Op("+").Add(b.val)}
	case xt.Kind == ir.KindString:
		return e.checked(pre, jen.Qual(ir.JinjaPath, "Repeat").Call(a.val, b.val), x.Pos)
	case yt.Kind == ir.KindString:
		return e.checked(pre, jen.Qual(ir.JinjaPath, "Repeat").Call(b.val, a.val), x.Pos)
	case xt.Kind == ir.KindList:
		return e.checked(pre, jen.Qual(ir.JinjaPath, "RepeatList").Call(a.val, b.val), x.Pos)
	case yt.Kind == ir.KindList:
		return e.checked(pre, jen.Qual(ir.JinjaPath, "RepeatList").Call(b.val, a.val), x.Pos)
	}
	// Python's int / int divides the exact ints, not their floats.
	trueDiv := x.Op == "/" && xt.Kind != ir.KindFloat && yt.Kind != ir.KindFloat
	// An int to a negative constant int power is a float.
	f := !trueDiv && (xt.Kind == ir.KindFloat || yt.Kind == ir.KindFloat || x.T.Resolve().Kind == ir.KindFloat)
	av, bv := num(a.val, xt, f), num(b.val, yt, f)
	if x.Op == "/" || x.Op == "//" || x.Op == "%" {
		bb := e.bind(gval{val: bv}, x.T)
		pre = append(pre, bb.pre...)
		bv = bb.val
		pre = append(pre, jen.If(jen.Add(bv).Op("==").Lit(0)).Block(e.invalid(x.Pos, jen.Lit("division by zero"))))
	}
	var val jen.Code
	switch {
	case trueDiv:
		val = jen.Qual(ir.JinjaPath, "TrueDiv").Call(jen.Int64().Parens(av), jen.Int64().Parens(bv))
	case x.Op == "//" && f:
		val = jen.Qual(ir.JinjaPath, "FloorDivFloat").Call(av, bv)
	case x.Op == "//":
		return e.intOp(pre, "FloorDiv", x.Pos, av, bv)
	case x.Op == "%" && f:
		val = jen.Qual(ir.JinjaPath, "ModFloat").Call(av, bv)
	case x.Op == "%":
		val = jen.Int().Parens(jen.Qual(ir.JinjaPath, "Mod").Call(jen.Int64().Parens(av), jen.Int64().Parens(bv)))
	case x.Op == "**" && f:
		return e.fallible(pre, jen.Qual(ir.JinjaPath, "PowFloat").Call(av, bv), x.Pos)
	case x.Op == "**":
		bb := e.bind(gval{val: bv}, yt)
		pre = append(pre, bb.pre...)
		pre = append(pre, jen.If(jen.Add(bb.val).Op("<").Lit(0)).Block(e.invalid(x.Pos, jen.Lit(NegativeExponent))))
		return e.intOp(pre, "PowInt", x.Pos, av, bb.val)
	case f:
		val = jen.Parens(jen.Add(nested(x.X, av)).Op(x.Op).Add(nested(x.Y, bv)))
	default:
		return e.intOp(pre, intOps[x.Op], x.Pos, av, bv)
	}
	return gval{pre: pre, val: val}
}

// intOps are the runtime/jinja functions of the int operators +, - and *,
// which fail where Python's int would leave 64 bits.
var intOps = map[string]string{"+": "AddInt", "-": "SubInt", "*": "MulInt"}

// intOp calls the runtime/jinja int operation fn on the int operands,
// failing the render at pos where its result would leave 64 bits.
func (e *emitter) intOp(pre []jen.Code, fn, pos string, operands ...jen.Code) gval {
	args := make([]jen.Code, len(operands))
	for i, o := range operands {
		args[i] = jen.Int64().Parens(o)
	}
	v := e.fallible(pre, jen.Qual(ir.JinjaPath, fn).Call(args...), pos)
	return gval{pre: v.pre, val: jen.Int().Parens(v.val)}
}

// logic compiles a tested and/or, a bool, with Jinja2's short-circuit:
// the right operand's statements run only when it is evaluated.
func (e *emitter) logic(x *ir.Binary) gval {
	if x.Value {
		t, def, pre := e.result(x)
		pre = append(pre, e.choose(x, func(leaf ir.Expr, v *gval) []jen.Code {
			if v != nil {
				return e.assign(t, def, x.T, *v, leaf.Type())
			}
			return e.assign(t, def, x.T, e.expr(leaf), leaf.Type())
		})...)
		return resultVal(t, def, pre)
	}
	if k, ok := x.X.(*ir.Const); ok {
		// A constant left operand decides at generate time.
		if ir.ConstTruth(k) == (x.Op == "or") {
			return gval{pre: e.skip(x.Y), val: jen.Lit(x.Op == "or")}
		}
		return e.truthOf(x.Y)
	}
	a := e.truthOf(x.X)
	b := e.truthOf(x.Y)
	op := "&&"
	if x.Op == "or" {
		op = "||"
	}
	if len(b.pre) == 0 {
		return gval{pre: a.pre, val: jen.Parens(jen.Add(a.val).Op(op).Add(b.val))}
	}
	t := e.temp("t")
	cond := jen.Id(t)
	if x.Op == "or" {
		cond = jen.Op("!").Id(t)
	}
	pre := append(a.pre, jen.Id(t).Op(":=").Add(a.val), jen.If(cond).Block(append(b.pre, jen.Id(t).Op("=").Add(b.val))...))
	return gval{pre: pre, val: jen.Id(t)}
}

// choose compiles x, an and/or that yields an operand, as the decisions
// among the operands it yields (see yields), with k's statements for each
// operand where it is the result. k gets the operand's value when it was
// evaluated to test its truth, else nil.
func (e *emitter) choose(x ir.Expr, k func(leaf ir.Expr, v *gval) []jen.Code) []jen.Code {
	b, ok := x.(*ir.Binary)
	if !ok || !b.Value {
		return k(x, nil)
	}
	right := false
	out := e.branchOn(b.X, func(leaf ir.Expr, v gval, truthy bool) []jen.Code {
		if truthy == (b.Op == "or") {
			return k(leaf, &v)
		}
		right = true
		return e.choose(b.Y, k)
	})
	if !right {
		out = append(out, e.skip(b.Y)...)
	}
	return out
}

// branchOn evaluates x, branches on its truth and emits decide's
// statements in each branch, given the operand of x that has that truth
// (x itself unless it is an and/or) and its value. A constant's truth is
// known: it has one branch.
func (e *emitter) branchOn(x ir.Expr, decide func(leaf ir.Expr, v gval, truthy bool) []jen.Code) []jen.Code {
	if b, ok := x.(*ir.Binary); ok && b.Value {
		right := false
		out := e.branchOn(b.X, func(leaf ir.Expr, v gval, truthy bool) []jen.Code {
			if truthy == (b.Op == "or") {
				return decide(leaf, v, truthy)
			}
			right = true
			return e.branchOn(b.Y, decide)
		})
		if !right {
			out = append(out, e.skip(b.Y)...)
		}
		return out
	}
	if k, ok := x.(*ir.Const); ok {
		return decide(x, gval{val: constCode(k)}, ir.ConstTruth(k))
	}
	v := e.hold(e.expr(x), x)
	c := e.truth(gval{val: v.val, def: v.def}, x.Type())
	v.pre = append(v.pre, c.pre...)
	held := gval{val: v.val, def: v.def}
	return append(v.pre, jen.If(c.val).Block(decide(x, held, true)...).Else().Block(decide(x, held, false)...))
}

// skip returns uses of the variables that x reads, for an operand that a
// constant makes Jinja2 skip: Go rejects variables that are never read.
// The locals and loops of a macro call's body in x are not: the body,
// never emitted, declares none of them; nor is the item of a select or
// a map of a filter, which each declares as it loops.
func (e *emitter) skip(x ir.Expr) []jen.Code {
	var out []jen.Code
	seen := map[string]bool{}
	use := func(name string) {
		if name != "" && name != "_" && !seen[name] {
			seen[name] = true
			out = append(out, jen.Id("_").Op("=").Id(name))
		}
	}
	inner := map[*ir.Local]bool{}
	declare := func(l *ir.Local) { inner[l] = true }
	ir.WalkExpr(x, func(x ir.Expr) {
		switch c := x.(type) {
		case *ir.Capture:
			for _, l := range c.Locals {
				declare(l)
			}
			ir.WalkTargets(c.Body, declare)
		case *ir.Select:
			declare(c.Item)
		case *ir.MapFilter:
			declare(c.Item)
		case *ir.CallFunc:
			if c.Caller != nil {
				for _, l := range c.Caller.Locals {
					declare(l)
				}
				ir.WalkTargets(c.Caller.Body, declare)
			}
		}
	})
	ir.WalkExpr(x, func(x ir.Expr) {
		switch x := x.(type) {
		case *ir.LocalRef:
			if inner[x.L] {
				return
			}
			use(x.L.GoName)
			if x.L.MaybeUndefined {
				use(x.L.GoName + "Def")
			}
		case *ir.LoopAttr:
			if names, ok := e.loops[x.For]; ok {
				use(names[0])
				if x.For.Length != "" {
					use(names[1])
				}
			}
		case *ir.LoopCycle:
			if names, ok := e.loops[x.For]; ok {
				use(names[0])
			}
		}
	})
	return out
}

// hold stores v, the value of x, in variables when reading it twice (its
// truth, then the value) would compute it twice; a field or a local is
// read where it is.
func (e *emitter) hold(v gval, x ir.Expr) gval {
	switch x.(type) {
	case *ir.FieldRef, *ir.LocalRef, *ir.LoopAttr:
		return v
	}
	t := x.Type()
	name := e.temp("t")
	var pre []jen.Code
	out := gval{val: jen.Id(name)}
	if v.def == nil {
		pre = append(v.pre, jen.Id(name).Op(":=").Add(v.val))
	} else {
		def := e.temp("def")
		out.def = jen.Id(def)
		pre = append(v.pre, jen.Var().Id(name).Add(GoType(t, false)), jen.Id(def).Op(":=").Add(v.def), jen.If(jen.Id(def)).Block(jen.Id(name).Op("=").Add(v.val)))
	}
	if t.Kind == ir.KindStruct || t.Kind == ir.KindNone {
		pre = append(pre, jen.Id("_").Op("=").Id(name)) // its truth may not read it
	}
	out.pre = pre
	return out
}

// hasKey is key in obj for an object or dict obj of type t (the value of
// y): whether it has the key, as a dict; undefined has none.
func (e *emitter) hasKey(k ir.Expr, kv gval, obj gval, y ir.Expr, t *ir.Type) gval {
	obj = e.hold(obj, y)
	key, isConst := "", false
	if c, ok := k.(*ir.Const); ok {
		key, isConst = c.Value.(string)
	} else {
		kv = e.hold(kv, k)
	}
	var c jen.Code = jen.False()
	for _, f := range keyFields(t) {
		var has jen.Code
		if t.Kind == ir.KindStruct && f.Optional {
			has = e.member(gval{val: obj.val}, f).def
		}
		switch {
		case isConst && f.Key == key:
			c = orTrue(has)
		case isConst:
		case has != nil:
			c = jen.Add(c).Op("||").Add(kv.val).Op("==").Lit(f.Key).Op("&&").Add(has)
		default:
			c = jen.Add(c).Op("||").Add(kv.val).Op("==").Lit(f.Key)
		}
	}
	pre := append(kv.pre, unused(y, obj)...)
	switch {
	case !isConst && kv.def != nil:
		pre = append(pre, jen.If(kv.def).Block(jen.Id("_").Op("=").Add(kv.val)))
		c = jen.Add(kv.def).Op("&&").Parens(c) // undefined is no key
	case !isConst:
		pre = append(pre, jen.Id("_").Op("=").Add(kv.val))
	}
	if obj.def != nil {
		c = jen.Add(obj.def).Op("&&").Parens(c)
	}
	return gval{pre: pre, val: jen.Parens(c)}
}

// keyCount is the length of an object: its number of keys.
func (e *emitter) keyCount(v gval, x ir.Expr) gval {
	t := x.Type()
	v = e.hold(v, x)
	n := e.temp("n")
	required := 0
	var optional []jen.Code
	for _, f := range keyFields(t) {
		if !f.Optional {
			required++
			continue
		}
		optional = append(optional, jen.If(e.member(gval{val: v.val}, f).def).Block(jen.Id(n).Op("++")))
	}
	count := append([]jen.Code{jen.Id(n).Op("=").Lit(required)}, optional...)
	pre := append(unused(x, v), jen.Var().Id(n).Int())
	if v.def != nil {
		return gval{pre: append(pre, jen.If(v.def).Block(count...)), val: jen.Id(n)}
	}
	return gval{pre: append(pre, count...), val: jen.Id(n)}
}

// nested puts the Go value v of operand x in parentheses when x is
// itself an operation Go would group differently: a comparison or a test
// (Go's == and < share one level and associate to the left), or a loop
// attribute computed from the loop index (loop.revindex0 * 2).
func nested(x ir.Expr, v jen.Code) jen.Code {
	switch x := x.(type) {
	case *ir.Binary:
		switch x.Op {
		case "==", "!=", "<", "<=", ">", ">=":
			return jen.Parens(v)
		}
	case *ir.Call:
		if x.Kind == ir.CallTest {
			return jen.Parens(v)
		}
	case *ir.LoopAttr:
		if x.Attr != "index0" && x.Attr != "length" {
			return jen.Parens(v)
		}
	}
	return v
}

// feedField reports whether x is a field of the feed read through fields
// only, which no variable holds.
func feedField(x ir.Expr) bool {
	for {
		f, ok := x.(*ir.FieldRef)
		if !ok {
			return false
		}
		if f.Of == nil {
			return true
		}
		x = f.Of
	}
}

// unused returns v's statements plus a use of its value, for a result
// that does not depend on it: Go rejects variables that are never read.
// A constant needs no use; an undefined value must not be read.
func unused(x ir.Expr, v gval) []jen.Code {
	if _, ok := x.(*ir.Const); ok {
		return v.pre
	}
	use := jen.Id("_").Op("=").Add(v.val)
	if v.def != nil {
		use = jen.If(v.def).Block(use)
	}
	return append(v.pre, use)
}

func orTrue(c jen.Code) jen.Code {
	if c == nil {
		return jen.True()
	}
	return c
}

func (e *emitter) test(x *ir.Call) gval {
	if x.X.Type().Resolve().Kind == ir.KindDynamic {
		// The operand's type became dynamic after the test was checked.
		return e.expr(x.DynamicTest())
	}
	v := e.expr(x.X)
	t := x.X.Type()
	var c jen.Code
	flag := v.def != nil // whether c reads v's defined flag
	read := false        // whether c reads v's value
	switch x.Name {
	case "defined":
		c = orTrue(v.def)
	case "undefined":
		c = jen.False()
		if v.def != nil {
			c = jen.Op("!").Parens(v.def)
		}
	case "none":
		flag = false
		// An unset optional is undefined, and undefined is not none.
		c = jen.Lit(t.Kind == ir.KindNone)
	case "lower", "upper":
		// Of x|string, always defined.
		c, read = jen.Qual(ir.JinjaPath, map[string]string{"lower": "IsLower", "upper": "IsUpper"}[x.Name]).Call(v.val), true
	case "filter", "test":
		// Undefined and values other than strings name nothing.
		c, flag = jen.False(), false
		if t.Kind == ir.KindString {
			names := map[string]string{"filter": "FilterNames", "test": "TestNames"}[x.Name]
			c, flag, read = jen.Qual(ir.JinjaPath, "IsName").Call(v.val, jen.Qual(ir.JinjaPath, names)), v.def != nil, true
			if v.def != nil {
				c = jen.Parens(v.def).Op("&&").Add(c)
			}
		}
	default:
		var pre []jen.Code
		pre, c, flag, read = e.typeTest(x.Name, t.Kind, v)
		v.pre = append(v.pre, pre...)
	}
	if x.Not {
		c = jen.Op("!").Parens(c)
	}
	_, field := x.X.(*ir.FieldRef)
	if !read && !feedField(x.X) && !(field && flag) {
		// The test may be decided by the type alone; a local or
		// temporary holding the value, or its flag, still counts as used
		// (a field's flag reads the local it is a field of).
		v.pre = unused(x.X, v)
	}
	return gval{pre: v.pre, val: c}
}

// typeTest is type test name of v, of kind k (see ir.TypeTest): the
// statements to run first, the condition, whether it reads v's defined
// flag and whether it reads v. A condition that reads the flag is held in
// a temporary, so that `x is defined and x is false` is no redundant
// Go && of the flag (go vet).
func (e *emitter) typeTest(name string, k ir.Kind, v gval) (pre []jen.Code, c jen.Code, flag, read bool) {
	r := ir.TypeTest(name, k)
	switch r {
	case ir.TestFails:
		c = jen.False()
	case ir.TestPasses:
		c = jen.True()
	case ir.TestIsValue:
		c, read = v.val, true
	case ir.TestIsNotValue:
		c, read = jen.Op("!").Parens(v.val), true
	}
	if v.def == nil {
		return nil, c, false, read
	}
	switch undef := ir.UndefinedPasses(name); {
	case r == ir.TestPasses && undef, r == ir.TestFails && !undef:
		return nil, c, false, false
	case r == ir.TestPasses:
		c = v.def
	case r == ir.TestFails:
		c = jen.Op("!").Parens(v.def)
	default:
		// Undefined is neither true nor false; the value is read only when set.
		c = jen.Parens(v.def).Op("&&").Add(c)
	}
	t := e.temp("t")
	return []jen.Code{jen.Id(t).Op(":=").Add(c)}, jen.Id(t), true, read
}

// argument returns a filter argument's value and whether it was given.
func (e *emitter) arg(x *ir.Call, i int) (gval, bool) {
	a := x.Args[i]
	if k, ok := a.(*ir.Const); ok && k.Value == nil {
		return gval{}, false
	}
	return e.strict(e.expr(a), x.Pos, ir.VarPath(a)), true
}
