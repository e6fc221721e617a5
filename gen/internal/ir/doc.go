// Package ir holds the generator's data, the only thing the emitters see:
// the prompt files and template sets as loaded (PromptSpec, SetSpec and
// their parts), source positions, the type model of template values (Kind,
// Type, Field), the checked, typed nodes of a template body (Node, Expr and
// their cases) with the queries on them that the checker and both backends
// share, the parameter tables of the supported filters, tests and methods,
// and the checked units the emitters write: Prompt, PromptSet and Output
// with its Checks. The checked units hold no spec: what names and the
// emitters need of a file is copied onto them once, by NewPrompt,
// NewSection, NewPromptSet, NewSetTemplate and NewComponentVersion, which
// the checker calls where it builds them.
//
// It holds data and queries, no stage logic. It imports only src
// (positions), the template syntax (for its options), schema and yaml.v3
// (for what a prompt file holds); it must not import gen or any other
// stage.
package ir
