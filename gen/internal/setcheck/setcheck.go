package setcheck

import (
	"github.com/promptgen/promptgen/gen/internal/check"
	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
)

// setChecker checks one set.
type setChecker struct {
	diags  *diag.Sink
	set    *ir.SetSpec
	strict bool
	comps  components
	out    *ir.PromptSet
	bodies []*setBody
	uses   []check.ComponentUse
	// versionSpecs are the specs of the component versions.
	versionSpecs map[*ir.ComponentVersion]*ir.ComponentSpec
}

// setBody is one template or component version to check.
type setBody struct {
	p    *ir.PromptSpec
	ns   string
	self *ir.SetComponent // the component, for a component version
	tmpl *ir.SetTemplate  // the template, for a template
	ver  *ir.ComponentVersion
	ast  *tmpl.Template
	c    *check.Checker // of the last pass
	body *ir.Prompt     // its IR, checked by c
	// flexible holds the feed types that the first pass left unknown, so
	// that only a default made them what they are.
	flexible map[*ir.Type]bool
}

// Sets checks and lowers every set; it returns the sets without errors.
func Sets(sets []*ir.SetSpec, strict bool, diags *diag.Sink) []*ir.PromptSet {
	var out []*ir.PromptSet
	for _, s := range sets {
		sc := &setChecker{diags: diags, set: s, strict: strict}
		if irp := sc.check(); irp != nil {
			out = append(out, irp)
		}
	}
	return out
}

func (sc *setChecker) check() *ir.PromptSet {
	s := sc.set
	before := len(sc.diags.List)
	if sc.strict && s.Inputs == nil && !s.Chat {
		sc.diags.Errorf(s.Pos, "template set %q declares no inputs (-strict requires them in %s)", s.Key, ir.SetFile)
	}
	sc.out = ir.NewPromptSet(s)
	sc.components()
	for _, t := range s.Templates {
		it := ir.NewSetTemplate(t, s)
		sc.out.Templates = append(sc.out.Templates, it)
		sc.bodies = append(sc.bodies, &setBody{p: t.Prompt, ns: t.Namespace, tmpl: it})
	}
	for _, c := range sc.out.Components {
		for _, v := range c.Versions {
			sc.bodies = append(sc.bodies, &setBody{p: sc.versionSpecs[v].Prompt, ns: c.Namespace, self: c, ver: v})
		}
	}
	for _, b := range sc.bodies {
		b.ast = check.Parse(b.p, b.p.Template, b.p.Map, sc.diags)
	}
	if sc.diags.List[before:].HasErrors() || len(sc.bodies) == 0 { // load reported a set without templates
		return nil
	}
	// Pass 1: each body on its own.
	for _, b := range sc.bodies {
		feed := sc.newFeed()
		if s.Inputs != nil {
			feed = types.Clone(s.Inputs, map[*ir.Type]*ir.Type{})
		}
		sc.checkBody(b, feed, &sc.uses)
		b.flexible = map[*ir.Type]bool{}
		types.AddUnknown(feed, b.flexible)
		if !sc.finish([]*setBody{b}, feed, false) {
			return nil
		}
		// Each body on its own, so an inferred variable is reported where
		// that template or component uses it.
		check.Allowed(s.Variables, feed, b.c.Used, sc.diags)
	}
	sc.conflicts()
	sc.unusedComponents()
	sc.cycles()
	sc.localsSeen()
	sc.versioned()
	if sc.diags.List[before:].HasErrors() {
		return nil
	}
	// Pass 2: all bodies against one feed.
	feed := s.Inputs
	if feed == nil {
		feed = sc.newFeed()
	}
	for _, b := range sc.bodies {
		sc.checkBody(b, feed, nil)
	}
	if !sc.finish(sc.bodies, feed, true) || sc.diags.List[before:].HasErrors() {
		return nil
	}
	if s.Chat {
		for _, b := range sc.bodies {
			check.ClearDynamicUndefined(b.body)
		}
		check.ChatOptional(feed)
	}
	sc.out.Feed = feed
	for _, b := range sc.bodies {
		if b.tmpl != nil {
			b.tmpl.Body = b.body
		} else {
			b.ver.Body = b.body
		}
	}
	sc.keys()
	sc.predefined(feed)
	return sc.out
}

// newFeed returns the feed to infer: that of a chat template with
// `inputs: chat`, else an empty struct.
func (sc *setChecker) newFeed() *ir.Type {
	if sc.set.Chat {
		return check.ChatFeed()
	}
	return &ir.Type{Kind: ir.KindStruct}
}

// components groups the set's component versions by namespace and name.
func (sc *setChecker) components() {
	sc.comps = components{}
	sc.versionSpecs = map[*ir.ComponentVersion]*ir.ComponentSpec{}
	for _, c := range sc.set.Components {
		ic := sc.comps[c.Namespace][c.Name]
		if ic == nil {
			ic = &ir.SetComponent{Component: &ir.Component{Name: c.Name}, Namespace: c.Namespace}
			if sc.comps[c.Namespace] == nil {
				sc.comps[c.Namespace] = map[string]*ir.SetComponent{}
			}
			sc.comps[c.Namespace][c.Name] = ic
			sc.out.Components = append(sc.out.Components, ic)
		}
		v := ir.NewComponentVersion(c)
		sc.versionSpecs[v] = c
		ic.Versions = append(ic.Versions, v)
		ic.Templates = append(ic.Templates, ir.ComponentTemplate{Version: c.Version, Key: c.Prompt.Key, File: c.Prompt.Map.File})
	}
}

// checkBody checks one body against feed, recording its component uses
// in uses when it is not nil. Its checks that need final types wait for
// finish.
func (sc *setChecker) checkBody(b *setBody, feed *ir.Type, uses *[]check.ComponentUse) {
	in := &check.InSet{Self: b.self, Components: seenFrom{sc.comps, b.ns}, Uses: uses}
	b.c = check.NewChecker(b.p, feed, check.Config{InSet: in}, sc.diags)
	b.body = b.c.Template(b.ast, b.p.Map, false)
}

// finish completes the checks of bodies that share feed (check.Finish),
// with the warnings of unused inputs when warn is set. It reports false,
// and stops, when a type nests too deeply.
func (sc *setChecker) finish(bodies []*setBody, feed *ir.Type, warn bool) bool {
	checked := make([]*check.Checker, len(bodies))
	for i, b := range bodies {
		checked[i] = b.c
	}
	if !check.Finish(checked, feed, sc.diags) {
		return false
	}
	if !warn || !feed.Declared {
		return true
	}
	for _, f := range feed.Fields {
		used := false
		for _, b := range bodies {
			used = used || b.c.Used[f]
		}
		if !used {
			sc.diags.Warnf(f.Pos, "input %q is declared but not used by any template of the set", f.Key)
		}
	}
	return true
}
