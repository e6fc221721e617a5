// Package setcheck checks template sets and lowers them to IR
// (PromptSet). Every template and component of a set renders with one
// feed, the union of their variables. Each template (and each component
// version) is first checked on its own, with its own feed, so that a
// variable used with different types in two of them is reported at both
// uses; then all are checked again against one shared feed, which gives
// the union its final types. Around the bodies it checks what only a set
// has: include cycles, unused components, locals a component would read,
// versioned components, the typed keys and predefined_variables.
//
// It checks each body with a check.Checker of its own (NewChecker,
// Finish) and imports ir, src, tmpl, diag, names, schema and types. check
// must not import it: a body sees its set only through check.InSet, whose
// Components (seenFrom) resolve a name or an include in the body's
// namespace and its fallback chain.
package setcheck
