package check

import (
	"fmt"
	"maps"
	"slices"

	"github.com/promptgen/promptgen/gen/internal/builtins"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/schema"
)

func (c *checker) test(e *tmpl.Test) ir.Expr {
	if x, ok := c.definedGlobal(e); ok {
		return x
	}
	if op, ok := builtins.ComparisonTests[e.Name]; ok {
		if len(e.Args) != 1 {
			c.errorf(e.Span, "test %s takes 1 argument, got %d", e.Name, len(e.Args))
			return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
		}
		return c.expr(builtins.Negated(e, &tmpl.Binary{Span: e.Span, Op: op, X: e.X, Y: e.Args[0]}), useTest)
	}
	if e.Name == "sameas" {
		return c.sameas(e)
	}
	if _, ok := ir.TestParams[e.Name]; !ok && c.goFilter(e.Name) != nil {
		// As in Jinja2, whose select and reject take a test's name.
		c.errorf(e.NameSpan, "unknown test %q (%[1]s is a Go filter of filters:, which adds filters, not tests: select, reject and is take a test's name; map(%[1]q) applies the filter to each item)", e.Name)
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	if _, ok := ir.TestParams[e.Name]; !ok {
		known := slices.Concat(slices.Collect(maps.Keys(ir.TestParams)), slices.Collect(maps.Keys(builtins.ComparisonTests)), []string{"sameas"})
		slices.Sort(known)
		if c.soft {
			return c.missing(e.NameSpan, "test", e.Name, schema.DidYouMean(e.Name, known), append([]tmpl.Expr{e.X}, e.Args...), nil)
		}
		c.errorf(e.NameSpan, "unknown test %q%s", e.Name, schema.DidYouMean(e.Name, known))
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	if n := len(ir.TestParams[e.Name]); len(e.Args) != n {
		if n == 0 {
			c.errorf(e.Span, "test %s takes no arguments", e.Name)
		} else {
			c.errorf(e.Span, "test %s takes %d argument, got %d", e.Name, n, len(e.Args))
			return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
		}
	}
	switch e.Name {
	case "even", "odd", "divisibleby":
		return c.expr(c.modTest(e), useTest)
	case "lower", "upper":
		// str(x).islower(): the test of x as it prints.
		x := c.expr(e.X, usePrint)
		if generator(x) {
			return c.generatorTest(x, e)
		}
		x = c.checkedAs(map[tmpl.Expr]ir.Expr{e.X: x}, func() ir.Expr {
			return c.expr(&tmpl.Filter{Span: e.Span, X: e.X, Name: "string", NameSpan: e.NameSpan}, useValue)
		})
		return &ir.Call{Kind: ir.CallTest, Name: e.Name, X: x, Not: e.Not, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(e.Span)}
	}
	if e.Name == "defined" || e.Name == "undefined" {
		c.testsDefined(e.X)
		if c.definedOnly == nil {
			c.definedOnly = map[tmpl.Expr]bool{}
		}
		c.definedOnly[e.X] = true
	}
	x := c.armsAsValues(c.expr(e.X, useValue), e.X.Pos())
	if generator(x) {
		return c.generatorTest(x, e)
	}
	switch e.Name {
	case "filter", "test":
		c.later = append(c.later, func() { c.nameTest(x, e) })
	case "escaped":
		// Markup is escaped: the test reads whether a dynamic value is
		// Markup (keepMarkup converts a typed operand that is Markup on
		// every render to one, and a condition Markup in one branch to one
		// kept branch by branch), so an operand that may not say so is
		// rejected.
		c.later = append(c.later, func() {
			if c.markup(x) && !c.markups.KeptOperand(x) {
				c.rebindMarkup(x)
				c.errorf(e.Span, "test escaped of a value that may or may not be a tojson or safe result is not supported: Jinja2's Markup is escaped, a plain string is not (%s)", toPlain)
			}
		})
	}
	if isDynamic(x) {
		return &ir.Dynamic{Op: ir.DynTest, Name: e.Name, Not: e.Not, Args: []ir.Expr{x}, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(e.Span)}
	}
	if e.Name != "defined" && e.Name != "undefined" {
		hint(x.Type(), useTest) // whether a value is defined says nothing of its type
	}
	c.guard(x)
	if e.Name == "none" {
		name := "is none"
		if e.Not {
			name = "is not none"
		}
		c.later = append(c.later, func() { c.noneTest(x, name, e.Span) })
	}
	return &ir.Call{Kind: ir.CallTest, Name: e.Name, X: x, Not: e.Not, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(e.Span)}
}

// testsDefined records x, before it is checked, as an operand whose
// being defined the template tests (is defined, default).
func (c *checker) testsDefined(x tmpl.Expr) {
	if c.definedTested == nil {
		c.definedTested = map[tmpl.Expr]bool{}
	}
	c.definedTested[x] = true
}

// noneTest rejects a test for none (is none, == none, ...) of x, once types
// are final, when x may be undefined: promptgen tells undefined from none
// as Jinja2 does, but an unset optional is also what JSON null decodes to,
// and what a nil pointer means in Go, so the test would be read both ways.
func (c *checker) noneTest(x ir.Expr, test string, sp tmpl.Span) {
	if !ir.MaybeUndefined(x) {
		return
	}
	what := "this value"
	if p := ir.VarPath(x); p != "" {
		what = fmt.Sprintf("%q", p)
	}
	c.errorf(sp, "cannot test %s %s: it may be unset, which is undefined (never none), and JSON null means unset too (test \"is defined\" instead)", what, test)
}

// sameas checks the test sameas, Python's identity: supported against
// none, true and false, where it is the test none, true or false.
func (c *checker) sameas(e *tmpl.Test) ir.Expr {
	if len(e.Args) != 1 {
		c.errorf(e.Span, "test sameas takes 1 argument, got %d", len(e.Args))
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	name := builtins.SameAs(e.Args[0])
	if name == "" {
		c.expr(e.X, useValue) // for what it reads
		c.expr(e.Args[0], useValue)
		c.errorf(e.Args[0].Pos(), "test sameas is supported against none, true or false only (Python's identity of other values is not defined by their value)")
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	return c.test(&tmpl.Test{Span: e.Span, X: e.X, Name: name, NameSpan: e.NameSpan, Not: e.Not})
}

// nameTest rejects the test filter or test of x, a lookup in Jinja2's
// dict of filters or tests, where x is a list or a dict, which Python
// cannot hash (TypeError); it passes for a string that names one.
func (c *checker) nameTest(x ir.Expr, e *tmpl.Test) {
	switch t := x.Type().Resolve(); t.Kind {
	case ir.KindList, ir.KindMap, ir.KindDict, ir.KindStruct:
		c.errorf(e.Span, "test %s of %s: Jinja2 looks the value up in a dict, and Python cannot hash a list or dict (TypeError)", e.Name, t)
	}
}

// generatorTest is test e of g, a generator (or a list's reverse
// iterator): it is defined, iterable and lower (it prints as <generator
// object ... at 0x...>) and passes none of the other tests checked here
// (it has no length, so it is no sequence), as in Jinja2,
// which evaluates the filter's operand and arguments and never runs it.
func (c *checker) generatorTest(g ir.Expr, e *tmpl.Test) ir.Expr {
	c.iterate(g) // its one use
	x := lazyTrue(g)
	if (e.Name == "defined" || e.Name == "iterable" || e.Name == "lower") == e.Not {
		return &ir.Unary{Op: "not", X: x, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(e.Span)}
	}
	return x
}
