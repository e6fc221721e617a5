package check

import (
	"fmt"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
)

// goFilter returns the filter of `filters:` named name, nil when none.
func (c *checker) goFilter(name string) *ir.GoFilter {
	for _, g := range c.p.Filters {
		if g.Name == name {
			return g
		}
	}
	return nil
}

// goFilterCall types a call of a Go filter: the operand and positional
// arguments take the types of the function's parameters (inferring the
// feed's where they are unknown), and the call the type of its result.
func (c *checker) goFilterCall(e *tmpl.Filter, g *ir.GoFilter) ir.Expr {
	x := c.expr(e.X, useValue)
	args := make([]ir.Expr, len(e.Args))
	for i, a := range e.Args {
		args[i] = c.expr(a, useValue)
	}
	for _, kw := range e.Kwargs {
		c.expr(kw.Value, useValue)
	}
	switch {
	case g.Params == nil:
		return c.reject() // reported where filters: names it
	case len(e.Kwargs) > 0:
		c.errorf(e.Kwargs[0].NameSpan, "filter %s takes positional arguments only (%s)", g.Name, g.Signature)
		return c.reject()
	case len(args) != len(g.Params)-1:
		c.errorf(e.Span, "filter %s takes %s, got %d (%s)", g.Name, plural(len(g.Params)-1, "argument"), len(args), g.Signature)
		return c.reject()
	}
	operands := append([]ir.Expr{x}, args...)
	spans := append([]tmpl.Span{e.X.Pos()}, make([]tmpl.Span, len(e.Args))...)
	for i, a := range e.Args {
		spans[i+1] = a.Pos()
	}
	ok := true
	for i, v := range operands {
		if c.rejected[v] {
			ok = false
			continue
		}
		what := "the filtered value"
		if i > 0 {
			what = fmt.Sprintf("argument %d", i)
		}
		want := types.Clone(g.Params[i], map[*ir.Type]*ir.Type{})
		if isDynamic(v) {
			c.errorf(spans[i], "filter %s: %s is a dynamic value (of the chat context), the Go function takes %s: convert it first, such as with | string (%s)", g.Name, what, goTypeString(want), g.Signature)
			ok = false
			continue
		}
		if !types.Unifiable(v.Type(), want) {
			c.errorf(spans[i], "filter %s: %s is %s, the Go function takes %s (%s)", g.Name, what, goTypeString(v.Type()), goTypeString(want), g.Signature)
			ok = false
			continue
		}
		c.unify(v.Type(), want, spans[i])
	}
	c.staysTyped(e.Span, operands...)
	if !ok {
		return c.reject()
	}
	return &ir.Call{Kind: ir.CallGoFilter, Name: g.Name, X: x, Args: args, Go: g,
		T: types.Clone(g.Result, map[*ir.Type]*ir.Type{}), Pos: c.posString(e.NameSpan)}
}

// goTypeString writes t as errors do, a bound Go struct type by its name
// ("list of crm.Order"), so that it differs from the feed's objects.
func goTypeString(t *ir.Type) string {
	switch t = t.Resolve(); {
	case t.Kind == ir.KindList:
		return "list of " + goTypeString(t.Elem)
	case t.Kind == ir.KindMap:
		return "map of " + goTypeString(t.Elem)
	case t.Go != nil:
		return t.Name
	}
	return t.String()
}

// plural writes n and noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprint(n) + " " + noun + "s"
}
