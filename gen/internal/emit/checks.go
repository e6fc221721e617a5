package emit

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// emitChecks writes the generated checks of an output: one function per
// schema that needs one, each reading one value with an output.Checker,
// and the Validator type that ParseOutput uses.
func emitChecks(f *jen.File, o *ir.Output, what, schemaKey string) {
	c := o.Checks
	f.Comment(o.ChecksType + " validates " + what + " with checks generated")
	f.Comment("from its " + schemaKey + ", which agree with the compiled schema.")
	f.Type().Id(o.ChecksType).Struct()
	f.Line()
	f.Comment("Validate implements output.Validator; it reads doc, not the decoded value.")
	f.Func().Params(jen.Op("*").Id(o.ChecksType)).Id("Validate").Params(jen.Id("doc").Index().Byte(), jen.Id("_").Any()).Error().Block(
		jen.Return(jen.Qual(ir.OutputPath, "Check").Call(jen.Id("doc"), jen.Id(c.Root.Func))))
	f.Line()
	for _, s := range c.Schemas {
		if s.PatternVar != "" {
			f.Var().Id(s.PatternVar).Op("=").Qual(ir.OutputPath, "MustCompilePattern").Call(jen.Lit(s.Pattern))
		}
	}
	f.Line()
	for _, s := range c.Schemas {
		if s.Func == "" {
			continue
		}
		f.Comment(s.Func + " checks " + pointerDoc(schemaKey, s.Pointer) + ".")
		f.Func().Id(s.Func).Params(jen.Id("c").Op("*").Qual(ir.OutputPath, "Checker")).BlockFunc(func(g *jen.Group) {
			checkBody(g, s)
		})
		f.Line()
	}
}

// pointerDoc names a schema by its JSON pointer p in the schema of key
// schemaKey (outputSchema).
func pointerDoc(schemaKey, p string) string {
	if p == "" {
		return "a value against the " + schemaKey
	}
	return "a value against the " + schemaKey + "'s " + p
}

// checkValue is the statement that checks the next value against s.
func checkValue(s *ir.CheckSchema) jen.Code {
	if s.Trivial() {
		return jen.Id("c").Dot("Skip").Call()
	}
	return jen.Id(s.Func).Call(jen.Id("c"))
}

// checkFunc is s's check as a function value.
func checkFunc(s *ir.CheckSchema) jen.Code {
	if s.Trivial() {
		return jen.Parens(jen.Op("*").Qual(ir.OutputPath, "Checker")).Dot("Skip")
	}
	return jen.Id(s.Func)
}

// kinds of JSON values, with the names of the type keyword.
var chkKinds = []struct {
	kind string // output.Kind constant
	name string // type name
}{
	{"Object", "object"}, {"Array", "array"}, {"String", "string"}, {"Number", "number"},
	{"Bool", "boolean"}, {"Null", "null"},
}

func checkBody(g *jen.Group, s *ir.CheckSchema) {
	c := jen.Id("c")
	switch {
	case s.Always != nil && !*s.Always:
		g.Add(c.Clone().Dot("Fail").Call(jen.Lit("false"), jen.Lit("not allowed")))
		g.Add(c.Clone().Dot("Skip").Call())
		return
	case s.Trivial():
		g.Add(c.Clone().Dot("Skip").Call())
		return
	case s.Ref != nil:
		g.Add(checkValue(s.Ref))
		return
	}
	for _, u := range []struct {
		method   string
		branches []*ir.CheckSchema
	}{{"OneOf", s.OneOf}, {"AnyOf", s.AnyOf}} {
		if u.branches == nil {
			continue
		}
		var args []jen.Code
		for _, br := range u.branches {
			args = append(args, checkFunc(br))
		}
		g.Add(c.Clone().Dot(u.method).Call(args...))
	}
	var cases, wrongType, notInEnum []jen.Code
	for _, k := range chkKinds {
		kind := jen.Qual(ir.OutputPath, k.kind)
		switch {
		case !chkAllows(s, k.name):
			wrongType = append(wrongType, kind)
		case s.HasEnum && len(chkEnumValues(s, k.name)) == 0:
			notInEnum = append(notInEnum, kind)
		default:
			if body := chkKindCheck(s, k.name); body != nil {
				cases = append(cases, jen.Case(kind).Block(body...))
			}
		}
	}
	if len(notInEnum) > 0 {
		cases = append(cases, jen.Case(notInEnum...).Block(chkEnumFail(s), c.Clone().Dot("Skip").Call()))
	}
	if len(wrongType) > 0 {
		cases = append(cases, jen.Case(wrongType...).Block(
			c.Clone().Dot("TypeError").Call(jen.Lit(strings.Join(s.Types, " or ")))))
	}
	if len(cases) == 0 {
		g.Add(c.Clone().Dot("Skip").Call())
		return
	}
	cases = append(cases, jen.Default().Block(c.Clone().Dot("Skip").Call()))
	g.Switch(c.Clone().Dot("Kind").Call()).Block(cases...)
}

// chkAllows reports whether the type keyword of s admits values of the JSON
// type name (a number may need an integer check besides).
func chkAllows(s *ir.CheckSchema, name string) bool {
	if len(s.Types) == 0 {
		return true
	}
	for _, t := range s.Types {
		if t == name || name == "number" && t == "integer" {
			return true
		}
	}
	return false
}

// chkEnumValues returns the values of s's enum or const of JSON type name.
func chkEnumValues(s *ir.CheckSchema, name string) []any {
	var vs []any
	for _, v := range s.Enum {
		switch v.(type) {
		case string:
			if name == "string" {
				vs = append(vs, v)
			}
		case json.Number:
			if name == "number" {
				vs = append(vs, v)
			}
		case bool:
			if name == "boolean" {
				vs = append(vs, v)
			}
		case nil:
			if name == "null" {
				vs = append(vs, v)
			}
		}
	}
	return vs
}

// chkEnumFail reports a value outside the enum or const.
func chkEnumFail(s *ir.CheckSchema) jen.Code {
	if s.Const {
		return jen.Id("c").Dot("Fail").Call(jen.Lit("const"), jen.Lit("value must be "+jsonText(s.Enum[0])))
	}
	texts := make([]string, len(s.Enum))
	for i, v := range s.Enum {
		texts[i] = jsonText(v)
	}
	return jen.Id("c").Dot("Fail").Call(jen.Lit("enum"), jen.Lit("value must be one of "+strings.Join(texts, ", ")))
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// chkKindCheck returns the statements that check a value of JSON type name
// against s, or nil when such values only need skipping.
func chkKindCheck(s *ir.CheckSchema, name string) []jen.Code {
	c := jen.Id("c")
	enum := chkEnumValues(s, name) // not empty when s has an enum: see checkBody
	switch name {
	case "object":
		return chkObjectCheck(s)
	case "array":
		return chkArrayCheck(s)
	case "string":
		if !s.HasEnum && !s.StringChecks() {
			return nil
		}
		body := []jen.Code{jen.Id("s").Op(":=").Add(c.Clone().Dot("Str").Call())}
		if s.HasEnum {
			var vals []jen.Code
			for _, v := range enum {
				vals = append(vals, jen.Lit(v.(string)))
			}
			body = append(body, jen.Switch(jen.Id("s")).Block(jen.Case(vals...), jen.Default().Block(chkEnumFail(s))))
		}
		if s.MinLength >= 0 || s.MaxLength >= 0 {
			body = append(body, c.Clone().Dot("Length").Call(jen.Id("s"), jen.Lit(s.MinLength), jen.Lit(s.MaxLength)))
		}
		if s.PatternVar != "" {
			body = append(body, c.Clone().Dot("Pattern").Call(jen.Id("s"), jen.Id(s.PatternVar)))
		}
		return body
	case "number":
		integer := chkAllows(s, "number") && !slices.Contains(s.Types, "number") && len(s.Types) > 0
		if !s.HasEnum && !s.NumberChecks() && !integer {
			return nil
		}
		n := jen.Id("n")
		body := []jen.Code{n.Clone().Op(":=").Add(c.Clone().Dot("Num").Call())}
		var checks []jen.Code
		if s.HasEnum {
			args := []jen.Code{n.Clone()}
			for _, v := range enum {
				args = append(args, jen.Lit(string(v.(json.Number))))
			}
			checks = append(checks, jen.If(jen.Op("!").Qual(ir.OutputPath, "NumberIn").Call(args...)).Block(chkEnumFail(s)))
		}
		for _, b := range []struct{ method, bound string }{
			{"Minimum", s.Minimum}, {"Maximum", s.Maximum}, {"ExclusiveMinimum", s.ExclusiveMinimum},
			{"ExclusiveMaximum", s.ExclusiveMaximum}, {"MultipleOf", s.MultipleOf},
		} {
			if b.bound != "" {
				checks = append(checks, c.Clone().Dot(b.method).Call(n.Clone(), jen.Lit(b.bound)))
			}
		}
		if integer {
			// A wrong type stops the other checks, as in jsonschema.
			typeErr := c.Clone().Dot("Fail").Call(jen.Lit("type"), jen.Lit("expected "+strings.Join(s.Types, " or ")+", but got number"))
			if len(checks) == 0 {
				return append(body, jen.If(jen.Op("!").Qual(ir.OutputPath, "IsInteger").Call(n.Clone())).Block(typeErr))
			}
			return append(body, jen.If(jen.Op("!").Qual(ir.OutputPath, "IsInteger").Call(n.Clone())).Block(typeErr).Else().Block(checks...))
		}
		return append(body, checks...)
	case "boolean":
		if !s.HasEnum {
			return nil
		}
		if len(enum) == 2 {
			return []jen.Code{c.Clone().Dot("Skip").Call()}
		}
		return []jen.Code{jen.If(c.Clone().Dot("Bool").Call().Op("!=").Lit(enum[0].(bool))).Block(chkEnumFail(s))}
	case "null":
		return nil // null is in the enum, or there is none
	}
	panic(fmt.Sprintf("checks: unexpected type %q", name))
}

func chkObjectCheck(s *ir.CheckSchema) []jen.Code {
	if !s.ObjectChecks() {
		return nil
	}
	c := jen.Id("c")
	var body []jen.Code
	if len(s.Required) > 0 {
		body = append(body, jen.Var().Id("has").Uint64())
	}
	body = append(body, c.Clone().Dot("Enter").Call())
	var other jen.Code
	switch {
	case s.Closed:
		other = c.Clone().Dot("Extra").Call()
	case s.Additional != nil:
		other = checkValue(s.Additional)
	default:
		other = c.Clone().Dot("Skip").Call()
	}
	var loop jen.Code
	if len(s.Props) == 0 {
		loop = jen.For(c.Clone().Dot("Member").Call()).Block(other)
	} else {
		var cases, keys []jen.Code
		for _, p := range s.Props {
			var stmts []jen.Code
			if p.Bit >= 0 {
				stmts = append(stmts, jen.Id("has").Op("|=").Lit(uint64(1)<<p.Bit))
			}
			stmts = append(stmts, checkValue(p.S))
			cases = append(cases, jen.Case(jen.Lit(p.Name)).Block(stmts...))
			keys = append(keys, jen.Lit(p.Name))
		}
		// A member named like a property in another case would be decoded as it.
		cases = append(cases, jen.Default().Block(c.Clone().Dot("Unknown").Call(keys...), other))
		loop = jen.For(c.Clone().Dot("Member").Call()).Block(jen.Switch(c.Clone().Dot("Key").Call()).Block(cases...))
	}
	body = append(body, loop)
	if len(s.Required) > 0 {
		all := uint64(1)<<len(s.Required) - 1
		if len(s.Required) == ir.MaxRequired {
			all = ^uint64(0)
		}
		args := []jen.Code{jen.Id("has")}
		for _, r := range s.Required {
			args = append(args, jen.Lit(r))
		}
		body = append(body, jen.If(jen.Id("has").Op("!=").Lit(all)).Block(c.Clone().Dot("Required").Call(args...)))
	}
	if s.MinProps >= 0 || s.MaxProps >= 0 {
		body = append(body, c.Clone().Dot("Properties").Call(jen.Lit(s.MinProps), jen.Lit(s.MaxProps)))
	}
	return body
}

func chkArrayCheck(s *ir.CheckSchema) []jen.Code {
	if !s.ArrayChecks() {
		return nil
	}
	c := jen.Id("c")
	var body []jen.Code
	if s.Unique {
		body = append(body, jen.Id("start").Op(":=").Add(c.Clone().Dot("Offset").Call()))
	}
	item := jen.Code(c.Clone().Dot("Skip").Call())
	if s.Items != nil {
		item = checkValue(s.Items)
	}
	body = append(body, c.Clone().Dot("Enter").Call(), jen.For(c.Clone().Dot("Item").Call()).Block(item))
	if s.MinItems >= 0 || s.MaxItems >= 0 {
		body = append(body, c.Clone().Dot("Items").Call(jen.Lit(s.MinItems), jen.Lit(s.MaxItems)))
	}
	if s.Unique {
		body = append(body, c.Clone().Dot("UniqueItems").Call(jen.Id("start")))
	}
	return body
}
