package jinja

import "math"

// FloorDiv returns Python's a // b for ints, rounding the quotient towards
// negative infinity; b must not be 0. math.MinInt64 // -1 wraps to
// math.MinInt64, where Python gives 2**63.
func FloorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// Mod returns Python's a % b for ints, whose sign follows b; b must not be 0.
func Mod(a, b int64) int64 {
	r := a % b
	if r != 0 && (r < 0) != (b < 0) {
		r += b
	}
	return r
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

// PowInt returns Python's a ** b for ints with b >= 0 (a negative b gives
// a float in Python, which the caller must handle). Unlike Python's
// unbounded ints, the result wraps around on int64 overflow.
func PowInt(a, b int64) int64 {
	result := int64(1)
	for ; b > 0; b >>= 1 {
		if b&1 == 1 {
			result *= a
		}
		a *= a
	}
	return result
}
