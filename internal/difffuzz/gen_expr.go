package difffuzz

// The generator's expressions: operators and precedence, calls of filters
// and methods, conditions, literals, and the productions common to every
// type.

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// wrap is e's text as an operand that needs precedence min.
func (g *generator) wrap(e expression, min int) string { return g.operand(e, min).text }

// operand is e as an operand that needs precedence min: in parentheses
// when it binds looser, or by chance.
func (g *generator) operand(e expression, min int) expression {
	if e.prec < min || e.prec < precPrimary && !g.on("precedence-bare") || g.on("extra-parens") && g.chance(0.03) {
		return expression{text: "(" + e.text + ")", prec: precPrimary, paths: e.paths, elems: e.elems, lazy: e.lazy}
	}
	return e
}

// beforeName is e's text as an operand that needs precedence min and is
// followed by a name (if, in, is).
func (g *generator) beforeName(e expression, min int) string {
	if e.openRight {
		return "(" + e.text + ")"
	}
	return g.wrap(e, min)
}

func (g *generator) binary(x expression, op string, y expression, prec int) expression {
	y = g.operand(y, prec+1)
	return expression{text: g.wrap(x, prec) + " " + op + " " + y.text, prec: prec, openRight: y.openRight}
}

// compare is x op y for a comparison operator, which does not chain here.
func (g *generator) compare(x expression, op string, y expression) expression {
	if names := compareTests[op]; g.on("test-compare") && g.chance(0.25) {
		// The comparison test of the same meaning: x is eq(y), x is not in(y).
		not := ""
		if op == "not in" {
			not = "not "
		}
		return expression{text: g.beforeName(x, precUnary) + " is " + not + g.pick(names) + "(" + y.text + ")", prec: precPostfix}
	}
	left := g.wrap(x, precCmp+1)
	if op == "in" || op == "not in" {
		left = g.beforeName(x, precCmp+1)
	}
	y = g.operand(y, precCmp+1)
	return expression{text: left + " " + op + " " + y.text, prec: precCmp, openRight: y.openRight}
}

// compareTests are the tests that apply each comparison operator.
var compareTests = map[string][]string{
	"==": {"eq", "equalto"}, "!=": {"ne"}, "<": {"lt", "lessthan"}, "<=": {"le"},
	">": {"gt", "greaterthan"}, ">=": {"ge"}, "in": {"in"}, "not in": {"in"},
}

// typeTests are Jinja2's tests of a value's type.
var typeTests = []string{"string", "number", "integer", "float", "boolean", "true", "false", "mapping",
	"iterable", "sequence", "callable"}

// not is `not x`.
func (g *generator) not(x expression) expression {
	x = g.operand(x, precNot)
	return expression{text: "not " + x.text, prec: precNot, openRight: x.openRight}
}

// isTest is `x is [not] name`.
func (g *generator) isTest(x expression, name string) expression {
	return expression{text: g.beforeName(x, precUnary) + " is " + g.pick([]string{"", "not "}) + name, prec: precPostfix,
		openRight: !strings.HasSuffix(name, ")")}
}

// call is x.name(args) or x|name(args); x needs precedence min.
func (g *generator) call(x expression, min int, sep, name string, args ...string) expression {
	text := g.wrap(x, min) + sep + g.callName(name, sep == ".", args...)
	prec := precPrimary
	if sep != "." {
		prec = precPostfix
	}
	return expression{text: text, prec: prec}
}

// callName is name(args), or name alone when there are no args and the
// parentheses may be left out.
func (g *generator) callName(name string, parens bool, args ...string) string {
	if len(args) > 0 || parens {
		return name + "(" + strings.Join(g.callArgs(args), ", ") + ")"
	}
	return name
}

func (g *generator) filter(x expression, name string, args ...string) expression {
	e := g.call(x, precUnary, "|", name, args...)
	e.paths, e.elems = x.paths, x.elems
	return e
}

func (g *generator) method(x expression, name string, args ...string) expression {
	return g.call(x, precPrimary, ".", name, args...)
}

// kw is an argument that call passes by position or by keyword.
func (g *generator) kw(name, value string) string { return name + "\x00" + value }

var keywordRe = regexp.MustCompile(`^[a-z_]+=`)

// callArgs spells the arguments of a call: keyword arguments (name=...)
// come last, and of the arguments made with kw, a random tail is passed by
// keyword, the others by position.
func (g *generator) callArgs(args []string) []string {
	start := len(args)
	for start > 0 && (strings.Contains(args[start-1], "\x00") || keywordRe.MatchString(args[start-1])) {
		start--
	}
	if g.on("kwargs") {
		start += g.r.IntN(len(args) - start + 1)
	} else {
		start = len(args)
	}
	out := make([]string, len(args))
	for i, a := range args {
		name, value, ok := strings.Cut(a, "\x00")
		switch {
		case !ok:
			out[i] = a
		case i >= start:
			out[i] = name + "=" + value
		default:
			out[i] = value
		}
	}
	return out
}

// printable is any expression to print: a value of any type, or one of
// the forms only printing allows.
func (g *generator) printable(d int) expression {
	var e expression
	ok := g.choose(
		choice{20, true, func() { e = g.anyValue(d) }},
		choice{1, g.on("none"), func() { e = expression{text: g.pick([]string{"none", "None"}), prec: precPrimary} }},
		choice{3, g.on("loop-neighbour") && g.inLoop(), func() {
			if x, ok := g.loopNeighbour(nil); ok {
				e = x
			} else {
				e = g.anyValue(d)
			}
		}},
		choice{1, g.on("dict-literal"), func() { e = g.dictLit(d) }},
		choice{1, g.on("dict-missing-key"), func() { e = g.dictKeyRead(g.dictLit(d)) }},
		choice{1, g.on("dict-int-keys"), func() { e = g.intKeyDictRead(d) }},
		choice{1, g.on("mixed-value") && d > 0, func() { e = g.mixedValue(d - 1) }},
		choice{1, g.on("filter-abs-batch") && d > 0, func() { e = g.absBatch(d) }},
		choice{1, g.on("filter-value"), func() { e = g.valueFilterPrinted(d) }},
		choice{1, g.on("generator-index") && d > 0, func() { e = g.generatorIndex(d - 1) }},
		choice{1, g.on("filter-group"), func() { e = g.groupFilterPrinted(d) }},
		choice{2, g.on("filter-object-list"), func() { e = g.objectListFilter(d) }},
		choice{1, g.on("mixed-scalar-value"), func() {
			// A list literal of scalars of types no one type holds
			// (a string and a bool, an int and none): a dynamic list.
			kinds := []*valueType{typeString, typeInt, typeBool}
			g.r.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
			var items []string
			for _, t := range kinds[:2] {
				items = append(items, g.wrap(g.literalItem(func() expression { return g.expr(t, 1) }), precCond))
			}
			if g.chance(0.3) {
				items = append(items, "none")
			}
			use := g.pick([]string{"", "[0]", "[-1]", "|first", "|last", "|length", "|list", "|join(',')", "|reverse|list", "|select|list", "|tojson"})
			e = expression{text: "[" + strings.Join(items, ", ") + "]" + use, prec: precPostfix}
		}},
		choice{1, g.on("mixed-number-list"), func() {
			e = expression{text: "[" + g.intLit().text + ", " + g.floatLit().text + "]", prec: precPrimary}
			if !g.on("mixed-number-value") || g.chance(0.5) {
				return
			}
			// Used as a value: a dynamic value whose ints stay ints.
			items := []string{
				g.wrap(g.literalItem(func() expression { return g.expr(typeInt, 1) }), precCond),
				g.wrap(g.literalItem(func() expression { return g.expr(typeFloat, 1) }), precCond),
			}
			if g.chance(0.5) {
				items = append(items, g.intLit().text)
			}
			g.r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
			use := g.pick([]string{"[0]", "[-1]", "|first", "|last", "|max", "|min", "|sum", "|length", "|list", "|sort", "|reverse|list"})
			e = expression{text: "[" + strings.Join(items, ", ") + "]" + use, prec: precPostfix}
		}},
		choice{1, g.on("cond-none") && d > 0, func() {
			// x if c else none (or none if c else x), printed: each
			// branch prints with its own type.
			x := g.anyValue(d - 1)
			c, _ := g.cond(d - 1)
			if g.chance(0.5) {
				e = expression{text: g.beforeName(x, precOr) + " if " + g.wrap(c, precOr) + " else none", prec: precCond}
				return
			}
			x = g.operand(x, precCond)
			e = expression{text: "none if " + g.wrap(c, precOr) + " else " + x.text, prec: precCond, openRight: x.openRight}
		}},
		choice{1, g.on("cond-no-else") && d > 0, func() {
			x := g.anyValue(d - 1)
			c, _ := g.cond(d - 1)
			c = g.operand(c, precOr)
			e = expression{text: g.beforeName(x, precOr) + " if " + c.text, prec: precCond, openRight: c.openRight}
		}},
		choice{2, g.on("filter-default-mixed"), func() {
			// An optional with a default of another type (which would
			// be its inferred type).
			r := g.randRef(func(r *ref) bool {
				return r.optional && r.t.scalar() && len(r.paths) > 0 && (g.declared || g.on("default-inferred"))
			})
			if r == nil {
				e = g.anyValue(d)
				return
			}
			other := []*valueType{typeString, typeInt, typeFloat, typeBool}[g.r.IntN(4)]
			e = g.filter(g.useRef(r), g.defaultName(), g.lit(other).text)
		}},
		choice{1, g.on("tojson-operand") && g.on("filter-tojson"), func() { e = g.tojson(g.undefOperand(func() expression { return g.anyValue(d) })) }},
		choice{1, g.on("default-list-print") && g.on("filter-default"), func() {
			r := g.randRef(func(r *ref) bool { return r.t.kind == kindList && r.optional })
			if r == nil {
				e = g.anyValue(d)
				return
			}
			e = g.filter(g.useRef(r), g.defaultName(), g.pick([]string{"[]", g.expr(r.t, 0).text}))
		}},
	)
	if !ok {
		e = g.anyValue(d)
	}
	return e
}

// anyValue is an expression of a random type.
func (g *generator) anyValue(d int) expression { return g.expr(g.randMakeable(), d) }

func (g *generator) defaultName() string {
	if g.on("filter-alias") && g.chance(0.2) {
		return "d"
	}
	return "default"
}

// cond is an expression read for its truth by an if, elif, loop filter or
// conditional expression. guard is the text of an optional the
// expression tests true, for the body it guards.
func (g *generator) cond(d int) (e expression, guard string) {
	g.choose(
		choice{4, g.on("guard"), func() {
			r := g.randRef(func(r *ref) bool { return r.optional && !r.parentOptional })
			if r == nil {
				e = g.expr(typeBool, d)
				return
			}
			guard = r.text
			x := expression{text: r.text, prec: precPrimary}
			switch g.r.IntN(3) {
			case 0:
				e = expression{text: r.text + " is defined", prec: precPostfix, openRight: true}
			case 1:
				e = x
			default:
				e = g.not(expression{text: r.text + " is undefined", prec: precPostfix, openRight: true})
			}
		}},
		choice{6, true, func() { e = g.expr(typeBool, d) }},
		choice{3, true, func() { e = g.anyValue(d) }}, // its truthiness
		choice{2, g.on("and-or") && d > 0, func() {
			x := g.andOrLeft(func() expression { x, _ := g.cond(d - 1); return x })
			y, _ := g.cond(d - 1)
			if g.chance(0.5) {
				e = g.binary(x, "and", y, precAnd)
			} else {
				e = g.binary(x, "or", y, precOr)
			}
		}},
		choice{1, g.on("not") && d > 0, func() {
			x, _ := g.cond(d - 1)
			e = g.not(x)
		}},
	)
	return e, guard
}

// expr is an expression of type t.
func (g *generator) expr(t *valueType, d int) expression {
	e := g.exprLazy(t, d)
	if e.lazy && !g.on("lazy-value") {
		e = g.filter(e, "list")
		e.lazy = false
	}
	return e
}

// exprLazy is an expression of type t, which may be a generator when t
// is a list: for operands that only iterate.
func (g *generator) exprLazy(t *valueType, d int) expression {
	var e expression
	if d > 0 && g.choose(g.productions(t, d, &e)...) {
		return e
	}
	return g.leaf(t)
}

// leaf is a reference or a literal of type t.
func (g *generator) leaf(t *valueType) expression {
	r := g.randRef(func(r *ref) bool { return typeEq(r.t, t) && g.usable(r) })
	lit := g.canLit(t)
	if r != nil && (g.chance(0.6) || !lit || !g.on("literal")) {
		return g.useRef(r)
	}
	if !lit {
		// Callers check canMake, but it may have been true only outside
		// a sensitive or definite operation: use any reference, or an
		// empty list of objects.
		if r = g.randRef(func(r *ref) bool { return typeEq(r.t, t) }); r != nil {
			return g.useRef(r)
		}
		if t.kind != kindList {
			panic(fmt.Sprintf("difffuzz: no value of kind %d, which only the data has", t.kind))
		}
		return expression{text: "[]", prec: precPrimary}
	}
	return g.lit(t)
}

// lit is a literal of type t, a scalar or a list.
func (g *generator) lit(t *valueType) expression {
	switch t.kind {
	case kindString:
		return expression{text: g.strLit(), prec: precPrimary}
	case kindInt:
		return g.intLit()
	case kindFloat:
		return g.floatLit()
	case kindBool:
		return expression{text: g.pick([]string{"true", "false", "True", "False"}), prec: precPrimary}
	case kindList:
		n := g.r.IntN(4)
		if n == 0 && !g.on("empty-list-concat") {
			n = 1
		}
		e := expression{prec: precPrimary}
		items := make([]string, n)
		for i := range items {
			x := g.literalItem(func() expression { return g.leaf(t.elem) })
			items[i] = g.wrap(x, precCond)
			e.elems = append(e.elems, x.paths...)
		}
		e.text = "[" + strings.Join(items, ", ") + "]"
		return e
	}
	panic(fmt.Sprintf("lit of kind %d", t.kind))
}

func (g *generator) strLit() string {
	s := ""
	for range g.r.IntN(3) {
		s += g.pick(words)
	}
	q := g.pick([]string{"'", "\""})
	var b strings.Builder
	b.WriteString(q)
	for _, r := range s {
		switch {
		case string(r) == q || r == '\\':
			b.WriteString("\\" + string(r))
		case r == '\n' && g.on("string-escape") && g.chance(0.5):
			b.WriteString(`\n`)
		case r == '\t' && g.on("string-escape"):
			b.WriteString(`\t`)
		case r == 'é' && g.on("string-escape") && g.chance(0.5):
			b.WriteString(`\u00e9`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteString(q)
	return b.String()
}

func (g *generator) intLit() expression {
	// Small enough that products and powers mostly stay in int64 (beyond,
	// the render fails on purpose: family int-limits).
	n := g.r.IntN(10)
	if g.chance(0.15) {
		n = g.r.IntN(300)
	}
	text := strconv.Itoa(n)
	if g.on("int-underscore") && g.chance(0.05) {
		text = "1_" + fmt.Sprintf("%03d", n%1000) // 1_000 to 1_299
	}
	if g.on("unary") && g.chance(0.1) {
		return expression{text: "-" + text, prec: precUnary}
	}
	return expression{text: text, prec: precPrimary}
}

func (g *generator) floatLit() expression {
	text := g.pick([]string{"0.5", "1.0", "2.25", "0.1", "3.14159", "1e3", "2E2", "1.5e-3", "10.0", "0.0", "2.5", "1_000.5", "0.3"})
	if g.on("unary") && g.chance(0.1) {
		return expression{text: "-" + text, prec: precUnary}
	}
	return expression{text: text, prec: precPrimary}
}

// dictLit is a dict literal of scalars, printed or read by key.
func (g *generator) dictLit(d int) expression {
	var items []string
	for _, k := range dictKeys[:1+g.r.IntN(3)] {
		v := g.literalItem(func() expression {
			return g.expr(scalarTypes[g.r.IntN(len(scalarTypes))], min(d, 1))
		})
		items = append(items, "'"+k+"': "+g.wrap(v, precCond))
	}
	return expression{text: "{" + strings.Join(items, ", ") + "}", prec: precPrimary}
}

// dictKeys are the keys dict literals take (dictLit, the first three at
// most) and those they are read by, which they may lack.
var dictKeys = []string{"a", "b", "k", "name", "zz"}

// dictKeyRead reads a key of dict, which it may lack (undefined in
// Jinja2): printed, tested defined, defaulted, or-ed, or an attribute of
// it (which fails where the key is missing).
func (g *generator) dictKeyRead(dict expression) expression {
	op := g.r.IntN(6)
	key := g.pick(dictKeys)
	if op == 3 {
		key = "zz" // no dict literal has it: an attribute of a key's value is another matter
	}
	read := g.wrap(dict, precPrimary) + "." + key
	if g.chance(0.5) {
		read = g.wrap(dict, precPrimary) + "['" + key + "']"
	}
	switch op {
	case 0:
		return expression{text: read + " is " + g.pick([]string{"defined", "undefined"}), prec: precPostfix, openRight: true}
	case 1:
		return expression{text: read + "|default(" + g.wrap(g.leaf(typeString), precCond) + ")", prec: precPostfix}
	case 2:
		return expression{text: read + " or " + g.wrap(g.leaf(typeString), precAnd), prec: precOr}
	case 3:
		return expression{text: read + ".x", prec: precPrimary}
	}
	return expression{text: read, prec: precPrimary}
}

// dictKeyStmt sets a new local to a dict literal and prints reads of its
// keys, which it may lack.
func (g *generator) dictKeyStmt() string {
	name := fmt.Sprintf("dk%d", g.dictSets)
	g.dictSets++
	out := g.tag("set " + name + " = " + g.dictLit(1).text)
	for range 1 + g.r.IntN(3) {
		out += g.open("{{") + g.dictKeyRead(expression{text: name, prec: precPrimary}).text + g.close("}}")
	}
	return out
}

// dictItemsStmt loops over the pairs of a dict literal, by dictsort (with
// its flags), items or .items(), or over its .values().
func (g *generator) dictItemsStmt() string {
	iter := g.pick([]string{"|dictsort", "|dictsort(true)", "|dictsort(false, reverse=true)", "|items", ".items()", ".values()"})
	dict := g.dictLit(1)
	if g.on("dict-int-keys") && g.chance(0.3) {
		dict = g.intKeyDict(1)
	}
	switch {
	case iter == ".values()":
		body := "{{ pv }};"
		if g.on("loop-neighbour") { // the value after (no draw: the stream stays)
			body = "{{ pv }}|{{ loop.nextitem }};"
		}
		return g.tag("for pv in "+dict.text+iter) + body + g.tag("endfor")
	case g.chance(0.25):
		// Its (key, value) tuples as a value: printed, or a list of them.
		if iter == "|items" || iter == ".items()" {
			iter = "|items|list"
		}
		return "{{ " + dict.text + iter + " }}"
	case g.chance(0.2) && g.on("loop-neighbour"):
		// An unpacking loop over a list of them, or over the dict's items,
		// whose neighbours are the (key, value) tuples.
		iterable := dict.text + "|dictsort|list"
		if iter == "|items" || iter == ".items()" {
			iterable = dict.text + iter
		}
		return g.tag("for pk, pv in "+iterable) + "{{ pk }}={{ loop." + g.pick([]string{"previtem", "nextitem"}) + " }};" + g.tag("endfor")
	}
	return g.tag("for pk, pv in "+dict.text+iter) + "{{ pk }}={{ pv }};" + g.tag("endfor")
}

// intKeys are the int keys of intKeyDict, and intKeyReads what reads them
// (a number equal to an int key finds it, a string does not).
var (
	intKeys     = []string{"0", "1", "2", "512", "16384"}
	intKeyReads = []string{"0", "1", "2", "512", "16384", "7", "true", "false", "2.0", "0.5", "'a'", "'512'"}
)

// intKeyDict is a dict literal with int keys (family dict-int-keys), as
// ByteDance-Seed-OSS's reflection intervals, now and then with a string
// key too.
func (g *generator) intKeyDict(d int) expression {
	keys := slices.Clone(intKeys)
	g.r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	keys = keys[:1+g.r.IntN(4)]
	if g.chance(0.2) {
		keys = append(keys, "'a'")
	}
	items := make([]string, len(keys))
	for i, k := range keys {
		v := g.literalItem(func() expression {
			return g.expr(scalarTypes[g.r.IntN(len(scalarTypes))], min(d, 1))
		})
		items[i] = k + ": " + g.wrap(v, precCond)
	}
	return expression{text: "{" + strings.Join(items, ", ") + "}", prec: precPrimary}
}

// intKeyDictRead is a dict literal with int keys printed, or read:
// subscripted, searched with in, its length, get, tojson, dictsort,
// keys() and items(), compared.
func (g *generator) intKeyDictRead(d int) expression {
	x := g.intKeyDict(d)
	dict := g.wrap(x, precPrimary)
	key := g.pick(intKeyReads)
	switch g.r.IntN(10) {
	case 0:
		return x
	case 1, 2:
		return expression{text: dict + "[" + key + "]", prec: precPrimary}
	case 3:
		return expression{text: key + g.pick([]string{" in ", " not in "}) + dict, prec: precCmp}
	case 4:
		return g.filter(x, "length")
	case 5:
		return expression{text: dict + ".get(" + key + ", 'none')", prec: precPrimary}
	case 6:
		return g.tojson(x)
	case 7:
		return g.filter(x, "dictsort", g.pick([]string{"false", "reverse=true"}))
	case 8:
		return g.filter(expression{text: dict + "." + g.pick([]string{"keys", "items", "values"}) + "()", prec: precPrimary}, "list")
	}
	return expression{text: dict + g.pick([]string{" == ", " != "}) + g.wrap(g.intKeyDict(d), precPrimary), prec: precCmp}
}

// setAttrStmt sets a dict literal's name and then, in an if, an
// attribute of it ({% set d.k = v %}), which Jinja2 fails on where the
// branch runs, before it evaluates v.
func (g *generator) setAttrStmt() string {
	name := fmt.Sprintf("dk%d", g.dictSets)
	g.dictSets++
	c, _ := g.cond(1)
	return g.tag("set "+name+" = "+g.dictLit(1).text) + g.tag("if "+g.wrap(c, precOr)) +
		g.tag("set "+name+"."+g.pick([]string{"k", "a", "seen"})+" = "+g.expr(typeInt, 1).text) + g.tag("endif")
}

// definedOnlyInput tests dfo, a variable of the data that nothing else
// reads, with is defined or is undefined, and sets it where it is not
// (vLLM's xLAM template: {% if not tools_in_user_message is defined %}
// {% set tools_in_user_message = true %}{% endif %}): promptgen's feed
// takes any JSON value for it.
func (g *generator) definedOnlyInput() string {
	if g.chance(0.5) {
		return g.open("{{") + g.pad() + "dfo is " + g.pick([]string{"defined", "undefined"}) + g.pad() + g.close("}}")
	}
	return g.tag("if not dfo is defined") + g.tag("set dfo = "+g.pick([]string{"true", "1", "'x'"})) + g.tag("endif")
}

// dictUpdateStmt sets a name to a dict literal and, in an if, calls its
// update(), which transformers' sandbox rejects with SecurityError where
// it runs (vLLM's Hunyuan-A13B template); only in a case with the
// transformers profile, as promptgen rejects it outside.
func (g *generator) dictUpdateStmt() string {
	name := fmt.Sprintf("dk%d", g.dictSets)
	g.dictSets++
	c, _ := g.cond(1)
	arg := "{'" + g.pick([]string{"k", "a", "seen"}) + "': " + g.wrap(g.expr(typeInt, 1), precCond) + "}"
	return g.tag("set "+name+" = "+g.dictLit(1).text) + g.tag("if "+g.wrap(c, precOr)) +
		g.tag("set _ = "+name+".update("+arg+")") + g.tag("endif")
}

// scalarTypes are the types whose values an and/or or a conditional may
// mix (mixedValue).
var scalarTypes = []*valueType{typeString, typeInt, typeFloat, typeBool}

// mixedValue is an and/or, a conditional or a default of values of two scalar types,
// which may differ, used as a value: compared, in a list, tested, as
// tojson's or string's operand.
func (g *generator) mixedValue(d int) expression {
	scalar := func() *valueType { return scalarTypes[g.r.IntN(len(scalarTypes))] }
	x, y := g.expr(scalar(), d), g.expr(scalar(), d)
	var v expression
	switch g.r.IntN(4) {
	case 3:
		v = expression{text: g.wrap(x, precPostfix) + "|" + g.defaultName() + "(" + g.wrap(y, precCond) + ")", prec: precPostfix}
	case 0:
		v = g.binary(x, "or", y, precOr)
	case 1:
		v = g.binary(x, "and", y, precAnd)
	default:
		c, _ := g.cond(d)
		y = g.operand(y, precCond)
		v = expression{text: g.beforeName(x, precOr) + " if " + g.wrap(c, precOr) + " else " + y.text, prec: precCond, openRight: y.openRight}
	}
	switch g.r.IntN(5) {
	case 0:
		return g.compare(v, g.pick([]string{"==", "!="}), g.leaf(scalar()))
	case 1:
		return expression{text: "[" + g.wrap(v, precCond) + "]", prec: precPrimary}
	case 2:
		return expression{text: g.wrap(v, precPostfix) + " is " + g.pick([]string{"string", "number", "integer", "boolean"}), prec: precPostfix, openRight: true}
	case 3:
		return expression{text: g.wrap(v, precPostfix) + "|tojson", prec: precPostfix}
	}
	return expression{text: g.wrap(v, precPostfix) + "|string|length", prec: precPostfix}
}

// productions are the ways to make an expression of type t with depth d
// left; each sets *e.
func (g *generator) productions(t *valueType, d int, e *expression) []choice {
	sub := d - 1
	nest := t.kind != kindList || g.on("list-of-lists") // t may be a list's element
	cs := []choice{
		{6, true, func() { *e = g.leaf(t) }},
		{3, g.on("cond"), func() {
			x, y := g.expr(t, sub), g.expr(t, sub)
			c, _ := g.cond(sub)
			y = g.operand(y, precCond)
			*e = expression{text: g.beforeName(x, precOr) + " if " + g.wrap(c, precOr) + " else " + y.text, prec: precCond,
				paths: slices.Concat(x.paths, y.paths), elems: slices.Concat(x.elems, y.elems), openRight: y.openRight}
		}},
		{2, g.on("index") && nest, func() { *e = g.index(t, sub) }},
		{1, g.on("method-get") && nest && g.canMake(&valueType{kind: kindMap, elem: t}), func() {
			m := g.expr(&valueType{kind: kindMap, elem: t}, 0)
			key := "'" + g.pick(mapKeys) + "'"
			if g.chance(0.3) {
				key = g.wrap(g.expr(typeString, 0), precCond)
			}
			dflt := g.leaf(t) // promptgen takes a literal or a variable, which cannot fail
			if g.chance(0.2) {
				dflt = g.expr(t, sub)
			}
			text := g.wrap(dflt, precCond)
			if g.on("default-read") && g.chance(0.3) {
				text = g.defaultRead(nil, t, text)
			}
			*e = expression{text: g.wrap(m, precPrimary) + ".get(" + key + ", " + text + ")", prec: precPrimary,
				paths: slices.Concat(m.paths, dflt.paths), elems: dflt.elems}
		}},
		{2, g.on("filter-first-last") && nest, func() {
			name := g.pick([]string{"first", "last"})
			empty := g.on("first-empty")
			x := g.sensitiveOp("first-unset", func() expression {
				if name == "first" && empty {
					return g.exprLazy(listOf(t), sub)
				}
				return g.expr(listOf(t), sub)
			})
			*e = g.filter(x, name)
			e.paths, e.elems = x.elems, elemPaths(x.elems)
			if !empty {
				fb := g.operand(g.expr(t, 0), precCond)
				*e = expression{text: e.text + " if " + g.wrap(x, precUnary) + "|length > 0 else " + fb.text, prec: precCond,
					paths: slices.Concat(e.paths, fb.paths), elems: slices.Concat(e.elems, fb.elems), openRight: fb.openRight}
			}
		}},
		{2, g.on("loop-neighbour") && g.inLoop() && t.scalar(), func() {
			x, ok := g.loopNeighbour(t)
			if !ok {
				*e = g.leaf(t)
				return
			}
			fb := g.defined(func() expression { return g.expr(t, 0) })
			if g.chance(0.5) {
				*e = g.filter(x, g.defaultName(), g.wrap(fb, precCond))
				return
			}
			fb = g.operand(fb, precCond)
			*e = expression{text: x.text + " if " + x.text + " is defined else " + fb.text, prec: precCond, openRight: fb.openRight}
		}},
		{2, g.on("loop-cycle") && g.inLoop() && t.scalar(), func() { *e = g.loopCycle(t) }},
		{2, g.on("filter-default") && t.scalar() && (g.declared || g.on("default-inferred")), func() {
			r := g.randRef(func(r *ref) bool { return r.optional && typeEq(r.t, t) && len(r.paths) > 0 })
			if r == nil {
				*e = g.leaf(t)
				return
			}
			args := []string{g.wrap(g.defined(func() expression { return g.expr(t, 0) }), precCond)}
			if g.on("default-read") && g.chance(0.3) {
				args[0] = g.defaultRead(r, t, args[0])
			}
			if g.chance(0.3) {
				args = append(args, g.kw("boolean", g.pick([]string{"true", "false"})))
			}
			*e = g.filter(g.useRef(r), g.defaultName(), args...)
		}},
	}
	switch t.kind {
	case kindString:
		cs = append(cs, choice{3, g.on("macro") && len(g.plainMacros()) > 0, func() { *e = g.macroCall(sub) }})
		cs = append(cs, g.stringProductions(sub, e)...)
	case kindInt:
		cs = append(cs, g.intProductions(sub, e)...)
	case kindFloat:
		cs = append(cs, g.floatProductions(sub, e)...)
	case kindBool:
		cs = append(cs, g.boolProductions(sub, e)...)
	case kindList:
		cs = append(cs, g.listProductions(t, sub, e)...)
	}
	return cs
}

// defaultRead is the default of a default() of r (nil for get()) of
// type t that may be undefined but cannot fail, which Jinja2 evaluates
// even where the value is defined: a key or attribute of a value that is
// always defined, or an index of a list guarded by its length (a
// conditional); else dflt.
func (g *generator) defaultRead(r *ref, t *valueType, dflt string) string {
	if g.chance(0.5) {
		if d := g.randRef(func(d *ref) bool {
			return d != r && d.optional && !d.parentOptional && !d.unset && !d.maybeEmpty && typeEq(d.t, t) && len(d.paths) > 0
		}); d != nil {
			return g.useRef(d).text
		}
		return dflt
	}
	if !g.canMake(listOf(t)) {
		return dflt
	}
	xs := g.wrap(g.defined(func() expression { return g.expr(listOf(t), 0) }), precUnary)
	fb := g.operand(g.leaf(t), precCond).text
	if g.chance(0.5) {
		return xs + "[0] if " + xs + "|length > 0 else " + fb
	}
	f := g.pick([]string{"first", "last"})
	return xs + "|" + f + " if " + xs + "|length >= 1 else " + fb
}

// index is an element of a list or map, or a character of a string,
// guarded by a length or key test unless index-out-of-range is on.
func (g *generator) index(t *valueType, d int) expression {
	var x, i expression
	var guard string
	fromMap := t.kind != kindString && g.on("map-index") && g.chance(0.3) && g.canMake(&valueType{kind: kindMap, elem: t})
	switch {
	case fromMap:
		x = g.expr(&valueType{kind: kindMap, elem: t}, 0)
		k := "'" + g.pick(mapKeys) + "'"
		i = expression{text: k, prec: precPrimary}
		guard = k + " in " + g.wrap(x, precCmp+1)
	case t.kind == kindString && g.chance(0.4):
		x = g.expr(typeString, d)
	default:
		if !g.canMake(listOf(t)) {
			return g.leaf(t)
		}
		x = g.expr(listOf(t), d)
	}
	if !fromMap {
		n := g.r.IntN(6) - 2
		i = expression{text: strconv.Itoa(n), prec: precPrimary}
		if n < 0 {
			i.prec = precUnary
		}
		length := g.wrap(x, precUnary) + "|length"
		guard = length + " > " + strconv.Itoa(n)
		if n < 0 {
			guard = length + " >= " + strconv.Itoa(-n)
		}
	}
	el := expression{text: g.wrap(x, precPrimary) + "[" + i.text + "]", prec: precPrimary, paths: x.elems, elems: elemPaths(x.elems)}
	if g.on("index-out-of-range") && g.chance(0.5) {
		return el
	}
	fb := g.operand(g.expr(t, 0), precCond)
	return expression{text: el.text + " if " + guard + " else " + fb.text, prec: precCond,
		paths: slices.Concat(el.paths, fb.paths), elems: slices.Concat(el.elems, fb.elems), openRight: fb.openRight}
}
