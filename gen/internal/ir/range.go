package ir

// Range is Jinja2's global range(Start, Stop, Step), ints all, a list of
// ints. A zero Step fails the render (Python's ValueError) at Pos.
type Range struct {
	Start, Stop, Step Expr
	Pos               string
}

func (*Range) Type() *Type { return &Type{Kind: KindList, Elem: &Type{Kind: KindInt}} }
