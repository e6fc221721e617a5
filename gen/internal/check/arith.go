package check

import (
	"math/big"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/schema"
)

func (c *checker) binary(e *tmpl.Binary, u use) ir.Expr {
	switch e.Op {
	case "and", "or":
		if u == useTest {
			x, y := c.expr(e.X, useTest), c.expr(e.Y, useTest)
			return &ir.Binary{Op: e.Op, X: x, Y: y, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(e.Span)}
		}
		out, mixed := c.logic(e, u)
		if mixed && u != usePrint {
			c.errorf(e.Span, "%s yields either %s here: promptgen can print that, but not use it as a value (make the operands one type, or convert with | string)", e.Op, kindsOf(yields(out)))
			out.T = &ir.Type{} // no more errors where it is used
		}
		return out
	case "~":
		x, y := c.expr(e.X, usePrint), c.expr(e.Y, usePrint)
		c.printable(x, e.X.Pos())
		c.printable(y, e.Y.Pos())
		inline(x)
		inline(y)
		return &ir.Binary{Op: "~", X: x, Y: y, T: &ir.Type{Kind: ir.KindString}, Pos: c.posString(e.Span)}
	case "==", "!=":
		x, y := c.expr(e.X, useValue), c.expr(e.Y, useValue)
		if holdsDynamic(x.Type()) || holdsDynamic(y.Type()) {
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
			case isComposite(x.Type()) || isComposite(y.Type()):
				c.errorf(e.Span, "cannot compare %s %s %s: compare their fields or items", x.Type(), e.Op, y.Type())
			case mixesBoolNumber(xk, yk):
				c.errorf(e.Span, "comparing %s with %s is not supported", x.Type(), y.Type())
			}
		})
		return &ir.Binary{Op: e.Op, X: x, Y: y, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(e.Span)}
	case "<", "<=", ">", ">=":
		x, y := c.expr(e.X, useValue), c.expr(e.Y, useValue)
		if holdsDynamic(x.Type()) || holdsDynamic(y.Type()) {
			return c.dynBinary(e, x, y)
		}
		c.staysTyped(e.Span, x, y)
		c.unifyWeak(x.Type(), y.Type(), e.Span)
		out := &ir.Binary{Op: e.Op, X: x, Y: y, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(e.Span)}
		c.later = append(c.later, func() {
			xk, yk := x.Type().Kind, y.Type().Kind
			numbers := ir.IsNumber(xk) && ir.IsNumber(yk) && xk != ir.KindBool && yk != ir.KindBool
			if !numbers && !(xk == ir.KindString && yk == ir.KindString) {
				c.errorf(e.Span, "cannot compare %s %s %s", x.Type(), e.Op, y.Type())
			}
		})
		return out
	case "in", "not in":
		x, y := c.expr(e.X, useValue), c.expr(e.Y, useValue)
		// A chat variable tested for members is JSON passed to
		// apply_chat_template: a list, a dict or a string.
		c.chatDynamic(y, e.Y.Pos())
		if holdsDynamic(x.Type()) || holdsDynamic(y.Type()) {
			if d, ok := y.(*ir.Dynamic); ok && (d.Op == ir.DynFilter || d.Op == ir.DynMapFilter || d.Op == ir.DynValues) {
				// in iterates a generator and compares with ==, as a list's
				// in does (a dict's keys() and items() hash instead).
				c.iterate(y)
			}
			return c.dynBinary(e, x, y)
		}
		c.staysTyped(e.Span, x, y)
		c.iterate(y)
		yt := y.Type()
		if yt.Kind == ir.KindUnknown {
			if x.Type().Kind == ir.KindString {
				c.constrain(yt, ir.KindString, e.Y.Pos())
			} else {
				c.constrain(yt, ir.KindList, e.Y.Pos())
			}
			yt = yt.Resolve()
		}
		switch yt.Kind {
		case ir.KindString:
			c.constrain(x.Type(), ir.KindString, e.X.Pos())
		case ir.KindList:
			c.unifyWeak(x.Type(), yt.Elem, e.X.Pos())
			c.later = append(c.later, func() {
				xk, ek := x.Type().Kind, yt.Resolve().Elem.Resolve().Kind
				switch {
				case !ir.IsScalar(ek):
					c.errorf(e.Y.Pos(), "membership test in a list of %s is not supported", yt.Resolve().Elem)
				case mixesBoolNumber(xk, ek) || xk == ir.KindFloat && ek == ir.KindInt:
					c.errorf(e.Span, "testing a %s in a list of %s is not supported", x.Type(), yt.Resolve().Elem)
				}
			})
		case ir.KindMap:
			c.constrain(x.Type(), ir.KindString, e.X.Pos())
		case ir.KindStruct, ir.KindDict:
			c.constrain(x.Type(), ir.KindString, e.X.Pos())
			c.keyTest(x, yt, e.X.Pos())
		default:
			c.errorf(e.Y.Pos(), "cannot test membership in %s", yt)
		}
		return &ir.Binary{Op: e.Op, X: x, Y: y, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(e.Span)}
	}
	return c.arith(e)
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
	case f == nil && unreadableKey(t, key):
	case f == nil && t.Declared:
		c.errorf(sp, "object has no field %q, so this is always false%s", key, schema.DidYouMean(key, fieldKeys(t)))
	case f == nil:
		t.Fields = append(t.Fields, &ir.Field{Key: key, Type: &ir.Type{}, Optional: true, Pos: c.pos(sp)})
	case !t.Declared:
		f.Optional = true
	}
}

func (c *checker) arith(e *tmpl.Binary) ir.Expr {
	x, y := c.expr(e.X, useValue), c.expr(e.Y, useValue)
	if isDynamic(x) || isDynamic(y) {
		return c.dynBinary(e, x, y)
	}
	c.staysTyped(e.Span, x, y)
	xt, yt := x.Type(), y.Type()
	switch {
	case xt.Kind == ir.KindUnknown && yt.Kind == ir.KindUnknown:
		c.unify(xt, yt, e.Span)
		xt.Resolve().Hint = ir.KindInt
	case xt.Kind == ir.KindUnknown:
		c.constrain(xt, arithPeer(e.Op, yt.Kind, false), e.X.Pos())
	case yt.Kind == ir.KindUnknown:
		c.constrain(yt, arithPeer(e.Op, xt.Kind, true), e.Y.Pos())
	case xt.Kind == ir.KindList && yt.Kind == ir.KindList:
		c.unifyWeak(xt, yt, e.Span) // [] takes the other list's elements
	}
	out := &ir.Binary{Op: e.Op, X: x, Y: y, Pos: c.posString(e.Span)}
	if e.Op == "+" {
		const msg = "which escapes the other string (concatenate with ~, which does not)"
		c.checkMarkup(x, e.Span, "+ on", msg, y)
		c.checkMarkup(y, e.Span, "+ on", msg, x)
	}
	xt, yt = xt.Resolve(), yt.Resolve()
	switch t, ok := arithResult(e.Op, xt, yt); {
	case e.Op == "/":
		out.T = &ir.Type{Kind: ir.KindFloat}
	case ok:
		out.T = t
	default:
		out.T = xt // both unknown and unified, or an error reported below
	}
	if out.T.Kind == ir.KindInt && negativePower(e.Op, y) {
		out.T = &ir.Type{Kind: ir.KindFloat}
	}
	c.later = append(c.later, func() {
		t, ok := arithResult(e.Op, x.Type(), y.Type())
		switch {
		case !ok:
			c.errorf(e.Span, "unsupported operand types for %s: %s and %s", e.Op, x.Type(), y.Type())
		case t.Kind == ir.KindInt && negativePower(e.Op, y):
		case t.Kind != out.T.Resolve().Kind:
			out.T = t
		}
		c.checkConstInt(out, e.Span)
	})
	return out
}

// negativePower reports whether op is ** and y a negative constant int:
// Python's int to a negative int power is a float (2 ** -1 is 0.5). With
// an exponent known only at run time, the power is an int and a negative
// exponent fails the render.
func negativePower(op string, y ir.Expr) bool {
	v, ok := constInt(y)
	return op == "**" && ok && v.Sign() < 0
}

// checkConstInt reports an int expression of constants whose value does
// not fit in 64 bits, where its operands do: Jinja2's ints are unbounded,
// Go's would not compile or would wrap.
func (c *checker) checkConstInt(x ir.Expr, sp tmpl.Span) {
	v, ok := constInt(x)
	if !ok || v.IsInt64() {
		return
	}
	var operands []ir.Expr
	switch x := x.(type) {
	case *ir.Unary:
		operands = []ir.Expr{x.X}
	case *ir.Binary:
		operands = []ir.Expr{x.X, x.Y}
	}
	for _, o := range operands {
		if w, _ := constInt(o); !w.IsInt64() {
			return // reported there
		}
	}
	value := "this constant int expression"
	if v.BitLen() <= 64 {
		value += " is " + v.String() + ", which"
	}
	c.errorf(sp, "%s does not fit in 64 bits (Jinja2's ints are unbounded, promptgen's are Go ints)", value)
}

// constInt returns the exact value of an int expression of constants, as
// Python computes it; ok is false for any other expression, and for a
// division by zero, which fails at run time. A power too large to compute
// is returned as 2**64.
func constInt(x ir.Expr) (v *big.Int, ok bool) {
	if x.Type().Kind != ir.KindInt {
		return nil, false
	}
	switch x := x.(type) {
	case *ir.Const:
		return big.NewInt(x.Value.(int64)), true
	case *ir.Unary:
		a, ok := constInt(x.X)
		if ok && x.Op == "-" {
			a = new(big.Int).Neg(a)
		}
		return a, ok
	case *ir.Binary:
		a, okA := constInt(x.X)
		b, okB := constInt(x.Y)
		if !okA || !okB {
			return nil, false
		}
		r := new(big.Int)
		switch x.Op {
		case "+":
			return r.Add(a, b), true
		case "-":
			return r.Sub(a, b), true
		case "*":
			return r.Mul(a, b), true
		case "//", "%":
			if b.Sign() == 0 {
				return nil, false
			}
			q, m := new(big.Int).DivMod(a, b, r) // Euclidean: 0 <= m < |b|
			if m.Sign() != 0 && b.Sign() < 0 {
				q.Sub(q, big.NewInt(1)) // Python floors: m takes the sign of b
				m.Add(m, b)
			}
			if x.Op == "//" {
				return q, true
			}
			return m, true
		case "**":
			if b.Sign() < 0 {
				return nil, false // a float
			}
			if a.CmpAbs(big.NewInt(1)) > 0 && b.Cmp(big.NewInt(64)) > 0 {
				return r.Lsh(big.NewInt(1), 64), true
			}
			return r.Exp(a, b, nil), true
		}
	}
	return nil, false
}

// arithPeer is the kind an unknown operand takes when the other one is
// known: a string + x makes x a string, 2 * x an int, "ab" * x an int.
func arithPeer(op string, other ir.Kind, unknownIsRight bool) ir.Kind {
	switch {
	case other == ir.KindString && op == "+":
		return ir.KindString
	case other == ir.KindString && op == "*":
		return ir.KindInt
	case other == ir.KindList && op == "+":
		return ir.KindList
	case other == ir.KindList && op == "*":
		return ir.KindInt
	case other == ir.KindFloat:
		return ir.KindFloat
	}
	return ir.KindInt
}

func arithResult(op string, x, y *ir.Type) (*ir.Type, bool) {
	xk, yk := x.Kind, y.Kind
	switch {
	case ir.IsNumber(xk) && ir.IsNumber(yk) && xk != ir.KindBool && yk != ir.KindBool:
		if op == "/" || xk == ir.KindFloat || yk == ir.KindFloat {
			return &ir.Type{Kind: ir.KindFloat}, true
		}
		return &ir.Type{Kind: ir.KindInt}, true
	case op == "+" && xk == ir.KindString && yk == ir.KindString:
		return x, true
	case op == "+" && xk == ir.KindList && yk == ir.KindList && ir.SameKind(x.Elem.Resolve(), y.Elem.Resolve()):
		return x, true
	case op == "*" && xk == ir.KindString && yk == ir.KindInt:
		return x, true
	case op == "*" && xk == ir.KindInt && yk == ir.KindString:
		return y, true
	}
	return nil, false
}

// isComposite reports whether t is an object, a map, a dict or a list of
// them, which == would have to compare as Python dicts: not supported.
func isComposite(t *ir.Type) bool {
	switch t = t.Resolve(); t.Kind {
	case ir.KindStruct, ir.KindMap, ir.KindDict:
		return true
	case ir.KindList:
		return isComposite(t.Elem)
	}
	return false
}

// mixesBoolNumber reports whether a bool meets an int or number, which
// Python allows (True == 1) but the Go code cannot do without conversions.
func mixesBoolNumber(a, b ir.Kind) bool {
	return ir.IsNumber(a) && ir.IsNumber(b) && (a == ir.KindBool) != (b == ir.KindBool)
}
