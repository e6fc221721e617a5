package check

import (
	"html"
	"slices"

	"github.com/promptgen/promptgen/gen/internal/builtins"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
)

// Jinja2's tojson and safe return Markup: a str whose operations escape the plain
// strings they take (+, replace() and strip()'s arguments, truncate's end)
// and whose split() returns Markup strings, which print as Markup('...')
// inside a list, as a Markup element of a list or dict literal does.
// promptgen's strings are plain: + of Markup escapes the other operand as
// Markup does (markupConcat, markupDynConcat), and the other uses of a value that may be
// Markup are rejected; every other operation prints the same text.

// markup reports whether x may be Markup (builtins.Markup), once every
// set is checked.
func (c *checker) markup(x ir.Expr) bool {
	if c.markups == nil {
		c.markups = &builtins.Markup{Transformers: c.p.Jinja.Transformers, Safe: c.safe, Sets: c.sets, Unvalued: c.unvalued, Loops: c.loops, Selects: c.selects}
	}
	return c.markups.May(x)
}

// toPlain tells how to make a tojson or safe result a plain string.
const toPlain = "make it a plain string first with ~ ''"

// checkMarkup reports, once every set is checked, an operation on x that
// differs from Jinja2's when x is Markup: one that escapes one of the
// string arguments args, or any when there are none. msg says what
// Markup does and what to write.
func (c *checker) checkMarkup(x ir.Expr, sp tmpl.Span, what, msg string, args ...ir.Expr) {
	c.later = append(c.later, func() {
		if !c.markup(x) || len(args) > 0 && !slices.ContainsFunc(args, builtins.Escaped) {
			return
		}
		c.errorf(sp, "%s a tojson or safe result is not supported: Jinja2 keeps it as Markup, %s", what, msg)
	})
}

// markupMethod decides, once every set is checked, the string method
// call of x where x may be Markup, whose method escapes the string
// arguments at escaped (replace(), strip()'s and trim's characters,
// partition()'s separator) and returns Markup: where x is Markup, the generated code
// escapes them too (escapeArg), failing where one is undefined as
// Jinja2 does; where it is Markup in some renders only,
// the call is rejected, unless escaping changes none of the arguments
// and the call's result is not items made Markup (items: split()).
func (c *checker) markupMethod(x ir.Expr, call *ir.Call, sp tmpl.Span, items bool, escaped ...int) {
	c.later = append(c.later, func() {
		if !c.markup(x) || !items && !slices.ContainsFunc(escaped, func(i int) bool { return builtins.Escaped(call.Args[i]) }) {
			return
		}
		what := call.Name + "()"
		if call.Kind == ir.CallFilter {
			what = call.Name
		}
		if !c.markups.Must(x) {
			if items {
				c.rebindMarkup(x) // a dynamic variable says whether it is Markup (markupItemsOf)
			}
			c.errorf(sp, "%s of a value that may or may not be a tojson or safe result (one in some renders only, or an item read from a tuple or list) is not supported: Markup's %s %s, a plain string's does not (%s)", what, what, markupMethods[call.Name], toPlain)
			return
		}
		for _, i := range escaped {
			a := call.Args[i]
			switch {
			case !builtins.Escaped(a) || a.Type().Kind != ir.KindString && a.Type().Kind != ir.KindDynamic:
			case c.markup(a) && !c.markups.Kept(a):
				c.errorf(sp, "%s of a tojson or safe result with an argument that may or may not be one is not supported: Jinja2's Markup escapes a plain string argument and leaves Markup as it is (%s)", what, toPlain)
			case ir.MaybeUndefined(a):
				// Escaped, undefined would be ''; Jinja2 fails (TypeError)
				// where it is undefined, as the plain string's method does.
				call.Args[i] = escapeArg(&ir.Strict{X: a, Pos: call.Pos}, call.Pos)
			default:
				call.Args[i] = escapeArg(a, call.Pos)
			}
		}
	})
}

// markupTruncate decides, once every set is checked, truncate of x,
// call, where x may be Markup: Markup's truncate cuts s[:length -
// len(end)] with the end as it is and appends it with Markup's +, which
// escapes a plain end (ir.Call.EscapeEnd) and leaves a Markup end as it
// is. An x or an end that is Markup in some renders only is rejected.
func (c *checker) markupTruncate(x ir.Expr, call *ir.Call, sp tmpl.Span) {
	c.later = append(c.later, func() {
		end := call.Args[2]
		if !c.markup(x) || !builtins.Escaped(end) {
			return
		}
		switch {
		case !c.markups.Must(x):
			c.errorf(sp, "truncate of a value that may or may not be a tojson or safe result (one in some renders only, or an item read from a tuple or list) is not supported: Markup's truncate escapes the end it appends, a plain string's does not (%s)", toPlain)
		case !c.markup(end):
			call.EscapeEnd = true
		case !c.markups.Must(end):
			c.errorf(sp, "truncate of a tojson or safe result with an end that may or may not be one is not supported: Jinja2's Markup escapes a plain end and leaves Markup as it is (%s)", toPlain)
		}
	})
}

// markupMethods says what the string methods that markupMethod checks do
// of Markup.
var markupMethods = map[string]string{
	"replace": "escapes its arguments", "strip": "escapes the characters", "trim": "escapes the characters", "lstrip": "escapes the characters", "rstrip": "escapes the characters",
	"split": "returns Markup strings", "splitlines": "returns Markup strings",
	"partition": "escapes the separator and returns Markup strings", "rpartition": "escapes the separator and returns Markup strings",
}

// markupItems checks x.split(), splitlines(), partition() or rpartition(),
// call, whose Markup strings print as Markup('...') in the list or tuple
// it returns, and reports whether the call is to be a dynamic value whose
// items are Markup (ir.DynMarkupItems): where x may be Markup by the sets
// checked so far (markupHere), as the result's type is decided now; x must
// then be Markup on every render (markupMethod). Markup escapes the
// arguments at escaped (partition()'s separator).
func (c *checker) markupItems(x ir.Expr, call *ir.Call, sp tmpl.Span, escaped ...int) bool {
	if !c.markupHere().May(x) {
		c.checkMarkup(x, sp, call.Name+"() of a variable that a set after it may make", "whose "+call.Name+"() returns Markup strings, which promptgen keeps only where a set before the call makes the variable Markup ("+toPlain+")")
		return false
	}
	c.markupMethod(x, call, sp, true, escaped...)
	return true
}

// markupItemsOf checks, once every set is checked, split() or
// splitlines() of x, a dynamic value that may be Markup, whose items
// the runtime makes Markup where x is (ir.DynMarkupItems of two
// operands): x must keep Markup where Jinja2's value is
// (builtins.Markup.Kept).
func (c *checker) markupItemsOf(x ir.Expr, sp tmpl.Span) {
	c.later = append(c.later, func() {
		if c.markup(x) && !c.markups.Kept(x) {
			c.errorf(sp, "split() of a value that may or may not hold a tojson or safe result, where a set of it may not say which, is not supported: Markup's split() returns Markup strings, a plain string's does not (%s)", toPlain)
		}
	})
}

// markupStrMethods are the supported str methods, other than split() and
// its kin, whose Markup returns Markup (markupsafe wraps them): of a dynamic value
// that may be Markup, the result is Markup where the value is.
var markupStrMethods = map[string]bool{"capitalize": true, "center": true, "ljust": true, "lower": true, "lstrip": true, "replace": true,
	"rjust": true, "rstrip": true, "strip": true, "swapcase": true, "title": true, "upper": true, "zfill": true}

// rereadable reports whether x, evaluated again, yields the same value
// and changes nothing: a variable, a constant, a loop attribute, and
// items, attributes, slices, get(), +, tuples, str methods, string filters and
// the string of such values, conditions of them.
func rereadable(x ir.Expr) bool {
	switch x := x.(type) {
	case *ir.LocalRef, *ir.Const, *ir.LoopAttr:
		return true
	case *ir.FieldRef:
		return x.Of == nil || rereadable(x.Of)
	case *ir.Cond:
		return rereadable(x.Cond) && rereadable(x.Then) && (x.Else == nil || rereadable(x.Else))
	case *ir.Call:
		pure := x.Kind == ir.CallMethod || x.Kind == ir.CallFilter && builtins.Filters[x.Name].Flags&(builtins.TakesString|builtins.PrintsOperand) != 0
		return pure && rereadable(x.X) && !slices.ContainsFunc(x.Args, func(a ir.Expr) bool { return !rereadable(a) })
	case *ir.Dynamic:
		switch x.Op {
		case ir.DynItem, ir.DynAttr, ir.DynSlice, ir.DynGet, ir.DynStr, ir.DynAsString, ir.DynMarkup, ir.DynDefault, ir.DynTuple:
		case ir.DynArith:
			if x.Name != "+" {
				return false
			}
		default:
			return false
		}
		return !slices.ContainsFunc(x.Args, func(a ir.Expr) bool { return a != nil && !rereadable(a) })
	}
	return false
}

// markupBranches returns x where call, a str method whose Markup returns
// Markup strings (split(), splitlines(), partition(), rpartition()), is
// of x, a condition that may be Markup in one branch by the sets checked
// so far, and its arguments are constants: call is then made branch by
// branch (markupItemsBranches). It returns nil otherwise.
func (c *checker) markupBranches(x ir.Expr, call *ir.Call) *ir.Cond {
	cond, ok := x.(*ir.Cond)
	if !ok || cond.Else == nil || !markupItemMethods[call.Name] || !c.markupHere().May(cond) ||
		slices.ContainsFunc(call.Args, func(a ir.Expr) bool { _, ok := a.(*ir.Const); return !ok }) {
		return nil
	}
	return cond
}

// markupItemMethods are the str methods whose Markup returns Markup
// strings in a list or tuple.
var markupItemMethods = map[string]bool{"split": true, "splitlines": true, "partition": true, "rpartition": true}

// markupItemsBranches is call of cond (markupBranches), a dynamic value:
// the condition, of cond's condition, of the call of each branch, as
// Jinja2 calls the method of the branch taken, whose Markup returns
// Markup strings (markupItems, the arguments at escaped escaped).
func (c *checker) markupItemsBranches(cond *ir.Cond, call *ir.Call, sp tmpl.Span, escaped ...int) ir.Expr {
	branch := func(x ir.Expr) ir.Expr {
		b := *call
		b.X, b.Args = x, slices.Clone(call.Args)
		if c.markupItems(x, &b, sp, escaped...) {
			return c.dyn(ir.DynMarkupItems, "", ir.DynamicType(), sp, &b)
		}
		return &b
	}
	out := *cond
	out.Then, out.Else, out.T = branch(cond.Then), branch(cond.Else), ir.DynamicType()
	return &out
}

// escapeArg is x escaped as Markup escapes a string argument of its
// methods: a constant escaped now (html.EscapeString escapes & < > ' " as
// markupsafe does), another value by the filter escape, which leaves
// Markup as it is (keepMarkup keeps it so).
func escapeArg(x ir.Expr, pos string) ir.Expr {
	if k, ok := x.(*ir.Const); ok {
		return &ir.Const{Value: html.EscapeString(k.Value.(string)), T: &ir.Type{Kind: ir.KindString}}
	}
	esc := &ir.Dynamic{Op: ir.DynFilter, Name: "escape", Args: []ir.Expr{x}, T: ir.DynamicType(), Pos: pos}
	return &ir.Dynamic{Op: ir.DynStr, Args: []ir.Expr{esc}, T: &ir.Type{Kind: ir.KindString}, Pos: pos}
}

// safeFilter checks x|safe, Markup(x): the text of x|string, which may be
// Markup.
func (c *checker) safeFilter(e *tmpl.Filter, u use) ir.Expr {
	if len(e.Args) > 0 || len(e.Kwargs) > 0 {
		c.errorf(e.NameSpan, "filter safe takes no arguments")
		return c.reject()
	}
	str := *e
	str.Name = "string"
	c.safeOf = &str // Markup on every render, not where x is (filter)
	x := c.filter(&str, u)
	if c.safe == nil {
		c.safe = map[ir.Expr]bool{}
	}
	c.safe[x] = true
	return x
}

// markupConcat decides, once every set is checked, what x + y of strings
// does where an operand may be Markup: Markup escapes the plain string it
// is added to (and the result is Markup), and so does the generated code.
func (c *checker) markupConcat(out *ir.Binary, sp tmpl.Span) {
	if out.T.Resolve().Kind != ir.KindString {
		return
	}
	out.EscapeX, out.EscapeY = c.markupEscapes(out.X, out.Y, sp)
}

// markupDynConcat checks, once every set is checked, a + of dynamic
// values, which the runtime adds as Jinja2 does where an operand is
// Markup: an operand whose dynamic value may not say whether it is
// Markup (builtins.Markup.Kept) is rejected.
func (c *checker) markupDynConcat(out *ir.Dynamic, sp tmpl.Span) {
	if c.markup(out) && (!c.markups.KeptOperand(out.Args[0]) || !c.markups.KeptOperand(out.Args[1])) {
		c.rebindMarkup(out.Args[0])
		c.rebindMarkup(out.Args[1])
		c.errorf(sp, mayBeMarkup)
	}
}

// dynAt is a dynamic operation and where it is (in the template or the
// included file it stands in).
type dynAt struct {
	x   *ir.Dynamic
	pos src.Pos
}

// checkHolders rejects, once the other checks are done (which may have
// said why already), a fill of slice or batch that the dynamic value may
// not keep as Markup where Jinja2's is, and each dynamic operation on a value that may hold
// Markup as an item (a tuple or list of a tojson or safe result) where the
// runtime does not read it as Jinja2 does (builtins.ReadsHolder) or the
// value may not keep Markup (builtins.Markup.Kept).
func (c *checker) checkHolders() {
	for _, d := range c.dyns {
		if builtins.Filled(d.x) && c.markup(d.x.Args[2]) && !c.markups.Kept(d.x.Args[2]) {
			c.diags.Errorf(d.pos, "a fill of %s that may or may not be a tojson or safe result is not supported: Jinja2 keeps Markup as it is in the lists it yields, which print it as Markup('...') (%s)", d.x.Name, toPlain)
		}
		for _, a := range d.x.Args {
			if a == nil || !c.markupHolds(a) || c.failedAtPos(d.pos) {
				continue
			}
			if !builtins.ReadsHolder(d.x) || !c.markups.Kept(a) {
				c.diags.Errorf(d.pos, "this operation on a tuple or list that may hold a tojson or safe result is not supported: Jinja2 keeps each such item as Markup, which only items, attributes, slices, first, last, list, reverse, sort, unique, min, max, groupby, map, slice, batch, + and printing keep here ("+toPlain+")")
			}
		}
	}
}

// markupHolds reports whether x may hold Markup as an item (builtins.Markup.Holds).
func (c *checker) markupHolds(x ir.Expr) bool {
	c.markup(x) // makes c.markups
	return c.markups.Holds(x)
}

// markupSomeRenders reports whether x op y is a + of strings where an
// operand may be Markup in some renders only by the sets checked so far
// (a condition Markup in one branch): it is then a + of dynamic values,
// which the runtime adds as Jinja2 does where an operand is Markup
// (markupDynConcat keeps such a condition branch by branch). As more
// sets only make more values Markup, and fewer Markup on every render, a
// + that the sets checked later make so stays typed and rejected
// (markupEscapes).
func (c *checker) markupSomeRenders(op string, x, y ir.Expr) bool {
	if op != "+" || x.Type().Resolve().Kind != ir.KindString || y.Type().Resolve().Kind != ir.KindString {
		return false
	}
	here := c.markupHere()
	return here.May(x) && !here.Must(x) || here.May(y) && !here.Must(y)
}

// mayBeMarkup rejects a + of a value that is Markup on some renders only.
const mayBeMarkup = "+ on a value that may or may not be a tojson or safe result is not supported: Jinja2's Markup escapes the other string, a plain string does not (" + toPlain + ", or concatenate with ~, which does not escape)"

// keepMarkup converts, in bodies, each typed Markup value that becomes a
// dynamic value where Markup makes a difference to jinja.MarkupValue
// (ir.DynMarkup), which + then adds as Markup: the operands of a dynamic
// + or *, the values of printf-style formatting, the string an item, a slice, last, escape or a filter that keeps Markup
// reads, default's value and default, get()'s, groupby's and map's default, slice's and batch's fill, the value a dynamic local is set
// to, an item a list method gives a dynamic list, a branch of a dynamic condition, an operand of a dynamic and/or, of a dynamic loop.cycle(), and of the test escaped. It runs once every check is
// done, as Kept assumes it.
func (c *checker) keepMarkup(bodies []*ir.Prompt) {
	if c.markups == nil {
		return // no value was asked about, so none is Markup
	}
	keep := func(x *ir.Expr) {
		if *x != nil && (*x).Type().Kind == ir.KindString && c.markups.Must(*x) {
			*x = &ir.Dynamic{Op: ir.DynMarkup, Args: []ir.Expr{*x}, T: ir.DynamicType()}
		}
	}
	// keepDyn keeps x, or the branches of x made a dynamic condition.
	keepDyn := func(x *ir.Expr) {
		if cond, ok := (*x).(*ir.Cond); ok && cond.T.Resolve().Kind == ir.KindDynamic {
			keep(&cond.Then)
			keep(&cond.Else)
			return
		}
		keep(x)
	}
	for _, s := range c.sets {
		if s.Value != nil && s.Local.T.Resolve().Kind == ir.KindDynamic {
			c.keepBranches(&s.Value, keep)
			keep(&s.Value)
		}
	}
	for _, b := range bodies {
		ir.WalkFuncs(b, func(x ir.Expr) {
			switch x := x.(type) {
			case *ir.Dynamic:
				switch {
				case x.Op == ir.DynArith && x.Name == "+":
					// A condition Markup in one branch only, which
					// markupDynConcat allows, is kept branch by branch.
					for i := range x.Args {
						c.keepBranches(&x.Args[i], keep)
						keepDyn(&x.Args[i])
					}
				case x.Op == ir.DynArith && x.Name == "*", x.Op == ir.DynDefault:
					keep(&x.Args[0])
					keep(&x.Args[1])
				case x.Op == ir.DynTuple, x.Op == ir.DynArith && x.Name == "%", x.Op == ir.DynFilter && (x.Name == "format" || x.Name == "str.format"):
					// A tuple's items, the values % and str.format format
					// (format's Args[0] is the format, which checkMarkup
					// rejects as Markup, as it is %'s).
					for i := range x.Args {
						c.keepBranches(&x.Args[i], keep)
						keepDyn(&x.Args[i])
					}
				case x.Op == ir.DynGet:
					keep(&x.Args[2])
				case x.Op == ir.DynFilter && (x.Name == "groupby" || x.Name == "map"):
					keep(&x.Args[2]) // default=
				case x.Op == ir.DynFilter && (x.Name == "slice" || x.Name == "batch"):
					keep(&x.Args[2]) // the fill
				case x.Op == ir.DynSlice || x.Op == ir.DynItem || x.Op == ir.DynLast,
					x.Op == ir.DynFilter && (x.Name == "escape" || builtins.Filters[x.Name].Flags&builtins.KeepsMarkup != 0):
					keep(&x.Args[0])
				}
			case *ir.Call:
				if x.Kind == ir.CallTest && x.Name == "escaped" {
					// The test reads whether it is Markup.
					c.keepBranches(&x.X, keep)
					keepDyn(&x.X)
				}
				if x.Kind == ir.CallListMethod && x.X.Type().Resolve().Kind == ir.KindDynamic {
					for i := range x.Args {
						if listItemArg(x.Name, i) {
							c.keepBranches(&x.Args[i], keep)
							keepDyn(&x.Args[i])
						}
					}
				}
			case *ir.List:
				if x.T.Resolve().Kind == ir.KindDynamic {
					for i := range x.Items {
						c.keepBranches(&x.Items[i], keep)
						keepDyn(&x.Items[i])
					}
				}
			case *ir.Dict:
				if x.T.Resolve().Kind == ir.KindDynamic {
					for i := range x.Values {
						c.keepBranches(&x.Values[i], keep)
						keepDyn(&x.Values[i])
					}
				}
			case *ir.Cond:
				if x.T.Resolve().Kind == ir.KindDynamic {
					keep(&x.Then)
					keep(&x.Else)
				}
			case *ir.Binary:
				if x.Value && x.T.Resolve().Kind == ir.KindDynamic {
					keep(&x.X)
					keep(&x.Y)
				}
			case *ir.LoopCycle:
				if x.T.Resolve().Kind == ir.KindDynamic {
					for i := range x.Args {
						keep(&x.Args[i])
					}
				}
			}
		})
	}
}

// keepBranches makes *x, an element of a dynamic list or dict literal,
// a tuple item or a + operand that builtins.Markup.ByBranch allows, a
// dynamic condition or and/or whose branches (operands) are kept each on
// its own, in turn (keep).
func (c *checker) keepBranches(x *ir.Expr, keep func(*ir.Expr)) {
	if !c.markups.ByBranch(*x) {
		return
	}
	var dyn ir.Expr
	var branches []*ir.Expr
	switch b := (*x).(type) {
	case *ir.Cond:
		d := *b
		d.T, dyn, branches = ir.DynamicType(), &d, []*ir.Expr{&d.Then, &d.Else}
	case *ir.Binary:
		d := *b
		d.T, dyn, branches = ir.DynamicType(), &d, []*ir.Expr{&d.X, &d.Y}
	}
	for _, br := range branches {
		if *br != nil {
			c.keepBranches(br, keep)
			keep(br)
		}
	}
	*x = dyn
}

// rebindMarkup asks, where x is a typed local that is Markup in some
// renders only (or a condition or and/or with one as a branch), each
// set of which assigns Markup on every render or never (or a condition
// kept branch by branch), to check the template again with the local
// dynamic, which keeps Markup set by set (keepMarkup): the rejection of
// x stays only if that check fails too.
func (c *checker) rebindMarkup(x ir.Expr) {
	switch x := x.(type) {
	case *ir.Cond:
		c.rebindMarkup(x.Then)
		if x.Else != nil {
			c.rebindMarkup(x.Else)
		}
	case *ir.Binary:
		if x.Value {
			c.rebindMarkup(x.X)
			c.rebindMarkup(x.Y)
		}
	case *ir.LocalRef:
		l := x.L
		if l.T.Resolve().Kind == ir.KindDynamic || c.unvalued[l] || c.feed.Field(l.Name) != nil || !c.markups.May(x) || c.markups.Must(x) {
			return
		}
		for _, s := range c.sets {
			if s.Local == l && (s.Value == nil || !c.markups.KeptOperand(s.Value)) {
				return
			}
		}
		c.rebinding[l.Name] = true
	}
}

// markupEscapes tells which operand of x + y Markup escapes: the one that
// is not Markup, where the other is. An operand that is Markup for some
// renders and not others is rejected (rebindMarkup).
func (c *checker) markupEscapes(x, y ir.Expr, sp tmpl.Span) (escX, escY bool) {
	mayX, mayY := c.markup(x), c.markup(y)
	switch {
	case !mayX && !mayY:
	case mayX && !c.markups.Must(x) || mayY && !c.markups.Must(y):
		c.rebindMarkup(x)
		c.rebindMarkup(y)
		c.errorf(sp, mayBeMarkup)
	case !mayY:
		escY = builtins.Escaped(y)
	case !mayX:
		escX = builtins.Escaped(x)
	}
	return escX, escY
}
