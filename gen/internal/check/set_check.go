package check

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/names"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/schema"
)

// This file checks template sets and lowers them to IR. Every template and
// component of a set renders with one feed, the union of their variables.
// Each template (and each component version) is first checked on its own,
// with its own feed, so that a variable used with different types in two
// of them is reported at both uses; then all are checked again against one
// shared feed, which gives the union its final types.

// setContext is what a checker knows about the set of the body it checks.
type setContext struct {
	ns    string           // the namespace whose components the body sees
	self  *ir.SetComponent // the component being checked, nil for a template
	comps componentTable
	// uses collects where components are used; nil when not recording.
	uses *[]componentUse
}

// componentTable finds components by namespace and name.
type componentTable map[string]map[string]*ir.SetComponent

// lookup finds the component name as seen from namespace ns: in ns, then
// in the namespaces the fallback chain tries after it (the root space
// dropped, then the type: action_agent/main, main, the set's root).
func (tb componentTable) lookup(ns, name string) *ir.SetComponent {
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
func (tb componentTable) visible(ns string) []string {
	var names []string
	for {
		for n := range tb[ns] {
			names = append(names, n)
		}
		if ns == "" {
			break
		}
		_, ns, _ = strings.Cut(ns, "/")
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// componentUse is one place where a body uses a component.
type componentUse struct {
	from   *ir.SetComponent // the component using it; nil in a template
	body   *ir.Prompt
	comp   *ir.SetComponent
	locals []string // the template's own names bound there
	pos    src.Pos
}

// componentRef returns the component that a name refers to, or nil: in a
// set, a name that is no local but a component's renders the component.
func (c *checker) componentRef(name string, sp tmpl.Span) ir.Expr {
	if c.inSet == nil {
		return nil
	}
	comp := c.inSet.comps.lookup(c.inSet.ns, name)
	if comp == nil {
		return nil
	}
	return c.useComponent(comp, sp)
}

func (c *checker) useComponent(comp *ir.SetComponent, sp tmpl.Span) ir.Expr {
	if c.inSet.uses != nil {
		*c.inSet.uses = append(*c.inSet.uses, componentUse{from: c.inSet.self, body: c.ir, comp: comp, locals: c.localNames(), pos: c.pos(sp)})
	}
	return &ir.Include{Comp: comp.Component, Pos: c.posString(sp)}
}

// localNames lists the template names that may be set in the current
// scopes (before a set runs, a name is the feed's, or undefined, which an
// include also reads from the feed).
func (c *checker) localNames() []string {
	var names []string
	for _, s := range c.scopes {
		for n, l := range s.names {
			if c.assigned[l] != unassigned {
				names = append(names, n)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
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
		comp = c.inSet.comps[strings.TrimSuffix(ns, "/"+ir.ComponentsDir)][base]
	} else {
		comp = c.inSet.comps.lookup(c.inSet.ns, name)
	}
	if comp == nil {
		c.errorf(n.Name.Pos(), "no component %q%s", name, schema.DidYouMean(name, c.inSet.comps.visible(c.inSet.ns)))
		return nil
	}
	return []ir.Node{&ir.Print{X: c.useComponent(comp, n.Name.Pos())}}
}

// setChecker checks one set.
type setChecker struct {
	diags  *diag.Sink
	set    *ir.SetSpec
	strict bool
	comps  componentTable
	out    *ir.PromptSet
	bodies []*setBody
	uses   []componentUse
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
	c    *checker // of the last pass
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
	if sc.strict && s.Inputs == nil {
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
		t, err := tmpl.Parse(b.p.Template, b.p.Jinja)
		if err != nil {
			if e, ok := err.(*tmpl.Error); ok {
				sc.diags.Errorf(b.p.Map.Pos(e.Span.Start), "%s", e.Msg)
			} else {
				sc.diags.Errorf(b.p.Pos, "%v", err)
			}
			continue
		}
		b.ast = t
	}
	if hasErrorsSince(sc.diags, before) || len(sc.bodies) == 0 { // load reported a set without templates
		return nil
	}
	// Pass 1: each body on its own.
	for _, b := range sc.bodies {
		feed := &ir.Type{Kind: ir.KindStruct}
		if s.Inputs != nil {
			feed = cloneType(s.Inputs, map[*ir.Type]*ir.Type{})
		}
		b.c = sc.checkBody(b, feed, &sc.uses)
		b.flexible = map[*ir.Type]bool{}
		unknownTypes(feed, b.flexible)
		if !sc.finish([]*setBody{b}, feed, false) {
			return nil
		}
		// Each body on its own, so an inferred variable is reported where
		// that template or component uses it.
		checkAllowed(s.Variables, feed, b.c.used, sc.diags)
	}
	sc.conflicts()
	sc.unusedComponents()
	sc.cycles()
	sc.localsSeen()
	sc.versioned()
	if hasErrorsSince(sc.diags, before) {
		return nil
	}
	// Pass 2: all bodies against one feed.
	feed := s.Inputs
	if feed == nil {
		feed = &ir.Type{Kind: ir.KindStruct}
	}
	for _, b := range sc.bodies {
		b.c = sc.checkBody(b, feed, nil)
	}
	if !sc.finish(sc.bodies, feed, true) || hasErrorsSince(sc.diags, before) {
		return nil
	}
	sc.out.Feed = feed
	for _, b := range sc.bodies {
		if b.tmpl != nil {
			b.tmpl.Body = b.c.ir
		} else {
			b.ver.Body = b.c.ir
		}
	}
	sc.keys()
	sc.predefined(feed)
	return sc.out
}

// components groups the set's component versions by namespace and name.
func (sc *setChecker) components() {
	sc.comps = componentTable{}
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
// in uses when it is not nil.
func (sc *setChecker) checkBody(b *setBody, feed *ir.Type, uses *[]componentUse) *checker {
	c := &checker{diags: sc.diags, p: b.p, feed: feed, used: map[*ir.Field]bool{}, setBefore: map[*ir.Local]bool{},
		inSet: &setContext{ns: b.ns, self: b.self, comps: sc.comps, uses: uses}}
	c.ir = ir.NewPrompt(b.p, feed)
	c.template(b.ast.Body, c.ir)
	c.ir.NumLocals = c.tmp
	return c
}

// finish completes the checks of bodies that share feed, as checkPrompt
// does for one prompt, with the warnings of unused inputs when warn is set.
// It reports false, and stops, when a type nests too deeply.
func (sc *setChecker) finish(bodies []*setBody, feed *ir.Type, warn bool) bool {
	for _, b := range bodies {
		if !checkTypeDepth(b.p, feed, []*ir.Prompt{b.c.ir}, sc.diags) {
			return false
		}
	}
	finalize(feed)
	bodies[0].c.checkNoDicts(feed)
	for _, b := range bodies {
		ir.Walk(b.c.ir.Body, finalizeExpr)
		for _, l := range b.c.ir.Locals {
			finalize(l.T)
		}
	}
	for _, b := range bodies {
		b.c.markUndefined()
		for _, f := range b.c.later {
			f()
		}
	}
	if !warn || !feed.Declared {
		return true
	}
	for _, f := range feed.Fields {
		used := false
		for _, b := range bodies {
			used = used || b.c.used[f]
		}
		if !used {
			sc.diags.Warnf(f.Pos, "input %q is declared but not used by any template of the set", f.Key)
		}
	}
	return true
}

// cloneType copies a declared type, so that what one body infers in an
// `object` of it stays its own.
func cloneType(t *ir.Type, seen map[*ir.Type]*ir.Type) *ir.Type {
	t = t.Resolve()
	if c := seen[t]; c != nil {
		return c
	}
	if t.Go != nil {
		return t // a Go type is complete: nothing is inferred in it
	}
	c := &ir.Type{Kind: t.Kind, Declared: t.Declared, Hint: t.Hint}
	seen[t] = c
	if t.Elem != nil {
		c.Elem = cloneType(t.Elem, seen)
	}
	for _, f := range t.Fields {
		g := *f
		g.Type = cloneType(f.Type, seen)
		c.Fields = append(c.Fields, &g)
	}
	return c
}

// unknownTypes adds to set the types in t that are still unknown.
func unknownTypes(t *ir.Type, set map[*ir.Type]bool) {
	t = t.Resolve()
	switch t.Kind {
	case ir.KindUnknown:
		set[t] = true
	case ir.KindList, ir.KindMap:
		unknownTypes(t.Elem, set)
	case ir.KindStruct:
		for _, f := range t.Fields {
			unknownTypes(f.Type, set)
		}
	}
}

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
		for _, f := range b.c.feed.Fields {
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
		used[u.comp] = true
	}
	for _, c := range sc.out.Components {
		if !used[c] {
			sc.diags.Warnf(sc.versionSpecs[c.Versions[0]].Prompt.Pos, "component %q is not used by any template", c.Full())
		}
	}
}

// cycles reports components that include themselves, directly or not.
func (sc *setChecker) cycles() {
	edges := map[*ir.SetComponent][]componentUse{}
	for _, u := range sc.uses {
		if u.from != nil {
			edges[u.from] = append(edges[u.from], u)
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
			switch state[u.comp] {
			case active:
				var chain []string
				for _, s := range stack[slices.Index(stack, u.comp):] {
					chain = append(chain, s.Full())
				}
				chain = append(chain, u.comp.Full())
				sc.diags.Errorf(u.pos, "include cycle: %s", strings.Join(chain, " -> "))
			case unvisited:
				visit(u.comp)
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
		for _, f := range b.c.feed.Fields {
			if b.c.used[f] {
				vars = append(vars, f.Key)
			}
		}
	}
	for _, u := range sc.uses {
		if u.from == c {
			vars = append(vars, sc.freeVars(u.comp, seen)...)
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
		if len(u.locals) == 0 {
			continue
		}
		for _, v := range sc.freeVars(u.comp, map[*ir.SetComponent]bool{}) {
			if _, bound := slices.BinarySearch(u.locals, v); bound {
				sc.diags.Errorf(u.pos, "component %q reads %q, which is set here: a component sees the feed only (rename the local)", u.comp.Name, v)
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
		var walk func(uses func(componentUse) bool)
		walk = func(uses func(componentUse) bool) {
			for _, u := range sc.uses {
				if uses(u) && !seen[u.comp] {
					seen[u.comp] = true
					walk(func(v componentUse) bool { return v.from == u.comp })
				}
			}
		}
		walk(func(u componentUse) bool { return u.body == b.c.ir })
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

// predefined checks the values of predefined_variables against the feed:
// each names a feed field (with a did-you-mean) and has its type. A value
// that fills nothing (null, or the zero value of a field that is not a
// pointer: Render fills only the fields the caller left at their zero
// value, as Merge does) is an error too.
func (sc *setChecker) predefined(feed *ir.Type) {
	var keys []string
	for _, f := range feed.Fields {
		keys = append(keys, f.Key)
	}
	for _, spec := range sc.set.Predefined {
		p := &ir.Predefined{Name: spec.Name, Pos: spec.Pos}
		for _, v := range spec.Values {
			at := "predefined_variables." + spec.Name + "." + v.Key
			f := feed.Field(v.Key)
			if f == nil {
				sc.diags.Errorf(v.Pos, "%s: no variable %q in the set's feed%s", "predefined_variables."+spec.Name, v.Key, schema.DidYouMean(v.Key, keys))
				continue
			}
			if val, ok := sc.predefinedValue(v.Value, f.Type, at, !f.Optional || !ir.IsPointerKind(f.Type)); ok {
				p.Values = append(p.Values, ir.PredefinedField{Field: f, Value: val})
			}
		}
		sc.out.Predefined = append(sc.out.Predefined, p)
	}
	sort.Slice(sc.out.Predefined, func(i, j int) bool { return sc.out.Predefined[i].Name < sc.out.Predefined[j].Name })
}

// predefinedValue converts l to a value of type t: a scalar, or a list of
// scalars. zeroUnset is set for a field that is not a pointer, where a
// zero value would fill nothing.
func (sc *setChecker) predefinedValue(l *ir.Literal, t *ir.Type, at string, zeroUnset bool) (any, bool) {
	t = t.Resolve()
	if l.Kind == ir.LiteralBad {
		return nil, false
	}
	if l.Kind == ir.LiteralScalar && l.Value == nil {
		sc.diags.Errorf(l.Pos, "%s: null fills nothing (remove it)", at)
		return nil, false
	}
	switch t.Kind {
	case ir.KindList:
		et := t.Elem.Resolve()
		if !ir.IsScalar(et.Kind) {
			break
		}
		if l.Kind != ir.LiteralList {
			sc.diags.Errorf(l.Pos, "%s: got %s, want a list", at, literalName(l))
			return nil, false
		}
		if len(l.Items) == 0 {
			sc.diags.Errorf(l.Pos, "%s: an empty list fills nothing (remove it)", at)
			return nil, false
		}
		items := make([]any, 0, len(l.Items))
		ok := true
		for i, item := range l.Items {
			v, good := sc.predefinedValue(item, et, fmt.Sprintf("%s[%d]", at, i), false)
			items, ok = append(items, v), ok && good
		}
		return items, ok
	case ir.KindString, ir.KindInt, ir.KindFloat, ir.KindBool:
		v, want := l.Value, ""
		switch x := v.(type) {
		case string:
			if t.Kind != ir.KindString {
				want = describeKind(t.Kind)
			}
		case int64:
			switch t.Kind {
			case ir.KindFloat:
				v = float64(x)
			case ir.KindInt:
			default:
				want = describeKind(t.Kind)
			}
		case float64:
			if t.Kind != ir.KindFloat {
				want = describeKind(t.Kind)
			}
		case bool:
			if t.Kind != ir.KindBool {
				want = describeKind(t.Kind)
			}
		}
		if l.Kind != ir.LiteralScalar {
			want = describeKind(t.Kind)
		}
		if want != "" {
			sc.diags.Errorf(l.Pos, "%s: got %s, want %s", at, literalName(l), want)
			return nil, false
		}
		if zeroUnset && (v == "" || v == int64(0) || v == 0.0 || v == false) {
			sc.diags.Errorf(l.Pos, "%s: %s is the zero value, which fills nothing (remove it)", at, literalText(v))
			return nil, false
		}
		return v, true
	}
	sc.diags.Errorf(l.Pos, "%s: the variable is %s; predefined values are strings, numbers, booleans or lists of them", at, names.Article(t.String()))
	return nil, false
}

// describeKind names what a value of a scalar kind must be.
func describeKind(k ir.Kind) string {
	switch k {
	case ir.KindString:
		return "a string"
	case ir.KindInt:
		return "an integer"
	case ir.KindFloat:
		return "a number"
	}
	return "true or false"
}

// literalName names what l is, in messages.
func literalName(l *ir.Literal) string {
	switch l.Kind {
	case ir.LiteralList:
		return "a list"
	case ir.LiteralMapping:
		return "a mapping"
	}
	switch l.Value.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a number"
	}
	return "a bool"
}

// literalText shows a zero value as YAML would.
func literalText(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}
