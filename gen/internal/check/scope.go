package check

import (
	"fmt"
	"maps"
	"slices"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
)

// Jinja2 decides where a name is read from per frame (the template, a
// loop's body, a loop's else, a block set's body) before it runs it: a name
// the frame assigns is the frame's local everywhere in the frame, and its
// first value, until an assignment runs, is either undefined, a loop
// target, or what the name is in the enclosing frames (their local, else
// the template's variable). symbols is a port of jinja2/idtracking.py that
// makes that decision exactly as Jinja2 3.1 does, quirks included.

// loadKind is how a local of a frame gets its first value.
type loadKind uint8

const (
	loadUndefined loadKind = iota // VAR_LOAD_UNDEFINED
	loadOuter                     // VAR_LOAD_ALIAS or VAR_LOAD_RESOLVE: the enclosing value
	loadParam                     // VAR_LOAD_PARAMETER: a loop target
)

// symbols is idtracking's Symbols for one frame. A frame has one ref per
// name, so refs merges Jinja2's refs and loads.
type symbols struct {
	parent *symbols
	refs   map[string]loadKind
	stores []string // in first-store order
}

func newSymbols(parent *symbols) *symbols {
	return &symbols{parent: parent, refs: map[string]loadKind{}}
}

func (s *symbols) copy() *symbols {
	return &symbols{parent: s.parent, refs: maps.Clone(s.refs), stores: slices.Clone(s.stores)}
}

func (s *symbols) hasRef(name string) bool {
	for ; s != nil; s = s.parent {
		if _, ok := s.refs[name]; ok {
			return true
		}
	}
	return false
}

func (s *symbols) addStore(name string) {
	if !slices.Contains(s.stores, name) {
		s.stores = append(s.stores, name)
	}
}

func (s *symbols) store(name string) {
	s.addStore(name)
	if _, ok := s.refs[name]; !ok {
		s.refs[name] = loadUndefined
		if s.parent.hasRef(name) {
			s.refs[name] = loadOuter
		}
	}
}

func (s *symbols) param(name string) {
	s.addStore(name)
	s.refs[name] = loadParam
}

func (s *symbols) load(name string) {
	if !s.hasRef(name) {
		s.refs[name] = loadOuter
	}
}

// branchUpdate merges the branches of an if: a name that some but not all
// of them assign starts with the enclosing value.
func (s *symbols) branchUpdate(branches []*symbols) {
	count := map[string]int{}
	for _, b := range branches {
		for _, name := range b.stores {
			if !slices.Contains(s.stores, name) {
				count[name]++
			}
		}
	}
	for _, b := range branches {
		maps.Copy(s.refs, b.refs)
		for _, name := range b.stores {
			s.addStore(name)
		}
	}
	for name, n := range count {
		if n != len(branches) {
			s.refs[name] = loadOuter
		}
	}
}

// frameSymbols analyzes the nodes of a frame whose enclosing frame has
// parent (nil for the template), with params as its loop targets.
func frameSymbols(parent *symbols, params []*tmpl.Name, nodes []tmpl.Node) *symbols {
	s := newSymbols(parent)
	for _, p := range params {
		s.param(p.Name)
	}
	s.visit(nodes)
	return s
}

// visit is idtracking's FrameSymbolVisitor: it stops at nested frames.
func (s *symbols) visit(nodes []tmpl.Node) {
	for _, n := range nodes {
		switch n := n.(type) {
		case *tmpl.Output:
			s.loads(n.X)
		case *tmpl.If:
			s.visitIf(n.Branches, n.Else)
		case *tmpl.For:
			s.loads(n.Iter)
		case *tmpl.FilterBlock:
			s.loads(n.Filter)
		case *tmpl.Set:
			if n.Value != nil {
				s.loads(n.Value)
			}
			if n.NS != nil {
				s.load(n.NS.Name) // visit_NSRef: the namespace is read
			}
			for _, t := range n.Targets {
				s.store(t.Name)
			}
		}
	}
}

// visitIf visits an if as Jinja2 parses it: the first branch is the body,
// the others are elif nodes visited one after the other in a branch of
// their own, each an if with empty elif and else.
func (s *symbols) visitIf(branches []tmpl.IfBranch, els []tmpl.Node) {
	s.loads(branches[0].Cond)
	branch := func(visit func(*symbols)) *symbols {
		b := s.copy()
		visit(b)
		return b
	}
	body := branch(func(b *symbols) { b.visit(branches[0].Body) })
	elifs := branch(func(b *symbols) {
		for _, e := range branches[1:] {
			b.visitIf([]tmpl.IfBranch{e}, nil)
		}
	})
	rest := branch(func(b *symbols) { b.visit(els) })
	s.branchUpdate([]*symbols{body, elifs, rest})
}

// loads records the names expression x reads.
func (s *symbols) loads(x tmpl.Expr) {
	switch x := x.(type) {
	case nil:
	case *tmpl.Name:
		s.load(x.Name)
	case *tmpl.List:
		s.loadAll(x.Items...)
	case *tmpl.Tuple:
		s.loadAll(x.Items...)
	case *tmpl.Dict:
		s.loadAll(x.Keys...)
		s.loadAll(x.Values...)
	case *tmpl.Attr:
		s.loads(x.X)
	case *tmpl.Index:
		s.loadAll(x.X, x.Index)
	case *tmpl.Slice:
		s.loadAll(x.X, x.Lo, x.Hi, x.Step)
	case *tmpl.Unary:
		s.loads(x.X)
	case *tmpl.Binary:
		s.loadAll(x.X, x.Y)
	case *tmpl.CondExpr:
		s.loadAll(x.Then, x.Cond, x.Else)
	case *tmpl.Filter:
		s.loads(x.X)
		s.loadAll(x.Args...)
		s.loadKwargs(x.Kwargs)
	case *tmpl.Test:
		s.loads(x.X)
		s.loadAll(x.Args...)
	case *tmpl.Call:
		s.loads(x.Fn)
		s.loadAll(x.Args...)
		s.loadKwargs(x.Kwargs)
	}
}

func (s *symbols) loadAll(xs ...tmpl.Expr) {
	for _, x := range xs {
		s.loads(x)
	}
}

func (s *symbols) loadKwargs(kws []tmpl.Kwarg) {
	for _, kw := range kws {
		s.loads(kw.Value)
	}
}

// scope is a frame of Jinja2 (the template, a loop's body or else, a block
// set's body): the names it assigns are its locals from its start on.
type scope struct {
	names  map[string]*ir.Local
	locals *[]*ir.Local // where the locals are declared
	loop   *ir.For      // the innermost for loop, nil at top level
	sym    *symbols
	// outer holds the locals that start with the value their name has in
	// the enclosing scopes; inits are the sets that give it to those read
	// before they are surely assigned, run when the frame starts.
	outer map[*ir.Local]bool
	inits []ir.Node
	// noLoopControl names the frame when a loop control cannot stop a
	// loop from inside it (a block set's body, a generation block).
	noLoopControl string
}

// enter starts a frame that sym analyzed: params are its loop targets,
// bound already, and every other name it assigns gets a local, declared
// in locals.
func (c *checker) enter(sym *symbols, locals *[]*ir.Local, loop *ir.For, params ...*ir.Local) {
	sc := &scope{names: map[string]*ir.Local{}, locals: locals, loop: loop, sym: sym, outer: map[*ir.Local]bool{}}
	for _, p := range params {
		sc.names[p.Name] = p
		c.assigned[p] = assigned
	}
	for _, name := range sym.stores {
		if k := sym.refs[name]; k != loadParam {
			l := c.newLocal(name, c.localType(name))
			sc.names[name] = l
			sc.outer[l] = k == loadOuter
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
		switch st := c.assigned[l]; {
		case st == assigned:
		case !sc.outer[l]:
			l.MaybeUndefined = true // undefined until assigned
		case st == unassigned:
			continue // the enclosing value still
		default:
			c.initOuter(i, l, sp)
		}
		return &ir.LocalRef{L: l}
	}
	return nil
}

// initOuter gives local l of scope i, read at sp where it may not be
// assigned yet, the value of its name in the enclosing scopes when the
// frame starts: their local, or the template's variable, which is then
// optional (when inferred) as the set may make it unneeded.
func (c *checker) initOuter(i int, l *ir.Local, sp tmpl.Span) {
	sc := c.scopes[i]
	for _, n := range sc.inits {
		if n.(*ir.Set).Local == l {
			return
		}
	}
	var src ir.Expr
	if ref := c.read(l.Name, i-1, sp); ref != nil {
		src = ref
	} else {
		src = c.global(&tmpl.Name{Span: sp, Name: l.Name}, useValue)
		c.guard(src)
		c.dictDefault(l, src, sp)
	}
	init := &ir.Set{Local: l, Value: src}
	sc.inits = append(sc.inits, init)
	c.trackUndefined(init)
	if l.T.Kind == ir.KindDynamic {
		// The local holds values of several types: the enclosing value is
		// one of them.
		c.later = append(c.later, func() {
			if !types.ConvertsToDynamic(src.Type()) {
				c.errorf(sp, "%q is set to values of several types, and until the set runs it is a %s, which cannot be one of them", l.Name, src.Type())
			}
		})
		return
	}
	// A kind the set and the enclosing value do not share is reported
	// once types are final.
	lk, sk := l.T.Resolve().Kind, src.Type().Kind
	if lk == ir.KindUnknown || sk == ir.KindUnknown || lk == sk || (lk == ir.KindDynamic || sk == ir.KindDynamic) && types.Unifiable(l.T, src.Type()) {
		c.unify(l.T, src.Type(), sp)
	}
	c.later = append(c.later, func() {
		what := "its enclosing value"
		if f, ok := src.(*ir.FieldRef); ok {
			what = fmt.Sprintf("the input %q", f.Field.Key)
		}
		switch lt, st := l.T.Resolve(), src.Type(); {
		case lt.Kind != st.Kind:
			if st.Kind == ir.KindDynamic || types.ConvertsToDynamic(lt) && types.ConvertsToDynamic(st) {
				c.rebinding[l.Name] = true // checked again with the local dynamic
			}
			c.errorf(sp, "type mismatch: %q is set to a value of type %s, but until the set runs it is %s, of type %s", l.Name, lt, what, st)
		case lt.Kind == ir.KindNone:
			c.errorf(sp, "cannot infer the type of %q: it is set to none, and until the set runs it is %s (declare it in inputs)", l.Name, what)
		}
	})
}

func (c *checker) innerLoop() *ir.For {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if c.scopes[i].loop != nil {
			return c.scopes[i].loop
		}
	}
	return nil
}

type assignState uint8
