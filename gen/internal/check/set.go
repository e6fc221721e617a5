package check

import (
	"slices"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
)

// A body of a template set (a template, or a component version) is
// checked as a prompt's template is, with the components of its set in
// scope: setcheck checks the set around it, each body with a Checker of
// its own.

// InSet is what the body checked sees of its template set.
type InSet struct {
	Self *ir.SetComponent // the component checked, nil for a template
	// Components finds the components the body names.
	Components Components
	// Uses collects where components are used; nil when not recording.
	Uses *[]ComponentUse
}

// Components finds the components of a template set as one body sees
// them, as go/types' Importer finds packages: setcheck knows the set's
// namespaces and their fallback, the checker asks.
type Components interface {
	// Lookup returns the component that name refers to, or nil.
	Lookup(name string) *ir.SetComponent
	// Include returns the component that {% include name %} renders, or
	// the error to report.
	Include(name string) (*ir.SetComponent, error)
}

// ComponentUse is one place where a body uses a component.
type ComponentUse struct {
	From   *ir.SetComponent // the component using it; nil in a template
	Body   *ir.Prompt
	Comp   *ir.SetComponent
	Locals []string // the template's own names bound there
	Pos    src.Pos
}

// componentRef returns the component that a name refers to, or nil: in a
// set, a name that is no local but a component's renders the component.
func (c *checker) componentRef(name string, sp tmpl.Span) ir.Expr {
	if c.inSet == nil {
		return nil
	}
	comp := c.inSet.Components.Lookup(name)
	if comp == nil {
		return nil
	}
	return c.useComponent(comp, sp)
}

func (c *checker) useComponent(comp *ir.SetComponent, sp tmpl.Span) ir.Expr {
	if c.inSet.Uses != nil {
		*c.inSet.Uses = append(*c.inSet.Uses, ComponentUse{From: c.inSet.Self, Body: c.ir, Comp: comp, Locals: c.localNames(), Pos: c.pos(sp)})
	}
	return &ir.Include{Comp: comp.Component, Pos: c.posString(sp)}
}

// localNames lists the template names that may be set in the current
// scopes (before a set runs, a name is the feed's, or undefined, which an
// include also reads from the feed).
func (c *checker) localNames() []string {
	var bound []string
	for _, s := range c.scopes {
		for n, l := range s.names {
			if c.assigned[l] != unassigned {
				bound = append(bound, n)
			}
		}
	}
	slices.Sort(bound)
	return slices.Compact(bound)
}

// include checks {% include "name" %}: a component of the set
// (Components.Include).
func (c *checker) include(n *tmpl.Include) []ir.Node {
	name, ok := includeName(n)
	if !ok {
		c.errorf(n.Name.Pos(), "include needs a constant string naming a component")
		return nil
	}
	comp, err := c.inSet.Components.Include(name)
	if err != nil {
		c.errorf(n.Name.Pos(), "%v", err)
		return nil
	}
	return []ir.Node{&ir.Print{X: c.useComponent(comp, n.Name.Pos())}}
}
