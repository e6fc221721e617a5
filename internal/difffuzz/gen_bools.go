package difffuzz

// The productions of bools: comparisons, and, or, not, membership and
// tests.

import (
	"strconv"
	"strings"
)

func (g *generator) boolProductions(d int, e *expression) []choice {
	scalar := func() *valueType { return []*valueType{typeString, typeInt, typeFloat, typeBool}[g.r.IntN(4)] }
	return []choice{
		{2, g.on("loop-neighbour") && g.inLoop(), func() {
			x, ok := g.loopNeighbour(nil)
			if !ok {
				*e = g.leaf(typeBool)
				return
			}
			*e = expression{text: x.text + " is " + g.pick([]string{"defined", "undefined", "not defined"}), prec: precPostfix, openRight: true}
		}},
		{4, g.on("compare"), func() {
			op := g.pick([]string{"==", "!=", "<", "<=", ">", ">="})
			var x, y expression
			switch t := scalar(); {
			case t == typeBool && (op == "==" || op == "!="):
				x, y = g.expr(typeBool, d), g.expr(typeBool, d)
			case t == typeBool && g.on("compare-bool"):
				// Python's bools are the ints 0 and 1: False < True, True
				// > 0. Only declared inputs meet numbers (inference would
				// make a name compared with a number a number). No draw is
				// added, so the other cases stay as they were.
				x, y = g.expr(typeBool, d), g.expr(typeBool, d)
				if g.declared && (op == ">" || op == ">=") {
					y = g.expr(map[string]*valueType{">": typeInt, ">=": typeFloat}[op], d)
				}
			case t == typeString:
				x, y = g.expr(typeString, d), g.expr(typeString, d)
			case !g.declared:
				// Mixing would make an inferred int a number.
				nt := []*valueType{typeInt, typeFloat}[g.r.IntN(2)]
				x, y = g.expr(nt, d), g.expr(nt, d)
			default:
				x, y = g.expr([]*valueType{typeInt, typeFloat}[g.r.IntN(2)], d), g.expr([]*valueType{typeInt, typeFloat}[g.r.IntN(2)], d)
			}
			*e = g.compare(x, op, y)
		}},
		{1, g.on("compare-mixed") && g.declared, func() {
			x, y := g.expr(typeString, d), g.expr(typeInt, d)
			if g.chance(0.5) {
				x, y = y, x
			}
			*e = g.compare(x, g.pick([]string{"==", "!="}), y)
		}},
		{1, g.on("compare-chain"), func() {
			x, y, z := g.expr(typeInt, d), g.expr(typeInt, d), g.operand(g.expr(typeInt, d), precCmp+1)
			*e = expression{text: g.wrap(x, precCmp+1) + " < " + g.wrap(y, precCmp+1) + " <= " + z.text, prec: precCmp, openRight: z.openRight}
		}},
		{2, g.on("not"), func() {
			x, _ := g.cond(d)
			*e = g.not(x)
		}},
		{2, g.on("and-or"), func() {
			op, prec := "and", precAnd
			if g.chance(0.5) {
				op, prec = "or", precOr
			}
			if g.on("andor-value") && g.chance(0.3) {
				// Non-bool operands: the value is one of them, read
				// for its truth here.
				*e = g.binary(g.anyValue(d), op, g.anyValue(d), prec)
				return
			}
			// The value is one of the operands: each must be a bool,
			// never undefined, nor a name inference may make a string.
			operand := func() expression { return g.expr(typeBool, d) }
			if !g.on("andor-value") {
				operand = func() expression {
					x := g.defined(func() expression { return g.expr(typeBool, d) })
					if !g.declared && x.prec >= precPostfix && !(x.prec == precPrimary && isScalarLit(x.text)) {
						x = expression{text: "not not " + g.wrap(x, precNot), prec: precNot}
					}
					return x
				}
			}
			*e = g.binary(g.andOrLeft(operand), op, operand(), prec)
		}},
		{3, g.on("in"), func() { *e = g.in(d) }},
		{1, g.on("generator-test"), func() { *e = g.generatorTest(d) }},
		{1, g.on("generator-misuse") && (g.ifs > 0 || g.loops > 0 || g.macroBody), func() {
			*e = g.isTest(g.lazyList(typeInt, d), g.pick([]string{"even", "odd", "divisibleby(" + g.wrap(g.expr(typeInt, 0), precCond) + ")"}))
		}},
		{3, g.on("test"), func() {
			name := g.pick([]string{"defined", "undefined", "none", "string", "number"})
			if g.on("test-type") && g.chance(0.5) {
				name = g.pick(typeTests)
			}
			if g.on("test-parity") && g.chance(0.3) {
				name = g.pick([]string{"even", "odd", "divisibleby(3)"})
				*e = g.isTest(g.expr(typeInt, d), name)
				return
			}
			var x expression
			if r := g.randRef(func(r *ref) bool { return r.optional && !r.parentOptional }); r != nil && g.chance(0.5) {
				x = g.useRef(r)
			} else {
				x = g.anyValue(d)
			}
			*e = g.isTest(x, name)
		}},
		{2, g.on("test-builtin"), func() {
			name := g.pick([]string{"lower", "upper", "escaped", "filter", "test"})
			var x expression
			switch {
			case name != "filter" && name != "test":
				x = g.anyValue(d)
			case g.chance(0.5):
				x = expression{text: "'" + g.pick([]string{"upper", "e", "groupby", "sameas", "==", "in", "nope", "Upper"}) + "'", prec: precPrimary}
			default:
				x = g.expr([]*valueType{typeString, typeInt, typeBool}[g.r.IntN(3)], d)
			}
			*e = g.isTest(x, name)
		}},
		{2, g.on("method-affix"), func() {
			*e = g.method(g.undefOperand(func() expression { return g.expr(typeString, d) }), g.pick([]string{"startswith", "endswith"}), g.strLit())
		}},
		{2, g.on("loop-attr") && g.inLoop(), func() {
			*e = expression{text: "loop." + g.pick([]string{"first", "last"}), prec: precPrimary}
		}},
	}
}

// andOrLeft makes the left operand of and/or: no bool literal unless
// andor-constant is on.
func (g *generator) andOrLeft(f func() expression) expression {
	x := f()
	if x.prec == precPrimary && isScalarLit(x.text) && !g.on("andor-constant") {
		return expression{text: "not not " + x.text, prec: precNot}
	}
	return x
}

// isScalarLit reports whether text is a scalar literal.
func isScalarLit(text string) bool {
	switch text {
	case "true", "false", "True", "False", "none", "None":
		return true
	}
	_, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
	return err == nil || strings.HasPrefix(text, "'") || strings.HasPrefix(text, `"`)
}

// in is a membership test: a substring, a list element or a map key.
func (g *generator) in(d int) expression {
	if !g.on("in-undefined") {
		g.sensitive++
		defer func() { g.sensitive-- }()
	}
	op := g.pick([]string{"in", "not in"})
	var x, y expression
	g.choose(
		choice{3, true, func() { x, y = g.expr(typeString, d), g.expr(typeString, d) }},
		choice{3, true, func() {
			t := []*valueType{typeString, typeInt, typeFloat, typeBool}[g.r.IntN(4)]
			x, y = g.expr(t, d), g.exprLazy(listOf(t), d)
			if t == typeFloat && g.chance(0.3) && g.declared {
				x = g.expr(typeInt, d)
			}
		}},
		choice{1, g.hasRef(kindMap), func() {
			x = g.expr(typeString, d)
			y = g.expr(g.randRef(func(r *ref) bool { return r.t.kind == kindMap && g.usable(r) }).t, 0)
		}},
		choice{1, g.on("in-object") && g.hasRef(kindObject), func() {
			r := g.randRef(func(r *ref) bool { return r.t.kind == kindObject && g.usable(r) })
			x = expression{text: "'" + r.t.fields[0].name + "'", prec: precPrimary}
			y = g.useRef(r)
		}},
	)
	return g.compare(x, op, y)
}
