package emit

import (
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/goemit"
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// PromptFile returns the file for one prompt; everything but the body
// of AppendRender is the same for every backend.
func PromptFile(importPath, pkg string, p *ir.Prompt, body Body) *jen.File {
	f := newSourceFile(importPath, pkg, p.Path)
	importGoTypes(f, p.Feed)
	importGoFilters(f, p.Filters)
	f.ImportName(ir.OutputPath, "output")
	f.ImportName(ir.YAMLOutPath, "yamlout")
	f.ImportName(ir.ParamsPath, "params")
	for _, t := range p.Structs {
		emitStruct(f, p, t)
	}
	emitTypes(f, p)
	emitPrompt(f, p, body)
	emitRequest(f, p)
	emitMethods(f, p)
	emitToolMethods(f, promptRecv(p, ""), "the "+p.Key+" prompt", &p.DeclaredTools)
	return f
}

func fieldDoc(g *jen.Group, fld *ir.Field) {
	if fld.Description == "" {
		return
	}
	lines := strings.Split(strings.TrimRight(fld.Description, "\n"), "\n")
	lines[0] = fld.GoName + ": " + lines[0]
	for _, l := range lines {
		g.Comment(l)
	}
}

func emitStruct(f *jen.File, p *ir.Prompt, t *ir.Type) {
	noun := " prompt."
	if p.Fragment {
		noun = " fragment."
	}
	if t == p.Feed {
		docLines(f, t.Name+" holds the variables of the "+p.Key+noun)
	} else {
		docLines(f, t.Name+" is an object in the variables of the "+p.Key+noun)
	}
	f.Type().Id(t.Name).StructFunc(func(g *jen.Group) {
		if t == p.Feed && p.Chat {
			embedChatContext(g)
		}
		for _, fld := range t.Fields {
			if fld.Chat {
				continue
			}
			fieldDoc(g, fld)
			g.Id(fld.GoName).Add(goemit.GoType(fld.Type, fld.Optional && ir.IsPointerKind(fld.Type))).Tag(feedFieldTag(fld))
		}
	})
	emitValidate(f, p, t)
}

// embedChatContext embeds runtime/chat.Context in a chat template's feed.
func embedChatContext(g *jen.Group) {
	g.Comment("Context is the chat context: messages, tools, documents,")
	g.Comment("add_generation_prompt and the special tokens.")
	g.Qual(ir.ChatPath, "Context")
}

// feedFieldTag returns the tags of a field of a prompt's feed or of a type
// nested in it: its JSON name, and promptgen:"required" when the prompt
// requires it. promptgen vet (package vet) reads that tag from the types
// alone, as export data has tags but no comments, to report literals that
// leave a required field unset.
func feedFieldTag(fld *ir.Field) map[string]string {
	tag := map[string]string{"json": fld.Key}
	if fld.Optional {
		tag["json"] += ",omitempty"
	} else {
		tag["promptgen"] = "required"
	}
	return tag
}

// emitValidate writes Validate, which reports every required variable
// left unset, so a caller can check a feed before rendering.
func emitValidate(f *jen.File, p *ir.Prompt, t *ir.Type) {
	f.Comment("Validate reports every required variable of " + t.Name + " that is left unset.")
	checks := validateChecks(p, t)
	f.Func().Params(jen.Id("x").Op("*").Id(t.Name)).Id("Validate").Params().Error().BlockFunc(func(g *jen.Group) {
		if len(checks) == 0 {
			g.Return(jen.Nil()) // nothing required, nothing nested to validate
			return
		}
		g.Var().Id("v").Qual(ir.RuntimePath, "Problems")
		for _, c := range checks {
			g.Add(c)
		}
		g.Return(jen.Id("v").Dot("Err").Call())
	})
}

// validateChecks returns the statements of t's Validate that record in v
// each required field left unset and the errors of each nested object's
// Validate.
func validateChecks(p *ir.Prompt, t *ir.Type) (checks []jen.Code) {
	for _, fld := range t.Fields {
		if fld.Chat {
			continue // chat.Context: any conversation renders
		}
		acc := jen.Id("x").Dot(fld.GoName)
		require := func(set jen.Code) {
			checks = append(checks, jen.Id("v").Dot("Require").Call(set, jen.Lit(p.Key), jen.Lit(fld.Pos.String()), jen.Lit(fld.Key)))
		}
		ft := fld.Type.Resolve()
		if !fld.Optional {
			switch ft.Kind {
			case ir.KindString:
				require(acc.Clone().Op("!=").Lit(""))
			case ir.KindList, ir.KindMap:
				require(acc.Clone().Op("!=").Nil())
			case ir.KindImage:
				require(acc.Clone().Op("!=").Parens(jen.Qual(ir.RuntimePath, "Image").Values()))
			}
		}
		nested := jen.Id("v").Dot("Nested").Call(acc.Clone().Dot("Validate").Call(), jen.Lit(fld.Key))
		switch {
		case ir.ValidatedElem(ft) == nil:
			// Nothing nested, or a Go type, which has no Validate: a
			// render reports what it lacks. ttemit.TranslateValidated
			// relies on what Validate checks.
		case ft.Kind == ir.KindStruct && fld.Optional:
			checks = append(checks, jen.If(acc.Clone().Op("!=").Nil()).Block(nested))
		case ft.Kind == ir.KindStruct:
			checks = append(checks, nested)
		case ft.Kind == ir.KindList && ft.Elem.Resolve().Kind == ir.KindStruct:
			checks = append(checks, jen.For(jen.List(jen.Id("i"), jen.Id("e")).Op(":=").Range().Add(acc.Clone())).Block(
				jen.Id("v").Dot("Item").Call(jen.Id("e").Dot("Validate").Call(), jen.Lit(fld.Key), jen.Id("i"))))
		}
	}
	return checks
}

// missingError is the error of the unset required variable key, declared
// or used at pos ("file:line:col").
func missingError(p *ir.Prompt, pos, key string) *jen.Statement {
	return goemit.FailCall(p.Key, pos, "ErrMissing", key)
}

func emitPrompt(f *jen.File, p *ir.Prompt, renderBody Body) {
	typ := promptRecv(p, "")
	if p.Description != "" {
		docLines(f, p.Name+": "+p.Description)
	} else {
		docLines(f, p.Name+" renders the "+p.Key+" prompt from "+p.Path+".")
	}
	// The type is written out so that go doc lists the variable under it.
	f.Var().Id(p.Name).Op("*").Id(p.TypeName).Op("=").Op("&").Id(p.TypeName).Values()
	f.Line()
	f.Comment(p.TypeName + " is the type of " + p.Name + "; its methods render the prompt.")
	f.Type().Id(p.TypeName).StructFunc(func(g *jen.Group) {
		if p.Sections != nil {
			g.Id("tokenizer").Qual(ir.RuntimePath, "Tokenizer") // nil: the file's
		}
	})
	sizeVar := "_" + p.Name + "Size"
	f.Var().Id(sizeVar).Qual(ir.RuntimePath, "SizeHint")

	f.Comment("Key returns the prompt's path in the prompts tree, without extension.")
	f.Func().Params(typ.Clone()).Id("Key").Params().String().Block(jen.Return(jen.Lit(p.Key)))
	f.Comment("Description returns the prompt's description.")
	f.Func().Params(typ.Clone()).Id("Description").Params().String().Block(jen.Return(jen.Lit(p.Description)))
	f.Comment("Model returns the prompt's model, or \"\" when it names none.")
	f.Func().Params(typ.Clone()).Id("Model").Params().String().Block(jen.Return(jen.Lit(p.Model)))
	f.Comment("Parameters returns a new map of the prompt's default model parameters.")
	f.Func().Params(typ.Clone()).Id("Parameters").Params().Map(jen.String()).Any().Block(jen.Return(paramsCode(p.Parameters)))
	if len(p.ExtraParameters) > 0 {
		f.Comment("ExtraParameters returns a new map of the prompt's extra_parameters: provider")
		f.Comment("request fields that the adapters send unchecked.")
		f.Func().Params(typ.Clone()).Id("ExtraParameters").Params().Map(jen.String()).Any().Block(jen.Return(paramsCode(p.ExtraParameters)))
	}

	emitParts(f, p, renderBody)
	emitMessages(f, p)
	if p.IsMessages {
		// A messages prompt has no single text: its structure is the message
		// list, and a chat format (runtime/chatformat) turns it into text.
		return
	}

	feed := jen.Id(p.Feed.Name)
	// A prompt that reads the clock takes it as a render option.
	params, args := []jen.Code{jen.Id("f").Add(feed.Clone())}, []jen.Code{jen.Id("f")}
	if ir.UsesClock(p) {
		f.Comment("Render renders the prompt with the variables of f; strftime_now formats")
		f.Comment("the current time unless opts give one (runtime.WithNow).")
		params = append(params, jen.Id("opts").Op("...").Qual(ir.RuntimePath, "RenderOption"))
		args = append(args, jen.Id("opts").Op("..."))
	} else {
		f.Comment("Render renders the prompt with the variables of f.")
	}
	f.Func().Params(promptRecv(p, "p")).Id("Render").Params(params...).Params(jen.String(), jen.Error()).Block(
		sizedRender(sizeVar, p.StaticSize, jen.Id("p").Dot("AppendRender"), args...))

	recv, body := typ.Clone(), []jen.Code(nil)
	if p.Sections != nil {
		recv, body = promptRecv(p, "p"), emitSections(f, p)
	} else {
		body = renderBody(f, p)
	}
	if p.Chat {
		var tools jen.Code
		if len(p.Tools) > 0 {
			tools = jen.Parens(jen.Op("&").Id(p.TypeName).Values()).Dot("Tools").Call()
		}
		body = append(chatChecks(tools, specialTokensVar(p.Name)), body...)
	}
	f.Comment("AppendRender appends the rendered prompt to dst. On error it returns dst")
	f.Comment("with part of the prompt appended, and the error.")
	f.Func().Params(recv).Id("AppendRender").Params(append([]jen.Code{dst.Clone().Index().Byte()}, params...)...).Params(jen.Index().Byte(), jen.Error()).Block(body...)

	if p.Chat {
		emitSpecialTokens(f, promptRecv(p, ""), specialTokensVar(p.Name), p.SpecialTokens)
		// A chat template formats any conversation: runtime/chatformat
		// takes it as a chatformat.Template.
		f.Comment("Format renders the chat template with ctx, its other variables unset.")
		f.Func().Params(promptRecv(p, "p")).Id("Format").Params(jen.Id("ctx").Qual(ir.ChatPath, "Context")).Params(jen.String(), jen.Error()).Block(
			jen.Return(jen.Id("p").Dot("Render").Call(feed.Clone().Values(jen.Dict{jen.Id("Context"): jen.Id("ctx")}))),
		)
	}
}

// promptRecv is the receiver of p's methods, named name ("" for none): a
// pointer, as a value receiver would have Go compile a wrapper of each
// method for the pointer's method set, and prompts are many.
func promptRecv(p *ir.Prompt, name string) *jen.Statement {
	recv := jen.Op("*").Id(p.TypeName)
	if name != "" {
		recv = jen.Id(name).Add(recv)
	}
	return recv
}

// sizedRender is the statement of a Render that calls appendRender with
// a buffer from the runtime.SizeHint sizeVar, at least staticSize bytes,
// and args, and returns its output as a string.
func sizedRender(sizeVar string, staticSize int, appendRender *jen.Statement, args ...jen.Code) jen.Code {
	return jen.Return(jen.Id(sizeVar).Dot("Done").Call(
		appendRender.Call(append([]jen.Code{jen.Id(sizeVar).Dot("Buffer").Call(jen.Lit(staticSize))}, args...)...)))
}

// specialTokensVar names the package variable of the special_tokens of
// a chat template or set whose Go name is name.
func specialTokensVar(name string) string { return "_" + name + "SpecialTokens" }

// chatChecks are the statements that start a chat template's render of
// feed f: the declared tools (tools, the call returning them; nil when
// there are none) unless the caller gave the context its own, and the
// check that no string of the context, the tools included, holds a
// special token (the package variable tokensVar, with bos and eos).
func chatChecks(tools jen.Code, tokensVar string) []jen.Code {
	var head []jen.Code
	dst := jen.Id("dst")
	if tools != nil {
		ctxTools := jen.Id("f").Dot("Context").Dot("Tools")
		head = append(head, jen.If(jen.Op("!").Add(ctxTools.Clone()).Dot("Defined").Call()).Block(
			jen.Var().Err().Error(),
			jen.If(jen.List(ctxTools.Clone(), jen.Err()).Op("=").Qual(ir.ChatPath, "Tools").Call(tools), jen.Err().Op("!=").Nil()).Block(
				jen.Return(dst.Clone(), jen.Err())),
		))
	}
	return append(head, jen.If(
		jen.Err().Op(":=").Id("f").Dot("Context").Dot("CheckMarkers").Call(jen.Id(tokensVar).Op("...")),
		jen.Err().Op("!=").Nil(),
	).Block(jen.Return(dst.Clone(), jen.Err())))
}

// emitSpecialTokens writes the special_tokens of a chat template or set,
// which rendering rejects in the chat context, in the package variable
// name, and the SpecialTokens method of recv.
func emitSpecialTokens(f *jen.File, recv jen.Code, name string, specialTokens []string) {
	tokens := make([]jen.Code, len(specialTokens))
	for i, t := range specialTokens {
		tokens[i] = jen.Lit(t)
	}
	f.Comment(name + " are the model's special tokens (special_tokens), which no string")
	f.Comment("of the chat context may hold.")
	f.Var().Id(name).Op("=").Index().String().Values(tokens...)
	f.Comment("SpecialTokens returns the model's special tokens that Render rejects in any string")
	f.Comment("of the chat context (as it rejects its bos_token and eos_token), in a new slice.")
	f.Func().Params(recv).Id("SpecialTokens").Params().Index().String().Block(
		jen.Return(jen.Qual("slices", "Clone").Call(jen.Id(name))))
}
