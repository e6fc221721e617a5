package difffuzz

// The names in scope, the values reachable from them, and what keeps an
// optional away from the operations it must not reach.

import "strings"

// lookup finds the variable a name refers to here.
func (g *fzGen) lookup(name string) *fzVar {
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

func (g *fzGen) inLoop() bool { return g.loops > 0 }

// enterLoop and leaveLoop bracket a loop body whose items have type item
// (nil when loop.previtem is not supported there).
func (g *fzGen) enterLoop(item *fzType) {
	g.loops++
	g.loopItems = append(g.loopItems, item)
}

func (g *fzGen) leaveLoop() {
	g.loops--
	g.loopItems = g.loopItems[:len(g.loopItems)-1]
}

// loopNeighbour is loop.previtem or loop.nextitem when the innermost loop's
// items are scalars of type t (any scalar type when t is nil), or false.
func (g *fzGen) loopNeighbour(t *fzType) (fzExpr, bool) {
	if !g.on("loop-neighbour") || !g.inLoop() {
		return fzExpr{}, false
	}
	item := g.loopItems[len(g.loopItems)-1]
	if item == nil || !item.scalar() || t != nil && !typeEq(item, t) {
		return fzExpr{}, false
	}
	return fzExpr{text: "loop." + g.pick([]string{"previtem", "nextitem"}), prec: precPrimary}, true
}

// loopCycle is loop.cycle(...) of two or three defined values of type t.
func (g *fzGen) loopCycle(t *fzType) fzExpr {
	args := make([]string, 2+g.r.IntN(2))
	for i := range args {
		args[i] = g.wrap(g.defined(func() fzExpr { return g.expr(t, 0) }), precCond)
	}
	return fzExpr{text: "loop.cycle(" + strings.Join(args, ", ") + ")", prec: precPrimary}
}

// guarded reports whether the optional text is tested true around here,
// directly or through a field of it.
func (g *fzGen) guarded(text string) bool {
	for _, gd := range g.guards {
		if gd == text || strings.HasPrefix(gd, text+".") {
			return true
		}
	}
	return false
}

// refs lists the values reachable from the names in scope, through up to
// three fields.
func (g *fzGen) refs() []*fzRef {
	var out []*fzRef
	seen := map[string]bool{}
	var walk func(r *fzRef, depth int)
	walk = func(r *fzRef, depth int) {
		out = append(out, r)
		if r.t.kind != fzObject || depth == 0 || !g.on("attr") {
			return
		}
		for _, f := range r.t.fields {
			text := r.text + "." + f.name
			if g.on("attr-subscript") && g.chance(0.15) {
				text = r.text + "['" + f.name + "']"
			}
			walk(&fzRef{
				text: text, t: f.t, paths: fieldPaths(r.paths, f.name),
				optional:       r.optional || f.optional && !g.guarded(r.text+"."+f.name),
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
			r := &fzRef{text: v.name, t: v.t, paths: v.paths, optional: v.optional && !g.guarded(v.name), unset: v.unset}
			if v.namespace {
				out = append(out, g.namespaceRefs(r)...)
				continue
			}
			walk(r, 3)
		}
	}
	return out
}

// usable reports whether r may be used: an optional only when the
// unguarded-optional family is on, and under a sensitive operation only
// when its data can be kept set.
func (g *fzGen) usable(r *fzRef) bool {
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
func (g *fzGen) defined(f func() fzExpr) fzExpr {
	g.definite++
	g.sensitive++
	defer func() { g.definite--; g.sensitive-- }()
	return f()
}

// literalItem makes an element of a list or dict literal, which holds no
// undefined value unless undefined-in-literal is on.
func (g *fzGen) literalItem(f func() fzExpr) fzExpr {
	if g.on("undefined-in-literal") {
		return f()
	}
	return g.defined(f)
}

func (g *fzGen) randRef(ok func(*fzRef) bool) *fzRef {
	var rs []*fzRef
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

func (g *fzGen) hasRef(k fzKind) bool {
	return g.randRef(func(r *fzRef) bool { return r.t.kind == k && g.usable(r) }) != nil
}

// useRef is a reference's expression; under a sensitive operation its
// data is marked always set.
func (g *fzGen) useRef(r *fzRef) fzExpr {
	g.markSet(r.paths)
	return fzExpr{text: r.text, prec: precPrimary, paths: r.paths, elems: elemPaths(r.paths)}
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
func (g *fzGen) undefOperand(f func() fzExpr) fzExpr { return g.sensitiveOp("filter-undefined", f) }

// undefDepth is what undefOperand adds to g.sensitive.
func (g *fzGen) undefDepth() int {
	if g.on("filter-undefined") {
		return 0
	}
	return 1
}

// markSet marks data paths as always set while a sensitive operation is
// being made.
func (g *fzGen) markSet(paths []string) {
	if g.sensitive > 0 {
		for _, p := range paths {
			g.mustSet[p] = true
		}
	}
}

// sensitiveOp makes the operand of an operation that an unset optional
// must not reach while family is off.
func (g *fzGen) sensitiveOp(family string, f func() fzExpr) fzExpr {
	if g.on(family) {
		return f()
	}
	g.sensitive++
	defer func() { g.sensitive-- }()
	return f()
}

// canMake reports whether an expression of type t can be made: objects
// and maps only come from the data.
func (g *fzGen) canMake(t *fzType) bool {
	return g.canLit(t) || g.randRef(func(r *fzRef) bool { return typeEq(r.t, t) && g.usable(r) }) != nil
}

// canLit reports whether t has literals: scalars, and lists of what can
// be made.
func (g *fzGen) canLit(t *fzType) bool {
	return t.scalar() || t.kind == fzList && g.canMake(t.elem)
}

// randMakeable is a random type an expression can be made of: a scalar,
// a list of them, or the type of a value in scope.
func (g *fzGen) randMakeable() *fzType {
	var t *fzType
	g.choose(
		choice{5, true, func() { t = fzStr }},
		choice{4, true, func() { t = fzIntT }},
		choice{2, true, func() { t = fzFlt }},
		choice{2, true, func() { t = fzBoolT }},
		choice{2, true, func() { t = listOf([]*fzType{fzStr, fzIntT, fzFlt, fzBoolT}[g.r.IntN(4)]) }},
		choice{4, true, func() {
			if r := g.randRef(g.usable); r != nil {
				t = r.t
			} else {
				t = fzStr
			}
		}},
	)
	if t.kind == fzList && t.elem.kind == fzList && !g.on("list-of-lists") {
		return fzStr
	}
	return t
}

// randListType is the type of a list to loop over.
func (g *fzGen) randListType() *fzType {
	for range 10 {
		if t := g.randMakeable(); t.kind == fzList {
			return t
		}
	}
	return listOf(fzStr)
}
