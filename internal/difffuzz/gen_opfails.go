package difffuzz

// opFailsStmt is an operation Python refuses whatever the values (issue
// 27), in an if whose condition the data decides: arithmetic of strings,
// a string negated, an ordering comparison with none or of an int and a
// string, a loop over or a membership test in an int, a str method of an
// int, a dict method of a string, and those Python refuses whatever the
// other operand (a string minus, none ordered with, a generator % any
// value, of a type promptgen may not know yet where it checks them).
// Where the branch runs, Jinja2 raises and so must the render (after the
// operands, which may fail first); where it does not, the template
// renders; a loop over an int that may be undefined loops over no item
// there. Beside them, a list plus a list of another item type, which
// Python holds together.
func (g *generator) opFailsStmt() string {
	c, _ := g.cond(1)
	i, s := g.expr(typeInt, 1), g.expr(typeString, 1)
	var op string
	switch g.r.IntN(14) {
	case 13:
		// An int that may be undefined (the last of an empty list):
		// Jinja2 loops over no item of an undefined.
		op = g.tag("for v in "+g.wrap(g.expr(listOf(typeInt), 1), precPrimary)+"|last") + "{{ v }}" + g.tag("else") + "-" + g.tag("endfor")
	case 9:
		op = g.print1("'a' - " + g.wrap(g.anyValue(1), precMul))
	case 10:
		op = g.print1("none > " + g.wrap(g.anyValue(1), precAdd))
	case 11:
		op = g.print1("([1, 2]|" + g.pick([]string{"reject", "select", "unique"}) + ") % " + g.wrap(g.anyValue(1), precMul))
	case 12:
		// Not failing: Python's list of both.
		return g.print1("[" + g.wrap(s, precCond) + "] + [" + g.wrap(i, precCond) + "]")
	case 0:
		op = g.print1(g.wrap(s, precAdd) + " - 'b'")
	case 1:
		op = g.print1("-" + g.wrap(s, precPrimary))
	case 2:
		op = g.print1(g.wrap(i, precAdd) + " < 'a'")
	case 3:
		op = g.print1("none > " + g.wrap(i, precAdd))
	case 4:
		op = g.tag("for v in "+g.wrap(i, precPrimary)) + "{{ v }}" + g.tag("endfor")
	case 5:
		op = g.print1("'a' in " + g.wrap(i, precAdd))
	case 6:
		op = g.print1(g.wrap(i, precPrimary) + ".split()")
	case 7:
		op = g.print1(g.wrap(s, precPrimary) + ".items()")
	default:
		op = g.print1(g.wrap(i, precPrimary) + ".get('k')")
	}
	return g.tag("if "+g.wrap(c, precOr)) + op + g.tag("endif")
}

// print1 is the output statement of text, an expression.
func (g *generator) print1(text string) string { return "{{ " + text + " }}" }
