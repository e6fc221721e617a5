package setcheck

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/schema"
)

// components are the components of a set by namespace and name.
type components map[string]map[string]*ir.SetComponent

// lookup finds the component name as seen from namespace ns: in ns, then
// in the namespaces the fallback chain tries after it (the root space
// dropped, then the type: action_agent/main, main, the set's root).
func (tb components) lookup(ns, name string) *ir.SetComponent {
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
func (tb components) visible(ns string) []string {
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

// seenFrom are the components of a set as a body in namespace ns sees
// them (check.Components).
type seenFrom struct {
	comps components
	ns    string
}

// Lookup finds a name in the namespace of the body, then down its
// fallback chain.
func (s seenFrom) Lookup(name string) *ir.SetComponent { return s.comps.lookup(s.ns, name) }

// Include finds the component of {% include name %}: looked up as a name
// is, or by its namespace ("main/preamble"), which must stay inside the
// set.
func (s seenFrom) Include(name string) (*ir.SetComponent, error) {
	var comp *ir.SetComponent
	if strings.Contains(name, "/") {
		clean := path.Clean(name)
		if strings.HasPrefix(name, "/") || clean == ".." || strings.HasPrefix(clean, "../") {
			return nil, fmt.Errorf("include %q leaves the template set (name a component, or namespace/component)", name)
		}
		ns, base := path.Split(clean)
		ns = strings.TrimSuffix(ns, "/")
		if ns == ir.ComponentsDir {
			ns = ""
		}
		comp = s.comps[strings.TrimSuffix(ns, "/"+ir.ComponentsDir)][base]
	} else {
		comp = s.comps.lookup(s.ns, name)
	}
	if comp == nil {
		return nil, fmt.Errorf("no component %q%s", name, schema.DidYouMean(name, s.comps.visible(s.ns)))
	}
	return comp, nil
}
