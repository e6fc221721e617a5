package check

import (
	"slices"

	"github.com/promptgen/promptgen/gen/internal/builtins"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
)

// Generators used as values. Where a generator (see generator) is held
// as a value rather than iterated by its consumer (an item of a list,
// dict or tuple literal, a variable, a namespace attribute or a target
// of set a, b = ..., a macro's argument, an operand of ==), it becomes a
// dynamic value holding Python's iterator (jinja.IteratorValue), whose
// copies share their place, as the one object Jinja2 holds does.
// promptgen makes its items where Jinja2 makes the generator, which
// yields what Jinja2 pulls later only where the generator's work on an
// item cannot fail (eagerExact); its operand, a list, no statement can
// change in between (a list method of a list a generator holds is
// rejected). A conditional or an and/or that may yield such generators
// only is a dynamic value there (armsAsValues), and also where a filter
// that does not iterate it, a test, an index or an attribute reads it. Elsewhere
// the use stays as it was: stored unread, or an error (mustIterate,
// stored).

// asIterator returns x, or where x is a generator that eagerExact makes
// exactly, the iterator holding it, a dynamic value.
func (c *checker) asIterator(x ir.Expr, sp tmpl.Span) ir.Expr {
	var uniques []*ir.Call
	if !generator(x) {
		return c.armsAsValues(x, sp)
	}
	if !eagerExact(x, &uniques) {
		if runtimeGen(x) {
			// Filters the runtime runs (jinja.Gen): it makes their items
			// as pulled, as Jinja2's generator does.
			c.iterate(x)
			return c.dyn(ir.DynGenIterator, iteratorType(x), ir.DynamicType(), sp, x)
		}
		return x
	}
	c.iterate(x)
	for _, u := range uniques {
		// Its items' type is known once every type is: Python's set
		// fails on a list or dict where it is pulled, promptgen where
		// the generator is made.
		c.later = append(c.later, func() {
			if elem := u.X.Type().Resolve().Elem; elem.Resolve().Kind != ir.KindUnknown && !hashable(elem) {
				c.errorf(sp, "unique yields a generator in Jinja2, which prints as <generator ...> and has no length or index: loop over it, join it, or convert it with | list")
			}
		})
	}
	return c.dyn(ir.DynIterator, iteratorType(x), ir.DynamicType(), sp, x)
}

// armsAsValues returns x, or where x is a conditional or an and/or used
// as a value that may yield a generator, each of which is held as a value
// (eagerExact, runtimeGen), x as a dynamic value: the arm it takes decides at run time
// whether it is the iterator holding a generator or another value
// ((xs|select if c else ys)|last, g or xs).
func (c *checker) armsAsValues(x ir.Expr, sp tmpl.Span) ir.Expr {
	var uniques []*ir.Call
	held := func(y ir.Expr) bool { return !generator(y) || eagerExact(y, &uniques) || runtimeGen(y) }
	if generator(x) || !mayYieldGenerator(x) || !everyYield(x, held) {
		return x
	}
	var arm func(x ir.Expr) ir.Expr
	arm = func(x ir.Expr) ir.Expr {
		switch y := x.(type) {
		case *ir.Cond:
			out := &ir.Cond{Cond: y.Cond, Then: arm(y.Then), T: ir.DynamicType()}
			if y.Else != nil {
				out.Else = arm(y.Else)
			}
			return out
		case *ir.Binary:
			if y.Value {
				return &ir.Binary{Op: y.Op, X: arm(y.X), Y: arm(y.Y), Value: true, Pos: y.Pos, T: ir.DynamicType()}
			}
		}
		if generator(x) {
			return c.asIterator(x, sp)
		}
		c.dynOperand(x, sp)
		return x
	}
	return arm(x)
}

// eagerExact reports whether g, a generator, yields the same items
// evaluated in full where it is made as where its consumer pulls them:
// its work on an item, and that of the generators it reads, cannot fail.
// A unique whose items' type is not yet known is added to uniques, to
// check once it is.
func eagerExact(g ir.Expr, uniques *[]*ir.Call) bool {
	if src, ok := ir.Pulled(g); ok {
		if l, ok := src.(*ir.List); ok && len(l.Items) == 0 {
			return true // no item to work on: []|map('abs')
		}
	}
	var src ir.Expr
	switch g := g.(type) {
	case *ir.Call: // reverse, map(attribute=), unique of a typed list
		if g.Name == "unique" && !builtins.IsNone(g.Args[1]) {
			return false
		}
		if elem := g.X.Type().Resolve().Elem; g.Name == "unique" && !hashable(elem) {
			if finalized(elem) {
				return false
			}
			*uniques = append(*uniques, g)
		}
		src = g.X
	case *ir.Select:
		if !cannotFail(g.Cond) {
			return false
		}
		src = g.X
	case *ir.MapFilter:
		if !cannotFail(g.Elem) {
			return false
		}
		src = g.X
	default: // of a dynamic value: its work on an item may fail
		return false
	}
	return exactSource(src, uniques)
}

// exactSource reports whether x, the operand of a generator, yields no
// generator (also through a conditional or an and/or) but those that
// eagerExact makes exactly.
func exactSource(x ir.Expr, uniques *[]*ir.Call) bool {
	return everyYield(x, func(y ir.Expr) bool { return !generator(y) || eagerExact(y, uniques) })
}

// everyYield reports whether f holds for every value x yields: x, or
// through a conditional or an and/or, each value they may yield.
func everyYield(x ir.Expr, f func(ir.Expr) bool) bool {
	switch x := x.(type) {
	case *ir.Cond:
		return everyYield(x.Then, f) && (x.Else == nil || everyYield(x.Else, f))
	case *ir.Binary:
		if x.Value {
			return !slices.ContainsFunc(builtins.Yields(x), func(y ir.Expr) bool { return !everyYield(y, f) })
		}
	}
	return f(x)
}

// runtimeGen reports whether g is a chain of generator filters of
// dynamic values that the runtime runs (ir.GenLinks) over a source that
// is no generator: held as a value, jinja.GenIterator.
func runtimeGen(g ir.Expr) bool {
	src, _, ok := ir.GenLinks(g)
	return ok && !mayYieldGenerator(src)
}

// hashable reports whether items of type t are Python values that a set
// holds (unique's keys): strings, numbers, bools and none.
func hashable(t *ir.Type) bool {
	switch t.Resolve().Kind {
	case ir.KindString, ir.KindInt, ir.KindFloat, ir.KindBool, ir.KindNone:
		return true
	}
	return false
}

// cannotFail reports whether x, a select's test or a map's filter of an
// item, evaluates without failing whatever the item holds: constants,
// the item and its fields, not, and, or, ==, an ordering of two numbers
// or two strings, and the tests and filters that take any value.
func cannotFail(x ir.Expr) bool {
	ok := true
	ir.WalkExpr(x, func(x ir.Expr) {
		switch x := x.(type) {
		case *ir.Const, *ir.LocalRef:
		case *ir.FieldRef:
			// Of an object that may be undefined, Jinja2 fails.
			of, nested := x.Of.(*ir.FieldRef)
			ok = ok && (!nested || !of.Field.Optional)
		case *ir.Unary:
			ok = ok && x.Op == "not"
		case *ir.Binary:
			ok = ok && (x.Op == "and" || x.Op == "or" || x.Op == "==" || x.Op == "!=" || ordered(x) || modulo(x))
		case *ir.Call:
			ok = ok && (x.Kind == ir.CallTest && (anyValueTests[x.Name] || typedTest(x)) || x.Kind == ir.CallFilter && (anyValueFilters[x.Name] || typedFilter(x)))
		case *ir.Dynamic:
			ok = ok && (!x.Fallible() || x.Op == ir.DynFilter && x.Name == "abs" && len(x.Args) == 1 && numberOperand(x.Args[0]))
		default:
			ok = false
		}
	})
	return ok
}

// typedFilter reports whether x is a filter that cannot fail on its
// operand, of a type that it takes whole and that cannot be undefined,
// with constant arguments: int of an int, a bool or a string (its
// default where Python's int fails), round of a number, and of a string
// trim, length, count, replace and indent.
func typedFilter(x *ir.Call) bool {
	k := x.X.Type().Resolve().Kind
	if ir.MaybeUndefined(x.X) || !constArgs(x) {
		return false
	}
	switch x.Name {
	case "int":
		return k == ir.KindInt || k == ir.KindBool || k == ir.KindString
	case "round":
		m, ok := argConst(x, 1)
		return ir.IsNumber(k) && (!ok || m == "common" || m == "ceil" || m == "floor")
	case "trim", "length", "count", "replace", "indent":
		return k == ir.KindString
	}
	return false
}

// typedTest reports whether x is a test that cannot fail on its operand,
// a string that cannot be undefined: lower and upper (even, odd and
// divisibleby are a % here, see modulo).
func typedTest(x *ir.Call) bool {
	return (x.Name == "lower" || x.Name == "upper") && x.X.Type().Resolve().Kind == ir.KindString && !ir.MaybeUndefined(x.X)
}

// constArgs reports whether every argument of x is a constant (or not
// given).
func constArgs(x *ir.Call) bool {
	for _, a := range x.Args {
		if _, ok := a.(*ir.Const); a != nil && !ok {
			return false
		}
	}
	return true
}

// argConst returns the value of x's argument i where it is a constant
// given.
func argConst(x *ir.Call, i int) (any, bool) {
	if i >= len(x.Args) {
		return nil, false
	}
	c, ok := x.Args[i].(*ir.Const)
	if !ok || c.Value == nil {
		return nil, false
	}
	return c.Value, true
}

// numberOperand reports whether x is an int or a float that cannot be
// undefined: abs of it cannot fail (an int wraps, as promptgen's typed
// ints do).
func numberOperand(x ir.Expr) bool {
	return ir.IsNumber(x.Type().Resolve().Kind) && !ir.MaybeUndefined(x)
}

// ordered reports whether x is an ordering comparison that cannot fail:
// of two numbers or two strings, neither of which may be undefined.
func ordered(x *ir.Binary) bool {
	switch x.Op {
	case "<", "<=", ">", ">=":
	default:
		return false
	}
	xk, yk := x.X.Type().Resolve().Kind, x.Y.Type().Resolve().Kind
	return (ir.IsNumber(xk) && ir.IsNumber(yk) || xk == ir.KindString && yk == ir.KindString) && !ir.MaybeUndefined(x.X) && !ir.MaybeUndefined(x.Y)
}

// modulo reports whether x is a % that cannot fail: of a number that
// cannot be undefined by a constant number that is not zero (the tests
// even, odd and divisibleby).
func modulo(x *ir.Binary) bool {
	k, ok := x.Y.(*ir.Const)
	return x.Op == "%" && ok && k.Value != int64(0) && k.Value != float64(0) && ir.IsNumber(k.Type().Resolve().Kind) &&
		ir.IsNumber(x.X.Type().Resolve().Kind) && !ir.MaybeUndefined(x.X)
}

// anyValueTests and anyValueFilters are the tests and filters that
// Jinja2 runs on any value without failing.
var (
	anyValueTests = map[string]bool{
		"defined": true, "undefined": true, "none": true, "string": true, "number": true, "integer": true,
		"float": true, "boolean": true, "true": true, "false": true, "mapping": true, "iterable": true,
		"sequence": true, "callable": true, "eq": true, "equalto": true, "==": true, "ne": true, "!=": true,
		"sameas": true, "escaped": true,
	}
	anyValueFilters = map[string]bool{
		"upper": true, "lower": true, "title": true, "capitalize": true, "string": true,
		"float": true, "default": true, "d": true, "wordcount": true,
	}
)
