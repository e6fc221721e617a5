package emit

import (
	"slices"
	"strconv"

	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// roleConsts are runtime's Role constants by role name.
var roleConsts = map[string]string{
	"system":       "RoleSystem",
	"user":         "RoleUser",
	"assistant":    "RoleAssistant",
	"tool_request": "RoleToolRequest",
	"tool_result":  "RoleToolResult",
}

// emitParts writes one function per part of p (the head, a section, a
// system or message template): _<Name>_part<i>(dst, f) appends the rendered
// template to dst, like AppendRender. The part of a `truncate: items`
// section also appends to *ends where its loop starts and each iteration ends.
func emitParts(f *jen.File, p *ir.Prompt, renderBody Body) {
	for i, part := range p.Parts {
		part.Name = partName(p, i)
		part.TypeName = p.TypeName
		body := renderBody(f, part)
		params := []jen.Code{dst.Clone().Index().Byte(), jen.Id("f").Id(p.Feed.Name)}
		if part.ItemEnds {
			params = append(params, jen.Id("ends").Op("*").Index().Int())
		}
		f.Comment(part.Name + " appends template " + strconv.Itoa(i) + " of the " + p.Key + " prompt to dst.")
		f.Func().Id(part.Name).Params(params...).Params(jen.Index().Byte(), jen.Error()).Block(body...)
	}
}

func partName(p *ir.Prompt, i int) string { return "_" + p.Name + "_part" + strconv.Itoa(i) }

// emitMessages writes Messages, which builds the prompt's message list
// from its templates: each template renders into its own message field,
// so a variable's value can never open, close or reorder a message.
func emitMessages(f *jen.File, p *ir.Prompt) {
	// The parts the messages print, in order; a sectioned prompt's others
	// render through Render.
	var parts []*ir.Prompt
	for _, m := range p.Messages {
		ts := []*ir.Prompt{m.Content, m.Name, m.ToolCallID, m.Data}
		for _, c := range m.ToolCalls {
			ts = append(ts, c[:]...)
		}
		for _, cp := range m.Parts {
			ts = append(ts, cp.Text)
		}
		for _, part := range ts {
			if part != nil {
				parts = append(parts, part)
			}
		}
	}
	index := map[*ir.Prompt]int{}
	for i, part := range p.Parts {
		index[part] = i
	}
	str := func(part *ir.Prompt) jen.Code { return jen.Id("s" + strconv.Itoa(index[part])) }
	f.Comment("Messages renders the prompt with the variables of f as a message list and")
	if p.IsMessages {
		f.Comment("validates it. Every message comes from an entry of the file's messages; a")
		f.Comment("variable's value stays inside the message whose template prints it.")
	} else if len(p.Messages) > 1 {
		f.Comment("validates it: the system template as the system message, then the rendered")
		f.Comment("prompt as one user message.")
	} else {
		f.Comment("validates it: the rendered prompt as one user message.")
	}
	f.Func().Params(promptRecv(p, "p")).Id("Messages").Params(jen.Id("f").Id(p.Feed.Name)).Params(
		jen.Qual(ir.RuntimePath, "Prompt"), jen.Error()).BlockFunc(func(g *jen.Group) {
		if !p.IsMessages && len(p.Messages) == 1 && renderedUserMessage(p.Messages[0]) {
			g.Return(jen.Qual(ir.RuntimePath, "UserPrompt").Call(jen.Id("p").Dot("Render").Call(jen.Id("f"))))
			return
		}
		if len(parts) > 0 {
			g.Var().Id("buf").Index().Byte()
			g.Var().Err().Error()
		}
		for _, part := range parts {
			i := index[part]
			g.List(jen.Id("buf"), jen.Err()).Op("=").Id(partName(p, i)).Call(jen.Id("buf").Index(jen.Empty(), jen.Lit(0)), jen.Id("f"))
			g.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
			g.Id("s" + strconv.Itoa(i)).Op(":=").String().Call(jen.Id("buf"))
		}
		for i, m := range p.Messages {
			if builtParts(m) {
				emitPartsList(g, p, partsName(i), m.Parts, str)
			}
			if m.FromRender {
				g.List(jen.Id("text"), jen.Id("err")).Op(":=").Id("p").Dot("Render").Call(jen.Id("f"))
				g.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
			}
		}
		g.Id("msgs").Op(":=").Qual(ir.RuntimePath, "Prompt").ValuesFunc(func(g *jen.Group) {
			for i, m := range p.Messages {
				var d []jen.Code
				kv := func(k string, v jen.Code) { d = append(d, jen.Line().Id(k).Op(":").Add(v)) }
				kv("Role", jen.Qual(ir.RuntimePath, roleConsts[m.Role]))
				switch {
				case m.FromRender:
					kv("Content", jen.Id("text"))
				case m.Content != nil:
					kv("Content", str(m.Content))
				}
				if m.Name != nil {
					kv("Name", str(m.Name))
				}
				if m.ToolCallID != nil {
					kv("ToolCallID", str(m.ToolCallID))
				}
				if m.Data != nil {
					kv("Data", jen.Qual("encoding/json", "RawMessage").Call(str(m.Data)))
				}
				if builtParts(m) {
					kv("Parts", jen.Id(partsName(i)))
				} else if len(m.Parts) > 0 {
					kv("Parts", jen.Index().Qual(ir.RuntimePath, "Part").ValuesFunc(func(g *jen.Group) {
						for _, cp := range m.Parts {
							g.Line().Add(partCode(cp, str))
						}
						g.Line()
					}))
				}
				if len(m.ToolCalls) > 0 {
					kv("ToolCalls", jen.Index().Qual(ir.RuntimePath, "ToolCall").ValuesFunc(func(g *jen.Group) {
						for _, c := range m.ToolCalls {
							g.Line().Values(jen.Id("ID").Op(":").Add(str(c[0])), jen.Id("Name").Op(":").Add(str(c[1])), jen.Id("Arguments").Op(":").Add(str(c[2])))
						}
						g.Line()
					}))
				}
				d = append(d, jen.Line())
				g.Line().Values(d...)
			}
			g.Line()
		})
		g.If(jen.Err().Op(":=").Id("msgs").Dot("Validate").Call(), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Id("msgs"), jen.Err()))
		g.Return(jen.Id("msgs"), jen.Nil())
	})
}

// renderedUserMessage reports whether m is a user message whose content is
// the prompt's Render and nothing else, which runtime.UserPrompt builds.
func renderedUserMessage(m *ir.Message) bool {
	return m.FromRender && m.Role == "user" && m.Name == nil && m.ToolCallID == nil && m.Data == nil &&
		len(m.ToolCalls) == 0 && len(m.Parts) == 0
}

// builtParts reports whether the parts of m are built by emitPartsList
// rather than written as a literal: when an image has a detail or comes
// from an image input.
func builtParts(m *ir.Message) bool {
	return slices.ContainsFunc(m.Parts, func(cp ir.Part) bool { return cp.Detail != "" || cp.Input != nil })
}

// partCode is a part without detail: runtime.TextPart or runtime.ImagePart
// of its rendered template.
func partCode(cp ir.Part, str func(*ir.Prompt) jen.Code) jen.Code {
	constructor := "TextPart"
	if cp.Image {
		constructor = "ImagePart"
	}
	return jen.Qual(ir.RuntimePath, constructor).Call(str(cp.Text))
}

func partsName(i int) string { return "parts" + strconv.Itoa(i) }

// emitPartsList appends the content parts to a new slice named name: an
// image input's images and an image with a detail through
// runtime.ImageParts, which copies them and sets the detail; an optional
// image input when it is set. A required one left unset is an error at its
// part, as a template's variable is.
func emitPartsList(g *jen.Group, p *ir.Prompt, name string, parts []ir.Part, str func(*ir.Prompt) jen.Code) {
	g.Var().Id(name).Index().Qual(ir.RuntimePath, "Part")
	appendImages := func(detail string, images jen.Code) jen.Code {
		return jen.Id(name).Op("=").Append(jen.Id(name), jen.Qual(ir.RuntimePath, "ImageParts").Call(jen.Lit(detail), images).Op("..."))
	}
	for _, cp := range parts {
		switch {
		case cp.Input != nil:
			in := func() *jen.Statement { return jen.Id("f").Dot(cp.Input.GoName) }
			missing := jen.Return(jen.Nil(), missingError(p, cp.Pos.String(), cp.Input.Key))
			switch {
			case cp.Input.Type.Resolve().Kind == ir.KindList:
				if !cp.Input.Optional {
					g.If(in().Op("==").Nil()).Block(missing)
				}
				g.Add(appendImages(cp.Detail, in().Op("...")))
			case cp.Input.Optional:
				g.If(in().Op("!=").Nil()).Block(appendImages(cp.Detail, jen.Op("*").Add(in())))
			default:
				g.If(in().Op("==").Parens(jen.Qual(ir.RuntimePath, "Image").Values())).Block(missing)
				g.Add(appendImages(cp.Detail, in()))
			}
		case cp.Detail != "":
			g.Add(appendImages(cp.Detail, jen.Qual(ir.RuntimePath, "ImageFromURL").Call(str(cp.Text))))
		default:
			g.Id(name).Op("=").Append(jen.Id(name), partCode(cp, str))
		}
	}
}
