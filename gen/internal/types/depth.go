package types

import (
	"fmt"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/schema"
)

// MaxDepth bounds how deeply the variables of a prompt nest (objects
// in objects, lists of lists, each value a level), whether declared in
// inputs or inferred from templates, as schema.MaxDepth bounds
// outputSchema and for the same reason: the generated code of a level
// grows with its depth, so the limit keeps time and output linear.
const MaxDepth = schema.MaxDepth

// DepthError is the message of a type nested deeper than MaxDepth.
var DepthError = fmt.Sprintf("nested more than %d levels deep (objects and lists inside one another)", MaxDepth)

// TooDeep returns the field of struct feed where its variables' types
// nest deeper than MaxDepth, if any, and the locals whose types do. Its
// cost is linear in the size of the types, so the checker runs it before
// the checks that walk a type for every expression.
func TooDeep(feed *ir.Type, locals []*ir.Local) (*ir.Field, []*ir.Local) {
	heights := map[*ir.Type]int{}
	var deep *ir.Field
	if typeHeight(feed, heights)-1 > MaxDepth { // the feed itself is no level
		deep = deepestField(feed, heights)
	}
	var deepLocals []*ir.Local
	for _, l := range locals {
		if typeHeight(l.T, heights) > MaxDepth {
			deepLocals = append(deepLocals, l)
		}
	}
	return deep, deepLocals
}

// typeHeight returns the number of levels of t (1 for a string, 2 for a
// list of strings), memoised in heights, by resolved type, as types are
// shared.
func typeHeight(t *ir.Type, heights map[*ir.Type]int) int {
	t = t.Resolve()
	if h, ok := heights[t]; ok {
		return h
	}
	heights[t] = 1 // a type never contains itself; if one did, this ends the recursion
	h := 0
	if t.Elem != nil {
		h = typeHeight(t.Elem, heights)
	}
	for _, f := range t.Fields {
		h = max(h, typeHeight(f.Type, heights))
	}
	heights[t] = h + 1
	return h + 1
}

// deepestField follows the deepest path down from the struct feed to the
// level past MaxDepth, and returns the last field on the way.
func deepestField(feed *ir.Type, heights map[*ir.Type]int) *ir.Field {
	var last *ir.Field
	t := feed.Resolve()
	for level := 1; ; level++ {
		want := heights[t] - 1
		var next *ir.Type
		if t.Elem != nil && heights[t.Elem.Resolve()] == want {
			next = t.Elem.Resolve()
		}
		for _, f := range t.Fields {
			if next == nil && heights[f.Type.Resolve()] == want {
				next, last = f.Type.Resolve(), f
			}
		}
		if next == nil || level > MaxDepth {
			return last
		}
		t = next
	}
}
