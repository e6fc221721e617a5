// Package goemit is the go backend and the writer of every generated file:
// the package file, one file per prompt (feed types, Validate, Merge, the
// prompt value, Render, Messages, and through outschema its output types
// and ParseOutput), per fragment and per template set. A Body writes what
// differs between the backends: GoBody compiles the template to straight
// Go; TextTemplateBody embeds ttemit's translation.
//
// It reads the IR only (ir), with names for derived names, outschema for
// the output types and ttemit for the text/template source. It must not
// import gen or the template compiler (check): every decision it needs is
// in the IR.
package goemit
