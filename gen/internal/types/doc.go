// Package types is the algebra of template value types (ir.Type) that the
// checker infers with: unification (Unify, Unifiable, Constrain), the
// defaults of what stays unknown (Finalize), what each arithmetic operator
// takes and yields and the constant ints it folds (ArithResult, ConstInt),
// which types convert to a dynamic value, copies of declared types, and
// the depth limit of nested types (TooDeep).
// It works on types alone: it reports a mismatch by returning it, and the
// checker reports it at the position where the two types meet, so a
// message reads the same wherever it comes from.
//
// It imports ir and schema (for did-you-mean). It must not import a
// stage: check (and setcheck) import it.
package types
