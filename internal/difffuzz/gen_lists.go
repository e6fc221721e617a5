package difffuzz

// The productions of lists: literals, slices, sort, unique, reverse,
// select and reject, map and split.

import (
	"slices"
	"strconv"
	"strings"
)

// selectTest is the test of a select filter on values of type t, with its
// argument, or nothing (their truth). An optional value gets only tests
// that an undefined passes or fails without an error.
func (g *generator) selectTest(t *valueType, optional bool) []string {
	arg := func() string { return g.wrap(g.defined(func() expression { return g.expr(t, 0) }), precCond) }
	var out []string
	cmp := func() {
		out = []string{"'" + g.pick([]string{"equalto", "==", "eq", "ne", "!=", "lt", "<", "le", "gt", ">=", "ge", "greaterthan"}) + "'", arg()}
	}
	g.choose(
		choice{2, true, func() {}},
		choice{2, true, func() { out = []string{"'" + g.pick([]string{"defined", "undefined"}) + "'"} }},
		choice{1, !optional, func() { out = []string{"'" + g.pick([]string{"string", "number", "none"}) + "'"} }},
		choice{2, g.on("test-type"), func() { out = []string{"'" + g.pick(typeTests) + "'"} }},
		choice{3, !optional && t.kind == kindInt, func() { out = []string{"'" + g.pick([]string{"odd", "even"}) + "'"} }},
		choice{1, !optional && t.kind == kindInt, func() { out = []string{"'divisibleby'", strconv.Itoa(1 + g.r.IntN(4))} }},
		choice{4, !optional && (t.kind == kindInt || t.kind == kindFloat || t.kind == kindString), cmp},
		choice{2, !optional && t.kind == kindBool, func() { out = []string{"'" + g.pick([]string{"equalto", "ne"}) + "'", arg()} }},
		choice{1, !optional && t.kind == kindString, func() {
			out = []string{"'in'", "[" + arg() + ", " + arg() + "]"}
		}},
	)
	return out
}

// lazyList is a generator of items of type elem (map, select, reject,
// unique, a list's reverse), which Jinja2 can only iterate.
func (g *generator) lazyList(elem *valueType, d int) expression {
	x := g.exprLazy(listOf(elem), d)
	if !x.lazy {
		x = g.filter(x, g.pick([]string{"select", "reject", "unique", "reverse"}))
		x.lazy = true
	}
	return x
}

// generatorTests are the tests whose result Jinja2 decides for a
// generator (a list's reverse iterator too) by its type alone: it is
// defined and iterable, and no sequence (it has no length).
var generatorTests = []string{"defined", "undefined", "none", "string", "number", "integer", "float", "boolean",
	"true", "false", "mapping", "iterable", "sequence", "callable", "escaped"}

// generatorTest is a type test of a generator (family generator-test).
func (g *generator) generatorTest(d int) expression {
	x := g.lazyList([]*valueType{typeString, typeInt, typeFloat}[g.r.IntN(3)], d)
	name := g.pick(generatorTests)
	if g.chance(0.3) {
		name = "not " + name
	}
	return expression{text: g.wrap(x, precPostfix) + " is " + name, prec: precPostfix, openRight: true}
}

// generatorIndex is a generator subscripted by an int, printed (family
// generator-index): Jinja2's getitem cannot subscript it and yields
// undefined, which prints empty or takes a default.
func (g *generator) generatorIndex(d int) expression {
	elem := []*valueType{typeString, typeInt, typeFloat}[g.r.IntN(3)]
	x := g.lazyList(elem, d)
	i := g.expr(typeInt, d-1)
	if g.on("dyn-index") && g.chance(0.2) {
		i = g.expr([]*valueType{typeFloat, typeString}[g.r.IntN(2)], d-1) // undefined, or an attribute
	}
	e := expression{text: g.wrap(x, precPrimary) + "[" + i.text + "]", prec: precPrimary}
	if g.chance(0.3) {
		e = g.filter(e, g.defaultName(), g.leaf(elem).text)
	}
	return e
}

// generatorMisuse is an int from a use of a generator that Jinja2
// raises TypeError on (family generator-misuse): its length, its last
// item, + with a list, a slice. Drawn where it may not run (in an if, a
// loop, a macro), where promptgen compiles it with a warning and fails
// the render where it runs; the data decides whether it does.
func (g *generator) generatorMisuse(d int) expression {
	x := g.lazyList(typeInt, d)
	switch g.r.IntN(4) {
	case 0:
		return g.filter(x, g.pick([]string{"length", "count"}))
	case 1:
		return g.filter(x, "last")
	case 2:
		y := g.expr(listOf(typeInt), d-1)
		if g.chance(0.5) {
			return g.filter(g.binary(x, "+", y, precAdd), "length")
		}
		return g.filter(g.binary(y, "+", x, precAdd), "length")
	}
	return g.filter(expression{text: g.wrap(x, precPrimary) + "[" + g.pick([]string{"1:", ":2", "::-1"}) + "]", prec: precPrimary}, "length")
}

// mapByName is map with a filter's name yielding a list of elem: a string
// filter over strings, string over numbers, int or length to ints, float
// to floats.
func (g *generator) mapByName(elem *valueType, d int) expression {
	from := []*valueType{typeString, typeInt, typeFloat}[g.r.IntN(3)]
	var name string
	switch elem.kind {
	case kindString:
		name = g.pick([]string{"upper", "lower", "title", "capitalize", "trim", "replace", "indent", "truncate", "string"})
		if name != "string" {
			from = typeString
		}
	case kindInt:
		name = g.pick([]string{"int", "length", "count"})
		if name != "int" {
			from = typeString
		}
	default:
		name = "float"
	}
	if g.on("map-value-filter") && g.chance(0.4) {
		name, from = g.mapValueFilter(elem)
	}
	args := append([]string{"'" + name + "'"}, g.stringFilterArgs(name)...)
	e := g.filter(g.exprLazy(listOf(from), d), "map", args...)
	e.lazy = true
	return e
}

// mapValueFilter is a filter of a value (runtime/jinja.Filter's) that
// map applies to items of type from, yielding elem.
func (g *generator) mapValueFilter(elem *valueType) (name string, from *valueType) {
	switch elem.kind {
	case kindString:
		name = g.pick([]string{"center", "striptags", "urlencode", "wordwrap", "filesizeformat"})
		if name == "filesizeformat" {
			return name, []*valueType{typeInt, typeFloat}[g.r.IntN(2)]
		}
		return name, typeString
	case kindInt:
		if g.chance(0.5) {
			return "wordcount", typeString
		}
		return "abs", typeInt
	}
	return g.pick([]string{"abs", "round"}), typeFloat
}

func (g *generator) listProductions(t *valueType, d int, e *expression) []choice {
	list := func() expression { return g.expr(t, d) }
	iterated := func() expression { return g.exprLazy(t, d) }
	scalar := t.elem.scalar()
	var attr *field // a scalar field of the elements, for attribute=
	if t.elem.kind == kindObject {
		for _, f := range t.elem.fields {
			if f.t.scalar() && !f.optional && (f.t.kind != kindBool || g.on("sort-bool") && g.chance(0.1)) {
				attr = f
			}
		}
	}
	return []choice{
		{4, g.on("list-literal") && g.canMake(t.elem), func() {
			*e = expression{prec: precPrimary}
			items := make([]string, 1+g.r.IntN(3))
			for i := range items {
				x := g.literalItem(func() expression { return g.expr(t.elem, d) })
				items[i] = g.wrap(x, precCond)
				e.elems = append(e.elems, x.paths...)
			}
			e.text = "[" + strings.Join(items, ", ") + "]"
		}},
		{2, g.on("slice"), func() { *e = g.slice(g.sensitiveOp("slice-unset", list)) }},
		{1, g.on("list-repeat"), func() {
			n := expression{text: g.pick([]string{"0", "1", "2", "3", "-1", "true", "false"}), prec: precPrimary}
			l := list()
			if g.chance(0.5) {
				*e = g.binary(l, "*", n, precMul)
			} else {
				*e = g.binary(n, "*", l, precMul)
			}
			e.paths, e.elems = l.paths, l.elems
		}},
		// Sorting bools is an error: rarely.
		{2, g.on("filter-sort") && (scalar || attr != nil) && (t.elem.kind != kindBool || g.on("sort-bool") && g.chance(0.1)), func() {
			var args []string
			if g.chance(0.4) {
				args = append(args, g.kw("reverse", g.pick([]string{"true", "false"})))
			}
			if g.chance(0.3) {
				args = append(args, "case_sensitive="+g.pick([]string{"true", "false"}))
			}
			if !scalar {
				args = append(args, "attribute='"+attr.name+"'")
			}
			*e = g.filter(iterated(), "sort", args...)
		}},
		{1, g.on("sort-lists") && t.elem.kind == kindList && t.elem.elem.scalar() && t.elem.elem.kind != kindBool, func() {
			var args []string
			if g.chance(0.4) {
				args = append(args, g.kw("reverse", g.pick([]string{"true", "false"})))
			}
			*e = g.filter(iterated(), "sort", args...)
		}},
		{1, g.on("filter-unique") && scalar, func() {
			if g.chance(0.3) {
				*e = g.filter(iterated(), "unique", "case_sensitive="+g.pick([]string{"true", "false"}))
			} else {
				*e = g.filter(iterated(), "unique")
			}
			e.lazy = true
		}},
		{1, g.on("filter-list"), func() { *e = g.filter(iterated(), "list") }},
		{1, g.on("filter-reverse"), func() {
			*e = g.filter(iterated(), "reverse")
			e.lazy = true
		}},
		{2, g.on("select") && scalar, func() {
			*e = g.filter(iterated(), g.pick([]string{"select", "reject"}), g.selectTest(t.elem, false)...)
			e.lazy = true
		}},
		{2, g.on("select") && t.elem.kind == kindObject, func() {
			var fields []*field
			for _, f := range t.elem.fields {
				if f.t.scalar() {
					fields = append(fields, f)
				}
			}
			if len(fields) == 0 {
				*e = list()
				return
			}
			f := fields[g.r.IntN(len(fields))]
			args := append([]string{"'" + f.name + "'"}, g.selectTest(f.t, f.optional)...)
			*e = g.filter(iterated(), g.pick([]string{"selectattr", "rejectattr"}), args...)
			e.lazy = true
		}},
		{1, g.on("select-string") && t.elem.kind == kindString, func() {
			// A string's characters, which Jinja2 iterates.
			x := g.undefOperand(func() expression { return g.expr(typeString, d) })
			if g.chance(0.3) {
				*e = g.filter(x, g.pick([]string{"selectattr", "rejectattr"}), append([]string{"'" + g.pick([]string{"role", "upper", "x"}) + "'"}, g.selectTest(typeString, true)...)...)
			} else {
				*e = g.filter(x, g.pick([]string{"select", "reject"}), g.selectTest(typeString, false)...)
			}
			e.lazy = true
		}},
		{2, g.on("method-split") && t.elem.kind == kindString, func() {
			var args []string
			if g.chance(0.6) {
				args = append(args, g.pick([]string{"' '", "','", "'a'", "'\\n'"}))
				if g.chance(0.3) {
					args = append(args, strconv.Itoa(g.r.IntN(3)))
				}
			}
			*e = g.method(g.undefOperand(func() expression { return g.expr(typeString, d) }), "split", args...)
		}},
		{1, g.on("filter-list") && t.elem.kind == kindString, func() { *e = g.filter(g.expr(typeString, d), "list") }},
		{2, g.on("filter-map-attr"), func() {
			// A list of objects with a field of t's element type.
			r := g.randRef(func(r *ref) bool {
				if !isObjectList(r.t) || !g.usable(r) {
					return false
				}
				for _, f := range r.t.elem.fields {
					if typeEq(f.t, t.elem) {
						return true
					}
				}
				return false
			})
			if r == nil {
				*e = g.leaf(t)
				return
			}
			var f *field
			for _, ff := range r.t.elem.fields {
				if typeEq(ff.t, t.elem) {
					f = ff
				}
			}
			x := g.sensitiveOp("map-attr-optional", func() expression {
				x := g.useRef(r)
				g.markSet(fieldPaths(x.elems, f.name))
				return x
			})
			*e = g.filter(x, "map", "attribute='"+f.name+"'")
			e.paths, e.elems, e.lazy = nil, fieldPaths(x.elems, f.name), true
		}},
		{2, g.on("filter-map-name") && (t.elem.kind == kindString || t.elem.kind == kindInt || t.elem.kind == kindFloat), func() {
			*e = g.mapByName(t.elem, d)
		}},
		{1, g.on("plus"), func() {
			x, y := list(), list()
			*e = g.binary(x, "+", y, precAdd)
			e.paths, e.elems = slices.Concat(x.paths, y.paths), slices.Concat(x.elems, y.elems)
		}},
	}
}
