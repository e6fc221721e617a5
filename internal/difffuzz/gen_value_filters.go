package difffuzz

// The productions of the filters runtime/jinja computes on values:
// center, escape, filesizeformat, urlencode, striptags, wordwrap and
// xmlattr as strings, sum, min and max printed (wordcount is an int: gen_numbers.go);
// groupby, slice and forceescape printed.

import (
	"strconv"
	"strings"
)

// valueFilterString is a string from center, escape (e), urlencode,
// striptags, wordwrap, xmlattr or filesizeformat.
func (g *generator) valueFilterString(d int) expression {
	switch g.r.IntN(6) {
	case 4:
		x, y := g.expr(typeString, d-1), g.expr([]*valueType{typeInt, typeBool, typeString}[g.r.IntN(3)], d-1)
		dict := expression{text: "{'class': " + g.wrap(x, precCond) + ", 'data-n': " + g.wrap(y, precCond) + ", 'none': none}", prec: precPrimary,
			paths: append(append([]string{}, x.paths...), y.paths...), elems: append(append([]string{}, x.elems...), y.elems...)}
		var args []string
		if g.chance(0.4) {
			args = append(args, g.kw("autospace", g.pick([]string{"true", "false"})))
		}
		return g.filter(dict, "xmlattr", args...)
	case 3:
		var args []string
		if g.chance(0.8) {
			args = append(args, g.kw("width", strconv.Itoa(1+g.r.IntN(12))))
			if g.chance(0.4) {
				args = append(args, g.kw("break_long_words", g.pick([]string{"true", "false"})))
			}
		}
		if g.chance(0.3) {
			args = append(args, "wrapstring="+g.pick([]string{"' / '", "''", "'\\n'"}))
		}
		if g.chance(0.3) {
			args = append(args, "break_on_hyphens="+g.pick([]string{"true", "false"}))
		}
		return g.filter(g.expr(typeString, d-1), "wordwrap", args...)
	case 0:
		var args []string
		if g.chance(0.7) {
			args = append(args, g.kw("width", strconv.Itoa(g.r.IntN(14))))
		}
		return g.filter(g.expr(typeString, d-1), "center", args...)
	case 1:
		t := []*valueType{typeString, typeString, typeInt, typeBool}[g.r.IntN(4)]
		return g.filter(g.expr(t, d-1), g.pick([]string{"escape", "e"}))
	case 2:
		return g.filter(g.expr(typeString, d-1), g.pick([]string{"urlencode", "striptags"}))
	}
	var args []string
	if g.chance(0.5) {
		args = append(args, g.kw("binary", g.pick([]string{"true", "false"})))
	}
	x := g.expr([]*valueType{typeInt, typeFloat}[g.r.IntN(2)], d-1)
	if g.chance(0.5) {
		x = expression{text: g.wrap(x, precMul) + " * " + g.pick([]string{"1000", "1024", "1000000", "123457"}), prec: precMul, paths: x.paths, elems: x.elems}
	}
	return g.filter(x, "filesizeformat", args...)
}

// valueFilterPrinted is sum, min or max of a list, printed.
func (g *generator) valueFilterPrinted(d int) expression {
	elem := []*valueType{typeInt, typeFloat, typeString}[g.r.IntN(3)]
	name := g.pick([]string{"sum", "min", "max"})
	if name == "sum" && elem == typeString {
		elem = typeInt
	}
	if r := g.randRef(func(r *ref) bool { return isObjectList(r.t) && g.usable(r) }); name == "sum" && r != nil && g.chance(0.4) {
		for _, f := range r.t.elem.fields {
			if (f.t.kind == kindInt || f.t.kind == kindFloat) && !f.optional {
				y := g.useRef(r)
				return g.filter(y, "sum", "attribute='"+f.name+"'")
			}
		}
	}
	x := g.exprLazy(listOf(elem), d-1)
	var args []string
	switch {
	case name == "sum" && g.chance(0.4):
		args = append(args, "start="+g.lit(elem).text) // by position it would be attribute
	case name != "sum" && elem == typeString && g.chance(0.5):
		args = append(args, g.kw("case_sensitive", g.pick([]string{"true", "false"})))
	}
	return g.filter(x, name, args...)
}

// absBatch is abs of a typed number, or batch of a typed list (with a
// fill value or not) made a list or iterated by join.
func (g *generator) absBatch(d int) expression {
	if g.chance(0.4) {
		return g.filter(g.expr([]*valueType{typeInt, typeFloat}[g.r.IntN(2)], d-1), "abs")
	}
	elem := scalarTypes[g.r.IntN(len(scalarTypes))]
	args := []string{strconv.Itoa(1 + g.r.IntN(3))}
	if g.chance(0.4) {
		args = append(args, g.lit(elem).text)
	}
	batches := g.filter(g.exprLazy(listOf(elem), d-1), "batch", args...)
	if g.chance(0.5) {
		return g.filter(batches, "list")
	}
	return g.filter(batches, "join", "'|'")
}

// groupFilterPrinted is groupby of strings (by their first character) or
// of a list of dict literals (by a key, or a missing one with default=;
// at times none, an empty list literal, whose objects come from no input),
// slice of a list or string, or forceescape, printed or consumed.
func (g *generator) groupFilterPrinted(d int) expression {
	var e expression
	switch g.r.IntN(4) {
	case 0:
		e = g.filter(g.exprLazy(listOf(typeString), d-1), "groupby", append([]string{g.kw("attribute", "0")}, g.optBool("case_sensitive")...)...)
	case 1:
		rows := make([]string, g.r.IntN(5))
		var x expression
		for i := range rows {
			k, n := g.expr(typeString, d-1), g.expr(typeInt, d-1)
			rows[i] = "{'k': " + g.wrap(k, precCond) + ", 'n': " + g.wrap(n, precCond) + "}"
			x.paths, x.elems = append(append(x.paths, k.paths...), n.paths...), append(append(x.elems, k.elems...), n.elems...)
		}
		x.text, x.prec = "["+strings.Join(rows, ", ")+"]", precPrimary
		args := []string{g.kw("attribute", g.pick([]string{"'k'", "'n'", "'z'"}))}
		if g.chance(0.4) {
			args = append(args, g.kw("default", g.strLit()))
		}
		e = g.filter(x, "groupby", append(args, g.optBool("case_sensitive")...)...)
	case 2:
		args := []string{strconv.Itoa(g.r.IntN(5) - 1)}
		if g.chance(0.4) {
			args = append(args, g.lit(typeString).text)
		}
		x := g.exprLazy(listOf([]*valueType{typeString, typeInt}[g.r.IntN(2)]), d-1)
		if g.chance(0.2) {
			x = g.expr(typeString, d-1)
		}
		return g.slicesUsed(g.filter(x, "slice", args...))
	default:
		t := []*valueType{typeString, typeString, typeInt, typeFloat}[g.r.IntN(4)]
		return g.filter(g.expr(t, d-1), "forceescape")
	}
	return g.groupsUsed(e)
}

// optBool is, at times, the keyword argument name, true or false.
func (g *generator) optBool(name string) []string {
	if g.chance(0.4) {
		return []string{g.kw(name, g.pick([]string{"true", "false"}))}
	}
	return nil
}

// groupsUsed is e, the result of groupby, printed or consumed.
func (g *generator) groupsUsed(e expression) expression {
	switch g.r.IntN(4) {
	case 0:
		return g.filter(g.filter(e, "map", "attribute='grouper'"), "join", g.strLit())
	case 1:
		return g.filter(e, "length")
	case 2:
		return g.filter(g.filter(e, "map", "attribute='list'"), "list")
	}
	return e
}

// slicesUsed is e, the result of slice, consumed.
func (g *generator) slicesUsed(e expression) expression {
	if g.chance(0.5) {
		return g.filter(e, "list")
	}
	return g.filter(g.filter(e, "map", "'length'"), "join", g.strLit())
}

// objectListFilter is groupby, slice, min, max, unique or sort of a typed
// list of objects from the inputs, which promptgen converts to dicts for
// runtime/jinja: by a field, or a dotted path through an object field
// (an optional one where map-attr-optional is on, so that Jinja2 meets
// its undefined), printed or consumed (family filter-object-list).
func (g *generator) objectListFilter(d int) expression {
	r := g.randRef(func(r *ref) bool { return isObjectList(r.t) && g.usable(r) })
	if r == nil {
		return g.groupFilterPrinted(d)
	}
	var path []*field // a scalar field, maybe through an object field
	var pick func(t *valueType)
	pick = func(t *valueType) {
		var fs []*field
		for _, f := range t.fields {
			if (f.t.scalar() || f.t.kind == kindObject && len(path) == 0) && (!f.optional || g.on("map-attr-optional")) {
				fs = append(fs, f)
			}
		}
		if len(fs) == 0 {
			return
		}
		f := fs[g.r.IntN(len(fs))]
		path = append(path, f)
		if f.t.kind == kindObject {
			pick(f.t)
			if len(path) == 1 {
				path = nil
			}
		}
	}
	pick(r.t.elem)
	x := g.sensitiveOp("map-attr-optional", func() expression {
		x := g.useRef(r)
		elems := x.elems
		for _, f := range path {
			elems = fieldPaths(elems, f.name)
			g.markSet(elems)
		}
		return x
	})
	var names []string
	for _, f := range path {
		names = append(names, f.name)
	}
	attr := "'" + strings.Join(names, ".") + "'"
	filters := []string{"groupby", "groupby", "slice", "min", "max", "unique", "sort"}
	if g.declared {
		// Of objects whose fields the inputs declare, which convert to dicts.
		filters = append(filters, "unique-objects", "tojson")
	}
	name := g.pick(filters)
	if path == nil && name != "unique-objects" && name != "tojson" {
		name = "slice"
	}
	var e expression
	switch name {
	case "unique-objects":
		// Python hashes no dict or list: [] where the list is empty, else
		// TypeError; also by a required field that is one.
		var args []string
		for _, f := range r.t.elem.fields {
			if (f.t.kind == kindList || f.t.kind == kindObject) && !f.optional && g.chance(0.5) {
				args = []string{"attribute='" + f.name + "'"}
				break
			}
		}
		return g.filter(g.filter(x, "unique", args...), "list")
	case "tojson":
		// The objects' keys in declaration order, as the data has them.
		return g.filter(x, "tojson")
	case "groupby":
		args := []string{g.kw("attribute", attr)}
		if g.chance(0.3) {
			args = append(args, g.kw("default", g.strLit()))
		}
		return g.groupsUsed(g.filter(x, "groupby", append(args, g.optBool("case_sensitive")...)...))
	case "slice":
		args := []string{strconv.Itoa(g.r.IntN(4))}
		if g.chance(0.3) {
			args = append(args, g.wrap(g.expr(typeString, d-1), precCond))
		}
		return g.slicesUsed(g.filter(x, "slice", args...))
	case "min", "max":
		args := append(g.optBool("case_sensitive"), g.kw("attribute", attr))
		e = g.filter(x, name, args...)
		if g.chance(0.5) {
			// A subscript: .items of a dict is its method (family field-dict-method).
			return expression{text: "(" + e.text + ")['" + path[0].name + "']", prec: precPrimary, paths: e.paths, elems: e.elems}
		}
		return e
	}
	args := []string{"attribute=" + attr}
	if name == "sort" && g.chance(0.4) {
		args = append(args, "reverse="+g.pick([]string{"true", "false"}))
	}
	if g.chance(0.3) {
		args = append(args, "case_sensitive="+g.pick([]string{"true", "false"}))
	}
	e = g.filter(x, name, args...)
	return g.filter(g.filter(e, "map", "attribute="+attr), "join", g.strLit())
}
