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
// and arguments at the set, and never runs the filter. So it does with a
// conditional that may yield one. Any read of such a variable is an
// error.

// generatorSet is a local set to a generator, for the reads of it.
type generatorSet struct {
	name string  // as the template writes it: x, ns.a
	at   src.Pos // of the set
}

// stored returns the node of set out of name, at sp: out itself, or, when
// it stores a generator, the evaluation of what Jinja2 runs of it.
func (c *checker) stored(out *ir.Set, name string, sp tmpl.Span) ir.Node {
	eval := c.storedEval(out.Value)
	if eval == nil {
		return out
	}
	l := out.Local
	if c.generators == nil {
		c.generators = map[*ir.Local]generatorSet{}
	}
	g := generatorSet{name: name, at: c.pos(sp)}
	c.generators[l] = g
	if at, ok := c.readAt[l]; ok && c.inAnyLoop() {
		// A read before the set sees the generator only where a loop
		// runs the read again after the set (a namespace attribute).
		c.errorf(sp, "%q is set to a generator here and read at %d:%d: %s", name, at.Line, at.Col, generatorRule)
	}
	return &ir.If{Branches: []ir.Branch{{Cond: eval}}}
}

// storedEval returns what Jinja2 evaluates of v, a value set to a
// variable, as a condition that is true where it does not fail, when v is
// or may be a generator or an iterator (nil otherwise): a generator's
// operands and arguments (lazyTrue), and of a conditional, its
// condition and the arm it takes.
func (c *checker) storedEval(v ir.Expr) ir.Expr {
	switch {
	case v == nil:
		return nil
	case generator(v):
		c.iterate(v) // its one use
		return lazyTrue(v)
	case reverseOfMixed(v):
		// An iterator where the arm taken is a list, a list where it is
		// a generator, which reverse consumes at the set: evaluated whole.
		c.iterate(v)
		return orTrue(v)
	}
	cond, ok := v.(*ir.Cond)
	if !ok {
		return nil
	}
	then, els := c.storedEval(cond.Then), c.storedEval(cond.Else)
	if then == nil && els == nil {
		return nil
	}
	if then == nil {
		then = orTrue(cond.Then)
	}
	if els == nil && cond.Else != nil {
		els = orTrue(cond.Else)
	}
	return &ir.Cond{Cond: cond.Cond, Then: then, Else: els, T: &ir.Type{Kind: ir.KindBool}}
}

// reverseOfMixed reports whether v is reverse of a conditional with a
// generator in one arm and not in another.
func reverseOfMixed(v ir.Expr) bool {
	f, ok := v.(*ir.Call)
	return ok && f.Kind == ir.CallFilter && f.Name == "reverse" && mayBeGenerator(f.X) && !onlyGenerators(f.X)
}

// orTrue is x or true: x evaluated, as a condition that is true.
func orTrue(x ir.Expr) ir.Expr {
	return &ir.Binary{Op: "or", X: x, Y: constExpr(true), T: &ir.Type{Kind: ir.KindBool}}
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
