package check

import (
	"fmt"
	"maps"
	"slices"

	"github.com/promptgen/promptgen/gen/internal/builtins"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
	"github.com/promptgen/promptgen/runtime/jinja"
	"github.com/promptgen/promptgen/schema"
)

// dictCall checks dict(k=v, ...), which is the dict literal {'k': v, ...}.
func (c *checker) dictCall(e *tmpl.Call, u use) ir.Expr {
	if len(e.Args) > 0 {
		for _, a := range e.Args {
			c.expr(a, useValue) // for what it reads
		}
		c.errorf(e.Args[0].Pos(), "dict() is supported with keyword arguments only (write a dict literal)")
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	return c.expr(builtins.DictLiteral(e), u)
}

func (c *checker) call(e *tmpl.Call, u use) ir.Expr {
	if fn, ok := c.isMacroCall(e); ok {
		return c.macroCall(e, fn, nil)
	}
	if fn, ok := e.Fn.(*tmpl.Name); ok && fn.Name == "strftime_now" && c.p.Jinja.Transformers && c.isGlobalFunc(fn.Name) {
		return c.strftime(e)
	}
	if c.isLoopCycle(e) {
		return c.loopCycle(e)
	}
	if fn, ok := e.Fn.(*tmpl.Name); ok && fn.Name == "range" && c.isGlobalFunc(fn.Name) {
		return c.rangeCall(e)
	}
	if fn, ok := e.Fn.(*tmpl.Name); ok && fn.Name == "dict" && c.isGlobalFunc(fn.Name) {
		return c.dictCall(e, u)
	}
	if fn, ok := e.Fn.(*tmpl.Name); ok && c.globalCall(e, fn) {
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	if fn, ok := e.Fn.(*tmpl.Name); ok && c.lookup(fn.Name) == nil {
		return c.undefinedCall(e, fn)
	}
	if n, ok := e.Fn.(*tmpl.Name); ok && c.lookup(n.Name) != nil && (c.isGlobalFuncName(n.Name) || c.macros.names[n.Name]) {
		c.errorf(n.Span, "%q is a variable here, which hides the function of that name: calling it is not supported, as the value is not callable (Jinja2 raises TypeError)", n.Name)
		return c.reject()
	}
	fn, ok := e.Fn.(*tmpl.Attr)
	if !ok {
		c.errorf(e.Span, "function calls are not supported (only string methods such as .strip())")
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	if fn.Name == "items" || fn.Name == "keys" || fn.Name == "get" || fn.Name == "values" {
		return c.dictMethodCall(e, fn, c.expr(fn.X, useValue), u)
	}
	if isListMethod(fn) {
		return c.listMethod(e, fn)
	}
	if fn.Name == "update" {
		return c.dictUpdate(e, fn)
	}
	if fn.Name == "format" {
		return c.strFormatCall(e, fn)
	}
	params, ok := ir.MethodParams[fn.Name]
	if !ok {
		c.errorf(fn.NameSpan, "unknown method %q%s", fn.Name, schema.DidYouMean(fn.Name, append(slices.Sorted(maps.Keys(ir.MethodParams)), "format")))
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	x := c.expr(fn.X, useValue)
	if c.rejected[x] {
		return c.reject()
	}
	if (isDynamic(x) || x.Type().Resolve().Kind == ir.KindList && types.ConvertsToDynamic(x.Type())) && (fn.Name == "index" || fn.Name == "count") {
		// A string's method or a list's (a tuple's), which the runtime
		// tells apart (jinja.Filter), with the arguments given, after
		// evaluating them, as Jinja2 calls what it looked up; a typed list
		// converts to a dynamic value.
		if len(e.Kwargs) > 0 {
			c.errorf(e.Kwargs[0].NameSpan, "%s() takes no keyword arguments (Python raises TypeError)", fn.Name)
			return c.reject()
		}
		return c.dyn(ir.DynFilter, fn.Name+"()", ir.DynamicType(), e.Span, append([]ir.Expr{x}, c.evalArgs(e.Args, nil)...)...)
	}
	recv := x // the value Jinja2 looks the method up in
	if isDynamic(x) {
		x, _ = c.dynMethod(e, fn, x)
	} else {
		c.staysTyped(e.Span, x)
	}
	switch k := x.Type().Resolve().Kind; {
	case k == ir.KindInt || k == ir.KindFloat || k == ir.KindBool || k == ir.KindNone || k == ir.KindList && fn.Name != "index" && fn.Name != "count":
		msg := fmt.Sprintf("%s() needs a string, not %s (Jinja2 raises UndefinedError: %s has no such method)", fn.Name, x.Type(), ir.A(k))
		if c.listString(x.Type()) { // an inferred input is checked again as a string
			c.errorf(fn.NameSpan, "%s", msg)
			return c.reject()
		}
		return c.failsWhereRuns(fn.NameSpan, "UndefinedError", msg, append([]ir.Expr{x}, c.evalArgs(e.Args, e.Kwargs)...)...)
	}
	c.constrain(x.Type(), ir.KindString, fn.X.Pos())
	out := &ir.Call{Kind: ir.CallMethod, Name: fn.Name, X: x, Pos: c.posString(e.Span)}
	if len(e.Kwargs) > 0 && !ir.KeywordMethods[fn.Name] {
		c.errorf(e.Kwargs[0].NameSpan, "%s() takes no keyword arguments (Python raises TypeError)", fn.Name)
	}
	out.Args = c.bindArgs(fn.Name+"()", params, e.Args, e.Kwargs, e.Span)
	// The arguments Jinja2 evaluates, before methodArgs converts them.
	evaluated := slices.Clone(out.Args)
	if !missingArg(params, e) { // bindArgs said so
		if msg := c.methodArgs(fn.Name, params, out.Args, e.Span); msg != "" {
			return c.failsWhereRuns(e.Span, "TypeError", msg, x, evaluatedTrue(out.Args...))
		}
	}
	items := false // Markup's method returns Markup strings
	var escaped []int
	if fn.Name == "partition" || fn.Name == "rpartition" {
		escaped = []int{0} // the separator
	}
	byBranch := c.markupBranches(x, out)
	// A str method of a dynamic value, which says at run time whether it
	// is Markup, that Markup's returns Markup (or, split(), Markup
	// strings): the result is Markup where the value is. The generated
	// code reads the value again, so it must be one that reading changes
	// nothing of (rereadable).
	var kept ir.Expr
	if isDynamic(recv) && (fn.Name == "split" || fn.Name == "splitlines" || markupStrMethods[fn.Name]) && rereadable(recv) && c.markupHere().May(recv) {
		kept = recv
	}
	switch fn.Name {
	case "replace":
		c.markupMethod(x, out, e.Span, false, 0, 1)
	case "strip", "lstrip", "rstrip":
		c.markupMethod(x, out, e.Span, false, 0)
	case "ljust", "rjust", "center":
		c.checkMarkup(x, e.Span, fn.Name+"() of", "which escapes the fill character ("+toPlain+")", out.Args[1])
	case "partition", "rpartition", "split", "splitlines":
		switch {
		case kept != nil:
			c.markupItemsOf(kept, e.Span)
		case byBranch == nil:
			items = c.markupItems(x, out, e.Span, escaped...)
		}
	}
	switch fn.Name {
	case "startswith", "endswith":
		out.T = &ir.Type{Kind: ir.KindBool}
	case "split", "splitlines":
		out.T = &ir.Type{Kind: ir.KindList, Elem: &ir.Type{Kind: ir.KindString}}
	case "find", "rfind", "index", "rindex", "count":
		out.T = &ir.Type{Kind: ir.KindInt}
	case "partition", "rpartition":
		out.T = ir.DynamicType() // a tuple, which the dynamic values have

	default:
		out.T = &ir.Type{Kind: ir.KindString}
	}
	for i, a := range out.Args {
		if k := a.Type().Kind; k == ir.KindUnknown {
			c.constrain(a.Type(), methodArgKind(params[i]), e.Span)
		}
	}
	var res ir.Expr = out
	switch {
	case byBranch != nil:
		res = c.markupItemsBranches(byBranch, out, e.Span, escaped...)
	case items:
		res = c.dyn(ir.DynMarkupItems, "", ir.DynamicType(), e.Span, out)
	case kept != nil && out.T.Kind == ir.KindString:
		res = c.dyn(ir.DynMarkup, "", ir.DynamicType(), e.Span, out, kept)
	case kept != nil:
		res = c.dyn(ir.DynMarkupItems, "", ir.DynamicType(), e.Span, out, kept)
	}
	return argsFirst(res, recv, evaluated, e, out.Pos)
}

// argsFirst returns res, the call e of a string method of recv, where
// recv is a dynamic value and an argument may fail, after recv is
// checked defined and the arguments args are evaluated: Jinja2 fails
// looking the method up in Undefined, but a value without it (a list)
// yields Undefined, which fails only when called, after the arguments
// are evaluated, so that one that fails fails first.
// The receiver and the arguments are evaluated twice, so a call in them
// that may change something (a macro's, which may set a namespace
// attribute, or a list method's) keeps the order in which the receiver
// fails first; a str method or a dict's get(), keys(), values() or
// items() changes nothing (difffuzz seed 134 case 464).
func argsFirst(res, recv ir.Expr, args []ir.Expr, e *tmpl.Call, pos string) ir.Expr {
	mayFail := func(a tmpl.Expr) bool { return !builtins.CannotFail(a) }
	if !isDynamic(recv) || !slices.ContainsFunc(e.Args, mayFail) && !slices.ContainsFunc(e.Kwargs, func(kw tmpl.Kwarg) bool { return mayFail(kw.Value) }) {
		return res
	}
	calls := false
	tmpl.Inspect([]tmpl.Node{&tmpl.Output{X: e}}, func(tmpl.Node) {}, func(x tmpl.Expr) {
		call, ok := x.(*tmpl.Call)
		calls = calls || ok && x != tmpl.Expr(e) && !builtins.ChangesNothing(call)
	})
	if calls {
		return res
	}
	return evaluatedFirst(res, append([]ir.Expr{&ir.Strict{X: recv, Pos: pos}}, args...)...)
}

// methodArgs checks the types of a string method's arguments as Python
// does (TypeError otherwise): a string, or the kind of the parameter's
// default or Kind (an int for replace's count, split's maxsplit, find's
// start; a bool for splitlines' keepends); None where it means the default
// (strip's chars, split's sep, find's start). An argument not yet
// inferred becomes a string later; a dynamic one is read as a string or
// an int (None the default of find's start and end) when rendering, which
// fails where it is another type (the same TypeError). It returns the
// message of the first argument Python refuses whatever the values (a
// string, a number or none for an int, anything but a string for a
// string), which fails where it runs, and reports the others.
func (c *checker) methodArgs(name string, params []ir.Param, args []ir.Expr, sp tmpl.Span) string {
	for i, a := range args {
		want, noneOK := methodArgKind(params[i]), !params[i].Required && params[i].Def == nil
		switch k := a.Type().Kind; {
		case k == ir.KindDynamic && want == ir.KindString && !noneOK:
			args[i] = c.dyn(ir.DynAsString, "", &ir.Type{Kind: ir.KindString}, sp, a)
		case k == ir.KindDynamic && want == ir.KindInt && !noneOK:
			args[i] = c.dyn(ir.DynAsInt, "", &ir.Type{Kind: ir.KindInt}, sp, a)
		case k == ir.KindDynamic && want == ir.KindInt:
			args[i] = c.dyn(ir.DynAsIndex, params[i].Name, &ir.Type{Kind: ir.KindInt}, sp, a)
		case k == want, k == ir.KindUnknown, k == ir.KindNone && noneOK:
		case k == ir.KindDynamic:
			c.errorf(sp, "%s() with a dynamic value as %s is not supported (give a literal or a typed variable)", name, params[i].Name)
		default:
			what := map[ir.Kind]string{ir.KindString: "a string", ir.KindInt: "an int", ir.KindBool: "a bool"}[want]
			msg := fmt.Sprintf("%s() takes %s as %s, not %s (Python raises TypeError)", name, what, params[i].Name, a.Type())
			if want == ir.KindString || want == ir.KindInt && k != ir.KindBool {
				return msg
			}
			c.errorf(sp, "%s", msg) // a bool is an int, which Python may take
		}
	}
	return ""
}

// missingArg reports whether call e leaves a required parameter out.
func missingArg(params []ir.Param, e *tmpl.Call) bool {
	for i, p := range params {
		if p.Required && i >= len(e.Args) && !slices.ContainsFunc(e.Kwargs, func(kw tmpl.Kwarg) bool { return kw.Name == p.Name }) {
			return true
		}
	}
	return false
}

// methodArgKind is the kind of a string method's argument for parameter
// p: its Kind, else the kind of its default, else a string.
func methodArgKind(p ir.Param) ir.Kind {
	if p.Kind != ir.KindUnknown {
		return p.Kind
	}
	switch p.Def.(type) {
	case int64:
		return ir.KindInt
	case bool:
		return ir.KindBool
	}
	return ir.KindString
}

// typedGet checks m.get(key[, default]) of a typed map, dict or object x
// (checked from fn.X) as m[key] if key in m else default, none when not
// given: what Python's dict.get returns.
func (c *checker) typedGet(e *tmpl.Call, fn *tmpl.Attr, x ir.Expr, u use) ir.Expr {
	switch {
	case len(e.Kwargs) > 0:
		c.errorf(e.Kwargs[0].NameSpan, "get() takes no keyword arguments")
		return c.reject()
	case len(e.Args) == 0 || len(e.Args) > 2:
		c.errorf(e.Span, "get() takes a key and an optional default, not %d arguments", len(e.Args))
		return c.reject()
	}
	if fails, ok := c.alwaysUndefined(x, fn.X.Pos(), "get()"); ok {
		return fails
	}
	_, constKey := e.Args[0].(*tmpl.Const)
	switch xt := x.Type(); xt.Kind {
	case ir.KindUnknown:
		// An object whose field is optional, as o.name infers one; a map
		// where the key is known only at run time.
		kind := ir.KindMap
		if constKey {
			kind = ir.KindStruct
		}
		c.constrain(xt, kind, fn.X.Pos())
		c.mustComeFromInput(xt.Resolve(), fn.X.Pos())
	case ir.KindMap, ir.KindDict, ir.KindStruct:
	default:
		return c.failsWhereRuns(fn.NameSpan, "UndefinedError", fmt.Sprintf("get() needs a map, dict or object, not %s", xt), append([]ir.Expr{x}, c.evalArgs(e.Args, e.Kwargs)...)...)
	}
	key := e.Args[0]
	c.later = append(c.later, func() {
		if ir.MaybeUndefined(x) && !builtins.CannotFail(key) {
			c.errorf(key.Pos(), "the key of get() of a value that may be undefined must be a literal or a variable (Jinja2 fails on the undefined value before it evaluates the key)")
		}
	})
	var dflt tmpl.Expr = &tmpl.Const{Span: e.Span}
	with := map[tmpl.Expr]ir.Expr{}
	var d ir.Expr // the default, where Jinja2's evaluation of it may fail
	if len(e.Args) == 2 {
		dflt = e.Args[1]
		if !builtins.CannotFail(dflt) {
			d = c.expr(dflt, useValue)
			with[dflt] = d
		}
	}
	// Jinja2 evaluates the default, and fails where it fails, even where
	// the key is there.
	const fails = "the default of get() must be one that cannot fail, as Jinja2 evaluates it even where the key is there: " + neverFailing
	strict := &ir.Strict{X: x, Pos: c.posString(fn.NameSpan)}
	if k, ok := key.(*tmpl.Const); ok {
		if name, ok := k.Value.(string); ok {
			if xt := x.Type(); (xt.Kind == ir.KindDict || xt.Kind == ir.KindStruct && xt.Declared) && xt.Field(name) == nil {
				// A closed dict or object without the key.
				return c.eagerDefault(c.checkedAs(with, func() ir.Expr { return c.expr(dflt, u) }), dflt, d, fails, strict, d)
			}
		}
	}
	with[key] = c.expr(key, useValue)
	// Jinja2 fails to call get of undefined; MaybeUndefined(x) is known
	// only once every set of a local is checked.
	with[fn.X] = strict
	read := &tmpl.Index{Span: e.Span, X: fn.X, Index: key}
	if c.getReads == nil {
		c.getReads = map[tmpl.Expr]bool{}
	}
	c.getReads[read] = true
	out := c.checkedAs(with, func() ir.Expr {
		return c.expr(&tmpl.CondExpr{
			Span: e.Span,
			Then: read,
			Cond: &tmpl.Binary{Span: e.Span, Op: "in", X: key, Y: fn.X},
			Else: dflt,
		}, u)
	})
	if cond, ok := out.(*ir.Cond); ok {
		cond.KeyTested = true
	}
	return c.eagerDefault(out, dflt, d, fails, strict, with[key], d)
}

// isGlobalFunc reports whether name is a function of the environment
// that no local hides.
func (c *checker) isGlobalFunc(name string) bool {
	return c.lookup(name) == nil && c.isGlobalFuncName(name)
}

// isGlobalFuncName reports whether name is a function of the environment.
func (c *checker) isGlobalFuncName(name string) bool {
	return name == "namespace" || name == "range" || name == "dict" || c.p.Jinja.Transformers && slices.Contains(builtins.ProfileGlobals, name)
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
	if !c.p.Jinja.Transformers && slices.Contains(builtins.ProfileGlobals, fn.Name) && c.lookup(fn.Name) == nil {
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

// undefinedCall checks e, a call of fn, which names no function and no
// variable. In a plain template file that another may include, it may be
// a macro of the includer, which the include calls (Jinja2's include
// passes the includer's context): compiled alone, Jinja2 evaluates the
// arguments and fails (UndefinedError) where the call runs, and so does
// the render, with a warning. Elsewhere, or where the name is close to a
// known function's (a misspelling), it is an error.
func (c *checker) undefinedCall(e *tmpl.Call, fn *tmpl.Name) ir.Expr {
	known := append(slices.Sorted(maps.Keys(c.macros.names)), "dict", "namespace", "range")
	suggest := schema.DidYouMean(fn.Name, known)
	if suggest != "" || !c.includable() {
		c.errorf(fn.Span, "undefined function %q%s: a template calls the macros it defines, after their definition, and range, dict and namespace", fn.Name, suggest)
		return c.reject()
	}
	warning := fmt.Sprintf("undefined function %q: compiled alone, this file cannot call it, and Jinja2 fails where it runs, as does the render (a file that includes this one may define the macro, which the include calls)", fn.Name)
	xs := append([]ir.Expr{&ir.Const{T: &ir.Type{Kind: ir.KindNone}}}, c.evalArgs(e.Args, e.Kwargs)...) // an operation has an operand
	return c.fails(fn.Span, "function "+fn.Name, warning, xs...)
}

// dictMethodCall checks fn, a call e of the dict method items, keys,
// values or get, of x, its receiver checked.
func (c *checker) dictMethodCall(e *tmpl.Call, fn *tmpl.Attr, x ir.Expr, u use) ir.Expr {
	// The items or values of a dict literal of several types are
	// dynamic values, as the literal converts to one.
	if isDynamic(x) || fn.Name != "get" && fn.Name != "keys" && x.Type().Kind == ir.KindDict && !oneValueType(x.Type()) {
		out, _ := c.dynMethod(e, fn, x)
		return out
	}
	if fn.Name == "get" {
		return c.typedGet(e, fn, x, u)
	}
	if len(e.Args) > 0 || len(e.Kwargs) > 0 {
		c.errorf(e.Span, "%s() takes no arguments", fn.Name)
	}
	switch k := x.Type().Resolve().Kind; {
	case k == ir.KindString || k == ir.KindInt || k == ir.KindFloat || k == ir.KindBool || k == ir.KindNone || k == ir.KindList:
		return c.failsWhereRuns(fn.NameSpan, "UndefinedError", fmt.Sprintf("%s() needs a map, dict or object, not %s (Jinja2 raises UndefinedError: %s has no such method)", fn.Name, x.Type(), ir.A(k)), x)
	case k == ir.KindDict, k == ir.KindStruct && e != c.loopIter:
	case k == ir.KindUnknown && e != c.loopIter:
		// A dict view of a map or of an object: a field read elsewhere
		// makes it an object (msg.items() ... msg.len), else it is a map.
		t := x.Type()
		c.inferLater = append(c.inferLater, func() {
			if k := t.Resolve().Kind; k != ir.KindStruct && k != ir.KindMap && k != ir.KindDict && k != ir.KindDynamic {
				c.constrain(t, ir.KindMap, fn.X.Pos())
			}
		})
	default:
		c.constrain(x.Type(), ir.KindMap, fn.X.Pos())
	}
	if e != c.loopIter {
		// Python's dict view, which prints and converts unlike the map,
		// dict or object: the method of it as a dynamic value.
		out, _ := c.dynMethod(e, fn, x)
		return out
	}
	return x
}
