// Package reuse hands out the scratch values (buffers) of the tokenizers'
// calls: the idle one, kept across garbage collections so that a warm call
// allocates nothing, or one from a sync.Pool when calls run concurrently.
package reuse

import (
	"sync"
	"sync/atomic"
)

// Pool holds values of type T. Its zero value is ready once New is set.
type Pool[T any] struct {
	idle atomic.Pointer[T]
	pool sync.Pool
}

// SetNew sets the function that makes a value when none is free.
func (p *Pool[T]) SetNew(f func() *T) { p.pool.New = func() any { return f() } }

// Get returns a free value.
func (p *Pool[T]) Get() *T {
	if v := p.idle.Swap(nil); v != nil {
		return v
	}
	return p.pool.Get().(*T)
}

// Put frees v; keep says it may be the idle value (its buffers are not
// too large to hold on to).
func (p *Pool[T]) Put(v *T, keep bool) {
	if keep && p.idle.CompareAndSwap(nil, v) {
		return
	}
	p.pool.Put(v)
}
