package jinja

import (
	"errors"
	"math"
	"math/big"
)

// The int operations below give Python's result, or fail where Python's
// unbounded int would leave int64: promptgen holds no bigger int, and a
// wrapped one would print a wrong number.

// AddInt returns a + b.
func AddInt(a, b int64) (int64, error) {
	s := a + b
	if (s > a) != (b > 0) {
		return 0, errIntTooLarge
	}
	return s, nil
}

// SubInt returns a - b.
func SubInt(a, b int64) (int64, error) {
	d := a - b
	if (d < a) != (b > 0) {
		return 0, errIntTooLarge
	}
	return d, nil
}

// MulInt returns a * b.
func MulInt(a, b int64) (int64, error) {
	p := a * b
	if a == int64(int32(a)) && b == int64(int32(b)) {
		return p, nil // |p| <= 2^62
	}
	if a != 0 && (p/a != b || a == -1 && b == math.MinInt64) {
		return 0, errIntTooLarge
	}
	return p, nil
}

// NegInt returns -a.
func NegInt(a int64) (int64, error) {
	if a == math.MinInt64 {
		return 0, errIntTooLarge
	}
	return -a, nil
}

// FloorDiv returns Python's a // b for ints, rounding the quotient towards
// negative infinity; b must not be 0.
func FloorDiv(a, b int64) (int64, error) {
	if a == math.MinInt64 && b == -1 {
		return 0, errIntTooLarge
	}
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q, nil
}

// Mod returns Python's a % b for ints, whose sign follows b; b must not be 0.
func Mod(a, b int64) int64 {
	r := a % b
	if r != 0 && (r < 0) != (b < 0) {
		r += b
	}
	return r
}

// TrueDiv returns Python's a / b for ints, which divides the exact ints
// and rounds once; b must not be 0. Dividing their float64 conversions
// rounds twice beyond 2^53 (9007199254740993 / 3).
func TrueDiv(a, b int64) float64 {
	const exact = 1 << 53 // ints a float64 holds exactly
	if a == 0 || -exact <= a && a <= exact && -exact <= b && b <= exact {
		return float64(a) / float64(b) // one IEEE division, correctly rounded; 0 / -n is -0.0
	}
	f, _ := new(big.Rat).SetFrac(big.NewInt(a), big.NewInt(b)).Float64()
	return f
}

// FloorDivFloat returns Python's a // b for floats (CPython's
// _float_div_mod), including its signed zeros, infinities and NaNs; b must
// not be 0, where Python raises ZeroDivisionError.
func FloorDivFloat(a, b float64) float64 {
	mod := math.Mod(a, b)
	div := (a - mod) / b
	if mod != 0 && (b < 0) != (mod < 0) {
		div--
	}
	if div == 0 {
		// Give zero the sign of the true quotient.
		return math.Copysign(0, a/b)
	}
	// The division may be slightly off an integer; snap to the nearest one.
	floor := math.Floor(div)
	if div-floor > 0.5 {
		floor++
	}
	return floor
}

// ModFloat returns Python's a % b for floats, whose sign follows b (zero
// takes the sign of b); b must not be 0, where Python raises
// ZeroDivisionError.
func ModFloat(a, b float64) float64 {
	mod := math.Mod(a, b)
	if mod == 0 {
		return math.Copysign(0, b)
	}
	if (b < 0) != (mod < 0) {
		mod += b
	}
	return mod
}

// PowFloat returns Python's x ** y for floats. It fails where Python
// raises (0.0 to a negative power, a finite result too large for a float)
// or gives a complex number (a negative x to a fractional power). An
// integral y up to 1024 gives the correctly rounded power, as C's pow does;
// otherwise the value is math.Pow's, which may differ from Python's in the
// last digits.
func PowFloat(x, y float64) (float64, error) {
	r := math.Pow(x, y)
	if y == math.Trunc(y) && math.Abs(y) <= 1024 && x != 0 && !math.IsInf(x, 0) && !math.IsNaN(x) {
		r = powExact(x, int(y))
	}
	switch {
	case y == 0 || math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0):
		// Python's special cases, which math.Pow shares.
	case x == 0 && y < 0:
		return 0, errors.New("0.0 cannot be raised to a negative power")
	case x < 0 && y != math.Trunc(y):
		return 0, errors.New("a negative number to a fractional power is a complex number")
	case math.IsInf(r, 0):
		return 0, errors.New("numerical result out of range")
	}
	return r, nil
}

// powExact returns x ** n correctly rounded: the power is exact in a
// big.Float of 53*|n| bits (x has 53), and so is its reciprocal up to far
// more bits than a float64 keeps.
func powExact(x float64, n int) float64 {
	prec := uint(53*max(n, -n) + 64)
	p := new(big.Float).SetPrec(prec).SetInt64(1)
	b := new(big.Float).SetPrec(prec).SetFloat64(x)
	for k := max(n, -n); k > 0; k >>= 1 {
		if k&1 == 1 {
			p.Mul(p, b)
		}
		b.Mul(b, b)
	}
	if n < 0 {
		p.Quo(new(big.Float).SetPrec(prec).SetInt64(1), p)
	}
	f, _ := p.Float64()
	return f
}

// PowInt returns Python's a ** b for ints with b >= 0 (a negative b gives
// a float in Python, which the caller must handle).
func PowInt(a, b int64) (int64, error) {
	result := int64(1)
	var err error
	for b > 0 {
		if b&1 == 1 {
			if result, err = MulInt(result, a); err != nil {
				return 0, err
			}
		}
		if b >>= 1; b > 0 {
			// A square that overflows is a factor of a result that would
			// (|a| > 1 here, since 0, 1 and -1 square to themselves).
			if a, err = MulInt(a, a); err != nil {
				return 0, err
			}
		}
	}
	return result, nil
}

// Neg is -x computed at run time: Go folds the negation of a constant,
// and Go constants have no negative zero (-(0|float) prints -0.0).
func Neg(x float64) float64 { return -x }
