package gen

// The IR is the checked, typed form of one prompt. It is emit's only input:
// every type is resolved, every name decided and every position rendered.

type irPrompt struct {
	Prompt   *Prompt
	Name     string  // exported Go name, e.g. SummarizeCustomerInteraction
	TypeName string  // unexported type of the prompt value
	Feed     *Type   // the feed struct
	Structs  []*Type // named struct types in emit order, Feed first
	Body     []irNode
	Locals   []*irLocal // set targets of the template's top scope
	// NumLocals is how many Go locals the checker named (name_1 to
	// name_N); emit numbers its temporaries after them, so that a local
	// and a temporary never share a Go name.
	NumLocals int
	// StaticSize is the number of literal bytes, the first size hint.
	StaticSize int
	// Output is what ParseOutput returns; nil when the prompt declares
	// neither outputFormat nor outputSchema.
	Output *irOutput
	// Examples are the checked examples, and ExampleName the type of one.
	Examples    []irExample
	ExampleName string
	// Parts are the other templates of the prompt (system and message
	// templates), each checked with the same feed; Messages refer to them.
	Parts []*irPrompt
	// Messages is what Messages(feed) builds, in order.
	Messages []*irMessage
	// IsMessages is set for a prompt with `messages:`; it has no Body and
	// no Render.
	IsMessages bool
}

// irMessage is one message of Messages(feed). Its templates are Parts.
type irMessage struct {
	Role                      string
	Content, Name, ToolCallID *irPrompt      // nil when absent
	Data                      *irPrompt      // renders a JSON object; nil when absent
	ToolCalls                 [][3]*irPrompt // id, name, arguments
	// FromRender: the content is the prompt's Render.
	FromRender bool
}

// irExample is one checked example, its values as JSON text.
type irExample struct {
	Input string // the input_vars, as the feed decodes them
	// Output is the expected output as the output type decodes it, or the
	// text itself when the output is text.
	Output string
}

type irNode interface{ irNode() }

type (
	irText  struct{ Value string }
	irPrint struct{ X irExpr }
	irIf    struct {
		Branches []irBranch
		Else     []irNode
	}
	irBranch struct {
		Cond irExpr
		Body []irNode
	}
	// irFor iterates a list, a string (its characters) or a map (its keys,
	// sorted; with Key set, its items).
	irFor struct {
		Key, Value *irLocal
		// Unpack holds the targets of for a, b in xs: each element of the
		// list xs must be a list of len(Unpack) items.
		Unpack []*irLocal
		Iter   irExpr
		// Dictsort holds case_sensitive and reverse of m|dictsort, whose
		// keys come in its order.
		Dictsort []irExpr
		// Strict: an undefined Iter fails the render (m.items(),
		// m|dictsort) rather than iterating nothing.
		Strict     bool
		Pos        string // of Iter: where unpacking or a too long output fails
		Filter     irExpr
		Body, Else []irNode
		Locals     []*irLocal // set targets scoped to one iteration
		// Loop is the Go name of the loop index; LoopLen of the length. They
		// are empty when the template does not use them.
		Index, Length string
	}
	irSet struct {
		Local *irLocal
		Value irExpr   // nil for a block set
		Body  []irNode // a block set's body
	}
)

func (*irText) irNode()  {}
func (*irPrint) irNode() {}
func (*irIf) irNode()    {}
func (*irFor) irNode()   {}
func (*irSet) irNode()   {}

// irLocal is a Go local variable holding a loop target or a set value.
type irLocal struct {
	Name   string // in the template, for errors
	GoName string
	T      *Type
	// MaybeUndefined locals carry a companion "<GoName>Def" bool.
	MaybeUndefined bool
}

type irExpr interface{ typ() *Type }

type (
	// irField reads a feed variable (Of nil) or a struct member.
	irField struct {
		Of    irExpr
		Field *Field
		Pos   string
	}
	irLocalRef struct{ L *irLocal }
	// irLoopAttr is loop.index, loop.first, ... of For.
	irLoopAttr struct {
		For  *irFor
		Attr string
		T    *Type
	}
	irConst struct {
		Value any // string, int64, float64, bool or nil
		T     *Type
	}
	// irList is a list literal. An Inline literal is printed where it
	// stands: it is written out element by element, each with its own type
	// ([1, 2.0] keeps its int), and never built as a Go slice.
	irList struct {
		Items  []irExpr
		T      *Type
		Inline bool
	}
	// irDict is a dict literal: Values are in the order of T's fields (its
	// keys). Inline is as for irList; otherwise it is built as a Go value
	// of an anonymous struct type.
	irDict struct {
		Values []irExpr
		T      *Type
		Inline bool
	}
	// irDictValue reads a dict's value by its constant key.
	irDictValue struct {
		Of    irExpr
		Field *Field
		Pos   string
	}
	// irIndex is X[Index] on a list, string or map; it is undefined when
	// out of range or missing.
	irIndex struct {
		X, Index irExpr
		T        *Type
		Pos      string
	}
	irSlice struct {
		X, Lo, Hi, Step irExpr
		T               *Type
		Pos             string
	}
	irUnary struct {
		Op  string
		X   irExpr
		T   *Type
		Pos string
	}
	// irBinary is an operator. An and/or is a bool where it is tested;
	// elsewhere it is a Value: it yields one of its operands (see yields),
	// and is typed as their str() when they have different types.
	irBinary struct {
		Op    string
		X, Y  irExpr
		T     *Type
		Pos   string
		Value bool
	}
	irCond struct {
		Then, Cond, Else irExpr // Else may be nil: undefined
		T                *Type
	}
	// irCall is a filter, a test or a method: Args are complete, in the
	// callee's parameter order, defaults filled in.
	irCall struct {
		Kind callKind
		Name string
		X    irExpr
		Args []irExpr
		Not  bool     // a negated test
		Attr []*Field // attribute= of join, map, sort and unique: its path of fields
		T    *Type
		Pos  string
	}
)

type callKind uint8

const (
	callFilter callKind = iota
	callTest
	callMethod
)

func (x *irField) typ() *Type     { return x.Field.Type.resolve() }
func (x *irLocalRef) typ() *Type  { return x.L.T.resolve() }
func (x *irLoopAttr) typ() *Type  { return x.T }
func (x *irConst) typ() *Type     { return x.T }
func (x *irList) typ() *Type      { return x.T.resolve() }
func (x *irDict) typ() *Type      { return x.T.resolve() }
func (x *irDictValue) typ() *Type { return x.Field.Type.resolve() }
func (x *irIndex) typ() *Type     { return x.T.resolve() }
func (x *irSlice) typ() *Type     { return x.T.resolve() }
func (x *irUnary) typ() *Type     { return x.T.resolve() }
func (x *irBinary) typ() *Type    { return x.T.resolve() }
func (x *irCond) typ() *Type      { return x.T.resolve() }
func (x *irCall) typ() *Type      { return x.T.resolve() }
