package ir

import (
	"strings"
	"unicode"

	"github.com/promptgen/promptgen/gen/internal/src"
)

// GoType is an existing Go struct type that a feed type is bound to, by
// `goType:` in inputs or by a set's `autobind:` packages. The bound type
// is a declared struct whose Fields are the Go type's exported fields that
// promptgen can read; the generated code names the type instead of
// declaring one.
type GoType struct {
	Path string // import path, e.g. "example.com/crm"
	Name string // the type's name in its package, e.g. "CustomerHistory"
	// Pkg is the package's name, decided when the package is loaded.
	Pkg string
	// Pos is where the binding is written: the goType value, or the
	// autobind entry.
	Pos src.Pos
	// Unreadable lists the exported fields whose Go type promptgen cannot
	// read (time.Time, interfaces, embedded fields, ...): a template that
	// uses one is an error naming the field and its Go type.
	Unreadable []*UnreadableField
}

// UnreadableField is an exported field of a bound Go type that promptgen
// cannot read. It is still one of the keys the value has as a dict.
type UnreadableField struct {
	Key    string // its key in templates and JSON
	GoName string
	GoType string // as Go writes it: "time.Time", "[]*crm.Item"
	Why    string // why promptgen cannot read it
	// Optional: a pointer, or a slice, map or interface tagged omitempty,
	// is a key only when set.
	Optional bool
}

// GoPackage is one entry of a set's `autobind:` list.
type GoPackage struct {
	Path string
	Pos  src.Pos
}

// GoTypes appends to list the bound types reachable from t that are not
// in it yet, depth first, those inside a bound type included.
func GoTypes(t *Type, list []*Type) []*Type {
	if t == nil {
		return list
	}
	t = t.Resolve()
	switch t.Kind {
	case KindList, KindMap:
		return GoTypes(t.Elem, list)
	case KindStruct:
		if t.Go != nil {
			for _, s := range list {
				if s == t {
					return list
				}
			}
			list = append(list, t)
		}
		for _, f := range t.Fields {
			list = GoTypes(f.Type, list)
		}
	}
	return list
}

// JSONTagPunct is the punctuation that encoding/json reads in the name of
// a struct tag.
const JSONTagPunct = "!#$%&()*+-./:;<=>?@[]^_{|}~"

// ValidJSONKey reports whether encoding/json reads key in a struct tag as
// the field's name (its isValidTag). It reads any other, such as "a,b"
// (the name "a" with an option "b") or a name with a quote, as no name at
// all, and matches the member named like the Go field instead.
func ValidJSONKey(key string) bool {
	for _, r := range key {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != ' ' && !strings.ContainsRune(JSONTagPunct, r) {
			return false
		}
	}
	return key != ""
}

// GoFilter is an entry of `filters:` in a prompt file or promptset.yaml: a
// template filter that calls a Go function. The operand is the function's
// first argument, the filter's arguments the others, and its result (T, or
// T and an error that fails the render) the filter's value.
type GoFilter struct {
	Name string // the filter's name in templates
	Path string // the function's import path, e.g. "example.com/app/textutil"
	Func string // the function's name in its package, e.g. "Redact"
	Pos  src.Pos
	// Set by bind; Params is nil when the function could not be bound (an
	// error at Pos), and then a use of the filter is not checked further.
	Pkg    string  // the package's name
	Params []*Type // the parameters' types, the operand's first
	// ArgNames are the names of the parameters after the operand, which
	// keyword arguments give ("" for one without a name, or _).
	ArgNames  []string
	Result    *Type
	Fallible  bool   // the function also returns an error
	Signature string // as Go writes it, for errors: "func(s string, n int) string"
}

// Ref is the function as the filters: entry names it.
func (g *GoFilter) Ref() string { return g.Path + "." + g.Func }
