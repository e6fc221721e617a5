package difffuzz

// The expressions of the chat cases: dynamic names and the keys, indexes,
// slices and get() of their values by shape, operators, filters, and
// conditions on them.

import (
	"strconv"
	"strings"
)

// dynRef is a dynamic name in scope followed by up to two accesses.
func (g *generator) dynRef() (expression, string) {
	v := g.dyn[g.r.IntN(len(g.dyn))]
	e, shape := expression{text: v.name, prec: precPrimary}, v.shape
	if x, ok := g.dynNeighbour(); ok && g.chance(0.2) {
		e, shape = x, "message" // undefined at an end, where an access fails on both sides
	}
	for range g.r.IntN(3) {
		e, shape = g.dynAccess(e, shape)
	}
	return e, shape
}

// shapeKey picks a key of a value of shape s (or any key, sometimes) and
// the shape of its value, "any" when not known.
func (g *generator) shapeKey(s shapeSpec) (key, sub string) {
	keys := s.keys
	if len(keys) == 0 || g.chance(0.2) {
		keys = dynKeys
	}
	key = g.pick(keys)
	if sub = s.sub[key]; sub == "" {
		sub = "any"
	}
	return key, sub
}

// dynAccess is a key, index, slice or get() of e.
func (g *generator) dynAccess(e expression, shape string) (expression, string) {
	s := shapes[shape]
	key := func() (string, string) { return g.shapeKey(s) }
	var out expression
	sub := "any"
	g.choose(
		choice{6, s.keys != nil, func() {
			k, sh := key()
			sub = sh
			if strings.ContainsAny(k, " é0") || g.chance(0.4) {
				out = expression{text: g.wrap(e, precPrimary) + "['" + k + "']", prec: precPrimary}
			} else {
				out = expression{text: g.wrap(e, precPrimary) + "." + k, prec: precPrimary}
			}
		}},
		choice{1, g.chance(0.2), func() {
			if k := g.pick(dynMethodKeys); g.chance(0.3) {
				out = expression{text: g.wrap(e, precPrimary) + "." + k, prec: precPrimary}
			} else {
				out = expression{text: g.wrap(e, precPrimary) + "['" + k + "']", prec: precPrimary}
			}
		}},
		choice{4, s.elem != "", func() {
			sub = s.elem
			i := g.pick([]string{"0", "1", "-1", "2", "-2"})
			if g.loops > 0 && g.chance(0.3) {
				i = "loop.index0"
			}
			out = expression{text: g.wrap(e, precPrimary) + "[" + i + "]", prec: precPrimary}
		}},
		choice{2, true, func() {
			sub = shape
			out = g.slice(e)
		}},
		choice{3, s.keys != nil, func() {
			k, sh := key()
			sub = sh
			if g.chance(0.5) {
				d, _ := g.dynLeaf()
				out = g.method(e, "get", "'"+k+"'", g.wrap(d, precCond))
			} else {
				out = g.method(e, "get", "'"+k+"'")
			}
		}},
	)
	return out, sub
}

// dynLeaf is a dynamic reference or a literal.
func (g *generator) dynLeaf() (expression, string) {
	if g.chance(0.7) {
		return g.dynRef()
	}
	return g.dynLit(), "any"
}

// dynLit is a literal of any kind a dynamic value converts from.
func (g *generator) dynLit() expression {
	var e expression
	g.choose(
		choice{4, true, func() { e = g.lit(typeString) }},
		choice{3, true, func() { e = g.lit(typeInt) }},
		choice{1, true, func() { e = g.lit(typeFloat) }},
		choice{1, true, func() { e = g.lit(typeBool) }},
		choice{1, true, func() { e = expression{text: g.pick([]string{"none", "None"}), prec: precPrimary} }},
		choice{1, true, func() { e = g.lit(listOf([]*valueType{typeString, typeInt, typeFloat, typeBool}[g.r.IntN(4)])) }},
		choice{1, true, func() { e = expression{text: "'" + g.pick(roles) + "'", prec: precPrimary} }},
	)
	return e
}

// dynExpr is an expression with a dynamic operand, and the shape of its
// value.
func (g *generator) dynExpr(d int) (expression, string) { return g.dynValue(d, true) }

// dynOperand is a dynamic expression, mostly one of dynamic type: an
// operation on typed operands (a length, a concatenation) is typed, and
// promptgen rejects a typed operation that Python would fail at run time.
func (g *generator) dynOperand(d int) (expression, string) { return g.dynValue(d, g.chance(0.15)) }

// dynValue is dynExpr, with typed results only when typed is set.
func (g *generator) dynValue(d int, typed bool) (expression, string) {
	if d <= 0 {
		return g.dynLeaf()
	}
	sub := func() expression { x, _ := g.dynOperand(d - 1); return x }
	var e expression
	shape := "any"
	g.choose(
		choice{12, true, func() { e, shape = g.dynRef() }},
		choice{2, typed, func() { e = g.dynLit() }},
		choice{3, true, func() {
			op := g.pick([]string{"+", "-", "*", "/", "//", "%", "+", "+"})
			prec := precMul
			if op == "+" || op == "-" {
				prec = precAdd
			}
			x, y := sub(), sub()
			switch {
			case op == "%" && !g.on("dyn-str-format"):
				y = g.lit([]*valueType{typeInt, typeFloat}[g.r.IntN(2)])
			case g.chance(0.5):
				y = g.dynLit()
			}
			e = g.binary(x, op, y, prec)
		}},
		choice{1, g.on("dyn-markup"), func() { e = g.dynMarkup(d, sub) }},
		choice{1, true, func() {
			y := expression{text: strconv.Itoa(g.r.IntN(4)), prec: precPrimary}
			x, _ := g.dynLeaf()
			e = g.binary(x, "**", y, precPow)
		}},
		choice{1, true, func() { e = expression{text: "-" + g.wrap(sub(), precPrimary), prec: precUnary} }},
		choice{2, typed, func() { e = g.binary(sub(), "~", sub(), precConcat) }},
		choice{3, true, func() {
			x, sh := g.dynOperand(d - 1)
			shape = sh
			args := []string{g.wrap(sub(), precCond)}
			if g.chance(0.3) {
				args = append(args, g.kw("boolean", g.pick([]string{"true", "false"})))
			}
			e = g.filter(x, g.pick([]string{"default", "d"}), args...)
		}},
		choice{2, true, func() {
			x, sh := g.dynOperand(d - 1)
			shape = shapes[sh].elem
			e = g.filter(x, g.pick([]string{"first", "last"}))
		}},
		choice{1, true, func() {
			x, sh := g.dynOperand(d - 1)
			shape = sh
			e = g.filter(x, "list")
		}},
		choice{6, g.on("dyn-filters"), func() { e, shape = g.dynFilter(d) }},
		choice{1, g.on("dyn-tuple"), func() {
			items := make([]string, g.r.IntN(4))
			for i := range items {
				items[i] = g.wrap(sub(), precCond) + ","
			}
			e = expression{text: "(" + strings.TrimSuffix(strings.Join(items, " "), ",") + ")", prec: precPrimary}
			if len(items) == 1 {
				e.text = "(" + items[0] + ")"
			}
		}},
		choice{1, g.on("dyn-index"), func() { e = g.dynIndexOf(sub()) }},
		choice{1, g.on("dyn-concat-mixed"), func() {
			// A list of typed values plus a list holding a dynamic one.
			typed := g.lit(listOf([]*valueType{typeString, typeInt}[g.r.IntN(2)]))
			items := expression{text: "[" + g.wrap(sub(), precCond) + "]", prec: precPrimary}
			if g.chance(0.5) {
				typed, items = items, typed
			}
			e = g.binary(typed, "+", items, precAdd)
		}},
		choice{1, g.on("chat-own-or-empty"), func() {
			// A variable of the template's own (never in the data, so
			// undefined) or {}, read with a key known at run time.
			own := "(extra_info if extra_info is defined else {})"
			if g.chance(0.3) {
				own = "(extra_info | default({}))"
			}
			k := g.wrap(sub(), precCond)
			if g.chance(0.5) {
				e = expression{text: own + "[" + k + "]", prec: precPrimary}
			} else {
				e = expression{text: k + " in " + own, prec: precCmp}
			}
		}},
		choice{1, typed && g.on("filter-format"), func() { e = g.dynFormat(sub) }},
		choice{2, typed, func() {
			e = g.filter(sub(), g.pick([]string{"length", "count", "string", "upper", "lower", "trim", "title", "wordcount"}))
		}},
		choice{1, typed, func() {
			var args []string
			if g.chance(0.6) {
				args = append(args, g.strLit())
			}
			e = g.filter(sub(), "join", args...)
		}},
		choice{2, typed, func() {
			name := g.pick([]string{"strip", "upper", "lower", "startswith", "endswith", "split", "replace", "lstrip",
				"find", "rfind", "zfill", "center", "swapcase", "splitlines"})
			var args []string
			switch name {
			case "startswith", "endswith":
				args = []string{g.strLit()}
			case "replace":
				args = []string{g.strLit(), g.strLit()}
			case "find", "rfind":
				args = g.searchArgs()
			case "zfill", "center":
				args = []string{strconv.Itoa(g.r.IntN(12))}
			}
			// An int argument given as a dynamic value (zfill's width,
			// find's start or end), which Python reads when rendering.
			first, ints := map[string]int{"zfill": 0, "center": 0, "find": 1, "rfind": 1}[name]
			if ints && len(args) > first && g.on("dyn-method-int") && g.chance(0.4) {
				y, _ := g.dynOperand(d - 1)
				args[first+g.r.IntN(len(args)-first)] = g.operand(y, precCond).text
			}
			e = g.method(sub(), name, args...)
		}},
		choice{2, true, func() {
			x, sh := g.dynOperand(d - 1)
			y, _ := g.dynOperand(d - 1)
			shape = sh
			c := g.dynCond(d - 1)
			y = g.operand(y, precCond)
			e = expression{text: g.beforeName(x, precOr) + " if " + g.wrap(c, precOr) + " else " + y.text, prec: precCond, openRight: y.openRight}
		}},
		choice{1, true, func() {
			x := g.andOrLeft(sub)
			if g.chance(0.5) {
				e = g.binary(x, "and", sub(), precAnd)
			} else {
				e = g.binary(x, "or", sub(), precOr)
			}
		}},
	)
	return e, shape
}

// dynFilter is a filter of a dynamic value or of the messages that
// Jinja2 computes with Python's semantics: sort, dictsort, int, float and
// abs as values, and reverse, map, batch, items and the dict views
// consumed by list, join, first, length (views) or sort.
func (g *generator) dynFilter(d int) (expression, string) {
	x, shape := g.dynOperand(d - 1)
	if g.chance(0.4) {
		v := g.pick([]string{"messages", "messages", "tools", "documents"})
		x, shape = expression{text: v, prec: precPrimary}, v
		if g.chance(0.3) {
			x = g.slice(x)
		}
	}
	s := shapes[shape]
	key := func() (string, string) {
		if e := shapes[s.elem]; e.keys != nil && g.chance(0.8) {
			s = e
		}
		k, sub := g.shapeKey(s)
		if sub != "any" && g.chance(0.4) {
			k2 := g.pick(append(shapes[sub].keys, "0"))
			return k + "." + k2, "any"
		}
		return k, sub
	}
	bools := func(names ...string) []string {
		var args []string
		for _, n := range names {
			if g.chance(0.4) {
				args = append(args, n+"="+g.pick([]string{"true", "false"}))
			}
		}
		return args
	}
	var e expression
	out := "any"
	iterated := false
	g.choose(
		choice{3, true, func() {
			args := bools("reverse", "case_sensitive")
			out = shape
			if g.chance(0.6) {
				k, _ := key()
				if g.chance(0.2) {
					k2, _ := key()
					k += "," + k2
				}
				args = append(args, "attribute='"+k+"'")
			}
			e = g.filter(x, "sort", args...)
		}},
		choice{2, true, func() {
			args := bools("case_sensitive")
			if g.chance(0.4) {
				args = append(args, "by='"+g.pick([]string{"key", "value", "key", "value", "k"})+"'")
			}
			e = g.filter(x, "dictsort", append(args, bools("reverse")...)...)
		}},
		choice{2, true, func() {
			var args []string
			if g.chance(0.3) {
				args = append(args, g.wrap(g.dynLit(), precCond))
			}
			if g.chance(0.2) {
				args = append(args, g.pick([]string{"0", "2", "8", "16"}))
			}
			e = g.filter(x, "int", args...)
		}},
		choice{1, true, func() {
			var args []string
			if g.chance(0.3) {
				args = append(args, g.wrap(g.dynLit(), precCond))
			}
			e = g.filter(x, "float", args...)
		}},
		choice{1, true, func() { e = g.filter(x, "abs") }},
		choice{1, g.on("dyn-round"), func() {
			var args []string
			if g.chance(0.6) {
				args = append(args, strconv.Itoa(g.r.IntN(5)-2))
				if g.chance(0.5) {
					args = append(args, "'"+g.pick([]string{"common", "ceil", "floor", "up"})+"'")
				}
			}
			e = g.filter(x, "round", args...)
		}},
		choice{3, true, func() { e, out, iterated = g.filter(x, "reverse"), shape, true }},
		choice{4, true, func() {
			k, _ := key()
			args := []string{"attribute='" + k + "'"}
			if g.chance(0.3) {
				args = append(args, "default="+g.wrap(g.dynLit(), precCond))
			}
			e, iterated = g.filter(x, "map", args...), true
		}},
		choice{2, true, func() {
			name := g.pick([]string{"upper", "lower", "title", "capitalize", "trim", "string", "length", "count", "int", "float", "abs", "first", "last"})
			e, iterated = g.filter(x, "map", "'"+name+"'"), true
		}},
		choice{1, g.on("map-tojson"), func() {
			// transformers' tojson takes ensure_ascii first.
			args := []string{"'tojson'"}
			if g.profile && g.chance(0.2) {
				args = append(args, g.kw("ensure_ascii", g.pick([]string{"true", "false"})))
			}
			if g.chance(0.3) {
				args = append(args, g.kw("indent", strconv.Itoa(g.r.IntN(3))))
			}
			e, iterated = g.filter(x, "map", args...), true
		}},
		choice{1, g.on("map-list-filter"), func() {
			name := g.pick([]string{"list", "sort", "dictsort", "sum", "min", "max"})
			args := []string{"'" + name + "'"}
			if name == "sort" && g.chance(0.4) {
				args = append(args, g.kw("reverse", "true"))
			}
			e, iterated = g.filter(x, "map", args...), true
		}},
		choice{1, g.on("map-value-filter"), func() {
			name := g.pick([]string{"center", "striptags", "urlencode", "wordwrap", "filesizeformat", "wordcount", "round", "indent"})
			e, iterated = g.filter(x, "map", append([]string{"'" + name + "'"}, g.stringFilterArgs(name)...)...), true
		}},
		choice{2, true, func() {
			args := []string{strconv.Itoa(g.r.IntN(4))}
			if g.chance(0.4) {
				args = append(args, g.wrap(g.dynLit(), precCond))
			}
			e, iterated = g.filter(x, "batch", args...), true
		}},
		choice{2, true, func() { e, iterated = g.filter(x, "items"), true }},
		choice{2, g.on("filter-group"), func() {
			k, _ := key()
			args := []string{"attribute='" + k + "'"}
			if g.chance(0.4) {
				args = append(args, "default="+g.wrap(g.dynLit(), precCond))
			}
			e = g.filter(x, "groupby", append(args, bools("case_sensitive")...)...)
			if g.chance(0.5) {
				e, iterated = g.filter(e, "map", "attribute='"+g.pick([]string{"grouper", "list"})+"'"), true
			}
		}},
		choice{2, g.on("dyn-unique"), func() {
			var args []string
			if g.chance(0.6) {
				k, _ := key()
				args = append(args, "attribute='"+k+"'")
			}
			e, iterated = g.filter(x, "unique", append(bools("case_sensitive"), args...)...), true
		}},
		choice{2, g.on("filter-group"), func() {
			args := []string{strconv.Itoa(g.r.IntN(5) - 1)}
			if g.chance(0.4) {
				args = append(args, g.wrap(g.dynLit(), precCond))
			}
			e, iterated = g.filter(x, "slice", args...), true
		}},
		choice{3, true, func() {
			e, iterated = g.method(x, g.pick([]string{"items", "keys", "values"})), true
			if g.chance(0.2) {
				e, iterated = g.filter(e, "length"), false
			}
		}},
	)
	if iterated && g.on("dyn-unique") && g.chance(0.3) {
		// Issue 27: a chain of generators read by first or in, which
		// Jinja2 pulls only up to the item they need: a later item's work
		// (a dict key of unique, a string ordered with a number, the
		// length of an int) never runs.
		for range g.r.IntN(3) {
			k, _ := key()
			e = g.pulledLink(e, k)
		}
		if g.chance(0.6) {
			return g.filter(e, "first"), "any"
		}
		return g.compare(g.dynLit(), g.pick([]string{"in", "not in"}), e), "any"
	}
	if iterated || g.chance(0.2) {
		g.choose(
			choice{6, true, func() { e = g.filter(e, "list") }},
			choice{2, true, func() {
				var args []string
				if g.chance(0.6) {
					args = append(args, g.strLit())
				}
				e, out = g.filter(e, "join", args...), "any"
			}},
			choice{2, true, func() { e, out = g.filter(e, "first"), "any" }},
			choice{1, true, func() { e = g.filter(e, "sort") }},
		)
	}
	return e, out
}

// dynCond is a condition on dynamic values.
func (g *generator) dynCond(d int) expression {
	sub := func() expression { x, _ := g.dynOperand(max(d-1, 0)); return x }
	var e expression
	g.choose(
		choice{5, true, func() { e = g.isTest(sub(), g.pick(dynTests)) }},
		choice{4, true, func() {
			op := g.pick([]string{"==", "!=", "<", ">", "<=", ">=", "==", "=="})
			y := sub()
			if g.chance(0.6) {
				y = g.dynLit()
			}
			e = g.compare(sub(), op, y)
		}},
		choice{4, true, func() {
			op := g.pick([]string{"in", "not in"})
			switch g.r.IntN(3) {
			case 0:
				k := g.pick(append(shapes["message"].keys, dynKeys...))
				e = g.compare(expression{text: "'" + k + "'", prec: precPrimary}, op, sub())
			case 1:
				e = g.compare(sub(), op, g.dynLit())
			default:
				e = g.compare(sub(), op, sub())
			}
		}},
		choice{3, true, func() { e = sub() }},
		choice{2, g.on("dyn-filters"), func() {
			// in iterates a generator.
			x, _ := g.dynOperand(max(d-1, 0))
			y := g.filter(x, "map", "attribute='"+g.pick(append(shapes["message"].keys, dynKeys...))+"'")
			switch g.r.IntN(3) {
			case 0:
				y = g.filter(x, "reverse")
			case 1:
				y = g.method(x, "values")
			}
			left := g.dynLit()
			if g.chance(0.3) {
				left = sub()
			}
			e = g.compare(left, g.pick([]string{"in", "not in"}), y)
		}},
		choice{1, d > 0, func() { e = g.not(g.dynCond(d - 1)) }},
		choice{2, d > 0, func() {
			x := g.andOrLeft(func() expression { return g.dynCond(d - 1) })
			if g.chance(0.5) {
				e = g.binary(x, "and", g.dynCond(d-1), precAnd)
			} else {
				e = g.binary(x, "or", g.dynCond(d-1), precOr)
			}
		}},
		choice{1, g.loops > 0, func() { e = expression{text: "loop." + g.pick([]string{"first", "last"}), prec: precPrimary} }},
		choice{2, g.loops > 0 && g.on("loop-neighbour"), func() {
			x, ok := g.dynNeighbour()
			if !ok {
				e = expression{text: "add_generation_prompt", prec: precPrimary}
				return
			}
			if g.chance(0.5) {
				e = g.isTest(x, g.pick([]string{"defined", "undefined"}))
			} else {
				// As chat templates compare roles, guarded.
				e = expression{text: x.text + " is defined and " + x.text + ".role == " + "'" + g.pick(roles) + "'", prec: precAnd}
			}
		}},
		choice{1, true, func() { e = expression{text: "add_generation_prompt", prec: precPrimary} }},
	)
	return e
}

// dynMarkup is a + of a safe or tojson result (Jinja2's Markup, which
// escapes the other operand) and a dynamic operand: the Markup as it is,
// in one branch of a condition or one operand of an and/or only, or read back from a tuple it is an
// item of (an item, first, last), or a str method or string filter of
// these; or such a tuple itself, printed or looped over by the caller.
func (g *generator) dynMarkup(d int, sub func() expression) expression {
	m := g.filter(sub(), g.pick([]string{"safe", "tojson"}))
	tuple := func() string { return "(" + g.wrap(m, precCond) + ", " + g.wrap(sub(), precCond) + ")" }
	switch g.r.IntN(8) {
	case 7:
		// Markup as one operand of an and/or: kept operand by operand.
		if g.chance(0.5) {
			m = g.binary(sub(), "or", m, precOr)
		} else {
			m = g.binary(m, "and", sub(), precAnd)
		}
	case 5:
		// Markup in one branch, a plain string in the other: kept
		// branch by branch.
		m = expression{text: g.beforeName(m, precOr) + " if " + g.wrap(g.dynCond(d-1), precOr) + " else " + g.strLit(), prec: precCond}
	case 6:
		// select and reject keep a holder's items as they are.
		sel := g.pick([]string{"select", "reject('none')", "rejectattr('name', 'none')", "selectattr('upper')"})
		return g.filter(expression{text: tuple() + "|" + sel, prec: precPrimary}, g.pick([]string{"list", "first", "last"}))
	case 1:
		m = expression{text: g.beforeName(m, precOr) + " if " + g.wrap(g.dynCond(d-1), precOr) + " else " + g.wrap(sub(), precCond), prec: precCond}
	case 2:
		m = expression{text: tuple() + "[" + g.pick([]string{"0", "1", "-1"}) + "]", prec: precPrimary}
	case 3:
		m = g.filter(expression{text: tuple(), prec: precPrimary}, g.pick([]string{"first", "last"}))
	case 4:
		return expression{text: tuple(), prec: precPrimary}
	}
	if g.chance(0.3) {
		// A str method or string filter whose Markup returns Markup:
		// Markup where its operand is, at run time; or its split(),
		// Markup strings there, printed.
		p := expression{text: "(" + m.text + ")", prec: precPrimary}
		switch g.r.IntN(3) {
		case 0:
			m = g.method(p, g.pick([]string{"upper", "strip", "capitalize", "lower", "title", "swapcase"}))
		case 1:
			m = g.filter(p, g.pick([]string{"upper", "trim", "string", "lower", "capitalize"}))
		default:
			return g.method(g.method(p, g.pick([]string{"upper", "strip"})), "split")
		}
	}
	x := sub()
	if g.chance(0.5) {
		m, x = x, m
	}
	return g.binary(m, "+", x, precAdd)
}

// dynIndexOf is a typed value subscripted by i, a dynamic value (family
// dyn-index, which also subscripts generators by numbers and strings,
// generatorIndex): a list or string literal, whose item Python reads at
// run time (undefined where i is no int, or out of range), or a
// generator or a list's reverse, undefined (or an attribute it names).
func (g *generator) dynIndexOf(i expression) expression {
	var x expression
	switch g.r.IntN(4) {
	case 0:
		x = g.lit(listOf([]*valueType{typeString, typeInt, typeFloat}[g.r.IntN(3)]))
	case 1:
		x = g.lit(typeString)
	case 2:
		x = g.filter(g.lit(listOf(typeString)), g.pick([]string{"select", "reject", "unique", "reverse"}))
	default:
		x = g.filter(g.lit(listOf(typeInt)), "map", "'string'")
	}
	return expression{text: g.wrap(x, precPrimary) + "[" + i.text + "]", prec: precPrimary}
}

// pulledLink is e, a generator of dynamic values, through one more
// generator whose work on an item may fail (issue 27): unique by the key
// k, selectattr or rejectattr of k by an order, select or reject by one,
// map of k or of a filter.
func (g *generator) pulledLink(e expression, k string) expression {
	switch g.r.IntN(5) {
	case 0:
		return g.filter(e, "unique", "attribute='"+k+"'")
	case 1:
		return g.filter(e, g.pick([]string{"selectattr", "rejectattr"}), "'"+k+"'", "'"+g.pick([]string{"gt", "lt", "ge"})+"'", strconv.Itoa(g.r.IntN(3)))
	case 2:
		return g.filter(e, g.pick([]string{"select", "reject"}), "'"+g.pick([]string{"gt", "lt"})+"'", strconv.Itoa(g.r.IntN(3)))
	case 3:
		return g.filter(e, "map", "attribute='"+k+"'")
	}
	return g.filter(e, "map", "'"+g.pick([]string{"length", "abs", "int", "first", "upper"})+"'")
}
