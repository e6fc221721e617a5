package types

import (
	"math/big"
	"slices"

	"github.com/promptgen/promptgen/gen/internal/ir"
)

// NegativePower reports whether op is ** and y a negative constant int:
// Python's int to a negative int power is a float (2 ** -1 is 0.5). With
// an exponent known only at run time, the power is an int and a negative
// exponent fails the render.
func NegativePower(op string, y ir.Expr) bool {
	v, ok := ConstInt(y)
	return op == "**" && ok && v.Sign() < 0
}

// ConstInt returns the exact value of an int expression of constants, as
// Python computes it; ok is false for any other expression, and for a
// division by zero, which fails at run time. A power too large to compute
// is returned as 2**64.
func ConstInt(x ir.Expr) (v *big.Int, ok bool) {
	if x.Type().Kind != ir.KindInt {
		return nil, false
	}
	switch x := x.(type) {
	case *ir.Const:
		return big.NewInt(x.Value.(int64)), true
	case *ir.Unary:
		a, ok := ConstInt(x.X)
		if ok && x.Op == "-" {
			a = new(big.Int).Neg(a)
		}
		return a, ok
	case *ir.Binary:
		a, okA := ConstInt(x.X)
		b, okB := ConstInt(x.Y)
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

// ArithPeer is the kind an unknown operand takes when the other one is
// known: a string + x makes x a string, 2 * x an int, "ab" * x an int.
func ArithPeer(op string, other ir.Kind, unknownIsRight bool) ir.Kind {
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

// ArithResult is the type of x op y for an arithmetic operator, or false
// when promptgen does not support the operator on those types.
func ArithResult(op string, x, y *ir.Type) (*ir.Type, bool) {
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
	case op == "*" && xk == ir.KindList && yk == ir.KindInt:
		return x, true
	case op == "*" && xk == ir.KindInt && yk == ir.KindList:
		return y, true
	}
	return nil, false
}

// PythonRefuses reports whether Python raises TypeError on x op y, an
// arithmetic operator, of kinds xk and yk whatever their values.
func PythonRefuses(op string, xk, yk ir.Kind) bool {
	seq := func(k ir.Kind) bool { return k == ir.KindString || k == ir.KindList }
	intLike := func(k ir.Kind) bool { return k == ir.KindInt || k == ir.KindBool }
	switch {
	case ir.IsNumber(xk) && ir.IsNumber(yk),
		op == "+" && seq(xk) && xk == yk,
		op == "*" && (seq(xk) && intLike(yk) || intLike(xk) && seq(yk)),
		op == "%" && xk == ir.KindString:
		return false
	}
	return true
}

// RefusesAll reports whether refuses (PythonRefuses of an operator, or
// RefusesOrder) holds of kinds xk and yk, where one of them may be
// unknown (ir.KindUnknown): then of every kind a value of JSON data may
// have, so that Python raises TypeError whatever it turns out to be.
func RefusesAll(refuses func(xk, yk ir.Kind) bool, xk, yk ir.Kind) bool {
	kinds := []ir.Kind{ir.KindString, ir.KindInt, ir.KindFloat, ir.KindBool, ir.KindNone, ir.KindList, ir.KindStruct}
	switch {
	case xk == ir.KindUnknown && yk == ir.KindUnknown:
		return false
	case xk == ir.KindUnknown:
		return !slices.ContainsFunc(kinds, func(k ir.Kind) bool { return !refuses(k, yk) })
	case yk == ir.KindUnknown:
		return !slices.ContainsFunc(kinds, func(k ir.Kind) bool { return !refuses(xk, k) })
	}
	return refuses(xk, yk)
}

// RefusesOrder reports whether Python raises TypeError on an ordering
// comparison of kinds xk and yk whatever their values: one of none or of
// a map, dict or object, a list with what is not a list, a string with
// what is not a string. Bools, ints and numbers compare with each other.
func RefusesOrder(xk, yk ir.Kind) bool {
	unordered := func(k ir.Kind) bool {
		return k == ir.KindNone || k == ir.KindMap || k == ir.KindDict || k == ir.KindStruct
	}
	switch {
	case unordered(xk) || unordered(yk):
		return true
	case xk == ir.KindList || yk == ir.KindList:
		return xk != yk
	case xk == ir.KindString || yk == ir.KindString:
		return xk != yk
	}
	return false
}

// IsComposite reports whether t is an object, a map, a dict or a list of
// them, which == would have to compare as Python dicts: not supported.
func IsComposite(t *ir.Type) bool {
	switch t = t.Resolve(); t.Kind {
	case ir.KindStruct, ir.KindMap, ir.KindDict:
		return true
	case ir.KindList:
		return IsComposite(t.Elem)
	}
	return false
}

// MixesBoolNumber reports whether a bool meets an int or number, which
// Python allows (True == 1) but the Go code cannot do without conversions.
func MixesBoolNumber(a, b ir.Kind) bool {
	return ir.IsNumber(a) && ir.IsNumber(b) && (a == ir.KindBool) != (b == ir.KindBool)
}

// Overflows returns the value of x, an int expression of constants, when
// it does not fit in 64 bits where its operands do: Jinja2's ints are
// unbounded, Go's would not compile or would wrap.
func Overflows(x ir.Expr) (*big.Int, bool) {
	v, ok := ConstInt(x)
	if !ok || v.IsInt64() {
		return nil, false
	}
	var operands []ir.Expr
	switch x := x.(type) {
	case *ir.Unary:
		operands = []ir.Expr{x.X}
	case *ir.Binary:
		operands = []ir.Expr{x.X, x.Y}
	}
	for _, o := range operands {
		if w, _ := ConstInt(o); !w.IsInt64() {
			return nil, false // reported there
		}
	}
	return v, true
}
