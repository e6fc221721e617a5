// Package ttemit is the text/template backend: it translates a prompt's IR
// to Go text/template source that runs with the functions of runtime/ttfuncs
// (see its package doc). The translation makes the same decisions as the go backend — where
// a value is checked for being set, where undefined is an error and where
// it is lenient — so both render identically and fail with the same
// errors; only how the decision runs differs.
//
// The template's data ($) holds the feed in field F, which a template
// that reads the feed first puts in $_f: a feed variable is $_f.GoName, a
// local (loop target, set) is the template variable $<GoName> (a Shared
// one holds a box, listshare's, whose list is $<GoName>.V), and
// promptgen's own variables are $_<name><n>, which no Go name of a local
// can be. Every Jinja2 operation is a ttfuncs call; the
// template's own if, range, with and assignment only carry the structure,
// and print the commonest values where text/template's truth is Jinja2's
// (see printField). The translation runs on any data of the feed's shape,
// such as a type built from the prompt's types with reflect.StructOf and
// decoded from JSON, as promptgen render does (its TestRenderCorpus runs
// every golden case so). A value that may be undefined (an unset optional
// is a nil pointer, nil slice or map made undefined by opt, or ttfuncs'
// undefined value) only ever reaches functions, which know what undefined
// means for them. List and dict literals are built by functions too (dict
// keeps its keys in insertion order).
//
// Translate returns the source; package emit puts it in the generated
// files (-renderer text/template), and gen's previews (promptgen render)
// execute it.
//
// It imports ir only: it must not import gen, the template compiler, whose
// decisions reach it through the IR, or the other emitters (emit, goemit).
package ttemit
