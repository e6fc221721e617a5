package goemit

import (
	"slices"

	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// What the go backend does for types bound to Go structs (goType,
// autobind): it names them (goType) instead of declaring them, imports
// their packages under their own names, and counts the fields promptgen
// cannot read among a value's keys, as runtime/ttfuncs does.

// importGoTypes names the packages of the Go types bound in feed, so that
// jennifer imports them without an alias.
func importGoTypes(f *jen.File, feed *ir.Type) {
	for _, t := range ir.GoTypes(feed, nil) {
		f.ImportName(t.Go.Path, t.Go.Pkg)
	}
}

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
