package check

import (
	"fmt"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
)

// Python's list methods that modify their list: {% set _ = xs.append(x) %},
// the idiom that carries values out of a loop.
//
// Jinja2 runs them on the list object, which every name holding it shares.
// promptgen compiles such a call where it can follow every holder: the
// list is a local or a namespace attribute that each set gives a list
// literal (a new list) or another such local (listClass: then they share
// the list behind a pointer, ir.Local.Shared), read elsewhere only where
// its value does not escape (printed, tested, indexed, sliced, or read by a filter or
// operator that makes a new value), so that xs = append(xs, x) in Go is
// the change Python makes. The call comes first in its statement (the
// whole value of a set or an output, or the first operand of and/or
// there), so nothing the statement evaluates before it sees the list
// unchanged. A holder that takes the list after its last change sees it
// as it stays. A loop over the list whose body modifies it iterates it as
// it changes, as Python does (liveLoop). The backends never write an item a
// slice shares with another (append writes past the end; pop, insert and
// clear leave a slice whose capacity is its length, or a new one): a
// slice or loop that read the list earlier keeps the items it saw.
//
// transformers' ImmutableSandboxedEnvironment lets Jinja2 3.1's
// modifies_known_mutable reject append, extend, insert, remove, reverse
// and sort of a list: SecurityError where the call runs, after its
// arguments. Those compile to a render that fails there. pop and clear
// are not in its table, and run.

// listMethodArgs are the numbers of arguments each list method takes,
// at least and at most.
var listMethodArgs = map[string][2]int{
	"append": {1, 1}, "extend": {1, 1}, "insert": {2, 2}, "pop": {0, 1}, "clear": {0, 0},
	"remove": {1, 1}, "reverse": {0, 0}, "sort": {0, 0},
}

// unsafeInSandbox are the list methods the sandbox rejects.
var unsafeInSandbox = map[string]bool{"append": true, "extend": true, "insert": true, "remove": true, "reverse": true, "sort": true}

// listMod is a call of list method name that modifies a list, x, where
// it is (an ir.Call, or the Dynamic that fails in the sandbox).
type listMod struct {
	name string
	x    ir.Expr
	sp   tmpl.Span
}

// isListMethod reports whether fn names a method of a list that
// modifies it (none is a string method).
func isListMethod(fn *tmpl.Attr) bool {
	_, ok := listMethodArgs[fn.Name]
	return ok
}

// leading returns the call evaluated first in x, the value of a set or an
// output, where it is a call: x itself, or the first operand of an
// and/or.
func leading(x tmpl.Expr) *tmpl.Call {
	switch x := x.(type) {
	case *tmpl.Call:
		return x
	case *tmpl.Binary:
		if x.Op == "and" || x.Op == "or" {
			return leading(x.X)
		}
	}
	return nil
}

// listMethod checks e, a call of list method fn.Name.
func (c *checker) listMethod(e *tmpl.Call, fn *tmpl.Attr) ir.Expr {
	lead := e == c.leadCall
	x := c.expr(fn.X, useValue)
	var args []ir.Expr
	for _, a := range e.Args {
		args = append(args, c.expr(a, useValue))
	}
	n := listMethodArgs[fn.Name]
	ref, local := x.(*ir.LocalRef)
	// A dynamic value is a list where it is a local that only list
	// literals set (checkListHolders).
	dyn := x.Type().Resolve().Kind == ir.KindDynamic
	switch t := x.Type().Resolve(); {
	case c.rejected[x]:
		return c.reject()
	case len(e.Kwargs) > 0:
		c.errorf(e.Kwargs[0].NameSpan, "%s() takes no keyword arguments (Python raises TypeError)", fn.Name)
		return c.reject()
	case len(args) < n[0] || len(args) > n[1]:
		c.errorf(e.Span, "%s() takes %s (Python raises TypeError)", fn.Name, argCount(n))
		return c.reject()
	case dyn && !local:
		c.errorf(fn.NameSpan, "%s() of a dynamic value is not supported: promptgen modifies a list only where it knows it is one (a variable set to list literals, {%% set xs = [] %%})", fn.Name)
		return c.reject()
	case t.Kind == ir.KindMap || t.Kind == ir.KindStruct || t.Kind == ir.KindDict:
		c.errorf(fn.NameSpan, "%s() of %s is not supported: promptgen modifies lists only", fn.Name, ir.A(t.Kind))
		return c.reject()
	case !dyn && t.Kind != ir.KindList:
		c.errorf(fn.NameSpan, "%s() modifies a list, not %s (Jinja2 raises UndefinedError: %s has no such method)", fn.Name, t, ir.A(t.Kind))
		return c.reject()
	case ir.MaybeUndefined(x):
		c.errorf(fn.X.Pos(), "%s() of a list that may be undefined is not supported (Jinja2 raises UndefinedError where it is)", fn.Name)
		return c.reject()
	case c.p.Jinja.Transformers && unsafeInSandbox[fn.Name]:
		// The sandbox's SecurityError, where the call runs, after the
		// arguments (reading the list, always defined, cannot fail; an
		// operation has an operand).
		fails := c.dyn(ir.DynMissing, "unsafe "+fn.Name, ir.DynamicType(), fn.NameSpan, append([]ir.Expr{&ir.Const{T: &ir.Type{Kind: ir.KindNone}}}, args...)...)
		if dyn {
			c.modifies(ref.L, fn.Name, fails, e.Span)
		}
		return fails
	}
	switch {
	case !local:
		c.errorf(fn.X.Pos(), "%s() modifies the list it is called on, which must be a variable or a namespace attribute set to a list literal ({%% set xs = [] %%}): promptgen does not modify an input or the value of an expression", fn.Name)
		return c.reject()
	case c.assigned[ref.L] != assigned:
		c.errorf(fn.X.Pos(), "%s() of %q, which may not be set here: promptgen modifies a list only where it is surely set", fn.Name, ref.L.Name)
		return c.reject()
	case !lead:
		c.errorf(fn.NameSpan, "%s() modifies %q: promptgen supports the call only where it runs first in its statement, as the whole value of a set or an output ({%% set _ = xs.append(x) %%}, {{ xs.pop() }}) or the first operand of and/or there ({{ xs.append(x) or '' }})", fn.Name, ref.L.Name)
		return c.reject()
	case fn.Name == "remove" || fn.Name == "reverse" || fn.Name == "sort":
		c.errorf(fn.NameSpan, "%s() of a list is not supported (append, extend, insert, pop and clear are; use the filter %s, which makes a new list)", fn.Name, map[string]string{"remove": "reject", "reverse": "reverse", "sort": "sort"}[fn.Name])
		return c.reject()
	}
	for i, a := range args {
		switch {
		case !ir.MaybeUndefined(a):
			continue
		case dyn && listItemArg(fn.Name, i):
			continue // a list value holds Undefined, as Python's list does
		case listItemArg(fn.Name, i):
			// Checked again with the list a dynamic value: this error
			// stays only if that fails too.
			c.rebinding[ref.L.Name] = true
		}
		c.errorf(e.Args[i].Pos(), "%s() of a value that may be undefined is not supported: give it a default", fn.Name)
		return c.reject()
	}
	c.later = append(c.later, func() {
		// A namespace attribute or local may turn out maybe undefined
		// only once every set of it is checked.
		for i, a := range args {
			if ir.MaybeUndefined(a) && !(dyn && listItemArg(fn.Name, i)) {
				if listItemArg(fn.Name, i) {
					c.rebinding[ref.L.Name] = true // as above
				}
				c.errorf(e.Args[i].Pos(), "%s() of a value that may be undefined is not supported: give it a default", fn.Name)
				return
			}
		}
	})
	elem := ir.DynamicType()
	if !dyn {
		elem = x.Type().Resolve().Elem
	}
	item := func(v ir.Expr, sp tmpl.Span) {
		c.listItemMarkup(ref.L, fn.Name, v, sp)
		if dyn {
			c.dynOperand(v, sp)
		} else {
			c.listItem(ref.L, elem, v, sp)
		}
	}
	out := &ir.Call{Kind: ir.CallListMethod, Name: fn.Name, X: x, Args: args, T: &ir.Type{Kind: ir.KindNone}, Pos: c.posString(e.Span)}
	switch fn.Name {
	case "append":
		item(args[0], e.Args[0].Pos())
	case "extend":
		switch at := args[0].Type().Resolve(); {
		case ir.IsNumber(at.Kind) || at.Kind == ir.KindNone:
			// The list stays as it is: nothing modifies it.
			return c.failsWhereRuns(e.Args[0].Pos(), "TypeError", fmt.Sprintf("extend() takes an iterable, not %s (Python raises TypeError)", at), args[0])
		case dyn:
			c.dynOperand(args[0], e.Args[0].Pos()) // any iterable, as Python's
		case at.Kind == ir.KindList:
			c.listItem(ref.L, elem, &ir.Const{T: at.Elem}, e.Args[0].Pos())
		case at.Kind == ir.KindUnknown:
			c.unify(args[0].Type(), &ir.Type{Kind: ir.KindList, Elem: elem}, e.Args[0].Pos())
		default:
			// Checked again with the list a dynamic value, which
			// extends by any iterable, as Python's.
			c.rebinding[ref.L.Name] = true
			c.errorf(e.Args[0].Pos(), "extend() of a list of %s takes a list of them, not %s", elem, at)
		}
	case "insert":
		c.intArg(fn.Name, args[0], e.Args[0].Pos())
		item(args[1], e.Args[1].Pos())
	case "pop":
		if len(args) == 0 {
			out.Args = []ir.Expr{&ir.Const{Value: int64(-1), T: &ir.Type{Kind: ir.KindInt}}}
		} else {
			c.intArg(fn.Name, args[0], e.Args[0].Pos())
		}
		out.T = elem
	}
	c.modifies(ref.L, fn.Name, out, e.Span)
	return out
}

// modifies records x, a call of list method name at sp, which modifies the
// list of local l, for checkListHolders.
func (c *checker) modifies(l *ir.Local, name string, x ir.Expr, sp tmpl.Span) {
	if c.listMods == nil {
		c.listMods = map[*ir.Local][]listMod{}
	}
	if c.listMods[l] == nil {
		p := c.ir
		c.later = append(c.later, func() { c.checkListHolders(p, l) })
	}
	c.listMods[l] = append(c.listMods[l], listMod{name, x, sp})
}

// listItemArg reports whether argument i of list method name is an item
// (or items) that the list takes.
func listItemArg(name string, i int) bool {
	return name == "append" && i == 0 || name == "extend" && i == 0 || name == "insert" && i == 1
}

// argCount says how many arguments n allows.
func argCount(n [2]int) string {
	switch {
	case n[1] == 0:
		return "no arguments"
	case n[0] == n[1] && n[0] == 1:
		return "exactly one argument"
	case n[0] == n[1]:
		return "exactly two arguments"
	}
	return "at most one argument"
}

// listItem makes v's type the items' of the typed list of l, which
// hold values of one type: an int and a float differ, as Python prints
// them differently. An item of another type makes the list a dynamic
// value, checked again so; so does a bool beside items whose type,
// not known yet, is arithmetic's ([a + b]: ir.Type.NoBool), which
// unified would be an int.
func (c *checker) listItem(l *ir.Local, elem *ir.Type, v ir.Expr, sp tmpl.Span) {
	ek, vk := elem.Resolve().Kind, v.Type().Resolve().Kind
	if ek != ir.KindUnknown && vk != ir.KindUnknown && (ek != vk || !types.Unifiable(elem, v.Type())) || types.BoolBesideArith(elem, v.Type()) {
		c.rebinding[l.Name] = true
		c.errorf(sp, "a list that promptgen modifies holds values of one type: this is %s, and the list holds %s", v.Type(), elem)
		return
	}
	c.unify(elem, v.Type(), sp)
}

// listItemMarkup checks, once every set is checked, v, an item that list
// method name at sp gives the list of l, which Jinja2 keeps as Markup
// where it is a tojson or safe result (a list prints it as
// Markup('...')). A dynamic value keeps it (keepMarkup) where it is
// Markup on every render or on none, or a condition kept branch by
// branch; a typed list is checked again as a dynamic value.
func (c *checker) listItemMarkup(l *ir.Local, name string, v ir.Expr, sp tmpl.Span) {
	c.later = append(c.later, func() {
		switch {
		case !c.markup(v):
		case l.T.Resolve().Kind != ir.KindDynamic:
			c.rebinding[l.Name] = true
			c.errorf(sp, "%s() of a tojson or safe result is not supported: Jinja2 keeps it as Markup, which a list prints as Markup('...') (%s)", name, toPlain)
		case !c.markups.KeptOperand(v):
			c.rebindMarkup(v)
			c.errorf(sp, "%s() of a value that may or may not be a tojson or safe result is not supported: Jinja2 keeps it as Markup, which a list prints as Markup('...'), and promptgen keeps it only where it is always Markup (%s)", name, toPlain)
		}
	})
}

// intArg checks the index argument of insert or pop, an int.
func (c *checker) intArg(name string, v ir.Expr, sp tmpl.Span) {
	switch k := v.Type().Resolve().Kind; k {
	case ir.KindInt:
	case ir.KindUnknown:
		c.constrain(v.Type(), ir.KindInt, sp)
	default:
		c.errorf(sp, "%s() takes an int as its index, not %s (Python raises TypeError)", name, v.Type())
	}
}

// checkListHolders reports, at a call that modifies local l, what keeps
// promptgen from following the list l holds in p: a set of l to another
// value than a list literal, a read of l whose value escapes (another
// name, a list or a generator holds it) where a call may modify l after
// it, or a loop over l whose body modifies it that reads what Python's
// LoopContext reads ahead (see liveLoop). A loop over l whose body
// modifies it iterates the list as it changes (ir.For.Live), as Python's
// list iterator does.
func (c *checker) checkListHolders(p *ir.Prompt, l *ir.Local) {
	if c.listChecked[l] {
		return // with another local its list shares
	}
	mods := c.listMods[l]
	first := mods[0]
	class, aliases := c.listClass(l)
	for _, s := range c.sets {
		if _, ok := s.Value.(*ir.List); class[s.Local] && !ok && !aliases[ir.Unstrict(s.Value)] {
			c.errorf(first.sp, "%s() modifies %q, which is also set to a value that is not a list literal or a variable holding such a list: promptgen modifies only a list that each set makes anew ({%% set %s = [] %%}), as another value may be held by other names too", first.name, l.Name, l.Name)
			return
		}
	}
	isMod := map[ir.Expr]listMod{}
	for m := range class {
		if c.unvalued[m] {
			c.errorf(first.sp, "%s() modifies %q, which a loop or a block set also assigns: promptgen modifies only a list that each set makes anew ({%% set %s = [] %%})", first.name, m.Name, m.Name)
			return
		}
		if m != l {
			mods = append(mods, c.listMods[m]...)
		}
		if c.listChecked == nil {
			c.listChecked = map[*ir.Local]bool{}
		}
		c.listChecked[m] = true
	}
	for _, m := range mods {
		isMod[m.x] = m
	}
	h := listHolders{class: class, reads: map[ir.Expr]int{}, safe: map[ir.Expr]int{}, at: map[ir.Expr]int{}}
	h.walk(p.Body)
	for _, f := range p.Funcs { // which read no local of the template (macroFunc)
		h.walk(f.Body)
	}
	// A read whose value escapes is exact where no call modifies l after
	// it: after it in the template's order, or in a loop (or a call
	// block's body, which the macro may call again) around both.
	after := func(r ir.Expr) (listMod, bool) {
		for _, m := range mods {
			if h.at[m.x] > h.at[r] {
				return m, true
			}
		}
		for _, rg := range h.repeats {
			if rg[r] {
				for _, m := range mods {
					if rg[m.x] {
						return m, true
					}
				}
			}
		}
		return listMod{}, false
	}
	// A variable set to another's list shares it with that one: the
	// locals hold one list (ir.Local.Shared) where a change may follow.
	share, canShare := false, true
	for m := range class {
		k := m.T.Resolve().Kind
		canShare = canShare && (k == ir.KindList || k == ir.KindDynamic) && !m.MaybeUndefined && ir.SameKind(m.T, l.T) // one Go type behind the pointer
	}
	for _, r := range h.order {
		if h.reads[r] == h.safe[r] {
			continue
		}
		m, ok := after(r)
		switch {
		case !ok:
		case aliases[r] && canShare && h.reads[r] == 1: // the set's value only
			share = true
		default:
			c.errorf(m.sp, "%s() modifies %q, whose list is also held elsewhere (put in a list or dict, passed to a macro, or read by a filter that yields it, such as default, or a generator; or set to another name, where the two are not both surely set lists of one type) before the change: Jinja2 shares one list between them, which promptgen does not follow (pass a copy, %s | list, or hand the list on after its last change)", m.name, l.Name, l.Name)
			return
		}
	}
	for m := range class {
		m.Shared = share
	}
	for _, loop := range h.loops {
		var mod *listMod
		modifies := func(x ir.Expr) {
			if m, ok := isMod[x]; ok && mod == nil {
				mod = &m
			}
		}
		ir.Walk(loop.Body, modifies)
		ir.WalkExpr(loop.Filter, modifies)
		if mod != nil {
			c.liveLoop(loop, *mod, class)
		}
	}
}

// listClass returns the locals that may hold the list of local l, which
// a list method modifies: l and the typed locals set to one of them
// ({% set ys = xs %}, also the enclosing value a scope's local starts
// from) or that one of them is set to; and the reads of them that are
// those sets' values.
func (c *checker) listClass(l *ir.Local) (map[*ir.Local]bool, map[ir.Expr]bool) {
	class, aliases := map[*ir.Local]bool{l: true}, map[ir.Expr]bool{}
	for grew := true; grew; {
		grew = false
		for _, s := range c.sets {
			r, ok := ir.Unstrict(s.Value).(*ir.LocalRef)
			if !ok || !class[s.Local] && !class[r.L] || aliases[r] {
				continue
			}
			aliases[r] = true
			grew = grew || !class[s.Local] || !class[r.L]
			class[s.Local], class[r.L] = true, true
		}
	}
	return class, aliases
}

// liveLoop makes loop, over the list of l, whose body modifies it (at
// m), iterate the list as it changes: Python's list iterator takes item
// i while i is below the list's length at that moment, so the loop sees
// the items appended and stops early after a pop. What Jinja2's
// LoopContext reads ahead, once, is not followed: loop.length (the
// length when first read), revindex and revindex0, last and nextitem
// (which take the next item early), and previtem (the item before, which
// a pop or an insert moves); nor an if filter, whose generator promptgen
// evaluates first, or a loop whose body sets the list anew (Python's goes
// on over the old one). Those stay errors.
func (c *checker) liveLoop(loop *ir.For, m listMod, class map[*ir.Local]bool) {
	l := ir.LiveList(loop)
	reads := ""
	ir.Walk(loop.Body, func(x ir.Expr) {
		if a, ok := x.(*ir.LoopAttr); ok && a.For == loop && reads == "" && !liveLoopAttrs[a.Attr] {
			reads = "loop." + a.Attr
		}
	})
	why := ""
	switch {
	case reads != "":
		why = "that reads " + reads + map[string]string{
			"loop.length": ", the length Jinja2 takes once, where it is first read", "loop.revindex": ", from the length Jinja2 takes once, where it is first read",
			"loop.revindex0": ", from the length Jinja2 takes once, where it is first read",
			"loop.last":      ", for which Jinja2 takes the next item early", "loop.nextitem": ", which Jinja2 takes early",
			"loop.previtem": ", the item before, which a change may move",
		}[reads]
	case setsIn(loop.Body, class):
		why = "that sets it anew (the loop goes on over the list it started with)"
	case loop.Filter != nil:
		why = "with an if filter"
	case loop.Items:
		why = "that a section truncates by items"
	case l.MaybeUndefined:
		why = "that may be undefined"
	default:
		loop.Live = true
		return
	}
	c.errorf(m.sp, "%s() modifies %q in a loop over it, which Jinja2 iterates as it changes: promptgen follows that, but not in a loop %s (loop over a copy, %s | list)", m.name, l.Name, why, l.Name)
}

// setsIn reports whether a statement of ns, or of a macro call expanded
// in them, sets one of the locals of class.
func setsIn(ns []ir.Node, class map[*ir.Local]bool) bool {
	found := false
	sets := func(t *ir.Local) { found = found || class[t] }
	ir.WalkTargets(ns, sets)
	ir.Walk(ns, func(x ir.Expr) {
		switch x := x.(type) {
		case *ir.Capture:
			ir.WalkTargets(x.Body, sets)
		case *ir.CallFunc:
			if x.Caller != nil {
				ir.WalkTargets(x.Caller.Body, sets)
			}
		}
	})
	return found
}

// liveLoopAttrs are the loop attributes a loop over a list that changes
// reads as Jinja2 does: the index and what follows from it.
var liveLoopAttrs = map[string]bool{"index": true, "index0": true, "first": true}

// listHolders finds the reads of local l in a body (reads, by how many
// times each occurs) and those whose value does not escape (safe), each
// expression's place in the order the template runs (at, the last where
// one occurs twice), the bodies that may run again (repeats: a loop's, a
// call block's), and the loops over l.
type listHolders struct {
	class       map[*ir.Local]bool
	reads, safe map[ir.Expr]int
	order       []ir.Expr // the reads, in the template's order
	at          map[ir.Expr]int
	n           int // the expressions walked
	repeats     []map[ir.Expr]bool
	loops       []*ir.For
}

// is reports whether x is the value of a local of the class, and the
// read it is.
func (h *listHolders) is(x ir.Expr) (ir.Expr, bool) {
	switch x := x.(type) {
	case *ir.LocalRef:
		return x, h.class[x.L]
	case *ir.Strict:
		return h.is(x.X)
	}
	return nil, false
}

// consumingFilters make a new value of a list, at once: what they read
// of it stays as it was.
var consumingFilters = map[string]bool{
	"length": true, "count": true, "join": true, "first": true, "last": true, "tojson": true,
	"string": true, "list": true, "sort": true, "min": true, "max": true, "sum": true,
}

// consumingDynOps are the operations on dynamic values that read a list
// at once and keep none of it but copies.
var consumingDynOps = map[ir.DynOp]bool{
	ir.DynItem: true, ir.DynSlice: true, ir.DynEqual: true, ir.DynCompare: true, ir.DynArith: true,
	ir.DynContains: true, ir.DynTest: true, ir.DynLength: true, ir.DynStr: true, ir.DynToJSON: true,
	ir.DynFirst: true, ir.DynLast: true, ir.DynJoin: true, ir.DynList: true,
}

// walk looks at the statements of ns, and at the bodies of the macro
// calls expanded in them.
func (h *listHolders) walk(ns []ir.Node) {
	ir.Walk(ns, h.expr)
	h.nodes(ns)
}

// repeat records the expressions of ns, and of x, as a body that may run
// again.
func (h *listHolders) repeat(ns []ir.Node, x ir.Expr) {
	in := map[ir.Expr]bool{}
	mark := func(x ir.Expr) { in[x] = true }
	ir.Walk(ns, mark)
	ir.WalkExpr(x, mark)
	h.repeats = append(h.repeats, in)
}

func (h *listHolders) expr(x ir.Expr) {
	h.n++
	h.at[x] = h.n
	count := func(xs ...ir.Expr) {
		for _, x := range xs {
			if r, ok := h.is(x); ok {
				h.safe[r]++
			}
		}
	}
	switch x := x.(type) {
	case *ir.LocalRef:
		if h.class[x.L] {
			if h.reads[x] == 0 {
				h.order = append(h.order, x)
			}
			h.reads[x]++
		}
	case *ir.Capture:
		h.nodes(x.Body)
	case *ir.CallFunc:
		if x.Caller != nil {
			h.repeat(x.Caller.Body, nil)
			h.nodes(x.Caller.Body)
		}
	case *ir.Call:
		if x.Kind == ir.CallListMethod || x.Kind == ir.CallTest || x.Kind == ir.CallFilter && consumingFilters[x.Name] {
			count(x.X)
		}
	case *ir.Index:
		count(x.X)
	case *ir.Slice:
		count(x.X)
	case *ir.Unary:
		count(x.X)
	case *ir.Cond:
		count(x.Cond)
	case *ir.Binary:
		if !x.Value || x.Op != "and" && x.Op != "or" {
			count(x.X, x.Y)
		}
	case *ir.Dynamic:
		if consumingDynOps[x.Op] || x.Op == ir.DynFilter && consumingFilters[x.Name] {
			count(x.Args...)
		}
	}
}

// nodes counts the reads that statements make safely: printed, tested,
// iterated; the loops over l are collected, and every loop's body is a
// body that may run again.
func (h *listHolders) nodes(ns []ir.Node) {
	count := func(x ir.Expr) bool {
		r, ok := h.is(x)
		if ok {
			h.safe[r]++
		}
		return ok
	}
	for _, n := range ns {
		switch n := n.(type) {
		case *ir.Print:
			count(n.X)
		case *ir.If:
			for _, b := range n.Branches {
				count(b.Cond)
				h.nodes(b.Body)
			}
			h.nodes(n.Else)
		case *ir.For:
			if count(n.Iter) {
				h.loops = append(h.loops, n)
			}
			if n.Filter != nil {
				count(n.Filter)
			}
			h.repeat(n.Body, n.Filter)
			h.nodes(n.Body)
			h.nodes(n.Else)
		case *ir.Set:
			h.nodes(n.Body)
		}
	}
}

// dictUpdate checks e, a call of the dict method update (fn): in the
// transformers profile, whose sandbox rejects it (Jinja2 3.1's
// modifies_known_mutable), a render that fails where the call runs, after
// its arguments, with SecurityError, and a warning (vLLM's Hunyuan-A13B
// template updates a dict literal where the first message is empty); of
// a dynamic value, with SecurityError where it is a dict and
// UndefinedError elsewhere.
// promptgen modifies no dict in place, so outside the sandbox, where
// Jinja2 does, it is an error.
func (c *checker) dictUpdate(e *tmpl.Call, fn *tmpl.Attr) ir.Expr {
	x := c.expr(fn.X, useValue)
	args := []ir.Expr{&ir.Const{T: &ir.Type{Kind: ir.KindNone}}}
	for _, a := range e.Args {
		args = append(args, c.expr(a, useValue))
	}
	for _, kw := range e.Kwargs {
		args = append(args, c.expr(kw.Value, useValue))
	}
	switch k := x.Type().Resolve().Kind; {
	case c.rejected[x]:
		return c.reject()
	case k == ir.KindDynamic && !c.p.Jinja.Transformers:
		c.errorf(fn.NameSpan, "update() of a dynamic value is not supported: promptgen modifies no dict in place, which Jinja2 shares between the names holding it (set the values in a namespace: {%% set ns = namespace(k=v) %%}{%% set ns.k = w %%}); with profile: transformers, whose sandbox rejects it, the render fails where it runs")
		return c.reject()
	case k == ir.KindDynamic:
		// A dict's update is the sandbox's SecurityError, another value's
		// undefined, which fails as it is called: after the arguments.
		c.diags.Warnf(c.pos(fn.NameSpan), "update() of a dynamic value: transformers' sandbox raises SecurityError (access to attribute 'update' of 'dict' object is unsafe.) where it runs of a dict, and UndefinedError of another value, and so does the render")
		return c.dyn(ir.DynMissing, "unsafe update", ir.DynamicType(), fn.NameSpan, append([]ir.Expr{x}, args[1:]...)...)
	case k != ir.KindDict && k != ir.KindMap && k != ir.KindStruct:
		c.errorf(fn.NameSpan, "update() is a method of a dict, not %s (Jinja2 raises UndefinedError: %s has no such method)", x.Type(), ir.A(k))
		return c.reject()
	case !c.p.Jinja.Transformers:
		c.errorf(fn.NameSpan, "update() of a dict is not supported: promptgen modifies no dict in place, which Jinja2 shares between the names holding it (set the values in a namespace: {%% set ns = namespace(k=v) %%}{%% set ns.k = w %%}); with profile: transformers, whose sandbox rejects it, the render fails where it runs")
		return c.reject()
	}
	c.diags.Warnf(c.pos(fn.NameSpan), "update() of a dict: transformers' sandbox raises SecurityError (access to attribute 'update' of 'dict' object is unsafe.) where it runs, and so does the render")
	return c.dyn(ir.DynMissing, "unsafe dict.update", ir.DynamicType(), fn.NameSpan, args...)
}
