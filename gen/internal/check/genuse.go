package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
)

// Generators used as values where the code may not run. A generator
// (what map, select, reject and unique yield, and the iterator reverse
// makes of a list) that its consumer does not iterate is an error where
// the code always runs (mustIterate). Where it may not run (mayNotRun),
// a use that Jinja2 raises TypeError on (length, last, arithmetic, a
// slice) or prints it for (with its address in memory, which no renderer
// reproduces) compiles with a warning, and the render fails where it
// runs, after evaluating what Jinja2 evaluates before (the generator's
// operand and arguments, the use's other operands). Other uses, which
// Jinja2 runs without failing (an attribute, int, ==), stay errors.

// misused is a use of g, a generator, that Jinja2 fails on where it runs
// (fail is "TypeError " and Python's message) or prints g for (fail is
// "printed " and g's Python type), where the code may not run: a warning
// (what says what it is), and an operation that evaluates xs in turn, of
// a generator only its operands, and then fails the render
// (jinja.Missing). ok is false where the code always runs: the consumer
// keeps g, and mustIterate reports it.
func (c *checker) misused(sp tmpl.Span, what, fail string, xs ...ir.Expr) (out ir.Expr, ok bool) {
	if !c.mayNotRun() {
		return nil, false
	}
	for _, x := range xs {
		if generator(x) {
			c.iterate(x) // its one use
		}
	}
	kind, msg, _ := strings.Cut(fail, " ")
	warning := fmt.Sprintf("%s: Jinja2 raises TypeError (%s) where it runs, and so does the render (convert it with | list)", what, msg)
	if kind == "printed" {
		warning = fmt.Sprintf("%s: Jinja2 prints it with its address in memory (<%s object ... at 0x...>) where it runs, which no renderer reproduces, so the render fails there (convert it with | list)", what, msg)
	}
	return c.fails(sp, fail, warning, evaluatedTrue(xs...)), true
}

// misusedFilter is the filter name of g, a generator, where Jinja2 raises
// TypeError on it: length (count) and last.
func (c *checker) misusedFilter(e *tmpl.Filter, g ir.Expr) (ir.Expr, bool) {
	what, typ := generatorType(g)
	var msg string
	switch {
	case len(e.Args) > 0 || len(e.Kwargs) > 0:
		return nil, false
	case e.Name == "length" || e.Name == "count":
		msg = fmt.Sprintf("object of type '%s' has no len()", typ)
	case e.Name == "last":
		msg = fmt.Sprintf("'%s' object is not reversible", typ)
	default:
		return nil, false
	}
	return c.misused(e.NameSpan, e.Name+" of "+what, "TypeError "+msg, g)
}

// misusedArith is x op y, arithmetic with a generator operand, which
// Python refuses: + of anything, another operator with a number (% of a
// string formats it). An operand that is undefined raises UndefinedError
// instead (Jinja2's Undefined fails in its own __add__ and __radd__).
func (c *checker) misusedArith(e *tmpl.Binary, x, y ir.Expr) (ir.Expr, bool) {
	g := x
	if !generator(g) {
		g = y
	}
	if !generator(g) {
		return nil, false
	}
	xt, xok := pyType(x)
	yt, yok := pyType(y)
	if !xok || !yok || e.Op != "+" && !isNumber(x) && !isNumber(y) {
		return nil, false
	}
	msg := fmt.Sprintf("unsupported operand type(s) for %s: '%s' and '%s'", e.Op, xt, yt)
	if e.Op == "+" && (xt == "list" || xt == "str") {
		msg = fmt.Sprintf("can only concatenate %s (not \"%s\") to %[1]s", xt, yt)
	}
	strict := func(x ir.Expr, sp tmpl.Span) ir.Expr {
		if ir.MaybeUndefined(x) {
			return &ir.Strict{X: x, Pos: c.posString(sp)}
		}
		return x
	}
	what, _ := generatorType(g)
	if c.modTests[e] {
		what = "a test even, odd or divisibleby of " + what
	} else {
		what = e.Op + " of " + what
	}
	return c.misused(e.Span, what, "TypeError "+msg, strict(x, e.X.Pos()), strict(y, e.Y.Pos()))
}

// misusedSlice is a slice of g, a generator, with bounds: Jinja2
// subscripts it in Python, which raises TypeError. Not where the slice
// reads no variable: Jinja2's optimizer may fold it, or what holds it,
// at compile time through its getitem, which yields undefined (where it
// surely does, foldedSlice, the slice is undefined; elsewhere it stays
// an error).
func (c *checker) misusedSlice(e *tmpl.Slice, g ir.Expr, bounds []ir.Expr) (ir.Expr, bool) {
	readsName := false
	tmpl.Inspect([]tmpl.Node{&tmpl.Output{X: e}}, func(tmpl.Node) {}, func(x tmpl.Expr) {
		if _, ok := x.(*tmpl.Name); ok {
			readsName = true
		}
	})
	if !readsName {
		return nil, false
	}
	what, typ := generatorType(g)
	xs := []ir.Expr{g}
	for _, b := range bounds {
		if b != nil {
			xs = append(xs, b)
		}
	}
	return c.misused(e.Span, "a slice of "+what, fmt.Sprintf("TypeError '%s' object is not subscriptable", typ), xs...)
}

// foldedSlice returns the slice of a generator in e, a printed
// expression, that Jinja2 folds to undefined when it compiles the
// template, or nil: where all of e is constant, Jinja2 prints the value
// its optimizer computes, and its getitem yields undefined for a slice
// of a generator (Python's TypeError, which it catches). Only reverse and
// unique of constants fold (map, select and reject read the context), and
// only through the consumers below, which take undefined without
// failing: elsewhere the slice runs, and raises TypeError (misusedSlice).
func foldedSlice(e tmpl.Expr) *tmpl.Slice {
	for {
		switch x := e.(type) {
		case *tmpl.Filter:
			if !foldsUndefined[x.Name] || !constant(x.Args...) || slices.ContainsFunc(x.Kwargs, func(k tmpl.Kwarg) bool { return !constant(k.Value) }) {
				return nil
			}
			e = x.X
			continue
		case *tmpl.Test:
			if x.Name != "defined" && x.Name != "undefined" {
				return nil
			}
			e = x.X
			continue
		case *tmpl.Slice:
			g, ok := x.X.(*tmpl.Filter)
			if !ok || g.Name != "reverse" && g.Name != "unique" || !constant(g.X, x.Lo, x.Hi, x.Step) || !constant(g.Args...) ||
				slices.ContainsFunc(g.Kwargs, func(k tmpl.Kwarg) bool { return !constant(k.Value) }) {
				return nil
			}
			return x
		}
		return nil
	}
}

// foldsUndefined are the filters that Jinja2's optimizer runs on
// undefined without failing.
var foldsUndefined = map[string]bool{"sum": true, "length": true, "count": true, "list": true, "string": true, "first": true}

// constant reports whether each of xs (nil for one absent) is a constant
// or a list or tuple literal of them.
func constant(xs ...tmpl.Expr) bool {
	for _, x := range xs {
		switch x := x.(type) {
		case nil, *tmpl.Const:
		case *tmpl.Unary:
			if x.Op == "not" || !constant(x.X) {
				return false
			}
		case *tmpl.List:
			if !constant(x.Items...) {
				return false
			}
		case *tmpl.Tuple:
			if !constant(x.Items...) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// printed is x, a printed value, or where x prints a generator (itself,
// an operand of ~ or through string) and the code may not run, the
// failure there (misused). Only where the render's output is what it
// prints: the body of a block set, a macro or a filter block makes a
// value that Jinja2 may never print, or print as something else (its
// length), which a failure would not match.
func (c *checker) printed(x ir.Expr, sp tmpl.Span) ir.Expr {
	parts := printedParts(x)
	i := slices.IndexFunc(parts, generator)
	if i < 0 || slices.ContainsFunc(c.scopes, func(sc *scope) bool {
		return sc.noLoopControl != "" && sc.noLoopControl != "a generation block"
	}) {
		return x
	}
	what, typ := generatorType(parts[i])
	if out, ok := c.misused(sp, what+" printed", "printed "+typ, parts...); ok {
		return out
	}
	return x
}

// methodsPrinted checks the values x, printed at sp, prints in turn
// (printedParts) where they are dict methods (methodUse), and marks the
// ~ that print them: where the render's output is what it prints, else
// (in the body of a block set, a macro or a filter block) as strings.
func (c *checker) methodsPrinted(x ir.Expr, sp tmpl.Span) {
	does := "printed"
	if slices.ContainsFunc(c.scopes, func(sc *scope) bool {
		return sc.noLoopControl != "" && sc.noLoopControl != "a generation block"
	}) {
		does = "str"
	}
	var mark func(ir.Expr)
	mark = func(x ir.Expr) {
		if b, ok := x.(*ir.Binary); ok && b.Op == "~" {
			if c.printedConcats == nil {
				c.printedConcats = map[*ir.Binary]bool{}
			}
			c.printedConcats[b] = does == "printed"
			mark(b.X)
			mark(b.Y)
		}
	}
	mark(x)
	for _, part := range printedParts(x) {
		c.methodUse(part, does, sp)
	}
}

// printedParts are the values x prints in turn: the operands of ~, the
// operand of string, or x.
func printedParts(x ir.Expr) []ir.Expr {
	switch x := x.(type) {
	case *ir.Binary:
		if x.Op == "~" {
			return append(printedParts(x.X), printedParts(x.Y)...)
		}
	case *ir.Call:
		if x.Kind == ir.CallFilter && x.Name == "string" && len(x.Args) == 0 {
			return printedParts(x.X)
		}
	}
	return []ir.Expr{x}
}

// pyType is the name of the Python type of x, a generator or a value of
// a kind known here.
func pyType(x ir.Expr) (string, bool) {
	if generator(x) {
		_, typ := generatorType(x)
		return typ, true
	}
	typ, ok := pyTypes[x.Type().Resolve().Kind]
	return typ, ok
}

// pyTypes are the Python types of the kinds whose values Python types
// alone.
var pyTypes = map[ir.Kind]string{
	ir.KindString: "str", ir.KindInt: "int", ir.KindFloat: "float", ir.KindBool: "bool",
	ir.KindNone: "NoneType", ir.KindList: "list",
}

func isNumber(x ir.Expr) bool { return ir.IsNumber(x.Type().Resolve().Kind) }
