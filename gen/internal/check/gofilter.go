package check

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
	"github.com/promptgen/promptgen/schema"
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

// goFilterCall types a call of a Go filter: the operand and the
// arguments, positional or by the name of the function's parameter (as
// Python's filters take them), take the types of the function's parameters
// (inferring the feed's where they are unknown), and the call the type of
// its result.
func (c *checker) goFilterCall(e *tmpl.Filter, g *ir.GoFilter) ir.Expr {
	x := c.expr(e.X, useValue)
	if g.Params == nil {
		for _, a := range e.Args {
			c.expr(a, useValue)
		}
		for _, kw := range e.Kwargs {
			c.expr(kw.Value, useValue)
		}
		return c.reject() // reported where filters: names it
	}
	n := len(g.Params) - 1
	if len(e.Args) > n || len(e.Kwargs) == 0 && len(e.Args) != n {
		c.errorf(e.Span, "filter %s takes %s, got %d (%s)", g.Name, plural(n, "argument"), len(e.Args)+len(e.Kwargs), g.Signature)
		return c.reject()
	}
	args, spans := make([]ir.Expr, n), make([]tmpl.Span, n)
	for i, a := range e.Args {
		args[i], spans[i] = c.expr(a, useValue), a.Pos()
	}
	ok := true
	for _, kw := range e.Kwargs {
		v := c.expr(kw.Value, useValue)
		switch i := slices.Index(g.ArgNames, kw.Name); {
		case i < 0:
			c.errorf(kw.NameSpan, "filter %s has no parameter %q%s (%s)", g.Name, kw.Name, schema.DidYouMean(kw.Name, g.ArgNames), g.Signature)
			ok = false
		case args[i] != nil:
			c.errorf(kw.NameSpan, "filter %s got parameter %q twice (%s)", g.Name, kw.Name, g.Signature)
			ok = false
		default:
			args[i], spans[i] = v, kw.Value.Pos()
		}
	}
	for i, a := range args {
		if a == nil && ok {
			c.errorf(e.Span, "filter %s needs parameter %s (%s)", g.Name, argName(g, i), g.Signature)
			ok = false
		}
	}
	if !ok {
		return c.reject()
	}
	operands := append([]ir.Expr{x}, args...)
	spans = append([]tmpl.Span{e.X.Pos()}, spans...)
	for i, v := range operands {
		if c.rejected[v] {
			ok = false
			continue
		}
		what := "the filtered value"
		if n, ok := e.X.(*tmpl.Name); ok && n.Name == selectItem {
			what = "each item that map passes it"
		}
		if i > 0 {
			what = "argument " + argName(g, i-1)
		}
		want := types.Clone(g.Params[i], map[*ir.Type]*ir.Type{})
		if isDynamic(v) {
			c.errorf(spans[i], "filter %s: %s is a dynamic value (of the chat context), the Go function takes %s: convert it first, such as with | string (%s)", g.Name, what, ir.A(goType{want}), g.Signature)
			ok = false
			continue
		}
		if !types.Unifiable(v.Type(), want) {
			c.errorf(spans[i], "filter %s: %s is %s, the Go function takes %s (%s)", g.Name, what, ir.A(goType{v.Type()}), ir.A(goType{want}), g.Signature)
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

// argName names argument i of g in errors: its parameter's name quoted,
// else its number.
func argName(g *ir.GoFilter, i int) string {
	if g.ArgNames[i] != "" {
		return strconv.Quote(g.ArgNames[i])
	}
	return strconv.Itoa(i + 1)
}

// goType writes a type as errors do, a bound Go struct type by its name
// ("list of crm.Order"), so that it differs from the feed's objects.
type goType struct{ t *ir.Type }

func (g goType) String() string {
	switch t := g.t.Resolve(); {
	case t.Kind == ir.KindList:
		return "list of " + goType{t.Elem}.String()
	case t.Kind == ir.KindMap:
		return "map of " + goType{t.Elem}.String()
	case t.Go != nil:
		return t.Name
	default:
		return t.String()
	}
}

// plural writes n and noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprint(n) + " " + noun + "s"
}
