package difffuzz

// The generator's statements: text, print, if, for, set, filter blocks,
// comments and raw blocks, with random whitespace control.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

func (g *generator) stmt() string {
	g.budget--
	var out string
	deep := g.ifs+g.loops < 3 && g.budget > 0
	g.choose(
		choice{20, g.on("text"), func() { out = g.text() }},
		choice{30, g.on("print"), func() { out = g.print() }},
		choice{10, g.on("if") && deep, func() { out = g.ifStmt() }},
		choice{10, g.on("for") && deep, func() { out = g.forStmt() }},
		choice{8, g.on("set") && g.canSet(), func() { out = g.setStmt() }},
		choice{3, g.on("set-block") && deep && g.canSet(), func() { out = g.setBlockStmt() }},
		choice{2, g.on("set-generator") && g.canSet(), func() { out = g.setGeneratorStmt() }},
		choice{2, g.on("generator-value") && g.canSet(), func() { out = g.generatorValueStmt() }},
		choice{3, g.on("filter-block") && deep, func() { out = g.filterBlockStmt() }},
		choice{3, g.on("comment"), func() { out = g.comment() }},
		choice{3, g.on("include") && deep && !g.profile && !g.namespaceHidden, func() { out = g.includeStmt() }},
		choice{2, g.on("raw"), func() { out = g.raw() }},
		choice{3, g.on("tuple"), func() { out = g.tupleStmt() }},
		choice{3, g.on("list-method") && g.canSet(), func() { out = g.listMethodStmt() }},
		choice{4, g.on("macro-call") && deep && g.hasCallerMacro(), func() { out = g.callBlockStmt() }},
		choice{3, g.on("namespace") && g.canSet() && !g.namespaceHidden, func() { out = g.namespaceStmt() }},
		choice{2, g.on("dict-missing-key") && g.canSet(), func() { out = g.dictKeyStmt() }},
		choice{1, g.on("setattr-not-namespace") && g.canSet(), func() { out = g.setAttrStmt() }},
		choice{1, g.profile && g.on("dict-update") && g.canSet(), func() { out = g.dictUpdateStmt() }},
		choice{1, g.on("op-fails"), func() { out = g.opFailsStmt() }},
		choice{1, g.on("dict-method-value"), func() { out = g.dictMethodStmt() }},
		choice{1, g.on("dict-literal-items"), func() { out = g.dictItemsStmt() }},
		choice{1, g.on("dict-view"), func() { out = g.dictViewStmt() }},
		choice{6, g.on("namespace") && g.namespaceInScope() != nil, func() { out = g.namespaceAttrStmt(0.2) }},
		choice{15, g.profile && g.on("loop-control") && g.canLoopControl(), func() { out = g.loopControl() }},
		choice{2, g.profile && g.on("generation") && deep, func() { out = g.generationStmt() }},
		choice{1, g.profile && g.on("raise"), func() { out = g.raiseStmt() }},
	)
	return out
}

// body generates the statements of a block.
func (g *generator) body() string { return g.block(g.stmt) }

// block generates one to three statements with stmt, the later ones while
// the budget lasts.
func (g *generator) block(stmt func() string) string {
	var b strings.Builder
	for i := range 1 + g.r.IntN(3) {
		if i > 0 && g.budget <= 0 {
			break
		}
		b.WriteString(stmt())
	}
	return b.String()
}

func (g *generator) canSet() bool {
	switch {
	case g.setBlock > 0 && !g.on("set-in-set-block"):
		return false
	case g.loops > 0 && !g.on("set-in-for"):
		return false
	case g.ifs > 0 && !g.on("set-in-if"):
		return false
	case g.forElse > 0 && !g.on("set-in-for-else"):
		return false
	}
	return true
}

// text is literal template text. It never ends in "{", which would join
// the next tag's delimiter.
func (g *generator) text() string {
	var b strings.Builder
	for range 1 + g.r.IntN(4) {
		b.WriteString(g.pick(words))
	}
	if g.chance(0.1) {
		b.WriteString("{ ")
	}
	return b.String()
}

// open and close are a tag's delimiters with random whitespace control.
func (g *generator) open(delim string) string {
	switch {
	case g.on("ws-minus") && g.chance(0.25):
		return delim + "-"
	case delim != "{{" && g.on("ws-plus") && g.chance(0.08):
		return delim + "+"
	case delim == "{{" && g.on("ws-plus-var") && g.chance(0.02):
		return delim + "+"
	}
	return delim
}

func (g *generator) close(delim string) string {
	switch {
	case g.on("ws-minus") && g.chance(0.25):
		return "-" + delim
	case delim != "}}" && g.on("ws-plus") && g.chance(0.08):
		return "+" + delim
	}
	return delim
}

// pad is the space inside a tag's delimiters.
func (g *generator) pad() string {
	if !g.on("tag-space") {
		return " "
	}
	switch n := g.r.IntN(20); {
	case n < 2:
		return ""
	case n < 3:
		return "\n"
	case n < 4:
		return "  "
	}
	return " "
}

func (g *generator) tag(content string) string {
	return g.open("{%") + g.pad() + content + g.pad() + g.close("%}")
}

func (g *generator) print() string {
	var e expression
	if g.on("filter-tojson") && !g.on("tojson-operand") && g.chance(0.06) {
		// The one place a tojson result goes while it cannot be an operand.
		e = g.tojson(g.undefOperand(func() expression { return g.anyValue(2) }))
	} else if g.on("generator-misuse") && (g.ifs > 0 || g.loops > 0) && !g.macroBody && g.setBlock == 0 && g.chance(0.04) {
		// Printed where it may not run: Jinja2 prints its address where
		// it runs, and promptgen fails the render there on purpose.
		e = g.lazyList([]*valueType{typeString, typeInt, typeFloat}[g.r.IntN(3)], 2)
		if g.chance(0.4) {
			e = g.binary(g.printable(1), "~", e, precConcat)
		}
	} else {
		e = g.printable(3)
	}
	return g.open("{{") + g.pad() + e.text + g.pad() + g.close("}}")
}

func (g *generator) comment() string {
	body := strings.NewReplacer("#}", "", "{#", "").Replace(g.text())
	return g.open("{#") + body + g.close("#}")
}

func (g *generator) raw() string {
	inner := g.pick([]string{"{{ x }}", "{% if %}", "{# c #}", "a {{", "}} b", " {%- x -%} "}) + g.text()
	return g.tag("raw") + inner + g.tag("endraw")
}

func (g *generator) ifStmt() string {
	var b strings.Builder
	var leaked []*variable
	branch := func(kw string, c expression, guard string) {
		b.WriteString(g.tag(kw + " " + g.wrap(c, precOr)))
		if g.on("filter-missing") && g.chance(0.05) {
			// A filter or test Jinja2 lacks fails only where the branch
			// runs, as DeepSeek-V3.2's from_json.
			x := g.wrap(g.expr(g.randMakeable(), 1), precPostfix)
			b.WriteString("{{ " + g.pick([]string{x + "|from_json", x + "|nofilter(1)", x + " is notest"}) + " }}")
		}
		text, set := g.branch(guard)
		b.WriteString(text)
		leaked = append(leaked, set...)
	}
	c, guard := g.cond(2)
	branch("if", c, guard)
	for g.on("elif") && g.chance(0.3) {
		c, guard := g.cond(2)
		branch("elif", c, guard)
	}
	if g.on("else") && g.chance(0.4) {
		b.WriteString(g.tag("else"))
		text, set := g.branch("")
		b.WriteString(text)
		leaked = append(leaked, set...)
	}
	b.WriteString(g.tag("endif"))
	if g.on("set-leak-if") {
		// A set in a branch is seen after the if: undefined when the
		// branch did not run.
		top := g.scopes[len(g.scopes)-1]
		for _, v := range leaked {
			v.optional, v.unset = true, true
			top.vars = append(top.vars, v)
		}
	}
	return b.String()
}

// branch generates an if branch's body, where guard (an optional tested
// true) is set. It returns the body and the variables it set, which it
// takes out of scope.
func (g *generator) branch(guard string) (string, []*variable) {
	top := g.scopes[len(g.scopes)-1]
	n := len(top.vars)
	if guard != "" {
		g.guards = append(g.guards, guard)
	}
	g.ifs++
	text := g.body()
	g.ifs--
	if guard != "" {
		g.guards = g.guards[:len(g.guards)-1]
	}
	set := slices.Clone(top.vars[n:])
	top.vars = top.vars[:n]
	return text, set
}

func (g *generator) forStmt() string {
	var iter expression
	var targets []*variable
	loopName := func() string {
		for {
			name := g.pick(loopNames)
			if g.on("loopvar-shadow") || g.lookup(name) == nil {
				return name
			}
		}
	}
	g.choose(
		choice{8, true, func() {
			t := g.randListType()
			iter = g.exprLazy(t, 2)
			targets = []*variable{{name: loopName(), t: t.elem, paths: iter.elems}}
		}},
		choice{2, g.on("for-string"), func() {
			iter = g.expr(typeString, 1)
			targets = []*variable{{name: loopName(), t: typeString}}
		}},
		// Jinja2 reverses an undefined string as an empty iterator.
		choice{1, g.on("reverse-undefined-string"), func() {
			iter = g.filter(g.maybeUndefined(typeString), "reverse")
			targets = []*variable{{name: loopName(), t: typeString}}
		}},
		choice{2, g.on("for-map") && g.hasRef(kindMap), func() {
			iter = g.useRef(g.randRef(func(r *ref) bool { return r.t.kind == kindMap && g.usable(r) }))
			if g.on("filter-list") && g.chance(0.3) {
				iter = g.filter(iter, "list")
			}
			targets = []*variable{{name: loopName(), t: typeString}}
		}},
		choice{3, g.on("for-items") && g.hasRef(kindMap), func() {
			x, t := g.loopMap()
			iter = g.method(x, "items")
			k, v := loopName(), loopName()
			for v == k {
				v = loopName()
			}
			targets = []*variable{{name: k, t: typeString}, {name: v, t: t.elem, paths: x.elems}}
		}},
		choice{2, g.on("for-values") && g.hasRef(kindMap), func() {
			x, t := g.loopMap()
			iter = g.method(x, "values")
			targets = []*variable{{name: loopName(), t: t.elem, paths: x.elems}}
		}},
		choice{1, g.on("items-dict-literal"), func() {
			t := []*valueType{typeString, typeInt, typeFloat, typeBool}[g.r.IntN(4)]
			var items []string
			for _, k := range []string{"a", "b", "k"}[:1+g.r.IntN(3)] {
				items = append(items, "'"+k+"': "+g.wrap(g.literalItem(func() expression { return g.expr(t, 1) }), precCond))
			}
			iter = expression{text: "{" + strings.Join(items, ", ") + "}.items()", prec: precPrimary}
			k, v := loopName(), loopName()
			for v == k {
				v = loopName()
			}
			targets = []*variable{{name: k, t: typeString}, {name: v, t: t}}
		}},
		choice{2, g.on("for-literal-undefined"), func() {
			// A list literal with an element that may be undefined, which
			// Jinja2 keeps: so may the target, which the body tests,
			// defaults or prints.
			t := []*valueType{typeString, typeInt, typeFloat, typeBool}[g.r.IntN(4)]
			items := []string{g.wrap(g.maybeUndefined(t), precCond)}
			for range g.r.IntN(3) {
				items = append(items, g.wrap(g.literalItem(func() expression { return g.expr(t, 1) }), precCond))
			}
			g.r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
			iter = expression{text: "[" + strings.Join(items, ", ") + "]", prec: precPrimary}
			targets = []*variable{{name: loopName(), t: t, optional: true, unset: true}}
		}},
		choice{2, g.on("range"), func() {
			iter = g.rangeCall()
			targets = []*variable{{name: loopName(), t: typeInt}}
		}},
		choice{1, g.on("for-multi-target"), func() {
			// Pairs to unpack: lists of two scalars.
			t := []*valueType{typeString, typeInt, typeFloat, typeBool}[g.r.IntN(4)]
			var items []string
			for range 1 + g.r.IntN(3) {
				a := g.literalItem(func() expression { return g.expr(t, 1) })
				b := g.literalItem(func() expression { return g.expr(t, 1) })
				items = append(items, "["+g.wrap(a, precCond)+", "+g.wrap(b, precCond)+"]")
			}
			iter = expression{text: "[" + strings.Join(items, ", ") + "]", prec: precPrimary}
			a, b := loopName(), loopName()
			for b == a {
				b = loopName()
			}
			targets = []*variable{{name: a, t: t}, {name: b, t: t}}
		}},
	)
	names := make([]string, len(targets))
	types := map[string]*valueType{}
	for i, v := range targets {
		names[i] = v.name
		v.loopVar = true
		types[v.name] = v.t
	}
	head := "for " + strings.Join(names, ", ") + " in " + g.beforeName(iter, precOr)
	g.scopes = append(g.scopes, &scope{vars: targets, loop: true, types: types})
	if g.on("for-filter") && g.chance(0.2) {
		// loop is the outer loop's here, if any.
		loops := g.loops
		if !g.on("loop-attr-in-filter") {
			g.loops = 0
		}
		c, _ := g.cond(1)
		g.loops = loops
		head += " if " + g.wrap(c, precOr)
	}
	var item *valueType
	if len(targets) == 1 {
		item = targets[0].t
	}
	g.enterLoop(item)
	body := g.body()
	g.leaveLoop()
	g.leaveFrame()
	out := g.tag(head) + body
	if g.on("for-else") && g.chance(0.25) {
		// The else block is a scope of its own.
		g.scopes = append(g.scopes, &scope{types: map[string]*valueType{}})
		g.forElse++
		out += g.tag("else") + g.body()
		g.forElse--
		g.leaveFrame()
	}
	return out + g.tag("endfor")
}

// leaveFrame ends the innermost scope, a frame of Jinja2's (a loop's body
// or else, a block set's or filter block's body). With read-after-frame on,
// the names it assigned (loop targets too) that no scope outside has stay
// readable after it, as undefined: Jinja2 reads the template's variable
// there, which declared inputs lack and inferred ones make an optional
// input the data may leave unset. Only scalars and lists of them: an
// object always undefined there has no type to infer (promptgen rejects
// its attributes), and a namespace is used through its attributes only.
func (g *generator) leaveFrame() {
	frame := g.scopes[len(g.scopes)-1]
	g.scopes = g.scopes[:len(g.scopes)-1]
	g.readAfter(frame.vars)
}

// readAfter makes the names of vars, assigned in a frame that ended (or
// a macro's parameters), readable after it as leaveFrame says.
func (g *generator) readAfter(vars []*variable) {
	if !g.on("read-after-frame") {
		return
	}
	top := g.scopes[len(g.scopes)-1]
	for _, v := range vars {
		t, ok := top.types[v.name]
		switch {
		case g.lookup(v.name) != nil, ok && !typeEq(t, v.t):
			continue // the enclosing value, or a name of another type here
		case !v.t.scalar() && (v.t.kind != kindList || !v.t.elem.scalar()):
			continue
		}
		top.types[v.name] = v.t
		top.vars = append(top.vars, &variable{name: v.name, t: v.t, optional: true, unset: true})
	}
}

// rangeCall is range(stop), range(start, stop) or range(start, stop,
// step) of small int literals, so that Jinja2 never builds a long range; a
// zero step, which both sides reject at render time, is rare.
func (g *generator) rangeCall() expression {
	n := func() string { return strconv.Itoa(g.r.IntN(10) - 3) }
	args := []string{n()}
	if g.chance(0.6) {
		args = append(args, n())
		if g.chance(0.5) {
			step := []string{"1", "2", "3", "-1", "-2"}[g.r.IntN(5)]
			if g.chance(0.02) {
				step = "0"
			}
			args = append(args, step)
		}
	}
	return expression{text: "range(" + strings.Join(args, ", ") + ")", prec: precPrimary}
}

func elemPaths(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p + "[]"
	}
	return out
}

// setTarget picks the name a set assigns, and the type of its value: the
// type the name has in this scope already (promptgen gives a local one
// type), unless set-retype is on.
func (g *generator) setTarget() (string, *valueType) {
	top := g.scopes[len(g.scopes)-1]
	for {
		name := g.pick(slices.Concat(localNames, inputNames[:6]))
		v := g.lookup(name)
		switch {
		case v != nil && v.input && g.ifs+g.loops+g.setBlock+g.forElse > 0 && !g.on("set-shadow-input"):
			continue
		case v != nil && v.input && !g.on("set-shadow-input-top"):
			continue
		case v != nil && v.loopVar && slices.Contains(top.vars, v) && !g.on("set-loopvar"):
			continue
		}
		t, ok := top.types[name]
		switch {
		case ok && g.canMake(t) && (!g.on("set-retype") || g.chance(0.9)):
		case ok && !g.on("set-retype"):
			continue
		default:
			t = g.randMakeable()
		}
		top.types[name] = t
		return name, t
	}
}

// loopMap is a map variable to loop over the items or values of, and its
// type: one that may be unset only with items-unset, where Jinja2 fails.
func (g *generator) loopMap() (expression, *valueType) {
	var t *valueType
	x := g.sensitiveOp("items-unset", func() expression {
		r := g.randRef(func(r *ref) bool { return r.t.kind == kindMap && g.usable(r) })
		if r == nil {
			r = g.randRef(func(r *ref) bool { return r.t.kind == kindMap })
		}
		t = r.t
		return g.useRef(r)
	})
	return x, t
}

// declare puts a set's target in scope.
func (g *generator) declare(v *variable) {
	top := g.scopes[len(g.scopes)-1]
	top.vars = append(top.vars, v)
}

func (g *generator) setStmt() string {
	if g.on("set-tuple") && g.chance(0.15) {
		a, ta := g.setTarget()
		b, tb := g.setTarget()
		if a != b {
			x, y := g.expr(ta, 2), g.expr(tb, 2)
			out := g.tag("set " + a + ", " + b + " = " + g.wrap(x, precCond) + ", " + g.wrap(y, precCond))
			g.declare(&variable{name: a, t: ta, paths: x.paths})
			g.declare(&variable{name: b, t: tb, paths: y.paths})
			return out
		}
	}
	name, t := g.setTarget()
	x := g.expr(t, 3)
	out := g.tag("set " + name + " = " + x.text)
	g.declare(&variable{name: name, t: t, paths: x.paths})
	return out
}

// setGeneratorStmt stores a generator in a name nothing reads (one per
// element type, so that its sets agree): Jinja2 evaluates the filter's
// operands and arguments, and never runs the filter.
func (g *generator) setGeneratorStmt() string {
	i := g.r.IntN(3)
	elem := []*valueType{typeString, typeInt, typeFloat}[i]
	x := g.lazyList(elem, 3)
	if g.on("set-generator-cond") && g.chance(0.4) {
		// A conditional that may yield it: Jinja2 evaluates the
		// condition and the arm it takes.
		c, _ := g.cond(1)
		if g.chance(0.2) {
			x = expression{text: g.beforeName(x, precOr) + " if " + g.wrap(c, precOr), prec: precCond}
		} else {
			y := g.exprLazy(listOf(elem), 2)
			if g.chance(0.5) {
				x, y = y, x
			}
			x = expression{text: g.beforeName(x, precOr) + " if " + g.wrap(c, precOr) + " else " + g.wrap(y, precCond), prec: precCond}
		}
	}
	return g.tag(fmt.Sprintf("set stored_%s = %s", []string{"s", "i", "f"}[i], x.text))
}

// generatorValueStmt is a generator (or a list's reverse) held as a
// value (family generator-value): set to a name, an item of a list,
// dict or tuple literal, a namespace attribute, or a macro's argument,
// also through a conditional or an and/or whose other operand is a list
// (read also by an index, last and length), or the unique or map of a
// list of dynamic values;
// then read one to three times by consumers that take items from the one
// iterator they share (first, in, list, join, a loop last), that compare
// it (==, with itself true) or test it, or that Python refuses (length,
// last: TypeError). Names of their own (gv_*): nothing else reads them.
func (g *generator) generatorValueStmt() string {
	elem := []*valueType{typeString, typeInt, typeFloat}[g.r.IntN(3)]
	x, yields := g.exactGenerator(elem)
	if g.chance(0.25) {
		return g.generatorOperated(elem, x)
	}
	arms := false
	switch {
	case g.chance(0.2):
		x = g.lazyList(elem, 2).text // one whose work may fail: stays out where read
	case g.chance(0.2):
		// Of a list of dynamic values (an int and a float, which a list
		// literal holds as such): the runtime makes its items as pulled,
		// so an item whose work fails (the length of a number) fails only
		// where pulled.
		items := []string{g.leaf(typeInt).text, g.leaf(typeFloat).text}
		if g.chance(0.5) {
			items[0], items[1] = items[1], items[0]
		}
		x = "[" + strings.Join(items, ", ") + "]|" + g.pick([]string{"unique", "map('string')", "map('string')|unique", "unique|map('lower')", "map('abs')", "map('length')"})
	case g.chance(0.3):
		// A conditional or an and/or that yields it or a list: a dynamic
		// value, the iterator or the list as the arm taken decides.
		arms = true
		y := g.expr(listOf(yields), 1)
		if y.lazy {
			y = g.filter(y, "list")
		}
		c, _ := g.cond(1)
		switch g.r.IntN(4) {
		case 0:
			x = "((" + x + ") if (" + c.text + ") else (" + y.text + "))"
		case 1:
			x = "((" + y.text + ") if (" + c.text + ") else (" + x + "))"
		case 2:
			x = "((" + x + ") or (" + y.text + "))"
		default:
			x = "((" + y.text + ") and (" + x + "))"
		}
	}
	var hold, r string
	kinds := 5
	if g.ifs == 0 && g.loops == 0 && !g.macroBody && g.setBlock == 0 {
		kinds++ // a macro, defined at the top level
	}
	switch g.r.IntN(kinds) {
	case 0:
		hold, r = g.tag("set gv_s = "+x), "gv_s"
	case 1:
		hold, r = g.tag("set gv_l = ["+x+", 1]"), "gv_l[0]"
	case 2:
		hold, r = g.tag("set gv_d = {'k': "+x+"}"), "gv_d.k"
	case 3:
		hold, r = g.tag("set gv_t, gv_u = "+x+", 1"), "gv_t"
	case 4:
		hold, r = g.tag("set gv_ns = namespace(a="+x+")"), "gv_ns.a"
	default:
		m := fmt.Sprintf("gv_m%d", g.r.IntN(1_000_000))
		return g.tag("macro "+m+"(it)") + "{{ it|first }}/{{ it|list }}" + g.tag("endmacro") + "{{ " + m + "(" + x + ") }}"
	}
	reads := []string{"{{ " + r + "|first }}", "{{ " + r + "|list }}", "{{ " + r + "|join(',') }}",
		"{{ " + g.wrap(g.leaf(elem), precCmp) + " in " + r + " }}", "{{ " + r + " == " + r + " }}",
		"{{ " + r + " is " + g.pick(generatorTests) + " }}", "{{ 'y' if " + r + " else 'n' }}"}
	if arms {
		reads = append(reads, "{{ "+r+"[0] }}", "{{ "+r+"|last }}", "{{ "+r+"|length }}")
	}
	out := hold
	for range 1 + g.r.IntN(3) {
		out += g.pick(reads)
	}
	switch {
	case g.chance(0.3):
		out += g.tag("for gv_x in "+r) + "{{ gv_x }}" + g.tag("endfor")
	case g.chance(0.1):
		out += "{{ " + r + "|" + g.pick([]string{"length", "last", "tojson"}) + " }}"
	}
	return out
}

// generatorOperated is x, a generator of a list of elem, operated on
// directly rather than iterated: an index or attribute (undefined, or
// the Python object's), wordcount, int and float of it, reverse of a
// conditional whose arms are generators (a list), or a slice of
// constants that Jinja2's optimizer folds to undefined.
func (g *generator) generatorOperated(elem *valueType, x string) string {
	switch g.r.IntN(5) {
	case 0:
		return "{{ (" + x + ")[" + g.pick([]string{g.leaf(typeInt).text, "'user'", "'send'"}) + "] is defined }}"
	case 1:
		return "{{ (" + x + ")." + g.pick([]string{"user", "send", "close"}) + " is defined }}"
	case 2:
		return "{{ " + x + "|" + g.pick([]string{"wordcount", "int", "float"}) + " }}"
	case 3:
		y, _ := g.exactGenerator(elem)
		return "{{ ((" + x + " if " + g.wrap(g.leaf(typeBool), precCmp) + " else " + y + ")|reverse)|join(',') }}"
	}
	lo, hi := g.r.IntN(5)-2, g.r.IntN(5)-2
	return fmt.Sprintf("{{ ([%d, %d, %d]|%s)[%d:%d]|%s }}", g.r.IntN(9), g.r.IntN(9), g.r.IntN(9), g.pick([]string{"reverse", "unique"}), lo, hi, g.pick([]string{"sum", "length", "list"}))
}

// exactGenerator is a generator of a list of elem whose work on an item
// cannot fail, which promptgen holds as a value: select or reject with
// no test or a test of any value, reverse, unique, map('string'), and of
// strings map('trim'), map('length'), map('replace', ...), map('indent');
// and the type of its items (a string of map('string')).
func (g *generator) exactGenerator(elem *valueType) (string, *valueType) {
	src := g.expr(listOf(elem), 1)
	if src.lazy {
		src = g.filter(src, "list")
	}
	switch f := g.pick([]string{"select", "reject", "reverse", "unique", "map"}); f {
	case "map":
		if elem == typeString && g.chance(0.3) {
			if g.chance(0.25) {
				return g.filter(src, "map", "'length'").text, typeInt
			}
			return g.filter(src, "map", g.pick([]string{"'trim'", "'replace', 'a', 'b'", "'indent', 2"})).text, typeString
		}
		return g.filter(src, "map", "'string'").text, typeString
	case "select", "reject":
		switch g.r.IntN(3) {
		case 0:
			return g.filter(src, f, "'"+g.pick([]string{"defined", "none", "string", "number"})+"'").text, elem
		case 1:
			return g.filter(src, f, "'"+g.pick([]string{"eq", "ne", "=="})+"'", g.leaf(elem).text).text, elem
		}
		return g.filter(src, f).text, elem
	default:
		return g.filter(src, f).text, elem
	}
}

// filterBlockStmt is {% filter %} with a chain of one or two string
// filters over a body that is a scope of its own, as a block set's is.
func (g *generator) filterBlockStmt() string {
	var chain []string
	for range 1 + g.r.IntN(2) {
		name := g.pick([]string{"upper", "lower", "title", "capitalize", "trim", "replace", "indent", "truncate"})
		chain = append(chain, g.callName(name, false, g.stringFilterArgs(name)...))
	}
	g.setBlock++
	g.scopes = append(g.scopes, &scope{types: map[string]*valueType{}})
	body := g.body()
	g.leaveFrame()
	g.setBlock--
	return g.tag("filter "+strings.Join(chain, "|")) + body + g.tag("endfilter")
}

func (g *generator) setBlockStmt() string {
	name, _ := g.setTarget()
	g.scopes[len(g.scopes)-1].types[name] = typeString
	// The body is a frame of its own: what it sets stays in it.
	g.setBlock++
	g.scopes = append(g.scopes, &scope{types: map[string]*valueType{}})
	body := g.body()
	g.leaveFrame()
	g.setBlock--
	g.declare(&variable{name: name, t: typeString})
	return g.tag("set "+name) + body + g.tag("endset")
}

// includeStmt moves a block into a template file of the case, included
// where it stands: a frame of its own, whose sets stay inside, that sees
// the names around it but loop. The file is a prompt of its own too, so
// it holds nothing the transformers profile alone parses. At times a
// namespace is set before it, and where one is in scope, the file at
// times sets one of its attributes (often in the block form), which the
// includer sees: Jinja2 passes the include the namespace itself (also to
// a file included in the file's loop, difffuzz seed 1 case 30). It is
// at times said to be with context, which is the same. In a macro's body
// or a call block's it sees their parameters and locals too. It calls
// the includer's macros, and may start with macros of its own
// (include-macro), which only it calls: one of a name of the includer's
// hides that one in the file from its definition on.
func (g *generator) includeStmt() string {
	var ns string
	if g.on("namespace") && g.canSet() && !g.namespaceHidden && g.namespaceInScope() == nil && g.chance(0.3) {
		ns = g.namespaceStmt()
	}
	name := fmt.Sprintf("part%d.j2", len(g.includes))
	g.includes[name] = "" // taken, for the includes in its body
	loops, items, macros := g.loops, g.loopItems, g.macros
	g.loops, g.loopItems = 0, nil
	g.scopes = append(g.scopes, &scope{types: map[string]*valueType{}})
	var defs string
	if g.on("include-macro") && g.chance(0.3) {
		defs = g.includedMacroDefs()
	}
	body := defs + g.body()
	if g.on("namespace") && g.namespaceInScope() != nil && g.chance(0.6) {
		body += g.namespaceAttrStmt(0.5)
	}
	g.scopes = g.scopes[:len(g.scopes)-1]
	g.loops, g.loopItems, g.macros = loops, items, macros
	g.includes[name] = body
	ctx := ""
	if g.chance(0.15) {
		ctx = " with context" // Jinja2's default
	}
	return ns + g.tag(`include "`+name+`"`+ctx)
}

// includedMacroDefs defines one to three macros at the start of an
// included file, whose names hide the includer's macros of those names
// in it from their definition on. Before it, a call of one of those
// names at the top level, read before any definition, calls the
// includer's macro (Jinja2's root frame resolves the name from the
// context).
func (g *generator) includedMacroDefs() string {
	names := slices.Clone(macroNames)
	g.r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	names = names[:1+g.r.IntN(3)]
	var b strings.Builder
	hidden := slices.DeleteFunc(g.plainMacros(), func(m *macro) bool { return !slices.Contains(names, m.name) })
	if len(hidden) > 0 && g.chance(0.3) {
		b.WriteString("{{ " + g.plainCallOf(hidden[g.r.IntN(len(hidden))]) + " }}")
	}
	g.macros = slices.DeleteFunc(slices.Clone(g.macros), func(m *macro) bool { return slices.Contains(names, m.name) })
	for _, name := range names {
		b.WriteString(g.macroDef(name, g.chance(0.3)))
	}
	return b.String()
}
