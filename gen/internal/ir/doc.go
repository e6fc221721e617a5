// Package ir holds what the template compiler hands to the emitters: source
// positions, the type model of template values (Kind, Type, Field) and the
// checked, typed nodes of a template body (Node, Expr and their cases) with
// the queries on them that the checker and both backends share, and the
// parameter tables of the supported filters, tests and methods, which fix
// the order of a call's arguments.
//
// It imports only the standard library. It must not import gen or any other
// stage: the checker builds these values and the backends read them.
package ir
