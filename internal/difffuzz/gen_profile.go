package difffuzz

// The productions for the constructs of chat templates: namespace() and
// its attributes (plain Jinja2), and, in a case with the transformers
// profile, loop controls, the generation block and raise_exception and
// strftime_now (internal/pyjinja renders those cases in transformers'
// environment, from gen/testdata/chat/render.py, whose clock the render
// program gives Render).

import (
	"slices"
	"strings"

	"github.com/promptgen/promptgen/runtime/jinja"
)

// namespaceNames are the names a namespace takes; no other set picks
// them, so a namespace is never set to another value.
var namespaceNames = []string{"ns", "ns2"}

// namespaceStmt is {% set ns = namespace(a=..., ...) %}: a namespace with
// one to three attributes, each given a value that is always defined; or,
// at times, namespaceMaybeStmt (drawn here, so that the cases without a
// namespace are drawn as before it).
func (g *generator) namespaceStmt() string {
	if g.on("namespace-maybe") && !g.macroBody && g.chance(0.3) {
		return g.namespaceMaybeStmt()
	}
	top := g.scopes[len(g.scopes)-1]
	var name string
	var again *variable // namespace-twice: a namespace of this frame, set anew
	for _, n := range namespaceNames {
		if _, taken := top.types[n]; !taken {
			name = n
			break
		}
	}
	// In an if branch, the namespace set anew keeps the attributes' names
	// and types (namespace-branch): after the if, the name holds the one
	// its branch chose, and the attributes read there have one type.
	inBranch := g.ifs > 0
	if g.on("namespace-twice") && (!inBranch || g.on("namespace-branch")) && g.chance(0.4) {
		for _, v := range top.vars {
			if v.namespace && !v.optional {
				again, name = v, v.name
			}
		}
	}
	if name == "" {
		return g.text()
	}
	fields := []*field{{name: "a"}, {name: "b"}, {name: "n"}}[:1+g.r.IntN(3)]
	if again != nil && inBranch {
		fields = again.t.fields
	}
	t := &valueType{kind: kindObject}
	var kwargs []string
	for _, f := range fields {
		at := f.t
		if at == nil {
			at = g.randMakeable()
		}
		v := g.defined(func() expression { return g.expr(at, 2) })
		t.fields = append(t.fields, &field{name: f.name, t: at})
		kwargs = append(kwargs, f.name+"="+g.wrap(v, precCond))
	}
	top.types[name] = t
	if again != nil {
		again.t = t // the first's attributes are gone
	} else {
		g.declare(&variable{name: name, t: t, namespace: true})
	}
	return g.tag("set " + name + " = namespace(" + strings.Join(kwargs, ", ") + ")")
}

// namespaceMaybeStmt sets a namespace in an if branch only, and reads and
// sets its attribute in a second if of the same condition, which runs
// exactly where the first did (namespace-maybe): a name that may not hold
// a namespace, whose attributes Jinja2 reads and sets where it does.
func (g *generator) namespaceMaybeStmt() string {
	top := g.scopes[len(g.scopes)-1]
	var name string
	for _, n := range namespaceNames {
		// A name no enclosing frame sets: where the set did not run, it
		// is undefined, not an enclosing namespace (which promptgen does
		// not read there).
		if !slices.ContainsFunc(g.scopes, func(sc *scope) bool { _, taken := sc.types[n]; return taken }) {
			name = n
			break
		}
	}
	if name == "" {
		return g.text()
	}
	c, _ := g.cond(1)
	at := g.randMakeable()
	v := g.defined(func() expression { return g.expr(at, 2) })
	w := g.defined(func() expression { return g.expr(at, 2) })
	t := &valueType{kind: kindObject, fields: []*field{{name: "a", t: at}}}
	top.types[name] = t
	g.declare(&variable{name: name, t: t, namespace: true, optional: true, unset: true})
	show := func(x string) string { return g.open("{{") + " " + x + " " + g.close("}}") }
	test := "if " + g.wrap(c, precOr)
	return g.tag(test) + g.tag("set "+name+" = namespace(a="+g.wrap(v, precCond)+")") + g.tag("endif") +
		g.tag(test) + show(name+".a") + g.tag("set "+name+".a = "+w.text) + show(name+"['a']") + g.tag("endif")
}

// namespaceInScope returns a namespace visible here, if any.
func (g *generator) namespaceInScope() *variable {
	for _, n := range namespaceNames {
		if v := g.lookup(n); v != nil && v.namespace && !v.optional {
			return v
		}
	}
	return nil
}

// namespaceAttrStmt assigns an attribute of a namespace in scope a value
// of its type, or, by chance block, the block form's text to a string
// attribute: from a loop's body, it changes the namespace's attribute for
// after the loop.
func (g *generator) namespaceAttrStmt(block float64) string {
	ns := g.namespaceInScope()
	f := ns.t.fields[g.r.IntN(len(ns.t.fields))]
	if f.t.kind == kindString && g.canSet() && g.chance(block) {
		g.setBlock++
		g.scopes = append(g.scopes, &scope{types: map[string]*valueType{}})
		body := g.body()
		g.scopes = g.scopes[:len(g.scopes)-1]
		g.setBlock--
		return g.tag("set "+ns.name+"."+f.name) + body + g.tag("endset")
	}
	v := g.defined(func() expression { return g.expr(f.t, 2) })
	return g.tag("set " + ns.name + "." + f.name + " = " + v.text)
}

// namespaceRefs are the values of namespace r's attributes, through
// attribute access or a subscript.
func (g *generator) namespaceRefs(r *ref) []*ref {
	var out []*ref
	for _, f := range r.t.fields {
		text := r.text + "." + f.name
		if g.on("attr-subscript") && g.chance(0.15) {
			text = r.text + "['" + f.name + "']"
		}
		out = append(out, &ref{text: text, t: f.t, optional: r.optional, parentOptional: r.optional, unset: r.unset})
	}
	return out
}

// canLoopControl reports whether a loop control here stops the innermost
// loop: not from a block set's body or a generation block, which promptgen
// rejects.
func (g *generator) canLoopControl() bool {
	return g.loops > 0 && g.setBlock == 0 && g.generation == 0
}

// loopControl is {% break %} or {% continue %}, often under a condition.
func (g *generator) loopControl() string {
	ctl := g.tag(g.pick([]string{"break", "continue"}))
	if g.chance(0.7) {
		c, _ := g.cond(1)
		return g.tag("if "+g.wrap(c, precOr)) + ctl + g.tag("endif")
	}
	return ctl
}

// generationStmt is transformers' {% generation %} block, a frame of its
// own.
func (g *generator) generationStmt() string {
	g.generation++
	g.scopes = append(g.scopes, &scope{types: map[string]*valueType{}})
	body := g.body()
	g.scopes = g.scopes[:len(g.scopes)-1]
	g.generation--
	return g.tag("generation") + body + g.tag("endgeneration")
}

// raiseStmt raises under a condition, as chat templates reject a
// conversation.
func (g *generator) raiseStmt() string {
	msg := g.defined(func() expression { return g.expr(typeString, 1) })
	if g.chance(0.5) {
		msg = g.binary(expression{text: "'bad: '", prec: precPrimary}, "~", msg, precConcat)
	}
	raise := g.open("{{") + " raise_exception(" + msg.text + ") " + g.close("}}")
	if g.chance(0.8) {
		c, _ := g.cond(1)
		return g.tag("if "+g.wrap(c, precOr)) + raise + g.tag("endif")
	}
	return raise
}

// strftime is strftime_now(format) with a constant format of up to four
// supported directives among literal text.
func (g *generator) strftime() expression {
	directives := strings.Fields(jinja.StrftimeDirectives)
	var b strings.Builder
	for range 1 + g.r.IntN(4) {
		if g.chance(0.5) {
			b.WriteString(g.pick([]string{" ", "-", ":", "/", ", ", "T", "é"}))
		}
		b.WriteString(g.pick(directives))
	}
	return expression{text: "strftime_now('" + b.String() + "')", prec: precPrimary} // no quote or backslash to escape
}
