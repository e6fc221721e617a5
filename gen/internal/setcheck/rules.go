package setcheck

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/check"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/names"
	"github.com/promptgen/promptgen/gen/internal/src"
)

// unionEntry is what the bodies checked so far say about one variable.
type unionEntry struct {
	t        *ir.Type
	pos      src.Pos
	flexible bool
}

// conflicts reports the variables that two bodies use with types that no
// one feed can have, at both uses.
func (sc *setChecker) conflicts() {
	seen := map[string]unionEntry{}
	for _, b := range sc.bodies {
		for _, f := range b.body.Feed.Fields {
			sc.merge(seen, f.Key, f.Type, f.Pos, b.flexible)
		}
	}
}

func (sc *setChecker) merge(seen map[string]unionEntry, name string, t *ir.Type, pos src.Pos, flexible map[*ir.Type]bool) {
	t = t.Resolve()
	flex := flexible[t]
	prev, ok := seen[name]
	switch {
	case !ok || prev.flexible && !flex:
		seen[name] = unionEntry{t: t, pos: pos, flexible: flex}
	case flex || prev.flexible:
	case prev.t.Kind == t.Kind:
	case ir.IsNumber(prev.t.Kind) && ir.IsNumber(t.Kind) && prev.t.Kind != ir.KindBool && t.Kind != ir.KindBool:
	default:
		msg := "variable %q is %s here but %s at %s (the templates and components of a set share one feed)"
		sc.diags.Errorf(pos, msg, name, names.Article(t.String()), names.Article(prev.t.String()), src.ShortPos(prev.pos, pos))
		sc.diags.Errorf(prev.pos, msg, name, names.Article(prev.t.String()), names.Article(t.String()), src.ShortPos(pos, prev.pos))
		return
	}
	switch t.Kind {
	case ir.KindList, ir.KindMap:
		sc.merge(seen, name+"[]", t.Elem, pos, flexible)
	case ir.KindStruct:
		for _, f := range t.Fields {
			sc.merge(seen, name+"."+f.Key, f.Type, f.Pos, flexible)
		}
	}
}

// unusedComponents warns about components that no template or
// component uses.
func (sc *setChecker) unusedComponents() {
	used := map[*ir.SetComponent]bool{}
	for _, u := range sc.uses {
		used[u.Comp] = true
	}
	for _, c := range sc.out.Components {
		if !used[c] {
			sc.diags.Warnf(sc.versionSpecs[c.Versions[0]].Prompt.Pos, "component %q is not used by any template", c.Full())
		}
	}
}

// cycles reports components that include themselves, directly or not.
func (sc *setChecker) cycles() {
	edges := map[*ir.SetComponent][]check.ComponentUse{}
	for _, u := range sc.uses {
		if u.From != nil {
			edges[u.From] = append(edges[u.From], u)
		}
	}
	const (
		unvisited = iota
		active
		done
	)
	state := map[*ir.SetComponent]int{}
	var stack []*ir.SetComponent
	var visit func(c *ir.SetComponent)
	visit = func(c *ir.SetComponent) {
		state[c] = active
		stack = append(stack, c)
		for _, u := range edges[c] {
			switch state[u.Comp] {
			case active:
				var chain []string
				for _, s := range stack[slices.Index(stack, u.Comp):] {
					chain = append(chain, s.Full())
				}
				chain = append(chain, u.Comp.Full())
				sc.diags.Errorf(u.Pos, "include cycle: %s", strings.Join(chain, " -> "))
			case unvisited:
				visit(u.Comp)
			}
		}
		stack = stack[:len(stack)-1]
		state[c] = done
	}
	for _, c := range sc.out.Components {
		if state[c] == unvisited {
			visit(c)
		}
	}
}

// freeVars returns the feed variables that component c reads, directly
// or through the components it uses, sorted.
func (sc *setChecker) freeVars(c *ir.SetComponent, seen map[*ir.SetComponent]bool) []string {
	if seen[c] {
		return nil
	}
	seen[c] = true
	var vars []string
	for _, b := range sc.bodies {
		if b.self != c {
			continue
		}
		for _, f := range b.body.Feed.Fields {
			if b.c.Used[f] {
				vars = append(vars, f.Key)
			}
		}
	}
	for _, u := range sc.uses {
		if u.From == c {
			vars = append(vars, sc.freeVars(u.Comp, seen)...)
		}
	}
	slices.Sort(vars)
	return slices.Compact(vars)
}

// localsSeen reports a component used where the template binds a name
// that the component reads as a variable: Jinja2's include would read
// the template's value, promptgen's component reads the feed.
func (sc *setChecker) localsSeen() {
	for _, u := range sc.uses {
		if len(u.Locals) == 0 {
			continue
		}
		for _, v := range sc.freeVars(u.Comp, map[*ir.SetComponent]bool{}) {
			if _, bound := slices.BinarySearch(u.Locals, v); bound {
				sc.diags.Errorf(u.Pos, "component %q reads %q, which is set here: a component sees the feed only (rename the local)", u.Comp.Name, v)
			}
		}
	}
}

// versioned lists, for each template, the versioned components it uses.
func (sc *setChecker) versioned() {
	for _, b := range sc.bodies {
		if b.tmpl == nil {
			continue
		}
		// The components the template uses, then those they use.
		seen := map[*ir.SetComponent]bool{}
		var walk func(uses func(check.ComponentUse) bool)
		walk = func(uses func(check.ComponentUse) bool) {
			for _, u := range sc.uses {
				if uses(u) && !seen[u.Comp] {
					seen[u.Comp] = true
					walk(func(v check.ComponentUse) bool { return v.From == u.Comp })
				}
			}
		}
		walk(func(u check.ComponentUse) bool { return u.Body == b.body })
		var list []*ir.SetComponent
		for _, c := range sc.out.Components {
			if seen[c] && c.Versioned() {
				list = append(list, c)
			}
		}
		sort.SliceStable(list, func(i, j int) bool { return list[i].Name < list[j].Name })
		for i := 1; i < len(list); i++ {
			if list[i].Name == list[i-1].Name {
				sc.diags.Errorf(b.p.Pos, "template %q uses two versioned components named %q (%s and %s); rename one",
					b.tmpl.Path, list[i].Name, list[i-1].Full(), list[i].Full())
			}
		}
		b.tmpl.Versioned = list
	}
}

// keys decides the typed key constants: a template of the default type (or
// of the set's root) is keyed by its name, any other by type/name; default
// templates have none, as the empty key resolves them.
func (sc *setChecker) keys() {
	s := sc.set
	byKey := map[string]*ir.SetKey{}
	for _, t := range s.Templates {
		if t.Name == s.DefaultName || t.System {
			continue
		}
		key := t.Name
		if t.Namespace != "" {
			typ := path.Base(t.Namespace)
			if typ != path.Base(s.DefaultType) || s.DefaultType == "" {
				key = typ + "/" + t.Name
			}
		}
		k := byKey[key]
		if k == nil {
			k = &ir.SetKey{Key: key, Pos: t.Prompt.Pos}
			byKey[key] = k
			sc.out.Keys = append(sc.out.Keys, k)
		}
		k.Paths = append(k.Paths, t.Path)
		if t.GoName != "" && k.Override == "" {
			k.Override, k.OverridePos = t.GoName, t.GoNamePos
		}
	}
	sort.Slice(sc.out.Keys, func(i, j int) bool { return sc.out.Keys[i].Key < sc.out.Keys[j].Key })
}
