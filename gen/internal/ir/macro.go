package ir

// Capture is the output of Body as a string: a macro call, expanded in
// place. Body first binds the macro's parameters (sets of locals), then
// runs the macro's body; what it prints is the value, not the output.
type Capture struct {
	Body []Node
}

func (*Capture) Type() *Type { return &Type{Kind: KindString} }
