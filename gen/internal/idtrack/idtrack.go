package idtrack

import (
	"maps"
	"slices"

	"github.com/promptgen/promptgen/gen/internal/tmpl"
)

// Load is how a local of a frame gets its first value.
type Load uint8

const (
	LoadUndefined Load = iota // VAR_LOAD_UNDEFINED
	LoadOuter                 // VAR_LOAD_ALIAS or VAR_LOAD_RESOLVE: the enclosing value
	LoadParam                 // VAR_LOAD_PARAMETER: a loop target
)

// Symbols is idtracking's Symbols for one frame. A frame has one ref per
// name, so Refs merges Jinja2's refs and loads.
type Symbols struct {
	parent *Symbols
	Refs   map[string]Load
	Stores []string // in first-store order
}

func newSymbols(parent *Symbols) *Symbols {
	return &Symbols{parent: parent, Refs: map[string]Load{}}
}

func (s *Symbols) copy() *Symbols {
	return &Symbols{parent: s.parent, Refs: maps.Clone(s.Refs), Stores: slices.Clone(s.Stores)}
}

func (s *Symbols) hasRef(name string) bool {
	for ; s != nil; s = s.parent {
		if _, ok := s.Refs[name]; ok {
			return true
		}
	}
	return false
}

func (s *Symbols) addStore(name string) {
	if !slices.Contains(s.Stores, name) {
		s.Stores = append(s.Stores, name)
	}
}

func (s *Symbols) store(name string) {
	s.addStore(name)
	if _, ok := s.Refs[name]; !ok {
		s.Refs[name] = LoadUndefined
		if s.parent.hasRef(name) {
			s.Refs[name] = LoadOuter
		}
	}
}

func (s *Symbols) param(name string) {
	s.addStore(name)
	s.Refs[name] = LoadParam
}

func (s *Symbols) load(name string) {
	if !s.hasRef(name) {
		s.Refs[name] = LoadOuter
	}
}

// branchUpdate merges the branches of an if: a name that some but not all
// of them assign starts with the enclosing value.
func (s *Symbols) branchUpdate(branches []*Symbols) {
	count := map[string]int{}
	for _, b := range branches {
		for _, name := range b.Stores {
			if !slices.Contains(s.Stores, name) {
				count[name]++
			}
		}
	}
	for _, b := range branches {
		maps.Copy(s.Refs, b.Refs)
		for _, name := range b.Stores {
			s.addStore(name)
		}
	}
	for name, n := range count {
		if n != len(branches) {
			s.Refs[name] = LoadOuter
		}
	}
}

// Frame analyzes the nodes of a frame whose enclosing frame has
// parent (nil for the template), with params as its loop targets.
func Frame(parent *Symbols, params []*tmpl.Name, nodes []tmpl.Node) *Symbols {
	s := newSymbols(parent)
	for _, p := range params {
		s.param(p.Name)
	}
	s.visit(nodes)
	return s
}

// visit is idtracking's FrameSymbolVisitor: it stops at nested frames.
func (s *Symbols) visit(nodes []tmpl.Node) {
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
		case *tmpl.CallBlock:
			s.loads(n.Call) // visit_CallBlock: the body is the caller's frame
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
func (s *Symbols) visitIf(branches []tmpl.IfBranch, els []tmpl.Node) {
	s.loads(branches[0].Cond)
	branch := func(visit func(*Symbols)) *Symbols {
		b := s.copy()
		visit(b)
		return b
	}
	body := branch(func(b *Symbols) { b.visit(branches[0].Body) })
	elifs := branch(func(b *Symbols) {
		for _, e := range branches[1:] {
			b.visitIf([]tmpl.IfBranch{e}, nil)
		}
	})
	rest := branch(func(b *Symbols) { b.visit(els) })
	s.branchUpdate([]*Symbols{body, elifs, rest})
}

// loads records the names expression x reads.
func (s *Symbols) loads(x tmpl.Expr) {
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

func (s *Symbols) loadAll(xs ...tmpl.Expr) {
	for _, x := range xs {
		s.loads(x)
	}
}

func (s *Symbols) loadKwargs(kws []tmpl.Kwarg) {
	for _, kw := range kws {
		s.loads(kw.Value)
	}
}
