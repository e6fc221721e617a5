package ir

// Capture is the output of Body as a string: a macro call, expanded in
// place. Body first binds the macro's parameters (sets of locals), then
// runs the macro's body; what it prints is the value, not the output.
// Locals (the parameters and the body's own) start afresh at each
// evaluation, as a call's frame does.
type Capture struct {
	Locals []*Local
	Body   []Node
}

func (*Capture) Type() *Type { return &Type{Kind: KindString} }
