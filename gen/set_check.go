package gen

// This file checks template sets and lowers them to IR. Every template and
// component of a set renders with one feed, the union of their variables.
// Each template (and each component version) is first checked on its own,
// with its own feed, so that a variable used with different types in two
// of them is reported at both uses; then all are checked again against one
// shared feed, which gives the union its final types.
