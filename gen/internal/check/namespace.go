package check

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
)

// namespace() and its attributes.
//
// A namespace is a mutable object that Jinja2 shares by reference, which is
// how a template carries a value out of a loop. promptgen supports it where
// the object never needs to exist: a local set once, by
// {% set ns = namespace(a=...) %}, and used only through its attributes
// (ns.a, ns['a'], {% set ns.a = ... %}). Each attribute is then a local of
// the namespace's frame, typed by everything assigned to it, that starts
// undefined each time the frame does, as the set runs at most once per
// frame: exactly the object's attribute, without the object. A second set
// of the local to namespace(...) makes a new namespace, whose attributes
// are other locals, read from there on: what follows it sees only that
// one. After an if whose branches leave the local holding different
// namespaces, it holds the one its branch chose (mergeNamespaces). A bool
// local that each set of the local to namespace(...) makes true
// (nsSetLocal) tells whether it holds one: where that set may not have
// run, a read or set of an attribute tests it first, as Jinja2 fails on
// an attribute of what is not a namespace.

// namespace is a local set to namespace(...).
type namespace struct {
	attrs  map[string]*ir.Local
	locals *[]*ir.Local // the locals of the frame that holds the namespace
}

// mergeNamespaces is what the locals hold after an if whose branches (the
// else, possibly empty, included) end with the namespaces of ends, the
// locals assigned of states and the bodies of bodies, from the
// namespaces of start: a local left as it was, or set in some branches to
// one namespace where it held none (maybe set), keeps it. One left holding
// different namespaces holds the one its branch chose: a namespace of its
// own, whose attributes each branch sets, at its end, to those of the
// namespace it leaves (an attribute that one lacks stays undefined there).
// A namespace is used only through its attributes, so nothing else sees
// the one whose attributes are copied.
func (c *checker) mergeNamespaces(start map[*ir.Local]*namespace, ends []map[*ir.Local]*namespace, states []map[*ir.Local]assignState, bodies []*[]ir.Node, sp tmpl.Span) map[*ir.Local]*namespace {
	out := map[*ir.Local]*namespace{}
	maps.Copy(out, start)
	merged := map[*ir.Local]bool{}
	here := c.assigned
	defer func() { c.assigned = here }()
	for _, end := range ends {
		for _, l := range slices.SortedFunc(maps.Keys(end), byGoName) {
			if merged[l] {
				continue
			}
			merged[l] = true
			var set []*namespace // the namespaces the branches leave, but none
			for _, e := range ends {
				if ns := e[l]; ns != nil && !slices.Contains(set, ns) {
					set = append(set, ns)
				}
			}
			if len(set) == 1 && (start[l] == nil || !slices.ContainsFunc(ends, func(e map[*ir.Local]*namespace) bool { return e[l] == nil })) {
				out[l] = set[0]
				continue
			}
			chosen := &namespace{attrs: map[string]*ir.Local{}, locals: set[0].locals}
			var attrs []string
			for _, ns := range set {
				attrs = append(attrs, slices.Collect(maps.Keys(ns.attrs))...)
			}
			slices.Sort(attrs)
			for _, name := range slices.Compact(attrs) {
				for i, e := range ends {
					from := e[l].attrAssigned(name, states[i])
					if from == nil || !ir.FallsThrough(*bodies[i]) {
						continue
					}
					c.assigned = states[i]
					if c.assigned[from] != assigned {
						from.MaybeUndefined = true
					}
					c.readLocal(from, sp)
					*bodies[i] = append(*bodies[i], c.assignLocal(c.nsAttr(chosen, name), &ir.Set{Value: &ir.LocalRef{L: from}}, from.T, sp))
				}
			}
			out[l] = chosen
		}
	}
	return out
}

// attrAssigned returns the local of attribute name of ns where it may be
// assigned, by assigned, or nil.
func (ns *namespace) attrAssigned(name string, assigned map[*ir.Local]assignState) *ir.Local {
	if ns == nil || ns.attrs[name] == nil || assigned[ns.attrs[name]] == unassigned {
		return nil
	}
	return ns.attrs[name]
}

// nsAttr returns the local of attribute name, making it.
func (c *checker) nsAttr(ns *namespace, name string) *ir.Local {
	if l := ns.attrs[name]; l != nil {
		return l
	}
	l := c.newLocal(name, c.localType(name))
	ns.attrs[name] = l
	*ns.locals = append(*ns.locals, l)
	return l
}

// isNamespaceCall reports whether x calls Jinja2's global namespace().
func (c *checker) isNamespaceCall(x tmpl.Expr) (*tmpl.Call, bool) {
	call, ok := x.(*tmpl.Call)
	if !ok {
		return nil, false
	}
	fn, ok := call.Fn.(*tmpl.Name)
	return call, ok && fn.Name == "namespace" && c.lookup("namespace") == nil
}

// namespaceSet checks {% set ns = namespace(k=v, ...) %}: the keyword
// arguments are the attributes' first values.
func (c *checker) namespaceSet(n *tmpl.Set, call *tmpl.Call) []ir.Node {
	name := n.Targets[0].Name
	sc := c.scopes[len(c.scopes)-1]
	l := sc.names[name]
	switch prev := c.namespaces[l]; {
	case prev != nil:
	case l.T.Resolve().Kind != ir.KindUnknown || c.assigned[l] != unassigned:
		c.errorf(n.Span, "%q is set to a namespace here and to another value elsewhere, which promptgen does not support", name)
		return nil
	case len(call.Args) > 0:
		c.errorf(call.Args[0].Pos(), "namespace() takes keyword arguments only here (namespace(a=1, b='x'))")
		return nil
	}
	values := make([]ir.Expr, len(call.Kwargs))
	for i, kw := range call.Kwargs {
		values[i] = c.asIterator(c.expr(kw.Value, useValue), kw.Value.Pos())
	}
	ns := &namespace{attrs: map[string]*ir.Local{}, locals: sc.locals}
	if c.namespaces == nil {
		c.namespaces = map[*ir.Local]*namespace{}
	}
	c.namespaces[l] = ns
	c.assigned[l] = assigned
	var out []ir.Node
	out = append(out, c.assignLocal(c.nsSetLocal(l, sc), &ir.Set{Value: constExpr(true)}, &ir.Type{Kind: ir.KindBool}, n.Span))
	for i, kw := range call.Kwargs {
		if ns.attrs[kw.Name] != nil {
			c.errorf(kw.NameSpan, "namespace() got keyword argument %q twice", kw.Name)
			continue
		}
		out = append(out, c.stored(c.assignLocal(c.nsAttr(ns, kw.Name), &ir.Set{Value: values[i]}, values[i].Type(), n.Span), name+"."+kw.Name, kw.NameSpan))
	}
	return out
}

// nsSetLocal returns the local that the sets of local l, of scope sc, to
// namespace(...) make true, making it. Its Go name is l's with a suffix
// (goName's end in a digit), so that it takes no number from the other
// locals: the code of a template that never reads it is as before.
func (c *checker) nsSetLocal(l *ir.Local, sc *scope) *ir.Local {
	w := c.nsSet[l]
	if w == nil {
		w = &ir.Local{Name: l.Name, GoName: l.GoName + "Set", T: &ir.Type{Kind: ir.KindBool}}
		*sc.locals = append(*sc.locals, w)
		if c.nsSet == nil {
			c.nsSet = map[*ir.Local]*ir.Local{}
		}
		c.nsSet[l] = w
	}
	return w
}

// namespaceOf returns the namespace that name holds here, for a read or
// set of its attribute. When name is a local that may
// not hold its namespace yet, it is undefined where it does not, and
// Jinja2 fails reading or setting an attribute there: set is the local
// that is defined exactly where it holds one (nsSetLocal), which the
// read or set tests first. A name that is no namespace returns nil and ok
// true; one that may be the enclosing value is reported at sp, and ok is
// false.
func (c *checker) namespaceOf(name string, sp tmpl.Span) (ns *namespace, set *ir.Local, ok bool) {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		sc := c.scopes[i]
		l := sc.names[name]
		if l == nil {
			continue
		}
		st := c.assigned[l]
		if st == unassigned && sc.outer[l] {
			continue // the enclosing value still
		}
		ns := c.namespaces[l]
		switch {
		case ns == nil || st == assigned:
		case sc.outer[l] && !c.undefinedOutside(i, name):
			// Where the set has not run, name is the enclosing value.
			c.errorf(sp, "%q may be the enclosing value here, as the set of it to namespace(...) in this frame may not have run: promptgen supports that set only where it surely runs before this use", name)
			return nil, nil, false
		default:
			w := c.nsSet[l]
			w.MaybeUndefined = true
			c.readLocal(w, sp)
			return ns, w, true
		}
		return ns, nil, true
	}
	return nil, nil, true
}

// undefinedOutside reports whether name is undefined outside scope i
// here: the innermost enclosing scope with a local of it has not assigned
// it yet (its set comes later), or none has and the feed has no field of
// it (the template's variable, which Jinja2 reads there, is undefined).
func (c *checker) undefinedOutside(i int, name string) bool {
	for j := i - 1; j >= 0; j-- {
		sc := c.scopes[j]
		l := sc.names[name]
		switch {
		case l == nil:
		case c.assigned[l] != unassigned:
			return false
		case !sc.outer[l]:
			return true // undefined until its set
		}
	}
	return c.feed.Field(name) == nil
}

// setAttr checks {% set ns.attr = value %} and its block form.
func (c *checker) setAttr(n *tmpl.Set) []ir.Node {
	ns, set, ok := c.namespaceOf(n.NS.Name, n.NS.Span)
	if !ok {
		return nil
	}
	switch {
	case ns == nil && c.lookup(n.NS.Name) == nil && c.templateName(n.NS):
		return nil // the template's namespace, which a macro that calls itself cannot set
	case ns == nil:
		return c.setAttrOfOther(n)
	}
	var out ir.Node
	if n.Value == nil {
		out = c.assignLocal(c.nsAttr(ns, n.Attr), &ir.Set{Body: c.setBody(n.Body)}, &ir.Type{Kind: ir.KindString}, n.Span)
	} else {
		c.leadCall = leading(n.Value)
		v := c.asIterator(c.expr(n.Value, useValue), n.Value.Pos())
		out = c.stored(c.assignLocal(c.nsAttr(ns, n.Attr), &ir.Set{Value: v}, v.Type(), n.Span), n.NS.Name+"."+n.Attr, n.Span)
	}
	if set == nil {
		return []ir.Node{out}
	}
	if n.Value == nil {
		// Jinja2 renders the body before it tests the namespace, and
		// fails after it: what the set stored before is of no matter.
		unset := &ir.Call{Kind: ir.CallTest, Name: "defined", Not: true, X: &ir.LocalRef{L: set}, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(n.NS.Span)}
		return []ir.Node{out, &ir.If{Branches: []ir.Branch{{Cond: unset, Body: []ir.Node{c.setAttrFails(n.NS.Span)}}}}}
	}
	// Jinja2 tests the namespace before it evaluates the value.
	isSet := &ir.Call{Kind: ir.CallTest, Name: "defined", X: &ir.LocalRef{L: set}, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(n.NS.Span)}
	return []ir.Node{&ir.If{Branches: []ir.Branch{{Cond: isSet, Body: []ir.Node{out}}}, Else: []ir.Node{c.setAttrFails(n.NS.Span)}}}
}

// setAttrOfOther checks {% set x.attr = value %} of an x that is not a
// namespace, which Jinja2 fails where it runs (TemplateRuntimeError),
// before it evaluates value. Where it always runs (at the template's top
// level) it is an error; where it may not (in an if, a loop or a macro),
// a warning and the render fails where it runs. So it is at the top level
// of a plain template file, which may be a part that another includes
// where x is the includer's namespace (the include checks it there). The
// block form renders its body first, and fails after it.
func (c *checker) setAttrOfOther(n *tmpl.Set) []ir.Node {
	msg := fmt.Sprintf("cannot assign an attribute of %q, which is not a namespace (set it with {%% set %s = namespace(...) %%})", n.NS.Name, n.NS.Name)
	if !c.mayNotRun() {
		c.errorf(n.NS.Span, "%s", msg)
		return nil
	}
	c.diags.Warnf(c.pos(n.NS.Span), "%s: Jinja2 fails where it runs, and so does the render", msg)
	if n.Value != nil {
		// value is not checked: it never runs, and what it reads would be
		// declared for nothing.
		return []ir.Node{c.setAttrFails(n.NS.Span)}
	}
	// Jinja2 renders the body before it tests x: its errors come first.
	body := c.newLocal(n.Attr, &ir.Type{Kind: ir.KindString})
	sc := c.scopes[len(c.scopes)-1]
	*sc.locals = append(*sc.locals, body)
	return []ir.Node{c.assignLocal(body, &ir.Set{Body: c.setBody(n.Body)}, body.T, n.Span), c.setAttrFails(n.NS.Span)}
}

// setAttrFails fails the render as Jinja2 fails setting an attribute of
// what is not a namespace, at sp.
func (c *checker) setAttrFails(sp tmpl.Span) ir.Node {
	fails := c.dyn(ir.DynMissing, "setattr", ir.DynamicType(), sp, &ir.Const{T: &ir.Type{Kind: ir.KindNone}}) // an operation has an operand
	return &ir.Print{X: fails, Pos: c.posString(sp)}
}

// namespaceAttr reads attribute name of x when x names a namespace: the
// attribute's local, undefined where it may not be assigned yet, as a
// missing attribute is.
func (c *checker) namespaceAttr(x tmpl.Expr, name string, u use) (ir.Expr, bool) {
	n, ok := x.(*tmpl.Name)
	if !ok {
		return nil, false
	}
	ns, set, ok := c.namespaceOf(n.Name, n.Span)
	switch {
	case !ok || ns == nil && c.lookup(n.Name) == nil && c.templateName(n):
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}, true
	case ns == nil:
		return nil, false
	}
	l := c.nsAttr(ns, name)
	if c.assigned[l] != assigned {
		l.MaybeUndefined = true
	}
	hint(l.T, u)
	c.readLocal(l, n.Span)
	if set != nil {
		ref := &ir.LocalRef{L: l}
		// The render fails with ErrUndefined where name holds no
		// namespace, as Jinja2 fails reading its attribute.
		isSet := &ir.Strict{X: &ir.LocalRef{L: set}, Pos: c.posString(n.Span)}
		return &ir.Cond{Cond: isSet, Then: ref, Else: ref, T: l.T}, true
	}
	return &ir.LocalRef{L: l}, true
}

// wholeNamespace reports a use of namespace local l other than through its
// attributes.
func (c *checker) wholeNamespace(l *ir.Local, sp tmpl.Span) bool {
	if c.namespaces[l] == nil {
		return false
	}
	c.errorf(sp, "namespace %q is supported only through its attributes (%s.attr): promptgen holds a namespace as one local per attribute, not as a value that a list, another namespace or another name could share, as Jinja2 shares it by reference", l.Name, l.Name)
	return true
}

// byGoName orders locals by their Go names, which are unique.
func byGoName(a, b *ir.Local) int { return strings.Compare(a.GoName, b.GoName) }
