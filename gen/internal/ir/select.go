package ir

// Select is X|select(...), reject, selectattr or rejectattr (Name): the
// items of the list X for which Cond, read with Item bound to each, is
// true (false for Reject). Cond is the test the filter names, applied to
// the item or to its attribute.
type Select struct {
	Name string
	X    Expr
	Item *Local
	Cond Expr
	// Args are the test's arguments, which Cond reads too: Jinja2
	// evaluates them once, before the items, so they fail even with none.
	Args   []Expr
	Reject bool
	Pos    string
}

func (x *Select) Type() *Type { return x.X.Type() }
