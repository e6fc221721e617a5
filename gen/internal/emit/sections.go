package emit

import (
	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// truncateConsts are runtime's Truncate constants by mode.
var truncateConsts = map[string]string{
	ir.TruncateError: "TruncateError",
	ir.TruncateItems: "TruncateItems",
	ir.TruncateText:  "TruncateText",
}

// emitSections writes the methods of a sectioned prompt (WithTokenizer,
// Sections and the render they share) and returns the body of its
// AppendRender: the head and the sections, each within its budget,
// assembled by runtime.AppendPrompt.
func emitSections(f *jen.File, p *ir.Prompt) []jen.Code {
	feed := jen.Id(p.Feed.Name)
	tokenizer := p.Tokenizer
	f.Comment("WithTokenizer returns a copy of the prompt counting tokens with t instead of")
	f.Comment(tokenizer + ", the tokenizer its file names.")
	f.Func().Params(promptRecv(p, "p")).Id("WithTokenizer").Params(jen.Id("t").Qual(ir.RuntimePath, "Tokenizer")).Op("*").Id(p.TypeName).Block(
		jen.Id("q").Op(":=").Op("*").Id("p"),
		jen.Id("q").Dot("tokenizer").Op("=").Id("t"),
		jen.Return(jen.Op("&").Id("q")),
	)
	f.Comment("Sections renders the sections of the prompt with the variables of f, in")
	f.Comment("order, each within its budget; a section whose when is false is left out.")
	f.Func().Params(promptRecv(p, "p")).Id("Sections").Params(jen.Id("f").Add(feed.Clone())).Params(jen.Index().Qual(ir.RuntimePath, "Section"), jen.Error()).Block(
		jen.List(jen.Id("_"), jen.Id("sections"), jen.Err()).Op(":=").Id("p").Dot("render").Call(jen.Id("f")),
		jen.Return(jen.Id("sections"), jen.Err()),
	)

	index := map[*ir.Prompt]int{}
	for i, part := range p.Parts {
		index[part] = i
	}
	fail := jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Lit(""), jen.Nil(), jen.Err()))
	// renderPart renders part into buf; more are its extra arguments.
	renderPart := func(part *ir.Prompt, more ...jen.Code) []jen.Code {
		args := append([]jen.Code{jen.Id("buf").Index(jen.Empty(), jen.Lit(0)), jen.Id("f")}, more...)
		return []jen.Code{
			jen.List(jen.Id("buf"), jen.Err()).Op("=").Id(partName(p, index[part])).Call(args...),
			fail.Clone(),
		}
	}
	f.Comment("render renders the head and the sections of the prompt.")
	f.Func().Params(promptRecv(p, "p")).Id("render").Params(jen.Id("f").Add(feed.Clone())).Params(jen.String(), jen.Index().Qual(ir.RuntimePath, "Section"), jen.Error()).BlockFunc(func(g *jen.Group) {
		g.Id("tok").Op(":=").Id("p").Dot("tokenizer")
		g.If(jen.Id("tok").Op("==").Nil()).Block(jen.Id("tok").Op("=").Qual(ir.TiktokenPath, ir.Tokenizers[tokenizer]).Call())
		g.Var().Id("buf").Index().Byte()
		g.Var().Err().Error()
		for _, c := range renderPart(p.Head) {
			g.Add(c)
		}
		g.Id("head").Op(":=").String().Call(jen.Id("buf"))
		g.Id("sections").Op(":=").Make(jen.Index().Qual(ir.RuntimePath, "Section"), jen.Lit(0), jen.Lit(len(p.Sections)))
		for _, sec := range p.Sections {
			g.Line().Comment(sec.Name)
			body := sectionCode(sec, renderPart, p.Markers)
			if sec.When == nil {
				g.Block(body...)
				continue
			}
			for _, c := range renderPart(sec.When) {
				g.Add(c)
			}
			g.If(jen.String().Call(jen.Id("buf")).Op("==").Lit("1")).Block(body...)
		}
		g.Return(jen.Id("head"), jen.Id("sections"), jen.Nil())
	})

	return []jen.Code{
		jen.List(jen.Id("head"), jen.Id("sections"), jen.Err()).Op(":=").Id("p").Dot("render").Call(jen.Id("f")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(dst, jen.Err())),
		jen.Return(jen.Qual(ir.RuntimePath, "AppendPrompt").Call(dst, jen.Id("head"), jen.Id("sections"), jen.Lit(p.Markers)), jen.Nil()),
	}
}

// sectionCode renders sec's body and appends the section, within its
// budget, to sections.
func sectionCode(sec *ir.Section, renderPart func(*ir.Prompt, ...jen.Code) []jen.Code, markers bool) []jen.Code {
	in := jen.Dict{
		jen.Id("Name"): jen.Lit(sec.Name),
		jen.Id("Body"): jen.String().Call(jen.Id("buf")),
	}
	if sec.Title != "" {
		in[jen.Id("Title")] = jen.Lit(sec.Title)
	}
	if sec.Budget > 0 {
		in[jen.Id("Budget")] = jen.Lit(sec.Budget)
		in[jen.Id("Truncate")] = jen.Qual(ir.RuntimePath, truncateConsts[sec.Truncate])
	}
	if markers {
		in[jen.Id("Markers")] = jen.True()
	}
	var code []jen.Code
	if sec.Items != nil {
		code = append(code, jen.Var().Id("ends").Index().Int())
		code = append(code, renderPart(sec.Body, jen.Op("&").Id("ends"))...)
		in[jen.Id("Loop")] = jen.Id("ends")
	} else {
		code = renderPart(sec.Body)
	}
	return append(code,
		jen.List(jen.Id("s"), jen.Err()).Op(":=").Qual(ir.RuntimePath, "BuildSection").Call(jen.Id("tok"), jen.Qual(ir.RuntimePath, "SectionInput").Values(in)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Lit(""), jen.Nil(), jen.Err())),
		jen.Id("sections").Op("=").Append(jen.Id("sections"), jen.Id("s")),
	)
}
