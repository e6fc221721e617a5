package difffuzz

// The macro family: {% macro %} definitions at the top of a template, each
// with parameters of scalar or list types, literal defaults and parameters
// a call may leave out (undefined in the body), whose bodies read the
// inputs and their parameters and may call the macros defined before; and
// calls, as string expressions anywhere, with positional and keyword
// arguments; a macro that reads varargs gets positional arguments past
// its parameters.

import (
	"fmt"
	"slices"
	"strings"
)

// macro is a defined macro.
type macro struct {
	name   string
	params []*param
	// varargs: the body reads varargs, so a call may pass positional
	// arguments past the parameters.
	varargs bool
}

type param struct {
	name string
	t    *valueType
	def  string // a literal default, "" for none
	// omittable: a call may leave it out, and it is undefined then.
	omittable bool
}

var (
	macroNames = []string{"tag", "box", "render_item", "fmt_", "M"}
	paramNames = []string{"a", "b", "item", "text", "v", "sep", "name"}
)

// macroDefs defines one to three macros.
func (g *generator) macroDefs() string {
	var b strings.Builder
	names := slices.Clone(macroNames)
	g.r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	for _, name := range names[:1+g.r.IntN(3)] {
		b.WriteString(g.macroDef(name))
		if g.chance(0.3) {
			b.WriteString(g.text())
		}
	}
	return b.String()
}

func (g *generator) macroDef(name string) string {
	m := &macro{name: name}
	pnames := slices.Clone(paramNames)
	g.r.Shuffle(len(pnames), func(i, j int) { pnames[i], pnames[j] = pnames[j], pnames[i] })
	body := &scope{types: map[string]*valueType{}}
	var sig []string
	for _, pn := range pnames[:g.r.IntN(4)] {
		p := &param{name: pn, t: g.randMakeable()}
		defaults := len(m.params) > 0 && m.params[len(m.params)-1].def != ""
		if !g.canLit(p.t) || defaults && !p.t.scalar() {
			p.t = typeString
		}
		switch {
		case p.t.scalar() && (defaults || g.chance(0.4)):
			p.def = g.lit(p.t).text
			sig = append(sig, pn+"="+p.def)
		default:
			p.omittable = g.chance(0.3)
			sig = append(sig, pn)
		}
		m.params = append(m.params, p)
		body.vars = append(body.vars, &variable{name: pn, t: p.t, optional: p.omittable, unset: p.omittable})
	}
	// The body sees the inputs and its parameters only, outside any block.
	saved := *g
	top := &scope{types: map[string]*valueType{}}
	for _, v := range g.scopes[0].vars {
		if v.input {
			top.vars = append(top.vars, v)
		}
	}
	g.scopes, g.guards = []*scope{top, body}, nil
	g.ifs, g.loops, g.loopItems, g.forElse, g.setBlock, g.generation = 0, 0, nil, 0, 0, 0
	g.macroBody = true
	g.budget = 1 + g.r.IntN(4)
	text := g.body()
	if g.on("macro-varargs") && g.chance(0.3) {
		m.varargs = true
		text += g.pick([]string{"{{ varargs }}", "{{ varargs|length }}", "{{ varargs|join('-') }}",
			"{% for va in varargs %}[{{ va }}]{% endfor %}", "{{ varargs[0] if varargs }}"})
	}
	saved.mustSet, saved.r = g.mustSet, g.r
	*g = saved
	g.macros = append(g.macros, m)
	return g.tag("macro "+name+"("+strings.Join(sig, ", ")+")") + text + g.tag("endmacro")
}

// macroCall calls a defined macro with arguments made at depth d: the
// parameters that have a default or may be left out are, sometimes, and
// after the first left out (or at random) the rest go by keyword, in any
// order.
func (g *generator) macroCall(d int) expression {
	m := g.macros[g.r.IntN(len(g.macros))]
	var pos, kws []string
	for _, p := range m.params {
		if (p.def != "" || p.omittable) && g.chance(0.4) {
			kws = append(kws, "") // later ones must go by keyword
			continue
		}
		x := g.wrap(g.defined(func() expression { return g.expr(p.t, d) }), precCond)
		if len(kws) > 0 || g.chance(0.25) {
			kws = append(kws, p.name+"="+x)
		} else {
			pos = append(pos, x)
		}
	}
	if m.varargs && len(pos) == len(m.params) {
		for range g.r.IntN(3) {
			pos = append(pos, g.wrap(g.expr(tupleItemTypes[g.r.IntN(len(tupleItemTypes))], d), precCond))
		}
	}
	kws = slices.DeleteFunc(kws, func(s string) bool { return s == "" })
	g.r.Shuffle(len(kws), func(i, j int) { kws[i], kws[j] = kws[j], kws[i] })
	return expression{text: fmt.Sprintf("%s(%s)", m.name, strings.Join(append(pos, kws...), ", ")), prec: precPrimary}
}
