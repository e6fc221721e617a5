package difffuzz

// The list-method family: Python's list methods that modify a list
// (append, extend, insert, pop, clear) on a variable or a namespace
// attribute set to a list literal of strings (la, nl.l) or ints (li,
// ni.l), the idiom that carries values out of a loop. Now and then the
// list is also held by another name (list-alias), which shares it, changed
// through either name, or takes it after the last change; or a loop over
// it modifies it, which iterates it as it changes (promptgen rejects on
// purpose the loop attributes Jinja2 takes ahead: loop.last, loop.length,
// loop.revindex). In a case with the transformers profile, append, extend
// and insert raise SecurityError where they run; pop and clear run.

import (
	"strconv"
	"strings"
)

// listMethodStmt sets a list to a literal of strings or ints, modifies it a few times, inside a loop too,
// and prints it.
func (g *generator) listMethodStmt() string {
	// The names by the items' type, so that no name holds lists of two.
	t, la, nl, lb := typeString, "la", "nl", "lb"
	if g.chance(0.4) {
		t, la, nl, lb = typeInt, "li", "ni", "lj"
	}
	item := func() string { return g.wrap(g.defined(func() expression { return g.expr(t, 1) }), precCond) }
	items := func(n int) string {
		xs := make([]string, n)
		for i := range xs {
			xs[i] = item()
		}
		return "[" + strings.Join(xs, ", ") + "]"
	}
	print := func(x string) string { return g.open("{{") + g.pad() + x + g.pad() + g.close("}}") }
	list, out := la, ""
	if g.on("namespace") && !g.namespaceHidden && g.chance(0.3) {
		list = nl + ".l"
		out = g.tag("set " + nl + " = namespace(l=" + items(g.r.IntN(3)) + ")")
	} else {
		out = g.tag("set " + la + " = " + items(g.r.IntN(3)))
	}
	index := func() string { return strconv.Itoa(g.r.IntN(5) - 2) }
	var opOn func(list string) string
	op := func() string { return opOn(list) }
	opOn = func(list string) string {
		var s string
		g.choose(
			choice{4, true, func() { s = g.tag("set _ = " + list + ".append(" + item() + ")") }},
			choice{2, true, func() {
				s = print(list + ".append(" + item() + ") " + g.pick([]string{"or", "and"}) + " " + g.strLit())
			}},
			choice{1, true, func() { s = g.tag("set _ = " + list + ".extend(" + items(g.r.IntN(3)) + ")") }},
			choice{1, true, func() { s = g.tag("set _ = " + list + ".insert(" + index() + ", " + item() + ")") }},
			choice{3, true, func() {
				arg := ""
				if g.chance(0.5) {
					arg = index()
				}
				s = print(list + ".pop(" + arg + ")")
			}},
			choice{1, true, func() { s = print(list + ".clear()") }},
			choice{3, true, func() {
				s = print(g.pick([]string{list, list + "|length", list + "|join(',')", list + "[0]", list + "[1:]"}))
			}},
		)
		return s
	}
	for range 1 + g.r.IntN(3) {
		out += op()
	}
	if g.chance(0.5) { // the accumulator: a loop that appends
		iter := g.wrap(g.defined(func() expression { return g.expr(listOf(t), 1) }), precPostfix)
		body := g.tag("set _ = " + list + ".append(lx)")
		if g.chance(0.3) {
			body = g.tag("if loop.index is odd") + body + g.tag("else") + op() + g.tag("endif")
		}
		out += g.tag("for lx in "+iter) + body + g.tag("endfor")
	}
	if g.on("list-alias") && g.chance(0.15) {
		g.choose(
			choice{1, true, func() { out += g.tag("set "+lb+" = "+list) + op() + print(lb) }},
			choice{1, true, func() { // the list changed through the other name
				out += g.tag("set "+lb+" = "+list) + opOn(lb) + print(list) + op() + print(lb)
			}},
			choice{2, true, func() { // a loop over the list as it changes
				attr := ""
				if g.chance(0.5) {
					attr = print(g.pick([]string{"loop.index0", "loop.first", "lx", "loop.cycle('a', 'b')", "loop.last", "loop.length", "loop.revindex"}))
				}
				out += g.tag("for lx in "+list) + attr + g.tag("if loop.index < 3") + op() + g.tag("endif")
				if g.chance(0.3) {
					out += g.tag("else") + print(g.strLit())
				}
				out += g.tag("endfor")
			}},
		)
	}
	out += print(list)
	if g.on("list-alias") && g.chance(0.1) { // held after its last change
		out += g.tag("set "+lb+" = "+g.pick([]string{list, "[" + list + "]", list + " | default([])"})) + print(lb)
	}
	return out
}
