package difffuzz

// The productions of bools: comparisons, and, or, not, membership and
// tests.

import (
	"strconv"
	"strings"
)

func (g *fzGen) boolProductions(d int, e *fzExpr) []choice {
	scalar := func() *fzType { return []*fzType{fzStr, fzIntT, fzFlt, fzBoolT}[g.r.IntN(4)] }
	return []choice{
		{2, g.on("loop-neighbour") && g.inLoop(), func() {
			x, ok := g.loopNeighbour(nil)
			if !ok {
				*e = g.leaf(fzBoolT)
				return
			}
			*e = fzExpr{text: x.text + " is " + g.pick([]string{"defined", "undefined", "not defined"}), prec: precPostfix, openRight: true}
		}},
		{4, g.on("compare"), func() {
			op := g.pick([]string{"==", "!=", "<", "<=", ">", ">="})
			var x, y fzExpr
			switch t := scalar(); {
			case t == fzBoolT && (op == "==" || op == "!="):
				x, y = g.expr(fzBoolT, d), g.expr(fzBoolT, d)
			case t == fzStr:
				x, y = g.expr(fzStr, d), g.expr(fzStr, d)
			case !g.declared:
				// Mixing would make an inferred int a number.
				nt := []*fzType{fzIntT, fzFlt}[g.r.IntN(2)]
				x, y = g.expr(nt, d), g.expr(nt, d)
			default:
				x, y = g.expr([]*fzType{fzIntT, fzFlt}[g.r.IntN(2)], d), g.expr([]*fzType{fzIntT, fzFlt}[g.r.IntN(2)], d)
			}
			*e = g.compare(x, op, y)
		}},
		{1, g.on("compare-mixed") && g.declared, func() {
			x, y := g.expr(fzStr, d), g.expr(fzIntT, d)
			if g.chance(0.5) {
				x, y = y, x
			}
			*e = g.compare(x, g.pick([]string{"==", "!="}), y)
		}},
		{1, g.on("compare-chain"), func() {
			x, y, z := g.expr(fzIntT, d), g.expr(fzIntT, d), g.operand(g.expr(fzIntT, d), precCmp+1)
			*e = fzExpr{text: g.wrap(x, precCmp+1) + " < " + g.wrap(y, precCmp+1) + " <= " + z.text, prec: precCmp, openRight: z.openRight}
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
			operand := func() fzExpr { return g.expr(fzBoolT, d) }
			if !g.on("andor-value") {
				operand = func() fzExpr {
					x := g.defined(func() fzExpr { return g.expr(fzBoolT, d) })
					if !g.declared && x.prec >= precPostfix && !(x.prec == precPrimary && isScalarLit(x.text)) {
						x = fzExpr{text: "not not " + g.wrap(x, precNot), prec: precNot}
					}
					return x
				}
			}
			*e = g.binary(g.andOrLeft(operand), op, operand(), prec)
		}},
		{3, g.on("in"), func() { *e = g.in(d) }},
		{3, g.on("test"), func() {
			name := g.pick([]string{"defined", "undefined", "none", "string", "number"})
			if g.on("test-type") && g.chance(0.5) {
				name = g.pick(fzTypeTests)
			}
			if g.on("test-parity") && g.chance(0.3) {
				name = g.pick([]string{"even", "odd", "divisibleby(3)"})
				*e = g.isTest(g.expr(fzIntT, d), name)
				return
			}
			var x fzExpr
			if r := g.randRef(func(r *fzRef) bool { return r.optional && !r.parentOptional }); r != nil && g.chance(0.5) {
				x = g.useRef(r)
			} else {
				x = g.anyValue(d)
			}
			*e = g.isTest(x, name)
		}},
		{2, g.on("method-affix"), func() {
			*e = g.method(g.undefOperand(func() fzExpr { return g.expr(fzStr, d) }), g.pick([]string{"startswith", "endswith"}), g.strLit())
		}},
		{2, g.on("loop-attr") && g.inLoop(), func() {
			*e = fzExpr{text: "loop." + g.pick([]string{"first", "last"}), prec: precPrimary}
		}},
	}
}

// andOrLeft makes the left operand of and/or: no bool literal unless
// andor-constant is on.
func (g *fzGen) andOrLeft(f func() fzExpr) fzExpr {
	x := f()
	if x.prec == precPrimary && isScalarLit(x.text) && !g.on("andor-constant") {
		return fzExpr{text: "not not " + x.text, prec: precNot}
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
func (g *fzGen) in(d int) fzExpr {
	if !g.on("in-undefined") {
		g.sensitive++
		defer func() { g.sensitive-- }()
	}
	op := g.pick([]string{"in", "not in"})
	var x, y fzExpr
	g.choose(
		choice{3, true, func() { x, y = g.expr(fzStr, d), g.expr(fzStr, d) }},
		choice{3, true, func() {
			t := []*fzType{fzStr, fzIntT, fzFlt, fzBoolT}[g.r.IntN(4)]
			x, y = g.expr(t, d), g.exprLazy(listOf(t), d)
			if t == fzFlt && g.chance(0.3) && g.declared {
				x = g.expr(fzIntT, d)
			}
		}},
		choice{1, g.hasRef(fzMap), func() {
			x = g.expr(fzStr, d)
			y = g.expr(g.randRef(func(r *fzRef) bool { return r.t.kind == fzMap && g.usable(r) }).t, 0)
		}},
		choice{1, g.on("in-object") && g.hasRef(fzObject), func() {
			r := g.randRef(func(r *fzRef) bool { return r.t.kind == fzObject && g.usable(r) })
			x = fzExpr{text: "'" + r.t.fields[0].name + "'", prec: precPrimary}
			y = g.useRef(r)
		}},
	)
	return g.compare(x, op, y)
}
