package difffuzz

// The productions of the filters runtime/jinja computes on values:
// center, escape, filesizeformat, urlencode, striptags, wordwrap and
// xmlattr as strings, sum, min and max printed (wordcount is an int: gen_numbers.go).

import "strconv"

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
