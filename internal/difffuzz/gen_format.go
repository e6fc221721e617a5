package difffuzz

// The productions of printf-style formatting: the filter format, with
// positional or keyword arguments, and % of a string, with one value or a
// dict literal. The conversions mostly fit their values; now and then
// one does not, where Jinja2 raises.

import (
	"slices"
	"strconv"
	"strings"
)

// formatTexts are the plain text around the conversions of a format.
var formatTexts = []string{"", "", "a", " ", "x=", "|", "日本", "%%"}

// printfSpec is a random conversion specifier, without its % and key, and
// a value for it.
func (g *generator) printfSpec(d int) (string, expression) {
	var spec strings.Builder
	for _, f := range "-+ #0" {
		if g.chance(0.15) {
			spec.WriteRune(f)
		}
	}
	if g.chance(0.4) {
		spec.WriteString(strconv.Itoa(g.r.IntN(12)))
	}
	if g.chance(0.4) {
		spec.WriteString("." + strconv.Itoa(g.r.IntN(8)))
	}
	conv := g.pick([]string{"s", "s", "r", "a", "d", "i", "x", "X", "o", "f", "F", "e", "E", "g", "G", "c"})
	spec.WriteString(conv)
	scalar := func(ts ...*valueType) *valueType { return ts[g.r.IntN(len(ts))] }
	var t *valueType
	switch conv {
	case "s", "r", "a":
		if g.on("markup-methods") && g.chance(0.1) {
			// Markup, which %s prints as its text and %r as Markup('...'),
			// or a condition that is Markup in one branch only.
			m := g.markup(d)
			if g.chance(0.4) {
				then, els := m, g.expr(typeString, d)
				if g.chance(0.5) {
					then, els = els, then
				}
				m = expression{text: "(" + g.beforeName(then, precOr) + " if " + g.wrap(g.expr(typeBool, d), precOr) + " else " + g.wrap(els, precCond) + ")", prec: precPrimary,
					paths: slices.Concat(then.paths, els.paths), elems: slices.Concat(then.elems, els.elems)}
			}
			return spec.String(), m
		}
		t = scalar(typeString, typeInt, typeFloat, typeBool, listOf(typeString), listOf(typeInt))
	case "d", "i":
		t = scalar(typeInt, typeInt, typeBool, typeFloat)
	case "x", "X", "o":
		t = scalar(typeInt, typeInt, typeBool)
	case "c":
		// Small ints only: %c of a surrogate is a documented divergence.
		if g.chance(0.5) {
			return spec.String(), expression{text: strconv.Itoa(32 + g.r.IntN(95)), prec: precPrimary}
		}
		return spec.String(), expression{text: g.pick([]string{"'a'", "'é'", "'日'", "'ab'"}), prec: precPrimary}
	default:
		t = scalar(typeFloat, typeFloat, typeInt)
	}
	return spec.String(), g.formatValue(t, d)
}

// formatValue is a value of type t for a conversion that takes it, now
// and then of another scalar type, which may not fit (Jinja2 raises).
func (g *generator) formatValue(t *valueType, d int) expression {
	if g.chance(0.05) {
		t = []*valueType{typeString, typeInt, typeFloat, typeBool}[g.r.IntN(4)]
	}
	if !g.canMake(t) {
		t = typeString
	}
	return g.expr(t, d)
}

// formatProduction is a printf-style formatting of typed values.
func (g *generator) formatProduction(d int) expression {
	filter, keyed := g.chance(0.5), g.chance(0.35)
	n := 1
	if (filter || keyed) && g.chance(0.5) {
		n += g.r.IntN(3)
	}
	var format strings.Builder
	var args []expression
	var names []string
	for i := range n {
		format.WriteString(g.pick(formatTexts))
		spec, v := g.printfSpec(d - 1)
		format.WriteString("%")
		if keyed {
			name := string(rune('a' + i))
			format.WriteString("(" + name + ")")
			names = append(names, name)
		}
		format.WriteString(spec)
		args = append(args, v)
	}
	format.WriteString(g.pick(formatTexts))
	if g.chance(0.05) && len(args) > 1 {
		args = args[:len(args)-1] // too few: Jinja2 raises
	}
	lit := expression{text: "'" + format.String() + "'", prec: precPrimary}
	var paths, elems []string
	for _, a := range args {
		paths, elems = append(paths, a.paths...), append(elems, a.elems...)
	}
	var out expression
	switch {
	case filter:
		spelled := make([]string, len(args))
		for i, a := range args {
			spelled[i] = g.wrap(a, precCond)
			if keyed {
				spelled[i] = names[i] + "=" + spelled[i]
			}
		}
		out = g.call(lit, precUnary, "|", "format", spelled...)
	case keyed:
		items := make([]string, len(args))
		for i, a := range args {
			items[i] = "'" + names[i] + "': " + g.wrap(a, precCond)
		}
		out = g.binary(lit, "%", expression{text: "{" + strings.Join(items, ", ") + "}", prec: precPrimary}, precMul)
	default:
		out = g.binary(lit, "%", args[0], precMul)
	}
	out.paths, out.elems = slices.Concat(out.paths, paths), slices.Concat(out.elems, elems)
	return out
}

// dynFormat is printf-style formatting of dynamic values, made by sub: the
// filter format, or % of a string with one value.
func (g *generator) dynFormat(sub func() expression) expression {
	specs := []string{"%s", "%r", "%-6s|", "%5.2s", "%d", "%05.1f", "%x", "%g", "%c", "%(role)s", "%(content)r"}
	if g.chance(0.5) {
		n := 1 + g.r.IntN(2)
		format, args := "", make([]string, n)
		for i := range n {
			format += g.pick(formatTexts) + g.pick(specs[:len(specs)-2])
			args[i] = g.wrap(sub(), precCond)
		}
		return g.call(expression{text: "'" + format + "'", prec: precPrimary}, precUnary, "|", "format", args...)
	}
	return g.binary(expression{text: "'" + g.pick(specs) + g.pick(formatTexts) + "'", prec: precPrimary}, "%", sub(), precMul)
}

// strFormatSpec is a random format spec of str.format, without its colon
// (empty at times), and a value for it; w is set where the width is a
// nested field, {w}.
func (g *generator) strFormatSpec(d int) (spec string, v expression, w bool) {
	var b strings.Builder
	if g.chance(0.25) {
		b.WriteString(g.pick([]string{"", "*", "0", "é"}) + g.pick([]string{"<", ">", "^", "="}))
	}
	if g.chance(0.2) {
		b.WriteString(g.pick([]string{"+", "-", " "}))
	}
	if g.chance(0.05) {
		b.WriteString("z")
	}
	if g.chance(0.15) {
		b.WriteString("#")
	}
	if g.chance(0.1) {
		b.WriteString("0")
	}
	switch {
	case g.chance(0.1):
		b.WriteString("{w}")
		w = true
	case g.chance(0.4):
		b.WriteString(strconv.Itoa(g.r.IntN(12)))
	}
	if g.chance(0.2) {
		b.WriteString(g.pick([]string{",", "_"}))
	}
	if g.chance(0.3) {
		b.WriteString("." + strconv.Itoa(g.r.IntN(8)))
	}
	typ := g.pick([]string{"", "", "", "s", "d", "n", "b", "o", "x", "X", "c", "e", "E", "f", "F", "g", "G", "%"})
	b.WriteString(typ)
	scalar := func(ts ...*valueType) *valueType { return ts[g.r.IntN(len(ts))] }
	var t *valueType
	switch typ {
	case "":
		t = scalar(typeString, typeInt, typeFloat, typeBool, listOf(typeString), listOf(typeInt))
	case "s":
		t = typeString
	case "c":
		return b.String(), expression{text: strconv.Itoa(32 + g.r.IntN(95)), prec: precPrimary}, w
	case "d", "n", "b", "o", "x", "X":
		t = scalar(typeInt, typeInt, typeBool)
	default:
		t = scalar(typeFloat, typeFloat, typeInt)
	}
	return b.String(), g.formatValue(t, d), w
}

// strFormatProduction is str.format of typed values: fields numbered
// automatically, by hand (in any order, repeated) or by keyword, with a
// conversion and a spec now and then, and {{ }} in the text.
func (g *generator) strFormatProduction(d int) expression {
	mode := g.pick([]string{"auto", "auto", "manual", "keyword"})
	n := 1 + g.r.IntN(3)
	texts := append(slices.Clone(formatTexts[:len(formatTexts)-1]), "{{", "}}")
	var format strings.Builder
	var args, kwargs []string
	var paths, elems []string
	width := false
	for i := range n {
		format.WriteString(g.pick(texts))
		spec, v, w := g.strFormatSpec(d - 1)
		width = width || w
		paths, elems = append(paths, v.paths...), append(elems, v.elems...)
		name := ""
		switch mode {
		case "manual":
			name = strconv.Itoa(i)
		case "keyword":
			name = string(rune('a' + i))
		}
		format.WriteString("{" + name)
		if g.chance(0.15) {
			format.WriteString("!" + g.pick([]string{"r", "s", "a"}))
		}
		if spec != "" {
			format.WriteString(":" + spec)
		}
		format.WriteString("}")
		if mode == "keyword" {
			kwargs = append(kwargs, name+"="+g.wrap(v, precCond))
		} else {
			args = append(args, g.wrap(v, precCond))
		}
	}
	if mode == "manual" && g.chance(0.4) {
		format.WriteString("{" + strconv.Itoa(g.r.IntN(n)) + "}") // a field again
	}
	format.WriteString(g.pick(texts))
	if g.chance(0.05) && len(args) > 1 {
		args = args[:len(args)-1] // too few: Jinja2 raises
	}
	if width {
		kwargs = append(kwargs, "w="+strconv.Itoa(g.r.IntN(10)))
	}
	out := g.method(expression{text: "'" + format.String() + "'", prec: precPrimary}, "format", append(args, kwargs...)...)
	out.paths, out.elems = slices.Concat(out.paths, paths), slices.Concat(out.elems, elems)
	return out
}
