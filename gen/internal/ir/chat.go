package ir

// The statements of chat templates (the transformers profile).
type (
	// LoopControl is {% break %} or {% continue %} of the loop For. The
	// checker drops what follows it in its block, which never runs. As in
	// Jinja2, the else block of a loop with loop controls runs when no
	// iteration reached the end of the body, not only when there was none.
	LoopControl struct {
		For   *For
		Break bool
	}
	// Raise fails the render with runtime.ErrRaised and Msg, a string, as
	// transformers' raise_exception(msg) raises a TemplateError. The
	// checker drops what follows it in its block.
	Raise struct {
		Msg Expr
		Pos string
	}
)

func (*LoopControl) node() {}
func (*Raise) node()       {}

// Strftime is transformers' strftime_now(Format): the render's clock
// (runtime.RenderNow of the render options) formatted by jinja.Strftime.
// Format is a string; a constant one holds only supported directives.
type Strftime struct {
	Format Expr
	Pos    string
}

func (*Strftime) Type() *Type { return &Type{Kind: KindString} }

// UsesClock reports whether p's template reads the clock: then its Render
// and AppendRender take runtime.RenderOptions.
func UsesClock(p *Prompt) bool {
	uses := false
	WalkFuncs(p, func(x Expr) {
		_, ok := x.(*Strftime)
		uses = uses || ok
	})
	return uses
}

// HasLoopControl reports whether ns stop or skip an iteration of loop,
// or of any loop when loop is nil.
func HasLoopControl(ns []Node, loop *For) bool {
	for _, n := range ns {
		switch n := n.(type) {
		case *LoopControl:
			if n.For == loop || loop == nil {
				return true
			}
		case *If:
			for _, b := range n.Branches {
				if HasLoopControl(b.Body, loop) {
					return true
				}
			}
			if HasLoopControl(n.Else, loop) {
				return true
			}
		case *For:
			if HasLoopControl(n.Body, loop) || HasLoopControl(n.Else, loop) {
				return true
			}
		case *Set:
			if HasLoopControl(n.Body, loop) {
				return true
			}
		}
	}
	return false
}

// EndsBlock reports whether n ends its block: what follows never runs.
func EndsBlock(n Node) bool {
	switch n.(type) {
	case *LoopControl, *Raise:
		return true
	}
	return false
}

// FallsThrough reports whether running ns can reach its end.
func FallsThrough(ns []Node) bool { return len(ns) == 0 || !EndsBlock(ns[len(ns)-1]) }
