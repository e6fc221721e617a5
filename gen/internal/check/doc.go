// Package check is the template compiler: it resolves the names of a
// template (scopes, loop variables, set targets, includes and a set's
// components), infers the types of its variables from their uses (with
// the algebra of package types), checks every filter, test and method
// call against Jinja2's semantics (as package builtins describes them),
// rejects what promptgen cannot render exactly as Jinja2 does, and lowers
// the template to the IR. The feed comes out typed; the Go names are
// decided later by names.
//
// It checks template bodies only, as go/types checks files: a Checker
// checks the templates that share one feed (NewChecker, Template) and
// Finish completes them once their types are final. The stages around it
// say what a body is part of: promptcheck checks a prompt file (its
// templates, sections, messages, chat feed), setcheck a template set,
// whose components a body finds through InSet's Components, as go/types
// finds packages through an Importer.
//
// Its files follow go/types: checker.go (the checker, Checker, Finish,
// errors), scope.go (the frames, as idtrack analyzes them), stmt.go,
// expr.go, arith.go (binary operators, constant folding), filters.go (how
// each filter of builtins.Filters is typed and lowered), tests.go,
// calls.go (methods and globals), and the constructs of their own (macro,
// loop, select, namespace, markup, dynamic, set, include of template
// files), and chat.go, the feed of `inputs: chat` that promptcheck and
// setcheck give a chat template.
//
// It imports ir, src, tmpl, diag, types, builtins, idtrack, names, schema
// (for did-you-mean) and runtime/jinja (strftime). It must not import gen,
// promptcheck, setcheck, outschema or a backend: the emitters read what it
// produces, never how.
package check
