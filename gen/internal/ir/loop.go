package ir

// LoopCycle is loop.cycle(Args...) of For: the argument at the loop's
// index0 modulo their number. The arguments share the type T.
type LoopCycle struct {
	For  *For
	Args []Expr
	T    *Type
}

func (x *LoopCycle) Type() *Type { return x.T.Resolve() }

// IsLoopNeighbour reports whether x is loop.previtem or loop.nextitem,
// the item before or after the current one, undefined at the ends.
func IsLoopNeighbour(x Expr) bool {
	a, ok := x.(*LoopAttr)
	return ok && (a.Attr == "previtem" || a.Attr == "nextitem")
}
