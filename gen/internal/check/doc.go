// Package check is the template compiler: it resolves the names of a
// template (scopes, loop variables, set targets, includes and a set's
// components), infers the types of its variables from their uses (unify),
// checks every filter, test and method call against Jinja2's semantics,
// rejects what promptgen cannot render exactly as Jinja2 does, and lowers
// the template to the IR (Prompt, Sets). A prompt's feed comes out typed;
// the Go names are decided later by names.
//
// It imports ir, tmpl, diag, names and schema (for its limits and
// did-you-mean). It must not import gen, outschema or a backend: the
// emitters read what it produces, never how.
package check
