// Package outschema is the outputSchema generator: from a prompt's
// outputFormat and outputSchema (loaded by package schema) it builds the
// output IR (Lower: the Go types and the checks that replace the compiled
// schema); package names names the output types, and it emits the output
// types, ParseOutput, Request and the checks (Emit*).
//
// It imports ir, diag, src, schema and jennifer. It must not import gen,
// the template checker or a backend: templates are not its concern.
package outschema
