package check

import (
	"slices"

	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/schema"
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
		inputs = cloneType(p.Inputs, map[*ir.Type]*ir.Type{})
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
	finalize(feed)
	c.checkNoDicts(feed)
	for _, b := range bodies {
		ir.Walk(b.Body, finalizeExpr)
		for _, l := range b.Locals {
			finalize(l.T)
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
	checkAllowed(p.Variables, feed, c.used, diags)
	if hasErrorsSince(diags, before) {
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

// checkAllowed reports the feed variables that `variables: allowed` does
// not list, as warnings or, with `unknown: error`, errors.
func checkAllowed(v *ir.VariablesSpec, feed *ir.Type, used map[*ir.Field]bool, diags *diag.Sink) {
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

func hasErrorsSince(diags *diag.Sink, n int) bool {
	for _, d := range diags.List[n:] {
		if d.Severity == diag.SeverityError {
			return true
		}
	}
	return false
}
