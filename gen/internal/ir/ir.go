package ir

type Node interface{ node() }

type (
	Text struct{ Value string }
	// Print prints X; Pos is where, for a dynamic value that fails
	// printing (a method).
	Print struct {
		X   Expr
		Pos string
	}
	If struct {
		Branches []Branch
		Else     []Node
	}
	Branch struct {
		Cond Expr
		Body []Node
	}
	// For iterates a list, a string (its characters) or a map (its keys,
	// sorted; with Key set, its items).
	For struct {
		Key, Value *Local
		// Unpack holds the targets of for a, b in xs: each element of the
		// list xs must be a list of len(Unpack) items.
		Unpack []*Local
		// Values marks a loop over m.values(): Key is the map's key, which
		// the template does not name.
		Values bool
		Iter   Expr
		// Dictsort holds case_sensitive and reverse of m|dictsort, whose
		// keys come in its order.
		Dictsort []Expr
		// Strict: an undefined Iter fails the render (m.items(),
		// m|dictsort) rather than iterating nothing.
		Strict     bool
		Pos        string // of Iter: where unpacking or a too long output fails
		Filter     Expr
		Body, Else []Node
		Locals     []*Local // set targets scoped to one iteration
		// Index is the Go name of the loop index, Length of the length;
		// each is empty when the template does not use it.
		Index, Length string
		// Items marks the loop of a `truncate: items` section: the backends
		// record where it starts and where each iteration ends, so that the
		// budget can drop the last iterations.
		Items bool
		// Live marks a loop over the list of a local that its body
		// modifies: it takes item i while i is below the list's length at
		// that moment, as Python's list iterator does (check.liveLoop).
		Live bool
	}
	Set struct {
		Local *Local
		Value Expr   // nil for a block set
		Body  []Node // a block set's body
	}
)

func (*Text) node()  {}
func (*Print) node() {}
func (*If) node()    {}
func (*For) node()   {}
func (*Set) node()   {}

// Local is a Go local variable holding a loop target or a set value.
type Local struct {
	Name   string // in the template, for errors
	GoName string
	T      *Type
	// MaybeUndefined locals carry a companion "<GoName>Def" bool.
	MaybeUndefined bool
	// Shared locals hold a list that a list method modifies and that
	// another local set to it holds too (check.listClass): the backends
	// keep the list behind a pointer, which a set of one to another copies.
	Shared bool
}

type Expr interface{ Type() *Type }

type (
	// FieldRef reads a feed variable (Of nil) or a struct member.
	FieldRef struct {
		Of    Expr
		Field *Field
		Pos   string
	}
	LocalRef struct{ L *Local }
	// LoopAttr is loop.index, loop.first, ... of For.
	LoopAttr struct {
		For  *For
		Attr string
		T    *Type
	}
	Const struct {
		Value any // string, int64, float64, bool or nil
		T     *Type
	}
	// List is a list literal. An Inline literal is printed where it
	// stands: it is written out element by element, each with its own type
	// ([1, 2.0] keeps its int), and never built as a Go slice.
	List struct {
		Items  []Expr
		T      *Type
		Inline bool
	}
	// Dict is a dict literal: Values are in the order of T's fields (its
	// keys). Inline is as for List; otherwise it is built as a Go value
	// of an anonymous struct type.
	Dict struct {
		Values []Expr
		T      *Type
		Inline bool
		// IntKeys marks the keys of T.Fields that are ints, written in
		// decimal in their Key ({0: 'a'}, a dynamic value); nil where
		// every key is a string.
		IntKeys []bool
	}
	// DictValue reads a dict's value by its constant key.
	DictValue struct {
		Of    Expr
		Field *Field
		Pos   string
	}
	// Index is X[Index] on a list, string or map; it is undefined when
	// out of range or missing.
	Index struct {
		X, Index Expr
		T        *Type
		Pos      string
	}
	Slice struct {
		X, Lo, Hi, Step Expr
		T               *Type
		Pos             string
	}
	Unary struct {
		Op  string
		X   Expr
		T   *Type
		Pos string
	}
	// Binary is an operator. An and/or is a bool where it is tested;
	// elsewhere it is a Value: it yields one of its operands (see yields),
	// and is typed as their str() when they have different types.
	Binary struct {
		Op    string
		X, Y  Expr
		T     *Type
		Pos   string
		Value bool
		// EscapeX or EscapeY: a + of Markup and a plain string, which
		// Markup escapes (jinja.Escape) before it concatenates.
		EscapeX, EscapeY bool
	}
	Cond struct {
		Then, Cond, Else Expr // Else may be nil: undefined
		T                *Type
		// KeyTested is set where Cond tests the key that Then reads
		// (x.get(k): k in x), so Then is defined where it is taken.
		KeyTested bool
	}
	// Strict is X where Jinja2 fails on Undefined, as when it calls a
	// method of it (x.get(k)): the render fails with ErrUndefined where X
	// is undefined.
	Strict struct {
		X   Expr
		Pos string
	}
	// Call is a filter, a test or a method: Args are complete, in the
	// callee's parameter order, defaults filled in.
	Call struct {
		Kind CallKind
		Name string
		X    Expr
		Args []Expr
		Not  bool     // a negated test
		Attr []*Field // attribute= of join, map, sort and unique: its path of fields
		// Go is the function of a CallGoFilter, which Args (the operand
		// not among them) follow.
		Go *GoFilter
		// EscapeEnd: truncate of Markup with a plain end, which
		// Markup's + escapes as it appends it (jinja.TruncateMarkup).
		EscapeEnd bool
		T         *Type
		Pos       string
	}
)

type CallKind uint8

const (
	CallFilter CallKind = iota
	CallTest
	CallMethod
	CallGoFilter // a filter of `filters:`, a Go function
	// CallListMethod is a list method that modifies its list in place
	// (append, extend, insert, pop, clear): X is the LocalRef of the
	// local that holds the list, which the backends set to the list
	// changed, and T is the method's result (none, or pop's item).
	CallListMethod
)

func (x *FieldRef) Type() *Type  { return x.Field.Type.Resolve() }
func (x *LocalRef) Type() *Type  { return x.L.T.Resolve() }
func (x *LoopAttr) Type() *Type  { return x.T.Resolve() }
func (x *Const) Type() *Type     { return x.T }
func (x *List) Type() *Type      { return x.T.Resolve() }
func (x *Dict) Type() *Type      { return x.T.Resolve() }
func (x *DictValue) Type() *Type { return x.Field.Type.Resolve() }
func (x *Index) Type() *Type     { return x.T.Resolve() }
func (x *Slice) Type() *Type     { return x.T.Resolve() }
func (x *Unary) Type() *Type     { return x.T.Resolve() }
func (x *Binary) Type() *Type    { return x.T.Resolve() }
func (x *Cond) Type() *Type      { return x.T.Resolve() }
func (x *Call) Type() *Type      { return x.T.Resolve() }
func (x *Strict) Type() *Type    { return x.X.Type() }
func (x *Include) Type() *Type   { return &Type{Kind: KindString} }

// Include renders a component of a set where it stands: {{ name }} or
// {% include "name" %}. As a value, it is the rendered component.
type Include struct {
	Comp *Component
	Pos  string
}

// Component is what the backends call of a set's component: every version
// of one name in one namespace.
type Component struct {
	Name string
	Func string // the Go function that picks the version and renders it
	// Templates are the versions' templates, the unversioned content
	// first, if any.
	Templates []ComponentTemplate
}

// ComponentTemplate is the template of one version of a component.
type ComponentTemplate struct {
	Version   string // "" for the unversioned content
	Key, File string // the template's prompt key and file
}
