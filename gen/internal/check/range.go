package check

import (
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
)

// rangeCall checks Jinja2's global range(stop) or range(start, stop[,
// step]): Python's range, of ints, positional arguments only.
func (c *checker) rangeCall(e *tmpl.Call) ir.Expr {
	out := &ir.Range{Start: constExpr(int64(0)), Stop: constExpr(int64(0)), Step: constExpr(int64(1)), Pos: c.posString(e.Span)}
	switch {
	case len(e.Kwargs) > 0:
		c.errorf(e.Kwargs[0].NameSpan, "range() takes no keyword arguments")
		return out
	case len(e.Args) == 0 || len(e.Args) > 3:
		c.errorf(e.Span, "range() takes 1 to 3 arguments, got %d", len(e.Args))
		return out
	}
	args := make([]ir.Expr, len(e.Args))
	for i, a := range e.Args {
		args[i] = c.expr(a, useValue)
		if c.rejected[args[i]] {
			continue
		}
		if d, ok := failing(args[i]); ok {
			// It fails before range runs, after the arguments before it.
			return c.failsAfter(args[:i], d, a.Pos())
		}
		if isDynamic(args[i]) {
			c.errorf(a.Pos(), "range() of a dynamic value is not supported (its arguments must be ints)")
			continue
		}
		c.constrain(args[i].Type(), ir.KindInt, a.Pos())
		x, sp := args[i], a.Pos()
		c.later = append(c.later, func() {
			if k := x.Type().Kind; k == ir.KindFloat {
				c.errorf(sp, "range() takes ints, not a %s (Python raises TypeError): convert it with | int", k)
			}
		})
	}
	switch len(args) {
	case 1:
		out.Stop = args[0]
	case 2:
		out.Start, out.Stop = args[0], args[1]
	default:
		out.Start, out.Stop, out.Step = args[0], args[1], args[2]
	}
	return out
}
