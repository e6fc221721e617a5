package check

import (
	"fmt"
	"slices"

	"github.com/promptgen/promptgen/gen/internal/idtrack"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
)

// scope is a frame of Jinja2 (the template, a loop's body or else, a block
// set's body): the names it assigns are its locals from its start on.
type scope struct {
	names  map[string]*ir.Local
	locals *[]*ir.Local // where the locals are declared
	loop   *ir.For      // the innermost for loop, nil at top level
	sym    *idtrack.Symbols
	// outer holds the locals that start with the value their name has in
	// the enclosing scopes; inits are the sets that give it to those read
	// before they are surely assigned, run when the frame starts.
	outer map[*ir.Local]bool
	inits []ir.Node
	// noLoopControl names the frame when a loop control cannot stop a
	// loop from inside it (a block set's body, a filter block, a
	// generation block): a frame run once, where it stands.
	noLoopControl string
	// included marks an included template's frame, which does not see
	// the enclosing loop's loop variable, and sees the includer's locals
	// only where they are set (see read).
	included bool
	// soft is the checker's soft outside the frame, which is not soft.
	soft bool
}

// enter starts a frame that sym analyzed: params are its loop targets,
// bound already, and every other name it assigns gets a local, declared
// in locals.
func (c *checker) enter(sym *idtrack.Symbols, locals *[]*ir.Local, loop *ir.For, params ...*ir.Local) {
	sc := &scope{names: map[string]*ir.Local{}, locals: locals, loop: loop, sym: sym, outer: map[*ir.Local]bool{}, soft: c.soft}
	c.soft = false
	for _, p := range params {
		sc.names[p.Name] = p
		c.assigned[p] = assigned
	}
	for _, name := range sym.Stores {
		if k := sym.Refs[name]; k != idtrack.LoadParam {
			l := c.newLocal(name, c.localType(name))
			sc.names[name] = l
			sc.outer[l] = k == idtrack.LoadOuter
			*locals = append(*locals, l)
		}
	}
	c.scopes = append(c.scopes, sc)
}

// leave ends the innermost frame, whose nodes are body: the sets that
// give locals their first value run first.
func (c *checker) leave(body []ir.Node) []ir.Node {
	sc := c.scopes[len(c.scopes)-1]
	c.scopes = c.scopes[:len(c.scopes)-1]
	c.soft = sc.soft
	return append(sc.inits, body...)
}

func (c *checker) lookup(name string) *ir.Local {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if l := c.scopes[i].names[name]; l != nil {
			return l
		}
	}
	return nil
}

// mergeAssigned is what is assigned after an if whose branches (the
// else, possibly empty, included) end in states ends.
func mergeAssigned(ends []map[*ir.Local]assignState) map[*ir.Local]assignState {
	out := map[*ir.Local]assignState{}
	for _, end := range ends {
		for l, st := range end {
			if st != unassigned {
				out[l] = maybeAssigned
			}
		}
	}
	for l := range out {
		all := true
		for _, end := range ends {
			all = all && end[l] == assigned
		}
		if all {
			out[l] = assigned
		}
	}
	return out
}

// read returns the local that holds name's value at this point, looking
// from scope top outwards, or nil when it is the template's variable.
func (c *checker) read(name string, top int, sp tmpl.Span) *ir.LocalRef {
	for i := top; i >= 0; i-- {
		sc := c.scopes[i]
		l := sc.names[name]
		if l == nil {
			continue
		}
		st := c.assigned[l]
		if st == unassigned && !sc.outer[l] && c.includedAbove(i, top) && c.isVariable(name) {
			// Jinja2 passes an include the includer's locals that are
			// set, and the template's variable for the others.
			continue
		}
		ref := &ir.LocalRef{L: l}
		switch {
		case st == assigned:
		case !sc.outer[l]:
			l.MaybeUndefined = true // undefined until assigned
			if st == unassigned {
				if c.unassigned == nil {
					c.unassigned = map[*ir.LocalRef]bool{}
				}
				c.unassigned[ref] = true
			}
		case st == unassigned:
			continue // the enclosing value still
		default:
			c.initOuter(i, l, sp)
		}
		c.readLocal(l, sp)
		return ref
	}
	return nil
}

// includedAbove reports whether one of the scopes after i, up to top, is
// an included template's frame.
func (c *checker) includedAbove(i, top int) bool {
	for j := i + 1; j <= top; j++ {
		if c.scopes[j].included {
			return true
		}
	}
	return false
}

// isVariable reports whether name is one of the template's variables: a
// declared input, or any name where inputs are inferred.
func (c *checker) isVariable(name string) bool {
	return !c.feed.Declared || c.feed.Field(name) != nil
}

// initOuter gives local l of scope i, read at sp where it may not be
// assigned yet, the value of its name in the enclosing scopes when the
// frame starts: their local, or the template's variable, which is then
// optional (when inferred) as the set may make it unneeded, or undefined
// (when declared inputs lack it).
func (c *checker) initOuter(i int, l *ir.Local, sp tmpl.Span) {
	sc := c.scopes[i]
	for _, n := range sc.inits {
		if n.(*ir.Set).Local == l {
			return
		}
	}
	var enclosing ir.Expr
	if ref := c.read(l.Name, i-1, sp); ref != nil {
		enclosing = ref
	} else {
		enclosing = c.global(&tmpl.Name{Span: sp, Name: l.Name}, useValue)
		if enclosing == nil {
			l.MaybeUndefined = true // until the set runs
			return
		}
		c.guard(enclosing)
		c.dictDefault(l, enclosing, sp)
	}
	init := &ir.Set{Local: l, Value: enclosing}
	sc.inits = append(sc.inits, init)
	c.trackUndefined(init)
	if l.T.Kind == ir.KindDynamic || c.feed.Declared && l.T.Resolve().Kind == ir.KindDynamic {
		// The local holds values of several types: the enclosing value is
		// one of them. A set before this read may have made it dynamic;
		// an input of declared inputs keeps its type then.
		c.readsWhole(enclosing, sp, "converting it to a dynamic value")
		c.later = append(c.later, func() { c.heldDynamic(l, enclosing, enclosing.Type(), sp) })
		return
	}
	// A kind the set and the enclosing value do not share is reported
	// once types are final.
	lk, sk := l.T.Resolve().Kind, enclosing.Type().Kind
	if lk == ir.KindUnknown || sk == ir.KindUnknown || lk == sk || (lk == ir.KindDynamic || sk == ir.KindDynamic) && types.Unifiable(l.T, enclosing.Type()) {
		c.unify(l.T, enclosing.Type(), sp)
	}
	c.later = append(c.later, func() {
		what := "its enclosing value"
		if f, ok := enclosing.(*ir.FieldRef); ok {
			what = fmt.Sprintf("the input %q", f.Field.Key)
		}
		switch lt, st := l.T.Resolve(), enclosing.Type(); {
		case lt.Kind != st.Kind || types.NumbersDiffer(lt, st):
			if st.Kind == ir.KindDynamic || types.ConvertsToDynamic(lt) && types.ConvertsToDynamic(st) || rebindsObject(lt, st) {
				c.rebinding[l.Name] = true // checked again with the local dynamic
			}
			c.errorf(sp, "type mismatch: %q is set to a value of type %s, but until the set runs it is %s, of type %s", l.Name, lt, what, st)
		case lt.Kind == ir.KindNone:
			c.errorf(sp, "cannot infer the type of %q: it is set to none, and until the set runs it is %s (declare it in inputs)", l.Name, what)
		}
	})
}

func (c *checker) innerLoop() *ir.For {
	for i := len(c.scopes) - 1; i >= 0 && !c.scopes[i].included; i-- {
		if c.scopes[i].loop != nil {
			return c.scopes[i].loop
		}
	}
	return nil
}

// inAnyLoop reports whether a loop may enclose the node being checked, in
// any frame: in a macro's body or an included template, whose scopes are
// not the call's or include's, it may.
func (c *checker) inAnyLoop() bool {
	return len(c.macros.calling) > 0 || len(c.macros.including) > 0 ||
		slices.ContainsFunc(c.scopes, func(s *scope) bool { return s.loop != nil })
}

type assignState uint8

// boundNames are the names that the sets and for loops of body assign, in
// every frame, and the parameters of its macros and call blocks.
func boundNames(body []tmpl.Node) map[string]bool {
	bound := map[string]bool{}
	var walk func([]tmpl.Node)
	bind := func(targets []*tmpl.Name) {
		for _, t := range targets {
			bound[t.Name] = true
		}
	}
	walk = func(ns []tmpl.Node) {
		for _, n := range ns {
			switch n := n.(type) {
			case *tmpl.If:
				for _, b := range n.Branches {
					walk(b.Body)
				}
				walk(n.Else)
			case *tmpl.For:
				bind(n.Targets)
				walk(n.Body)
				walk(n.Else)
			case *tmpl.Set:
				bind(n.Targets)
				walk(n.Body)
			case *tmpl.FilterBlock:
				walk(n.Body)
			case *tmpl.Generation:
				walk(n.Body)
			case *tmpl.Macro:
				bind(n.Params)
				walk(n.Body)
			case *tmpl.CallBlock:
				bind(n.Caller.Params)
				walk(n.Caller.Body)
			}
		}
	}
	walk(body)
	return bound
}
