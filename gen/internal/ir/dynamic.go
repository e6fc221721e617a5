package ir

// KindDynamic is the kind of a dynamic value (runtime/jinja.Value): JSON-like
// data whose shape is known only at run time, such as the messages and
// tools of a chat context. Every operation on one is decided at run time,
// with Python's semantics; its result is dynamic unless the operation
// decides the type (a comparison is a bool, a length an int).
const KindDynamic Kind = KindDict + 1

// DynOp is an operation on dynamic values.
type DynOp uint8

const (
	DynAttr        DynOp = iota // Args[0].Name
	DynItem                     // Args[0][Args[1]]
	DynSlice                    // Args[0][Args[1]:Args[2]:Args[3]], nil bounds absent
	DynEqual                    // Args[0] == Args[1] (Name is "==" or "!=")
	DynCompare                  // Args[0] Name Args[1], Name one of < <= > >=
	DynArith                    // Args[0] Name Args[1], Name one of + - * / // % **
	DynNeg                      // -Args[0]
	DynContains                 // Args[0] in Args[1] (Name is "in" or "not in")
	DynTest                     // Args[0] is [not] Name
	DynLength                   // Args[0] | length
	DynStr                      // str(Args[0]): printing, ~, the string filters; fails on a method
	DynAsString                 // Args[0] as a string, for a str method called on it
	DynAsInt                    // Args[0] as an int, for a str method's int argument (zfill's width)
	DynAsIndex                  // Args[0] as str.find's start or end (Name), None its default
	DynDefault                  // Args[0] | default(Args[1], Args[2])
	DynToJSON                   // Args[0] | tojson(Args[1]); see ToJSONEnsureASCII
	DynFirst                    // Args[0] | first
	DynLast                     // Args[0] | last
	DynJoin                     // Args[0] | join(Args[1])
	DynList                     // Args[0] | list
	DynGet                      // Args[0].get(Args[1], Args[2])
	DynKeys                     // Args[0].keys()
	DynValues                   // Args[0].values()
	DynItems                    // Args[0].items() or | items: only a for loop's iterable
	DynItemsList                // Args[0].items() as a list of (key, value) tuples
	DynFilter                   // Args[0] | Name(Args[1:]...), every argument given (jinja.Filter)
	DynMapFilter                // Args[0] | map(Name, Args[1:]...): the filter Name of each item
	DynStrOperand               // Args[0] as the string operand of indent, fallible
	DynMissing                  // Args[0] | f(Args[1:]...) of a filter or test Jinja2 lacks, Name "filter f" or "test f": fails (jinja.Missing)
	DynTuple                    // the tuple (Args...), of any length
	DynUnpacked                 // item Args[1] of Args[0] unpacked into Args[2] targets ({% set a, b = x %})
	DynMarkup                   // Args[0], a tojson, safe or escape result, as a dynamic value that keeps it Markup (jinja.MarkupValue); with Args[1], the dynamic receiver of the str method that returned Args[0], only where it is Markup (jinja.MarkupItemsOf)
	DynMarkupItems              // Args[0], a list or tuple of strings that Markup's split() or partition() made, as a dynamic value whose items are Markup (jinja.MarkupValue); with Args[1], the dynamic receiver of split(), only where it is Markup (jinja.MarkupItemsOf)
	DynGenerator                // a generator of Python type Name, once Args (its operand and arguments) are evaluated (jinja.GeneratorValue)
	DynGenIterator              // a Python generator of type Name: Args[0], a chain of generator filters of dynamic values (GenLinks), whose items are made as pulled (jinja.GenIterator)
	DynIterator                 // a Python iterator of type Name (generator, list_reverseiterator) that yields the items of Args[0], a generator evaluated as a list (jinja.IteratorValue)
	DynIterItem                 // it[Args[0]] of it, a Python iterator of type Name (generator, list_reverseiterator): undefined, a method (send), or fails (Item of a jinja.GeneratorValue)
	DynMethod                   // the dict method Name (items, get, ...) that Jinja2 reads as x.Name of a typed object, map or dict, once Args[0] (its owner, a typed value checked defined, not converted) is evaluated (jinja.DictMethod)
)

// Dynamic is an operation on dynamic values; Args that are not dynamic
// are converted to dynamic values first.
type Dynamic struct {
	Op   DynOp
	Name string
	Not  bool // DynTest: a negated test
	// Method: DynItems is the method .items(), which fails where the
	// items filter iterates nothing (undefined).
	Method bool
	Args   []Expr
	T      *Type
	Pos    string
}

func (x *Dynamic) Type() *Type { return x.T.Resolve() }

// PosOf is the position of x where its node holds one, else "".
func PosOf(x Expr) string {
	switch x := x.(type) {
	case *Dynamic:
		return x.Pos
	case *Binary:
		return x.Pos
	case *Call:
		return x.Pos
	case *FieldRef:
		return x.Pos
	case *Index:
		return x.Pos
	case *Slice:
		return x.Pos
	case *Unary:
		return x.Pos
	}
	return ""
}

// Fallible reports whether x can fail the render.
func (x *Dynamic) Fallible() bool {
	switch x.Op {
	case DynTest, DynDefault, DynMarkup, DynMarkupItems, DynGenerator, DynMethod, DynIterator, DynGenIterator:
		return false
	}
	return true
}

// ToJSONEnsureASCII reports whether the arguments of tojson (a filter
// Call's Args, or a DynToJSON's after its operand) are transformers'
// ensure_ascii=True: indent, then the constant true.
func ToJSONEnsureASCII(args []Expr) bool { return len(args) > 1 }

// DynamicType returns a new dynamic type.
func DynamicType() *Type { return &Type{Kind: KindDynamic} }

// DynamicTest is test x (a CallTest) of a dynamic value: an operand whose
// type unified to dynamic after the test was checked tests its value.
func (x *Call) DynamicTest() *Dynamic {
	return &Dynamic{Op: DynTest, Name: x.Name, Not: x.Not, Args: []Expr{x.X}, T: x.T, Pos: x.Pos}
}
