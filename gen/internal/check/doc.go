// Package check is the template compiler: it resolves the names of a
// template (scopes, loop variables, set targets, includes and a set's
// components), infers the types of its variables from their uses (with
// the algebra of package types), checks every filter, test and method
// call against Jinja2's semantics, rejects what promptgen cannot render
// exactly as Jinja2 does, and lowers the template to the IR (Prompt). A
// prompt's feed comes out typed; the Go names are decided later by names.
// A body of a template set is checked here too (SetBody, Finish), with its
// set's components in scope; setcheck checks the set around it.
//
// Its files follow go/types: checker.go (the checker, Prompt, errors),
// scope.go (the frames, as idtrack analyzes them), stmt.go, expr.go,
// arith.go (binary operators, constant folding), filters.go (a table of
// the supported filters), tests.go, calls.go (methods and globals), and
// the constructs of their own (macro, loop, select, namespace, markup,
// dynamic, set).
//
// It imports ir, src, tmpl, diag, types, idtrack, names and schema (for
// its limits and did-you-mean). It must not import gen, setcheck,
// outschema or a backend: the emitters read what it produces, never how.
package check
