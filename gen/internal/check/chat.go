package check

import (
	"maps"
	"slices"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/runtime/jinja"
)

// The constructs of chat templates: namespace() and its attributes, loop
// controls, transformers' generation block and raise_exception.
//
// A namespace is a mutable object that Jinja2 shares by reference, which is
// how a template carries a value out of a loop. promptgen supports it where
// the object never needs to exist: a local set once, by
// {% set ns = namespace(a=...) %}, and used only through its attributes
// (ns.a, ns['a'], {% set ns.a = ... %}). Each attribute is then a local of
// the namespace's frame, typed by everything assigned to it, that starts
// undefined each time the frame does, as the set runs at most once per
// frame: exactly the object's attribute, without the object.

// namespace is a local set to namespace(...).
type namespace struct {
	attrs  map[string]*ir.Local
	locals *[]*ir.Local // the locals of the frame that holds the namespace
}

// attr returns the local of attribute name, making it.
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
	switch {
	case c.namespaces[l] != nil:
		c.errorf(n.Span, "%q is set to a namespace twice: promptgen supports one {%% set %s = namespace(...) %%} per variable", name, name)
		return nil
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
	ns := &namespace{attrs: map[string]*ir.Local{}, locals: sc.locals}
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
		out = append(out, c.assignLocal(c.nsAttr(ns, kw.Name), &ir.Set{Value: values[i]}, values[i].Type(), n.Span))
	}
	return out
}

// namespaceOf returns the namespace that name holds here. When name is a
// local that may not hold its namespace yet, it reports that at sp and
// returns ok false; a name that is no namespace returns nil and ok true.
func (c *checker) namespaceOf(name string, sp tmpl.Span) (ns *namespace, ok bool) {
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
		if ns != nil && st != assigned {
			c.errorf(sp, "%q may not be a namespace yet here: set it with namespace(...) before every use", name)
			return nil, false
		}
		return ns, true
	}
	return nil, true
}

// setAttr checks {% set ns.attr = value %} and its block form.
func (c *checker) setAttr(n *tmpl.Set) []ir.Node {
	ns, ok := c.namespaceOf(n.NS.Name, n.NS.Span)
	if !ok {
		return nil
	}
	if ns == nil {
		c.errorf(n.NS.Span, "cannot assign an attribute of %q, which is not a namespace (set it with {%% set %s = namespace(...) %%})", n.NS.Name, n.NS.Name)
		return nil
	}
	if n.Value == nil {
		out := &ir.Set{Body: c.setBody(n.Body)}
		return []ir.Node{c.assignLocal(c.nsAttr(ns, n.Attr), out, &ir.Type{Kind: ir.KindString}, n.Span)}
	}
	v := c.expr(n.Value, useValue)
	return []ir.Node{c.assignLocal(c.nsAttr(ns, n.Attr), &ir.Set{Value: v}, v.Type(), n.Span)}
}

// setBody checks the body of a block set, a frame of its own whose locals
// are declared with the enclosing ones, as it runs once each time they are.
func (c *checker) setBody(body []tmpl.Node) []ir.Node {
	sc := c.scopes[len(c.scopes)-1]
	c.enter(frameSymbols(sc.sym, nil, body), sc.locals, nil)
	c.scopes[len(c.scopes)-1].noLoopControl = "a block set"
	return c.leave(c.nodes(body))
}

// namespaceAttr reads attribute name of x when x names a namespace: the
// attribute's local, undefined where it may not be assigned yet, as a
// missing attribute is.
func (c *checker) namespaceAttr(x tmpl.Expr, name string, u use) (ir.Expr, bool) {
	n, ok := x.(*tmpl.Name)
	if !ok {
		return nil, false
	}
	ns, ok := c.namespaceOf(n.Name, n.Span)
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
	c.enter(frameSymbols(sc.sym, nil, n.Body), sc.locals, nil)
	c.scopes[len(c.scopes)-1].noLoopControl = "a generation block"
	return c.leave(c.nodes(n.Body))
}

// profileGlobals are the globals the transformers profile adds.
var profileGlobals = []string{"raise_exception", "strftime_now"}

// isGlobalFunc reports whether name is a function of the environment
// that no local hides.
func (c *checker) isGlobalFunc(name string) bool {
	if c.lookup(name) != nil {
		return false
	}
	return name == "namespace" || name == "range" || name == "dict" || c.p.Jinja.Transformers && slices.Contains(profileGlobals, name)
}

// raise checks an output that calls raise_exception(message), the only
// place promptgen supports it.
func (c *checker) raise(n *tmpl.Output) ([]ir.Node, bool) {
	call, ok := n.X.(*tmpl.Call)
	if !ok {
		return nil, false
	}
	if fn, ok := call.Fn.(*tmpl.Name); !ok || fn.Name != "raise_exception" || !c.isGlobalFunc(fn.Name) {
		return nil, false
	}
	args := c.bindArgs("raise_exception", []ir.Param{{Name: "message", Required: true}}, call.Args, call.Kwargs, call.Span)
	msg := args[0]
	if msg.Type().Kind == ir.KindDynamic {
		// Python formats the exception's argument with str().
		msg = c.dyn(ir.DynStr, "", &ir.Type{Kind: ir.KindString}, call.Span, msg)
	}
	c.constrain(msg.Type(), ir.KindString, call.Span)
	c.readsWhole(msg, call.Span, "raise_exception")
	c.later = append(c.later, func() {
		if ir.MaybeUndefined(msg) {
			c.errorf(call.Span, "the message of raise_exception may be undefined: give it a value (| default(...))")
		}
	})
	return []ir.Node{&ir.Raise{Msg: msg, Pos: c.posString(call.Span)}}, true
}

// strftime checks strftime_now(format), which promptgen supports in the
// template of a prompt file, whose Render takes the clock as an option.
func (c *checker) strftime(e *tmpl.Call) ir.Expr {
	if !c.clock || c.inSet != nil {
		c.errorf(e.Span, "strftime_now is supported only in the template of a prompt file, whose Render takes the clock (runtime.WithNow)")
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	format := c.bindArgs("strftime_now", []ir.Param{{Name: "format", Required: true}}, e.Args, e.Kwargs, e.Span)[0]
	c.constrain(format.Type(), ir.KindString, e.Span)
	c.readsWhole(format, e.Span, "strftime_now")
	if k, ok := format.(*ir.Const); ok {
		if s, ok := k.Value.(string); ok {
			if err := jinja.CheckStrftime(s); err != nil {
				c.errorf(e.Span, "%v", err)
			}
		}
	}
	return &ir.Strftime{Format: format, Pos: c.posString(e.Span)}
}

// globalCall reports a call of a global function where promptgen does not
// support it.
func (c *checker) globalCall(e *tmpl.Call, fn *tmpl.Name) bool {
	if !c.p.Jinja.Transformers && slices.Contains(profileGlobals, fn.Name) && c.lookup(fn.Name) == nil {
		c.errorf(e.Span, "%s is a function of the transformers profile (jinja: {profile: transformers})", fn.Name)
		return true
	}
	if !c.isGlobalFunc(fn.Name) {
		return false
	}
	switch fn.Name {
	case "namespace":
		c.errorf(e.Span, "namespace() is supported only as the value of {%% set name = namespace(...) %%}")
	case "raise_exception":
		c.errorf(e.Span, "raise_exception is supported only as a statement of its own: {{ raise_exception(message) }}")
	}
	return true
}

// definedGlobal is `name is defined` (or undefined) of a global function,
// which is defined.
func (c *checker) definedGlobal(e *tmpl.Test) (ir.Expr, bool) {
	n, ok := e.X.(*tmpl.Name)
	if !ok || e.Name != "defined" && e.Name != "undefined" || !c.isGlobalFunc(n.Name) {
		return nil, false
	}
	return constExpr((e.Name == "defined") != e.Not), true
}

// globalValue reports a global function used as a value.
func (c *checker) globalValue(e *tmpl.Name) bool {
	if !c.isGlobalFunc(e.Name) {
		return false
	}
	c.errorf(e.Span, "%s is a function: call it", e.Name)
	return true
}

// transformersToJSONParams are the parameters of the transformers
// profile's tojson: json.dumps's, ensure_ascii first.
var transformersToJSONParams = []ir.Param{{Name: "ensure_ascii", Def: false}, {Name: "indent"}, {Name: "separators"}, {Name: "sort_keys", Def: false}}

// transformersToJSON binds the arguments of the transformers profile's
// tojson, of which promptgen supports indent, and returns them as
// Jinja2's tojson takes them. Its keys come in insertion order, which only
// a dict literal has: an object or a map of the feed has the order of its
// JSON data in Python, which a Go struct or map does not keep.
func (c *checker) transformersToJSON(out *ir.Call, e *tmpl.Filter) []ir.Expr {
	args := c.bindArgs("filter tojson", transformersToJSONParams, e.Args, e.Kwargs, e.Span)
	for i, p := range transformersToJSONParams {
		if k, ok := args[i].(*ir.Const); p.Name != "indent" && (!ok || k.Value != p.Def) {
			c.errorf(e.Span, "filter tojson: %s is not supported (transformers' tojson supports indent)", p.Name)
		}
	}
	c.later = append(c.later, func() {
		if t := keyedIn(out.X.Type()); t != nil {
			c.errorf(e.Span, "tojson of the transformers profile writes the keys of a %s in the order of its JSON data, which promptgen's types do not keep (only a dict literal's)", t)
		}
	})
	return []ir.Expr{args[1]}
}

// keyedIn returns the object or map type in t, if any.
func keyedIn(t *ir.Type) *ir.Type {
	switch t = t.Resolve(); t.Kind {
	case ir.KindStruct, ir.KindMap:
		return t
	case ir.KindList:
		return keyedIn(t.Elem)
	case ir.KindDict:
		for _, f := range t.Fields {
			if k := keyedIn(f.Type); k != nil {
				return k
			}
		}
	}
	return nil
}
