package check

import (
	"fmt"

	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/schema"
)

// maxTypeDepth bounds how deeply the variables of a prompt nest (objects
// in objects, lists of lists, each value a level), whether declared in
// inputs or inferred from templates, as schema.MaxDepth bounds
// outputSchema and for the same reason: the generated code of a level
// grows with its depth, so the limit keeps time and output linear.
const maxTypeDepth = schema.MaxDepth

// typeDepthError is the message of a type nested deeper than maxTypeDepth.
var typeDepthError = fmt.Sprintf("nested more than %d levels deep (objects and lists inside one another)", maxTypeDepth)

// checkTypeDepth reports a feed whose variables' types nest deeper than
// maxTypeDepth, at the field where the limit is crossed, and any local
// of bodies whose type does (at the prompt, as locals keep no position). It reports
// whether all are within the limit. Its cost is linear in the size of the
// types, so it runs before the checks that walk a type for every
// expression.
func checkTypeDepth(p *ir.PromptSpec, feed *ir.Type, bodies []*ir.Prompt, diags *diag.Sink) bool {
	heights := map[*ir.Type]int{}
	ok := true
	if typeHeight(feed, heights)-1 > maxTypeDepth { // the feed itself is no level
		f := deepestField(feed, heights)
		diags.Errorf(f.Pos, "%q is %s", f.Key, typeDepthError)
		ok = false
	}
	for _, b := range bodies {
		for _, l := range b.Locals {
			if typeHeight(l.T, heights) > maxTypeDepth {
				diags.Errorf(p.Pos, "the value of %q is %s", l.Name, typeDepthError)
				ok = false
			}
		}
	}
	return ok
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
// level past maxTypeDepth, and returns the last field on the way.
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
		if next == nil || level > maxTypeDepth {
			return last
		}
		t = next
	}
}
