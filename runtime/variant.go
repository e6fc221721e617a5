package runtime

import (
	"iter"
	"slices"
	"strings"
)

// Variant is one combination of versions of a template's versioned
// components (template-manager.md, "Versioned Components"): Versions[i] is
// the version of component Components[i], "" for its unversioned content.
// A set's generated Variants(key, feed) yields one Variant with each
// rendering; Render renders VariantFor the manager's version.
type Variant struct {
	Components []string // the components' names; shared between variants, not to be modified
	Versions   []string // the chosen version of each component; the Variant's own
	Err        error    // the error rendering this variant, when Variants could not (its string is then "")
}

// Version returns the version chosen for component, "" when it is
// unversioned or not one of Components.
func (v Variant) Version(component string) string {
	if i := slices.Index(v.Components, component); i >= 0 && i < len(v.Versions) {
		return v.Versions[i]
	}
	return ""
}

// String lists the choices as "name=version" separated by spaces, with a
// bare name for an unversioned component.
func (v Variant) String() string {
	var b strings.Builder
	for i, c := range v.Components {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c)
		if i < len(v.Versions) && v.Versions[i] != "" {
			b.WriteByte('=')
			b.WriteString(v.Versions[i])
		}
	}
	return b.String()
}

// Product yields every combination of component versions, the Cartesian
// product of versions, where versions[i] lists the versions of
// components[i] ("" for unversioned content; an empty list counts as [""]).
// The order is deterministic, that of Python's itertools.product: the
// first component varies slowest, and each component's versions come in
// the order given. (The generator lists components by name and versions in
// declaration order, the unversioned one first.) With no components it
// yields one empty Variant: the template's single rendering. Each Variant
// has its own Versions slice.
func Product(components []string, versions [][]string) iter.Seq[Variant] {
	return func(yield func(Variant) bool) {
		idx := make([]int, len(components))
		for {
			v := Variant{Components: components, Versions: make([]string, len(components))}
			for i, j := range idx {
				if j < len(versions[i]) {
					v.Versions[i] = versions[i][j]
				}
			}
			if !yield(v) {
				return
			}
			// Advance the odometer, the last component fastest.
			i := len(idx) - 1
			for ; i >= 0; i-- {
				idx[i]++
				if idx[i] < len(versions[i]) {
					break
				}
				idx[i] = 0
			}
			if i < 0 {
				return
			}
		}
	}
}

// VariantFor returns the Variant that Render uses under the manager's
// version: each component's version equal to version, else its unversioned
// content, else (a component that only has versions, none of them
// version) its first version, so that Render then renders the first
// Variant Product yields for it.
func VariantFor(components []string, versions [][]string, version string) Variant {
	v := Variant{Components: components}
	if len(components) == 0 {
		return v
	}
	v.Versions = make([]string, len(components))
	for i := range components {
		vs := versions[i]
		switch {
		case version != "" && slices.Contains(vs, version):
			v.Versions[i] = version
		case len(vs) == 0 || slices.Contains(vs, ""):
		default:
			v.Versions[i] = vs[0]
		}
	}
	return v
}
