package check

import (
	"fmt"
	"slices"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
)

// failsWhereRuns is an operation at sp that Jinja2 fails on whatever its
// operands' values, raising exc (UndefinedError, or TypeError or an
// exception mapped alike) where it runs; msg says why. Where the code
// always runs it is an error. Where it may not run (mayNotRun) it is a
// warning, and the render fails where it runs, as Jinja2 does: after
// evaluating operands, which Jinja2 evaluates first, with ErrUndefined
// where one of them is undefined (Jinja2's Undefined fails every
// operation, before the operation's TypeError; an operand whose
// undefined Jinja2 takes is passed as evaluatedTrue of it) and else exc's
// error (ErrInvalid for TypeError, ErrUndefined for UndefinedError). The
// result is a dynamic value, which the expression around it checks as
// one, without more errors.
func (c *checker) failsWhereRuns(sp tmpl.Span, exc, msg string, operands ...ir.Expr) ir.Expr {
	if !c.mayNotRun() || slices.ContainsFunc(operands, c.checkedAsString) {
		c.errorf(sp, "%s", msg)
		return c.reject()
	}
	kind := "UndefinedError" // jinja.Missing's kinds
	if exc != kind {
		kind = "TypeError" // ErrInvalid, as AttributeError and FilterArgumentError
	}
	out := c.fails(sp, kind+" "+msg, fmt.Sprintf("%s: Jinja2 raises %s where it runs, and so does the render", msg, exc), evaluatedTrue(operands...))
	if kind == "TypeError" {
		// Python raises UndefinedError of an undefined operand first: a
		// field is optional once every use is checked (a later x is
		// defined makes it so).
		c.later = append(c.later, func() {
			for _, x := range operands {
				if ir.MaybeUndefined(x) {
					out.Args = append(out.Args, &ir.Call{Kind: ir.CallTest, Name: "defined", X: x, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(sp)})
				}
			}
		})
	}
	return out
}

// fails warns at sp and returns a dynamic value that fails the render
// where it runs, after evaluating args, as jinja.Missing fails with what.
func (c *checker) fails(sp tmpl.Span, what, warning string, args ...ir.Expr) *ir.Dynamic {
	c.diags.Warnf(c.pos(sp), "%s", warning)
	return c.dyn(ir.DynMissing, what, ir.DynamicType(), sp, args...)
}

// evalArgs checks a call's arguments, which Jinja2 evaluates before it
// calls: positional, then keyword.
func (c *checker) evalArgs(args []tmpl.Expr, kwargs []tmpl.Kwarg) []ir.Expr {
	var xs []ir.Expr
	for _, a := range args {
		xs = append(xs, c.expr(a, useValue))
	}
	for _, kw := range kwargs {
		xs = append(xs, c.expr(kw.Value, useValue))
	}
	return xs
}

// checkedAsString reports whether x is an inferred input checked as a
// string from its first use (Config.Kinds), a check that stands only
// where it passes: an operation it fails on keeps the first check's
// message.
func (c *checker) checkedAsString(x ir.Expr) bool {
	t := x.Type().Resolve()
	if t.Declared || len(c.kinds) == 0 {
		return false
	}
	p, ok := c.inputPath(t)
	return ok && c.kinds[p] == ir.KindString
}

// failing returns x where it is a value that fails the render where it
// runs (fails).
func failing(x ir.Expr) (*ir.Dynamic, bool) {
	d, ok := x.(*ir.Dynamic)
	return d, ok && d.Op == ir.DynMissing
}

// failsAfter is f, a failing value, as the operand of an operation that
// Jinja2 evaluates after before: it fails as f does, after before (a
// true operand first, which no kind of jinja.Missing reads).
func (c *checker) failsAfter(before []ir.Expr, f *ir.Dynamic, sp tmpl.Span) ir.Expr {
	return c.dyn(ir.DynMissing, f.Name, ir.DynamicType(), sp, append([]ir.Expr{evaluatedTrue(before...)}, f.Args...)...)
}

// isTrue reports whether x is true once evaluated, as evaluatedTrue makes
// it: evaluatedTrue of it again would only repeat the truth test.
func isTrue(x ir.Expr) bool {
	switch x := x.(type) {
	case *ir.Const:
		return x.Value == true
	case *ir.Binary:
		return x.Op == "or" && isTrue(x.Y) || x.Op == "and" && isTrue(x.X) && isTrue(x.Y)
	}
	return false
}
