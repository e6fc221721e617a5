package check

import (
	"github.com/promptgen/promptgen/gen/internal/builtins"
	"github.com/promptgen/promptgen/gen/internal/idtrack"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
)

// capturedName names the local that holds a filter block's output while
// its filter is checked; no template can spell it.
const capturedName = "(filter block)"

// filterBlock checks {% filter %} as Jinja2 compiles it: the body runs in
// a frame of its own, its output captured as a block set captures it, and
// the filter, evaluated in that frame after the body, prints it.
func (c *checker) filterBlock(n *tmpl.FilterBlock) []ir.Node {
	outer := c.scopes[len(c.scopes)-1]
	captured := c.newLocal("filtered", &ir.Type{})
	*outer.locals = append(*outer.locals, captured)
	c.enter(idtrack.Frame(outer.sym, nil, n.Body), outer.locals, nil)
	inner := c.scopes[len(c.scopes)-1]
	inner.noLoopControl = "a filter block"
	body := c.nodes(n.Body)
	set := c.assignLocal(captured, &ir.Set{}, &ir.Type{Kind: ir.KindString}, n.Span)
	inner.names[capturedName] = captured
	x := c.filter(builtins.CaptureFilter(n.Filter, capturedName), usePrint)
	c.printable(x, n.Filter.Span)
	// Jinja2 joins the template's output without str(), so a filter block
	// whose filter yields other than a string raises TypeError.
	c.later = append(c.later, func() {
		if k := x.Type().Kind; !c.rejected[x] && k != ir.KindString && k != ir.KindUnknown && k != ir.KindDynamic {
			c.errorf(n.Filter.Span, "the filter of a filter block yields %s, which Jinja2 does not print (TypeError): it must yield a string", k)
		}
	})
	inlinePrinted(x)
	set.Body = c.leave(body)
	return []ir.Node{set, &ir.Print{X: x, Pos: c.posString(n.Filter.Span)}}
}
