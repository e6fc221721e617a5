// Package outschema lowers a prompt's output: from its outputFormat and
// outputSchema (loaded by package schema) it builds the output IR (Lower:
// the format, the schema, and the checks that replace the compiled
// schema), rejecting what ParseOutput could not honour, and checks the
// prompt's examples against its feed and output (CheckExamples). Package
// names names the output types and package emit writes them.
//
// It imports ir, diag, src, schema and yaml (the examples' nodes). It must
// not import gen, the template checker, names or an emitter, nor jennifer:
// it writes no Go.
package outschema
