package check

import (
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
)

// Jinja2's tojson and safe return Markup: a str whose operations escape the plain
// strings they take (+, replace() and strip()'s arguments, truncate's end)
// and whose split() returns Markup strings, which print as Markup('...')
// inside a list, as a Markup element of a list or dict literal does.
// promptgen's strings are plain, so it rejects those uses of a value that
// may be Markup; every other operation prints the same text.

// toPlain tells how to make a tojson or safe result a plain string.
const toPlain = "make it a plain string first with ~ ''"

// markup reports whether x may be Markup: a tojson or safe result, or what the
// string operations that keep Markup make of one.
func (c *checker) markup(x ir.Expr) bool {
	if c.safe[x] {
		return true
	}
	switch x := x.(type) {
	case *ir.Call:
		switch {
		case x.Kind == ir.CallFilter && x.Name == "tojson":
			return !c.p.Jinja.Transformers // transformers' tojson returns a str
		case x.Kind == ir.CallFilter && x.Name == "default":
			return c.markup(x.X) || c.markup(x.Args[0])
		case x.Kind == ir.CallFilter && filters[x.Name].flags&keepsMarkup != 0:
			return c.markup(x.X)
		case x.Kind == ir.CallMethod:
			return x.T.Kind == ir.KindString && c.markup(x.X)
		}
	case *ir.Index:
		return x.T.Kind == ir.KindString && c.markup(x.X)
	case *ir.Slice:
		return x.T.Kind == ir.KindString && c.markup(x.X)
	case *ir.Binary:
		switch {
		case x.Value:
			for _, l := range yields(x) {
				if c.markup(l) {
					return true
				}
			}
		case x.Op == "+" || x.Op == "*":
			return x.T.Kind == ir.KindString && (c.markup(x.X) || c.markup(x.Y))
		}
	case *ir.Cond:
		return c.markup(x.Then) || x.Else != nil && c.markup(x.Else)
	case *ir.LocalRef:
		return c.markupLocal(x.L)
	case *ir.LoopCycle:
		return slices.ContainsFunc(x.Args, c.markup)
	}
	return false
}

// markupLocal reports whether a set assigns local l a value that may be
// Markup. It is known once every set is checked.
func (c *checker) markupLocal(l *ir.Local) bool {
	if c.markupLocals == nil {
		c.markupLocals = map[*ir.Local]bool{}
		for changed := true; changed; {
			changed = false
			for _, s := range c.sets {
				if s.Value != nil && !c.markupLocals[s.Local] && c.markup(s.Value) {
					c.markupLocals[s.Local], changed = true, true
				}
			}
		}
	}
	return c.markupLocals[l]
}

// escaped reports whether Markup would escape the string argument x: it
// does unless x is a constant without a character that escaping changes
// (or an absent argument).
func escaped(x ir.Expr) bool {
	k, ok := x.(*ir.Const)
	if !ok {
		return true
	}
	s, _ := k.Value.(string)
	return strings.ContainsAny(s, `&<>'"`)
}

// checkMarkup reports, once every set is checked, an operation on x that
// differs from Jinja2's when x is Markup: one that escapes one of the
// string arguments args, or any when there are none. msg says what
// Markup does and what to write.
func (c *checker) checkMarkup(x ir.Expr, sp tmpl.Span, what, msg string, args ...ir.Expr) {
	c.later = append(c.later, func() {
		if !c.markup(x) || len(args) > 0 && !slices.ContainsFunc(args, escaped) {
			return
		}
		c.errorf(sp, "%s a tojson or safe result is not supported: Jinja2 keeps it as Markup, %s", what, msg)
	})
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
	x := c.filter(&str, u)
	if c.safe == nil {
		c.safe = map[ir.Expr]bool{}
	}
	c.safe[x] = true
	return x
}
