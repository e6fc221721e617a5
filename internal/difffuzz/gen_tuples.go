package difffuzz

// The tuple family: tuple literals ((), (a,), (a, b, c)) of typed items,
// printed, indexed, measured, joined, compared, concatenated and tested
// for membership; for loops unpacking a list or tuple of pairs; and sets
// unpacking one tuple value. promptgen makes a tuple a dynamic value, so
// its targets are read only where they are set.

import (
	"strconv"
	"strings"
)

// tupleItemTypes are the types of a tuple's items.
var tupleItemTypes = []*valueType{typeString, typeString, typeInt, typeFloat, typeBool, listOf(typeString)}

// tupleLit is a tuple literal of n items of random types.
func (g *generator) tupleLit(n, d int) expression {
	items := make([]string, n)
	for i := range items {
		items[i] = g.wrap(g.expr(tupleItemTypes[g.r.IntN(len(tupleItemTypes))], d), precCond)
	}
	text := "(" + strings.Join(items, ", ") + ")"
	if n == 1 {
		text = "(" + items[0] + ",)"
	}
	return expression{text: text, prec: precPrimary}
}

// tupleValue is an expression computed from tuple literals.
func (g *generator) tupleValue(d int) expression {
	n := g.r.IntN(4)
	t := g.tupleLit(n, d)
	var e expression
	g.choose(
		choice{4, true, func() { e = t }},
		choice{2, true, func() { e = g.filter(t, g.pick([]string{"length", "count", "list", "first", "last"})) }},
		choice{2, true, func() { e = g.filter(t, "join", g.strLit()) }},
		choice{1, g.on("filter-tojson"), func() { e = g.filter(t, "tojson") }},
		choice{3, n > 0, func() {
			e = expression{text: t.text + "[" + strconv.Itoa(g.r.IntN(2*n)-n) + "]", prec: precPrimary}
		}},
		choice{1, true, func() {
			e = expression{text: t.text + "[" + strconv.Itoa(g.r.IntN(3)) + ":]", prec: precPrimary}
		}},
		choice{3, true, func() {
			e = g.compare(g.expr(tupleItemTypes[g.r.IntN(len(tupleItemTypes))], d), g.pick([]string{"in", "not in"}), t)
		}},
		choice{2, true, func() { e = g.compare(t, g.pick([]string{"==", "!="}), g.tupleLit(n, d)) }},
		choice{1, true, func() { e = g.binary(t, "+", g.tupleLit(g.r.IntN(3), d), precAdd) }},
	)
	return e
}

// tupleStmt prints a tuple expression, loops over pairs unpacking them, or
// unpacks a pair with set.
func (g *generator) tupleStmt() string {
	print := func(x string) string { return g.open("{{") + g.pad() + x + g.pad() + g.close("}}") }
	var out string
	g.choose(
		choice{3, true, func() { out = print(g.tupleValue(1).text) }},
		choice{2, true, func() {
			pairs := make([]string, 1+g.r.IntN(3))
			for i := range pairs {
				pairs[i] = g.tupleLit(2, 1).text
			}
			iter := "[" + strings.Join(pairs, ", ") + "]"
			if g.chance(0.3) {
				iter = "(" + strings.Join(pairs, ", ") + ",)"
			}
			out = g.tag("for ta, tb in "+iter) + print("ta") + "=" + print("tb") + ";" + g.tag("endfor")
		}},
		choice{2, g.canSet(), func() {
			out = g.tag("set ta, tb = "+g.tupleLit(2, 1).text) + print("tb") + "," + print("ta")
		}},
	)
	return out
}
