package check

import (
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/names"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
)

// What the checker does for types bound to Go structs (goType, autobind):
// a bound type is a declared struct whose fields come from Go, so the
// rules of declared inputs apply. Two things are its own: a field without a
// json name also answers to its Go-cased name, and a field whose Go type
// promptgen cannot read is an error where a template reads it.

// structField returns the field name of struct type t, or nil
// (types.BoundField). ok is false after an error at sp: name is a field of
// a bound Go type that promptgen cannot read.
func (c *checker) structField(t *ir.Type, name string, sp tmpl.Span) (f *ir.Field, ok bool) {
	goName, _ := names.Exported(name)
	f, u := types.BoundField(t, name, goName)
	if u != nil {
		c.errorf(sp, "field %q of %s has Go type %s, which promptgen cannot read: %s", u.Key, t.Name, u.GoType, u.Why)
		return nil, false
	}
	return f, true
}

// readsWhole checks a value that what (printing, tojson) reads field by
// field: every field of a bound Go type in it must be readable.
func (c *checker) readsWhole(x ir.Expr, sp tmpl.Span, what string) {
	c.later = append(c.later, func() {
		if t, u := types.UnreadableIn(x.Type(), nil); u != nil {
			c.errorf(sp, "%s reads every field of %s, but promptgen cannot read its field %q of Go type %s: %s", what, t.Name, u.Key, u.GoType, u.Why)
		}
	})
}
