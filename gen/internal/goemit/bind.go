package goemit

import (
	"slices"

	"github.com/promptgen/promptgen/gen/internal/ir"
)

// What the go backend does for types bound to Go structs (goType,
// autobind): it names them (GoType) instead of declaring them, and counts
// the fields promptgen cannot read among a value's keys, as
// runtime/ttfuncs does. The file's writer imports their packages under
// their own names.

// keyFields are the keys of struct type t as a dict: its fields, and for a
// bound Go type also the fields promptgen cannot read, which the value
// still has. Only their definedness is read.
func keyFields(t *ir.Type) []*ir.Field {
	if t.Go == nil || len(t.Go.Unreadable) == 0 {
		return t.Fields
	}
	fs := slices.Clone(t.Fields)
	for _, u := range t.Go.Unreadable {
		fs = append(fs, &ir.Field{Key: u.Key, GoName: u.GoName, Optional: u.Optional, Type: &ir.Type{}})
	}
	return fs
}
