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
	// Caller, when the body reads caller, names the parameter that
	// holds the caller of the call's {% call %} block (none for a plain
	// call), and Callers are the callers of every such block.
	Caller  string
	Callers []*Caller
}

// CallFunc calls Func with Args, one dynamic value per parameter (an
// undefined one for a parameter the call leaves out), and Caller, the
// caller of the call's {% call %} block (nil for a plain call). Frames
// counts the macro frames between the call and the function body,
// caller body or template it stands in (the frames of macros expanded in
// place), which Jinja2's recursion limit counts as it counts the calls.
type CallFunc struct {
	Func   *Func
	Args   []Expr
	Caller *Caller
	Frames int
	Pos    string
}

func (*CallFunc) Type() *Type { return &Type{Kind: KindString} }

// Caller is the caller of a {% call %} block of a function: a macro
// without parameters whose body runs, in a frame of its own within the
// block's frames, where the function's body calls caller(). Env are the
// locals of the block's frames that the body reads (and never sets),
// which the text/template backend passes to it; Site is its index in the
// function's Callers.
type Caller struct {
	Locals []*Local
	Body   []Node
	Env    []*Local
	Site   int
}

// CallCaller prints a call of caller() in the body of Func: Frames and
// Pos as CallFunc's.
type CallCaller struct {
	Func   *Func
	Frames int
	Pos    string
}

func (*CallCaller) Type() *Type { return &Type{Kind: KindString} }

// AllLocals returns the locals of p's body and of its functions and
// their callers.
func (p *Prompt) AllLocals() []*Local {
	out := p.Locals
	for _, f := range p.Funcs {
		out = append(append(slices.Clip(out), f.Params...), f.Locals...)
		for _, c := range f.Callers {
			out = append(out, c.Locals...)
		}
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
