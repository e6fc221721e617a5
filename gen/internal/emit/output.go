package emit

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/schema"
)

// This file writes a prompt's output: the Go types that ParseOutput
// returns (named by package names), the compiled schema or the checks,
// Request, ParseOutput and Examples.
//
// Go types of the schema model (schema.Kind):
//
//	String             string; with an enum (not a const), a named string
//	                   type with one constant per value and a Valid method
//	Integer, Number    int, float64
//	Boolean            bool
//	Object             a named struct, <Prompt>Output<Path>
//	Array, Map         []E, map[string]E; elements are <...>Item
//	Ref                the named type of the Def, or the Def's Go type
//	                   inline when it needs no name
//	Union              a named struct with one pointer per variant and
//	                   JSON methods switching on the discriminator
//	Raw                json.RawMessage (the schema package warns)
//
// A property that is optional or nullable is a pointer, unless its type
// is a slice, a map or raw JSON, which are nil instead; an optional one is
// omitempty. A property whose type is a recursive Def's struct is always a
// pointer, so that the Go type is finite.

const jsonPath = "encoding/json"

// decodeExampleHelper is the package helper that Examples methods call.
const decodeExampleHelper = "_decodeExample"

// emitTypes writes the named types of p's output and its compiled
// schema.
func emitTypes(f *jen.File, p *ir.Prompt) {
	o := p.Output
	if o != nil {
		for _, t := range o.Types {
			emitOutType(o, f, t)
		}
	}
	if o != nil && o.Schema != nil {
		emitSchema(f, o, "outputSchema", "the "+p.Key+" prompt", "outputs")
	}
	if o != nil && o.ParserVar != "" {
		f.Comment(o.ParserVar + " reads the completions of the " + p.Key + " prompt for ParseOutput.")
		emitParser(f, o)
	}
	if o != nil && o.Partial != "" {
		emitPartials(f, p)
	}
	if p.ExampleName != "" {
		f.Comment(p.ExampleName + " is one of the examples of the " + p.Key + " prompt: variables and")
		f.Comment("the output expected for them.")
		f.Type().Id(p.ExampleName).Struct(
			jen.Id("Input").Id(p.Feed.Name),
			jen.Id("Output").Add(exampleOutputType(p)),
		)
	}
}

// emitSchema writes o's schema as JSON, with its x-aliases when it has
// some, and its checks or compiled schema. The schema is the schemaKey of
// owner, and validates its values ("outputs").
func emitSchema(f *jen.File, o *ir.Output, schemaKey, owner, values string) {
	f.Comment(o.SchemaVar + "JSON is the " + schemaKey + " of " + owner + " as JSON.")
	f.Const().Id(o.SchemaVar + "JSON").Op("=").Lit(string(o.Schema.JSON))
	f.Line()
	if o.Schema.ParserJSON != nil {
		f.Comment(o.SchemaVar + "ParserJSON is the " + schemaKey + " with its x-aliases, which models are not sent.")
		f.Const().Id(o.SchemaVar + "ParserJSON").Op("=").Lit(string(o.Schema.ParserJSON))
		f.Line()
	}
	if o.Checks != nil {
		emitChecks(f, o, "the "+values+" of "+owner, schemaKey)
		return
	}
	f.Comment(o.SchemaVar + " validates " + values + "; it is compiled once, when the package is initialised.")
	f.Var().Id(o.SchemaVar).Op("=").Qual(ir.OutputPath, "MustCompileSchema").Call(jen.Id(o.SchemaVar + "JSON"))
	f.Line()
}

// exampleOutputType is the Go type of an example's output.
func exampleOutputType(p *ir.Prompt) jen.Code {
	if p.Output == nil {
		return jen.String()
	}
	return answerType(p.Output)
}

// answerType is the Go type ParseOutput returns: the output type, or a
// pointer to it when the schema's top allows null, so that null is nil
// rather than the zero value.
func answerType(o *ir.Output) *jen.Statement {
	if o.Nullable {
		return jen.Op("*").Id(o.Name)
	}
	return jen.Id(o.Name)
}

// typeDoc writes the doc comment of a named type: its name and what it is,
// then the schema's description.
func typeDoc(f *jen.File, name, doc string, t *schema.Type) {
	f.Comment(name + " " + doc)
	if t != nil && t.Description != "" {
		f.Comment("")
		docLines(f, t.Description)
	}
}

func emitOutType(o *ir.Output, f *jen.File, t *ir.OutType) {
	switch t.Kind {
	case ir.OutStruct:
		typeDoc(f, t.Name, t.Doc, t.T)
		f.Type().Id(t.Name).StructFunc(func(g *jen.Group) {
			for _, fld := range t.Fields {
				if d := fld.Prop.Type.Description; d != "" {
					lines := strings.Split(strings.TrimRight(d, "\n"), "\n")
					lines[0] = fld.GoName + ": " + lines[0]
					for _, l := range lines {
						g.Comment(l)
					}
				}
				typ, omit := outFieldType(o, fld.Prop)
				tag := fld.Prop.Name
				switch {
				case !ir.ValidJSONKey(tag):
					tag = "-" // read and written by its exact name: emitExactMembers
				case omit:
					tag += ",omitempty"
				}
				g.Id(fld.GoName).Add(typ).Tag(map[string]string{"json": tag})
			}
		})
		emitExactMembers(o, f, t)
	case ir.OutEnum:
		emitOutEnum(o, f, t)
	case ir.OutUnion:
		emitOutUnion(o, f, t)
	case ir.OutDefined:
		typeDoc(f, t.Name, t.Doc, t.T)
		f.Type().Id(t.Name).Add(outUnderlying(o, t.T))
	case ir.OutAlias:
		typeDoc(f, t.Name, t.Doc, t.T)
		var u jen.Code
		switch {
		case t.T != nil:
			u = outUnderlying(o, t.T)
		case o.Format == ir.FormatText:
			u = jen.String()
		default:
			u = jen.Qual(jsonPath, "RawMessage")
		}
		f.Type().Id(t.Name).Op("=").Add(u)
	}
	f.Line()
}

// emitExactMembers writes the JSON methods of struct t when some of its
// properties have names encoding/json cannot read from a struct tag ("a,b",
// "k\"e\"y", "😀", ""): they read and write those members by their exact
// names, and the others as encoding/json does.
func emitExactMembers(o *ir.Output, f *jen.File, t *ir.OutType) {
	var decode, encode []jen.Code
	for _, fld := range t.Fields {
		name := fld.Prop.Name
		if ir.ValidJSONKey(name) {
			continue
		}
		decode = append(decode, jen.Values(jen.Dict{jen.Id("Name"): jen.Lit(name), jen.Id("Value"): jen.Op("&").Id("x").Dot(fld.GoName)}))
		member := jen.Dict{jen.Id("Name"): jen.Lit(name), jen.Id("Value"): jen.Id("x").Dot(fld.GoName)}
		if _, omit := outFieldType(o, fld.Prop); omit {
			if outPointerable(o, fld.Prop.Type) {
				member[jen.Id("Omit")] = jen.Id("x").Dot(fld.GoName).Op("==").Nil()
			} else {
				member[jen.Id("Omit")] = jen.Len(jen.Id("x").Dot(fld.GoName)).Op("==").Lit(0)
			}
		}
		encode = append(encode, jen.Values(member))
	}
	if decode == nil {
		return
	}
	member := jen.Qual(ir.OutputPath, "Member")
	f.Line()
	f.Comment("UnmarshalJSON decodes x, reading the members whose names a struct tag cannot")
	f.Comment("hold by their exact names.")
	f.Func().Params(jen.Id("x").Op("*").Id(t.Name)).Id("UnmarshalJSON").Params(jen.Id("doc").Index().Byte()).Error().Block(
		jen.Type().Id("plain").Id(t.Name),
		jen.If(jen.Err().Op(":=").Qual(jsonPath, "Unmarshal").Call(jen.Id("doc"), jen.Parens(jen.Op("*").Id("plain")).Call(jen.Id("x"))), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Err())),
		jen.Return(jen.Qual(ir.OutputPath, "DecodeMembers").Call(append([]jen.Code{jen.Id("doc")}, prefixed(member, decode)...)...)),
	)
	f.Line()
	f.Comment("MarshalJSON encodes x, writing the members whose names a struct tag cannot hold")
	f.Comment("by their exact names.")
	f.Func().Params(jen.Id("x").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Type().Id("plain").Id(t.Name),
		jen.List(jen.Id("doc"), jen.Err()).Op(":=").Qual(jsonPath, "Marshal").Call(jen.Id("plain").Call(jen.Id("x"))),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Qual(ir.OutputPath, "AppendMembers").Call(append([]jen.Code{jen.Id("doc")}, prefixed(member, encode)...)...)),
	)
}

// prefixed puts a type name before each composite literal of values.
func prefixed(typ *jen.Statement, values []jen.Code) []jen.Code {
	out := make([]jen.Code, len(values))
	for i, v := range values {
		out[i] = typ.Clone().Add(v)
	}
	return out
}

func emitOutEnum(o *ir.Output, f *jen.File, t *ir.OutType) {
	typeDoc(f, t.Name, t.Doc, t.T)
	f.Type().Id(t.Name).String()
	f.Line()
	var named []jen.Code
	for _, c := range t.Consts {
		if c.GoName != "" {
			named = append(named, jen.Id(c.GoName).Id(t.Name).Op("=").Lit(c.Value))
		}
	}
	if len(named) > 0 {
		f.Comment("The values of " + t.Name + ".")
		f.Const().Defs(named...)
		f.Line()
	}
	var cases []jen.Code
	for _, c := range t.Consts {
		if c.GoName != "" {
			cases = append(cases, jen.Id(c.GoName))
		} else {
			cases = append(cases, jen.Lit(c.Value))
		}
	}
	f.Comment("Valid reports whether v is one of the values of " + t.Name + ".")
	f.Func().Params(jen.Id("v").Id(t.Name)).Id("Valid").Params().Bool().Block(
		jen.Switch(jen.Id("v")).Block(jen.Case(cases...).Block(jen.Return(jen.True()))),
		jen.Return(jen.False()),
	)
}

func emitOutUnion(o *ir.Output, f *jen.File, t *ir.OutType) {
	disc := t.T.Discriminator
	typeDoc(f, t.Name, t.Doc, t.T)
	f.Comment("")
	f.Comment("Exactly one field is set: the one that " + strconv.Quote(disc) + " names.")
	f.Type().Id(t.Name).StructFunc(func(g *jen.Group) {
		for _, v := range t.Variants {
			g.Comment(v.GoName + " is set when " + disc + " is " + strconv.Quote(v.V.Value) + ".")
			g.Id(v.GoName).Op("*").Add(outGoType(o, v.V.Type))
		}
	})
	f.Line()
	f.Comment("MarshalJSON encodes the variant that is set, or null when none is.")
	f.Func().Params(jen.Id("u").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).BlockFunc(func(g *jen.Group) {
		g.Switch().BlockFunc(func(g *jen.Group) {
			for _, v := range t.Variants {
				g.Case(jen.Id("u").Dot(v.GoName).Op("!=").Nil()).Block(
					jen.Return(jen.Qual(jsonPath, "Marshal").Call(jen.Id("u").Dot(v.GoName))))
			}
		})
		g.Return(jen.Index().Byte().Call(jen.Lit("null")), jen.Nil())
	})
	f.Line()
	f.Comment("UnmarshalJSON decodes the variant that " + strconv.Quote(disc) + " names. A value that names none")
	f.Comment("leaves every field nil, for validation to report.")
	f.Func().Params(jen.Id("u").Op("*").Id(t.Name)).Id("UnmarshalJSON").Params(jen.Id("b").Index().Byte()).Error().BlockFunc(func(g *jen.Group) {
		g.Op("*").Id("u").Op("=").Id(t.Name).Values()
		g.Var().Id("d").Struct(jen.Id("Value").String().Tag(map[string]string{"json": disc}))
		g.If(jen.Qual(jsonPath, "Unmarshal").Call(jen.Id("b"), jen.Op("&").Id("d")).Op("!=").Nil()).Block(jen.Return(jen.Nil()))
		g.Switch(jen.Id("d").Dot("Value")).BlockFunc(func(g *jen.Group) {
			for _, v := range t.Variants {
				g.Case(jen.Lit(v.V.Value)).Block(
					jen.Id("u").Dot(v.GoName).Op("=").New(outGoType(o, v.V.Type)),
					jen.Return(jen.Qual(jsonPath, "Unmarshal").Call(jen.Id("b"), jen.Id("u").Dot(v.GoName))),
				)
			}
		})
		g.Return(jen.Nil())
	})
}

// outGoType is the Go type of schema t: its named type, or the type it is
// built from.
func outGoType(o *ir.Output, t *schema.Type) *jen.Statement {
	if ot := o.Named[t]; ot != nil {
		return jen.Id(ot.Name)
	}
	return outUnderlying(o, t)
}

// outUnderlying is the Go type of t without t's own name.
func outUnderlying(o *ir.Output, t *schema.Type) *jen.Statement {
	switch t.Kind {
	case schema.Ref:
		if ot := o.Defs[t.Ref]; ot != nil {
			return jen.Id(ot.Name)
		}
		return outGoType(o, t.Ref.Type)
	case schema.String:
		return jen.String()
	case schema.Integer:
		return jen.Int()
	case schema.Number:
		return jen.Float64()
	case schema.Boolean:
		return jen.Bool()
	case schema.Array:
		return jen.Index().Add(outElemType(o, t.Elem))
	case schema.Map:
		return jen.Map(jen.String()).Add(outElemType(o, t.Elem))
	}
	return jen.Qual(jsonPath, "RawMessage") // Raw; objects and unions are named
}

// outElemType is the Go type of an array element or map value: a pointer
// when it is nullable.
func outElemType(o *ir.Output, t *schema.Type) *jen.Statement {
	if t.Nullable && outPointerable(o, t) {
		return jen.Op("*").Add(outGoType(o, t))
	}
	return outGoType(o, t)
}

// resolveRef follows references to the schema that t stands for.
func resolveRef(t *schema.Type) *schema.Type {
	for i := 0; t.Kind == schema.Ref && i < 100; i++ {
		t = t.Ref.Type
	}
	return t
}

// outPointerable reports whether an optional or nullable value of type t is
// a pointer: slices, maps and raw JSON are nil instead.
func outPointerable(o *ir.Output, t *schema.Type) bool {
	switch resolveRef(t).Kind {
	case schema.Array, schema.Map, schema.Raw:
		return false
	}
	return true
}

// outFieldType is the Go type of a property, and whether it is omitempty.
func outFieldType(o *ir.Output, p *schema.Prop) (*jen.Statement, bool) {
	t := p.Type
	ptr := !p.Required || t.Nullable
	if t.Kind == schema.Ref && t.Ref.Recursive {
		k := resolveRef(t).Kind
		ptr = ptr || k == schema.Object || k == schema.Union
	}
	if ptr && outPointerable(o, t) {
		return jen.Op("*").Add(outGoType(o, t)), !p.Required
	}
	return outGoType(o, t), !p.Required
}

// emitRequest writes Request, which builds the payload of a model call.
func emitRequest(f *jen.File, p *ir.Prompt) {
	req := jen.Qual(ir.RuntimePath, "Request")
	fields := jen.Dict{
		jen.Id("Parameters"): jen.Id("p").Dot("Parameters").Call(),
	}
	if len(p.ExtraParameters) > 0 {
		fields[jen.Id("ExtraParameters")] = jen.Id("p").Dot("ExtraParameters").Call()
	}
	if !p.IsMessages {
		fields[jen.Id("Prompt")] = jen.Id("text")
	}
	if len(p.Messages) > 1 || p.IsMessages {
		fields[jen.Id("Messages")] = jen.Id("msgs")
	}
	if p.Model != "" {
		fields[jen.Id("Model")] = jen.Lit(p.Model)
	}
	if o := p.Output; o != nil {
		fields[jen.Id("OutputFormat")] = jen.Lit(o.RequestFormat)
	}
	if o := p.Output; o != nil && o.Schema != nil {
		fields[jen.Id("OutputSchema")] = jen.Qual(jsonPath, "RawMessage").Call(jen.Id(o.SchemaVar + "JSON"))
	}
	if len(p.Tools) > 0 {
		fields[jen.Id("Tools")] = jen.Id("p").Dot("Tools").Call()
	}
	if p.ToolChoice != "" {
		fields[jen.Id("ToolChoice")] = jen.Lit(p.ToolChoice)
	}
	f.Comment("Request renders the prompt with the variables of f and returns the payload of a")
	f.Comment("model call: the prompt's model, parameters and output format and schema, changed")
	f.Comment("by opts in order (runtime.WithModel, runtime.Temperature, ...). A parameter")
	f.Comment("opts leave unknown, of the wrong type or out of range is an error (params.Validate).")
	f.Func().Params(promptRecv(p, "p")).Id("Request").Params(
		jen.Id("f").Id(p.Feed.Name), jen.Id("opts").Op("...").Qual(ir.RuntimePath, "RequestOption"),
	).Params(req.Clone(), jen.Error()).BlockFunc(func(g *jen.Group) {
		if !p.IsMessages {
			g.List(jen.Id("text"), jen.Err()).Op(":=").Id("p").Dot("Render").Call(jen.Id("f"))
			g.If(jen.Err().Op("!=").Nil()).Block(jen.Return(req.Clone().Values(), jen.Err()))
		}
		if len(p.Messages) > 1 || p.IsMessages {
			g.List(jen.Id("msgs"), jen.Err()).Op(":=").Id("p").Dot("Messages").Call(jen.Id("f"))
			g.If(jen.Err().Op("!=").Nil()).Block(jen.Return(req.Clone().Values(), jen.Err()))
		}
		g.Id("r").Op(":=").Add(req.Clone()).Values(fields)
		g.Err().Op("=").Qual(ir.ParamsPath, "Apply").Call(jen.Op("&").Id("r"), jen.Id("opts"))
		g.Return(jen.Id("r"), jen.Err())
	})
}

// emitMethods writes ParseOutput and Examples on the prompt type.
func emitMethods(f *jen.File, p *ir.Prompt) {
	typ := promptRecv(p, "")
	if o := p.Output; o != nil {
		out := answerType(o)
		completion := jen.Id("completion").String()
		results := jen.Params(out.Clone(), jen.Error())
		parseWith := func() {
			f.Func().Params(typ.Clone()).Id("ParseOutput").Params(completion, jen.Id("opts").Op("...").Qual(ir.OutputPath, "ParseOption")).Add(results).Block(
				jen.Return(jen.Qual(ir.OutputPath, "ParseWith").Types(out.Clone()).Call(jen.Id(o.ParserVar), jen.Id("completion"), jen.Id("opts").Op("..."))))
		}
		switch o.Format {
		case ir.FormatJSON:
			parseJSONDoc(f, o)
			parseWith()
			schemaJSON := jen.Lit("")
			if o.Schema != nil {
				schemaJSON = jen.Id(o.SchemaVar + "JSON")
			}
			if o.Partial != "" {
				emitPartialMethods(f, p)
			}
			f.Comment("Correction is a short message for the model on why its answer, which ParseOutput")
			f.Comment("rejected with err, cannot be used: what is wrong and where, and what the schema")
			f.Comment("wants, to send back in one line (output.Correction); \"\" for a nil err.")
			f.Func().Params(typ.Clone()).Id("Correction").Params(jen.Err().Error()).String().Block(
				jen.Return(jen.Qual(ir.OutputPath, "Correction").Call(jen.Err(), schemaJSON)))
		case ir.FormatYAML:
			f.Comment("ParseOutput extracts the YAML answer of a completion (fenced or whole) and")
			f.Comment("reads it as written: opts have no effect, and output.Fixes receives none. It then")
			parseDoc(f, o)
			parseWith()
		case ir.FormatText:
			f.Comment("ParseOutput returns the completion as is: the prompt's output is text.")
			f.Func().Params(typ.Clone()).Id("ParseOutput").Params(completion).Add(results).Block(
				jen.Return(jen.Id("completion"), jen.Nil()))
		}
	}
	if p.ExampleName == "" {
		return
	}
	f.Comment("Examples returns the prompt's examples, checked against its inputs and outputSchema")
	f.Comment("when the package was generated. They are decoded anew on each call.")
	f.Func().Params(typ.Clone()).Id("Examples").Params().Index().Id(p.ExampleName).Block(
		jen.Return(jen.Index().Id(p.ExampleName).ValuesFunc(func(g *jen.Group) {
			for _, ex := range p.Examples {
				var out jen.Code
				if p.Output == nil || p.Output.Format == ir.FormatText {
					out = jen.Lit(ex.Output)
				} else {
					out = jen.Id(decodeExampleHelper).Types(answerType(p.Output)).Call(jen.Lit(ex.Output))
				}
				g.Values(jen.Dict{
					jen.Id("Input"):  jen.Id(decodeExampleHelper).Types(jen.Id(p.Feed.Name)).Call(jen.Lit(ex.Input)),
					jen.Id("Output"): out,
				})
			}
		})))
}

// emitPartials writes <Prompt>Partial: what is known of an answer while
// it streams.
func emitPartials(f *jen.File, p *ir.Prompt) {
	o := p.Output
	field := jen.Qual(ir.OutputPath, "Field")
	if r := o.PartialRoot; r != nil {
		f.Comment(o.Partial + " is what is known of an answer of the " + p.Key + " prompt while it streams:")
		f.Comment("its state and, once it can be read, its value.")
		f.Type().Id(o.Partial).Op("=").Add(field.Clone().Types(partialValueType(o, r, o.Schema.Root.Type)))
		f.Line()
	}
	for i, pt := range o.Partials {
		if i == 0 && o.PartialRoot == nil {
			f.Comment(pt.Name + " is what is known of an answer of the " + p.Key + " prompt while it streams:")
		} else {
			f.Comment(pt.Name + " is what is known of a " + pt.Of.Name + " while the answer streams:")
		}
		f.Comment("each field's state (absent, in progress, done) and what is known of its value.")
		f.Comment("Its JSON is what is known, the absent fields left out.")
		f.Type().Id(pt.Name).StructFunc(func(g *jen.Group) {
			for _, pf := range pt.Fields {
				g.Id(pf.GoName).Add(field.Clone().Types(partialValueType(o, &pf, pf.Prop.Type))).Tag(map[string]string{"output": pf.Prop.Name})
			}
		})
		f.Line()
		f.Comment("MarshalJSON encodes what is known.")
		f.Func().Params(jen.Id("x").Id(pt.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
			jen.Return(jen.Qual(ir.OutputPath, "MarshalPartial").Call(jen.Id("x"))))
		f.Line()
	}
}

// partialValueType is the Go type of what is known of a value of type t:
// its partial struct, a list of them, or the output's Go type.
func partialValueType(o *ir.Output, pf *ir.PartialField, t *schema.Type) jen.Code {
	switch {
	case pf.Struct != nil && pf.List:
		return jen.Index().Id(pf.Struct.Name)
	case pf.Struct != nil:
		return jen.Id(pf.Struct.Name)
	case t == o.Schema.Root.Type:
		return answerType(o)
	}
	return outElemType(o, t)
}

// emitPartialMethods writes ParsePartial and Stream on the prompt type.
func emitPartialMethods(f *jen.File, p *ir.Prompt) {
	o := p.Output
	typ := promptRecv(p, "")
	f.Comment("ParsePartial returns what is known of an answer of the prompt from text, the part")
	f.Comment("of it received so far: complete values read as ParseOutput reads them, objects")
	f.Comment("and lists as far as they go, a string so far (in progress). An error means the")
	f.Comment("text already cannot become an answer of the outputSchema.")
	f.Func().Params(typ.Clone()).Id("ParsePartial").Params(jen.Id("text").String()).Params(jen.Id(o.Partial), jen.Error()).Block(
		jen.Return(jen.Qual(ir.OutputPath, "ParsePartial").Types(jen.Id(o.Partial)).Call(jen.Id(o.ParserVar), jen.Id("text"))))
	f.Line()
	stream := jen.Qual(ir.OutputPath, "Stream").Types(jen.Id(o.Partial), answerType(o))
	f.Comment("Stream returns a reader of an answer of the prompt as it arrives: write its chunks,")
	f.Comment("ask Partial for what is known, and End for ParseOutput of the whole answer.")
	f.Func().Params(typ.Clone()).Id("Stream").Params().Op("*").Add(stream).Block(
		jen.Return(jen.Qual(ir.OutputPath, "NewStream").Types(jen.Id(o.Partial), answerType(o)).Call(jen.Id(o.ParserVar))))
	f.Line()
}

// validator is the output.Validator of o's values: its checks, its
// compiled schema, or nil without a schema.
func validator(o *ir.Output) jen.Code {
	switch {
	case o.Checks != nil:
		return jen.Op("&").Id(o.ChecksType).Values()
	case o.Schema != nil:
		return jen.Id(o.SchemaVar)
	}
	return jen.Nil()
}

// emitParser writes the output.Parser of o, after its doc comment.
func emitParser(f *jen.File, o *ir.Output) {
	schemaJSON := jen.Lit("")
	switch {
	case o.Schema != nil && o.Schema.ParserJSON != nil:
		schemaJSON = jen.Id(o.SchemaVar + "ParserJSON")
	case o.Schema != nil:
		schemaJSON = jen.Id(o.SchemaVar + "JSON")
	}
	parser := jen.Qual(ir.OutputPath, "NewParser").Call(schemaJSON, validator(o))
	switch {
	case o.Format == ir.FormatYAML:
		parser = jen.Qual(ir.OutputPath, "NewDocParser").Call(jen.Qual(ir.YAMLOutPath, "Extract"), validator(o))
	case o.Strict:
		parser = jen.Qual(ir.OutputPath, "NewParser").Call(schemaJSON, validator(o), jen.Qual(ir.OutputPath, "Strict").Call())
	}
	f.Var().Id(o.ParserVar).Op("=").Add(parser)
	f.Line()
}

// parseJSONDoc writes the doc comment of the ParseOutput of a JSON output.
func parseJSONDoc(f *jen.File, o *ir.Output) {
	if o.Strict {
		f.Comment("ParseOutput extracts the JSON answer of a completion (bare, fenced or in prose)")
		f.Comment("as it is written (outputParsing: strict; output.Lenient() repairs it as models")
		f.Comment("write it),")
		parseDoc(f, o)
		return
	}
	f.Comment("ParseOutput reads the JSON answer of a completion (bare, fenced or in prose) as a")
	if o.Schema != nil {
		f.Comment("careful reader would: it repairs what models write (comments, unquoted keys,")
		f.Comment("trailing commas, truncation, \"12,111\" for a number, ...) where exactly one reading")
		f.Comment("fits the outputSchema; output.Fixes(&fixes) receives each repair, and")
	} else {
		f.Comment("careful reader would: it repairs the syntax models get wrong (comments, unquoted")
		f.Comment("keys, trailing commas, truncation, ...); output.Fixes(&fixes) receives each repair, and")
	}
	f.Comment("output.Strict() takes the JSON only as it is written. It then")
	parseDoc(f, o)
}

// parseDoc ends the doc comment of ParseOutput.
func parseDoc(f *jen.File, o *ir.Output) {
	if o.Schema == nil {
		f.Comment("checks that it is well-formed and returns it as JSON: the prompt has no outputSchema.")
		return
	}
	f.Comment("decodes it and validates it against the outputSchema. Violations are")
	f.Comment("output.Errors, each with the JSON pointer of the value, the schema keyword and a")
	f.Comment("message short enough to quote back to the model; the decoded value is returned too.")
	if o.Nullable {
		f.Comment("The schema allows null: it is a nil " + o.Name + ".")
	}
}

// emitDecodeExample writes the helper of the Examples methods in
// promptgen.go.
func emitDecodeExample(f *jen.File) {
	f.Comment(decodeExampleHelper + " decodes a value of an example, which promptgen checked when it")
	f.Comment("generated the package.")
	f.Func().Id(decodeExampleHelper).Types(jen.Id("T").Any()).Params(jen.Id("doc").String()).Id("T").Block(
		jen.Var().Id("v").Id("T"),
		jen.If(jen.Err().Op(":=").Qual(jsonPath, "Unmarshal").Call(jen.Index().Byte().Call(jen.Id("doc")), jen.Op("&").Id("v")), jen.Err().Op("!=").Nil()).Block(
			jen.Panic(jen.Lit("promptgen: example does not decode: ").Op("+").Err().Dot("Error").Call())),
		jen.Return(jen.Id("v")),
	)
}
