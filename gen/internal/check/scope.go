package check

import (
	"maps"
	"slices"

	"github.com/promptgen/promptgen/gen/internal/tmpl"
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
