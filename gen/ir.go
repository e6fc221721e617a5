package gen

// The IR is the checked, typed form of one prompt. It is emit's only input:
// every type is resolved, every name decided and every position rendered.
