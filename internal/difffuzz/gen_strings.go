package difffuzz

// The productions of strings: concatenation, repetition, the string
// filters and methods, tojson and slices.

import "strconv"

// stringFilterArgs are random arguments of string filter name.
func (g *generator) stringFilterArgs(name string) []string {
	var args []string
	switch name {
	case "trim":
		if g.chance(0.3) {
			args = append(args, g.strLit())
		}
	case "center", "wordwrap", "round":
		if g.chance(0.6) {
			args = append(args, strconv.Itoa(g.r.IntN(12)-1))
		}
	case "replace":
		args = []string{g.strLit(), g.strLit()}
		if g.chance(0.3) {
			args = append(args, g.kw("count", strconv.Itoa(g.r.IntN(3))))
		}
	case "indent":
		if g.chance(0.7) {
			w := strconv.Itoa(g.r.IntN(5))
			if g.chance(0.2) {
				w = g.strLit()
			}
			args = append(args, g.kw("width", w))
		}
		if g.chance(0.4) {
			args = append(args, "first="+g.pick([]string{"true", "false"}))
		}
		if g.chance(0.3) {
			args = append(args, "blank="+g.pick([]string{"true", "false"}))
		}
	case "truncate":
		end := "'...'" // the default
		var more []string
		if g.chance(0.5) {
			more = append(more, g.kw("killwords", g.pick([]string{"true", "false"})))
			if g.chance(0.6) {
				end = g.pick([]string{"'...'", "''", "'>'", "'…'"})
				more = append(more, g.kw("end", end))
				if g.chance(0.5) {
					more = append(more, g.kw("leeway", strconv.Itoa(g.r.IntN(6))))
				}
			}
		}
		n := g.r.IntN(12)
		if short := len([]rune(end)) - 2; n < short && !g.on("truncate-short") {
			n = short // Jinja2 asserts length >= len(end)
		}
		args = append([]string{g.kw("length", strconv.Itoa(n))}, more...)
	}
	return args
}

// tojson is x|tojson; make x with undefOperand. The transformers
// profile's tojson takes ensure_ascii first, a constant read by its truth.
func (g *generator) tojson(x expression) expression {
	if g.profile && g.on("tojson-ensure-ascii") && g.chance(0.2) {
		return g.filter(x, "tojson", g.pick([]string{"true", "false", "2", "0", "''", "'a'", "none"}))
	}
	if g.chance(0.2) {
		return g.filter(x, "tojson", g.kw("indent", strconv.Itoa(g.r.IntN(3))))
	}
	return g.filter(x, "tojson")
}

func (g *generator) stringProductions(d int, e *expression) []choice {
	str := func() expression { return g.expr(typeString, d) }
	return []choice{
		{4, g.profile && g.on("strftime"), func() { *e = g.strftime() }},
		{3, g.on("concat"), func() { *e = g.binary(g.printable(d), "~", g.printable(d), precConcat) }},
		{1, g.on("plus"), func() { *e = g.binary(str(), "+", str(), precAdd) }},
		{1, g.on("repeat"), func() {
			n := expression{text: strconv.Itoa(g.r.IntN(4)), prec: precPrimary}
			if g.chance(0.5) {
				*e = g.binary(str(), "*", n, precMul)
			} else {
				*e = g.binary(n, "*", str(), precMul)
			}
		}},
		{2, g.on("filter-case"), func() { *e = g.filter(str(), g.pick([]string{"upper", "lower", "title", "capitalize"})) }},
		{1, g.on("text-filter-scalar"), func() {
			// Of a number, a bool or none, which Jinja2 converts with str().
			x := g.expr([]*valueType{typeInt, typeFloat, typeBool}[g.r.IntN(3)], d)
			if g.chance(0.15) {
				x = expression{text: "none", prec: precPrimary}
			}
			name := g.pick([]string{"upper", "lower", "title", "capitalize", "trim", "replace"})
			*e = g.filter(x, name, g.stringFilterArgs(name)...)
		}},
		{1, g.on("filter-reverse"), func() { *e = g.filter(str(), "reverse") }},
		{1, g.on("generator-tojson") && (g.ifs > 0 || g.loops > 0 || g.macroBody), func() {
			// Where it may not run: json.dumps raises TypeError where it runs.
			*e = g.tojson(g.lazyList([]*valueType{typeString, typeInt, typeFloat}[g.r.IntN(3)], d))
		}},
		{1, g.on("filter-trim"), func() { *e = g.filter(str(), "trim", g.stringFilterArgs("trim")...) }},
		{1, g.on("filter-replace"), func() { *e = g.filter(str(), "replace", g.stringFilterArgs("replace")...) }},
		{1, g.on("filter-indent"), func() { *e = g.filter(g.undefOperand(str), "indent", g.stringFilterArgs("indent")...) }},
		{1, g.on("filter-truncate"), func() {
			*e = g.filter(g.undefOperand(str), "truncate", g.stringFilterArgs("truncate")...)
		}},
		{2, g.on("filter-string"), func() { *e = g.filter(g.printable(d), "string") }},
		{1, g.on("filter-safe"), func() { *e = g.filter(g.printable(d), "safe") }},
		{1, g.on("filter-tojson") && g.on("tojson-operand"), func() { *e = g.tojson(g.undefOperand(func() expression { return g.anyValue(d) })) }},
		{2, g.on("filter-join"), func() {
			var x expression
			var args []string
			if g.chance(0.6) {
				args = append(args, g.kw("d", g.strLit()))
			}
			if r := g.randRef(func(r *ref) bool { return isObjectList(r.t) && g.usable(r) }); r != nil && g.chance(0.4) {
				f := r.t.elem.fields[g.r.IntN(len(r.t.elem.fields))]
				if f.t.scalar() {
					x = g.sensitiveOp("map-attr-optional", func() expression {
						y := g.useRef(r)
						g.markSet(fieldPaths(y.elems, f.name))
						return y
					})
					if len(args) == 0 {
						args = append(args, "''")
					}
					args = append(args, "attribute='"+f.name+"'")
					*e = g.filter(x, "join", args...)
					return
				}
			}
			x = g.exprLazy(listOf([]*valueType{typeString, typeInt, typeFloat, typeBool}[g.r.IntN(4)]), d)
			*e = g.filter(x, "join", args...)
		}},
		{2, g.on("method-strip"), func() {
			name := g.pick([]string{"strip", "lstrip", "rstrip"})
			if g.chance(0.3) {
				*e = g.method(g.undefOperand(str), name, g.strLit())
			} else {
				*e = g.method(g.undefOperand(str), name)
			}
		}},
		{2, g.on("method-case"), func() { *e = g.method(g.undefOperand(str), g.pick([]string{"upper", "lower", "title", "capitalize"})) }},
		{1, g.on("method-replace"), func() {
			args := []string{g.strLit(), g.strLit()}
			if g.chance(0.3) {
				args = append(args, strconv.Itoa(g.r.IntN(4)-1))
			}
			*e = g.method(g.undefOperand(str), "replace", args...)
		}},
		{2, g.on("slice"), func() { *e = g.slice(g.sensitiveOp("slice-unset", str)) }},
		{2, g.on("method-pad"), func() {
			name := g.pick([]string{"zfill", "ljust", "rjust", "center"})
			args := []string{strconv.Itoa(g.r.IntN(16) - 2)}
			if name != "zfill" && g.chance(0.5) {
				args = append(args, g.pick([]string{"'*'", "'ł'", "' '", "'ab'", "''"}))
			}
			*e = g.method(g.undefOperand(str), name, args...)
		}},
		{1, g.on("method-case"), func() { *e = g.method(g.undefOperand(str), "swapcase") }},
		{1, g.on("method-partition"), func() {
			x := g.method(g.undefOperand(str), g.pick([]string{"partition", "rpartition"}), g.strLit())
			*e = g.filter(x, "join", g.strLit())
		}},
		{1, g.on("method-lines"), func() {
			var args []string
			if g.chance(0.4) {
				args = append(args, g.kw("keepends", g.pick([]string{"true", "false"})))
			}
			*e = g.filter(g.method(g.undefOperand(str), "splitlines", args...), "join", g.strLit())
		}},
		{2, g.on("markup-methods"), func() { *e = g.markupMethod(d) }},
		{2, g.on("filter-format"), func() { *e = g.formatProduction(d) }},
		{2, g.on("str-format"), func() { *e = g.strFormatProduction(d) }},
		{2, g.on("filter-value"), func() { *e = g.valueFilterString(d) }},
	}
}

func isObjectList(t *valueType) bool { return t.kind == kindList && t.elem.kind == kindObject }

// slice is x[lo:hi:step] with some parts left out.
func (g *generator) slice(x expression) expression {
	part := func() string {
		if g.chance(0.4) {
			return ""
		}
		return strconv.Itoa(g.r.IntN(7) - 3)
	}
	s := part() + ":" + part()
	if g.chance(0.3) {
		step := []string{"", "1", "2", "-1", "-2"}[g.r.IntN(5)]
		s += ":" + step
	}
	return expression{text: g.wrap(x, precPrimary) + "[" + s + "]", prec: precPrimary, paths: x.paths, elems: x.elems}
}

// markup is Markup: an escape, safe or tojson result.
func (g *generator) markup(d int) expression {
	m := g.filter(g.expr(typeString, d), "escape")
	switch g.r.IntN(3) {
	case 0:
		m = g.filter(g.printable(d), "safe")
	case 1:
		m = g.filter(g.printable(d), "tojson")
	}
	return m
}

// markupMethod is a string method or filter of Markup (a safe, tojson or
// escape result) that Jinja2 runs as Markup's: split(), splitlines(),
// partition() and rpartition() return Markup strings (a list printed, or
// an item + a plain string, which it escapes), replace() and strip()
// escape their string arguments, escape leaves Markup as it is and
// forceescape escapes it again; or a list literal holding Markup, printed,
// or mapped through a filter; or the test escaped.
func (g *generator) markupMethod(d int) expression {
	str := func() expression { return g.expr(typeString, d-1) }
	m := g.markup(d - 1)
	printed := func(x expression) expression {
		return g.binary(x, "~", expression{text: g.strLit(), prec: precPrimary}, precConcat)
	}
	var sep []string
	if g.chance(0.4) {
		sep = append(sep, g.strLit())
	}
	switch g.r.IntN(19) {
	case 17:
		// map through a filter of a list holding Markup: the filters
		// that keep it Markup, and those that make a plain string;
		// printed, or an item added to a string, which it escapes where
		// the item is Markup; or stored as made as pulled.
		list := "[" + g.wrap(m, precCond) + ", " + g.wrap(str(), precCond) + "]"
		if g.chance(0.3) {
			list = "(" + g.wrap(str(), precCond) + ", " + g.wrap(m, precCond) + ")"
		}
		f := g.pick([]string{"'upper'", "'lower'", "'capitalize'", "'trim'", "'string'", "'title'", "'striptags'", "'urlencode'", "'center', 7", "'indent', 2", "'replace', 'a', '<'", "'trim', '<&'", "'truncate', 3, true, '<', 0"})
		mapped := g.filter(expression{text: list, prec: precPrimary}, "map", f)
		if g.chance(0.5) {
			return printed(g.filter(mapped, "list"))
		}
		return g.binary(g.filter(mapped, g.pick([]string{"first", "last"})), "+", str(), precAdd)
	case 18:
		// escaped of Markup, of a condition Markup in one branch, and
		// of a list's items.
		c := g.wrap(g.expr(typeBool, d-1), precOr)
		switch g.r.IntN(3) {
		case 0:
			return printed(expression{text: "(" + g.wrap(m, precPostfix) + " is escaped)", prec: precPrimary})
		case 1:
			return printed(expression{text: "((" + g.beforeName(m, precOr) + " if " + c + " else " + g.wrap(str(), precCond) + ") is not escaped)", prec: precPrimary})
		}
		return printed(g.filter(expression{text: "[" + g.wrap(m, precCond) + ", " + g.wrap(str(), precCond) + "]", prec: precPrimary}, "select", "'escaped'"))
	case 16:
		// split() and partition() of a condition that is Markup in one
		// branch only: the method of the branch taken.
		c := g.wrap(g.expr(typeBool, d-1), precOr)
		then, els := m, str()
		if g.chance(0.5) {
			then, els = els, then
		}
		cond := expression{text: "(" + g.beforeName(then, precOr) + " if " + c + " else " + g.wrap(els, precCond) + ")", prec: precPrimary}
		if g.chance(0.5) {
			return printed(g.method(cond, "split", sep...))
		}
		p := g.method(cond, g.pick([]string{"partition", "rpartition"}), g.strLit())
		return g.binary(expression{text: p.text + "[" + g.pick([]string{"0", "1", "2"}) + "]", prec: precPrimary}, "+", str(), precAdd)
	case 15:
		// Markup in one branch only, as it is: a local set to it is
		// checked again as a dynamic value where its reads need it.
		c := g.wrap(g.expr(typeBool, d-1), precOr)
		then, els := m, str()
		if g.chance(0.5) {
			then, els = els, then
		}
		return expression{text: g.beforeName(then, precOr) + " if " + c + " else " + g.wrap(els, precCond), prec: precCond, openRight: els.openRight}
	case 14:
		// slice and batch keep a list's Markup items and a Markup fill.
		list := "[" + g.wrap(str(), precCond) + ", " + g.wrap(str(), precCond) + ", " + g.wrap(str(), precCond) + "]"
		if g.chance(0.5) {
			list = "[" + g.wrap(m, precCond) + ", " + g.wrap(str(), precCond) + "]"
		}
		args := []string{strconv.Itoa(1 + g.r.IntN(3))}
		if g.chance(0.6) {
			args = append(args, g.wrap(m, precCond))
		}
		return printed(g.filter(g.filter(expression{text: list, prec: precPrimary}, g.pick([]string{"slice", "batch"}), args...), g.pick([]string{"list", "first"})))
	case 13:
		// A tuple item or list element that is Markup in one branch or
		// operand only (a condition, an and/or), kept branch by branch:
		// printed, or read back and added to.
		c := g.wrap(g.expr(typeBool, d-1), precOr)
		var item string
		switch g.r.IntN(4) {
		case 0:
			item = g.beforeName(m, precOr) + " if " + c + " else " + g.wrap(str(), precCond)
		case 1:
			item = g.beforeName(str(), precOr) + " if " + c + " else " + g.wrap(m, precCond)
		case 2:
			item = g.binary(str(), "or", m, precOr).text
		default:
			item = g.binary(m, "and", g.anyValue(d-1), precAnd).text
		}
		if g.chance(0.3) {
			return printed(expression{text: "[" + item + "]", prec: precPrimary})
		}
		tuple := "(" + item + ", " + g.wrap(str(), precCond) + ")"
		if g.chance(0.5) {
			return printed(expression{text: tuple, prec: precPrimary})
		}
		return g.binary(expression{text: tuple + "[0]", prec: precPrimary}, "+", str(), precAdd)
	case 11:
		// Markup's truncate cuts with the plain end and appends it
		// escaped; the result is Markup.
		end := g.pick([]string{"'<'", "'&'", "'\"'", "'...'", "''", g.strLit()})
		t := g.filter(m, "truncate", strconv.Itoa(3+g.r.IntN(9)), g.pick([]string{"true", "false"}), end)
		if g.chance(0.5) {
			return printed(expression{text: "[" + g.wrap(t, precCond) + "]", prec: precPrimary})
		}
		return g.binary(t, "+", str(), precAdd)
	case 12:
		// Markup's strip, trim's, escapes the characters.
		t := g.filter(m, "trim", g.pick([]string{"'<&'", "'\"'", g.strLit()}))
		if g.chance(0.5) {
			return printed(expression{text: "[" + g.wrap(t, precCond) + "]", prec: precPrimary})
		}
		return t
	case 8:
		// An item of Markup's split() is Markup: in a tuple or list, as
		// a filter's operand.
		item := g.filter(g.method(m, "split", sep...), g.pick([]string{"first", "last"}))
		if g.chance(0.5) {
			return printed(expression{text: "[(" + g.wrap(str(), precCond) + ", " + g.wrap(item, precCond) + ")]", prec: precPrimary})
		}
		return g.filter(expression{text: "(" + g.binary(item, "+", str(), precAdd).text + ")", prec: precPrimary}, g.pick([]string{"int", "length", "float", "list"}))
	case 9:
		// dictsort and items of a dict holding Markup keep it.
		dict := "{'a': " + g.wrap(m, precCond) + ", 'b': " + g.wrap(str(), precCond) + "}"
		return printed(expression{text: dict + g.pick([]string{"|dictsort", "|dictsort(reverse=true)", "|items|list"}), prec: precPrimary})
	case 10:
		if g.chance(0.4) {
			// map('tojson') of a typed list yields Markup items.
			t := []*valueType{typeString, typeInt, typeFloat, typeBool}[g.r.IntN(4)]
			mapped := g.filter(g.exprLazy(listOf(t), d-1), "map", "'tojson'")
			if g.chance(0.5) {
				return printed(g.filter(mapped, "list"))
			}
			return g.binary(g.filter(mapped, "first"), "+", str(), precAdd)
		}
		// map(attribute=) of a string reads each character's attribute
		// (undefined; a str method's name is rejected).
		args := []string{"attribute='" + g.pick([]string{"x", "type", "name"}) + "'"}
		if g.chance(0.5) {
			args = append(args, "default="+g.strLit())
		}
		return printed(g.filter(g.filter(str(), "map", args...), g.pick([]string{"list", "first"})))
	case 0:
		return printed(g.method(m, "split", sep...))
	case 1:
		return g.binary(g.filter(g.method(m, "split", sep...), g.pick([]string{"first", "last"})), "+", str(), precAdd)
	case 2:
		p := g.method(m, g.pick([]string{"partition", "rpartition"}), g.strLit())
		return g.binary(expression{text: p.text + "[" + g.pick([]string{"0", "1", "2"}) + "]", prec: precPrimary}, "+", str(), precAdd)
	case 3:
		return printed(g.method(m, "splitlines"))
	case 4:
		old := expression{text: g.strLit(), prec: precPrimary}
		if g.chance(0.5) {
			old = str()
		}
		return g.method(m, "replace", old.text, g.strLit())
	case 5:
		return g.method(m, g.pick([]string{"strip", "lstrip", "rstrip"}), g.strLit())
	case 6:
		return g.binary(g.filter(m, g.pick([]string{"escape", "forceescape"})), "+", str(), precAdd)
	}
	return printed(expression{text: "[" + g.wrap(m, precCond) + ", " + g.wrap(str(), precCond) + "]", prec: precPrimary})
}
