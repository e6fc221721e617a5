package goemit

import (
	"strconv"

	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// Dynamic values (ir.KindDynamic) are runtime/jinja.Value: every
// operation on them is a call of the runtime, and a typed operand is
// converted first. A Value holds undefined itself, so a dynamic gval has
// no def.

func jinjaValue() *jen.Statement { return jen.Qual(ir.JinjaPath, "Value") }

// dynamicItems converts the items of v, a slice of items of type elem,
// to a slice of jinja.Value, in statements it adds to v.pre, and returns
// the slice's variable.
func (e *emitter) dynamicItems(v *gval, elem *ir.Type) string {
	items, x := e.temp("items"), e.temp("x")
	item := e.toDynamic(gval{val: jen.Id(x)}, elem)
	v.pre = append(v.pre,
		jen.Id(items).Op(":=").Make(jen.Index().Add(jinjaValue()), jen.Lit(0), jen.Len(v.val)),
		jen.For(jen.List(jen.Id("_"), jen.Id(x)).Op(":=").Range().Add(v.val)).Block(
			append(item.pre, jen.Id(items).Op("=").Append(jen.Id(items), item.val))...))
	return items
}

// toDynamic converts v, a value of type t, to a jinja.Value; an undefined
// v is the zero Value.
func (e *emitter) toDynamic(v gval, t *ir.Type) gval {
	t = t.Resolve()
	if t.Kind == ir.KindDynamic {
		return v
	}
	var conv jen.Code
	switch t.Kind {
	case ir.KindString:
		conv = jen.Qual(ir.JinjaPath, "StringValue").Call(v.val)
	case ir.KindInt:
		conv = jen.Qual(ir.JinjaPath, "IntValue").Call(v.val)
	case ir.KindFloat:
		conv = jen.Qual(ir.JinjaPath, "FloatValue").Call(v.val)
	case ir.KindBool:
		conv = jen.Qual(ir.JinjaPath, "BoolValue").Call(v.val)
	case ir.KindNone:
		v.pre = append(v.pre, jen.Id("_").Op("=").Add(v.val))
		conv = jen.Qual(ir.JinjaPath, "NoneValue").Call()
	case ir.KindList:
		items := e.dynamicItems(&v, t.Elem)
		conv = jen.Qual(ir.JinjaPath, "ListValue").Call(jen.Id(items).Op("..."))
	case ir.KindDict:
		s := jen.Qual(ir.JinjaPath, "DictValue").Call()
		if len(t.Fields) == 0 { // {}: evaluated, and nothing to read from it
			v.pre = append(v.pre, jen.Id("_").Op("=").Add(v.val))
			conv = s
			break
		}
		d := e.bind(gval{val: v.val}, t)
		v.pre = append(v.pre, d.pre...)
		for _, f := range t.Fields {
			fv := e.toDynamic(gval{val: jen.Add(d.val).Dot(f.GoName)}, f.Type)
			v.pre = append(v.pre, fv.pre...)
			s = s.Dot("Set").Call(jen.Lit(f.Key), fv.val)
		}
		conv = s
	case ir.KindStruct:
		return e.objectToDynamic(v, t)
	case ir.KindMap:
		keys, vals, i, k := e.temp("keys"), e.temp("vals"), e.temp("i"), e.temp("k")
		m := e.bind(gval{val: v.val}, t)
		item := e.toDynamic(gval{val: jen.Add(m.val).Index(jen.Id(k))}, t.Elem)
		v.pre = append(v.pre, m.pre...)
		v.pre = append(v.pre,
			jen.Id(keys).Op(":=").Qual(ir.JinjaPath, "SortedKeys").Call(m.val),
			jen.Id(vals).Op(":=").Make(jen.Index().Add(jinjaValue()), jen.Len(jen.Id(keys))),
			jen.For(jen.List(jen.Id(i), jen.Id(k)).Op(":=").Range().Id(keys)).Block(
				append(item.pre, jen.Id(vals).Index(jen.Id(i)).Op("=").Add(item.val))...))
		conv = jen.Qual(ir.JinjaPath, "DictOf").Call(jen.Id(keys), jen.Id(vals))
	default:
		panic("emit: no dynamic value of " + t.String())
	}
	if v.def == nil {
		return gval{pre: v.pre, val: conv}
	}
	name := e.temp("t")
	pre := append(v.pre, jen.Var().Id(name).Add(jinjaValue()), jen.If(v.def).Block(jen.Id(name).Op("=").Add(conv)))
	return gval{pre: pre, val: jen.Id(name)}
}

// objectToDynamic converts v, an object, to the dict of its set fields in
// declaration order, as Jinja2 holds the feed's JSON object; an undefined
// v (an unset optional object) is the zero Value, and its fields are not
// read.
func (e *emitter) objectToDynamic(v gval, t *ir.Type) gval {
	obj, d := e.temp("d"), e.temp("t")
	var build []jen.Code
	if len(t.Fields) == 0 {
		build = append(build, jen.Id("_").Op("=").Add(v.val))
	} else {
		build = append(build, jen.Id(d).Op(":=").Add(v.val))
	}
	for _, f := range t.Fields {
		m := e.member(gval{val: jen.Id(d)}, f)
		fv := e.toDynamic(gval{val: m.val}, f.Type)
		set := append(fv.pre, jen.Id(obj).Dot("Set").Call(jen.Lit(f.Key), fv.val))
		if m.def != nil {
			build = append(build, jen.If(m.def).Block(set...))
		} else {
			build = append(build, set...)
		}
	}
	dict := jen.Qual(ir.JinjaPath, "DictValue").Call()
	if v.def == nil {
		pre := append(v.pre, jen.Id(obj).Op(":=").Add(dict))
		return gval{pre: append(pre, build...), val: jen.Id(obj)}
	}
	build = append([]jen.Code{jen.Id(obj).Op("=").Add(dict)}, build...)
	pre := append(v.pre, jen.Var().Id(obj).Add(jinjaValue()), jen.If(v.def).Block(build...))
	return gval{pre: pre, val: jen.Id(obj)}
}

// dynArg is operand x of a dynamic operation as a jinja.Value.
func (e *emitter) dynArg(x ir.Expr) gval {
	if x == nil {
		return gval{val: jinjaValue().Values()}
	}
	return e.toDynamic(e.expr(x), x.Type())
}

// dynamic compiles an operation on dynamic values.
func (e *emitter) dynamic(x *ir.Dynamic) gval {
	switch x.Op {
	case ir.DynSlice:
		return e.dynSlice(x)
	case ir.DynToJSON:
		return e.dynToJSON(x)
	case ir.DynTuple:
		return e.dynTuple(x)
	case ir.DynFirst:
		if _, ok := ir.Pulled(x.Args[0]); ok && x.Args[0].Type().Resolve().Kind == ir.KindDynamic {
			return e.pullFirst(x.Args[0], x.Type())
		}
	case ir.DynContains:
		if _, ok := ir.Pulled(x.Args[1]); ok && x.Args[1].Type().Resolve().Kind == ir.KindDynamic {
			return e.pullContains(x)
		}
	case ir.DynGenIterator:
		return e.genIterator(x)
	case ir.DynMethod:
		v := e.expr(x.Args[0]) // fails where the owner is undefined
		pre := append(v.pre, jen.Id("_").Op("=").Add(v.val))
		return gval{pre: pre, val: jen.Qual(ir.JinjaPath, "DictMethod").Call(jen.Lit(x.Name))}
	case ir.DynUnpacked:
		v := e.dynArg(x.Args[0])
		i, n := x.Args[1].(*ir.Const).Value.(int64), x.Args[2].(*ir.Const).Value.(int64)
		return e.dynFallible(v.pre, jen.Add(v.val).Dot("Unpack").Call(jen.Lit(int(n))), x.Pos, func(v jen.Code) gval {
			return gval{val: jen.Add(v).Index(jen.Lit(int(i)))}
		})
	}
	var pre []jen.Code
	args := make([]jen.Code, len(x.Args))
	for i, a := range x.Args {
		v := e.dynArg(a)
		pre = append(pre, v.pre...)
		args[i] = v.val
		if i == 0 && x.Op == ir.DynGet {
			// Jinja2 looks get up on the receiver before it evaluates the
			// arguments: an undefined receiver fails first (seed 202 case 19731).
			pre = append(pre, jen.If(jen.Op("!").Add(v.val).Dot("Defined").Call()).Block(e.fail(x.Pos, "", "ErrUndefined")))
		}
	}
	q := func(fn string) *jen.Statement { return jen.Qual(ir.JinjaPath, fn) }
	a := jen.Add(args[0])
	var call jen.Code
	switch x.Op {
	case ir.DynAttr:
		call = a.Dot("Attr").Call(jen.Lit(x.Name))
	case ir.DynItem:
		call = a.Dot("Item").Call(args[1])
	case ir.DynIterItem:
		call = q("GeneratorValue").Call(jen.Lit(x.Name)).Dot("Item").Call(args[0])
	case ir.DynEqual:
		return e.dynFallible(pre, q("EqualMethods").Call(args[0], args[1]), x.Pos, func(v jen.Code) gval {
			if x.Name == "!=" {
				return gval{val: jen.Op("!").Add(v)}
			}
			return gval{val: v}
		})
	case ir.DynCompare:
		call = q("Compare").Call(jen.Lit(x.Name), args[0], args[1])
	case ir.DynArith:
		call = q("Arith").Call(jen.Lit(x.Name), args[0], args[1])
	case ir.DynNeg:
		call = q("Negate").Call(args[0])
	case ir.DynMarkupItems, ir.DynMarkup:
		if len(args) == 2 {
			return gval{pre: pre, val: q("MarkupItemsOf").Call(args[0], args[1])}
		}
		return gval{pre: pre, val: q("MarkupValue").Call(args[0])}
	case ir.DynGenerator:
		return gval{pre: pre, val: q("GeneratorValue").Call(append([]jen.Code{jen.Lit(x.Name)}, args...)...)}
	case ir.DynIterator:
		return gval{pre: pre, val: q("IteratorValue").Call(jen.Lit(x.Name), args[0])}
	case ir.DynContains:
		return e.dynFallible(pre, q("Contains").Call(args[1], args[0]), x.Pos, func(v jen.Code) gval {
			if x.Name == "not in" {
				return gval{val: jen.Op("!").Add(v)}
			}
			return gval{val: v}
		})
	case ir.DynTest:
		if x.Name == "filter" || x.Name == "test" {
			return e.dynFallible(pre, q("IsNameValue").Call(args[0], jen.Lit(x.Name)), x.Pos, func(v jen.Code) gval {
				if x.Not {
					return gval{val: jen.Op("!").Add(v)}
				}
				return gval{val: v}
			})
		}
		c := a.Dot("Test").Call(jen.Lit(x.Name))
		if x.Not {
			c = jen.Op("!").Add(c)
		}
		return gval{pre: pre, val: c}
	case ir.DynLength:
		call = a.Dot("Len").Call()
	case ir.DynStr:
		call = a.Dot("Text").Call()
	case ir.DynAsString:
		call = a.Dot("AsString").Call()
	case ir.DynStrOperand:
		call = a.Dot("StrOperand").Call()
	case ir.DynAsInt:
		call = a.Dot("AsInt").Call()
	case ir.DynAsIndex:
		call = a.Dot("AsSliceIndex").Call(jen.Lit(x.Name == "end"))
	case ir.DynDefault:
		return gval{pre: pre, val: a.Dot("Default").Call(args[1], args[2].(*jen.Statement).Clone().Dot("Truth").Call())}
	case ir.DynFirst:
		call = a.Dot("First").Call()
	case ir.DynLast:
		call = a.Dot("Last").Call()
	case ir.DynJoin:
		call = q("JoinValues").Call(args[0], args[1])
	case ir.DynList:
		call = a.Dot("ToList").Call()
	case ir.DynGet:
		call = a.Dot("Get").Call(args[1], args[2])
	case ir.DynKeys:
		call = a.Dot("Keys").Call()
	case ir.DynValues:
		call = a.Dot("Values").Call()
	case ir.DynItemsList:
		call = a.Dot("ItemsList").Call()
	case ir.DynFilter:
		call = q("Filter").Call(append([]jen.Code{jen.Lit(x.Name)}, args...)...)
	case ir.DynMapFilter:
		call = q("MapFilter").Call(append([]jen.Code{jen.Lit(x.Name)}, args...)...)
	case ir.DynMissing:
		call = q("Missing").Call(append([]jen.Code{jen.Lit(x.Name)}, args...)...)
	default:
		panic("emit: unexpected dynamic operation outside a loop")
	}
	return e.dynFallible(pre, call, x.Pos, func(v jen.Code) gval { return gval{val: v} })
}

// dynTuple builds a tuple of its items, converted to dynamic values.
func (e *emitter) dynTuple(x *ir.Dynamic) gval {
	pre, items := e.elements(x.Args, nil)
	return gval{pre: pre, val: jen.Qual(ir.JinjaPath, "TupleValue").Call(items...)}
}

// dynFallible binds the results of call, a value and an error, failing the
// render with the error at pos; then returns k of the value.
func (e *emitter) dynFallible(pre []jen.Code, call jen.Code, pos string, k func(jen.Code) gval) gval {
	v, err := e.temp("v"), e.temp("err")
	pre = append(pre,
		jen.List(jen.Id(v), jen.Id(err)).Op(":=").Add(call),
		jen.If(jen.Id(err).Op("!=").Nil()).Block(jen.Return(dst, e.dynErr(jen.Id(err), pos))))
	out := k(jen.Id(v))
	out.pre = append(pre, out.pre...)
	return out
}

func (e *emitter) dynErr(err jen.Code, pos string) jen.Code {
	return jen.Qual(ir.JinjaPath, "At").Call(err, jen.Lit(e.p.Key), jen.Lit(pos))
}

func (e *emitter) dynSlice(x *ir.Dynamic) gval {
	v := e.dynArg(x.Args[0])
	pre := v.pre
	bound := func(b ir.Expr, def int) (jen.Code, jen.Code) {
		if b == nil {
			return jen.Lit(def), jen.False()
		}
		bv := e.strict(e.expr(b), x.Pos, ir.VarPath(b))
		pre = append(pre, bv.pre...)
		return bv.val, jen.True()
	}
	lo, hasLo := bound(x.Args[1], 0)
	hi, hasHi := bound(x.Args[2], 0)
	step, _ := bound(x.Args[3], 1)
	return e.dynFallible(pre, jen.Qual(ir.JinjaPath, "SliceValue").Call(v.val, lo, hi, step, hasLo, hasHi), x.Pos, func(v jen.Code) gval { return gval{val: v} })
}

// genIterator is x, a chain of generator filters of dynamic values held
// as a value: the generator whose items the runtime makes as pulled
// (jinja.GenIterator), after the source and each link's arguments,
// evaluated in turn as Jinja2 makes the generators.
func (e *emitter) genIterator(x *ir.Dynamic) gval {
	src, links, _ := ir.GenLinks(x.Args[0])
	var pre []jen.Code
	eval := func(a ir.Expr) jen.Code {
		v := e.dynArg(a)
		t := e.temp("v")
		pre = append(append(pre, v.pre...), jen.Id(t).Op(":=").Add(v.val))
		return jen.Id(t)
	}
	args := []jen.Code{jen.Lit(x.Name), eval(src)}
	for _, l := range links {
		filter, name := l.GenFilter()
		gen := []jen.Code{jen.Lit(filter), jen.Lit(name)}
		for _, a := range l.Args[1:] {
			gen = append(gen, eval(a))
		}
		args = append(args, jen.Qual(ir.JinjaPath, "NewGen").Call(gen...))
	}
	return gval{pre: pre, val: jen.Qual(ir.JinjaPath, "GenIterator").Call(args...)}
}

// dynIter returns the statements that set items to what loop n over a
// dynamic iterable iterates: a []jinja.Value, or [][2]jinja.Value of a
// dict's items.
func (e *emitter) dynIter(n *ir.For, items string) []jen.Code {
	x := n.Iter
	call := "Iter"
	if d, ok := x.(*ir.Dynamic); ok && d.Op == ir.DynItems {
		x, call = d.Args[0], "Items"
		if d.Method {
			call = "DictItems"
		}
	}
	v := e.dynArg(x)
	err := e.temp("err")
	return append(v.pre,
		jen.List(jen.Id(items), jen.Id(err)).Op(":=").Add(v.val).Dot(call).Call(),
		jen.If(jen.Id(err).Op("!=").Nil()).Block(jen.Return(dst, e.dynErr(jen.Id(err), n.Pos))))
}

// dynUnpack binds the targets of loop n, for a, b in xs, from x, an item
// of a dynamic iterable.
func (e *emitter) dynUnpack(n *ir.For, x jen.Code, used map[*ir.Local]bool) []jen.Code {
	parts, err := e.temp("parts"), e.temp("err")
	s := []jen.Code{
		jen.List(jen.Id(parts), jen.Id(err)).Op(":=").Add(x).Dot("Unpack").Call(jen.Lit(len(n.Unpack))),
		jen.If(jen.Id(err).Op("!=").Nil()).Block(jen.Return(dst, e.dynErr(jen.Id(err), n.Pos))),
	}
	bound := false
	for i, l := range n.Unpack {
		if used[l] {
			s = append(s, bindTarget(l, jen.Id(parts).Index(jen.Lit(i)))...)
			bound = true
		}
	}
	if !bound {
		s = append(s, jen.Id("_").Op("=").Id(parts))
	}
	return s
}

// dynToJSON is tojson of a dynamic value, with Jinja2's indent argument
// (and transformers' ensure_ascii).
func (e *emitter) dynToJSON(x *ir.Dynamic) gval {
	v := e.dynArg(x.Args[0])
	pre := v.pre
	indent, hasIndent := jen.Code(jen.Lit(0)), jen.Code(jen.False())
	if k, ok := x.Args[1].(*ir.Const); !ok || k.Value != nil {
		iv := e.strict(e.expr(x.Args[1]), x.Pos, ir.VarPath(x.Args[1]))
		pre = append(pre, iv.pre...)
		indent, hasIndent = iv.val, jen.True()
	}
	call := jen.Qual(ir.JinjaPath, "ToJSON").Call(v.val, indent, hasIndent, jen.Lit(e.p.Transformers))
	if ir.ToJSONEnsureASCII(x.Args[1:]) {
		call = jen.Qual(ir.JinjaPath, "ToTransformersASCIIJSON").Call(v.val, indent, hasIndent)
	}
	return e.dynFallible(pre, call, x.Pos, func(v jen.Code) gval { return gval{val: v} })
}

// dynComposite builds a list literal (keys nil) or a dict literal of
// dynamic type as a jinja.Value; ints marks its int keys (ir.Dict's
// IntKeys).
func (e *emitter) dynComposite(keys []string, ints []bool, elems []ir.Expr) gval {
	pre, vals := e.elements(elems, nil)
	if keys == nil {
		return gval{pre: pre, val: jen.Qual(ir.JinjaPath, "ListValue").Call(vals...)}
	}
	d := jen.Qual(ir.JinjaPath, "DictValue").Call()
	for i, k := range keys {
		if ints != nil && ints[i] {
			n, _ := strconv.Atoi(k)
			d = d.Dot("SetInt").Call(jen.Lit(n), vals[i])
			continue
		}
		d = d.Dot("Set").Call(jen.Lit(k), vals[i])
	}
	return gval{pre: pre, val: d}
}
