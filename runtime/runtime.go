// Package runtime is the small support package that promptgen's generated
// code imports. It depends on the standard library only; a change to its
// exported API is a change to every generated package.
package runtime

import (
	"errors"
	"sync/atomic"
	"unsafe"
)

// SupportPackageIsVersion1 is referenced by generated code so that a
// generated package and an incompatible runtime fail to compile together.
const SupportPackageIsVersion1 = true

// Sentinel causes of render errors, for errors.Is.
var (
	// ErrMissing: a required variable was left unset (empty string, nil
	// slice or map).
	ErrMissing = errors.New("required variable is not set")
	// ErrUndefined: an optional variable that is unset was used where
	// Jinja2 raises UndefinedError (attribute access, arithmetic, ordering).
	ErrUndefined = errors.New("variable is undefined")
	// ErrInvalid: an operation Jinja2 rejects at render time, such as a
	// division by zero.
	ErrInvalid = errors.New("invalid operation")
)

// Error is a render failure at a position of a prompt's template.
type Error struct {
	Prompt string // the prompt's key, e.g. "support/summarize"
	Pos    string // "file:line:col" in the prompt file
	Var    string // the variable concerned, if any
	Err    error  // one of the sentinel errors above
}

func (e *Error) Error() string {
	msg := e.Pos + ": render " + e.Prompt + ": "
	if e.Var != "" {
		msg += `"` + e.Var + `": `
	}
	return msg + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Nest returns err with path and a dot put before the variable of every
// *Error in it, so that what a nested object's Validate reports names the
// variable from the top of the feed ("customer.name", "orders[2].id").
func Nest(err error, path string) error {
	switch e := err.(type) {
	case *Error:
		nested := *e
		nested.Var = path + "." + e.Var
		return &nested
	case interface{ Unwrap() []error }:
		errs := e.Unwrap()
		out := make([]error, len(errs))
		for i, x := range errs {
			out[i] = Nest(x, path)
		}
		return errors.Join(out...)
	}
	return err
}

// SizeHint remembers the largest output of a renderer so that the next
// render allocates its buffer once. It is safe for concurrent use.
type SizeHint struct{ max atomic.Int64 }

// maxHint bounds what SizeHint pre-allocates after one unusually large render.
const maxHint = 1 << 20

// Get returns the size to pre-allocate: the largest size observed, at
// least min.
func (h *SizeHint) Get(min int) int {
	return max(int(h.max.Load()), min)
}

// Observe records the size of a rendered output.
func (h *SizeHint) Observe(n int) {
	n = min(n, maxHint)
	for {
		cur := h.max.Load()
		if int64(n) <= cur || h.max.CompareAndSwap(cur, int64(n)) {
			return
		}
	}
}

// BytesToString returns the bytes of buf as a string without copying, as
// strings.Builder does. The caller must not modify buf afterwards; generated
// renderers use it on a buffer they allocated and then drop.
func BytesToString(buf []byte) string {
	return unsafe.String(unsafe.SliceData(buf), len(buf))
}
