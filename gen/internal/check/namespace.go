package check

import (
	"fmt"
	"maps"
	"slices"

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
// namespaces, it holds either (mergeNamespaces), whose attributes are
// neither read nor set.

// namespace is a local set to namespace(...).
type namespace struct {
	attrs map[string]*ir.Local
	// made are the attributes namespace(...) gives a value: where the
	// namespace may not be set, its attribute local is undefined exactly
	// where it is not.
	made   map[string]bool
	locals *[]*ir.Local // the locals of the frame that holds the namespace
	// either: one of several namespaces, as the branches of an if left it.
	either bool
}

// mergeNamespaces is what the locals hold after an if whose branches (the
// else, possibly empty, included) end with the namespaces of ends, from
// those of start: a local left as it was, or set in some branches to one
// namespace where it held none (maybe set), keeps it; one left holding
// different namespaces holds either.
func mergeNamespaces(start map[*ir.Local]*namespace, ends []map[*ir.Local]*namespace) map[*ir.Local]*namespace {
	out := map[*ir.Local]*namespace{}
	maps.Copy(out, start)
	merged := map[*ir.Local]bool{}
	for _, end := range ends {
		for l := range end {
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
			switch all := !slices.ContainsFunc(ends, func(e map[*ir.Local]*namespace) bool { return e[l] != set[0] }); {
			case all || start[l] == nil && len(set) == 1:
				out[l] = set[0]
			default:
				out[l] = &namespace{attrs: map[string]*ir.Local{}, made: map[string]bool{}, locals: set[0].locals, either: true}
			}
		}
	}
	return out
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
		values[i] = c.expr(kw.Value, useValue)
	}
	ns := &namespace{attrs: map[string]*ir.Local{}, made: map[string]bool{}, locals: sc.locals}
	if c.namespaces == nil {
		c.namespaces = map[*ir.Local]*namespace{}
	}
	c.namespaces[l] = ns
	c.assigned[l] = assigned
	var out []ir.Node
	for i, kw := range call.Kwargs {
		if ns.attrs[kw.Name] != nil {
			c.errorf(kw.NameSpan, "namespace() got keyword argument %q twice", kw.Name)
			continue
		}
		ns.made[kw.Name] = true
		out = append(out, c.stored(c.assignLocal(c.nsAttr(ns, kw.Name), &ir.Set{Value: values[i]}, values[i].Type(), n.Span), name+"."+kw.Name, kw.NameSpan))
	}
	return out
}

// namespaceOf returns the namespace that name holds here, for a read of
// its attribute read ("" for a set of one). When name is a local that may
// not hold its namespace yet, it is undefined where it does not, and
// Jinja2 fails reading or setting an attribute there: a read of an
// attribute namespace(...) gives a value returns strict true (the
// attribute is undefined exactly there), anything else is reported at sp
// and returns ok false. A name that is no namespace returns nil and ok
// true.
func (c *checker) namespaceOf(name string, sp tmpl.Span, read string) (ns *namespace, strict, ok bool) {
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
		case ns != nil && ns.either:
			c.errorf(sp, "%q holds one of several namespaces here, as the branches of an if set it to different ones: promptgen reads and sets its attributes only where one namespace(...) surely holds it", name)
			return nil, false, false
		case ns == nil || st == assigned:
		case sc.outer[l] && !c.undefinedOutside(i, name):
			// Where the set has not run, name is the enclosing value.
			c.errorf(sp, "%q may be the enclosing value here, as the set of it to namespace(...) in this frame may not have run: promptgen supports that set only where it surely runs before this use", name)
			return nil, false, false
		case read != "" && ns.made[read]:
			return ns, true, true
		case read != "":
			c.errorf(sp, "%q may not be a namespace yet here, where Jinja2 fails reading its attribute: promptgen reads one that namespace(...) sets (namespace(%s=...)), which fails the render there too, or set it with namespace(...) before every use", name, read)
			return nil, false, false
		default:
			c.errorf(sp, "%q may not be a namespace yet here, where Jinja2 fails setting its attribute: set it with namespace(...) before every use", name)
			return nil, false, false
		}
		return ns, false, true
	}
	return nil, false, true
}

// undefinedOutside reports whether name is undefined outside scope i:
// no enclosing scope has a local of it, and the feed no field (the
// template's variable, which Jinja2 reads there, is undefined).
func (c *checker) undefinedOutside(i int, name string) bool {
	for _, sc := range c.scopes[:i] {
		if sc.names[name] != nil {
			return false
		}
	}
	return c.feed.Field(name) == nil
}

// setAttr checks {% set ns.attr = value %} and its block form.
func (c *checker) setAttr(n *tmpl.Set) []ir.Node {
	ns, _, ok := c.namespaceOf(n.NS.Name, n.NS.Span, "")
	if !ok {
		return nil
	}
	if ns == nil {
		return c.setAttrOfOther(n)
	}
	if n.Value == nil {
		out := &ir.Set{Body: c.setBody(n.Body)}
		return []ir.Node{c.assignLocal(c.nsAttr(ns, n.Attr), out, &ir.Type{Kind: ir.KindString}, n.Span)}
	}
	c.leadCall = leading(n.Value)
	v := c.expr(n.Value, useValue)
	return []ir.Node{c.stored(c.assignLocal(c.nsAttr(ns, n.Attr), &ir.Set{Value: v}, v.Type(), n.Span), n.NS.Name+"."+n.Attr, n.Span)}
}

// setAttrOfOther checks {% set x.attr = value %} of an x that is not a
// namespace, which Jinja2 fails where it runs (TemplateRuntimeError),
// before it evaluates value. Where it always runs (at the template's top
// level) it is an error; where it may not (in an if, a loop or a macro),
// a warning and the render fails where it runs. So it is at the top level
// of a plain template file, which may be a part that another includes
// where x is the includer's namespace (the include checks it there).
func (c *checker) setAttrOfOther(n *tmpl.Set) []ir.Node {
	msg := fmt.Sprintf("cannot assign an attribute of %q, which is not a namespace (set it with {%% set %s = namespace(...) %%})", n.NS.Name, n.NS.Name)
	if n.Value == nil || len(c.scopes) == 1 && c.inIf == 0 && !c.includable() {
		c.errorf(n.NS.Span, "%s", msg)
		return nil
	}
	c.diags.Warnf(c.pos(n.NS.Span), "%s: Jinja2 fails where it runs, and so does the render", msg)
	// value is not checked: it never runs, and what it reads would be
	// declared for nothing.
	fails := c.dyn(ir.DynMissing, "setattr", ir.DynamicType(), n.NS.Span, &ir.Const{T: &ir.Type{Kind: ir.KindNone}}) // an operation has an operand
	return []ir.Node{&ir.Print{X: fails, Pos: c.posString(n.NS.Span)}}
}

// namespaceAttr reads attribute name of x when x names a namespace: the
// attribute's local, undefined where it may not be assigned yet, as a
// missing attribute is.
func (c *checker) namespaceAttr(x tmpl.Expr, name string, u use) (ir.Expr, bool) {
	n, ok := x.(*tmpl.Name)
	if !ok {
		return nil, false
	}
	ns, strict, ok := c.namespaceOf(n.Name, n.Span, name)
	switch {
	case !ok:
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
	if strict {
		// Undefined exactly where the namespace is not set, unless a
		// value it is set to may be undefined itself.
		c.later = append(c.later, func() {
			for _, s := range c.sets {
				if s.Local == l && (ir.MaybeUndefined(s.Value) || s.Value.Type().Kind == ir.KindDynamic) {
					c.errorf(n.Span, "%q may not be a namespace yet here, where Jinja2 fails reading its attribute: promptgen reads one only where every value it is set to is always defined and typed, unlike %s.%s", n.Name, n.Name, name)
					return
				}
			}
		})
		return &ir.Strict{X: &ir.LocalRef{L: l}, Pos: c.posString(n.Span)}, true
	}
	return &ir.LocalRef{L: l}, true
}

// wholeNamespace reports a use of namespace local l other than through its
// attributes.
func (c *checker) wholeNamespace(l *ir.Local, sp tmpl.Span) bool {
	if c.namespaces[l] == nil {
		return false
	}
	c.errorf(sp, "namespace %q is supported only through its attributes (%s.attr)", l.Name, l.Name)
	return true
}
