// Package emit writes every generated file: the package file, one file
// per prompt (feed types, Validate, the prompt value and its methods,
// Messages, sections, the output types, the checks, Request, ParseOutput,
// Examples), per fragment and per template set (feed types, Merge, the set
// type, its tables and render functions). What differs between the
// backends is a Body: goemit.GoBody compiles a template to straight Go;
// TextTemplateBody embeds ttemit's translation.
//
// It reads the IR only (ir, with schema for the types of outputs), with
// names for derived names and the two backends, goemit and ttemit. It must
// not import gen, the loader, the template compiler (check) or outschema:
// every decision it needs is on the IR.
package emit
