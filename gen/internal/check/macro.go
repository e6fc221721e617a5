package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/builtins"
	"github.com/promptgen/promptgen/gen/internal/idtrack"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/names"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
	"github.com/promptgen/promptgen/schema"
)

// Macros are expanded where they are called: each call checks the macro's
// body again, in a frame of its own whose parameters are locals bound to
// the call's arguments (or the defaults; a parameter with neither is a
// dynamic local left undefined), and the frame's output, captured, is the
// call's value (ir.Capture). A call with dynamic arguments so types its
// parameters as dynamic, and one with typed arguments as typed.
//
// As in Jinja2, the body sees the feed's variables, the names the
// template's top frame sets, as they are at the call (undefined before
// their set), and its own locals, not the caller's.
//
// A {% call %} block calls its macro with caller, a macro whose body is
// the block's: each caller() in the macro's body expands it as a call, in
// a frame whose enclosing frames are the block's, as Jinja2 defines it
// where the block stands.
//
// Each template has its macros (macroEnv): an included template's are
// defined at each include, in its frame, and called there only; their
// bodies see the frames around the include and the included template's
// root frame, and an includer's macro called there has its body checked
// with the includer's macros.

// macros are the macros of the template checked and of the templates it
// includes.
type macros struct {
	// macroEnv is the template whose code is checked: the template, one
	// it includes, or the one that defines the macro whose body is
	// checked.
	*macroEnv
	// homes are the templates that define each macro.
	homes   map[*tmpl.Macro]*macroEnv
	calling []string  // the macros whose bodies are checked, outermost first
	calls   []src.Pos // where each of them is called
	// frames are the macro frames around the code checked, outermost
	// first: a caller's body has the frames of its {% call %} block, and
	// one of its own.
	frames []macroFrame
	// including are the template files whose bodies are checked where
	// they are included, outermost first.
	including []string
	// expanded counts the template nodes (statements and expressions)
	// checked in macro bodies: the size of the expanded macros.
	expanded   int
	overflowed bool // past maxMacroExpansion: reported, and no call expands
	// includeOverflow is set once an include's expansion is reported.
	includeOverflow bool
	// funcs are the functions of the macros that call themselves.
	funcs map[*tmpl.Macro]*ir.Func
	// template are the frames of the template while a function's body is
	// checked (nil otherwise), whose names the body cannot read: the
	// template's top frame, or an included template's and those around
	// its include.
	template []*scope
	// fn is the function whose body is checked, and base the number of
	// frames, among frames, of the function or caller body checked
	// (theirs and those around them), which calls in it do not count.
	fn   *ir.Func
	base int
	// fnHome is the template of the function whose body is checked.
	fnHome *macroEnv
	// flags are the bool locals that say, at run time, that the
	// definition of a macro in an if ran.
	flags map[*tmpl.Macro]*ir.Local
	// local are the macros defined in a loop, which Jinja2 defines as
	// locals of the loop's frame.
	local map[*tmpl.Macro]bool
}

// macroEnv holds the macros of one template (the template checked, or
// one it includes), where the check is. Jinja2 runs an included
// template's macro definitions in the included template's frame: its
// macros are visible there only, and their bodies see what the included
// template sees.
type macroEnv struct {
	// names are the macros the template defines, and for an included
	// template those its includer may have defined too.
	names   map[string]bool
	defined map[string]*tmpl.Macro // those defined where the check is
	// maybe are the macros defined in an if branch that may not have run
	// where the check is.
	maybe map[string]*tmpl.Macro
	// twice are the names the branches of an if define different
	// macros of: a call after it is rejected.
	twice map[string]bool
	// recursive are the macros that call themselves, directly or through
	// others: each is compiled once, as a function (funcs), not expanded.
	recursive map[string]bool
	// loopNames are, for each for loop around the code checked outside
	// macro bodies, the names its frames bind (its targets, loop and
	// what its body and else set).
	loopNames []map[string]bool
	// m locates the template.
	m *src.SourceMap
	// top are the frames a body of the template's macros is checked in:
	// the template's top frame (a function's while its body is checked),
	// or for an included template its root frame and those around its
	// include, whose names it sees.
	top []*scope
	// shadowed are the names of the includer's macros that the included
	// template defines macros of, and resets the sets that clear the
	// flags of its macros defined in an if, at the include.
	shadowed map[string]bool
	resets   []ir.Node
	// includer is the template that includes this one, nil for the
	// template checked.
	includer *macroEnv
}

// macroFrame is the frame of a macro's body, or of a caller's.
type macroFrame struct {
	block      *callSite // the {% call %} block that called the macro, nil for a plain call
	callerBody bool      // the frame is a caller's
}

// callSite is a {% call %} block and the place where it stands, in which
// its caller's body is checked.
type callSite struct {
	n      *tmpl.CallBlock
	scopes []*scope
	frames []macroFrame
	m      *src.SourceMap
	env    *macroEnv
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

func newMacros(body []tmpl.Node, m *src.SourceMap) macros {
	return macros{macroEnv: newMacroEnv(body, m), homes: map[*tmpl.Macro]*macroEnv{}, funcs: map[*tmpl.Macro]*ir.Func{},
		flags: map[*tmpl.Macro]*ir.Local{}, local: map[*tmpl.Macro]bool{}}
}

// newMacroEnv returns the macros of a template whose body is body,
// located by m, where none is defined yet.
func newMacroEnv(body []tmpl.Node, m *src.SourceMap) *macroEnv {
	env := &macroEnv{names: map[string]bool{}, defined: map[string]*tmpl.Macro{}, maybe: map[string]*tmpl.Macro{},
		twice: map[string]bool{}, m: m, shadowed: map[string]bool{}}
	var defs []*tmpl.Macro
	var walk func([]tmpl.Node)
	walk = func(ns []tmpl.Node) {
		for _, n := range ns {
			switch n := n.(type) {
			case *tmpl.Macro:
				env.names[n.Name.Name] = true
				defs = append(defs, n)
			case *tmpl.If: // a macro in an if is defined where the branch runs
				for _, b := range n.Branches {
					walk(b.Body)
				}
				walk(n.Else)
			case *tmpl.For: // and one in a loop, for the rest of its frame
				walk(n.Body)
				walk(n.Else)
			}
		}
	}
	walk(body)
	env.recursive = tmpl.SelfCalling(defs)
	return env
}

// defineMacro checks a definition, which Jinja2 runs where it stands: a
// call before it fails. One in an if branch sets its flag, which a call
// after the if tests.
func (c *checker) defineMacro(n *tmpl.Macro, inIf bool) []ir.Node {
	if slices.Contains(builtins.UnsupportedMacroNames, n.Name.Name) {
		c.errorf(n.Name.Span, "a macro named %q is not supported", n.Name.Name)
	}
	c.signature(n)
	c.macros.defined[n.Name.Name] = n
	c.macros.homes[n] = c.macros.macroEnv
	if len(c.macros.loopNames) > 0 {
		c.loopMacro(n)
	}
	if !inIf {
		return nil
	}
	flag := c.newLocal(n.Name.Name+"_defined", &ir.Type{Kind: ir.KindBool})
	*c.scopes[0].locals = append(*c.scopes[0].locals, flag)
	c.macros.flags[n] = flag
	if len(c.macros.including) > 0 {
		// An included template is a frame of its own at each include,
		// where its macros are not defined yet.
		c.macros.resets = append(c.macros.resets, &ir.Set{Local: flag, Value: constExpr(false)})
	}
	return []ir.Node{&ir.Set{Local: flag, Value: constExpr(true)}}
}

// loopMacro checks n, a macro defined in a for loop, which Jinja2
// defines as a local of the loop's frame, where its body reads the
// frame's names as they are at the call: promptgen expands it as a
// macro of the template, which it is where the body reads none of the
// names the loops around bind.
func (c *checker) loopMacro(n *tmpl.Macro) {
	c.macros.local[n] = true
	// Its own names: its parameters, what its body binds, and the loop
	// of a for loop in it.
	own := boundNames(n.Body)
	for _, p := range n.Params {
		own[p.Name] = true
	}
	reported := map[string]bool{}
	tmpl.Inspect(n.Body, func(x tmpl.Node) {
		switch x := x.(type) {
		case *tmpl.For:
			own["loop"] = true
		case *tmpl.Include:
			// The file reads what it will, the loop's names too.
			c.errorf(x.Span, "macro %q, defined in a for loop, includes a template file: Jinja2 passes it the names the loop sets as they are at the call, promptgen expands the macro as one of the template (not supported: define the macro outside the loop)", n.Name.Name)
		}
	}, func(tmpl.Expr) {})
	tmpl.Inspect(n.Body, func(tmpl.Node) {}, func(x tmpl.Expr) {
		name, ok := x.(*tmpl.Name)
		if !ok || own[name.Name] || reported[name.Name] {
			return
		}
		for _, names := range c.macros.loopNames {
			if names[name.Name] {
				reported[name.Name] = true
				c.errorf(name.Span, "macro %q, defined in a for loop, reads %q, which the loop sets: Jinja2 reads the loop's value, promptgen expands the macro as one of the template (not supported: pass it as an argument)", n.Name.Name, name.Name)
				return
			}
		}
	})
}

// mergeDefined updates the macros defined after an if whose branches
// (the else, possibly empty, included) end with the macros of ends
// defined, from before, those defined before it: a macro that some
// branch defines is maybe defined after it, unless the branches define
// different macros of its name, which no call may then choose between.
func (c *checker) mergeDefined(before map[string]*tmpl.Macro, ends []map[string]*tmpl.Macro) {
	c.macros.defined = before
	defs := map[string]*tmpl.Macro{}
	for _, end := range ends {
		for name, def := range end {
			switch seen, ok := defs[name]; {
			case before[name] == def:
			case !ok:
				defs[name] = def
			case seen != def:
				defs[name] = nil
			}
		}
	}
	for name, def := range defs {
		c.macros.twice[name] = def == nil
		if def != nil {
			c.macros.maybe[name] = def
		} else {
			delete(c.macros.maybe, name)
		}
	}
}

// signature checks the parameters of macro n.
func (c *checker) signature(n *tmpl.Macro) {
	for i, p := range n.Params {
		if slices.Contains(builtins.UnsupportedParamNames, p.Name) {
			c.errorf(p.Span, "a macro parameter named %q is not supported", p.Name)
		}
		if slices.ContainsFunc(n.Params[:i], func(q *tmpl.Name) bool { return q.Name == p.Name }) {
			c.errorf(p.Span, "duplicate parameter %q of macro %q", p.Name, n.Name.Name)
		}
		if d := n.Defaults[i]; d != nil && !builtins.IsLiteral(d) {
			c.errorf(d.Pos(), "the default of macro parameter %q must be a literal string, number, boolean or none", p.Name)
		}
	}
}

// callBlock checks a {% call %} block: its macro's call, expanded with the
// block's caller, is printed.
func (c *checker) callBlock(n *tmpl.CallBlock) []ir.Node {
	fn, ok := c.isMacroCall(n.Call)
	if name, isName := n.Call.Fn.(*tmpl.Name); !ok && isName && name.Name != "caller" && c.lookup(name.Name) == nil && !c.isGlobalFuncName(name.Name) && !slices.Contains(builtins.ProfileGlobals, name.Name) {
		// Jinja2 defines the block's caller, then calls the name, which
		// fails as a plain call does.
		x := c.undefinedCall(n.Call, name)
		if c.rejected[x] {
			return nil
		}
		return []ir.Node{&ir.Print{X: x}}
	}
	if !ok || fn.Name == "caller" {
		c.errorf(n.Call.Fn.Pos(), "a {%% call %%} block must call a macro of the template")
		return nil
	}
	c.signature(n.Caller)
	if def := c.macros.defined[fn.Name]; def != nil && !readsName(def.Body, "caller") {
		c.errorf(fn.Span, "macro %q does not read caller, so the {%% call %%} block passes it a caller it does not take (Jinja2: TypeError)", fn.Name)
		return nil
	}
	x := c.macroCall(n.Call, fn, &callSite{n: n, scopes: slices.Clip(c.scopes), frames: c.macros.frames, m: c.m, env: c.macros.macroEnv})
	inlinePrinted(x)
	return []ir.Node{&ir.Print{X: x}}
}

// isMacroCall reports whether e calls a macro of the template rather than
// a variable or global.
func (c *checker) isMacroCall(e *tmpl.Call) (*tmpl.Name, bool) {
	fn, ok := e.Fn.(*tmpl.Name)
	return fn, ok && (c.macros.names[fn.Name] || fn.Name == "caller" && len(c.macros.frames) > 0)
}

// macroAsValue reports a macro named where it is not called.
func (c *checker) macroAsValue(e *tmpl.Name) bool {
	if !c.macros.names[e.Name] {
		return false
	}
	c.errorf(e.Span, "macro %q used as a value: promptgen supports calling a macro only, as in %s(...)", e.Name, e.Name)
	return true
}

// macroCall expands a call of macro fn, which block calls (nil for a
// plain call), or of caller.
func (c *checker) macroCall(e *tmpl.Call, fn *tmpl.Name, block *callSite) ir.Expr {
	none := &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	if !c.macros.names[fn.Name] {
		switch f := c.macros.frames[len(c.macros.frames)-1]; {
		case f.block == nil && !f.callerBody && c.macros.fn != nil && len(c.macros.frames) == 1:
			// The body of a function: the caller it was passed.
			return c.callCaller(e, fn)
		case f.callerBody:
			c.errorf(fn.Span, "caller() in the body of a {%% call %%} block is not supported (Jinja2: undefined)")
		case f.block == nil:
			c.errorf(fn.Span, "caller() in macro %q, which is called without a {%% call %%} block here (Jinja2: undefined)", c.macros.calling[len(c.macros.calling)-1])
		default:
			return c.expandMacro(e, f.block.n.Caller, nil, f.block)
		}
		return none
	}
	if c.lookup(fn.Name) != nil {
		c.errorf(fn.Span, "%q names both a macro and a variable, which promptgen does not support", fn.Name)
		return none
	}
	def, guard := c.macros.defined[fn.Name], ir.Expr(nil)
	if def == nil && c.macros.maybe[fn.Name] != nil && c.macros.template == nil {
		def, guard = c.macros.maybe[fn.Name], &ir.LocalRef{L: c.macros.flags[c.macros.maybe[fn.Name]]}
	}
	switch {
	case def != nil && c.macros.template != nil && c.macros.includes(c.macros.homes[def], c.macros.fnHome):
		c.errorf(fn.Span, "macro %q calls itself, so promptgen compiles it once, as a function: a call in it of macro %q of another template (its includer's) is not supported", c.macros.calling[0], fn.Name)
		return none
	case def != nil && guard != nil && c.macros.shadowed[fn.Name]:
		c.errorf(fn.Span, "macro %q of this included template is defined in an if branch that may not have run, and the including template defines one of that name, which Jinja2 calls where the branch did not run (not supported)", fn.Name)
		return none
	case def == nil && c.macros.shadowed[fn.Name]:
		c.errorf(fn.Span, "macro %q is called before this included template defines its own, or outside the if branch or loop that defines it: Jinja2 calls the including template's macro of that name there or fails, which promptgen does not support (call it after the definition)", fn.Name)
		return none
	case def != nil && c.macros.local[def] && len(c.macros.calling) > 0:
		c.errorf(fn.Span, "macro %q, defined in a for loop, is called in the body of a macro: Jinja2 reads it there as the template's, where it is undefined (not supported)", fn.Name)
		return none
	case def == nil && c.macros.twice[fn.Name]:
		c.errorf(fn.Span, "the branches of an if define two macros named %q: promptgen supports a call after the if where one definition only may have run", fn.Name)
		return none
	case def == nil && c.macros.maybe[fn.Name] != nil:
		c.errorf(fn.Span, "macro %q, defined in an if branch that may not have run, is called in the body of a macro that calls itself: not supported", fn.Name)
		return none
	case def == nil && c.macros.maybe[fn.Name] == nil && c.includable() && len(c.macros.including) == 0 && c.macros.template == nil:
		// Compiled alone: a file that includes this one may define a
		// macro of that name, which Jinja2's include passes.
		warning := fmt.Sprintf("macro %q is called before its definition: compiled alone, this file cannot call it, and Jinja2 fails where it runs, as does the render (a file that includes this one may define a macro of that name, which the call then calls)", fn.Name)
		xs := append([]ir.Expr{&ir.Const{T: &ir.Type{Kind: ir.KindNone}}}, c.evalArgs(e.Args, e.Kwargs)...) // an operation has an operand
		return c.fails(fn.Span, "function "+fn.Name, warning, xs...)
	case def == nil:
		c.errorf(fn.Span, "macro %q is called before its definition, or outside the if branch that defines it (Jinja2: undefined)", fn.Name)
		return none
	}
	if guard != nil {
		x := c.callDefined(e, fn, def, block)
		if call, ok := x.(*ir.Capture); ok {
			call.Defined, call.Macro, call.Pos = guard, fn.Name, c.posString(fn.Span)
		}
		return x
	}
	return c.callDefined(e, fn, def, block)
}

// includes reports whether env is a template that includes home's,
// directly or through others.
func (m *macros) includes(env, home *macroEnv) bool {
	for e := home.includer; e != nil; e = e.includer {
		if e == env {
			return true
		}
	}
	return false
}

// callDefined expands or calls def, a macro defined where it is called as
// fn by e (or by block).
func (c *checker) callDefined(e *tmpl.Call, fn *tmpl.Name, def *tmpl.Macro, block *callSite) ir.Expr {
	none := &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	if c.macros.homes[def].recursive[def.Name.Name] {
		return c.funcCall(e, fn, def, block)
	}
	if i := slices.Index(c.macros.calling, fn.Name); i >= 0 {
		c.errorf(fn.Span, "recursive macro call %s is not supported", strings.Join(append(slices.Clone(c.macros.calling[i:]), fn.Name), " → "))
		return none
	}
	if c.macros.overflowed {
		return none // reported
	}
	return c.expandMacro(e, def, block, nil)
}

// expandMacro expands call e of macro def, which block calls (nil for a
// plain call). A caller's body, whose {% call %} block is site, is
// checked in the block's frames, a macro's in the template's top frame.
func (c *checker) expandMacro(e *tmpl.Call, def *tmpl.Macro, block, site *callSite) ir.Expr {
	none := &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	fn := &tmpl.Name{Span: e.Fn.Pos(), Name: def.Name.Name} // as called
	varargs, kwargs := readsName(def.Body, "varargs"), readsName(def.Body, "kwargs")
	named, ok := c.macroArgs(e, def, fn.Name, varargs, kwargs)
	if !ok {
		return none
	}
	out := &ir.Capture{}
	params := make([]*ir.Local, len(def.Params))
	var binds []ir.Node
	rejected := false // an argument was rejected, and its type tells nothing
	bind := func(i int, x ir.Expr, sp tmpl.Span) {
		x = c.asIterator(x, sp)
		rejected = rejected || c.rejected[x]
		params[i] = c.newLocal(def.Params[i].Name, c.localType(def.Params[i].Name))
		out.Locals = append(out.Locals, params[i])
		// A generator passed where the body does not read it, as stored.
		binds = append(binds, c.stored(c.assignLocal(params[i], &ir.Set{Value: x}, x.Type(), sp), def.Params[i].Name, sp))
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
	// A macro that reads kwargs takes keyword arguments that name no
	// parameter: kwargs is the dict of them, in their order.
	extra := &tmpl.Dict{Span: e.Span}
	for j, kw := range e.Kwargs {
		if i := named[j]; i >= 0 {
			bind(i, c.expr(kw.Value, useValue), kw.Value.Pos())
			continue
		}
		extra.Keys = append(extra.Keys, &tmpl.Const{Span: kw.NameSpan, Value: kw.Name})
		extra.Values = append(extra.Values, kw.Value)
	}
	if kwargs {
		dict := c.expr(extra, useValue)
		l := c.newLocal("kwargs", ir.DynamicType())
		out.Locals = append(out.Locals, l)
		binds = append(binds, c.assignLocal(l, &ir.Set{Value: dict}, dict.Type(), e.Span))
		frameParams, special = append(slices.Clone(frameParams), &tmpl.Name{Name: "kwargs"}), append(special, l)
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
	if rejected {
		return c.reject()
	}

	saved, savedFrames, savedEnv := c.scopes, c.macros.frames, c.macros.macroEnv
	if c.mayNotRun() {
		// The body runs where the call does: the scopes of the call,
		// which the body's replace, may not run.
		c.callMayNotRun++
		defer func() { c.callMayNotRun-- }()
	}
	c.macros.calling = append(c.macros.calling, fn.Name)
	c.macros.calls = append(c.macros.calls, c.pos(e.Span))
	callerMap := c.m
	if site == nil {
		// The body's frame is in the top frame of the template that
		// defines it, whose names it reads as they are at the call.
		c.macros.macroEnv = c.macros.homes[def]
		c.m, c.scopes = c.macros.m, slices.Clip(c.macros.top)
		c.macros.frames = append(slices.Clip(c.macros.frames), macroFrame{block: block})
	} else {
		c.macros.macroEnv = site.env
		c.m, c.scopes = site.m, site.scopes
		c.macros.frames = append(slices.Clip(site.frames), macroFrame{callerBody: true})
	}
	parent := c.scopes[len(c.scopes)-1].sym
	deferred := len(c.later)
	c.enter(idtrack.Frame(parent, frameParams, def.Body), &out.Locals, nil, append(params, special...)...)
	c.scopes[len(c.scopes)-1].noLoopControl = "a macro"
	body := c.leave(c.nodes(def.Body))
	c.keepPlace(deferred)
	c.scopes, c.m, c.macros.frames, c.macros.macroEnv = saved, callerMap, savedFrames, savedEnv
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

// macroSpecialName reports, inside a macro's body, a read of a special
// name it does not bind.
func (c *checker) macroSpecialName(e *tmpl.Name) bool {
	if len(c.macros.frames) == 0 || !slices.Contains(builtins.MacroSpecialNames, e.Name) {
		return false
	}
	c.errorf(e.Span, "%s in a macro is not supported", e.Name)
	return true
}

// readsName reports whether body reads name anywhere, as Jinja2 finds the
// special names a macro uses (find_undeclared): a macro that reads
// varargs takes extra positional arguments, one that reads kwargs extra
// keyword arguments, one that reads caller a {% call %} block's caller.
func readsName(body []tmpl.Node, name string) bool {
	found := false
	tmpl.Inspect(body, func(tmpl.Node) {}, func(e tmpl.Expr) {
		if n, ok := e.(*tmpl.Name); ok && n.Name == name {
			found = true
		}
	})
	return found
}

// macroArgs matches the arguments of call e to the parameters of def,
// called as fn: it returns the parameter that each keyword argument
// names, -1 for one that kwargs takes, and false after reporting a
// mismatch. A macro that reads varargs takes extra positional arguments,
// one that reads kwargs extra keyword arguments.
func (c *checker) macroArgs(e *tmpl.Call, def *tmpl.Macro, fn string, varargs, kwargs bool) ([]int, bool) {
	if len(e.Args) > len(def.Params) && !varargs {
		c.errorf(e.Args[len(def.Params)].Pos(), "macro %q takes not more than %d argument(s)", fn, len(def.Params))
		return nil, false
	}
	passed := make([]bool, len(def.Params))
	for i := range e.Args[:min(len(e.Args), len(def.Params))] {
		passed[i] = true
	}
	named := make([]int, len(e.Kwargs))
	extra := map[string]bool{}
	for j, kw := range e.Kwargs {
		i := slices.IndexFunc(def.Params, func(p *tmpl.Name) bool { return p.Name == kw.Name })
		named[j] = i
		switch {
		case i < 0 && kwargs && extra[kw.Name]:
			c.errorf(kw.NameSpan, "keyword argument %q repeated", kw.Name)
			return nil, false
		case i < 0 && kwargs:
			extra[kw.Name] = true
		case i < 0:
			var paramNames []string
			for _, p := range def.Params {
				paramNames = append(paramNames, p.Name)
			}
			c.errorf(kw.NameSpan, "macro %q has no parameter %q%s", fn, kw.Name, schema.DidYouMean(kw.Name, paramNames))
			return nil, false
		case passed[i]:
			c.errorf(kw.NameSpan, "parameter %q of macro %q is passed twice", kw.Name, fn)
			return nil, false
		default:
			passed[i] = true
		}
	}
	return named, true
}

// funcCall calls def, a macro that calls itself, as called by e (or by
// block, nil for a plain call): its function, checked at the first call,
// takes each argument as a dynamic value, and the block's caller. The
// call's output, captured, is its value.
func (c *checker) funcCall(e *tmpl.Call, fn *tmpl.Name, def *tmpl.Macro, block *callSite) ir.Expr {
	none := &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	for _, special := range []string{"varargs", "kwargs"} {
		if readsName(def.Body, special) {
			c.errorf(fn.Span, "macro %q calls itself, so promptgen compiles it once, as a function of its parameters: %s in it is not supported", fn.Name, special)
			return none
		}
	}
	named, ok := c.macroArgs(e, def, fn.Name, false, false)
	if !ok {
		return none
	}
	out := &ir.Capture{}
	args := make([]ir.Expr, len(def.Params))
	bind := func(i int, a tmpl.Expr) {
		// A generator is passed as the iterator it is (asIterator), or
		// where promptgen cannot make its items exactly, unrun: the
		// body may test it and read its attributes (Hermes-2-Pro's
		// template passes json_spec|items, whose type is undefined).
		x := c.asIterator(c.expr(a, useValue), a.Pos())
		if generator(x) {
			c.iterate(x)
			_, typ := generatorType(x)
			x = c.dyn(ir.DynGenerator, typ, ir.DynamicType(), a.Pos(), lazyTrue(x))
		}
		if vt := x.Type().Resolve(); vt.Kind == ir.KindUnknown {
			c.unify(vt, ir.DynamicType(), a.Pos()) // an input only passed on is JSON data
		}
		l := c.newLocal(def.Params[i].Name, ir.DynamicType())
		out.Locals = append(out.Locals, l)
		set := &ir.Set{Local: l, Value: x}
		out.Body = append(out.Body, set)
		c.assigned[l] = assigned
		c.trackUndefined(set)
		args[i] = &ir.LocalRef{L: l}
		c.later = append(c.later, func() {
			if t := x.Type(); !types.ConvertsToDynamic(t) {
				c.errorf(a.Pos(), "macro %q calls itself, so promptgen passes its arguments as dynamic values: %s cannot be one (only strings, numbers, bools, none, lists of them and dicts)", fn.Name, names.Article(t.String()))
			}
		})
	}
	for i, a := range e.Args {
		bind(i, a)
	}
	for j, kw := range e.Kwargs {
		bind(named[j], kw.Value)
	}
	for i, p := range def.Params {
		switch d := def.Defaults[i]; {
		case args[i] != nil:
		case d != nil:
			if !builtins.IsLiteral(d) {
				return none // reported at the definition
			}
			bind(i, d)
		default: // undefined, which a dynamic value holds itself
			l := c.newLocal(p.Name, ir.DynamicType())
			out.Locals = append(out.Locals, l)
			args[i] = &ir.LocalRef{L: l}
		}
	}
	f := c.macroFunc(def, e)
	if f == nil {
		return none
	}
	call := &ir.CallFunc{Func: f, Args: args, Frames: c.frames(), Pos: c.posString(e.Span)}
	if block != nil {
		if call.Caller = c.callerOf(f, fn, block.n); call.Caller == nil {
			return none
		}
	}
	out.Body = append(out.Body, &ir.Print{X: call})
	return out
}

// frames counts the macro frames around the code checked, up to the
// function body, caller body or template it stands in.
func (c *checker) frames() int { return len(c.macros.frames) - c.macros.base }

// callerOf checks the body of n, a {% call %} block of function f (the
// macro fn), where it stands: its caller, in a frame of its own.
func (c *checker) callerOf(f *ir.Func, fn *tmpl.Name, n *tmpl.CallBlock) *ir.Caller {
	if len(n.Caller.Params) > 0 {
		c.errorf(n.Caller.Params[0].Span, "macro %q calls itself, so promptgen compiles it once, as a function: a {%% call %%} block of it with parameters is not supported", fn.Name)
		return nil
	}
	out := &ir.Caller{Site: len(f.Callers)}
	f.Callers = append(f.Callers, out)
	savedFrames, savedBase := c.macros.frames, c.macros.base
	c.macros.frames = append(slices.Clip(c.macros.frames), macroFrame{callerBody: true})
	c.macros.base = len(c.macros.frames)
	deferred := len(c.later)
	c.enter(idtrack.Frame(c.scopes[len(c.scopes)-1].sym, nil, n.Caller.Body), &out.Locals, nil)
	c.scopes[len(c.scopes)-1].noLoopControl = "a macro"
	out.Body = c.leave(c.nodes(n.Caller.Body))
	c.keepPlace(deferred)
	c.macros.frames, c.macros.base = savedFrames, savedBase
	if !c.closes(out, fn.Name, n.Span) {
		return nil
	}
	return out
}

// closes sets the Env of caller, the caller of a {% call %} block of
// macro name at sp: the locals around it that its body reads. It rejects
// a body that sets one of them (a namespace's attribute), changes a list
// of them in place, or reads a loop around the block, none of which the
// text/template backend, which passes the caller the values of its Env,
// would see.
func (c *checker) closes(caller *ir.Caller, name string, sp tmpl.Span) bool {
	// The locals of its frame and of the frames in it (macro calls,
	// callers, loops).
	inner := map[*ir.Local]bool{}
	declare := func(ls ...*ir.Local) {
		for _, l := range ls {
			inner[l] = true
		}
	}
	declare(caller.Locals...)
	ir.Walk(caller.Body, func(x ir.Expr) {
		switch x := x.(type) {
		case *ir.Capture:
			declare(x.Locals...)
		case *ir.CallFunc:
			if x.Caller != nil {
				declare(x.Caller.Locals...)
			}
		}
	})
	loops := map[*ir.For]bool{}
	forsIn(caller.Body, func(f *ir.For) {
		loops[f] = true
		declare(append([]*ir.Local{f.Key, f.Value}, append(f.Unpack, f.Locals...)...)...)
	})
	what := ""
	ir.Walk(caller.Body, func(x ir.Expr) {
		switch x := x.(type) {
		case *ir.LocalRef:
			if !inner[x.L] && !slices.Contains(caller.Env, x.L) {
				caller.Env = append(caller.Env, x.L)
			}
		case *ir.LoopAttr:
			if !loops[x.For] {
				what = "reads the loop around the block"
			}
		case *ir.LoopCycle:
			if !loops[x.For] {
				what = "reads the loop around the block"
			}
		case *ir.Call:
			if l, ok := x.X.(*ir.LocalRef); ok && x.Kind == ir.CallListMethod && !inner[l.L] {
				what = fmt.Sprintf("changes %q (a list around the block) in place", l.L.Name)
			}
		}
	})
	set := ""
	var targets func([]ir.Node)
	targets = func(ns []ir.Node) {
		ir.WalkTargets(ns, func(l *ir.Local) {
			if !inner[l] {
				set = l.Name
			}
		})
	}
	targets(caller.Body)
	ir.Walk(caller.Body, func(x ir.Expr) {
		if cap, ok := x.(*ir.Capture); ok {
			targets(cap.Body)
		}
	})
	if set != "" {
		what = fmt.Sprintf("sets %q (a name around the block)", set)
	}
	if what != "" {
		c.errorf(sp, "macro %q calls itself, so promptgen compiles it once, as a function, passing it a {%% call %%} block's body with the values around the block: a block of it whose body %s is not supported", name, what)
		return false
	}
	return true
}

// forsIn calls fn for each loop of ns, nested ones and those of macro
// call bodies in its expressions too.
func forsIn(ns []ir.Node, fn func(*ir.For)) {
	var nodes func([]ir.Node)
	nodes = func(ns []ir.Node) {
		for _, n := range ns {
			switch n := n.(type) {
			case *ir.If:
				for _, b := range n.Branches {
					nodes(b.Body)
				}
				nodes(n.Else)
			case *ir.For:
				fn(n)
				nodes(n.Body)
				nodes(n.Else)
			case *ir.Set:
				nodes(n.Body)
			}
		}
	}
	nodes(ns)
	ir.Walk(ns, func(x ir.Expr) {
		switch x := x.(type) {
		case *ir.Capture:
			nodes(x.Body)
		case *ir.CallFunc:
			if x.Caller != nil {
				nodes(x.Caller.Body)
			}
		}
	})
}

// callCaller is e, a call of caller() in the body of a function: the
// caller its call passed, printed and captured.
func (c *checker) callCaller(e *tmpl.Call, fn *tmpl.Name) ir.Expr {
	if len(e.Args) > 0 || len(e.Kwargs) > 0 {
		c.errorf(fn.Span, "macro %q calls itself, so promptgen compiles it once, as a function: caller() with arguments in it is not supported", c.macros.fn.Name)
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	return &ir.Capture{Body: []ir.Node{&ir.Print{X: &ir.CallCaller{Func: c.macros.fn, Frames: c.frames(), Pos: c.posString(fn.Span)}}}}
}

// macroFunc returns the function of def, a macro that calls itself,
// checking its body at the first call, e: in a frame of its own whose
// parameters are dynamic values, seeing the feed's variables but none of
// the names the template sets (a function of its arguments, which a later
// call could not see as they are at that call).
func (c *checker) macroFunc(def *tmpl.Macro, e *tmpl.Call) *ir.Func {
	if f, ok := c.macros.funcs[def]; ok {
		return f
	}
	f := &ir.Func{Name: def.Name.Name, GoName: c.goName(def.Name.Name)}
	if readsName(def.Body, "caller") {
		f.Caller = c.goName("caller")
	}
	c.macros.funcs[def] = f
	for _, p := range def.Params {
		l := c.newLocal(p.Name, ir.DynamicType())
		f.Params = append(f.Params, l)
	}
	if c.macros.overflowed {
		return nil
	}
	home := c.macros.homes[def]
	saved, savedFrames, savedEnv, savedTop, savedTemplate := c.scopes, c.macros.frames, c.macros.macroEnv, home.top, c.macros.template
	savedCalling, savedCalls, callerMap := c.macros.calling, c.macros.calls, c.m
	savedFn, savedBase, savedFnHome := c.macros.fn, c.macros.base, c.macros.fnHome
	template := c.macros.template
	if template == nil {
		template = home.top
	}
	sym := template[len(template)-1].sym
	top := &scope{names: map[string]*ir.Local{}, locals: &f.Locals, sym: sym, outer: map[*ir.Local]bool{}}
	c.macros.macroEnv = home
	c.macros.template, c.macros.top = template, []*scope{top}
	c.macros.calling, c.macros.calls = []string{def.Name.Name}, []src.Pos{c.pos(e.Span)}
	c.m, c.scopes = c.macros.m, []*scope{top}
	c.macros.frames, c.macros.fn, c.macros.base, c.macros.fnHome = []macroFrame{{}}, f, 1, home
	deferred := len(c.later)
	c.enter(idtrack.Frame(sym, def.Params, def.Body), &f.Locals, nil, f.Params...)
	c.scopes[len(c.scopes)-1].noLoopControl = "a macro"
	f.Body = c.leave(c.nodes(def.Body))
	c.keepPlace(deferred)
	c.macros.top = savedTop
	c.scopes, c.m, c.macros.frames, c.macros.macroEnv, c.macros.template = saved, callerMap, savedFrames, savedEnv, savedTemplate
	c.macros.calling, c.macros.calls = savedCalling, savedCalls
	c.macros.fn, c.macros.base, c.macros.fnHome = savedFn, savedBase, savedFnHome
	c.ir.Funcs = append(c.ir.Funcs, f)
	return f
}

// templateName reports, in the body of a macro that calls itself, a read
// of a name the template sets (or, in an included template, the frames
// around its include), or a read or set of an attribute of the
// template's namespace.
func (c *checker) templateName(e *tmpl.Name) bool {
	for i, sc := range slices.Backward(c.macros.template) {
		l := sc.names[e.Name]
		if l == nil {
			continue
		}
		template := "the template"
		if i < len(c.macros.template)-1 {
			template = "the including template"
		}
		if c.namespaces[l] != nil {
			c.errorf(e.Span, "macro %q calls itself, so promptgen compiles it once, as a function of its parameters: it cannot read or set an attribute of %q, %s's namespace (which is used through its attributes only, not passed as an argument)", c.macros.calling[0], e.Name, template)
			return true
		}
		c.errorf(e.Span, "macro %q calls itself, so promptgen compiles it once, as a function of its parameters: it cannot read %q, which %s sets (pass it as an argument)", c.macros.calling[0], e.Name, template)
		return true
	}
	return false
}
