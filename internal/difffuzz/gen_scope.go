package difffuzz

// The names in scope, the values reachable from them, and what keeps an
// optional away from the operations it must not reach.

import "strings"

// lookup finds the variable a name refers to here.
func (g *generator) lookup(name string) *variable {
	for i := len(g.scopes) - 1; i >= 0; i-- {
		vars := g.scopes[i].vars
		for j := len(vars) - 1; j >= 0; j-- {
			if vars[j].name == name {
				return vars[j]
			}
		}
	}
	return nil
}

func (g *generator) inLoop() bool { return g.loops > 0 }

// enterLoop and leaveLoop bracket a loop body whose items have type item
// (nil when loop.previtem is not supported there).
func (g *generator) enterLoop(item *valueType) {
	g.loops++
	g.loopItems = append(g.loopItems, item)
}

func (g *generator) leaveLoop() {
	g.loops--
	g.loopItems = g.loopItems[:len(g.loopItems)-1]
}

// loopNeighbour is loop.previtem or loop.nextitem when the innermost loop's
// items are scalars of type t (any scalar type when t is nil), or false.
func (g *generator) loopNeighbour(t *valueType) (expression, bool) {
	if !g.on("loop-neighbour") || !g.inLoop() {
		return expression{}, false
	}
	item := g.loopItems[len(g.loopItems)-1]
	if item == nil || !item.scalar() || t != nil && !typeEq(item, t) {
		return expression{}, false
	}
	return expression{text: "loop." + g.pick([]string{"previtem", "nextitem"}), prec: precPrimary}, true
}

// loopCycle is loop.cycle(...) of two or three defined values of type t.
func (g *generator) loopCycle(t *valueType) expression {
	args := make([]string, 2+g.r.IntN(2))
	for i := range args {
		args[i] = g.wrap(g.defined(func() expression { return g.expr(t, 0) }), precCond)
	}
	return expression{text: "loop.cycle(" + strings.Join(args, ", ") + ")", prec: precPrimary}
}

// guarded reports whether the optional text is tested true around here,
// directly or through a field of it.
func (g *generator) guarded(text string) bool {
	for _, gd := range g.guards {
		if gd == text || strings.HasPrefix(gd, text+".") {
			return true
		}
	}
	return false
}

// refs lists the values reachable from the names in scope, through up to
// three fields.
func (g *generator) refs() []*ref {
	var out []*ref
	seen := map[string]bool{}
	var walk func(r *ref, depth int)
	walk = func(r *ref, depth int) {
		out = append(out, r)
		if r.t.kind != kindObject || depth == 0 || !g.on("attr") {
			return
		}
		for _, f := range r.t.fields {
			text := r.text + "." + f.name
			if g.on("attr-subscript") && g.chance(0.15) {
				text = r.text + "['" + f.name + "']"
			}
			if f.t.kind == kindObject && g.on("get-empty") && g.chance(0.35) && (!g.declared || allOptional(f.t)) {
				// x.get('f', {}): never undefined, and each field of {} is.
				walk(&ref{
					text: r.text + ".get('" + f.name + "', {})", t: f.t, paths: fieldPaths(r.paths, f.name),
					optional: r.optional, parentOptional: r.optional, unset: r.unset, maybeEmpty: true,
				}, depth-1)
				continue
			}
			walk(&ref{
				text: text, t: f.t, paths: fieldPaths(r.paths, f.name),
				optional:       r.optional || (f.optional || r.maybeEmpty) && !g.guarded(text),
				parentOptional: r.optional, unset: r.unset,
			}, depth-1)
		}
	}
	for i := len(g.scopes) - 1; i >= 0; i-- {
		vars := g.scopes[i].vars
		for j := len(vars) - 1; j >= 0; j-- {
			v := vars[j]
			if seen[v.name] {
				continue
			}
			seen[v.name] = true
			r := &ref{text: v.name, t: v.t, paths: v.paths, optional: v.optional && !g.guarded(v.name), unset: v.unset}
			if v.namespace {
				out = append(out, g.namespaceRefs(r)...)
				continue
			}
			walk(r, 3)
		}
	}
	return out
}

// allOptional reports whether object t has only optional fields, so that
// {} can be one of its values.
func allOptional(t *valueType) bool {
	for _, f := range t.fields {
		if !f.optional {
			return false
		}
	}
	return true
}

// usable reports whether r may be used: an optional only when the
// unguarded-optional family is on, and under a sensitive operation only
// when its data can be kept set.
func (g *generator) usable(r *ref) bool {
	switch {
	case !r.optional:
		return true
	case g.definite > 0:
		return false
	case g.sensitive > 0:
		return len(r.paths) > 0 && !r.unset
	}
	return g.on("unguarded-optional")
}

// defined makes a value that is never undefined: no optional in it, and
// the data it reads always set (inference may make optional what the
// generator did not).
func (g *generator) defined(f func() expression) expression {
	g.definite++
	g.sensitive++
	defer func() { g.definite--; g.sensitive-- }()
	return f()
}

// literalItem makes an element of a list or dict literal, which holds no
// undefined value unless undefined-in-literal is on.
func (g *generator) literalItem(f func() expression) expression {
	if g.on("undefined-in-literal") {
		return f()
	}
	return g.defined(f)
}

// maybeUndefined makes a value of scalar type t that may be undefined: an
// optional of that type, else a conditional without else.
func (g *generator) maybeUndefined(t *valueType) expression {
	if r := g.randRef(func(r *ref) bool { return r.optional && r.t.kind == t.kind && g.usable(r) }); r != nil && g.chance(0.7) {
		return g.useRef(r)
	}
	x := g.expr(t, 0)
	c, _ := g.cond(0)
	c = g.operand(c, precOr)
	return expression{text: g.beforeName(x, precOr) + " if " + c.text, prec: precCond, openRight: c.openRight}
}

func (g *generator) randRef(ok func(*ref) bool) *ref {
	var rs []*ref
	for _, r := range g.refs() {
		if ok(r) {
			rs = append(rs, r)
		}
	}
	if len(rs) == 0 {
		return nil
	}
	return rs[g.r.IntN(len(rs))]
}

func (g *generator) hasRef(k valueKind) bool {
	return g.randRef(func(r *ref) bool { return r.t.kind == k && g.usable(r) }) != nil
}

// useRef is a reference's expression; under a sensitive operation its
// data is marked always set.
func (g *generator) useRef(r *ref) expression {
	g.markSet(r.paths)
	return expression{text: r.text, prec: precPrimary, paths: r.paths, elems: elemPaths(r.paths)}
}

func fieldPaths(paths []string, name string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p + "." + name
	}
	return out
}

// undefOperand makes the operand of a filter that Jinja2 and promptgen
// treat differently when it is undefined, unless filter-undefined is on.
func (g *generator) undefOperand(f func() expression) expression {
	return g.sensitiveOp("filter-undefined", f)
}

// undefDepth is what undefOperand adds to g.sensitive.
func (g *generator) undefDepth() int {
	if g.on("filter-undefined") {
		return 0
	}
	return 1
}

// markSet marks data paths as always set while a sensitive operation is
// being made.
func (g *generator) markSet(paths []string) {
	if g.sensitive > 0 {
		for _, p := range paths {
			g.mustSet[p] = true
		}
	}
}

// sensitiveOp makes the operand of an operation that an unset optional
// must not reach while family is off.
func (g *generator) sensitiveOp(family string, f func() expression) expression {
	if g.on(family) {
		return f()
	}
	g.sensitive++
	defer func() { g.sensitive-- }()
	return f()
}

// canMake reports whether an expression of type t can be made: objects
// and maps only come from the data.
func (g *generator) canMake(t *valueType) bool {
	return g.canLit(t) || g.randRef(func(r *ref) bool { return typeEq(r.t, t) && g.usable(r) }) != nil
}

// canLit reports whether t has literals: scalars, and lists of what can
// be made.
func (g *generator) canLit(t *valueType) bool {
	return t.scalar() || t.kind == kindList && g.canMake(t.elem)
}

// randMakeable is a random type an expression can be made of: a scalar,
// a list of them, or the type of a value in scope.
func (g *generator) randMakeable() *valueType {
	var t *valueType
	g.choose(
		choice{5, true, func() { t = typeString }},
		choice{4, true, func() { t = typeInt }},
		choice{2, true, func() { t = typeFloat }},
		choice{2, true, func() { t = typeBool }},
		choice{2, true, func() { t = listOf([]*valueType{typeString, typeInt, typeFloat, typeBool}[g.r.IntN(4)]) }},
		choice{4, true, func() {
			if r := g.randRef(g.usable); r != nil {
				t = r.t
			} else {
				t = typeString
			}
		}},
	)
	if t.kind == kindList && t.elem.kind == kindList && !g.on("list-of-lists") {
		return typeString
	}
	return t
}

// randListType is the type of a list to loop over.
func (g *generator) randListType() *valueType {
	for range 10 {
		if t := g.randMakeable(); t.kind == kindList {
			return t
		}
	}
	return listOf(typeString)
}
