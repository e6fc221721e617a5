package difffuzz

// The macro family: {% macro %} definitions at the top of a template, each
// with parameters of scalar or list types, literal defaults and parameters
// a call may leave out (undefined in the body), whose bodies read the
// inputs and their parameters and may call the macros defined before; and
// calls, as string expressions anywhere, with positional and keyword
// arguments; a macro that reads varargs gets positional arguments past
// its parameters. A macro that calls caller() (macro-call) is called by
// {% call %} blocks only, whose body, a frame of its own in the block's
// place, prints at each caller(...) with the signature's parameters.

import (
	"fmt"
	"regexp"
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
	// kwargs: the body reads kwargs, so a call may pass keyword arguments
	// that name no parameter (macro-kwargs).
	kwargs bool
	// caller: the body calls caller() with arguments of these types, so a
	// {% call %} block calls it; nil for a macro called as an expression.
	caller []*valueType
}

type param struct {
	name string
	t    *valueType
	def  string // a literal default, "" for none
	// omittable: a call may leave it out, and it is undefined then.
	omittable bool
	// unread: the body does not name it, so a call may pass a generator.
	unread bool
}

var (
	macroNames = []string{"tag", "box", "render_item", "fmt_", "M"}
	paramNames = []string{"a", "b", "item", "text", "v", "sep", "name"}
	// callerParamNames are the parameters of a {% call %} block's caller.
	callerParamNames = []string{"row", "val", "n"}
)

// macroDefs defines one to three macros, whose bodies read the names the
// template has set so far too when readsTop (macro-reads-top): Jinja2
// reads them at the call.
func (g *generator) macroDefs(readsTop bool) string {
	var b strings.Builder
	names := slices.Clone(macroNames)
	g.r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	for _, name := range names[:1+g.r.IntN(3)] {
		b.WriteString(g.macroDef(name, readsTop))
		if g.chance(0.3) {
			b.WriteString(g.text())
		}
	}
	return b.String()
}

func (g *generator) macroDef(name string, readsTop bool) string {
	m := &macro{name: name}
	pnames := slices.Clone(paramNames)
	g.r.Shuffle(len(pnames), func(i, j int) { pnames[i], pnames[j] = pnames[j], pnames[i] })
	body := &scope{types: map[string]*valueType{}}
	var sig []string
	hides := false
	for _, pn := range pnames[:g.r.IntN(4)] {
		if !hides && g.on("macro-param-global") && g.chance(0.15) {
			pn, hides = "namespace", true // hides the function in the body
		}
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
	// The body sees the inputs (and the names set so far, when readsTop)
	// and its parameters only, outside any block.
	saved := *g
	top := &scope{types: map[string]*valueType{}}
	for _, v := range g.scopes[0].vars {
		if v.input || readsTop {
			top.vars = append(top.vars, v)
		}
	}
	g.scopes, g.guards = []*scope{top, body}, nil
	g.ifs, g.loops, g.loopItems, g.forElse, g.setBlock, g.generation = 0, 0, nil, 0, 0, 0
	g.macroBody = true
	g.namespaceHidden = hides
	g.budget = 1 + g.r.IntN(4)
	withCaller := g.on("macro-call") && g.chance(0.3)
	var pre string
	if withCaller {
		pre = g.callerCalls(m, g.r.IntN(2)) // before the body's sets
	}
	parts := len(g.includes)
	text := g.body()
	if g.on("macro-varargs") && g.chance(0.3) {
		m.varargs = true
		text += g.pick([]string{"{{ varargs }}", "{{ varargs|length }}", "{{ varargs|join('-') }}",
			"{% for va in varargs %}[{{ va }}]{% endfor %}", "{{ varargs[0] if varargs }}"})
	}
	if g.on("macro-kwargs") && g.chance(0.3) {
		m.kwargs = true
		text += g.pick([]string{"{{ kwargs }}", "{{ kwargs|length }}", "{{ kwargs.get('k1', 'none') }}", "{{ 'k2' in kwargs }}",
			"{% for kk, kv in kwargs.items() %}[{{ kk }}={{ kv }}]{% endfor %}", "{{ kwargs['k1'] if 'k1' in kwargs }}"})
	}
	if withCaller {
		text = pre + text + g.callerCalls(m, 1+g.r.IntN(2))
	}
	read := text // and the files it includes, which read its parameters
	for i := parts; i < len(g.includes); i++ {
		read += g.includes[fmt.Sprintf("part%d.j2", i)]
	}
	for _, p := range m.params {
		p.unread = !regexp.MustCompile(`\b` + regexp.QuoteMeta(p.name) + `\b`).MatchString(read)
	}
	saved.mustSet, saved.r = g.mustSet, g.r
	*g = saved
	if !hides { // namespace outside is the function
		g.readAfter(body.vars) // the template's variables outside
	}
	g.macros = append(g.macros, m)
	return g.tag("macro "+name+"("+strings.Join(sig, ", ")+")") + text + g.tag("endmacro")
}

// macroCall calls a defined macro with arguments made at depth d: the
// parameters that have a default or may be left out are, sometimes, and
// after the first left out (or at random) the rest go by keyword, in any
// order.
func (g *generator) macroCall(d int) expression {
	plain := g.plainMacros()
	m := plain[g.r.IntN(len(plain))]
	var pos, kws []string
	for _, p := range m.params {
		if (p.def != "" || p.omittable) && g.chance(0.4) {
			kws = append(kws, "") // later ones must go by keyword
			continue
		}
		x := g.wrap(g.defined(func() expression { return g.expr(p.t, d) }), precCond)
		if k := p.t.elem; p.unread && p.t.kind == kindList && (k.kind == kindString || k.kind == kindInt || k.kind == kindFloat) && g.on("macro-generator-arg") && g.chance(0.3) {
			// A generator, where the body does not read it.
			x = g.wrap(g.defined(func() expression { return g.lazyList(k, d) }), precCond)
		}
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
	if m.kwargs {
		for _, k := range []string{"k1", "k2"}[:g.r.IntN(3)] {
			kws = append(kws, k+"="+g.wrap(g.expr(tupleItemTypes[g.r.IntN(len(tupleItemTypes))], d), precCond))
		}
	}
	g.r.Shuffle(len(kws), func(i, j int) { kws[i], kws[j] = kws[j], kws[i] })
	return expression{text: fmt.Sprintf("%s(%s)", m.name, strings.Join(append(pos, kws...), ", ")), prec: precPrimary}
}

// plainMacros are the macros an expression may call: those that do not
// call caller().
func (g *generator) plainMacros() []*macro {
	var out []*macro
	for _, m := range g.macros {
		if m.caller == nil {
			out = append(out, m)
		}
	}
	return out
}

// callerCalls makes macro m's body call caller() n times, with arguments
// of the types it gives m.caller the first time, printed, filtered or
// concatenated.
func (g *generator) callerCalls(m *macro, n int) string {
	if m.caller == nil {
		m.caller = []*valueType{}
		for range g.r.IntN(len(callerParamNames) + 1) {
			t := g.randMakeable()
			if !g.canLit(t) { // a type only the data has: a call may find no defined value of it
				t = typeString
			}
			m.caller = append(m.caller, t)
		}
	}
	var b strings.Builder
	for range n {
		var args []string
		for _, t := range m.caller {
			args = append(args, g.wrap(g.defined(func() expression { return g.expr(t, 1) }), precCond))
		}
		call := "caller(" + strings.Join(args, ", ") + ")"
		b.WriteString(g.pick([]string{"{{ " + call + " }}", "{{ " + call + "|upper }}", "{{ '<' ~ " + call + " ~ '>' }}",
			"{{ " + call + "|trim }}"}))
	}
	return b.String()
}

// callBlockStmt is a {% call %} block of a macro that calls caller(). Its
// body sees the names around it and the caller's parameters; its sets stay
// in it; it calls no macro, which could be the one it is in the call of.
func (g *generator) callBlockStmt() string {
	var withCaller []*macro
	for _, m := range g.macros {
		if m.caller != nil {
			withCaller = append(withCaller, m)
		}
	}
	m := withCaller[g.r.IntN(len(withCaller))]
	call := g.plainCallOf(m)
	frame := &scope{types: map[string]*valueType{}}
	var sig []string
	for i, t := range m.caller {
		frame.vars = append(frame.vars, &variable{name: callerParamNames[i], t: t})
		sig = append(sig, callerParamNames[i])
	}
	head := "call " + call
	if len(sig) > 0 || g.chance(0.2) {
		head = "call(" + strings.Join(sig, ", ") + ") " + call
	}
	saved, savedBody := g.macros, g.macroBody
	g.macros, g.macroBody = nil, true
	g.setBlock++
	g.scopes = append(g.scopes, frame)
	body := g.body()
	g.leaveFrame()
	g.setBlock--
	g.macros, g.macroBody = saved, savedBody
	return g.tag(head) + body + g.tag("endcall")
}

// plainCallOf calls macro m as macroCall does, with m as the only macro.
func (g *generator) plainCallOf(m *macro) string {
	saved, caller := g.macros, m.caller
	g.macros, m.caller = []*macro{m}, nil
	defer func() { g.macros, m.caller = saved, caller }()
	return g.macroCall(1).text
}

// hasCallerMacro reports whether a {% call %} block has a macro to call.
func (g *generator) hasCallerMacro() bool { return len(g.plainMacros()) < len(g.macros) }
