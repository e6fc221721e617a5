// Package tmpl is the Jinja2-subset lexer and parser. It turns template
// source into an AST whose every node carries a Span of byte offsets into
// that source. Whitespace control (`-`, trim_blocks, lstrip_blocks) and the
// trailing-newline rule are applied while lexing, so Text nodes hold exactly
// the bytes Jinja2 would output.
//
// It imports only the standard library and runtime/suggest (the
// did-you-mean of an unknown tag): it knows nothing of types, prompt files
// or Go, and must not import gen or any other stage.
package tmpl

// Span is a half-open range [Start, End) of byte offsets into the template source.
type Span struct{ Start, End int }

// Options are the Jinja2 environment options that change lexing.
type Options struct {
	TrimBlocks          bool
	LstripBlocks        bool
	KeepTrailingNewline bool
	// Transformers is the environment of Hugging Face transformers' chat
	// templates (jinja: {profile: transformers}): besides trim_blocks and
	// lstrip_blocks, which the loader sets, it parses the loop controls
	// {% break %} and {% continue %} (Jinja2's loopcontrols extension) and
	// transformers' {% generation %} block.
	Transformers bool
}

// Error is a syntax error at a position in the template source.
type Error struct {
	Span Span
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Template is a parsed template.
type Template struct {
	Body []Node
}

// Node is a statement-level node.
type Node interface{ node() }

// Expr is an expression node.
type Expr interface {
	expr()
	Pos() Span
}

type (
	// Text is literal output. Value is what Jinja2 outputs, after whitespace
	// control; Span covers the source bytes it came from.
	Text struct {
		Span  Span
		Value string
	}
	// Output is {{ X }}.
	Output struct {
		Span Span
		X    Expr
	}
	// If is {% if %}{% elif %}...{% else %}{% endif %}; Else is nil when absent.
	If struct {
		Span     Span
		Branches []IfBranch
		Else     []Node
	}
	IfBranch struct {
		Cond Expr
		Body []Node
	}
	// For is {% for Targets in Iter [if Filter] %}Body{% else %}Else{% endfor %}.
	// Targets has one Name, or two for `k, v`.
	For struct {
		Span    Span
		Targets []*Name
		Iter    Expr
		Filter  Expr // nil unless `for x in xs if cond`
		Body    []Node
		Else    []Node
	}
	// Set is {% set Targets = Value %}, or a block set {% set x %}Body{% endset %}
	// (then Value is nil). An assignment to a namespace attribute,
	// {% set ns.attr = Value %}, has NS and Attr instead of Targets.
	Set struct {
		Span     Span
		Targets  []*Name
		NS       *Name
		Attr     string
		AttrSpan Span
		Value    Expr
		Body     []Node
	}
	// LoopControl is {% break %} or {% continue %}.
	LoopControl struct {
		Span  Span
		Break bool
	}
	// Generation is transformers' {% generation %}Body{% endgeneration %}:
	// it renders Body, which Jinja2 runs as a macro (a frame of its own).
	Generation struct {
		Span Span
		Body []Node
	}
	// FilterBlock is {% filter f(args)|g %}Body{% endfilter %}: Body's
	// output, captured as a block set captures it (in a frame of its own),
	// is printed through Filter, a chain whose innermost X is nil.
	FilterBlock struct {
		Span   Span
		Filter *Filter
		Body   []Node
	}
	// Macro is {% macro Name(Params) %}Body{% endmacro %}, defined at the
	// template's top level. Defaults[i] is Params[i]'s default, nil when it
	// has none.
	Macro struct {
		Span     Span
		Name     *Name
		Params   []*Name
		Defaults []Expr
		Body     []Node
	}
	// CallBlock is {% call(Params) Call %}Body{% endcall %}: Call, a
	// macro's, runs with caller, a macro of the block's Params and Body
	// (Caller, named "caller"), which its body may call.
	CallBlock struct {
		Span   Span
		Call   *Call
		Caller *Macro
	}
	// Include is {% include Name %}.
	Include struct {
		Span Span
		Name Expr
	}
)

type (
	// Name is a variable reference.
	Name struct {
		Span Span
		Name string
	}
	// Const is a literal: string, int64, float64, bool, or nil for none.
	Const struct {
		Span  Span
		Value any
	}
	// List is [a, b].
	List struct {
		Span  Span
		Items []Expr
	}
	// Tuple is (a, b) or a bare a, b where Jinja2 allows it.
	Tuple struct {
		Span  Span
		Items []Expr
	}
	// Dict is {k: v, ...}.
	Dict struct {
		Span   Span
		Keys   []Expr
		Values []Expr
	}
	// Attr is X.Name.
	Attr struct {
		Span     Span
		X        Expr
		Name     string
		NameSpan Span
	}
	// Index is X[Index].
	Index struct {
		Span  Span
		X     Expr
		Index Expr
	}
	// Slice is X[Lo:Hi:Step]; absent parts are nil.
	Slice struct {
		Span         Span
		X            Expr
		Lo, Hi, Step Expr
	}
	// Unary is Op X with Op one of "not", "-", "+".
	Unary struct {
		Span Span
		Op   string
		X    Expr
	}
	// Binary is X Op Y with Op one of "+", "-", "*", "/", "//", "%", "**",
	// "~", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "and", "or".
	// A chained comparison a < b < c parses as (a < b) and (b < c) with
	// Op "and"; Jinja2 evaluates b once, which only matters for side effects.
	Binary struct {
		Span Span
		Op   string
		X, Y Expr
	}
	// CondExpr is Then if Cond else Else; Else is nil when absent.
	CondExpr struct {
		Span             Span
		Then, Cond, Else Expr
	}
	// Filter is X | Name(Args, Kwargs...).
	Filter struct {
		Span     Span
		X        Expr
		Name     string
		NameSpan Span
		Args     []Expr
		Kwargs   []Kwarg
	}
	// Test is X is [not] Name(Args...).
	Test struct {
		Span     Span
		X        Expr
		Name     string
		NameSpan Span
		Not      bool
		Args     []Expr
	}
	// Call is Fn(Args, Kwargs...), e.g. a method call x.strip() or range(3).
	Call struct {
		Span   Span
		Fn     Expr
		Args   []Expr
		Kwargs []Kwarg
	}
	Kwarg struct {
		Name     string
		NameSpan Span
		Value    Expr
	}
)

func (*Text) node()        {}
func (*Output) node()      {}
func (*If) node()          {}
func (*For) node()         {}
func (*Set) node()         {}
func (*Include) node()     {}
func (*LoopControl) node() {}
func (*Generation) node()  {}
func (*FilterBlock) node() {}
func (*Macro) node()       {}
func (*CallBlock) node()   {}

func (*Name) expr()     {}
func (*Const) expr()    {}
func (*List) expr()     {}
func (*Tuple) expr()    {}
func (*Dict) expr()     {}
func (*Attr) expr()     {}
func (*Index) expr()    {}
func (*Slice) expr()    {}
func (*Unary) expr()    {}
func (*Binary) expr()   {}
func (*CondExpr) expr() {}
func (*Filter) expr()   {}
func (*Test) expr()     {}
func (*Call) expr()     {}

func (e *Name) Pos() Span     { return e.Span }
func (e *Const) Pos() Span    { return e.Span }
func (e *List) Pos() Span     { return e.Span }
func (e *Tuple) Pos() Span    { return e.Span }
func (e *Dict) Pos() Span     { return e.Span }
func (e *Attr) Pos() Span     { return e.Span }
func (e *Index) Pos() Span    { return e.Span }
func (e *Slice) Pos() Span    { return e.Span }
func (e *Unary) Pos() Span    { return e.Span }
func (e *Binary) Pos() Span   { return e.Span }
func (e *CondExpr) Pos() Span { return e.Span }
func (e *Filter) Pos() Span   { return e.Span }
func (e *Test) Pos() Span     { return e.Span }
func (e *Call) Pos() Span     { return e.Span }
