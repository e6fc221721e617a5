package check

import (
	"path"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/schema"
)

// A body of a template set (a template, or a component version) is
// checked as a prompt's template is, with the components of its set in
// scope: setcheck checks the set around it, each body with a Checker of
// its own.

// InSet is what the body checked sees of its template set.
type InSet struct {
	Namespace  string           // the namespace whose components the body sees
	Self       *ir.SetComponent // the component checked, nil for a template
	Components Components
	// Uses collects where components are used; nil when not recording.
	Uses *[]ComponentUse
}

// Components are the components of a set by namespace and name.
type Components map[string]map[string]*ir.SetComponent

// lookup finds the component name as seen from namespace ns: in ns, then
// in the namespaces the fallback chain tries after it (the root space
// dropped, then the type: action_agent/main, main, the set's root).
func (tb Components) lookup(ns, name string) *ir.SetComponent {
	for {
		if c := tb[ns][name]; c != nil {
			return c
		}
		if ns == "" {
			return nil
		}
		_, ns, _ = strings.Cut(ns, "/")
	}
}

// visible lists the component names that namespace ns sees, sorted.
func (tb Components) visible(ns string) []string {
	var visible []string
	for {
		for n := range tb[ns] {
			visible = append(visible, n)
		}
		if ns == "" {
			break
		}
		_, ns, _ = strings.Cut(ns, "/")
	}
	slices.Sort(visible)
	return slices.Compact(visible)
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
	comp := c.inSet.Components.lookup(c.inSet.Namespace, name)
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

// include checks {% include "name" %}: a component of the set, looked up
// as a name is, or by its namespace ("main/preamble"), which must stay
// inside the set.
func (c *checker) include(n *tmpl.Include) []ir.Node {
	k, ok := n.Name.(*tmpl.Const)
	var name string
	if ok {
		name, ok = k.Value.(string)
	}
	if !ok {
		c.errorf(n.Name.Pos(), "include needs a constant string naming a component")
		return nil
	}
	var comp *ir.SetComponent
	if strings.Contains(name, "/") {
		clean := path.Clean(name)
		if strings.HasPrefix(name, "/") || clean == ".." || strings.HasPrefix(clean, "../") {
			c.errorf(n.Name.Pos(), "include %q leaves the template set (name a component, or namespace/component)", name)
			return nil
		}
		ns, base := path.Split(clean)
		ns = strings.TrimSuffix(ns, "/")
		if ns == ir.ComponentsDir {
			ns = ""
		}
		comp = c.inSet.Components[strings.TrimSuffix(ns, "/"+ir.ComponentsDir)][base]
	} else {
		comp = c.inSet.Components.lookup(c.inSet.Namespace, name)
	}
	if comp == nil {
		c.errorf(n.Name.Pos(), "no component %q%s", name, schema.DidYouMean(name, c.inSet.Components.visible(c.inSet.Namespace)))
		return nil
	}
	return []ir.Node{&ir.Print{X: c.useComponent(comp, n.Name.Pos())}}
}
