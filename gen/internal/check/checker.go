package check

import (
	"fmt"
	"slices"

	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/names"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
	"github.com/promptgen/promptgen/schema"
)

// checker types one prompt's template: it infers the feed's types from use
// (or checks uses against declared inputs) and builds the IR.
type checker struct {
	diags  *diag.Sink
	p      *ir.PromptSpec
	ir     *ir.Prompt
	feed   *ir.Type
	scopes []*scope
	// later holds checks that need final types; they run after inference.
	later []func()
	// uses records each feed variable's first use, for unused-input warnings.
	used map[*ir.Field]bool
	tmp  int
	// inSet is the template set of the body checked, nil for a prompt file.
	inSet *InSet
	// m locates the template checked when it is not p.Map: a system or
	// message template.
	m *src.SourceMap
	// consumed are the calls whose result only their consumer can use:
	// map(attribute=) under a join.
	consumed map[*ir.Call]bool
	// assigned says, at the point checked, whether each local of the
	// frames entered has been assigned since its frame started.
	assigned map[*ir.Local]assignState
	// iterated are the results of unique, map and select/reject, Jinja2's generators,
	// that their consumer iterates: the only use a generator has.
	iterated map[ir.Expr]bool
	// rejected are the stand-ins for expressions reported as unsupported,
	// whose uses are not reported again.
	rejected map[ir.Expr]bool
	// loopIter is the iterable of the for loop checked last: items() and
	// keys() are supported there only.
	loopIter tmpl.Expr
	// sets are the checked sets with a value, for markUndefined, and
	// markupLocals the locals they may assign a Markup value, computed from
	// them (see markup).
	sets         []*ir.Set
	markupLocals map[*ir.Local]bool
	// safe are the results of the filter safe, Markup.
	safe map[ir.Expr]bool
	// checked are the expressions checked already that a construct checks
	// as part of others (m.get(k) as m[k] if k in m else none).
	checked map[tmpl.Expr]ir.Expr
	// namespaces are the locals set to namespace(...), and loopExits what
	// is assigned at each loop control of a loop (see loopControl).
	namespaces map[*ir.Local]*namespace
	loopExits  map[*ir.For][]map[*ir.Local]assignState
	// clock is set while the template of a prompt file is checked, the
	// only one whose Render takes the clock of strftime_now.
	clock  bool
	macros macros
	// rebinding collects the locals set to values of two types; rebound
	// holds those of a previous check, which are dynamic this time.
	rebinding, rebound map[string]bool
	// setBefore are the locals a set checked so far assigns.
	setBefore map[*ir.Local]bool
}

const (
	unassigned assignState = iota
	maybeAssigned
	assigned
)

func (c *checker) pos(sp tmpl.Span) src.Pos {
	if c.m != nil {
		return c.m.Pos(sp.Start)
	}
	return c.p.Map.Pos(sp.Start)
}

func (c *checker) posString(sp tmpl.Span) string { return c.pos(sp).String() }

func (c *checker) errorf(sp tmpl.Span, format string, args ...any) {
	if n := len(c.macros.calling); n > 0 {
		at := c.pos(c.macros.calls[n-1])
		format += fmt.Sprintf(" (in the call of macro %q at %d:%d)", c.macros.calling[n-1], at.Line, at.Col)
	}
	c.diags.Errorf(c.pos(sp), format, args...)
}

// failedAt reports whether an error was already reported at sp, after
// which the types there tell nothing more.
func (c *checker) failedAt(sp tmpl.Span) bool { return c.failedAtPos(c.pos(sp)) }

// failedAtPos reports whether an error was reported at pos.
func (c *checker) failedAtPos(pos src.Pos) bool {
	for _, d := range c.diags.List {
		if d.Pos == pos && d.Severity == diag.SeverityError {
			return true
		}
	}
	return false
}

// newLocal makes a Go local named after name, which the template cannot
// see until it is bound with local.
func (c *checker) newLocal(name string, t *ir.Type) *ir.Local {
	c.tmp++
	goName, ok := names.Unexported(name)
	if !ok {
		goName = "v"
	}
	return &ir.Local{Name: name, GoName: fmt.Sprintf("%s_%d", goName, c.tmp), T: t}
}

// localType is the type a new local named name starts with: dynamic when
// the template sets it to values of several types, or when it is a chat
// context's dynamic variable.
func (c *checker) localType(name string) *ir.Type {
	if c.rebound[name] {
		return ir.DynamicType()
	}
	if f := c.feed.Field(name); f != nil && f.Chat && f.Type.Resolve().Kind == ir.KindDynamic {
		// A chat template that sets tools or documents ({% set tools = [] %})
		// sets a default for the data: a dynamic value, as the data is.
		return ir.DynamicType()
	}
	return &ir.Type{}
}

const (
	useValue use = iota
	usePrint
	useTest
)

// Prompt parses and checks one prompt and lowers it to IR. It returns
// nil when the prompt has errors. All templates of a prompt (the template,
// the system template, every message's templates) share one feed.
//
// A local set to values of two types makes the check fail; it is then
// checked again with those locals dynamic (runtime/jinja.Value), on a
// copy of the declared inputs the first check may have changed.
func Prompt(p *ir.PromptSpec, strict bool, diags *diag.Sink) *ir.Prompt {
	var inputs *ir.Type
	if p.Inputs != nil {
		inputs = types.Clone(p.Inputs, map[*ir.Type]*ir.Type{})
	}
	first := &diag.Sink{}
	x, rebinding := checkPrompt(p, p.Inputs, nil, strict, first)
	if x != nil || len(rebinding) == 0 {
		diags.List = append(diags.List, first.List...)
		return x
	}
	x, _ = checkPrompt(p, inputs, rebinding, strict, diags)
	return x
}

// checkPrompt is Prompt with inputs as the declared feed and the locals
// named in rebound dynamic. It returns the locals it found set to values
// of two types.
func checkPrompt(p *ir.PromptSpec, inputs *ir.Type, rebound map[string]bool, strict bool, diags *diag.Sink) (*ir.Prompt, map[string]bool) {
	feed := inputs
	switch {
	case p.Chat:
		feed = chatFeed()
	case feed == nil:
		feed = &ir.Type{Kind: ir.KindStruct}
	}
	before := len(diags.List)
	c := &checker{diags: diags, p: p, feed: feed, used: map[*ir.Field]bool{}, setBefore: map[*ir.Local]bool{}, rebinding: map[string]bool{}, rebound: rebound}
	irp := ir.NewPrompt(p, feed)
	parsed := true
	part := func(t *ir.TemplateSpec) *ir.Prompt {
		if t == nil {
			return nil
		}
		x := c.part(t.Text, t.Map)
		if x == nil {
			parsed = false
			return nil
		}
		irp.Parts = append(irp.Parts, x)
		return x
	}
	switch {
	case p.Sections != nil:
		irp.Head = part(&ir.TemplateSpec{Text: p.Template, Map: p.Map})
		for _, sec := range p.Sections {
			x := ir.NewSection(sec, part(sec.Template))
			if sec.When != nil {
				if x.When = c.when(sec.When); x.When == nil {
					parsed = false
				} else {
					irp.Parts = append(irp.Parts, x.When)
				}
			}
			irp.Sections = append(irp.Sections, x)
		}
	case p.Messages == nil:
		c.clock = !p.Fragment
		main := c.part(p.Template, p.Map)
		c.clock = false
		if main == nil {
			return nil, c.rebinding
		}
		irp.Body, irp.Locals, irp.NumLocals, irp.StaticSize = main.Body, main.Locals, main.NumLocals, main.StaticSize
	default:
		irp.IsMessages = true
		for _, m := range p.Messages {
			im := &ir.Message{Role: m.Role, Content: part(m.Content), Name: part(m.Name), ToolCallID: part(m.ToolCallID), Data: part(m.Data)}
			for _, tc := range m.ToolCalls {
				im.ToolCalls = append(im.ToolCalls, [3]*ir.Prompt{part(tc.ID), part(tc.Name), part(tc.Arguments)})
			}
			for _, cp := range m.Parts {
				im.Parts = append(im.Parts, ir.Part{Image: cp.Image, Text: part(cp.Template)})
			}
			irp.Messages = append(irp.Messages, im)
		}
	}
	if !irp.IsMessages {
		if p.System != nil {
			irp.Messages = append(irp.Messages, &ir.Message{Role: "system", Content: part(p.System)})
		}
		irp.Messages = append(irp.Messages, &ir.Message{Role: "user", FromRender: true})
	}
	if !parsed {
		return nil, c.rebinding
	}
	for i, sec := range irp.Sections {
		c.itemsLoop(sec, p.Sections[i])
	}
	if strict && p.Inputs == nil && !p.Chat {
		diags.Errorf(p.Pos, "prompt %q declares no inputs (-strict requires them)", p.Key)
	}
	c.ir = irp
	bodies := append([]*ir.Prompt{irp}, irp.Parts...)
	if !checkTypeDepth(p, feed, bodies, diags) {
		return nil, c.rebinding
	}
	types.Finalize(feed)
	c.checkNoDicts(feed)
	for _, b := range bodies {
		ir.Walk(b.Body, types.FinalizeExpr)
		for _, l := range b.Locals {
			types.Finalize(l.T)
		}
	}
	c.markUndefined()
	for _, f := range c.later {
		f()
	}
	for _, b := range bodies {
		clearDynamicUndefined(b.Locals, b.Body)
	}
	if p.Chat {
		chatOptional(feed)
	}
	if feed.Declared {
		for _, f := range feed.Fields {
			if !c.used[f] {
				diags.Warnf(f.Pos, "input %q is declared but not used by the template", f.Key)
			}
		}
	}
	Allowed(p.Variables, feed, c.used, diags)
	if diags.List[before:].HasErrors() {
		return nil, c.rebinding
	}
	return irp, c.rebinding
}

// part parses and checks one template of the prompt with the checker's
// feed; it returns nil when the template does not parse.
func (c *checker) part(text string, m src.SourceMap) *ir.Prompt {
	t, err := tmpl.Parse(text, c.p.Jinja)
	if err != nil {
		if e, ok := err.(*tmpl.Error); ok {
			c.diags.Errorf(m.Pos(e.Span.Start), "%s", e.Msg)
		} else {
			c.diags.Errorf(c.p.Pos, "%v", err)
		}
		return nil
	}
	return c.lowerPart(t, m)
}

// lowerPart checks a parsed template of the prompt with the checker's feed.
func (c *checker) lowerPart(t *tmpl.Template, m src.SourceMap) *ir.Prompt {
	x := ir.NewPrompt(c.p, c.feed)
	c.ir, c.m = x, &m
	defer func() { c.m = nil }()
	c.template(t.Body, x)
	x.NumLocals = c.tmp
	return x
}

// Allowed reports the feed variables that `variables: allowed` does
// not list, as warnings or, with `unknown: error`, errors.
func Allowed(v *ir.VariablesSpec, feed *ir.Type, used map[*ir.Field]bool, diags *diag.Sink) {
	if v == nil {
		return
	}
	for _, f := range feed.Fields {
		if feed.Declared && !used[f] || slices.Contains(v.Allowed, f.Key) {
			continue
		}
		report := diags.Warnf
		if v.Error {
			report = diags.Errorf
		}
		report(f.Pos, "variable %q is not in variables.allowed%s", f.Key, schema.DidYouMean(f.Key, v.Allowed))
	}
}

// constrain makes t of kind k (types.Constrain), reporting a mismatch at sp.
func (c *checker) constrain(t *ir.Type, k ir.Kind, sp tmpl.Span) {
	if err := types.Constrain(t, k); err != nil {
		c.errorf(sp, "%v", err)
	}
}

// unify makes a and b one type (types.Unify), reporting mismatches at sp.
func (c *checker) unify(a, b *ir.Type, sp tmpl.Span) { c.mismatches(sp, types.Unify(a, b)) }

// unifyWeak relates the operands of a comparison (types.UnifyWeak),
// reporting mismatches at sp.
func (c *checker) unifyWeak(a, b *ir.Type, sp tmpl.Span) { c.mismatches(sp, types.UnifyWeak(a, b)) }

func (c *checker) mismatches(sp tmpl.Span, errs []error) {
	for _, err := range errs {
		c.errorf(sp, "%v", err)
	}
}
