package ir

import "slices"

// Capture is the output of Body as a string: a macro call, expanded in
// place. Body first binds the macro's parameters (sets of locals), then
// runs the macro's body; what it prints is the value, not the output.
// Locals (the parameters and the body's own) start afresh at each
// evaluation, as a call's frame does.
type Capture struct {
	Locals []*Local
	Body   []Node
	// Defined, when set, is the flag (a bool local) of a macro defined in
	// an if branch that may not have run: false, the call fails with
	// ErrUndefined about Macro at Pos, as Jinja2 calling Undefined does.
	Defined    Expr
	Macro, Pos string
}

func (*Capture) Type() *Type { return &Type{Kind: KindString} }

// Func is a macro that calls itself, directly or through others,
// compiled once as a function of its arguments (dynamic values) rather
// than expanded at each call. What its body prints is the value of a call.
type Func struct {
	Name   string // the macro's name, for errors
	GoName string // the Go local, or the text/template name, of the function
	Params []*Local
	Locals []*Local // the body's own locals, besides the parameters
	Body   []Node
}

// CallFunc calls Func with Args, one dynamic value per parameter (an
// undefined one for a parameter the call leaves out). Frames counts the
// macro frames between the call and the function body or template it
// stands in (the frames of macros expanded in place), which Jinja2's
// recursion limit counts as it counts the calls.
type CallFunc struct {
	Func   *Func
	Args   []Expr
	Frames int
	Pos    string
}

func (*CallFunc) Type() *Type { return &Type{Kind: KindString} }

// AllLocals returns the locals of p's body and of its functions.
func (p *Prompt) AllLocals() []*Local {
	out := p.Locals
	for _, f := range p.Funcs {
		out = append(append(slices.Clip(out), f.Params...), f.Locals...)
	}
	return out
}

// WalkFuncs calls fn for every expression in p's body and in the bodies
// of its functions.
func WalkFuncs(p *Prompt, fn func(Expr)) {
	Walk(p.Body, fn)
	for _, f := range p.Funcs {
		Walk(f.Body, fn)
	}
}
