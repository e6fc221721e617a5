package check

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/names"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/schema"
)

// checker types one prompt's template: it infers the feed's types from use
// (or checks uses against declared inputs) and builds the IR.
type checker struct {
	diags  *diag.Sink
	p      *ir.PromptSpec
	ir     *ir.Prompt
	feed   *ir.Type
	scopes []*scope
	// later holds checks that need final types; they run after inference.
	later []func()
	// uses records each feed variable's first use, for unused-input warnings.
	used map[*ir.Field]bool
	tmp  int
	// inSet is the template set of the body checked, nil for a prompt file.
	inSet *setContext
	// m locates the template checked when it is not p.Map: a system or
	// message template.
	m *src.SourceMap
	// consumed are the calls whose result only their consumer can use:
	// map(attribute=) under a join.
	consumed map[*ir.Call]bool
	// assigned says, at the point checked, whether each local of the
	// frames entered has been assigned since its frame started.
	assigned map[*ir.Local]assignState
	// iterated are the results of unique, map and select/reject, Jinja2's generators,
	// that their consumer iterates: the only use a generator has.
	iterated map[ir.Expr]bool
	// rejected are the stand-ins for expressions reported as unsupported,
	// whose uses are not reported again.
	rejected map[ir.Expr]bool
	// loopIter is the iterable of the for loop checked last: items() and
	// keys() are supported there only.
	loopIter tmpl.Expr
	// sets are the checked sets with a value, for markUndefined, and
	// markupLocals the locals they may assign a Markup value, computed from
	// them (see markup).
	sets         []*ir.Set
	markupLocals map[*ir.Local]bool
	// safe are the results of the filter safe, Markup.
	safe map[ir.Expr]bool
	// checked are the expressions checked already that a construct checks
	// as part of others (m.get(k) as m[k] if k in m else none).
	checked map[tmpl.Expr]ir.Expr
	// namespaces are the locals set to namespace(...), and loopExits what
	// is assigned at each loop control of a loop (see chat.go).
	namespaces map[*ir.Local]*namespace
	loopExits  map[*ir.For][]map[*ir.Local]assignState
	// clock is set while the template of a prompt file is checked, the
	// only one whose Render takes the clock of strftime_now.
	clock  bool
	macros macros
	// rebinding collects the locals set to values of two types; rebound
	// holds those of a previous check, which are dynamic this time.
	rebinding, rebound map[string]bool
	// setBefore are the locals a set checked so far assigns.
	setBefore map[*ir.Local]bool
}

// scope is a frame of Jinja2 (the template, a loop's body or else, a block
// set's body): the names it assigns are its locals from its start on.
type scope struct {
	names  map[string]*ir.Local
	locals *[]*ir.Local // where the locals are declared
	loop   *ir.For      // the innermost for loop, nil at top level
	sym    *symbols
	// outer holds the locals that start with the value their name has in
	// the enclosing scopes; inits are the sets that give it to those read
	// before they are surely assigned, run when the frame starts.
	outer map[*ir.Local]bool
	inits []ir.Node
	// noLoopControl names the frame when a loop control cannot stop a
	// loop from inside it (a block set's body, a generation block).
	noLoopControl string
}

type assignState uint8

const (
	unassigned assignState = iota
	maybeAssigned
	assigned
)

func (c *checker) pos(sp tmpl.Span) src.Pos {
	if c.m != nil {
		return c.m.Pos(sp.Start)
	}
	return c.p.Map.Pos(sp.Start)
}

func (c *checker) posString(sp tmpl.Span) string { return c.pos(sp).String() }

func (c *checker) errorf(sp tmpl.Span, format string, args ...any) {
	if n := len(c.macros.calling); n > 0 {
		at := c.pos(c.macros.calls[n-1])
		format += fmt.Sprintf(" (in the call of macro %q at %d:%d)", c.macros.calling[n-1], at.Line, at.Col)
	}
	c.diags.Errorf(c.pos(sp), format, args...)
}

// failedAt reports whether an error was already reported at sp, after
// which the types there tell nothing more.
func (c *checker) failedAt(sp tmpl.Span) bool { return c.failedAtPos(c.pos(sp)) }

// failedAtPos reports whether an error was reported at pos.
func (c *checker) failedAtPos(pos src.Pos) bool {
	for _, d := range c.diags.List {
		if d.Pos == pos && d.Severity == diag.SeverityError {
			return true
		}
	}
	return false
}

// newLocal makes a Go local named after name, which the template cannot
// see until it is bound with local.
func (c *checker) newLocal(name string, t *ir.Type) *ir.Local {
	c.tmp++
	goName, ok := names.Unexported(name)
	if !ok {
		goName = "v"
	}
	return &ir.Local{Name: name, GoName: fmt.Sprintf("%s_%d", goName, c.tmp), T: t}
}

// localType is the type a new local named name starts with: dynamic when
// the template sets it to values of several types, or when it is a chat
// context's dynamic variable.
func (c *checker) localType(name string) *ir.Type {
	if c.rebound[name] {
		return ir.DynamicType()
	}
	if f := c.feed.Field(name); f != nil && f.Chat && f.Type.Resolve().Kind == ir.KindDynamic {
		// A chat template that sets tools or documents ({% set tools = [] %})
		// sets a default for the data: a dynamic value, as the data is.
		return ir.DynamicType()
	}
	return &ir.Type{}
}

// rebinds reports whether a local of type lt set to a value of type vt
// holds values of two types, which only a dynamic value can: numbers of
// different kinds (widening would print the other sets' values in this
// kind), kinds that do not unify, or none and a type not known yet.
func rebinds(lt, vt *ir.Type) bool {
	if (lt.Kind == ir.KindNone) != (vt.Kind == ir.KindNone) && (lt.Kind == ir.KindUnknown || vt.Kind == ir.KindUnknown) {
		return true // unified, the unknown would be none
	}
	if lt.Kind == ir.KindUnknown || vt.Kind == ir.KindUnknown || lt.Kind == ir.KindDynamic || vt.Kind == ir.KindDynamic {
		return false
	}
	if lt.Kind != vt.Kind && ir.IsNumber(lt.Kind) && ir.IsNumber(vt.Kind) {
		return true
	}
	return !unifiable(lt, vt) && convertsToDynamic(lt) && convertsToDynamic(vt)
}

// template checks body as a template's top frame and stores it in x.
func (c *checker) template(body []tmpl.Node, x *ir.Prompt) {
	c.scopes, c.assigned = nil, map[*ir.Local]assignState{}
	c.macros = newMacros(body)
	c.enter(frameSymbols(nil, nil, body), &x.Locals, nil)
	x.Body = c.leave(c.nodes(body))
}

// enter starts a frame that sym analyzed: params are its loop targets,
// bound already, and every other name it assigns gets a local, declared
// in locals.
func (c *checker) enter(sym *symbols, locals *[]*ir.Local, loop *ir.For, params ...*ir.Local) {
	sc := &scope{names: map[string]*ir.Local{}, locals: locals, loop: loop, sym: sym, outer: map[*ir.Local]bool{}}
	for _, p := range params {
		sc.names[p.Name] = p
		c.assigned[p] = assigned
	}
	for _, name := range sym.stores {
		if k := sym.refs[name]; k != loadParam {
			l := c.newLocal(name, c.localType(name))
			sc.names[name] = l
			sc.outer[l] = k == loadOuter
			*locals = append(*locals, l)
		}
	}
	c.scopes = append(c.scopes, sc)
}

// leave ends the innermost frame, whose nodes are body: the sets that
// give locals their first value run first.
func (c *checker) leave(body []ir.Node) []ir.Node {
	sc := c.scopes[len(c.scopes)-1]
	c.scopes = c.scopes[:len(c.scopes)-1]
	return append(sc.inits, body...)
}

func (c *checker) lookup(name string) *ir.Local {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if l := c.scopes[i].names[name]; l != nil {
			return l
		}
	}
	return nil
}

func (c *checker) nodes(ns []tmpl.Node) []ir.Node {
	var out []ir.Node
	for _, n := range ns {
		out = append(out, c.node(n)...)
		if len(out) > 0 && ir.EndsBlock(out[len(out)-1]) {
			break // the rest never runs
		}
	}
	return out
}

// node checks one template node. It yields no IR for empty text and
// several nodes for a set with several targets.
func (c *checker) node(n tmpl.Node) []ir.Node {
	c.macros.count()
	switch n := n.(type) {
	case *tmpl.Text:
		if n.Value == "" {
			return nil
		}
		c.ir.StaticSize += len(n.Value)
		return []ir.Node{&ir.Text{Value: n.Value}}
	case *tmpl.Output:
		if out, ok := c.raise(n); ok {
			return out
		}
		x := c.expr(n.X, usePrint)
		c.printable(x, n.X.Pos())
		inlinePrinted(x)
		return []ir.Node{&ir.Print{X: x}}
	case *tmpl.If:
		out := &ir.If{}
		start := maps.Clone(c.assigned)
		var ends []map[*ir.Local]assignState
		// A macro defined in a branch is defined for the rest of it only.
		macros := maps.Clone(c.macros.defined)
		for _, b := range n.Branches {
			cond := c.expr(b.Cond, useTest)
			out.Branches = append(out.Branches, ir.Branch{Cond: cond, Body: c.nodes(b.Body)})
			ends = append(ends, c.assigned)
			c.assigned = maps.Clone(start)
			c.macros.defined = maps.Clone(macros)
		}
		out.Else = c.nodes(n.Else)
		c.macros.defined = macros
		c.assigned = mergeAssigned(append(ends, c.assigned))
		return []ir.Node{out}
	case *tmpl.For:
		return []ir.Node{c.forLoop(n)}
	case *tmpl.Set:
		return c.set(n)
	case *tmpl.Include:
		if len(c.macros.calling) > 0 {
			c.errorf(n.Span, "include inside a macro is not supported")
			return nil
		}
		if c.inSet != nil {
			return c.include(n)
		}
		c.errorf(n.Span, "include is only supported inside template sets")
		return nil
	case *tmpl.LoopControl:
		return c.loopControl(n)
	case *tmpl.Generation:
		return c.generation(n)
	case *tmpl.FilterBlock:
		return c.filterBlock(n)
	case *tmpl.Macro:
		c.defineMacro(n)
		return nil
	}
	panic(fmt.Sprintf("check: unexpected node %T", n))
}

// mergeAssigned is what is assigned after an if whose branches (the
// else, possibly empty, included) end in states ends.
func mergeAssigned(ends []map[*ir.Local]assignState) map[*ir.Local]assignState {
	out := map[*ir.Local]assignState{}
	for _, end := range ends {
		for l, st := range end {
			if st != unassigned {
				out[l] = maybeAssigned
			}
		}
	}
	for l := range out {
		all := true
		for _, end := range ends {
			all = all && end[l] == assigned
		}
		if all {
			out[l] = assigned
		}
	}
	return out
}

// dictValues is the type of every value of dict type t, whose items a
// loop iterates: they must have one.
func (c *checker) dictValues(t *ir.Type, sp tmpl.Span) *ir.Type {
	v := &ir.Type{}
	for _, f := range t.Fields {
		if !unifiable(v, f.Type) {
			c.errorf(sp, "items() of a dict literal needs values of one type, not %s and %s", v, f.Type)
			return v
		}
		c.unify(v, f.Type, sp)
	}
	return v
}

// iterate records that x, when a generator in Jinja2 (unique, map), is
// iterated by its consumer.
func (c *checker) iterate(x ir.Expr) {
	f, isCall := x.(*ir.Call)
	_, isSelect := x.(*ir.Select)
	_, isMap := x.(*ir.MapFilter)
	_, isDyn := x.(*ir.Dynamic)
	if isCall && (isGenerator(f) || f.Kind == ir.CallFilter && f.Name == "reverse") || isSelect || isMap || isDyn {
		if c.iterated == nil {
			c.iterated = map[ir.Expr]bool{}
		}
		c.iterated[x] = true
	}
}

// mustIterate reports x, the result of the filter name, unless its
// consumer iterates it: Jinja2 yields a generator.
func (c *checker) mustIterate(x ir.Expr, name string, sp tmpl.Span) {
	c.mustIterateMsg(x, sp, name+" yields a generator in Jinja2, which prints as <generator ...> and has no length or index: loop over it, join it, or convert it with | list")
}

// mustIterateMsg reports x with msg unless its consumer iterates it.
func (c *checker) mustIterateMsg(x ir.Expr, sp tmpl.Span, msg string) {
	c.later = append(c.later, func() {
		if !c.iterated[x] {
			c.errorf(sp, "%s", msg)
		}
	})
}

// reject returns the stand-in for an expression reported as unsupported:
// none, whose uses report nothing more.
func (c *checker) reject() ir.Expr {
	x := &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	if c.rejected == nil {
		c.rejected = map[ir.Expr]bool{}
	}
	c.rejected[x] = true
	return x
}

// isGenerator reports whether Jinja2's filter for x returns a generator.
func isGenerator(x *ir.Call) bool {
	return x.Kind == ir.CallFilter && (x.Name == "unique" || x.Name == "map")
}

// consume records that x's consumer can use its result.
func (c *checker) consume(x *ir.Call) {
	if c.consumed == nil {
		c.consumed = map[*ir.Call]bool{}
	}
	c.consumed[x] = true
}

func (c *checker) forLoop(n *tmpl.For) ir.Node {
	out := &ir.For{Pos: c.posString(n.Iter.Pos())}
	types, pairs := c.forIter(n, out)
	params := make([]*ir.Local, len(n.Targets))
	for i, t := range n.Targets {
		params[i] = c.newLocal(t.Name, types[i])
	}
	switch {
	case pairs:
		out.Key, out.Value = params[0], params[len(params)-1]
	case len(params) == 1:
		out.Value = params[0]
	default:
		out.Unpack = params
	}
	// The body, its filter and its else are frames of their own.
	parent := c.scopes[len(c.scopes)-1]
	if n.Filter != nil {
		// loop in the filter is the enclosing loop's: this one has none yet.
		c.enter(frameSymbols(parent.sym, n.Targets, nil), &out.Locals, nil, params...)
		out.Filter = c.expr(n.Filter, useTest)
		c.leave(nil)
	}
	start := maps.Clone(c.assigned)
	c.enter(frameSymbols(parent.sym, n.Targets, n.Body), &out.Locals, out, params...)
	out.Body = c.leave(c.nodes(n.Body))
	body := c.assigned
	c.assigned = mergeAssigned(append(c.loopExits[out], start)) // where the else starts
	if n.Else != nil {
		c.enter(frameSymbols(parent.sym, nil, n.Else), parent.locals, nil)
		out.Else = c.leave(c.nodes(n.Else))
	}
	c.assigned = c.loopEnd(out, body, c.assigned)
	return out
}

// forIter checks the iterable of n into out and returns the type of each
// loop target, and whether they are a map's key and value.
func (c *checker) forIter(n *tmpl.For, out *ir.For) ([]*ir.Type, bool) {
	types := make([]*ir.Type, len(n.Targets))
	str := &ir.Type{Kind: ir.KindString}
	c.loopIter = n.Iter
	if what, ok := c.items(n.Iter, out); ok {
		m := out.Iter.Type()
		val := m.Elem
		if d, ok := out.Iter.(*ir.Dynamic); ok && d.Op != ir.DynItems {
			// dictsort of a dynamic value: a list of (key, value) tuples.
			for i := range types {
				types[i] = ir.DynamicType()
			}
			return types, false
		}
		if d, ok := out.Iter.(*ir.Dynamic); ok && d.Op == ir.DynValues {
			types[0] = ir.DynamicType()
			return types, false
		}
		if d, ok := out.Iter.(*ir.Dynamic); ok && d.Op == ir.DynItems {
			if len(n.Targets) != 2 {
				c.errorf(n.Span, "%s yields pairs: write \"for key, value in ...\"", what)
			}
			for i := range types {
				types[i] = ir.DynamicType()
			}
			return types, true
		}
		switch m.Kind {
		case ir.KindDict:
			val = c.dictValues(m, n.Iter.Pos())
		case ir.KindMap:
		default:
			val = &ir.Type{Kind: ir.KindNone} // reported
		}
		if what == "values()" {
			// The map's items, the key unused.
			if len(n.Targets) != 1 {
				c.errorf(n.Span, "values() of a map or dict unpacked into %d targets is not supported: write \"for value in ...\"", len(n.Targets))
			}
			out.Key = c.newLocal("key", str)
			for i := range types {
				types[i] = val
			}
			return types, false
		}
		if len(n.Targets) != 2 {
			c.errorf(n.Span, "%s yields pairs: write \"for key, value in ...\"", what)
		}
		for i := range types {
			types[i] = val
		}
		types[0] = str
		return types, true
	}
	out.Iter = c.expr(n.Iter, useValue)
	c.iterate(out.Iter)
	out.Strict = isMethodCall(n.Iter, "keys") // keys() of undefined raises
	it := out.Iter.Type()
	if it.Kind == ir.KindDynamic || c.rejected[out.Iter] {
		// A rejected iterable's targets are dynamic, whose uses report
		// nothing more.
		for i := range types {
			types[i] = ir.DynamicType()
		}
		return types, false
	}
	if it.Kind == ir.KindUnknown {
		c.constrain(it, ir.KindList, n.Iter.Pos())
	}
	elem := str
	switch it = it.Resolve(); it.Kind {
	case ir.KindList:
		elem = it.Elem
	case ir.KindString, ir.KindMap, ir.KindDict:
	default:
		c.errorf(n.Iter.Pos(), "cannot loop over %s", it)
	}
	if len(n.Targets) == 1 {
		return []*ir.Type{elem}, false
	}
	// for a, b in xs: each element is a list of as many items as targets.
	if it.Kind == ir.KindList && elem.Resolve().Kind == ir.KindUnknown {
		c.constrain(elem, ir.KindList, n.Iter.Pos())
	}
	item := str
	switch {
	case it.Kind == ir.KindMap:
		c.errorf(n.Targets[0].Span, "cannot unpack the keys of a map into %d loop targets (iterate its items: m.items(), m|items or m|dictsort)", len(n.Targets))
	case it.Kind == ir.KindList && elem.Resolve().Kind == ir.KindList:
		item = elem.Resolve().Elem
	case it.Kind == ir.KindList || it.Kind == ir.KindString:
		c.errorf(n.Targets[0].Span, "cannot unpack the items of a %s into %d loop targets: they must be lists", it, len(n.Targets))
	}
	for i := range types {
		types[i] = item
	}
	return types, false
}

// isMethodCall says whether e calls the method name without arguments.
func isMethodCall(e tmpl.Expr, name string) bool {
	call, ok := e.(*tmpl.Call)
	if !ok || len(call.Args) != 0 {
		return false
	}
	a, ok := call.Fn.(*tmpl.Attr)
	return ok && a.Name == name
}

// items checks an iterable that yields the (key, value) pairs of a map,
// m.items(), m|items or m|dictsort, into out. It returns what yields them,
// for messages, or false for another iterable.
func (c *checker) items(e tmpl.Expr, out *ir.For) (string, bool) {
	switch f := e.(type) {
	case *tmpl.Call:
		if !isMethodCall(f, "items") && !isMethodCall(f, "values") {
			return "", false
		}
		out.Iter = c.expr(f, useValue) // the map or dict; call checks it
		out.Strict = true
		return f.Fn.(*tmpl.Attr).Name + "()", true
	case *tmpl.Filter:
		if f.Name != "items" && f.Name != "dictsort" {
			return "", false
		}
		args := c.bindArgs("filter "+f.Name, ir.FilterParams[f.Name], f.Args, f.Kwargs, f.Span)
		x := c.expr(f.X, useValue)
		if isDynamic(x) {
			if f.Name == "dictsort" {
				// A list of (key, value) tuples, unpacked as any list.
				out.Iter = c.dynFilter(f, "dictsort", x, args)
				return "", true
			}
			out.Iter = c.dyn(ir.DynItems, "", ir.DynamicType(), f.Span, x)
			return f.Name, true
		}
		if f.Name == "dictsort" {
			if by, ok := args[1].(*ir.Const); !ok || by.Value != "key" {
				c.errorf(f.Span, "dictsort is supported by='key' only")
			}
			out.Dictsort = []ir.Expr{args[0], args[2]}
			out.Strict = true // dictsort(undefined) raises, items(undefined) is empty
			c.later = append(c.later, func() {
				for i, a := range out.Dictsort {
					if k := a.Type().Kind; k != ir.KindBool {
						c.errorf(f.Span, "filter dictsort: parameter %q must be a bool, not %s", []string{"case_sensitive", "reverse"}[i], k)
					}
				}
			})
		}
		if x.Type().Kind == ir.KindDict {
			c.errorf(f.NameSpan, "%s of a dict literal is not supported", f.Name)
		} else {
			c.constrain(x.Type(), ir.KindMap, f.X.Pos())
		}
		out.Iter = x
		return f.Name, true
	}
	return "", false
}

func (c *checker) set(n *tmpl.Set) []ir.Node {
	if n.NS != nil {
		return c.setAttr(n)
	}
	if call, ok := c.isNamespaceCall(n.Value); ok && len(n.Targets) == 1 {
		return c.namespaceSet(n, call)
	}
	switch {
	case n.Value == nil:
		out := &ir.Set{Body: c.setBody(n.Body)}
		return []ir.Node{c.assign(n.Targets[0].Name, out, &ir.Type{Kind: ir.KindString}, n.Span)}
	case len(n.Targets) == 1:
		out := &ir.Set{Value: c.expr(n.Value, useValue)}
		return []ir.Node{c.assign(n.Targets[0].Name, out, out.Value.Type(), n.Span)}
	}
	return c.tupleSet(n)
}

// assign sets name's local in the current scope to out's value, of type
// t, and completes out.
func (c *checker) assign(name string, out *ir.Set, t *ir.Type, sp tmpl.Span) *ir.Set {
	l := c.scopes[len(c.scopes)-1].names[name]
	if c.namespaces[l] != nil {
		c.errorf(sp, "%q is set to a namespace and to another value, which promptgen does not support", name)
	}
	return c.assignLocal(l, out, t, sp)
}

// assignLocal sets local l to out's value, of type t, and completes out.
func (c *checker) assignLocal(l *ir.Local, out *ir.Set, t *ir.Type, sp tmpl.Span) *ir.Set {
	out.Local = l
	lt, vt := l.T.Resolve(), slotType(t).Resolve()
	switch {
	case l.T.Kind == ir.KindDynamic:
		// A local made dynamic (localType) holds values of several types:
		// each set stores its value as a dynamic value. A chat variable
		// not typed yet is JSON data: dynamic too.
		if vt.Kind == ir.KindUnknown && c.p.Chat {
			c.unify(vt, ir.DynamicType(), sp)
		}
		hint(vt, usePrint)
		c.later = append(c.later, func() {
			if !convertsToDynamic(vt) {
				c.errorf(sp, "%q is set to values of several types, and a %s cannot be one of them (only strings, numbers, bools, none, lists of them and dicts)", l.Name, vt)
			}
		})
	case c.setBefore[l] && rebinds(lt, vt):
		// Checked again with the local dynamic (see Prompt): this error
		// stays only if that fails too.
		c.rebinding[l.Name] = true
		c.errorf(sp, "%q is set to values of types %s and %s", l.Name, lt, vt)
	case lt.Kind != ir.KindUnknown && vt.Kind != ir.KindUnknown && !unifiable(lt, vt):
		c.errorf(sp, "%q is set to values of types %s and %s: a variable holds values of several types only when each is a string, number, bool, none, or a list or dict literal of them", l.Name, lt, vt)
	default:
		c.unify(l.T, vt, sp)
	}
	c.assigned[out.Local] = assigned
	c.setBefore[out.Local] = true
	c.trackUndefined(out)
	return out
}

// trackUndefined records out for markUndefined and markupLocal.
func (c *checker) trackUndefined(out *ir.Set) {
	if out.Value != nil {
		c.sets = append(c.sets, out)
	}
}

// markUndefined marks, once types are final, the locals that may be
// undefined: those assigned a value that can be. A local read into
// another may be marked by a set further down, so it runs until nothing
// changes.
func (c *checker) markUndefined() {
	for changed := true; changed; {
		changed = false
		for _, s := range c.sets {
			if !s.Local.MaybeUndefined && ir.MaybeUndefined(s.Value) {
				s.Local.MaybeUndefined, changed = true, true
			}
		}
	}
}

// tupleSet checks {% set a, b = x, y %}, which needs a value per target.
// Python evaluates every value before it assigns a target, so when a value
// reads one of the targets ({% set a, b = b, a %}), the values go through
// temporaries first.
func (c *checker) tupleSet(n *tmpl.Set) []ir.Node {
	var items []tmpl.Expr
	switch v := n.Value.(type) {
	case *tmpl.Tuple:
		items = v.Items
	case *tmpl.List:
		items = v.Items
	default:
		c.errorf(n.Value.Pos(), "set with %d targets needs %d values separated by commas", len(n.Targets), len(n.Targets))
		return nil
	}
	if len(items) != len(n.Targets) {
		c.errorf(n.Value.Pos(), "set assigns %d values to %d targets", len(items), len(n.Targets))
		return nil
	}
	values := make([]ir.Expr, len(items))
	for i, it := range items {
		values[i] = c.expr(it, useValue)
	}
	var out []ir.Node
	if c.readsTargets(values, n.Targets) {
		sc := c.scopes[len(c.scopes)-1]
		for i, v := range values {
			tmp := &ir.Set{Local: c.newLocal("v", v.Type()), Value: v}
			*sc.locals = append(*sc.locals, tmp.Local)
			c.trackUndefined(tmp)
			out = append(out, tmp)
			values[i] = &ir.LocalRef{L: tmp.Local}
		}
	}
	for i, target := range n.Targets {
		out = append(out, c.assign(target.Name, &ir.Set{Value: values[i]}, values[i].Type(), n.Span))
	}
	return out
}

// readsTargets reports whether any of values reads a local that assigning
// targets in the current scope would overwrite.
func (c *checker) readsTargets(values []ir.Expr, targets []*tmpl.Name) bool {
	sc := c.scopes[len(c.scopes)-1]
	reads := false
	for _, v := range values {
		ir.WalkExpr(v, func(x ir.Expr) {
			if ref, ok := x.(*ir.LocalRef); ok {
				for _, t := range targets {
					reads = reads || sc.names[t.Name] == ref.L
				}
			}
		})
	}
	return reads
}

// use says how an expression's value is used, for inference: a printed
// unknown defaults to string, a tested one is optional.
type use uint8

const (
	useValue use = iota
	usePrint
	useTest
)

func (c *checker) expr(e tmpl.Expr, u use) ir.Expr {
	if x, ok := c.checked[e]; ok {
		return x
	}
	c.macros.count()
	switch e := e.(type) {
	case *tmpl.Name:
		return c.name(e, u)
	case *tmpl.Const:
		return constExpr(e.Value)
	case *tmpl.List:
		out := &ir.List{T: &ir.Type{Kind: ir.KindList, Elem: &ir.Type{}}}
		for _, it := range e.Items {
			x := c.expr(it, useValue)
			c.unify(out.T.Elem, slotType(x.Type()), it.Pos())
			out.Items = append(out.Items, x)
		}
		c.later = append(c.later, func() {
			for i, x := range out.Items {
				c.checkSlot(x, out.T.Resolve().Elem, out.Inline, e.Items[i].Pos())
			}
		})
		return out
	case *tmpl.Attr:
		return c.attr(e, e.X, e.Name, e.NameSpan, u)
	case *tmpl.Index:
		if k, ok := e.Index.(*tmpl.Const); ok {
			if s, ok := k.Value.(string); ok && c.isStructLike(e.X) {
				return c.attr(e, e.X, s, k.Span, u)
			}
		}
		return c.index(e)
	case *tmpl.Slice:
		return c.slice(e)
	case *tmpl.Unary:
		return c.unary(e, u)
	case *tmpl.Binary:
		return c.binary(e, u)
	case *tmpl.CondExpr:
		out := &ir.Cond{Cond: c.expr(e.Cond, useTest), Then: c.expr(e.Then, u)}
		out.T = out.Then.Type()
		if e.Else != nil {
			out.Else = c.expr(e.Else, u)
			tk, ek := out.T.Resolve().Kind, out.Else.Type().Kind
			switch {
			case tk == ir.KindDynamic || ek == ir.KindDynamic:
				c.dynOperand(out.Then, e.Then.Pos())
				c.dynOperand(out.Else, e.Else.Pos())
				out.T = ir.DynamicType()
			case tk != ir.KindUnknown && ek != ir.KindUnknown && holdsDynamic(out.T) != holdsDynamic(out.Else.Type()):
				// A typed value and one that holds dynamic values (a list of
				// strings, messages[1:]): unified, the typed one would be
				// read as dynamic. Printed, each prints with its own type.
				if u == usePrint {
					out.T = &ir.Type{Kind: ir.KindString}
					break
				}
				c.dynOperand(out.Then, e.Then.Pos())
				c.dynOperand(out.Else, e.Else.Pos())
				out.T = ir.DynamicType()
			case (tk == ir.KindNone) != (ek == ir.KindNone) && u == usePrint:
				// x if c else none: x keeps its own type (none would make
				// an unknown x none), and each branch prints with its own.
				out.T = &ir.Type{Kind: ir.KindString}
			case (tk == ir.KindNone) != (ek == ir.KindNone):
				// As a value, or tested, it is x or none: a dynamic value.
				c.dynOperand(out.Then, e.Then.Pos())
				c.dynOperand(out.Else, e.Else.Pos())
				out.T = ir.DynamicType()
			case unifiable(out.T, out.Else.Type()):
				c.unify(out.T, out.Else.Type(), e.Else.Pos())
			case tk == ir.KindInt && ek == ir.KindFloat, tk == ir.KindFloat && ek == ir.KindInt:
				// Each branch keeps its type where printed; a use as a
				// value widens the int branch to a float.
				out.T = &ir.Type{Kind: ir.KindFloat}
			case u == usePrint:
				// Printed, each branch prints with its own type; as its
				// str() (a string) it is right in ~ and string filters.
				out.T = &ir.Type{Kind: ir.KindString}
			default:
				c.errorf(e.Else.Pos(), "the conditional yields either %s here: promptgen can print that, but not use it as a value (make the branches one type, or convert with | string)", kindsOf([]ir.Expr{out.Then, out.Else}))
				out.T = &ir.Type{}
			}
		}
		return out
	case *tmpl.Filter:
		return c.filter(e, u)
	case *tmpl.Test:
		return c.test(e)
	case *tmpl.Call:
		return c.call(e, u)
	case *tmpl.Tuple:
		c.errorf(e.Span, "tuples are not supported (use a list)")
	case *tmpl.Dict:
		return c.dict(e)
	}
	return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
}

func constExpr(v any) *ir.Const {
	switch v.(type) {
	case string:
		return &ir.Const{Value: v, T: &ir.Type{Kind: ir.KindString}}
	case int64:
		return &ir.Const{Value: v, T: &ir.Type{Kind: ir.KindInt}}
	case float64:
		return &ir.Const{Value: v, T: &ir.Type{Kind: ir.KindFloat}}
	case bool:
		return &ir.Const{Value: v, T: &ir.Type{Kind: ir.KindBool}}
	}
	return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
}

// dict checks a dict literal. Its keys must be distinct string constants,
// so that its type can be a closed struct of them.
func (c *checker) dict(e *tmpl.Dict) ir.Expr {
	out := &ir.Dict{T: &ir.Type{Kind: ir.KindDict}}
	taken := map[string]bool{}
	for i, k := range e.Keys {
		v := c.expr(e.Values[i], useValue)
		var s string
		key, ok := k.(*tmpl.Const)
		if ok {
			s, ok = key.Value.(string)
		}
		switch {
		case !ok:
			c.errorf(k.Pos(), "dict literal keys must be string constants")
			continue
		case out.T.Field(s) != nil:
			c.errorf(k.Pos(), "duplicate key %q in dict literal", s)
			continue
		}
		// Struct fields named after the key when it makes a Go name, by
		// position otherwise; "_" cannot start a name made from a key.
		name, ok := names.Unexported(s)
		if !ok || taken[name] {
			name = fmt.Sprintf("_%d", i)
		}
		taken[name] = true
		out.T.Fields = append(out.T.Fields, &ir.Field{Key: s, Type: slotType(v.Type()), Pos: c.pos(k.Pos()), GoName: name})
		out.Values = append(out.Values, v)
	}
	c.later = append(c.later, func() {
		for i, f := range out.T.Resolve().Fields {
			c.checkSlot(out.Values[i], f.Type, out.Inline, e.Values[i].Pos())
		}
	})
	return out
}

// dictDefault makes src, a variable of a chat prompt's own that local l
// may still hold, a dynamic value when the template sets l to a dict
// literal ({% if x is not defined %}{% set x = {'k': 'v'} %}{% endif %}):
// the variable is JSON passed to apply_chat_template, whose keys keep
// their order as the literal's do (a map would sort them, and JSON cannot
// fill a dict literal's type).
func (c *checker) dictDefault(l *ir.Local, src ir.Expr, sp tmpl.Span) {
	if l.T.Resolve().Kind == ir.KindDict {
		c.chatDynamic(src, sp)
	}
}

// chatDynamic makes x a dynamic value when it is a variable of a chat
// prompt's own (not of the chat context) that no use has typed yet.
func (c *checker) chatDynamic(x ir.Expr, sp tmpl.Span) {
	f, ok := x.(*ir.FieldRef)
	if !ok || f.Of != nil || f.Field.Chat || !c.p.Chat || c.feed.Declared {
		return
	}
	if f.Field.Type.Resolve().Kind == ir.KindUnknown {
		c.unify(f.Field.Type, ir.DynamicType(), sp)
	}
}

// checkNoDicts reports the variables in struct t whose type was inferred
// from a dict literal ({{ x if c else {'a': 1} }}): the feed needs a
// struct that JSON can fill, a dict literal's type is not one. It also
// reports an inferred field whose key encoding/json cannot name.
func (c *checker) checkNoDicts(t *ir.Type) {
	for _, f := range t.Fields {
		if !t.Declared && t.Go == nil && !ir.ValidJSONKey(f.Key) {
			c.diags.Errorf(f.Pos, "cannot infer a field named %q: a JSON key with such characters cannot name a Go struct field (declare the variable in inputs, as a map)", f.Key)
		}
		ft := f.Type.Resolve()
		for ft.Kind == ir.KindList || ft.Kind == ir.KindMap {
			ft = ft.Elem.Resolve()
		}
		switch ft.Kind {
		case ir.KindDict:
			c.diags.Errorf(f.Pos, "cannot infer the type of %q from a dict literal (declare it in inputs)", f.Key)
		case ir.KindNone:
			// A Go value would print None whatever the data holds. Once
			// the other checks ran: one may have said why.
			c.later = append(c.later, func() {
				if c.failedAtPos(f.Pos) {
					return
				}
				c.diags.Errorf(f.Pos, "cannot infer the type of %q: it is used only as none is (declare it in inputs)", f.Key)
			})
		case ir.KindStruct:
			c.checkNoDicts(ft)
		}
	}
}

// slotType is the type for storing a value of type t in a list (or dict)
// literal or a local: a copy of a known scalar type, so that widening the
// slot to number for another element leaves the value's own type alone,
// and of a list (its items' type shared), so that a slot made dynamic
// leaves the value, which the backends convert, a list.
func slotType(t *ir.Type) *ir.Type {
	switch t = t.Resolve(); {
	case ir.IsScalar(t.Kind) || t.Kind == ir.KindNone:
		return &ir.Type{Kind: t.Kind}
	case t.Kind == ir.KindList:
		return &ir.Type{Kind: t.Kind, Elem: t.Elem, Declared: t.Declared}
	}
	return t
}

// checkSlot reports, once types are final, a literal's element x that
// would change type when stored in slot, as 1 in a list of numbers would
// print 1.0. Python keeps each element's type, and so does a literal
// written out where it is printed (inline). It also rejects a tojson
// result, which would print differently, and an element that may be
// undefined in a literal that is not printed where it stands: Jinja2 keeps
// Undefined in the list or dict, a Go value cannot hold it.
func (c *checker) checkSlot(x ir.Expr, slot *ir.Type, inline bool, sp tmpl.Span) {
	if c.markup(x) {
		c.errorf(sp, "a tojson or safe result cannot be a list or dict element (Jinja2 keeps it as Markup, which prints as Markup('...') inside a list or dict)")
		return
	}
	if !inline && ir.MaybeUndefined(x) && ir.OutOfRange(x) == "" {
		c.errorf(sp, "this element may be undefined, which Jinja2 keeps in the list or dict and promptgen's cannot hold: give it a value (| default(...)) or print the literal where it stands")
		return
	}
	xk, sk := x.Type().Kind, slot.Resolve().Kind
	if inline || xk == sk || !ir.IsNumber(xk) || !ir.IsNumber(sk) {
		return
	}
	c.errorf(sp, "this %s would become a %s, unlike in Jinja2: a literal mixing %s and %s elements is supported only where it is printed, joined or concatenated with ~", xk, sk, xk, sk)
}

// inline marks x, when it is a list or dict literal that is printed where
// it stands, to be written out element by element, and so the literals
// inside it.
func inline(x ir.Expr) {
	switch x := x.(type) {
	case *ir.List:
		x.Inline = true
		for _, it := range x.Items {
			inline(it)
		}
	case *ir.Dict:
		x.Inline = true
		for _, v := range x.Values {
			inline(v)
		}
	}
}

// inlinePrinted marks the literals that a printed x prints where they
// stand: x itself, and those that the emitters print piece by piece, the
// branches of a conditional and the operands of ~.
func inlinePrinted(x ir.Expr) {
	switch x := x.(type) {
	case *ir.Cond:
		inlinePrinted(x.Then)
		inlinePrinted(x.Else)
	case *ir.Binary:
		if x.Op == "~" {
			inlinePrinted(x.X)
			inlinePrinted(x.Y)
		}
	}
	inline(x)
}

// hint records how an unknown value is used, for its default type.
func hint(t *ir.Type, u use) {
	t = t.Resolve()
	if t.Kind != ir.KindUnknown {
		return
	}
	switch u {
	case usePrint:
		t.Hint = ir.KindString
	case useTest:
		if t.Hint == ir.KindUnknown {
			t.Hint = ir.KindBool
		}
	}
}

func (c *checker) name(e *tmpl.Name, u use) ir.Expr {
	if x := c.read(e.Name, len(c.scopes)-1, e.Span); x != nil {
		if c.wholeNamespace(x.L, e.Span) {
			return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
		}
		hint(x.L.T, u)
		return x
	}
	if c.macroAsValue(e) {
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	return c.global(e, u)
}

// read returns the local that holds name's value at this point, looking
// from scope top outwards, or nil when it is the template's variable.
func (c *checker) read(name string, top int, sp tmpl.Span) *ir.LocalRef {
	for i := top; i >= 0; i-- {
		sc := c.scopes[i]
		l := sc.names[name]
		if l == nil {
			continue
		}
		switch st := c.assigned[l]; {
		case st == assigned:
		case !sc.outer[l]:
			l.MaybeUndefined = true // undefined until assigned
		case st == unassigned:
			continue // the enclosing value still
		default:
			c.initOuter(i, l, sp)
		}
		return &ir.LocalRef{L: l}
	}
	return nil
}

// initOuter gives local l of scope i, read at sp where it may not be
// assigned yet, the value of its name in the enclosing scopes when the
// frame starts: their local, or the template's variable, which is then
// optional (when inferred) as the set may make it unneeded.
func (c *checker) initOuter(i int, l *ir.Local, sp tmpl.Span) {
	sc := c.scopes[i]
	for _, n := range sc.inits {
		if n.(*ir.Set).Local == l {
			return
		}
	}
	var src ir.Expr
	if ref := c.read(l.Name, i-1, sp); ref != nil {
		src = ref
	} else {
		src = c.global(&tmpl.Name{Span: sp, Name: l.Name}, useValue)
		c.guard(src)
		c.dictDefault(l, src, sp)
	}
	init := &ir.Set{Local: l, Value: src}
	sc.inits = append(sc.inits, init)
	c.trackUndefined(init)
	if l.T.Kind == ir.KindDynamic {
		// The local holds values of several types: the enclosing value is
		// one of them.
		c.later = append(c.later, func() {
			if !convertsToDynamic(src.Type()) {
				c.errorf(sp, "%q is set to values of several types, and until the set runs it is a %s, which cannot be one of them", l.Name, src.Type())
			}
		})
		return
	}
	// A kind the set and the enclosing value do not share is reported
	// once types are final.
	lk, sk := l.T.Resolve().Kind, src.Type().Kind
	if lk == ir.KindUnknown || sk == ir.KindUnknown || lk == sk || (lk == ir.KindDynamic || sk == ir.KindDynamic) && unifiable(l.T, src.Type()) {
		c.unify(l.T, src.Type(), sp)
	}
	c.later = append(c.later, func() {
		what := "its enclosing value"
		if f, ok := src.(*ir.FieldRef); ok {
			what = fmt.Sprintf("the input %q", f.Field.Key)
		}
		switch lt, st := l.T.Resolve(), src.Type(); {
		case lt.Kind != st.Kind:
			if st.Kind == ir.KindDynamic || convertsToDynamic(lt) && convertsToDynamic(st) {
				c.rebinding[l.Name] = true // checked again with the local dynamic
			}
			c.errorf(sp, "type mismatch: %q is set to a value of type %s, but until the set runs it is %s, of type %s", l.Name, lt, what, st)
		case lt.Kind == ir.KindNone:
			c.errorf(sp, "cannot infer the type of %q: it is set to none, and until the set runs it is %s (declare it in inputs)", l.Name, what)
		}
	})
}

// global is what name is outside the template's locals: a component of
// the set, or a variable of the feed.
func (c *checker) global(e *tmpl.Name, u use) ir.Expr {
	if c.macroReadsTop(e) {
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	if x := c.componentRef(e.Name, e.Span); x != nil {
		return x
	}
	if e.Name == "loop" {
		c.errorf(e.Span, "loop is only defined inside a for loop")
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	if c.globalValue(e) {
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	f := c.feed.Field(e.Name)
	if f == nil {
		if c.feed.Declared {
			c.errorf(e.Span, "undefined variable %q%s", e.Name, schema.DidYouMean(e.Name, fieldKeys(c.feed)))
			f = &ir.Field{Key: e.Name, Type: &ir.Type{}, Pos: c.pos(e.Span)} // keeps checking the rest
		} else {
			f = &ir.Field{Key: e.Name, Type: &ir.Type{}, Pos: c.pos(e.Span)}
			c.feed.Fields = append(c.feed.Fields, f)
		}
	}
	c.used[f] = true
	return c.fieldUse(nil, c.feed, f, e.Span, u)
}

func (c *checker) fieldUse(of ir.Expr, parent *ir.Type, f *ir.Field, sp tmpl.Span, u use) ir.Expr {
	hint(f.Type, u)
	x := &ir.FieldRef{Of: of, Field: f, Pos: c.posString(sp)}
	if u == useTest {
		c.guard(x)
	}
	return x
}

// guard marks an inferred variable as optional when the template tests it
// (if x, x is defined, x | default): declared inputs keep their declaration.
func (c *checker) guard(x ir.Expr) {
	f, ok := x.(*ir.FieldRef)
	if !ok {
		return
	}
	parent := c.feed
	if f.Of != nil {
		parent = f.Of.Type()
	}
	if !parent.Declared && !f.Field.Chat {
		f.Field.Optional = true
	}
}

func fieldKeys(t *ir.Type) []string {
	keys := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		keys[i] = f.Key
	}
	return keys
}

func (c *checker) isStructLike(e tmpl.Expr) bool {
	switch e := e.(type) {
	case *tmpl.Name:
		if e.Name == "loop" && c.lookup("loop") == nil && c.innerLoop() != nil {
			return true
		}
		if l := c.lookup(e.Name); l != nil {
			k := l.T.Resolve().Kind
			return k == ir.KindStruct || k == ir.KindUnknown
		}
		if f := c.feed.Field(e.Name); f != nil {
			k := f.Type.Resolve().Kind
			return k == ir.KindStruct || k == ir.KindUnknown
		}
		return true
	case *tmpl.Attr, *tmpl.Index:
		return true
	}
	return false
}

func (c *checker) innerLoop() *ir.For {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if c.scopes[i].loop != nil {
			return c.scopes[i].loop
		}
	}
	return nil
}

var loopAttrs = map[string]ir.Kind{
	"index": ir.KindInt, "index0": ir.KindInt, "revindex": ir.KindInt, "revindex0": ir.KindInt,
	"first": ir.KindBool, "last": ir.KindBool, "length": ir.KindInt,
}

func (c *checker) attr(e tmpl.Expr, x tmpl.Expr, name string, nameSp tmpl.Span, u use) ir.Expr {
	if n, ok := x.(*tmpl.Name); ok && n.Name == "loop" && c.lookup("loop") == nil {
		loop := c.innerLoop()
		switch {
		case loop != nil && (name == "previtem" || name == "nextitem"):
			return c.loopNeighbour(loop, name, nameSp)
		case loop != nil && name == "cycle":
			c.errorf(nameSp, "loop.cycle is a method: call it (loop.cycle(a, b))")
			return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
		}
		k, ok := loopAttrs[name]
		if loop == nil || !ok {
			if loop == nil {
				c.errorf(n.Span, "loop is only defined inside a for loop")
			} else {
				c.errorf(nameSp, "unknown loop attribute %q%s", name, schema.DidYouMean(name, loopAttrNames()))
			}
			return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
		}
		if name != "length" {
			loop.Index = "i"
		}
		if name != "index" && name != "index0" && name != "first" {
			loop.Length = "n"
		}
		return &ir.LoopAttr{For: loop, Attr: name, T: &ir.Type{Kind: k}}
	}
	if v, ok := c.namespaceAttr(x, name, u); ok {
		return v
	}
	if n, ok := x.(*tmpl.Name); ok && c.lookup(n.Name) == nil && c.macroAsValue(n) {
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	of := c.expr(x, useValue)
	t := of.Type()
	if t.Kind == ir.KindDynamic {
		_, isAttr := e.(*tmpl.Attr)
		return c.dynAttr(of, name, isAttr, e.Pos(), nameSp)
	}
	if t.Kind == ir.KindUnknown {
		c.constrain(t, ir.KindStruct, x.Pos())
		t = t.Resolve()
		c.mustComeFromInput(t, x.Pos())
	}
	if _, isAttr := e.(*tmpl.Attr); isAttr && isDictMethod(name) && (t.Kind == ir.KindStruct || t.Kind == ir.KindMap || t.Kind == ir.KindDict) {
		c.errorf(nameSp, "attribute %q is the dict method in Jinja2, not the key (an object is a dict too): subscript it (['%s'])", name, name)
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	switch t.Kind {
	case ir.KindStruct:
		f, ok := c.structField(t, name, nameSp)
		if !ok {
			return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
		}
		if f == nil {
			if t.Declared {
				c.errorf(nameSp, "%s has no field %q%s", describe(x), name, schema.DidYouMean(name, fieldKeys(t)))
				return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
			}
			f = &ir.Field{Key: name, Type: &ir.Type{}, Pos: c.pos(nameSp)}
			t.Fields = append(t.Fields, f)
		}
		if isDictMethod(name) {
			c.later = append(c.later, func() {
				if f.Optional {
					c.errorf(nameSp, "[%q] reads the dict method %s where the optional %q is unset (Jinja2 falls back to the attribute)", name, name, name)
				}
			})
		}
		return c.fieldUse(of, t, f, e.Pos(), u)
	case ir.KindMap:
		c.mapKey(name, nameSp)
		hint(t.Elem, u)
		return &ir.Index{X: of, Index: constExpr(name), T: t.Elem, Pos: c.posString(e.Pos())}
	case ir.KindDict:
		return c.dictValue(of, t, name, e.Pos(), nameSp)
	}
	c.errorf(nameSp, "%s is a %s, it has no attribute %q", describe(x), t, name)
	return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
}

// dictValue reads key name of a dict of type t: a missing key, which is
// undefined in Jinja2, is a generate-time error.
func (c *checker) dictValue(of ir.Expr, t *ir.Type, name string, sp, nameSp tmpl.Span) ir.Expr {
	f := t.Field(name)
	if f == nil {
		c.errorf(nameSp, "dict has no key %q%s", name, schema.DidYouMean(name, fieldKeys(t)))
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	return &ir.DictValue{Of: of, Field: f, Pos: c.posString(sp)}
}

// mustComeFromInput rejects, once every use is known, an object or map
// inferred from its uses whose value comes from no input (the items of an
// empty list literal): its Go type would have no name.
func (c *checker) mustComeFromInput(t *ir.Type, pos tmpl.Span) {
	c.later = append(c.later, func() {
		if !c.fromFeed(t) {
			c.errorf(pos, "an object here comes from no input (the items of an empty list literal have no fields)")
		}
	})
}

// isDictMethod reports whether Jinja2 reads d.name as an attribute of the
// Python dict rather than as its key.
func isDictMethod(name string) bool {
	switch name {
	case "clear", "copy", "fromkeys", "get", "items", "keys", "pop", "popitem", "setdefault", "update", "values":
		return true
	}
	return strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

// describe names an expression in messages: its source-like path.
func describe(e tmpl.Expr) string {
	switch e := e.(type) {
	case *tmpl.Name:
		return fmt.Sprintf("%q", e.Name)
	case *tmpl.Attr:
		return strings.TrimSuffix(describe(e.X), `"`) + "." + e.Name + `"`
	}
	return "the value"
}

// mapKey rejects a constant map key that names a dict method: where the
// map lacks it, Jinja2 falls back to the attribute, the method.
func (c *checker) mapKey(key string, sp tmpl.Span) {
	if isDictMethod(key) {
		c.errorf(sp, "[%q] reads the dict method %s where the map has no such key (Jinja2 falls back to the attribute)", key, key)
	}
}

func (c *checker) index(e *tmpl.Index) ir.Expr {
	x := c.expr(e.X, useValue)
	i := c.expr(e.Index, useValue)
	t := x.Type()
	if t.Kind == ir.KindDynamic {
		if k, ok := e.Index.(*tmpl.Const); ok {
			if s, ok := k.Value.(string); ok {
				return c.dynAttr(x, s, false, e.Span, k.Span)
			}
		}
		return c.dyn(ir.DynItem, "", ir.DynamicType(), e.Span, x, i)
	}
	c.staysTyped(e.Span, x)
	if t.Kind == ir.KindUnknown {
		if i.Type().Kind == ir.KindString {
			c.constrain(t, ir.KindMap, e.X.Pos())
		} else {
			c.constrain(t, ir.KindList, e.X.Pos())
		}
		t = t.Resolve()
	}
	if t.Kind == ir.KindDict {
		if k, ok := i.(*ir.Const); ok && i.Type().Kind == ir.KindString {
			return c.dictValue(x, t, k.Value.(string), e.Span, e.Index.Pos())
		}
		if convertsToDynamic(t) {
			// Which key is read is known at run time only: the value
			// read is dynamic (risk_bank[requested_risk]).
			return c.dyn(ir.DynItem, "", ir.DynamicType(), e.Span, x, i)
		}
		c.errorf(e.Index.Pos(), "a dict literal can only be subscripted with a string constant (or, when its values are strings, numbers, bools, none, or lists and dicts of them, with any key)")
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	out := &ir.Index{X: x, Index: i, Pos: c.posString(e.Span)}
	switch t.Kind {
	case ir.KindList:
		c.intIndex(i, e.Index.Pos())
		out.T = t.Elem
	case ir.KindString:
		c.intIndex(i, e.Index.Pos())
		out.T = &ir.Type{Kind: ir.KindString}
	case ir.KindMap:
		c.constrain(i.Type(), ir.KindString, e.Index.Pos())
		if k, ok := i.(*ir.Const); ok {
			if key, ok := k.Value.(string); ok {
				c.mapKey(key, e.Index.Pos())
			}
		}
		out.T = t.Elem
	default:
		c.errorf(e.Span, "cannot index %s", t)
		out.T = &ir.Type{Kind: ir.KindNone}
	}
	return out
}

// intIndex requires an index or slice bound to be an int. A number would
// make Jinja2's subscript fail and yield undefined; that is an error here.
func (c *checker) intIndex(i ir.Expr, sp tmpl.Span) {
	c.constrain(i.Type(), ir.KindInt, sp)
	c.later = append(c.later, func() {
		if i.Type().Resolve().Kind == ir.KindFloat {
			c.errorf(sp, "an index must be an int, not a number")
		}
	})
}

func (c *checker) slice(e *tmpl.Slice) ir.Expr {
	x := c.expr(e.X, useValue)
	t := x.Type()
	if t.Kind == ir.KindDynamic {
		bounds := make([]ir.Expr, 3)
		for i, b := range []tmpl.Expr{e.Lo, e.Hi, e.Step} {
			if b != nil {
				bounds[i] = c.expr(b, useValue)
				c.intIndex(bounds[i], b.Pos())
			}
		}
		return &ir.Dynamic{Op: ir.DynSlice, Args: append([]ir.Expr{x}, bounds...), T: ir.DynamicType(), Pos: c.posString(e.Span)}
	}
	c.staysTyped(e.Span, x)
	if t.Kind == ir.KindUnknown {
		c.constrain(t, ir.KindList, e.X.Pos())
		t = t.Resolve()
	}
	out := &ir.Slice{X: x, T: t, Pos: c.posString(e.Span)}
	for _, p := range []struct {
		src tmpl.Expr
		dst *ir.Expr
	}{{e.Lo, &out.Lo}, {e.Hi, &out.Hi}, {e.Step, &out.Step}} {
		if p.src != nil {
			*p.dst = c.expr(p.src, useValue)
			c.intIndex(*p.dst, p.src.Pos())
		}
	}
	if k, ok := e.Step.(*tmpl.Const); ok && k.Value == int64(0) {
		c.errorf(k.Span, "slice step cannot be zero")
	}
	if t.Kind != ir.KindList && t.Kind != ir.KindString {
		c.errorf(e.Span, "cannot slice %s", t)
	}
	return out
}

func (c *checker) unary(e *tmpl.Unary, u use) ir.Expr {
	if e.Op == "not" {
		x := c.expr(e.X, useTest)
		return &ir.Unary{Op: "not", X: x, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(e.Span)}
	}
	x := c.expr(e.X, useValue)
	t := x.Type()
	if t.Kind == ir.KindDynamic {
		if e.Op == "+" {
			return c.dyn(ir.DynArith, "+", ir.DynamicType(), e.Span, constExpr(int64(0)), x)
		}
		return c.dyn(ir.DynNeg, "", ir.DynamicType(), e.Span, x)
	}
	c.staysTyped(e.Span, x)
	if t.Kind == ir.KindUnknown {
		c.constrain(t, ir.KindInt, e.X.Pos())
	}
	out := &ir.Unary{Op: e.Op, X: x, T: x.Type(), Pos: c.posString(e.Span)}
	c.later = append(c.later, func() {
		if k := out.T.Resolve().Kind; k != ir.KindInt && k != ir.KindFloat {
			c.errorf(e.Span, "operator %s needs a number, not %s", e.Op, out.T)
		}
		c.checkConstInt(out, e.Span)
	})
	return out
}

func (c *checker) binary(e *tmpl.Binary, u use) ir.Expr {
	switch e.Op {
	case "and", "or":
		if u == useTest {
			x, y := c.expr(e.X, useTest), c.expr(e.Y, useTest)
			return &ir.Binary{Op: e.Op, X: x, Y: y, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(e.Span)}
		}
		out, mixed := c.logic(e, u)
		if mixed && u != usePrint {
			c.errorf(e.Span, "%s yields either %s here: promptgen can print that, but not use it as a value (make the operands one type, or convert with | string)", e.Op, kindsOf(yields(out)))
			out.T = &ir.Type{} // no more errors where it is used
		}
		return out
	case "~":
		x, y := c.expr(e.X, usePrint), c.expr(e.Y, usePrint)
		c.printable(x, e.X.Pos())
		c.printable(y, e.Y.Pos())
		inline(x)
		inline(y)
		return &ir.Binary{Op: "~", X: x, Y: y, T: &ir.Type{Kind: ir.KindString}, Pos: c.posString(e.Span)}
	case "==", "!=":
		x, y := c.expr(e.X, useValue), c.expr(e.Y, useValue)
		if holdsDynamic(x.Type()) || holdsDynamic(y.Type()) {
			return c.dynBinary(e, x, y)
		}
		c.staysTyped(e.Span, x, y)
		c.unifyWeak(x.Type(), y.Type(), e.Span)
		c.later = append(c.later, func() {
			switch xk, yk := x.Type().Kind, y.Type().Kind; {
			case c.failedAt(e.Span):
			case xk == ir.KindNone && yk != ir.KindNone:
				c.noneTest(y, e.Op+" none", e.Span)
			case yk == ir.KindNone && xk != ir.KindNone:
				c.noneTest(x, e.Op+" none", e.Span)
			case isComposite(x.Type()) || isComposite(y.Type()):
				c.errorf(e.Span, "cannot compare %s %s %s: compare their fields or items", x.Type(), e.Op, y.Type())
			case mixesBoolNumber(xk, yk):
				c.errorf(e.Span, "comparing %s with %s is not supported", x.Type(), y.Type())
			}
		})
		return &ir.Binary{Op: e.Op, X: x, Y: y, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(e.Span)}
	case "<", "<=", ">", ">=":
		x, y := c.expr(e.X, useValue), c.expr(e.Y, useValue)
		if holdsDynamic(x.Type()) || holdsDynamic(y.Type()) {
			return c.dynBinary(e, x, y)
		}
		c.staysTyped(e.Span, x, y)
		c.unifyWeak(x.Type(), y.Type(), e.Span)
		out := &ir.Binary{Op: e.Op, X: x, Y: y, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(e.Span)}
		c.later = append(c.later, func() {
			xk, yk := x.Type().Kind, y.Type().Kind
			numbers := ir.IsNumber(xk) && ir.IsNumber(yk) && xk != ir.KindBool && yk != ir.KindBool
			if !numbers && !(xk == ir.KindString && yk == ir.KindString) {
				c.errorf(e.Span, "cannot compare %s %s %s", x.Type(), e.Op, y.Type())
			}
		})
		return out
	case "in", "not in":
		x, y := c.expr(e.X, useValue), c.expr(e.Y, useValue)
		// A chat variable tested for members is JSON passed to
		// apply_chat_template: a list, a dict or a string.
		c.chatDynamic(y, e.Y.Pos())
		if holdsDynamic(x.Type()) || holdsDynamic(y.Type()) {
			if d, ok := y.(*ir.Dynamic); ok && (d.Op == ir.DynFilter || d.Op == ir.DynMapFilter || d.Op == ir.DynValues) {
				// in iterates a generator and compares with ==, as a list's
				// in does (a dict's keys() and items() hash instead).
				c.iterate(y)
			}
			return c.dynBinary(e, x, y)
		}
		c.staysTyped(e.Span, x, y)
		c.iterate(y)
		yt := y.Type()
		if yt.Kind == ir.KindUnknown {
			if x.Type().Kind == ir.KindString {
				c.constrain(yt, ir.KindString, e.Y.Pos())
			} else {
				c.constrain(yt, ir.KindList, e.Y.Pos())
			}
			yt = yt.Resolve()
		}
		switch yt.Kind {
		case ir.KindString:
			c.constrain(x.Type(), ir.KindString, e.X.Pos())
		case ir.KindList:
			c.unifyWeak(x.Type(), yt.Elem, e.X.Pos())
			c.later = append(c.later, func() {
				xk, ek := x.Type().Kind, yt.Resolve().Elem.Resolve().Kind
				switch {
				case !ir.IsScalar(ek):
					c.errorf(e.Y.Pos(), "membership test in a list of %s is not supported", yt.Resolve().Elem)
				case mixesBoolNumber(xk, ek) || xk == ir.KindFloat && ek == ir.KindInt:
					c.errorf(e.Span, "testing a %s in a list of %s is not supported", x.Type(), yt.Resolve().Elem)
				}
			})
		case ir.KindMap:
			c.constrain(x.Type(), ir.KindString, e.X.Pos())
		case ir.KindStruct, ir.KindDict:
			c.constrain(x.Type(), ir.KindString, e.X.Pos())
			c.keyTest(x, yt, e.X.Pos())
		default:
			c.errorf(e.Y.Pos(), "cannot test membership in %s", yt)
		}
		return &ir.Binary{Op: e.Op, X: x, Y: y, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(e.Span)}
	}
	return c.arith(e)
}

// logic checks an and/or whose value is used, which yields one of its
// operands as in Python: a or b is a when a is true, else b; a and b is b
// when a is true, else a. Operands that are and/or themselves are chosen
// from where they stand, so only the operands it can yield (yields) decide
// its type: flag and 'x' or 'y' is a string. Operands of different types
// make it mixed: typed as its str(), which is right only where it is
// printed (u == usePrint).
func (c *checker) logic(e *tmpl.Binary, u use) (out *ir.Binary, mixed bool) {
	operand := func(x tmpl.Expr, u use) ir.Expr {
		if b, ok := x.(*tmpl.Binary); ok && (b.Op == "and" || b.Op == "or") {
			x, _ := c.logic(b, u)
			return x
		}
		return c.expr(x, u)
	}
	// The left operand is tested, so it is a value, not its str().
	lu := useValue
	if b, ok := e.X.(*tmpl.Binary); ok && (b.Op == "and" || b.Op == "or") {
		lu = u
	}
	x := operand(e.X, lu)
	c.guard(x)
	hint(x.Type(), u)
	out = &ir.Binary{Op: e.Op, X: x, Y: operand(e.Y, u), Value: true, Pos: c.posString(e.Span)}
	leaves := yields(out)
	for _, l := range leaves {
		if holdsDynamic(l.Type()) { // a dynamic value, or a list of them (messages)
			for _, l := range leaves {
				c.dynOperand(l, e.Span)
			}
			out.T = ir.DynamicType()
			return out, false
		}
	}
	for i, a := range leaves {
		for _, b := range leaves[:i] {
			if unifiable(a.Type(), b.Type()) {
				c.unify(b.Type(), a.Type(), e.Span)
			}
		}
	}
	out.T = leaves[0].Type()
	for _, l := range leaves {
		if !ir.SameKind(l.Type(), out.T) {
			out.T, mixed = &ir.Type{Kind: ir.KindString}, true
		}
	}
	return out, mixed
}

// yields returns the operands that x, an and/or yielding an operand,
// yields: a left operand only where its truth makes it the result, which a
// constant's truth may rule out. The emitters choose among them with the
// same decisions (choose).
func yields(x ir.Expr) []ir.Expr {
	b, ok := x.(*ir.Binary)
	if !ok || !b.Value {
		return []ir.Expr{x}
	}
	var out []ir.Expr
	ir.BranchOn(b.X, func(leaf ir.Expr, truthy bool) {
		if truthy == (b.Op == "or") {
			out = append(out, leaf)
		} else {
			out = append(out, yields(b.Y)...)
		}
	})
	return out
}

// kindsOf lists the types of xs for messages: "int or string".
func kindsOf(xs []ir.Expr) string {
	var names []string
	for _, x := range xs {
		if n := x.Type().String(); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return strings.Join(names, " or ")
}

// keyTest checks 'key' in obj for an object or dict t, which tests its
// keys: an object's required fields and its optional fields that are set.
// A constant key an inferred object lacks becomes an optional field; a
// declared object without it is an error, as the test is always false.
func (c *checker) keyTest(x ir.Expr, t *ir.Type, sp tmpl.Span) {
	k, ok := x.(*ir.Const)
	if !ok || t.Kind != ir.KindStruct {
		return
	}
	key, _ := k.Value.(string)
	switch f := t.Field(key); {
	case f == nil && unreadableKey(t, key):
	case f == nil && t.Declared:
		c.errorf(sp, "object has no field %q, so this is always false%s", key, schema.DidYouMean(key, fieldKeys(t)))
	case f == nil:
		t.Fields = append(t.Fields, &ir.Field{Key: key, Type: &ir.Type{}, Optional: true, Pos: c.pos(sp)})
	case !t.Declared:
		f.Optional = true
	}
}

func (c *checker) arith(e *tmpl.Binary) ir.Expr {
	x, y := c.expr(e.X, useValue), c.expr(e.Y, useValue)
	if isDynamic(x) || isDynamic(y) {
		return c.dynBinary(e, x, y)
	}
	c.staysTyped(e.Span, x, y)
	xt, yt := x.Type(), y.Type()
	switch {
	case xt.Kind == ir.KindUnknown && yt.Kind == ir.KindUnknown:
		c.unify(xt, yt, e.Span)
		xt.Resolve().Hint = ir.KindInt
	case xt.Kind == ir.KindUnknown:
		c.constrain(xt, arithPeer(e.Op, yt.Kind, false), e.X.Pos())
	case yt.Kind == ir.KindUnknown:
		c.constrain(yt, arithPeer(e.Op, xt.Kind, true), e.Y.Pos())
	case xt.Kind == ir.KindList && yt.Kind == ir.KindList:
		c.unifyWeak(xt, yt, e.Span) // [] takes the other list's elements
	}
	out := &ir.Binary{Op: e.Op, X: x, Y: y, Pos: c.posString(e.Span)}
	if e.Op == "+" {
		const msg = "which escapes the other string (concatenate with ~, which does not)"
		c.checkMarkup(x, e.Span, "+ on", msg, y)
		c.checkMarkup(y, e.Span, "+ on", msg, x)
	}
	xt, yt = xt.Resolve(), yt.Resolve()
	switch t, ok := arithResult(e.Op, xt, yt); {
	case e.Op == "/":
		out.T = &ir.Type{Kind: ir.KindFloat}
	case ok:
		out.T = t
	default:
		out.T = xt // both unknown and unified, or an error reported below
	}
	if out.T.Kind == ir.KindInt && negativePower(e.Op, y) {
		out.T = &ir.Type{Kind: ir.KindFloat}
	}
	c.later = append(c.later, func() {
		t, ok := arithResult(e.Op, x.Type(), y.Type())
		switch {
		case !ok:
			c.errorf(e.Span, "unsupported operand types for %s: %s and %s", e.Op, x.Type(), y.Type())
		case t.Kind == ir.KindInt && negativePower(e.Op, y):
		case t.Kind != out.T.Resolve().Kind:
			out.T = t
		}
		c.checkConstInt(out, e.Span)
	})
	return out
}

// negativePower reports whether op is ** and y a negative constant int:
// Python's int to a negative int power is a float (2 ** -1 is 0.5). With
// an exponent known only at run time, the power is an int and a negative
// exponent fails the render.
func negativePower(op string, y ir.Expr) bool {
	v, ok := constInt(y)
	return op == "**" && ok && v.Sign() < 0
}

// checkConstInt reports an int expression of constants whose value does
// not fit in 64 bits, where its operands do: Jinja2's ints are unbounded,
// Go's would not compile or would wrap.
func (c *checker) checkConstInt(x ir.Expr, sp tmpl.Span) {
	v, ok := constInt(x)
	if !ok || v.IsInt64() {
		return
	}
	var operands []ir.Expr
	switch x := x.(type) {
	case *ir.Unary:
		operands = []ir.Expr{x.X}
	case *ir.Binary:
		operands = []ir.Expr{x.X, x.Y}
	}
	for _, o := range operands {
		if w, _ := constInt(o); !w.IsInt64() {
			return // reported there
		}
	}
	value := "this constant int expression"
	if v.BitLen() <= 64 {
		value += " is " + v.String() + ", which"
	}
	c.errorf(sp, "%s does not fit in 64 bits (Jinja2's ints are unbounded, promptgen's are Go ints)", value)
}

// constInt returns the exact value of an int expression of constants, as
// Python computes it; ok is false for any other expression, and for a
// division by zero, which fails at run time. A power too large to compute
// is returned as 2**64.
func constInt(x ir.Expr) (v *big.Int, ok bool) {
	if x.Type().Kind != ir.KindInt {
		return nil, false
	}
	switch x := x.(type) {
	case *ir.Const:
		return big.NewInt(x.Value.(int64)), true
	case *ir.Unary:
		a, ok := constInt(x.X)
		if ok && x.Op == "-" {
			a = new(big.Int).Neg(a)
		}
		return a, ok
	case *ir.Binary:
		a, okA := constInt(x.X)
		b, okB := constInt(x.Y)
		if !okA || !okB {
			return nil, false
		}
		r := new(big.Int)
		switch x.Op {
		case "+":
			return r.Add(a, b), true
		case "-":
			return r.Sub(a, b), true
		case "*":
			return r.Mul(a, b), true
		case "//", "%":
			if b.Sign() == 0 {
				return nil, false
			}
			q, m := new(big.Int).DivMod(a, b, r) // Euclidean: 0 <= m < |b|
			if m.Sign() != 0 && b.Sign() < 0 {
				q.Sub(q, big.NewInt(1)) // Python floors: m takes the sign of b
				m.Add(m, b)
			}
			if x.Op == "//" {
				return q, true
			}
			return m, true
		case "**":
			if b.Sign() < 0 {
				return nil, false // a float
			}
			if a.CmpAbs(big.NewInt(1)) > 0 && b.Cmp(big.NewInt(64)) > 0 {
				return r.Lsh(big.NewInt(1), 64), true
			}
			return r.Exp(a, b, nil), true
		}
	}
	return nil, false
}

// arithPeer is the kind an unknown operand takes when the other one is
// known: a string + x makes x a string, 2 * x an int, "ab" * x an int.
func arithPeer(op string, other ir.Kind, unknownIsRight bool) ir.Kind {
	switch {
	case other == ir.KindString && op == "+":
		return ir.KindString
	case other == ir.KindString && op == "*":
		return ir.KindInt
	case other == ir.KindList && op == "+":
		return ir.KindList
	case other == ir.KindList && op == "*":
		return ir.KindInt
	case other == ir.KindFloat:
		return ir.KindFloat
	}
	return ir.KindInt
}

func arithResult(op string, x, y *ir.Type) (*ir.Type, bool) {
	xk, yk := x.Kind, y.Kind
	switch {
	case ir.IsNumber(xk) && ir.IsNumber(yk) && xk != ir.KindBool && yk != ir.KindBool:
		if op == "/" || xk == ir.KindFloat || yk == ir.KindFloat {
			return &ir.Type{Kind: ir.KindFloat}, true
		}
		return &ir.Type{Kind: ir.KindInt}, true
	case op == "+" && xk == ir.KindString && yk == ir.KindString:
		return x, true
	case op == "+" && xk == ir.KindList && yk == ir.KindList && ir.SameKind(x.Elem.Resolve(), y.Elem.Resolve()):
		return x, true
	case op == "*" && xk == ir.KindString && yk == ir.KindInt:
		return x, true
	case op == "*" && xk == ir.KindInt && yk == ir.KindString:
		return y, true
	}
	return nil, false
}

// isComposite reports whether t is an object, a map, a dict or a list of
// them, which == would have to compare as Python dicts: not supported.
func isComposite(t *ir.Type) bool {
	switch t = t.Resolve(); t.Kind {
	case ir.KindStruct, ir.KindMap, ir.KindDict:
		return true
	case ir.KindList:
		return isComposite(t.Elem)
	}
	return false
}

// mixesBoolNumber reports whether a bool meets an int or number, which
// Python allows (True == 1) but the Go code cannot do without conversions.
func mixesBoolNumber(a, b ir.Kind) bool {
	return ir.IsNumber(a) && ir.IsNumber(b) && (a == ir.KindBool) != (b == ir.KindBool)
}

// printable checks, once types are final, that a printed value prints.
func (c *checker) printable(x ir.Expr, sp tmpl.Span) {
	c.readsWhole(x, sp, "printing")
	c.later = append(c.later, func() {
		if x.Type().Kind == ir.KindUnknown {
			c.errorf(sp, "cannot infer the type of this value (declare it in inputs)")
		}
	})
}
