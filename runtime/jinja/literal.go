package jinja

// Float returns f. Generated code wraps float literals in it so arithmetic
// on them runs in IEEE 754 at run time, as Python's does (0.1 + 0.2 is
// 0.30000000000000004, -0.0 keeps its sign), instead of in Go's exact
// constant arithmetic.
func Float(f float64) float64 { return f }
