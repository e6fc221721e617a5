// Package goemit is the go backend: it compiles a template body's IR to
// straight Go statements appending to a buffer (GoBody), for package emit,
// the writer of the generated files, to put in the functions it declares.
// It also gives emit the Go type of an IR type (GoType), and gen's previews
// the same type built with reflect (ReflectType).
//
// It reads the IR only (ir). It must not import gen, the template compiler
// (check), outschema, emit or ttemit: every decision it needs is in the
// IR, and the files around its bodies are emit's.
package goemit
