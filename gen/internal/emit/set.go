package emit

import (
	"encoding/json"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/goemit"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/names"
	"github.com/promptgen/promptgen/gen/internal/ttemit"
)

// This file emits a template set: one file with the feed type, the set
// type around a runtime.Manager and its methods, and the helpers the
// design note of runtime/set.go describes (a sorted path table, a switch
// over full paths, the versioned components of each template, one render
// function per template and per component).

// SetFile returns the file of set s, with the renderers of the
// text/template backend when tt is set (the API is the same).
func SetFile(importPath, pkg string, s *ir.PromptSet, tt bool) *jen.File {
	f := newSourceFile(importPath, pkg, s.Path)
	importGoTypes(f, s.Feed)
	importGoFilters(f, s.Filters)
	for _, t := range s.Structs {
		emitSetStruct(f, s, t)
	}
	emitSetType(f, s)
	emitSetTables(f, s)
	emitExtra(f, s)
	emitSetPredefined(f, s)
	if s.Chat {
		emitSpecialTokens(f, jen.Op("*").Id(s.Name), specialTokensVar(s.Name), s.SpecialTokens)
	}
	if tt {
		emitSetTemplates(f, s)
	} else {
		emitSetRenderers(f, s)
	}
	return f
}

// setDir is the set's directory as diagnostics show it.
func setDir(s *ir.PromptSet) string { return path.Dir(s.Path) }

// emitSetStruct writes a struct type of the set's feed and its Merge method.
func emitSetStruct(f *jen.File, s *ir.PromptSet, t *ir.Type) {
	if t == s.Feed {
		docLines(f, t.Name+" holds the variables of every template and component of the "+s.Key+" set.")
		f.Comment("Which of them a render needs depends on the template the key resolves to.")
	} else {
		docLines(f, t.Name+" is an object in the variables of the "+s.Key+" set.")
	}
	chat := t == s.Feed && s.Chat
	f.Type().Id(t.Name).StructFunc(func(g *jen.Group) {
		if chat {
			embedChatContext(g)
		}
		for _, fld := range t.Fields {
			if fld.Chat {
				continue
			}
			fieldDoc(g, fld)
			tag := fld.Key
			if fld.Optional {
				tag += ",omitempty"
			}
			g.Id(fld.GoName).Add(goemit.GoType(fld.Type, fld.Optional && ir.IsPointerKind(fld.Type))).Tag(map[string]string{"json": tag})
		}
	})
	f.Comment("Merge merges other into f field by field (template-manager.md, \"Merge")
	f.Comment("Knowledge\"). A field that only one of them sets ends up set; for a field")
	f.Comment("both set, s decides: runtime.FeedOnly (the zero value) takes other's,")
	f.Comment("runtime.AttributeOnly keeps f's, and runtime.Merge joins strings with a")
	f.Comment("blank line, appends lists and merges maps and nested objects.")
	f.Func().Params(jen.Id("f").Op("*").Id(t.Name)).Id("Merge").Params(
		jen.Id("other").Id(t.Name), jen.Id("s").Qual(ir.RuntimePath, "ConflictStrategy"),
	).BlockFunc(func(g *jen.Group) {
		if chat {
			g.Id("f").Dot("Context").Dot("Merge").Call(jen.Id("other").Dot("Context"), jen.Id("s"))
		}
		for _, fld := range t.Fields {
			if fld.Chat {
				continue
			}
			into, from := jen.Op("&").Id("f").Dot(fld.GoName), jen.Id("other").Dot(fld.GoName)
			ft := fld.Type.Resolve()
			switch {
			case ft.Kind == ir.KindList:
				g.Qual(ir.RuntimePath, "MergeSlice").Call(into, from, jen.Id("s"))
			case ft.Kind == ir.KindMap:
				g.Qual(ir.RuntimePath, "MergeMap").Call(into, from, jen.Id("s"))
			case fld.Optional:
				g.Qual(ir.RuntimePath, "MergeValue").Call(into, from, jen.Id("s"))
			case ft.Kind == ir.KindString:
				g.Qual(ir.RuntimePath, "MergeString").Call(into, from, jen.Id("s"))
			case ft.Go != nil:
				// A Go type has no Merge: it is replaced, as a value is.
				g.If(jen.Id("s").Op("!=").Qual(ir.RuntimePath, "AttributeOnly")).Block(jen.Id("f").Dot(fld.GoName).Op("=").Add(from))
			case ft.Kind == ir.KindStruct:
				g.Id("f").Dot(fld.GoName).Dot("Merge").Call(from, jen.Id("s"))
			default:
				g.Qual(ir.RuntimePath, "MergeValue").Call(into, from, jen.Id("s"))
			}
		}
	})
}

// setTag returns the promptgen tag of a set type's Manager field: the set's
// name, default settings and template paths as JSON, and whether one of
// them is the system default (its path is ir.DefaultTemplatePath). promptgen vet (package
// vet) reads it from the types alone, as export data has tags but no
// comments or values, to resolve constant keys as NewManager would.
func setTag(s *ir.PromptSet) string {
	paths := make([]string, len(s.Templates))
	system := false // the set has a default_template
	for i, t := range s.Templates {
		paths[i] = t.Path
		system = system || t.System
	}
	b, err := json.Marshal(struct {
		Set           string   `json:"set"`
		Type          string   `json:"type"`
		DefaultName   string   `json:"defaultName"`
		Paths         []string `json:"paths"`
		SystemDefault bool     `json:"systemDefault,omitempty"`
	}{s.Key, s.DefaultType, s.DefaultName, paths, system})
	if err != nil {
		panic(err) // strings and a slice of strings always marshal
	}
	return string(b)
}

// emitSetType writes the set type, its constructor, key constants and methods.
func emitSetType(f *jen.File, s *ir.PromptSet) {
	name, h := s.Name, s.Helper
	typ := jen.Id(name)
	feed := jen.Id(s.Feed.Name)
	rt := func(id string) *jen.Statement { return jen.Qual(ir.RuntimePath, id) }
	opts := jen.Id("opts").Op("...").Qual(ir.RuntimePath, "Option")

	if d := s.Description; d != "" {
		docLines(f, name+": "+d)
		f.Comment("")
	}
	docLines(f, name+" resolves and renders the templates of the "+s.Key+" set ("+setDir(s)+"):")
	f.Comment("a key goes through the fallback chain of runtime.Manager to a template,")
	f.Comment("rendered with " + names.Article(s.Feed.Name) + ". " + upperFirst(names.Article(name)) + " is immutable and safe for")
	f.Comment("concurrent use; Switch returns a changed copy.")
	f.Type().Id(name).Struct(jen.Id("m").Qual(ir.RuntimePath, "Manager").Tag(map[string]string{"promptgen": setTag(s)}))

	settings := jen.Dict{jen.Id("Type"): jen.Lit(s.DefaultType), jen.Id("DefaultName"): jen.Lit(s.DefaultName)}
	f.Comment("New" + name + " returns " + names.Article(name) + " with the set's settings (type " + strconv.Quote(s.DefaultType) + ",")
	f.Comment("default name " + strconv.Quote(s.DefaultName) + ", no root space, no version) changed by opts.")
	f.Func().Id("New" + name).Params(opts.Clone()).Op("*").Add(typ.Clone()).Block(
		jen.Return(jen.Op("&").Add(typ.Clone()).Values(jen.Id("m").Op(":").Add(rt("NewManager")).Call(
			jen.Op("&").Id(h+"Table"),
			rt("Settings").Values(settings), jen.Id("opts").Op("..."),
		))),
	)

	if len(s.Keys) > 0 {
		f.Comment("The keys of the " + s.Key + " set's templates, one per template name.")
		f.Const().DefsFunc(func(g *jen.Group) {
			for _, k := range s.Keys {
				if k.GoName == "" {
					continue
				}
				g.Comment(k.GoName + " is the key of " + strings.Join(k.Paths, ", ") + ".")
				g.Id(k.GoName).Op("=").Lit(k.Key)
			}
		})
	}

	if len(s.Predefined) > 0 {
		f.Comment("The names of the " + s.Key + " set's predefined variables, for runtime.WithPredefined.")
		f.Const().DefsFunc(func(g *jen.Group) {
			for _, p := range s.Predefined {
				var fields []string
				for _, v := range p.Values {
					fields = append(fields, v.Field.Key)
				}
				g.Comment(p.GoName + " fills " + strings.Join(fields, ", ") + ".")
				g.Id(p.GoName).Op("=").Lit(p.Name)
			}
		})
	}

	recv := jen.Id("a").Op("*").Id(name)
	resolve := func(withOpts bool) jen.Code {
		args := []jen.Code{jen.Id("key")}
		if withOpts {
			args = append(args, jen.Id("opts").Op("..."))
		}
		return jen.Id("r").Op(":=").Id("a").Dot("m").Dot("Resolve").Call(args...)
	}
	variantFor := rt("VariantFor").Call(jen.Id("c").Dot("names"), jen.Id("c").Dot("versions"), jen.Id("r").Dot("Settings").Dot("Version"))
	comps := jen.Id("c").Op(":=").Op("&").Id(h + "Components").Index(jen.Id("r").Dot("ID"))
	// predefine merges the predefined variables of the settings into f.
	predefine := func(onErr ...jen.Code) jen.Code {
		return jen.If(jen.Err().Op(":=").Id(h+"Predefine").Call(jen.Op("&").Id("f"), jen.Id("r").Dot("Settings").Dot("Predefined")), jen.Err().Op("!=").Nil()).Block(onErr...)
	}

	f.Comment("Render renders the template that key resolves to, with opts applied for")
	f.Comment("this call only. The versioned components it includes render in the version")
	f.Comment("of the settings, else unversioned, else in their first version. A key that")
	f.Comment("resolves to no template gives a *runtime.ResolveError naming every path tried.")
	f.Comment("With predefined variables in the settings (runtime.WithPredefined), the fields")
	f.Comment("that f leaves at their zero value take their predefined values, as")
	f.Comment("f.Merge(predefined, runtime.AttributeOnly) would; an unknown name gives a")
	f.Comment("*runtime.PredefinedError.")
	f.Func().Params(recv.Clone()).Id("Render").Params(jen.Id("key").String(), jen.Id("f").Add(feed.Clone()), opts.Clone()).Params(jen.String(), jen.Error()).Block(
		resolve(true),
		jen.If(jen.Id("r").Dot("Err").Op("!=").Nil()).Block(jen.Return(jen.Lit(""), jen.Id("r").Dot("Err"))),
		predefine(jen.Return(jen.Lit(""), jen.Err())),
		comps.Clone(),
		jen.Id("hint").Op(":=").Op("&").Id(h+"Sizes").Index(jen.Id("r").Dot("ID")),
		jen.Return(jen.Id("hint").Dot("Done").Call(jen.Id(h+"Render").Call(jen.Id("r").Dot("ID"),
			jen.Id("hint").Dot("Buffer").Call(jen.Id(h+"Static").Index(jen.Id("r").Dot("ID"))),
			jen.Op("&").Id("f"), variantFor.Clone()))),
	)

	f.Comment("AppendRender is Render appending to dst. On error it returns dst with part")
	f.Comment("of the prompt appended, and the error.")
	f.Func().Params(recv.Clone()).Id("AppendRender").Params(jen.Id("dst").Index().Byte(), jen.Id("key").String(), jen.Id("f").Add(feed.Clone()), opts.Clone()).Params(jen.Index().Byte(), jen.Error()).Block(
		resolve(true),
		jen.If(jen.Id("r").Dot("Err").Op("!=").Nil()).Block(jen.Return(jen.Id("dst"), jen.Id("r").Dot("Err"))),
		predefine(jen.Return(jen.Id("dst"), jen.Err())),
		comps.Clone(),
		jen.Return(jen.Id(h+"Render").Call(jen.Id("r").Dot("ID"), jen.Id("dst"), jen.Op("&").Id("f"), variantFor.Clone())),
	)

	f.Comment("Resolve reports which template key resolves to, with opts applied for this")
	f.Comment("call only, and at which step of the fallback chain; Err is set when none.")
	f.Func().Params(recv.Clone()).Id("Resolve").Params(jen.Id("key").String(), opts.Clone()).Qual(ir.RuntimePath, "Resolution").Block(
		jen.Return(jen.Id("a").Dot("m").Dot("Resolve").Call(jen.Id("key"), jen.Id("opts").Op("..."))),
	)

	f.Comment("Switch returns a copy of a with opts applied (type, root space, version,")
	f.Comment("default name, predefined variables); a is unchanged.")
	f.Func().Params(recv.Clone()).Id("Switch").Params(opts.Clone()).Op("*").Id(name).Block(
		jen.Return(jen.Op("&").Id(name).Values(jen.Id("m").Op(":").Id("a").Dot("m").Dot("Switch").Call(jen.Id("opts").Op("...")))),
	)

	f.Comment("Paths returns the full paths of the set's templates, sorted: what keys")
	f.Comment("can resolve to.")
	f.Func().Params(recv.Clone()).Id("Paths").Params().Index().String().Block(
		jen.Return(jen.Qual("slices", "Clone").Call(jen.Id(h+"Paths").Index(jen.Empty(), jen.Empty()))),
	)

	f.Comment("Settings returns a's settings.")
	f.Func().Params(recv.Clone()).Id("Settings").Params().Qual(ir.RuntimePath, "Settings").Block(
		jen.Return(jen.Id("a").Dot("m").Dot("Settings").Call()),
	)

	f.Comment("Variants renders the template that key resolves to once for every")
	f.Comment("combination of the versions of the versioned components it includes, in")
	f.Comment("runtime.Product's order; a template without them yields one Variant. A")
	f.Comment("render error, or the resolve or predefined variables error, is in the")
	f.Comment("Variant's Err.")
	f.Func().Params(recv.Clone()).Id("Variants").Params(jen.Id("key").String(), jen.Id("f").Add(feed.Clone())).Qual("iter", "Seq2").Types(rt("Variant"), jen.String()).Block(
		jen.Return(jen.Func().Params(jen.Id("yield").Func().Params(rt("Variant"), jen.String()).Bool()).Block(
			resolve(false),
			jen.If(jen.Id("r").Dot("Err").Op("!=").Nil()).Block(
				jen.Id("yield").Call(rt("Variant").Values(jen.Id("Err").Op(":").Id("r").Dot("Err")), jen.Lit("")),
				jen.Return(),
			),
			predefine(
				jen.Id("yield").Call(rt("Variant").Values(jen.Id("Err").Op(":").Err()), jen.Lit("")),
				jen.Return(),
			),
			comps.Clone(),
			jen.For(jen.Id("v").Op(":=").Range().Add(rt("Product")).Call(jen.Id("c").Dot("names"), jen.Id("c").Dot("versions"))).Block(
				jen.List(jen.Id("buf"), jen.Err()).Op(":=").Id(h+"Render").Call(jen.Id("r").Dot("ID"), jen.Nil(), jen.Op("&").Id("f"), jen.Id("v")),
				jen.Id("s").Op(":=").Lit(""),
				jen.If(jen.Err().Op("==").Nil()).Block(jen.Id("s").Op("=").Add(rt("BytesToString")).Call(jen.Id("buf"))),
				jen.Id("v").Dot("Err").Op("=").Err(),
				jen.If(jen.Op("!").Id("yield").Call(jen.Id("v"), jen.Id("s"))).Block(jen.Return()),
			),
		)),
	)

	f.Comment("InferenceConfig tells an LLM inferencer which template key resolves to: the")
	f.Comment("root space, the key, the template's model, parameters and extra parameters, and")
	f.Comment("the set's tools and tool_choice.")
	f.Func().Params(recv.Clone()).Id("InferenceConfig").Params(jen.Id("key").String()).Qual(ir.RuntimePath, "InferenceConfig").Block(
		resolve(false),
		jen.Id("c").Op(":=").Add(rt("InferenceConfig")).Values(jen.Dict{
			jen.Id("RootSpace"):   jen.Id("r").Dot("Settings").Dot("RootSpace"),
			jen.Id("TemplateKey"): jen.Id("key"),
		}),
		jen.If(jen.Id("r").Dot("Err").Op("==").Nil()).BlockFunc(func(g *jen.Group) {
			g.List(jen.Id("c").Dot("Model"), jen.Id("c").Dot("Parameters")).Op("=").Id(h + "Model").Call(jen.Id("r").Dot("ID"))
			if hasExtra(s) {
				g.Id("c").Dot("ExtraParameters").Op("=").Id(h + "Extra").Call(jen.Id("r").Dot("ID"))
			}
			if len(s.Tools) > 0 {
				g.Id("c").Dot("Tools").Op("=").Id("a").Dot("Tools").Call()
			}
			if s.ToolChoice != "" {
				g.Id("c").Dot("ToolChoice").Op("=").Lit(s.ToolChoice)
			}
		}),
		jen.Return(jen.Id("c")),
	)
	emitToolMethods(f, recv.Clone(), "the "+s.Name+" set", &s.DeclaredTools)
}

// emitSetTables writes the path table, the lookup, the versioned
// components and sizes of each template, and the models.
func emitSetTables(f *jen.File, s *ir.PromptSet) {
	h := s.Helper
	n := len(s.Templates)
	var paths []jen.Code
	// Each path split at its last '/' into a directory and a name; the
	// system default is the empty name in directory "".
	var dirs, nameList []string
	byName := map[string][]entry{}
	for _, t := range s.Templates {
		if !t.System {
			dir := t.Path[:strings.LastIndexByte(t.Path, '/')+1]
			if !slices.Contains(dirs, dir) {
				dirs = append(dirs, dir)
			}
		} else if !slices.Contains(dirs, "") {
			dirs = append(dirs, "")
		}
	}
	slices.Sort(dirs)
	for id, t := range s.Templates {
		paths = append(paths, jen.Lit(t.Path))
		dir, name := "", ""
		if !t.System {
			i := strings.LastIndexByte(t.Path, '/') + 1
			dir, name = t.Path[:i], t.Path[i:]
		}
		if _, ok := byName[name]; !ok {
			nameList = append(nameList, name)
		}
		byName[name] = append(byName[name], entry{slices.Index(dirs, dir), id})
	}
	f.Comment(h + "Paths holds every template's full path; the index is its id.")
	f.Var().Id(h + "Paths").Op("=").Index(jen.Op("...")).String().Values(paths...)

	f.Comment(h + "Table is the set's paths and resolver: the directory of a candidate")
	f.Comment("path (up to its last '/'), a switch over the lengths and a comparison")
	f.Comment("of p's parts with each string of that length, then its name in that")
	f.Comment("directory, a switch on the name. Neither joins strings nor allocates.")
	for _, t := range s.Templates {
		if t.System {
			f.Comment("The empty name in directory \"\", which no step of the chain builds, is")
			f.Comment("the system default template (default_template), tried after every path.")
		}
	}
	f.Var().Id(h+"Table").Op("=").Qual(ir.RuntimePath, "Table").Values(
		jen.Id("Set").Op(":").Lit(s.Key), jen.Id("Paths").Op(":").Id(h+"Paths").Index(jen.Empty(), jen.Empty()),
		jen.Id("Dir").Op(":").Id(h+"Dir"), jen.Id("Name").Op(":").Id(h+"Name"))
	path := jen.Id("p").Qual(ir.RuntimePath, "Path")
	f.Comment(h + "Dir returns the id of directory p, or -1.")
	f.Func().Id(h+"Dir").Params(path.Clone()).Int().Block(
		lengthSwitch(dirs, func(d int, is *jen.Statement) jen.Code {
			if is == nil {
				return jen.Return(jen.Lit(d))
			}
			return jen.If(is).Block(jen.Return(jen.Lit(d)))
		}),
		jen.Return(jen.Lit(-1)),
	)
	// A name with a version matches the names with a '.' split at each
	// of their dots.
	var baseList []string
	byVersion := map[string]map[string][]entry{} // base → version → entries
	for _, name := range nameList {
		for i := range len(name) {
			if name[i] != '.' {
				continue
			}
			base, version := name[:i], name[i+1:]
			if byVersion[base] == nil {
				baseList = append(baseList, base)
				byVersion[base] = map[string][]entry{}
			}
			byVersion[base][version] = append(byVersion[base][version], byName[name]...)
		}
	}
	f.Comment(h + "Name returns the template named name, or name.version, in directory")
	f.Comment("dir.")
	f.Func().Id(h+"Name").Params(jen.Id("dir").Int(), jen.List(jen.Id("name"), jen.Id("version")).String()).Params(jen.Int(), jen.Bool()).Block(
		jen.If(jen.Id("version").Op("!=").Lit("")).Block(
			jen.Switch(jen.Id("name")).BlockFunc(func(g *jen.Group) {
				for _, base := range baseList {
					g.Case(jen.Lit(base)).BlockFunc(func(g *jen.Group) {
						for _, v := range slices.Sorted(maps.Keys(byVersion[base])) {
							g.Add(inDir(byVersion[base][v], jen.Id("version").Op("==").Lit(v)))
						}
					})
				}
			}),
			jen.Return(jen.Lit(0), jen.False()),
		),
		jen.Switch(jen.Id("name")).BlockFunc(func(g *jen.Group) {
			for _, name := range nameList {
				g.Case(jen.Lit(name)).Block(inDir(byName[name], nil))
			}
		}),
		jen.Return(jen.Lit(0), jen.False()),
	)

	f.Comment(h + "Components lists, per template id, the versioned components the")
	f.Comment("template includes, directly or not, by name, each with its versions (\"\"")
	f.Comment("for the unversioned content, first).")
	entries := jen.Dict{}
	for id, t := range s.Templates {
		if len(t.Versioned) == 0 {
			continue
		}
		var compNames, versions []jen.Code
		for _, c := range t.Versioned {
			compNames = append(compNames, jen.Lit(c.Name))
			var vs []jen.Code
			for _, v := range c.VersionNames() {
				vs = append(vs, jen.Lit(v))
			}
			versions = append(versions, jen.Values(vs...))
		}
		entries[jen.Lit(id)] = jen.Values(jen.Index().String().Values(compNames...), jen.Index().Index().String().Values(versions...))
	}
	f.Var().Id(h+"Components").Op("=").Index(jen.Lit(n)).Struct(
		jen.Id("names").Index().String(),
		jen.Id("versions").Index().Index().String(),
	).Values(entries)

	f.Comment(h + "Sizes remembers the largest output of each template.")
	f.Var().Id(h+"Sizes").Index(jen.Lit(n)).Qual(ir.RuntimePath, "SizeHint")
	var static []jen.Code
	for _, t := range s.Templates {
		static = append(static, jen.Lit(t.Body.StaticSize))
	}
	f.Comment(h + "Static holds the size of each template's literal text.")
	f.Var().Id(h + "Static").Op("=").Index(jen.Lit(n)).Int().Values(static...)

	f.Comment(h + "Model returns the model and a new map of the default parameters of")
	f.Comment("template id.")
	f.Func().Id(h+"Model").Params(jen.Id("id").Int()).Params(jen.String(), jen.Map(jen.String()).Any()).BlockFunc(func(g *jen.Group) {
		var cases []jen.Code
		for id, t := range s.Templates {
			if t.Model == "" && len(t.Params) == 0 {
				continue
			}
			params := jen.Nil()
			if len(t.Params) > 0 {
				params = paramsCode(t.Params).(*jen.Statement)
			}
			cases = append(cases, jen.Case(jen.Lit(id)).Block(jen.Return(jen.Lit(t.Model), params)))
		}
		if len(cases) > 0 {
			g.Switch(jen.Id("id")).Block(cases...)
		}
		g.Return(jen.Lit(""), jen.Nil())
	})
}

// inDir returns the code that returns the id of the entry in directory
// dir, when cond (if any) holds.
func inDir(entries []entry, cond *jen.Statement) jen.Code {
	if len(entries) == 1 {
		in := jen.Id("dir").Op("==").Lit(entries[0].dir)
		if cond != nil {
			in = in.Op("&&").Add(cond)
		}
		return jen.If(in).Block(jen.Return(jen.Lit(entries[0].id), jen.True()))
	}
	sw := jen.Switch(jen.Id("dir")).BlockFunc(func(g *jen.Group) {
		for _, e := range slices.SortedFunc(slices.Values(entries), func(a, b entry) int { return a.dir - b.dir }) {
			g.Case(jen.Lit(e.dir)).Block(jen.Return(jen.Lit(e.id), jen.True()))
		}
	})
	if cond == nil {
		return sw
	}
	return jen.If(cond).Block(sw)
}

// entry is a template in a directory: the directory's id and the
// template's.
type entry struct{ dir, id int }

// lengthSwitch returns a switch over the length of the Path p, with, for
// each of strs, match(i, p.Is(strs[i])) in the case of its length;
// match(i, nil) for the empty string, which p is at length 0.
func lengthSwitch(strs []string, match func(i int, is *jen.Statement) jen.Code) jen.Code {
	byLen := map[int][]int{}
	for i, s := range strs {
		byLen[len(s)] = append(byLen[len(s)], i)
	}
	return jen.Switch(jen.Id("p").Dot("Len").Call()).BlockFunc(func(g *jen.Group) {
		for _, l := range slices.Sorted(maps.Keys(byLen)) {
			g.Case(jen.Lit(l)).BlockFunc(func(g *jen.Group) {
				for _, i := range byLen[l] {
					if l == 0 {
						g.Add(match(i, nil))
						continue
					}
					g.Add(match(i, jen.Id("p").Dot("Is").Call(jen.Lit(strs[i]))))
				}
			})
		}
	})
}

// hasExtra reports whether a template of s has extra parameters.
func hasExtra(s *ir.PromptSet) bool {
	for _, t := range s.Templates {
		if len(t.Extra) > 0 {
			return true
		}
	}
	return false
}

// emitExtra writes the function that returns a new map of the extra
// parameters of a template, when some template has any.
func emitExtra(f *jen.File, s *ir.PromptSet) {
	if !hasExtra(s) {
		return
	}
	h := s.Helper
	f.Comment(h + "Extra returns a new map of the extra parameters of template id.")
	f.Func().Id(h + "Extra").Params(jen.Id("id").Int()).Map(jen.String()).Any().BlockFunc(func(g *jen.Group) {
		var cases []jen.Code
		for id, t := range s.Templates {
			if len(t.Extra) > 0 {
				cases = append(cases, jen.Case(jen.Lit(id)).Block(jen.Return(paramsCode(t.Extra))))
			}
		}
		g.Switch(jen.Id("id")).Block(cases...)
		g.Return(jen.Nil())
	})
}

// emitSetPredefined writes the predefined variables of the set, and the
// function that merges them into a feed.
func emitSetPredefined(f *jen.File, s *ir.PromptSet) {
	h := s.Helper
	var values, known []jen.Code
	for i, p := range s.Predefined {
		fields := jen.Dict{}
		for _, v := range p.Values {
			val := predefinedLit(v.Field.Type, v.Value)
			if v.Field.Optional && ir.IsPointerKind(v.Field.Type) {
				// A pointer to a value: a variable of its own.
				name := h + "Predefined" + strconv.Itoa(i) + v.Field.GoName
				f.Comment(name + " is " + v.Field.Key + " of the predefined variables " + strconv.Quote(p.Name) + ".")
				f.Var().Id(name).Op("=").Add(val)
				val = jen.Op("&").Id(name)
			}
			fields[jen.Id(v.Field.GoName)] = val
		}
		values = append(values, jen.Values(fields))
		known = append(known, jen.Lit(p.Name))
	}
	errFields := jen.Dict{jen.Id("Set"): jen.Lit(s.Key), jen.Id("Name"): jen.Id("name")}
	if len(s.Predefined) > 0 {
		f.Comment(h + "Predefined holds the predefined variables, in the order of " + h + "PredefinedNames.")
		f.Var().Id(h + "Predefined").Op("=").Index(jen.Lit(len(s.Predefined))).Id(s.Feed.Name).Values(values...)
		f.Comment(h + "PredefinedNames lists the names of the predefined variables, sorted.")
		f.Var().Id(h + "PredefinedNames").Op("=").Index(jen.Op("...")).String().Values(known...)
		errFields[jen.Id("Known")] = jen.Id(h+"PredefinedNames").Index(jen.Empty(), jen.Empty())
	}
	f.Comment(h + "Predefine merges the predefined variables named name into f; a field")
	f.Comment("that f sets keeps its value. \"\" names none.")
	f.Func().Id(h+"Predefine").Params(jen.Id("f").Op("*").Id(s.Feed.Name), jen.Id("name").String()).Error().Block(
		jen.Switch(jen.Id("name")).BlockFunc(func(g *jen.Group) {
			g.Case(jen.Lit(""))
			for i, p := range s.Predefined {
				g.Case(jen.Lit(p.Name)).Block(
					jen.Id("f").Dot("Merge").Call(jen.Id(h+"Predefined").Index(jen.Lit(i)), jen.Qual(ir.RuntimePath, "AttributeOnly")))
			}
			g.Default().Block(jen.Return(jen.Op("&").Qual(ir.RuntimePath, "PredefinedError").Values(errFields)))
		}),
		jen.Return(jen.Nil()),
	)
}

// predefinedLit is the Go literal of a predefined value of type t.
func predefinedLit(t *ir.Type, v any) *jen.Statement {
	t = t.Resolve()
	switch v := v.(type) {
	case []any:
		var items []jen.Code
		for _, x := range v {
			items = append(items, predefinedLit(t.Elem, x))
		}
		return goemit.GoType(t, false).Values(items...)
	case int64:
		return jen.Lit(int(v))
	}
	return jen.Lit(v)
}

// renderParams are the parameters of every render function of a set.
func renderParams(s *ir.PromptSet) []jen.Code {
	return []jen.Code{jen.Id("dst").Index().Byte(), jen.Id("f").Op("*").Id(s.Feed.Name), jen.Id("v").Qual(ir.RuntimePath, "Variant")}
}

// emitSetRender writes the switch over template ids of either backend,
// whose case of template t returns render(t).
func emitSetRender(f *jen.File, s *ir.PromptSet, render func(t *ir.SetTemplate) jen.Code) {
	f.Comment(s.Helper + "Render appends template id rendered with f to dst, its versioned")
	f.Comment("components in the versions of v.")
	var body []jen.Code
	if s.Chat {
		var tools jen.Code
		if len(s.Tools) > 0 {
			tools = jen.Parens(jen.Op("&").Id(s.Name).Values()).Dot("Tools").Call()
		}
		body = chatChecks(tools, specialTokensVar(s.Name))
	}
	body = append(body,
		jen.Switch(jen.Id("id")).BlockFunc(func(g *jen.Group) {
			for id, t := range s.Templates {
				g.Case(jen.Lit(id)).Block(jen.Return(render(t)))
			}
		}),
		jen.Return(jen.Id("dst"), jen.Nil()),
	)
	f.Func().Id(s.Helper+"Render").Params(append([]jen.Code{jen.Id("id").Int()}, renderParams(s)...)...).Params(jen.Index().Byte(), jen.Error()).Block(body...)
}

// emitSetRenderers writes the render function of each template and
// component, and the switch over template ids.
func emitSetRenderers(f *jen.File, s *ir.PromptSet) {
	results := []jen.Code{jen.Index().Byte(), jen.Error()}
	emitSetRender(f, s, func(t *ir.SetTemplate) jen.Code {
		return jen.Id(t.Func).Call(jen.Id("dst"), jen.Id("f"), jen.Id("v"))
	})
	for _, t := range s.Templates {
		f.Comment(t.Func + " renders " + t.Path + " (" + t.Source + ").")
		f.Func().Id(t.Func).Params(renderParams(s)...).Params(results...).Block(goemit.GoBody(f, t.Body)...)
	}
	for _, c := range s.Components {
		if len(c.Versions) == 1 {
			f.Comment(c.Func + " renders the component " + c.Versions[0].Full + " (" + c.Versions[0].Source + ").")
			f.Func().Id(c.Func).Params(renderParams(s)...).Params(results...).Block(goemit.GoBody(f, c.Versions[0].Body)...)
			continue
		}
		f.Comment(c.Func + " renders the component " + c.Full() + " in the version that v")
		f.Comment("chooses, else " + versionDesc(c.Versions[0].Version) + ".")
		f.Func().Id(c.Func).Params(renderParams(s)...).Params(results...).Block(
			jen.Switch(jen.Id("v").Dot("Version").Call(jen.Lit(c.Name))).BlockFunc(func(g *jen.Group) {
				for _, v := range c.Versions[1:] {
					g.Case(jen.Lit(v.Version)).Block(jen.Return(jen.Id(v.Func).Call(jen.Id("dst"), jen.Id("f"), jen.Id("v"))))
				}
			}),
			jen.Return(jen.Id(c.Versions[0].Func).Call(jen.Id("dst"), jen.Id("f"), jen.Id("v"))),
		)
		for _, v := range c.Versions {
			f.Comment(v.Func + " renders " + v.Full + " (" + v.Source + ").")
			f.Func().Id(v.Func).Params(renderParams(s)...).Params(results...).Block(goemit.GoBody(f, v.Body)...)
		}
	}
}

// emitSetTemplates writes the text/template backend of a set: the switch
// over template ids, and each template and component version translated to
// text/template source, parsed at package initialization into one
// association of templates named by their prompts. A template renders its
// components with ttfuncs' $.Include, choosing their versions from v.
func emitSetTemplates(f *jen.File, s *ir.PromptSet) {
	h := s.Helper
	emitSetRender(f, s, func(t *ir.SetTemplate) jen.Code {
		return jen.Qual(ir.TTFuncsPath, "ExecuteVariant").Call(
			jen.Id(t.Func+"Template"), jen.Id("dst"), jen.Lit(t.Body.Key), jen.Lit(t.Body.File), jen.Id("f"), jen.Id("v"))
	})
	f.Comment(h + "Templates associates the templates of the set and of its components,")
	f.Comment("each named by its prompt, so that $.Include finds a component's.")
	f.Var().Id(h + "Templates").Op("=").Add(withGoFilters(jen.Qual("text/template", "New").Call(jen.Lit(s.Key)).
		Dot("Funcs").Call(jen.Qual(ir.TTFuncsPath, "Funcs").Call()), s.Filters))
	parse := func(name, what string, p *ir.Prompt) {
		srcName, tmplName := name+"Source", name+"Template"
		f.Comment(srcName + " is " + what + " translated to Go text/template.")
		f.Const().Id(srcName).Op("=").Add(multiLineLit(ttemit.Translate(p)))
		f.Comment(tmplName + " is " + srcName + " parsed.")
		f.Var().Id(tmplName).Op("=").Qual("text/template", "Must").Call(
			jen.Id(h + "Templates").Dot("New").Call(jen.Lit(p.Key)).Dot("Parse").Call(jen.Id(srcName)))
	}
	for _, t := range s.Templates {
		parse(t.Func, t.Path+" ("+t.Source+")", t.Body)
	}
	for _, c := range s.Components {
		for _, v := range c.Versions {
			name := v.Func
			if len(c.Versions) == 1 {
				name = c.Func
			}
			parse(name, "the component "+v.Full+" ("+v.Source+")", v.Body)
		}
	}
}

func versionDesc(v string) string {
	if v == "" {
		return "the unversioned content"
	}
	return "version " + strconv.Quote(v)
}

// upperFirst capitalises an ASCII first letter.
func upperFirst(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
