package check

import (
	"fmt"

	"github.com/promptgen/promptgen/gen/internal/builtins"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
	"github.com/promptgen/promptgen/schema"
	"slices"
)

func (c *checker) binary(e *tmpl.Binary, u use) ir.Expr {
	switch e.Op {
	case "and", "or":
		if y, ok := decidedByLiteral(e); ok {
			return c.expr(y, u)
		}
		if u == useTest {
			x := c.condition(e.X)
			y := c.optionally(e.Y, c.condition)
			return &ir.Binary{Op: e.Op, X: x, Y: y, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(e.Span)}
		}
		out, mixed := c.logic(e, u)
		if mixed && u != usePrint && c.mixedAsDynamic(builtins.Yields(out), e.Span) {
			out.T = ir.DynamicType()
		} else if mixed && u != usePrint {
			c.errorf(e.Span, "%s yields either %s here: promptgen can print that, but not use it as a value (make the operands one type, or convert with | string)", e.Op, kindsOf(builtins.Yields(out)))
			out.T = &ir.Type{} // no more errors where it is used
		}
		return out
	case "~":
		x, y := c.expr(e.X, usePrint), c.expr(e.Y, usePrint)
		c.printable(x, e.X.Pos())
		c.printable(y, e.Y.Pos())
		inline(x)
		inline(y)
		out := &ir.Binary{Op: "~", X: x, Y: y, T: &ir.Type{Kind: ir.KindString}, Pos: c.posString(e.Span)}
		c.later = append(c.later, func() {
			if !c.printedConcats[out] { // a string of a method, used as one
				c.methodUse(x, "str", e.X.Pos())
				c.methodUse(y, "str", e.Y.Pos())
				c.heldMethodMade(x, e.X.Pos())
				c.heldMethodMade(y, e.Y.Pos())
			}
		})
		return out
	case "==", "!=":
		// A generator is equal only to itself: a fresh one to nothing.
		x, y := c.asIterator(c.expr(e.X, useValue), e.X.Pos()), c.asIterator(c.expr(e.Y, useValue), e.Y.Pos())
		if types.HoldsDynamic(x.Type()) || types.HoldsDynamic(y.Type()) {
			return c.dynBinary(e, x, y)
		}
		c.staysTyped(e.Span, x, y)
		c.unifyWeak(x.Type(), y.Type(), e.Span)
		c.later = append(c.later, func() {
			switch xk, yk := x.Type().Kind, y.Type().Kind; {
			case c.failedAt(e.Span):
			case xk == ir.KindNone && yk != ir.KindNone:
				c.noneTest(y, e.Op+" none", e.Span)
			case yk == ir.KindNone && xk != ir.KindNone:
				c.noneTest(x, e.Op+" none", e.Span)
			case types.IsComposite(x.Type()) || types.IsComposite(y.Type()):
				c.errorf(e.Span, "cannot compare %s %s %s: compare their fields or items", x.Type(), e.Op, y.Type())
			}
		})
		return &ir.Binary{Op: e.Op, X: x, Y: y, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(e.Span)}
	case "<", "<=", ">", ">=":
		x, y := c.expr(e.X, useValue), c.expr(e.Y, useValue)
		if c.rejected[x] || c.rejected[y] {
			return c.reject()
		}
		if types.HoldsDynamic(x.Type()) || types.HoldsDynamic(y.Type()) {
			return c.dynBinary(e, x, y)
		}
		if xk, yk := x.Type().Resolve().Kind, y.Type().Resolve().Kind; types.RefusesAll(types.RefusesOrder, xk, yk) {
			// Of known kinds, or of one known (none, an object) that
			// Python orders with nothing.
			name := func(t *ir.Type) string {
				if t.Resolve().Kind == ir.KindUnknown {
					return "a value of any type"
				}
				return t.String()
			}
			return c.failsWhereRuns(e.Span, "TypeError", fmt.Sprintf("cannot compare %s %s %s", name(x.Type()), e.Op, name(y.Type())), x, y)
		}
		c.staysTyped(e.Span, x, y)
		c.unifyWeak(x.Type(), y.Type(), e.Span)
		out := &ir.Binary{Op: e.Op, X: x, Y: y, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(e.Span)}
		c.later = append(c.later, func() {
			xk, yk := x.Type().Kind, y.Type().Kind
			// A bool is a number: Python orders False < True == 1.
			if !(ir.IsNumber(xk) && ir.IsNumber(yk)) && !(xk == ir.KindString && yk == ir.KindString) {
				c.errorf(e.Span, "cannot compare %s %s %s", x.Type(), e.Op, y.Type())
			}
		})
		return out
	case "in", "not in":
		x, y := c.expr(e.X, useValue), c.membershipOperand(e.Y)
		// A chat variable tested for members is JSON passed to
		// apply_chat_template: a list, a dict or a string.
		c.chatDynamic(y, e.Y.Pos())
		if types.HoldsDynamic(x.Type()) || types.HoldsDynamic(y.Type()) {
			if d, ok := y.(*ir.Dynamic); ok && (d.Op == ir.DynFilter || d.Op == ir.DynMapFilter || d.Op == ir.DynValues || d.Op == ir.DynKeys && hashableScalar(x)) || generator(y) {
				// in iterates a generator and compares with ==, as a list's
				// in does; a dict's keys() and items() hash instead, which
				// finds what == finds only of a string, number or bool.
				c.iterate(y)
			}
			return c.dynBinary(e, x, y)
		}
		c.staysTyped(e.Span, x, y)
		c.partialRead(y, e.Span, e.Op)
		c.iterate(y)
		if k, ok := x.(*ir.Const); !ok || k.Value == "" {
			c.readText(y) // "" is in the empty string only
		}
		yt := y.Type()
		if yt.Kind == ir.KindUnknown {
			switch {
			case x.Type().Kind == ir.KindString && c.dictUses[exprPath(e.Y)]:
				// 'k' in y where the template reads y.k or y['k']: a key test.
				c.constrain(yt, ir.KindStruct, e.Y.Pos())
				c.mustComeFromInput(yt.Resolve(), e.Y.Pos())
				if c.keyTested == nil {
					c.keyTested = map[*ir.Type]tmpl.Span{}
				}
				c.keyTested[yt.Resolve()] = e.Span
			case x.Type().Kind == ir.KindString, x.Type().Resolve() == yt.Resolve():
				// A value in itself (x in x) is a string in a string: a
				// list cannot hold itself.
				c.constrain(yt, ir.KindString, e.Y.Pos())
			default:
				c.constrain(yt, ir.KindList, e.Y.Pos())
			}
			yt = yt.Resolve()
		}
		switch xk := x.Type().Resolve().Kind; yt.Kind {
		case ir.KindString:
			if xk != ir.KindUnknown && xk != ir.KindString && !ir.MaybeUndefined(y) {
				// Of any value but a string, undefined too; in an
				// undefined string nothing is.
				return c.failsWhereRuns(e.X.Pos(), "TypeError", fmt.Sprintf("cannot test whether %s is in a string: 'in <string>' requires a string as left operand (Python raises TypeError)", ir.A(xk)), evaluatedTrue(x), y)
			}
			c.constrain(x.Type(), ir.KindString, e.X.Pos())
		case ir.KindList:
			c.unifyWeak(x.Type(), yt.Elem, e.X.Pos())
			c.later = append(c.later, func() {
				if yt.Resolve().Kind != ir.KindList {
					return // it became dynamic after the test: staysTyped reports it
				}
				xk, ek := x.Type().Kind, yt.Resolve().Elem.Resolve().Kind
				switch {
				case !ir.IsScalar(ek):
					c.errorf(e.Y.Pos(), "membership test in a list of %s is not supported", yt.Resolve().Elem)
				case types.MixesBoolNumber(xk, ek) || xk == ir.KindFloat && ek == ir.KindInt:
					c.errorf(e.Span, "testing a %s in a list of %s is not supported", x.Type(), yt.Resolve().Elem)
				}
			})
		case ir.KindMap:
			c.constrain(x.Type(), ir.KindString, e.X.Pos())
		case ir.KindStruct, ir.KindDict:
			c.constrain(x.Type(), ir.KindString, e.X.Pos())
			c.keyTest(x, yt, e.X.Pos())
		default:
			msg := fmt.Sprintf("cannot test membership in %s", yt)
			if ir.MaybeUndefined(y) { // nothing is in an undefined
				c.errorf(e.Y.Pos(), "%s", msg)
				break
			}
			// x in an int raises TypeError whatever x is, undefined too.
			return c.failsWhereRuns(e.Y.Pos(), "TypeError", msg, evaluatedTrue(x), y)
		}
		return &ir.Binary{Op: e.Op, X: x, Y: y, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(e.Span)}
	}
	return c.arith(e)
}

// membershipOperand checks y, the right operand of in. Of a map, dict or
// object d, k in d.keys() is k in d, as Python's dict_keys tests the
// dict's keys by hash: an inferred object gets the key tested as a field.
func (c *checker) membershipOperand(y tmpl.Expr) ir.Expr {
	call, ok := y.(*tmpl.Call)
	if !ok || len(call.Args) > 0 || len(call.Kwargs) > 0 {
		return c.expr(y, useValue)
	}
	fn, ok := call.Fn.(*tmpl.Attr)
	if !ok || fn.Name != "keys" {
		return c.expr(y, useValue)
	}
	d := c.expr(fn.X, useValue)
	switch d.Type().Resolve().Kind {
	case ir.KindMap, ir.KindDict, ir.KindStruct:
		return d
	}
	return c.dictMethodCall(call, fn, d, useValue)
}

// keyTest checks 'key' in obj for an object or dict t, which tests its
// keys: an object's required fields and its optional fields that are set.
// A constant key an inferred object lacks becomes an optional field; a
// declared object without it is an error, as the test is always false.
func (c *checker) keyTest(x ir.Expr, t *ir.Type, sp tmpl.Span) {
	k, ok := x.(*ir.Const)
	if !ok || t.Kind != ir.KindStruct {
		return
	}
	key, _ := k.Value.(string)
	switch f := t.Field(key); {
	case f == nil && types.UnreadableKey(t, key):
	case f == nil && t.Declared:
		// The feed holds only the declared fields: false, as Jinja2's is
		// for data that follows the declaration.
		c.diags.Warnf(c.pos(sp), "object has no field %q, so this is always false%s", key, schema.DidYouMean(key, types.FieldKeys(t)))
	case f == nil:
		c.inferField(t, key, sp, true)
	case !t.Declared:
		f.Optional = true
	}
}

func (c *checker) arith(e *tmpl.Binary) ir.Expr {
	x, y := c.expr(e.X, useValue), c.expr(e.Y, useValue)
	if c.rejected[x] || c.rejected[y] {
		return c.reject()
	}
	if out, ok := c.misusedArith(e, x, y); ok {
		return out
	}
	if isDynamic(x) || isDynamic(y) || c.isPrintf(e, x) || c.markupSomeRenders(e.Op, x, y) {
		out := c.dynBinary(e, x, y)
		if d, ok := out.(*ir.Dynamic); ok && e.Op == "+" {
			c.later = append(c.later, func() { c.markupDynConcat(d, e.Span) })
		}
		return out
	}
	if takesBool(e.Op, y.Type()) {
		x = c.boolAsInt(e.Span, e.X, x)
	}
	if takesBool(e.Op, x.Type()) {
		y = c.boolAsInt(e.Span, e.Y, y)
	}
	c.staysTyped(e.Span, x, y)
	xt, yt := x.Type(), y.Type()
	refuses := func(xk, yk ir.Kind) bool { return types.PythonRefuses(e.Op, xk, yk) }
	if rx, ry := xt.Resolve().Kind, yt.Resolve().Kind; (rx == ir.KindUnknown) != (ry == ir.KindUnknown) && types.RefusesAll(refuses, rx, ry) {
		// One operand of a kind that Python refuses with whatever the
		// other one turns out to be ('a' - x, xs % n): typed as before.
		if rx == ir.KindUnknown {
			c.constrain(xt, types.ArithPeer(e.Op, ry, false), e.X.Pos())
		} else {
			c.constrain(yt, types.ArithPeer(e.Op, rx, true), e.Y.Pos())
		}
		for _, g := range []ir.Expr{x, y} {
			if generator(g) {
				c.iterate(g) // its one use
			}
		}
		return c.failsWhereRuns(e.Span, "TypeError", fmt.Sprintf("unsupported operand types for %s: %s and %s", e.Op, xt, yt), x, y)
	}
	if rx, ry := xt.Resolve().Kind, yt.Resolve().Kind; rx != ir.KindUnknown && ry != ir.KindUnknown && (rx != ir.KindList || ry != ir.KindList || e.Op != "+") {
		// Known kinds that no use can change: where Python refuses them,
		// the operation has no type for its own uses to check.
		if _, ok := types.ArithResult(e.Op, xt.Resolve(), yt.Resolve()); !ok {
			msg := fmt.Sprintf("unsupported operand types for %s: %s and %s", e.Op, xt, yt)
			if types.PythonRefuses(e.Op, rx, ry) {
				return c.failsWhereRuns(e.Span, "TypeError", msg, x, y)
			}
			c.errorf(e.Span, "%s", msg)
			return c.reject()
		}
	}
	if mixed, strict := concatMixed(e.Op, x, y); strict {
		// Checked again, the literal is a dynamic value, which holds
		// Undefined as Jinja2's list does; this error stays where no
		// second check runs.
		for _, operand := range []tmpl.Expr{e.X, e.Y} {
			if l, ok := operand.(*tmpl.List); ok {
				c.undefinedLate[c.posString(l.Span)] = true
			}
		}
		c.errorf(e.Span, "a list literal with an index that may be out of range, added to a list whose items have another type, is supported only where a prompt file is checked again (a template set is not): promptgen holds the sum as a dynamic list, and such an element fails the render where a typed list literal stands, where Jinja2 keeps it undefined (give the element a value with | default(...))")
		return c.reject()
	} else if mixed {
		// A list of typed values and one that holds dynamic values
		// (names + [x ~ '.*'] of a dynamic x), or of values of another
		// type: unified, the typed one would be read as dynamic, or not
		// at all. Python's list holds both: so does the sum's dynamic
		// list.
		return c.dynBinary(e, x, y)
	}
	switch {
	case xt.Kind == ir.KindUnknown && yt.Kind == ir.KindUnknown:
		c.unify(xt, yt, e.Span)
		xt.Resolve().Hint = ir.KindInt
		// One type for both: a string, list or dict takes only + and %
		// of its own type (a * b repeats by an int).
		xt.Resolve().Number = e.Op != "+" && e.Op != "%"
		xt.Resolve().NoBool = true
	case e.Op == "*" && (xt.Kind == ir.KindUnknown && yt.Kind == ir.KindInt || yt.Kind == ir.KindUnknown && xt.Kind == ir.KindInt):
		// n * x repeats a string and multiplies an int: x, and so the
		// product, is what its other uses make it ((3 * x).split()), else
		// a string where it is also sliced, else an int.
		if xt.Kind == ir.KindInt {
			xt, yt = yt, xt
		}
		xt.Resolve().NoBool = true
		switch h := &xt.Resolve().Hint; *h {
		case ir.KindList, ir.KindString:
			*h = ir.KindString // sliced and repeated: not a list, which promptgen does not repeat
		default:
			*h = ir.KindInt
		}
		return c.repeat(x, y, xt, e)
	case xt.Kind == ir.KindUnknown:
		c.constrain(xt, types.ArithPeer(e.Op, yt.Kind, false), e.X.Pos())
	case yt.Kind == ir.KindUnknown:
		c.constrain(yt, types.ArithPeer(e.Op, xt.Kind, true), e.Y.Pos())
	}
	if xt.Resolve().Kind == ir.KindList && yt.Resolve().Kind == ir.KindList {
		// [] takes the other list's elements, and so does a list the
		// sum has just made one (xs + [1]: xs holds ints, not the
		// strings an unused element type would default to).
		c.unifyWeak(xt, yt, e.Span)
	}
	out := &ir.Binary{Op: e.Op, X: x, Y: y, Pos: c.posString(e.Span)}
	if e.Op == "+" {
		c.later = append(c.later, func() { c.markupConcat(out, e.Span) })
	}
	xt, yt = xt.Resolve(), yt.Resolve()
	switch t, ok := types.ArithResult(e.Op, xt, yt); {
	case e.Op == "/":
		out.T = &ir.Type{Kind: ir.KindFloat}
	case ok:
		out.T = t
	default:
		out.T = xt // both unknown and unified, or an error reported below
	}
	if out.T.Kind == ir.KindInt && types.NegativePower(e.Op, y) {
		out.T = &ir.Type{Kind: ir.KindFloat}
	}
	c.later = append(c.later, func() {
		t, ok := types.ArithResult(e.Op, x.Type(), y.Type())
		switch {
		case !ok:
			c.errorf(e.Span, "unsupported operand types for %s: %s and %s", e.Op, x.Type(), y.Type())
		case t.Kind == ir.KindInt && types.NegativePower(e.Op, y):
		case t.Kind != out.T.Resolve().Kind:
			out.T = t
		}
		c.checkConstInt(out, e.Span)
	})
	return out
}

// concatMixed reports whether x op y adds two lists of known elements one
// of which holds dynamic values and the other not, or whose items' types
// differ (['a'] + [1]), which Python's list holds together (mixed), and whether
// one is a list literal with an element that only an index out of range
// makes undefined (strict): a typed literal fails the render there, which
// the text/template backend does where the literal becomes a dynamic
// operand and the go backend does not (difffuzz seed 3 case 366).
func concatMixed(op string, x, y ir.Expr) (mixed, strict bool) {
	xt, yt := x.Type().Resolve(), y.Type().Resolve()
	if op != "+" || xt.Kind != ir.KindList || yt.Kind != ir.KindList ||
		xt.Elem.Resolve().Kind == ir.KindUnknown || yt.Elem.Resolve().Kind == ir.KindUnknown {
		return false, false
	}
	kinds := !ir.SameKind(xt.Elem.Resolve(), yt.Elem.Resolve()) && types.ConvertsToDynamic(xt) && types.ConvertsToDynamic(yt)
	if types.HoldsDynamic(xt) == types.HoldsDynamic(yt) && !kinds {
		return false, false
	}
	for _, operand := range []ir.Expr{x, y} {
		if l, ok := operand.(*ir.List); ok && slices.ContainsFunc(l.Items, func(it ir.Expr) bool { return ir.OutOfRange(it) != "" }) {
			return true, true
		}
	}
	return true, false
}

// takesBool reports whether op takes a bool beside an operand of type
// peer as the int it is in Python (True + 1 is 2, True * 'ab' is 'ab').
func takesBool(op string, peer *ir.Type) bool {
	switch peer.Resolve().Kind {
	case ir.KindInt, ir.KindFloat, ir.KindBool, ir.KindUnknown:
		return true
	case ir.KindString, ir.KindList:
		return op == "*"
	}
	return false
}

// boolAsInt is x, the operand of arithmetic checked from operand, as the
// int Python takes a bool for (its | int), and x itself if it is no bool.
func (c *checker) boolAsInt(sp tmpl.Span, operand tmpl.Expr, x ir.Expr) ir.Expr {
	if x.Type().Resolve().Kind != ir.KindBool {
		return x
	}
	return c.checkedAs(map[tmpl.Expr]ir.Expr{operand: x}, func() ir.Expr {
		return c.expr(&tmpl.Filter{Span: sp, X: operand, Name: "int", NameSpan: sp}, useValue)
	})
}

// repeat is x * y of e, where one operand is an int and the other, of
// type t, is still unknown: the product has type t, and is checked once
// t is known.
func (c *checker) repeat(x, y ir.Expr, t *ir.Type, e *tmpl.Binary) ir.Expr {
	out := &ir.Binary{Op: e.Op, X: x, Y: y, T: t, Pos: c.posString(e.Span)}
	c.later = append(c.later, func() {
		if _, ok := types.ArithResult(e.Op, x.Type(), y.Type()); !ok {
			c.errorf(e.Span, "unsupported operand types for %s: %s and %s", e.Op, x.Type(), y.Type())
		}
		c.checkConstInt(out, e.Span)
	})
	return out
}

// checkConstInt reports an int expression of constants whose value does
// not fit in 64 bits, where its operands do (types.Overflows).
func (c *checker) checkConstInt(x ir.Expr, sp tmpl.Span) {
	v, ok := types.Overflows(x)
	if !ok {
		return
	}
	value := "this constant int expression"
	if v.BitLen() <= 64 {
		value += " is " + v.String() + ", which"
	}
	c.errorf(sp, "%s does not fit in 64 bits (Jinja2's ints are unbounded, promptgen's are Go ints)", value)
}

// decidedByLiteral returns the right operand of e, an and or an or, where
// its left one is a list or dict literal that cannot fail and whose truth
// makes e yield the right one: [] or y, [x] and y are y, as the literal is
// nothing but its truth ([] or 8 is no value of two types).
func decidedByLiteral(e *tmpl.Binary) (tmpl.Expr, bool) {
	var n int
	switch x := e.X.(type) {
	case *tmpl.List:
		n = len(x.Items)
	case *tmpl.Dict:
		n = len(x.Keys)
	default:
		return nil, false
	}
	if !builtins.CannotFail(e.X) || (e.Op == "or") == (n > 0) {
		return nil, false
	}
	return e.Y, true
}

// hashableScalar reports whether x is a typed string, number or bool,
// which Python finds in a dict's keys by hash where == would find it.
func hashableScalar(x ir.Expr) bool {
	switch x.Type().Resolve().Kind {
	case ir.KindString, ir.KindInt, ir.KindFloat, ir.KindBool:
		return true
	}
	return false
}
