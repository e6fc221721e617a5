package check

import (
	"fmt"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
)

// Jinja2's generators (what map, select, reject and unique yield, and the
// iterator reverse makes of a list) are consumed as they are read: a second
// loop over a stored one sees nothing, first takes an item away from what
// follows. promptgen stores one where the variable (or namespace
// attribute) is never read: Jinja2 then evaluates the filter's operands
// and arguments at the set, and never runs the filter. Any read of such a
// variable is an error.

// generatorSet is a local set to a generator, for the reads of it.
type generatorSet struct {
	name string  // as the template writes it: x, ns.a
	at   src.Pos // of the set
}

// stored returns the node of set out of name, at sp: out itself, or, when
// it stores a generator, the evaluation of the generator's operands only.
func (c *checker) stored(out *ir.Set, name string, sp tmpl.Span) ir.Node {
	if out.Value == nil || !generator(out.Value) {
		return out
	}
	c.iterate(out.Value)
	l := out.Local
	if c.generators == nil {
		c.generators = map[*ir.Local]generatorSet{}
	}
	g := generatorSet{name: name, at: c.pos(sp)}
	c.generators[l] = g
	if at, ok := c.readAt[l]; ok {
		c.errorf(sp, "%q is set to a generator here and read at %d:%d: %s", name, at.Line, at.Col, generatorRule)
	}
	// Its operands evaluated for their errors, as lazyTrue tests them.
	return &ir.If{Branches: []ir.Branch{{Cond: lazyTrue(out.Value)}}}
}

// readLocal records a read of local l at sp, and reports it when l holds
// a generator.
func (c *checker) readLocal(l *ir.Local, sp tmpl.Span) {
	if g, ok := c.generators[l]; ok {
		c.errorf(sp, "%s", g.msg())
		return
	}
	if _, ok := c.readAt[l]; !ok {
		if c.readAt == nil {
			c.readAt = map[*ir.Local]src.Pos{}
		}
		c.readAt[l] = c.pos(sp)
	}
}

func (g generatorSet) msg() string {
	return fmt.Sprintf("%q holds a generator (set at %d:%d): %s", g.name, g.at.Line, g.at.Col, generatorRule)
}

const generatorRule = "Jinja2 consumes one as it is read (a second loop over it sees nothing), promptgen stores one only where it is never read (convert it with | list where it is set)"
