package difffuzz

// The productions of ints and floats: arithmetic, division, powers, the
// int, float, round and length filters, and loop counters.

import "strconv"

func (g *generator) intProductions(d int, e *expression) []choice {
	num := func() expression { return g.expr(typeInt, d) }
	return []choice{
		{4, g.on("arith"), func() {
			op := g.pick([]string{"+", "-", "*", "//", "%"})
			prec := precMul
			if op == "+" || op == "-" {
				prec = precAdd
			}
			*e = g.binary(num(), op, num(), prec)
		}},
		{1, g.on("pow"), func() {
			y := expression{text: strconv.Itoa(g.r.IntN(4)), prec: precPrimary}
			*e = g.binary(g.expr(typeInt, 0), "**", y, precPow)
		}},
		// An int at the int64 limits, where promptgen fails rather than
		// wrap (seed 21 case 2849, 8 * ('-9.2e18'|int)). The int filter
		// of a string keeps it out of the constants, whose overflow is a
		// generate-time error.
		{1, g.on("int-limits"), func() {
			x := g.filter(expression{text: "'" + g.pick(limitInts) + "'", prec: precPrimary}, "int")
			switch g.r.IntN(4) {
			case 0:
				*e = expression{text: "-" + g.wrap(x, precPrimary), prec: precUnary}
			case 1:
				y := expression{text: g.pick([]string{"1", "2", "63"}), prec: precPrimary}
				if y.text == "63" {
					x = expression{text: g.pick([]string{"2", "(-2)"}), prec: precPrimary}
				}
				*e = g.binary(x, "**", y, precPow)
			default:
				op := g.pick([]string{"+", "-", "*", "//", "%"})
				prec := precMul
				if op == "+" || op == "-" {
					prec = precAdd
				}
				y := expression{text: g.pick([]string{"1", "2", "-1", "3037000499"}), prec: precPrimary}
				if g.chance(0.5) {
					x, y = y, x
				}
				*e = g.binary(x, op, y, prec)
			}
		}},
		// The operand of - is a primary: Jinja2 reads -x|f as (-x)|f.
		{1, g.on("unary"), func() { *e = expression{text: "-" + g.wrap(num(), precPrimary), prec: precUnary} }},
		{2, g.on("method-search"), func() {
			str := func() expression { return g.expr(typeString, d) }
			*e = g.method(g.undefOperand(str), g.pick([]string{"find", "rfind", "count", "index", "rindex"}), g.searchArgs()...)
		}},
		{3, g.on("filter-length"), func() {
			name := "length"
			if g.on("filter-alias") && g.chance(0.2) {
				name = "count"
			}
			var x expression
			g.choose(
				choice{3, true, func() { x = g.expr(g.randListType(), d) }},
				choice{2, true, func() { x = g.expr(typeString, d) }},
				choice{1, g.hasRef(kindMap), func() { x = g.expr(g.randRef(func(r *ref) bool { return r.t.kind == kindMap && g.usable(r) }).t, 0) }},
				choice{1, g.on("length-object") && g.hasRef(kindObject), func() {
					x = g.expr(g.randRef(func(r *ref) bool { return r.t.kind == kindObject && g.usable(r) }).t, 0)
				}},
			)
			*e = g.filter(x, name)
		}},
		{1, g.on("generator-misuse") && (g.ifs > 0 || g.loops > 0 || g.macroBody), func() { *e = g.generatorMisuse(d) }},
		{1, g.on("filter-value"), func() {
			x := g.expr([]*valueType{typeString, typeString, typeInt, typeFloat, g.randListType()}[g.r.IntN(5)], d)
			*e = g.filter(x, "wordcount")
		}},
		{2, g.on("filter-int"), func() {
			var x expression
			var args []string
			g.sensitive += g.undefDepth()
			defer func() { g.sensitive -= g.undefDepth() }()
			g.choose(
				choice{2, true, func() {
					x = expression{text: g.pick([]string{"'12'", "'-4'", "' 7 '", "'3.7'", "'abc'", "''", "'1e3'", "'0x1A'", "'0b101'", "'1_000'", "'٣'"}), prec: precPrimary}
					if g.on("number-data") && g.chance(0.3) {
						x.text = g.pick([]string{"' +1_000 '", "'9007199254740993'", "'-0'", "'1__2'", "'nan'", "'inf'", "'1e400'", "'-9.2e18'", "'\\t42\\n'"})
					}
					if g.chance(0.3) {
						args = append(args, g.kw("default", strconv.Itoa(g.r.IntN(9)-1)))
						if g.chance(0.5) {
							bases := []string{"10", "16", "2", "0"}
							if x.text == "'9007199254740993'" {
								// In base 16 it is beyond 64 bits, where int fails on
								// purpose and Jinja2 prints the big int (seed 402
								// cases 7798, 10119).
								bases = []string{"10", "2", "0"}
							}
							args = append(args, g.kw("base", g.pick(bases)))
						}
					}
				}},
				choice{1, true, func() { x = g.expr(typeString, d) }},
				choice{2, true, func() { x = g.expr(typeFloat, d) }},
				choice{1, true, func() { x = num() }},
				choice{1, true, func() { x = g.expr(typeBool, 0) }},
			)
			*e = g.filter(x, "int", args...)
		}},
		// round makes an inferred operand a number.
		{1, g.on("filter-round") && g.declared, func() {
			if g.chance(0.5) {
				p := g.r.IntN(3)
				if g.on("number-data") && g.chance(0.5) {
					p = -1 - g.r.IntN(3) // Python rounds an int to tens, ties to even
				}
				*e = g.filter(g.undefOperand(num), "round", strconv.Itoa(p))
			} else {
				*e = g.filter(g.undefOperand(num), "round")
			}
		}},
		{2, g.on("loop-attr") && g.inLoop(), func() {
			*e = expression{text: "loop." + g.pick([]string{"index", "index0", "revindex", "revindex0", "length"}), prec: precPrimary}
		}},
		{1, g.on("method-split") && g.on("filter-length"), func() {
			*e = g.filter(g.method(g.undefOperand(func() expression { return g.expr(typeString, d) }), "split"), "length")
		}},
	}
}

// limitInts are ints at and near the int64 limits, and the square root
// of the largest.
var limitInts = []string{"9223372036854775807", "-9223372036854775808", "9223372036854775806", "-9223372036854775807",
	"4611686018427387904", "-4611686018427387904", "3037000499", "-3037000500", "-9.2e18"}

func (g *generator) floatProductions(d int, e *expression) []choice {
	flt := func() expression { return g.expr(typeFloat, d) }
	// An int operand of a float operation: not in inferred mode, where it
	// would make an inferred int input a number.
	number := func() expression {
		if g.chance(0.5) && g.declared {
			return g.expr(typeInt, d)
		}
		return flt()
	}
	return []choice{
		{4, g.on("arith"), func() {
			op := g.pick([]string{"+", "-", "*", "//", "%"})
			prec := precMul
			if op == "+" || op == "-" {
				prec = precAdd
			}
			x, y := flt(), number()
			if g.chance(0.5) {
				x, y = y, x
			}
			*e = g.binary(x, op, y, prec)
		}},
		{3, g.on("divide"), func() {
			if !g.declared && g.chance(0.5) { // ints of one kind
				*e = g.binary(g.expr(typeInt, d), "/", g.expr(typeInt, d), precMul)
				return
			}
			*e = g.binary(number(), "/", number(), precMul)
		}},
		{1, g.on("pow"), func() {
			y := expression{text: strconv.Itoa(g.r.IntN(3)), prec: precPrimary}
			*e = g.binary(g.expr(typeFloat, 0), "**", y, precPow)
		}},
		// An int beyond 2^53 (a literal, or int of a string, which the data
		// may hold) divided by an int: Python's quotient is correctly
		// rounded. Only as the dividend, so no product leaves int64.
		{1, g.on("number-data"), func() {
			x := expression{text: g.pick([]string{"9007199254740993", "4611686018427387905", "12345678901234567"}), prec: precPrimary}
			if g.chance(0.5) {
				g.sensitive += g.undefDepth()
				x = g.filter(g.expr(typeString, d), "int")
				g.sensitive -= g.undefDepth()
			}
			*e = g.binary(x, "/", g.expr(typeInt, d), precMul)
		}},
		// An int to a negative constant power is a float.
		{1, g.on("pow-negative"), func() {
			y := expression{text: strconv.Itoa(-1 - g.r.IntN(2)), prec: precUnary}
			*e = g.binary(g.expr(typeInt, 0), "**", y, precPow)
		}},
		{1, g.on("unary"), func() {
			x := g.leaf(typeFloat) // a name or a literal, never a constant Go folds
			if g.on("neg-zero-constant") {
				x = flt()
			}
			*e = expression{text: "-" + g.wrap(x, precPrimary), prec: precUnary}
		}},
		{2, g.on("filter-float"), func() {
			var x expression
			var args []string
			g.sensitive += g.undefDepth()
			defer func() { g.sensitive -= g.undefDepth() }()
			g.choose(
				choice{2, true, func() {
					x = expression{text: g.pick([]string{"'1.5'", "' 2 '", "'abc'", "'1e3'", "'-0.25'", "'1_0.5'"}), prec: precPrimary}
					if g.on("number-data") && g.chance(0.3) {
						// Not inf or nan: Jinja2 folds the constant and writes it
						// into its Python code as inf, a NameError (they come in
						// the data); nor a subnormal, which a constant divided by
						// makes inf (seed 9).
						x.text = g.pick([]string{"'-1e-400'", "'9007199254740993'", "' +.5 '", "'1_.5'", "'-0'", "'1E+2'"})
					}
					if g.chance(0.3) {
						args = append(args, g.kw("default", g.floatLit().text))
					}
				}},
				choice{1, true, func() { x = g.expr(typeString, d) }},
				choice{2, true, func() { x = g.expr(typeInt, d) }},
				choice{1, true, func() { x = flt() }},
			)
			*e = g.filter(x, "float", args...)
		}},
		{2, g.on("filter-round"), func() {
			var args []string
			method := "common"
			if g.chance(0.6) {
				p := g.r.IntN(4)
				if g.on("number-data") && g.chance(0.3) {
					p = -1 - g.r.IntN(3)
				}
				args = append(args, g.kw("precision", strconv.Itoa(p)))
				if g.chance(0.6) {
					method = g.pick([]string{"common", "floor", "ceil"})
					args = append(args, g.kw("method", "'"+method+"'"))
				}
			}
			x := flt()
			if method != "common" && g.chance(0.3) && g.declared {
				x = g.expr(typeInt, d) // floor and ceil make a float of it
			}
			*e = g.filter(g.undefOperand(func() expression { return x }), "round", args...)
		}},
	}
}

// searchArgs are the arguments of str.find and the like: a substring, then
// maybe start and end, small ints either side of zero or none.
func (g *generator) searchArgs() []string {
	args := []string{g.strLit()}
	for range g.r.IntN(3) {
		n := strconv.Itoa(g.r.IntN(13) - 6)
		if g.chance(0.15) {
			n = "none"
		}
		args = append(args, n)
	}
	return args
}
