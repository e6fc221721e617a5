package emit

import (
	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// FragmentFile returns the file for one fragment (the spec's
// getFragment(name, context), checked at generate time): its params
// struct and
//
//	func <Name>Fragment(f <Name>FragmentParams) (string, error)
//
// rendering with the same backend as the prompts.
func FragmentFile(importPath, pkg string, p *ir.Prompt, body Body) *jen.File {
	f := newSourceFile(importPath, pkg, p.Path)
	importGoTypes(f, p.Feed)
	importGoFilters(f, p.Filters)
	for _, t := range p.Structs {
		emitStruct(f, p, t)
	}
	if p.Description != "" {
		docLines(f, p.Name+": "+p.Description)
	} else {
		docLines(f, p.Name+" renders the "+p.Key+" fragment from "+p.Path+".")
	}
	sizeVar := "_" + p.Name + "Size"
	appendName := "_" + p.Name + "Append"
	feed := jen.Id(p.Feed.Name)
	f.Func().Id(p.Name).Params(jen.Id("f").Add(feed.Clone())).Params(jen.String(), jen.Error()).Block(
		sizedRender(sizeVar, p.StaticSize, jen.Id(appendName), jen.Id("f")))
	f.Var().Id(sizeVar).Qual(ir.RuntimePath, "SizeHint")
	code := body(f, p)
	f.Comment(appendName + " appends the rendered " + p.Key + " fragment to dst.")
	f.Func().Id(appendName).Params(dst.Clone().Index().Byte(), jen.Id("f").Add(feed.Clone())).Params(jen.Index().Byte(), jen.Error()).Block(code...)
	return f
}
