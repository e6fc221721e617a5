package difffuzz

// dictMethodStmt uses a dict method read as an attribute (x.items,
// x.get, ...) of an object or map input, or of a dict literal, as a value
// (issue 27): Jinja2 reads the attribute before the key, so it is the
// method whatever the keys. Uses that Jinja2 runs (truth, tests, a
// default, ==, int, a list holding it) print as Jinja2 prints them; uses
// it fails on (length, a str method of it, arithmetic, in, an ordering
// comparison, list, first, tojson) stand in an if whose condition the
// data decides, where the render fails as Jinja2 does; one printed there
// prints its address in Jinja2, where promptgen fails the render.
func (g *generator) dictMethodStmt() string {
	var x string
	r := g.randRef(func(r *ref) bool { return (r.t.kind == kindObject || r.t.kind == kindMap) && g.usable(r) })
	if r != nil && g.chance(0.8) {
		x = g.useRef(r).text
	} else {
		x = g.dictLit(1).text
	}
	m := x + "." + g.pick(append([]string{"copy"}, dictMethods...))
	if g.chance(0.6) {
		use := g.pick([]string{m + " is defined", m + " is callable", m + " is string", "not " + m, m + " == 'a'", m + " != none",
			m + "|int", "[" + m + ", 1]|length", "(" + m + "|default(2)) is callable", m + ".foo is defined", m + "['a'] is undefined",
			"(" + m + " if " + m + " else 1) is callable", m + " in [1]"})
		return g.print1(use)
	}
	c, _ := g.cond(1)
	use := g.print1(g.pick([]string{m + "|length", m + ".upper()", m + " + 1", "'a' in " + m, m + " < 2", "-" + m,
		m + "|list", m + "|first", m + "|tojson", m + ".get('k')", m, m + " ~ 'a'"}))
	return g.tag("if "+g.wrap(c, precOr)) + use + g.tag("endif")
}

// dictViewStmt prints a dict view (items(), keys() or values()) of an
// object or map input, or of a dict literal, used as Jinja2 uses one
// outside a loop: converted, measured, joined, sorted, searched.
func (g *generator) dictViewStmt() string {
	x := g.dictLit(1).text
	if r := g.randRef(func(r *ref) bool { return (r.t.kind == kindObject || r.t.kind == kindMap) && g.usable(r) }); r != nil && g.chance(0.8) {
		x = g.useRef(r).text
	}
	view := x + "." + g.pick([]string{"items", "keys", "values"}) + "()"
	return g.print1(g.pick([]string{view + "|list", view + "|length", view + "|list|length > 1", view + "|first",
		view + "|list|last", view + "|map('string')|join(',')", x + ".keys()|join('+')", x + ".keys()|sort|list",
		"'a' in " + x + ".keys()", "'len' not in " + x + ".keys()", x + ".items()|sort|first", view + "|list == []"}))
}
