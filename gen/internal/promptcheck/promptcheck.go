package promptcheck

import (
	"regexp"

	"github.com/promptgen/promptgen/gen/internal/check"
	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/gen/internal/types"
)

// Prompt parses and checks one prompt and lowers it to IR. It returns
// nil when the prompt has errors. All templates of a prompt (the template,
// the system template, every message's templates) share one feed.
//
// A local set to values of two types, or a literal typed before a later
// use made an element possibly undefined, makes the check fail; it is then
// checked again with those locals and literals dynamic
// (runtime/jinja.Value), on a copy of the declared inputs the first check
// may have changed. A check with more of them dynamic may find more (a
// literal made dynamic makes the local it is set to hold two types), so
// checks go on while each finds a new one, up to maxChecks.
func Prompt(p *ir.PromptSpec, strict bool, diags *diag.Sink) *ir.Prompt {
	var pristine *ir.Type
	if p.Inputs != nil {
		pristine = types.Clone(p.Inputs, map[*ir.Type]*ir.Type{})
	}
	inputs, conf := p.Inputs, check.Config{}
	for n := 1; ; n++ {
		sink := &diag.Sink{}
		x, recheck := checkPrompt(p, inputs, conf, strict, sink)
		if x == nil && len(recheck.Kinds) > 0 && len(conf.Kinds) == 0 {
			// Inputs typed as strings or maps from their first use: kept only
			// where that check passes, else its messages would be of a
			// type the template did not ask for first.
			try := conf
			try.Kinds = recheck.Kinds
			sink := &diag.Sink{}
			in := inputs
			if pristine != nil {
				// The first check inferred the fields of the declared
				// objects with no properties: they are inferred again.
				in = types.Clone(pristine, map[*ir.Type]*ir.Type{})
			}
			if x, _ := checkPrompt(p, in, try, strict, sink); x != nil {
				diags.List = append(diags.List, sink.List...)
				return x
			}
			// Else they keep the kinds of their first use, where a use
			// as a string is what Jinja2 does with that kind.
			try.Kinds, try.FirstKinds = nil, true
			sink = &diag.Sink{}
			if pristine != nil {
				in = types.Clone(pristine, map[*ir.Type]*ir.Type{})
			}
			if x, _ := checkPrompt(p, in, try, strict, sink); x != nil {
				diags.List = append(diags.List, sink.List...)
				return x
			}
		}
		more, grew := conf.Add(recheck)
		if x != nil || !grew || n == maxChecks {
			diags.List = append(diags.List, sink.List...)
			return x
		}
		if pristine != nil {
			inputs = types.Clone(pristine, map[*ir.Type]*ir.Type{})
		}
		conf = more
	}
}

// maxChecks bounds the checks of one prompt (see Prompt).
const maxChecks = 4

// checkPrompt is Prompt with inputs as the declared feed and the locals
// and literals that conf names dynamic. It returns those it found only a
// dynamic value can hold (check.Checker.Recheck).
func checkPrompt(p *ir.PromptSpec, inputs *ir.Type, conf check.Config, strict bool, diags *diag.Sink) (*ir.Prompt, check.Config) {
	feed := inputs
	switch {
	case p.Chat:
		feed = check.ChatFeed()
	case feed == nil:
		feed = &ir.Type{Kind: ir.KindStruct}
	}
	before := len(diags.List)
	c := check.NewChecker(p, feed, conf, diags)
	irp := ir.NewPrompt(p, feed)
	parsed := true
	part := func(t *ir.TemplateSpec) *ir.Prompt {
		if t == nil {
			return nil
		}
		x := checkPart(c, p, t.Text, t.Map, false, diags)
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
				if x.When = when(c, sec.When, diags); x.When == nil {
					parsed = false
				} else {
					irp.Parts = append(irp.Parts, x.When)
				}
			}
			irp.Sections = append(irp.Sections, x)
		}
	case p.Messages == nil:
		main := checkPart(c, p, p.Template, p.Map, !p.Fragment, diags)
		if main == nil {
			return nil, c.Recheck()
		}
		irp.Body, irp.Locals, irp.Funcs, irp.NumLocals, irp.StaticSize = main.Body, main.Locals, main.Funcs, main.NumLocals, main.StaticSize
	default:
		irp.IsMessages = true
		for _, m := range p.Messages {
			im := &ir.Message{Role: m.Role, Content: part(m.Content), Name: part(m.Name), ToolCallID: part(m.ToolCallID), Data: part(m.Data)}
			for _, tc := range m.ToolCalls {
				im.ToolCalls = append(im.ToolCalls, [3]*ir.Prompt{part(tc.ID), part(tc.Name), part(tc.Arguments)})
			}
			for _, cp := range m.Parts {
				if in := imageInput(feed, cp); in != nil && ir.IsImage(in.Type) {
					c.Used[in] = true
					im.Parts = append(im.Parts, ir.Part{Image: true, Detail: cp.Detail, Input: in, Pos: cp.Template.Pos})
					continue
				}
				im.Parts = append(im.Parts, ir.Part{Image: cp.Image, Detail: cp.Detail, Text: part(cp.Template)})
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
		return nil, c.Recheck()
	}
	for i, sec := range irp.Sections {
		itemsLoop(sec, p.Sections[i], diags)
	}
	if strict && p.Inputs == nil && !p.Chat {
		diags.Errorf(p.Pos, "prompt %q declares no inputs (-strict requires them)", p.Key)
	}
	if !check.Finish([]*check.Checker{c}, feed, diags) {
		return nil, c.Recheck()
	}
	for _, m := range p.Messages {
		for _, cp := range m.Parts {
			imageVariable(feed, cp, diags)
		}
	}
	for _, b := range append([]*ir.Prompt{irp}, irp.Parts...) {
		check.ClearDynamicUndefined(b)
	}
	if p.Chat {
		check.ChatOptional(feed)
	}
	if feed.Declared {
		for _, f := range feed.Fields {
			if !c.Used[f] {
				diags.Warnf(f.Pos, "input %q is declared but not used by the template", f.Key)
			}
		}
	}
	check.Allowed(p.Variables, feed, c.Used, diags)
	if diags.List[before:].HasErrors() {
		return nil, c.Recheck()
	}
	return irp, c.Recheck()
}

// checkPart parses one template of p and checks it with c (clock: see
// check.Checker.Template); it returns nil when the template does not
// parse.
func checkPart(c *check.Checker, p *ir.PromptSpec, text string, m src.SourceMap, clock bool, diags *diag.Sink) *ir.Prompt {
	t := check.Parse(p, text, m, diags)
	if t == nil {
		return nil
	}
	return c.Template(t, m, clock)
}

// printedName matches a template that prints one variable and nothing
// else, capturing its name.
var printedName = regexp.MustCompile(`^\{\{-?\s*([\p{L}_][\p{L}\p{N}_]*)\s*-?\}\}$`)

// imageInput returns the feed variable that image part cp prints whole
// ("{{ photo }}"), or nil.
func imageInput(feed *ir.Type, cp *ir.PartSpec) *ir.Field {
	if !cp.Image {
		return nil
	}
	m := printedName.FindStringSubmatch(cp.Template.Text)
	if m == nil {
		return nil
	}
	return feed.Field(m[1])
}

// imageVariable reports an image part that prints a variable whose type,
// now final, is neither an image nor a string: its text is no image URL.
func imageVariable(feed *ir.Type, cp *ir.PartSpec, diags *diag.Sink) {
	in := imageInput(feed, cp)
	if in == nil {
		return
	}
	switch t := in.Type.Resolve(); {
	case ir.IsImage(t), t.Kind == ir.KindString, t.Kind == ir.KindUnknown:
	default:
		diags.Errorf(cp.Template.Pos, "the image part prints %q of type %s: want an image input (%s: image) or a string holding the image's URL",
			in.Key, t, in.Key)
	}
}
