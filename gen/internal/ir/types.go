package ir

import (
	"fmt"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/src"
)

// Kind is the kind of a template value's type.
type Kind uint8

const (
	KindUnknown Kind = iota // not yet inferred
	KindString
	KindInt
	KindFloat
	KindBool
	KindList   // Elem is the element type
	KindMap    // string keys; Elem is the value type
	KindStruct // Fields, in declaration (or first-use) order
	KindNone   // the literal none
	// KindDict is a dict literal's type: Fields are its keys in insertion
	// order. Like a declared object it is closed; only dicts with the same
	// keys in the same order have the same type.
	KindDict
)

// KindImage is the kind of an image input (`photo: image`), a
// runtime.Image: no template value, an image part of a message's content
// gives it whole.
const KindImage Kind = KindDynamic + 1

var kindNames = [...]string{
	KindUnknown: "unknown",
	KindString:  "string",
	KindInt:     "int",
	KindFloat:   "number",
	KindBool:    "bool",
	KindList:    "list",
	KindMap:     "map",
	KindStruct:  "object",
	KindNone:    "none",
	KindDict:    "dict",
	KindDynamic: "dynamic value",
	KindImage:   "image",
}

func (k Kind) String() string { return kindNames[k] }

// Type is a template value's type. Struct and list types are shared by
// pointer while inferring, so what is learnt at one use applies to all.
type Type struct {
	Kind   Kind
	Elem   *Type
	Fields []*Field
	// Declared is set when the type comes from `inputs`: inference may not
	// add fields to it or change its kind.
	Declared bool
	// MaybeEmpty is set on an inferred object one of whose values is the
	// dict literal {} (x.get('k', {})): each of its fields may be absent,
	// and its Go zero value is that {}.
	MaybeEmpty bool
	// Name is the Go type name of a struct, decided when lowering.
	Name string
	// Go is set when the struct is an existing Go type (goType, autobind):
	// Name is then its qualified name for messages ("crm.Customer").
	Go *GoType

	// While inferring: Link forwards a type unified with another, and Hint
	// is the kind an unknown type defaults to (string when printed, bool
	// when only tested), and Number says it is an operand of arithmetic
	// that Python takes of two values of one type only where they are
	// numbers (a - b, a * b of two unknowns, unified): its default is a
	// number whatever it is printed as. NoBool says it is an operand of
	// arithmetic whose result has its type (a + b of two unknowns, n * x
	// of an int n): Python's arithmetic on bools yields ints, so it
	// becomes no bool (types.Unify).
	Link   *Type
	Hint   Kind
	Number bool
	NoBool bool
}

// Resolve follows the links left by unification.
func (t *Type) Resolve() *Type {
	for t.Link != nil {
		t = t.Link
	}
	return t
}

// Field is a named variable or struct member.
type Field struct {
	Key         string // the name used in templates and JSON
	Type        *Type
	Optional    bool
	Description string
	Pos         src.Pos // declaration, or first use when inferred
	// GoName is decided by the naming pass.
	GoName string
	// GoNameOverride is the field's `go_name:` from inputs, if any, and
	// GoNamePos the position of its value.
	GoNameOverride string
	GoNamePos      src.Pos
	// Chat marks the fields of runtime/chat.Context in the feed of a
	// prompt with `inputs: chat`, which embeds it; NoneIfUnset that an
	// unset (dynamic) value reads as None.
	Chat, NoneIfUnset bool
}

// InferField adds to inferred object t a field named key, first used at
// pos; it is optional where t may be {}.
func (t *Type) InferField(key string, pos src.Pos, optional bool) *Field {
	f := &Field{Key: key, Type: &Type{}, Optional: optional || t.MaybeEmpty, Pos: pos}
	t.Fields = append(t.Fields, f)
	return f
}

// Field returns the field named key, or nil.
func (t *Type) Field(key string) *Field {
	for _, f := range t.Fields {
		if f.Key == key {
			return f
		}
	}
	return nil
}

func (t *Type) String() string {
	t = t.Resolve()
	switch t.Kind {
	case KindList:
		return "list of " + t.Elem.String()
	case KindMap:
		return "map of " + t.Elem.String()
	}
	return t.Kind.String()
}

// A is what with its indefinite article, for messages: "an int", "a
// string", "an object".
func A(what fmt.Stringer) string {
	s := what.String()
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

// IsImage reports whether t is an image or a list of images: the types of
// image inputs.
func IsImage(t *Type) bool {
	t = t.Resolve()
	if t.Kind == KindList {
		t = t.Elem.Resolve()
	}
	return t.Kind == KindImage
}

// IsNumber reports whether k is a number as Python computes with it: an
// int, a float or a bool.
func IsNumber(k Kind) bool { return k == KindInt || k == KindFloat || k == KindBool }

// IsScalar reports whether k is a string, an int, a float or a bool.
func IsScalar(k Kind) bool {
	return k == KindString || k == KindInt || k == KindFloat || k == KindBool
}

// SameKind reports whether a and b are the same Go type: the same kind,
// element kinds alike, and the same struct or dict.
func SameKind(a, b *Type) bool {
	a, b = a.Resolve(), b.Resolve()
	if a.Kind != b.Kind {
		return false
	}
	if a.Kind == KindList || a.Kind == KindMap {
		return SameKind(a.Elem, b.Elem)
	}
	return (a.Kind != KindStruct && a.Kind != KindDict) || a == b
}

// AttrType is the type of the value an attribute= path leads to.
func AttrType(path []*Field) *Type { return path[len(path)-1].Type.Resolve() }

// HasRequiredField reports whether struct type t has a field that is
// always set, which makes its values true.
func HasRequiredField(t *Type) bool {
	for _, f := range t.Fields {
		if !f.Optional {
			return true
		}
	}
	if t.Go != nil {
		for _, f := range t.Go.Unreadable {
			if !f.Optional {
				return true
			}
		}
	}
	return false
}

// isPointerKind reports whether an optional field of type t is a pointer:
// lists and maps are nil when unset instead.
func IsPointerKind(t *Type) bool {
	k := t.Resolve().Kind
	return k != KindList && k != KindMap && k != KindDynamic
}
