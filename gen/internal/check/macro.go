package check

import (
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/builtins"
	"github.com/promptgen/promptgen/gen/internal/idtrack"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/schema"
)

// Macros are expanded where they are called: each call checks the macro's
// body again, in a frame of its own whose parameters are locals bound to
// the call's arguments (or the defaults; a parameter with neither is a
// dynamic local left undefined), and the frame's output, captured, is the
// call's value (ir.Capture). A call with dynamic arguments so types its
// parameters as dynamic, and one with typed arguments as typed.
//
// As in Jinja2, the body sees the feed's variables and its own locals, not
// the caller's. A name the template's top frame sets is rejected there:
// Jinja2 reads its value at call time, undefined before the set, which
// promptgen does not model.

// macros are the macros of the template checked.
type macros struct {
	names   map[string]bool        // every macro the template defines
	defined map[string]*tmpl.Macro // those defined where the check is
	calling []string               // the macros whose bodies are checked, outermost first
	calls   []src.Pos              // where each of them is called
	// m locates the template whose macros these are, which an included
	// template's calls check the bodies of.
	m *src.SourceMap
	// including are the template files whose bodies are checked where
	// they are included, outermost first.
	including []string
	top       *scope // the template's top frame while a body is checked
	// expanded counts the template nodes (statements and expressions)
	// checked in macro bodies: the size of the expanded macros.
	expanded   int
	overflowed bool // past maxMacroExpansion: reported, and no call expands
	// includeOverflow is set once an include's expansion is reported.
	includeOverflow bool
}

// maxMacroExpansion bounds the size of a template's expanded macros, in
// template nodes: each call is a copy of the macro's body, and calls in
// bodies multiply, so the limit keeps generate time and the generated
// code's size in bounds (about 2.5 s and 700 KB of Go at the limit). The
// largest real template of the chat corpus expands to 150 nodes.
const maxMacroExpansion = 10000

// count counts one node checked, if it is in a macro's body or an
// included template.
func (m *macros) count() {
	if len(m.calling) > 0 || len(m.including) > 0 {
		m.expanded++
	}
}

func newMacros(body []tmpl.Node) macros {
	m := macros{names: map[string]bool{}, defined: map[string]*tmpl.Macro{}}
	var walk func([]tmpl.Node)
	walk = func(ns []tmpl.Node) {
		for _, n := range ns {
			switch n := n.(type) {
			case *tmpl.Macro:
				m.names[n.Name.Name] = true
			case *tmpl.If: // a macro in an if is defined where the branch runs
				for _, b := range n.Branches {
					walk(b.Body)
				}
				walk(n.Else)
			}
		}
	}
	walk(body)
	return m
}

// defineMacro checks a definition, which Jinja2 runs where it stands: a
// call before it fails.
func (c *checker) defineMacro(n *tmpl.Macro) {
	if len(c.macros.including) > 0 {
		c.errorf(n.Name.Span, "a macro defined in an included template is not supported (define it in the including template)")
		return
	}
	if slices.Contains(builtins.UnsupportedMacroNames, n.Name.Name) {
		c.errorf(n.Name.Span, "a macro named %q is not supported", n.Name.Name)
	}
	for i, p := range n.Params {
		if slices.Contains(builtins.UnsupportedMacroNames, p.Name) {
			c.errorf(p.Span, "a macro parameter named %q is not supported", p.Name)
		}
		if slices.ContainsFunc(n.Params[:i], func(q *tmpl.Name) bool { return q.Name == p.Name }) {
			c.errorf(p.Span, "duplicate parameter %q of macro %q", p.Name, n.Name.Name)
		}
		if d := n.Defaults[i]; d != nil && !builtins.IsLiteral(d) {
			c.errorf(d.Pos(), "the default of macro parameter %q must be a literal string, number, boolean or none", p.Name)
		}
	}
	c.macros.defined[n.Name.Name] = n
}

// isMacroCall reports whether e calls a macro of the template rather than
// a variable or global.
func (c *checker) isMacroCall(e *tmpl.Call) (*tmpl.Name, bool) {
	fn, ok := e.Fn.(*tmpl.Name)
	return fn, ok && (c.macros.names[fn.Name] || fn.Name == "caller" && len(c.macros.calling) > 0)
}

// macroAsValue reports a macro named where it is not called.
func (c *checker) macroAsValue(e *tmpl.Name) bool {
	if !c.macros.names[e.Name] {
		return false
	}
	c.errorf(e.Span, "macro %q used as a value: promptgen supports calling a macro only, as in %s(...)", e.Name, e.Name)
	return true
}

// macroCall expands a call of macro fn.
func (c *checker) macroCall(e *tmpl.Call, fn *tmpl.Name) ir.Expr {
	none := &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	if !c.macros.names[fn.Name] {
		c.errorf(fn.Span, "caller() is not supported: promptgen has no {%% call %%} blocks")
		return none
	}
	if c.lookup(fn.Name) != nil {
		c.errorf(fn.Span, "%q names both a macro and a variable, which promptgen does not support", fn.Name)
		return none
	}
	def := c.macros.defined[fn.Name]
	if def == nil {
		c.errorf(fn.Span, "macro %q is called before its definition, or outside the if branch that defines it (Jinja2: undefined)", fn.Name)
		return none
	}
	if i := slices.Index(c.macros.calling, fn.Name); i >= 0 {
		c.errorf(fn.Span, "recursive macro call %s is not supported", strings.Join(append(slices.Clone(c.macros.calling[i:]), fn.Name), " → "))
		return none
	}
	if c.macros.overflowed {
		return none // reported
	}
	varargs := readsName(def.Body, "varargs")
	if len(e.Args) > len(def.Params) && !varargs {
		c.errorf(e.Args[len(def.Params)].Pos(), "macro %q takes not more than %d argument(s)", fn.Name, len(def.Params))
		return none
	}
	out := &ir.Capture{}
	params := make([]*ir.Local, len(def.Params))
	var binds []ir.Node
	bind := func(i int, x ir.Expr, sp tmpl.Span) {
		params[i] = c.newLocal(def.Params[i].Name, &ir.Type{})
		out.Locals = append(out.Locals, params[i])
		binds = append(binds, c.assignLocal(params[i], &ir.Set{Value: x}, x.Type(), sp))
	}
	frameParams, special := def.Params, []*ir.Local(nil)
	for i, a := range e.Args[:min(len(e.Args), len(def.Params))] {
		bind(i, c.expr(a, useValue), a.Pos())
	}
	if varargs {
		// The arguments past the parameters, as a tuple, evaluated before
		// the keyword arguments.
		tuple := c.tupleOf(e.Args[min(len(e.Args), len(def.Params)):], e.Span)
		l := c.newLocal("varargs", ir.DynamicType())
		out.Locals = append(out.Locals, l)
		binds = append(binds, c.assignLocal(l, &ir.Set{Value: tuple}, tuple.Type(), e.Span))
		frameParams, special = append(slices.Clone(def.Params), &tmpl.Name{Name: "varargs"}), []*ir.Local{l}
	}
	for _, kw := range e.Kwargs {
		i := slices.IndexFunc(def.Params, func(p *tmpl.Name) bool { return p.Name == kw.Name })
		switch {
		case i < 0:
			var paramNames []string
			for _, p := range def.Params {
				paramNames = append(paramNames, p.Name)
			}
			c.errorf(kw.NameSpan, "macro %q has no parameter %q%s", fn.Name, kw.Name, schema.DidYouMean(kw.Name, paramNames))
			return none
		case params[i] != nil:
			c.errorf(kw.NameSpan, "parameter %q of macro %q is passed twice", kw.Name, fn.Name)
			return none
		}
		bind(i, c.expr(kw.Value, useValue), kw.Value.Pos())
	}
	for i, p := range def.Params {
		switch d := def.Defaults[i]; {
		case params[i] != nil:
		case d != nil:
			if !builtins.IsLiteral(d) {
				return none // reported at the definition
			}
			bind(i, c.expr(d, useValue), d.Pos()) // a literal: which frame checks it does not matter
		default: // undefined, which a dynamic value holds itself
			params[i] = c.newLocal(p.Name, ir.DynamicType())
			out.Locals = append(out.Locals, params[i])
		}
	}

	saved := c.scopes
	if len(c.macros.calling) == 0 {
		c.macros.top = saved[0]
	}
	c.macros.calling = append(c.macros.calling, fn.Name)
	c.macros.calls = append(c.macros.calls, c.pos(e.Span))
	callerMap := c.m
	c.m = c.macros.m
	c.scopes = nil
	deferred := len(c.later)
	c.enter(idtrack.Frame(c.macros.top.sym, frameParams, def.Body), &out.Locals, nil, append(params, special...)...)
	c.scopes[0].noLoopControl = "a macro"
	body := c.leave(c.nodes(def.Body))
	c.keepPlace(deferred)
	c.scopes, c.m = saved, callerMap
	c.macros.calling = c.macros.calling[:len(c.macros.calling)-1]
	c.macros.calls = c.macros.calls[:len(c.macros.calls)-1]
	if c.macros.expanded > maxMacroExpansion && !c.macros.overflowed {
		c.macros.overflowed = true
		c.errorf(fn.Span, "the macro calls expand to more than %d template nodes with this call of %q (promptgen copies the body of a macro at each call, and calls in bodies multiply)", maxMacroExpansion, fn.Name)
	}
	if c.macros.overflowed {
		return none
	}
	out.Body = append(binds, body...)
	return out
}

// macroReadsTop reports, inside a macro's body, a read of a name that the
// template's top frame sets.
func (c *checker) macroReadsTop(e *tmpl.Name) bool {
	if len(c.macros.calling) == 0 {
		return false
	}
	switch {
	case c.macros.top.names[e.Name] != nil:
		c.errorf(e.Span, "macro %q reads %q, which the template sets: promptgen does not support that (pass it as an argument)", c.macros.calling[len(c.macros.calling)-1], e.Name)
	case slices.Contains(builtins.MacroSpecialNames, e.Name):
		c.errorf(e.Span, "%s in a macro is not supported", e.Name)
	default:
		return false
	}
	return true
}

// readsName reports whether body reads name anywhere, as Jinja2 finds the
// special names a macro uses (find_undeclared): a macro that reads
// varargs takes extra positional arguments.
func readsName(body []tmpl.Node, name string) bool {
	found := false
	tmpl.Inspect(body, func(tmpl.Node) {}, func(e tmpl.Expr) {
		if n, ok := e.(*tmpl.Name); ok && n.Name == name {
			found = true
		}
	})
	return found
}
