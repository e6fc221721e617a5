package check

import (
	"fmt"
	"maps"
	"slices"

	"github.com/promptgen/promptgen/gen/internal/builtins"
	"github.com/promptgen/promptgen/gen/internal/idtrack"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
)

// template checks body as a template's top frame and stores it in x.
func (c *checker) template(body []tmpl.Node, x *ir.Prompt) {
	c.scopes, c.assigned = nil, map[*ir.Local]assignState{}
	c.macros = newMacros(body, c.m)
	c.bound = boundNames(body)
	c.dictUses = map[string]bool{}
	addDictUses(c.dictUses, body)
	c.enter(idtrack.Frame(nil, nil, body), &x.Locals, nil)
	c.macros.top = slices.Clip(c.scopes)
	x.Body = c.leave(c.nodes(body))
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
		c.leadCall = leading(n.X)
		c.folded = foldedSlice(n.X)
		x := c.printed(c.expr(n.X, usePrint), n.X.Pos())
		c.methodsPrinted(x, n.X.Pos())
		c.printable(x, n.X.Pos())
		inlinePrinted(x)
		return []ir.Node{&ir.Print{X: x, Pos: c.posString(n.X.Pos())}}
	case *tmpl.If:
		defer func(soft bool) { c.soft = soft }(c.soft)
		c.soft = true
		out := &ir.If{}
		start := maps.Clone(c.assigned)
		var ends []map[*ir.Local]assignState
		// A macro defined in a branch is defined for the rest of it, and
		// maybe defined after the if.
		macros := maps.Clone(c.macros.defined)
		var defined []map[string]*tmpl.Macro
		namespaces := maps.Clone(c.namespaces)
		var nsEnds []map[*ir.Local]*namespace
		for i, b := range n.Branches {
			var cond ir.Expr
			if i == 0 {
				cond = c.condition(b.Cond)
			} else {
				cond = c.optionally(b.Cond, c.condition)
			}
			c.inIf++
			out.Branches = append(out.Branches, ir.Branch{Cond: cond, Body: c.nodes(b.Body)})
			c.inIf--
			ends = append(ends, c.assigned)
			defined = append(defined, c.macros.defined)
			nsEnds = append(nsEnds, c.namespaces)
			c.assigned = maps.Clone(start)
			c.macros.defined = maps.Clone(macros)
			c.namespaces = maps.Clone(namespaces)
		}
		c.inIf++
		out.Else = c.nodes(n.Else)
		c.inIf--
		c.mergeDefined(macros, append(defined, c.macros.defined))
		ends = append(ends, c.assigned)
		bodies := make([]*[]ir.Node, 0, len(ends))
		for i := range out.Branches {
			bodies = append(bodies, &out.Branches[i].Body)
		}
		c.namespaces = c.mergeNamespaces(namespaces, append(nsEnds, c.namespaces), ends, append(bodies, &out.Else), n.Span)
		c.assigned = mergeAssigned(ends)
		return []ir.Node{out}
	case *tmpl.For:
		return []ir.Node{c.forLoop(n)}
	case *tmpl.Set:
		return c.set(n)
	case *tmpl.Include:
		if c.inSet == nil {
			// Inside a macro's body or a call block's too: checked with
			// the body (in each call, or once for a macro that calls
			// itself), it sees what Jinja2 passes it there (the macro's
			// locals and the template's context).
			return c.includeFile(n)
		}
		if len(c.macros.calling) > 0 {
			c.errorf(n.Span, "include of a component inside a macro is not supported")
			return nil
		}
		return c.include(n)
	case *tmpl.LoopControl:
		return c.loopControl(n)
	case *tmpl.Generation:
		return c.generation(n)
	case *tmpl.FilterBlock:
		return c.filterBlock(n)
	case *tmpl.Macro:
		return c.defineMacro(n, c.inIf > 0)
	case *tmpl.CallBlock:
		return c.callBlock(n)
	}
	panic(fmt.Sprintf("check: unexpected node %T", n))
}

// oneValueType reports whether the values of dict type t may have one
// type.
func oneValueType(t *ir.Type) bool {
	for i, f := range t.Fields {
		for _, g := range t.Fields[:i] {
			if !types.Unifiable(f.Type, g.Type) {
				return false
			}
		}
	}
	return true
}

// dictValues is the type of every value of dict type t, whose items a
// loop iterates: they must have one.
func (c *checker) dictValues(t *ir.Type, sp tmpl.Span) *ir.Type {
	v := &ir.Type{}
	for _, f := range t.Fields {
		if !types.Unifiable(v, f.Type) {
			c.errorf(sp, "items() of a dict literal needs values of one type, not %s and %s", v, f.Type)
			return v
		}
		c.unify(v, f.Type, sp)
	}
	return v
}

func (c *checker) forLoop(n *tmpl.For) ir.Node {
	out := &ir.For{Pos: c.posString(n.Iter.Pos())}
	c.loops = append(c.loops, out)
	targetTypes, pairs := c.forIter(n, out)
	params := make([]*ir.Local, len(n.Targets))
	for i, t := range n.Targets {
		params[i] = c.newLocal(t.Name, targetTypes[i])
		c.assignedWithoutValue(params[i])
		if targetTypes[i].Resolve().Kind != ir.KindDynamic {
			c.later = append(c.later, func() {
				if params[i].T.Resolve().Kind == ir.KindDynamic {
					// The body sets it to a dynamic value: checked again
					// with the items read as dynamic values (forIter).
					c.rebinding[t.Name] = true
					c.errorf(t.Span, "loop variable %q is set to a dynamic value in the loop, and the items it takes are typed: not supported", t.Name)
				}
			})
		}
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
		c.enter(idtrack.Frame(parent.sym, n.Targets, nil), &out.Locals, nil, params...)
		out.Filter = c.condition(n.Filter)
		c.leave(nil)
	}
	start := maps.Clone(c.assigned)
	// A macro defined in the body or the else is a local of its frame.
	restore := c.loopFrame(n)
	c.enter(idtrack.Frame(parent.sym, n.Targets, n.Body), &out.Locals, out, params...)
	out.Body = c.leave(c.nodes(n.Body))
	restore()
	body := c.assigned
	c.assigned = mergeAssigned(append(c.loopExits[out], start)) // where the else starts
	if n.Else != nil {
		c.enter(idtrack.Frame(parent.sym, nil, n.Else), parent.locals, nil)
		out.Else = c.leave(c.nodes(n.Else))
	}
	restore()
	c.macros.loopNames = c.macros.loopNames[:len(c.macros.loopNames)-1]
	c.assigned = c.loopEnd(out, body, c.assigned)
	return out
}

// loopFrame records the names loop n binds, for the macros defined in
// it (loopMacro), and returns a func that forgets the macros defined
// since, as they are locals of the loop's frame.
func (c *checker) loopFrame(n *tmpl.For) func() {
	names := boundNames(n.Body)
	maps.Copy(names, boundNames(n.Else))
	for _, t := range n.Targets {
		names[t.Name] = true
	}
	names["loop"] = true
	c.macros.loopNames = append(c.macros.loopNames, names)
	defined, maybe, twice := maps.Clone(c.macros.defined), maps.Clone(c.macros.maybe), maps.Clone(c.macros.twice)
	return func() {
		c.macros.defined, c.macros.maybe, c.macros.twice = maps.Clone(defined), maps.Clone(maybe), maps.Clone(twice)
	}
}

// reboundTarget reports whether a target of n is a name a previous check
// found set to values of several types (localType).
func (c *checker) reboundTarget(n *tmpl.For) bool {
	return slices.ContainsFunc(n.Targets, func(t *tmpl.Name) bool { return c.rebound[t.Name] })
}

// forIter checks the iterable of n into out and returns the type of each
// loop target, and whether they are a map's key and value.
func (c *checker) forIter(n *tmpl.For, out *ir.For) ([]*ir.Type, bool) {
	targetTypes := make([]*ir.Type, len(n.Targets))
	str := &ir.Type{Kind: ir.KindString}
	// A loop in a macro that the iterable calls sets its own while this
	// one's is checked.
	defer func(outer tmpl.Expr) { c.loopIter = outer }(c.loopIter)
	c.loopIter = n.Iter
	if what, ok := c.items(n.Iter, out); ok {
		m := out.Iter.Type()
		val := m.Elem
		if d, ok := out.Iter.(*ir.Dynamic); ok && d.Op != ir.DynItems {
			// dictsort of a dynamic value: a list of (key, value) tuples.
			for i := range targetTypes {
				targetTypes[i] = ir.DynamicType()
			}
			return targetTypes, false
		}
		if d, ok := out.Iter.(*ir.Dynamic); ok && d.Op == ir.DynValues {
			targetTypes[0] = ir.DynamicType()
			return targetTypes, false
		}
		if d, ok := out.Iter.(*ir.Dynamic); ok && d.Op == ir.DynItems {
			if len(n.Targets) != 2 {
				c.errorf(n.Span, "%s yields pairs: write \"for key, value in ...\"", what)
			}
			for i := range targetTypes {
				targetTypes[i] = ir.DynamicType()
			}
			return targetTypes, true
		}
		if c.rejected[out.Iter] {
			// Reported: the targets are dynamic, whose uses report
			// nothing more.
			for i := range targetTypes {
				targetTypes[i] = ir.DynamicType()
			}
			return targetTypes, true
		}
		switch {
		case m.Kind == ir.KindDict:
			val = c.dictValues(m, n.Iter.Pos())
		case m.Kind == ir.KindMap:
		default:
			val = &ir.Type{Kind: ir.KindNone} // reported
		}
		if what == "values()" {
			// The map's items, the key unused.
			if len(n.Targets) != 1 {
				c.errorf(n.Span, "values() of a map or dict unpacked into %d targets is not supported: write \"for value in ...\"", len(n.Targets))
			}
			out.Key, out.Values = c.newLocal("key", str), true
			for i := range targetTypes {
				targetTypes[i] = val
			}
			return targetTypes, false
		}
		if len(n.Targets) != 2 {
			c.errorf(n.Span, "%s yields pairs: write \"for key, value in ...\"", what)
		}
		for i := range targetTypes {
			targetTypes[i] = val
		}
		targetTypes[0] = str
		return targetTypes, true
	}
	out.Iter = c.expr(n.Iter, useValue)
	c.iterate(out.Iter)
	out.Strict = builtins.IsMethodCall(n.Iter, "keys") // keys() of undefined raises
	if c.reboundTarget(n) && (out.Iter.Type().Kind == ir.KindList || out.Iter.Type().Kind == ir.KindString) {
		// A target the body sets to a dynamic value is dynamic: the items
		// are read as dynamic values.
		out.Iter = c.dyn(ir.DynList, "", ir.DynamicType(), n.Iter.Pos(), out.Iter)
	}
	it := out.Iter.Type()
	if it.Kind == ir.KindDynamic || c.rejected[out.Iter] {
		// A rejected iterable's targets are dynamic, whose uses report
		// nothing more.
		for i := range targetTypes {
			targetTypes[i] = ir.DynamicType()
		}
		return targetTypes, false
	}
	if it.Kind == ir.KindUnknown {
		c.constrain(it, ir.KindList, n.Iter.Pos())
	}
	elem := str
	switch it = it.Resolve(); it.Kind {
	case ir.KindList:
		elem = it.Elem
	case ir.KindString, ir.KindMap, ir.KindDict:
	case ir.KindStruct:
		if it.Declared || it.Go != nil {
			c.errorf(n.Iter.Pos(), "cannot loop over %s", it)
			break
		}
		// A dict of the data whose keys the template reads: a map where
		// it also loops over them (the prompt is checked again so), as
		// items() does.
		c.constrain(it, ir.KindMap, n.Iter.Pos())
	case ir.KindInt, ir.KindFloat, ir.KindBool, ir.KindNone:
		msg := fmt.Sprintf("cannot loop over %s", it)
		iter, undef := out.Iter, ir.MaybeUndefined(out.Iter)
		if undef && (!c.mayNotRun() || callsIn(n.Iter)) {
			// Jinja2 loops over no item of an undefined; where it may not
			// run, the test of that evaluates the iterable once more.
			c.errorf(n.Iter.Pos(), "%s", msg)
			break
		}
		if fails := c.failsWhereRuns(n.Iter.Pos(), "TypeError", msg, out.Iter); !c.rejected[fails] {
			out.Iter = fails
			if undef {
				// No item where it is undefined: the conditional without
				// an else is undefined there.
				defined := &ir.Call{Kind: ir.CallTest, Name: "defined", X: iter, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(n.Iter.Pos())}
				out.Iter = &ir.Cond{Cond: defined, Then: fails, T: ir.DynamicType()}
			}
			for i := range targetTypes {
				targetTypes[i] = ir.DynamicType()
			}
			return targetTypes, false
		}
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
	case it.Kind == ir.KindList && elem.Resolve().Kind == ir.KindDynamic:
		item = ir.DynamicType() // tuples, unpacked at run time
	case it.Kind == ir.KindMap:
		c.errorf(n.Targets[0].Span, "cannot unpack the keys of a map into %d loop targets (iterate its items: m.items(), m|items or m|dictsort)", len(n.Targets))
	case it.Kind == ir.KindList && elem.Resolve().Kind == ir.KindList:
		item = elem.Resolve().Elem
	case it.Kind == ir.KindList || it.Kind == ir.KindString:
		c.errorf(n.Targets[0].Span, "cannot unpack the items of a %s into %d loop targets: they must be lists", it, len(n.Targets))
	}
	for i := range targetTypes {
		targetTypes[i] = item
	}
	return targetTypes, false
}

// items checks an iterable that yields the (key, value) pairs of a map,
// m.items(), m|items or m|dictsort, into out. It returns what yields them,
// for messages, or false for another iterable.
func (c *checker) items(e tmpl.Expr, out *ir.For) (string, bool) {
	switch f := e.(type) {
	case *tmpl.Call:
		if !builtins.IsMethodCall(f, "items") && !builtins.IsMethodCall(f, "values") {
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
		// A dict literal is a dynamic value here, whose pairs are dynamic
		// values (its keys in order); its values must convert to one
		// (dynOperand).
		if isDynamic(x) || x.Type().Kind == ir.KindDict {
			if f.Name == "dictsort" {
				// A list of (key, value) tuples, unpacked as any list.
				out.Iter = c.dynFilter(&filterUse{e: f, name: "dictsort", x: x, args: args})
				return "", true
			}
			out.Iter = c.dyn(ir.DynItems, "", ir.DynamicType(), f.Span, x)
			return f.Name, true
		}
		if k := x.Type().Resolve().Kind; !c.rejected[x] && k != ir.KindUnknown && k != ir.KindMap && k != ir.KindStruct {
			// Of a string, a number, a list...: as the filters outside a
			// loop, but iterated at once (items of undefined is empty).
			msg, exc := fmt.Sprintf("filter items needs a map, dict or object, not %s (Jinja2 raises TypeError)", x.Type()), "TypeError"
			if f.Name == "dictsort" {
				msg, exc = fmt.Sprintf("filter dictsort needs a map, dict or object, not %s (Jinja2 raises AttributeError: it calls items())", x.Type()), "AttributeError"
			}
			if f.Name == "items" && ir.MaybeUndefined(x) {
				c.errorf(f.NameSpan, "%s", msg)
				x = c.reject()
			} else {
				x = c.failsWhereRuns(f.NameSpan, exc, msg, x, evaluatedTrue(args...))
			}
			if !c.rejected[x] {
				x = c.dyn(ir.DynItems, "", ir.DynamicType(), f.Span, x)
			}
			out.Iter = x
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
		if !c.rejected[x] {
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
		c.leadCall = leading(n.Value)
		out := &ir.Set{Value: c.asIterator(c.expr(n.Value, useValue), n.Value.Pos())}
		return []ir.Node{c.stored(c.assign(n.Targets[0].Name, out, out.Value.Type(), n.Span), n.Targets[0].Name, n.Span)}
	}
	return c.tupleSet(n)
}

// assign sets name's local in the current scope to out's value, of type
// t, and completes out.
func (c *checker) assign(name string, out *ir.Set, t *ir.Type, sp tmpl.Span) *ir.Set {
	l := c.scopes[len(c.scopes)-1].names[name]
	if c.namespaces[l] != nil {
		c.errorf(sp, "%q is set to a namespace and to another value, which promptgen does not support: it holds a namespace as one local per attribute, not as a value a name may hold in turn with others", name)
	}
	return c.assignLocal(l, out, t, sp)
}

// assignLocal sets local l to out's value, of type t, and completes out.
func (c *checker) assignLocal(l *ir.Local, out *ir.Set, t *ir.Type, sp tmpl.Span) *ir.Set {
	out.Local = l
	lt, vt := l.T.Resolve(), types.Slot(t).Resolve()
	switch {
	case l.T.Kind == ir.KindDynamic:
		// A local made dynamic (localType) holds values of several types:
		// each set stores its value as a dynamic value. A chat variable
		// not typed yet is JSON data: dynamic too.
		if vt.Kind == ir.KindUnknown && c.p.Chat {
			c.unify(vt, ir.DynamicType(), sp)
		}
		hint(vt, usePrint)
		if out.Value != nil {
			c.readsWhole(out.Value, sp, "converting it to a dynamic value")
		}
		c.later = append(c.later, func() { c.heldDynamic(l, out.Value, vt, sp) })
	case (c.setBefore[l] || c.unvalued[l]) && (types.Rebinds(lt, vt) || typedThenDynamic(lt, vt) || rebindsObject(lt, vt)):
		// Checked again with the local dynamic (see Prompt): this error
		// stays only if that fails too. A loop's target is dynamic then,
		// its items read as dynamic values (forIter).
		c.rebinding[l.Name] = true
		c.errorf(sp, "%q is set to values of types %s and %s", l.Name, lt, vt)
	case lt.Kind != ir.KindUnknown && vt.Kind != ir.KindUnknown && !types.Unifiable(lt, vt):
		if (types.Rebinds(lt, vt) || rebindsObject(lt, vt)) && !c.enclosed(l) {
			// Undefined until this set, its type came from uses that see
			// it undefined ({% set x %}{{ x|default(1) }}{% endset %}):
			// checked again as a dynamic value, unless it is an input.
			c.later = append(c.later, func() {
				if c.feed.Field(l.Name) == nil {
					c.rebinding[l.Name] = true
				}
			})
		}
		c.errorf(sp, "%q is set to values of types %s and %s: a variable holds values of several types only when each is a string, number, bool, none, or a list or dict literal of them", l.Name, lt, vt)
	default:
		c.unify(l.T, vt, sp)
	}
	c.assigned[out.Local] = assigned
	c.setBefore[out.Local] = true
	c.trackUndefined(out)
	return out
}

// enclosed reports whether local l starts with the value of a local of an
// enclosing frame.
func (c *checker) enclosed(l *ir.Local) bool {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if c.scopes[i].names[l.Name] == l {
			return c.scopes[i].outer[l] && slices.ContainsFunc(c.scopes[:i], func(sc *scope) bool { return sc.names[l.Name] != nil })
		}
	}
	return true
}

// heldDynamic checks, once types are final, a value x of type t (nil for
// a block set's text) that local l, which holds values of several types,
// holds as a dynamic value: it must convert to one, and an object whose
// fields are inferred is read through it only with keys among them
// (checkDynObjects).
func (c *checker) heldDynamic(l *ir.Local, x ir.Expr, t *ir.Type, sp tmpl.Span) {
	switch {
	case !types.OperandConverts(t):
		c.errorf(sp, "%q is set to values of several types, and a %s cannot be one of them (only strings, numbers, bools, none, objects, maps, and lists and dicts of them)", l.Name, t)
	case x != nil && types.InferredObjectIn(t):
		c.dynObject(x, sp)
	}
}

// rebindsObject reports whether a local of typed value lt is set to a
// value of type vt where one is an object, or a list whose items have no
// type yet (an empty list literal), and the other of another kind: checked
// again with the local dynamic, it holds the object as the dict of its
// fields, as Jinja2 does (heldDynamic checks that each converts, once the
// types are final).
func rebindsObject(lt, vt *ir.Type) bool {
	untyped := func(t *ir.Type) bool {
		return t.Kind == ir.KindStruct || t.Kind == ir.KindList && t.Elem.Resolve().Kind == ir.KindUnknown
	}
	return lt.Kind != ir.KindUnknown && vt.Kind != ir.KindUnknown && lt.Kind != vt.Kind && (untyped(lt) || untyped(vt))
}

// typedThenDynamic reports whether a local of typed value lt is set to a
// dynamic value vt. Unified, lt would become dynamic after the uses
// before this set were typed as lt (x if c else y of an int y stays an
// int); checked again as dynamic from the start, they are not.
func typedThenDynamic(lt, vt *ir.Type) bool {
	return vt.Kind == ir.KindDynamic && lt.Kind != ir.KindUnknown && lt.Kind != ir.KindDynamic && types.ConvertsToDynamic(lt)
}

// trackUndefined records out for markUndefined and markupLocal.
func (c *checker) trackUndefined(out *ir.Set) {
	if out.Value != nil {
		c.sets = append(c.sets, out)
	} else {
		c.assignedWithoutValue(out.Local)
	}
}

// assignedWithoutValue records l, which a loop or a block set assigns.
func (c *checker) assignedWithoutValue(l *ir.Local) {
	if c.unvalued == nil {
		c.unvalued = map[*ir.Local]bool{}
	}
	c.unvalued[l] = true
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

// tupleSet checks {% set a, b = x, y %}, which needs a value per target,
// and {% set a, b = x %}, which unpacks x as Python does (its items, of
// as many as targets, else the render fails). Python evaluates every
// value before it assigns a target, so when a value reads one of the
// targets ({% set a, b = b, a %}), the values go through temporaries
// first.
func (c *checker) tupleSet(n *tmpl.Set) []ir.Node {
	var items []tmpl.Expr
	switch v := n.Value.(type) {
	case *tmpl.Tuple:
		items = v.Items
	case *tmpl.List:
		items = v.Items
	default:
		return c.unpackSet(n)
	}
	if len(items) != len(n.Targets) {
		c.errorf(n.Value.Pos(), "set assigns %d values to %d targets", len(items), len(n.Targets))
		return nil
	}
	values := make([]ir.Expr, len(items))
	for i, it := range items {
		values[i] = c.asIterator(c.expr(it, useValue), it.Pos())
	}
	var out []ir.Node
	if c.readsTargets(values, n.Targets) {
		for i, v := range values {
			tmp := c.temporary(v)
			out = append(out, tmp)
			values[i] = &ir.LocalRef{L: tmp.Local}
		}
	}
	for i, target := range n.Targets {
		out = append(out, c.stored(c.assign(target.Name, &ir.Set{Value: values[i]}, values[i].Type(), n.Span), target.Name, n.Span))
	}
	return out
}

// unpackSet checks {% set a, b = x %}: x, evaluated once, is a dynamic
// value whose items the targets take, each a dynamic value.
func (c *checker) unpackSet(n *tmpl.Set) []ir.Node {
	v := c.expr(n.Value, useValue)
	if t := v.Type(); t.Kind == ir.KindUnknown {
		c.constrain(t, ir.KindList, n.Value.Pos())
	}
	if isDynamic(v) {
		// Python iterates it once: an iterator's items too.
		v = c.dyn(ir.DynList, "", ir.DynamicType(), n.Value.Pos(), v)
	}
	tmp := c.temporary(v)
	out := []ir.Node{tmp}
	for i, target := range n.Targets {
		item := c.dyn(ir.DynUnpacked, "", ir.DynamicType(), n.Value.Pos(), &ir.LocalRef{L: tmp.Local}, constExpr(int64(i)), constExpr(int64(len(n.Targets))))
		out = append(out, c.assign(target.Name, &ir.Set{Value: item}, item.Type(), n.Span))
	}
	return out
}

// temporary sets a new local of the current scope to v.
func (c *checker) temporary(v ir.Expr) *ir.Set {
	sc := c.scopes[len(c.scopes)-1]
	tmp := &ir.Set{Local: c.newLocal("v", v.Type()), Value: v}
	*sc.locals = append(*sc.locals, tmp.Local)
	c.trackUndefined(tmp)
	return tmp
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

// setBody checks the body of a block set, a frame of its own whose locals
// are declared with the enclosing ones, as it runs once each time they are.
func (c *checker) setBody(body []tmpl.Node) []ir.Node {
	sc := c.scopes[len(c.scopes)-1]
	c.enter(idtrack.Frame(sc.sym, nil, body), sc.locals, nil)
	c.scopes[len(c.scopes)-1].noLoopControl = "a block set"
	return c.leave(c.nodes(body))
}

// loopControl checks {% break %} or {% continue %}: it belongs to the
// innermost loop whose body it is in, as Python's, which the else block of
// a loop is not in. Jinja2 runs a block set's body and the generation
// block's where promptgen cannot stop a loop.
func (c *checker) loopControl(n *tmpl.LoopControl) []ir.Node {
	what := "continue"
	if n.Break {
		what = "break"
	}
	for i := len(c.scopes) - 1; i >= 0; i-- {
		sc := c.scopes[i]
		if sc.noLoopControl != "" {
			c.errorf(n.Span, "{%% %s %%} inside %s is not supported", what, sc.noLoopControl)
			return nil
		}
		if sc.loop != nil {
			if c.loopExits == nil {
				c.loopExits = map[*ir.For][]map[*ir.Local]assignState{}
			}
			c.loopExits[sc.loop] = append(c.loopExits[sc.loop], maps.Clone(c.assigned))
			return []ir.Node{&ir.LoopControl{For: sc.loop, Break: n.Break}}
		}
	}
	c.errorf(n.Span, "{%% %s %%} outside a for loop", what)
	return nil
}

// loopEnd is what is assigned after loop, given what is after its body
// and after no iteration (its else block): namespace attributes are the
// only locals a loop's body assigns that live on after it, and the body
// may run no time, or stop at a loop control.
func (c *checker) loopEnd(loop *ir.For, body, none map[*ir.Local]assignState) map[*ir.Local]assignState {
	return mergeAssigned(append(c.loopExits[loop], body, none))
}

// generation checks transformers' {% generation %} block, which renders
// its body: Jinja2 runs it as a macro, a frame of its own whose locals
// are declared with the enclosing ones.
func (c *checker) generation(n *tmpl.Generation) []ir.Node {
	sc := c.scopes[len(c.scopes)-1]
	c.enter(idtrack.Frame(sc.sym, nil, n.Body), sc.locals, nil)
	c.scopes[len(c.scopes)-1].noLoopControl = "a generation block"
	return c.leave(c.nodes(n.Body))
}

// callsIn reports whether e calls a macro, a function or a method, whose
// call evaluated twice may change something.
func callsIn(e tmpl.Expr) bool {
	calls := false
	tmpl.Inspect([]tmpl.Node{&tmpl.Output{X: e}}, func(tmpl.Node) {}, func(x tmpl.Expr) {
		if _, ok := x.(*tmpl.Call); ok {
			calls = true
		}
	})
	return calls
}
