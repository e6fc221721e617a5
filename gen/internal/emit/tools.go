package emit

import (
	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// This file writes tools: once per package, each tool's argument types,
// schema, checks and parser, its runtime.Tool and its call type; on each
// prompt that declares tools, the interface of their calls, Tools and
// ParseToolCall.

// emitTool writes tool t in the package file.
func emitTool(f *jen.File, t *ir.Tool) {
	o := t.Args
	for _, ot := range o.Types {
		emitOutType(o, f, ot)
	}
	owner := "the " + t.Spec.Name + " tool"
	emitSchema(f, o, "parameters", owner, "arguments")
	f.Comment(o.ParserVar + " reads the arguments of calls of " + owner + " for ParseToolCall.")
	emitParser(f, o)
	f.Comment(t.Var + " is " + owner + ", as Request sends it.")
	f.Var().Id(t.Var).Op("=").Qual(ir.RuntimePath, "Tool").Values(jen.DictFunc(func(d jen.Dict) {
		d[jen.Id("Name")] = jen.Lit(t.Spec.Name)
		if t.Spec.Description != "" {
			d[jen.Id("Description")] = jen.Lit(t.Spec.Description)
		}
		d[jen.Id("Parameters")] = jen.Qual(jsonPath, "RawMessage").Call(jen.Id(o.SchemaVar + "JSON"))
		if t.Spec.Strict {
			d[jen.Id("Strict")] = jen.True()
		}
	}))
	f.Line()
	f.Comment(t.Call + " is a call of " + owner + ": the id the model gave it and its arguments.")
	f.Type().Id(t.Call).Struct(
		jen.Id("ID").String(),
		jen.Id("Args").Id(o.Name),
	)
	f.Line()
}

// emitToolMethods writes, for a prompt or set with tools d, the interface
// of their calls, and Tools and ParseToolCall methods on recv; owner
// names it in comments ("the summarize prompt").
func emitToolMethods(f *jen.File, recv jen.Code, owner string, d *ir.DeclaredTools) {
	if len(d.Tools) == 0 {
		return
	}
	p := d
	marker := "is" + p.ToolCall
	var names []jen.Code
	for _, t := range p.Tools {
		names = append(names, jen.Lit(t.Spec.Name))
	}
	f.Comment(p.ToolCall + " is a call of one of the tools of " + owner + ", which")
	f.Comment("ParseToolCall returns; switch on its type:")
	for _, t := range p.Tools {
		f.Comment("  " + t.Call + " (" + t.Spec.Name + ")")
	}
	f.Type().Id(p.ToolCall).Interface(jen.Id(marker).Params())
	f.Line()
	for _, t := range p.Tools {
		f.Func().Params(jen.Id(t.Call)).Id(marker).Params().Block()
		f.Line()
	}
	f.Comment("Tools returns the tools of " + owner + ", as a request sends them.")
	f.Func().Params(recv).Id("Tools").Params().Index().Qual(ir.RuntimePath, "Tool").Block(
		jen.Return(jen.Index().Qual(ir.RuntimePath, "Tool").ValuesFunc(func(g *jen.Group) {
			for _, t := range p.Tools {
				g.Id(t.Var)
			}
		})))
	f.Line()
	f.Comment("ParseToolCall reads a call of one of the tools. Its arguments are read as")
	f.Comment("ParseOutput reads an answer: leniently, led by the tool's parameters, unless opts")
	f.Comment("say output.Strict(); output.Fixes(&fixes) receives the repairs. Empty arguments")
	f.Comment("are an empty object. A call of another tool is a *runtime.UnknownToolError.")
	call := jen.Id("c")
	f.Func().Params(recv).Id("ParseToolCall").
		Params(call.Clone().Qual(ir.RuntimePath, "ToolCall"), jen.Id("opts").Op("...").Qual(ir.OutputPath, "ParseOption")).
		Params(jen.Id(p.ToolCall), jen.Error()).
		Block(
			jen.Id("args").Op(":=").Qual(ir.OutputPath, "ToolArguments").Call(call.Clone().Dot("Arguments")),
			jen.Switch(call.Clone().Dot("Name")).BlockFunc(func(g *jen.Group) {
				for _, t := range p.Tools {
					g.Case(jen.Lit(t.Spec.Name)).Block(
						jen.List(jen.Id("v"), jen.Err()).Op(":=").Qual(ir.OutputPath, "ParseWith").Types(jen.Id(t.Args.Name)).
							Call(jen.Id(t.Args.ParserVar), jen.Id("args"), jen.Id("opts").Op("...")),
						jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
						jen.Return(jen.Id(t.Call).Values(jen.Dict{jen.Id("ID"): call.Clone().Dot("ID"), jen.Id("Args"): jen.Id("v")}), jen.Nil()),
					)
				}
			}),
			jen.Return(jen.Nil(), jen.Op("&").Qual(ir.RuntimePath, "UnknownToolError").Values(jen.Dict{
				jen.Id("Name"):  call.Clone().Dot("Name"),
				jen.Id("Tools"): jen.Index().String().Values(names...),
			})),
		)
	f.Line()
}
