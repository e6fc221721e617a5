package outschema

import (
	"cmp"

	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/schema"
)

// This file lowers a prompt's output: outputFormat and outputSchema become
// the output IR, whose Go types package names names and package emit
// writes.

// outputFormat returns how ParseOutput reads a completion of p, or ""
// when p declares neither outputFormat nor outputSchema (no ParseOutput).
func outputFormat(p *ir.PromptSpec) string {
	switch p.OutputFormat {
	case "json", "yaml":
		return p.OutputFormat
	case "text", "xml":
		return ir.FormatText
	}
	if p.OutputSchema != nil {
		return ir.FormatJSON
	}
	return ""
}

// Lower builds the output of p, reporting what the schema cannot
// apply to.
func Lower(p *ir.PromptSpec, diags *diag.Sink) *ir.Output {
	format := outputFormat(p)
	if p.OutputParsing != "" && format != ir.FormatJSON {
		diags.Errorf(p.OutputParsingPos, "outputParsing applies only to JSON answers (outputFormat json, or an outputSchema without outputFormat)")
	}
	if format == "" {
		return nil
	}
	o := newOutput(format, p.OutputSchema)
	o.RequestFormat, o.Strict = cmp.Or(p.OutputFormat, format), p.OutputParsing == "strict"
	if format == ir.FormatText && o.Schema != nil {
		diags.Warnf(p.OutputSchemaPos, "outputSchema is not used with outputFormat %q: ParseOutput returns the completion as is", p.OutputFormat)
		o.Schema = nil
	}
	if o.Schema != nil {
		root := o.Schema.Root.Type
		o.Nullable = root.Nullable && root.Kind != schema.Raw
		checkDecoded(o.Schema, diags)
		o.Checks = lowerChecks(o.Schema)
	}
	return o
}

func newOutput(format string, s *schema.Schema) *ir.Output {
	return &ir.Output{Format: format, Schema: s, Named: map[*schema.Type]*ir.OutType{}, Defs: map[*schema.Def]*ir.OutType{}}
}

// LowerTool lowers a tool: its arguments are an output in JSON of its
// parameters' schema, which ParseToolCall reads as ParseOutput reads an
// answer.
func LowerTool(t *ir.ToolSpec, diags *diag.Sink) *ir.Tool {
	o := newOutput(ir.FormatJSON, t.Parameters)
	o.RequestFormat = ir.FormatJSON
	checkDecoded(o.Schema, diags)
	o.Checks = lowerChecks(o.Schema)
	return &ir.Tool{Spec: t, Args: o}
}

// checkDecoded rejects the checks that would hold for the completion but
// not for the value ParseOutput returns: encoding/json drops the members
// an object does not declare, so they must not count (minProperties,
// maxProperties) or tell items apart (uniqueItems).
func checkDecoded(s *schema.Schema, diags *diag.Sink) {
	seen := map[*schema.Type]bool{}
	var walk func(t *schema.Type)
	walk = func(t *schema.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		c := t.Checks
		if t.Kind == schema.Object && !t.Closed && (c.MinProperties != nil || c.MaxProperties != nil) {
			diags.Errorf(src.Pos(t.Pos), "minProperties and maxProperties need additionalProperties: false here: ParseOutput decodes the declared properties only, so members it drops would be counted")
		}
		if t.Kind == schema.Array && c.UniqueItems && dropsMembers(t.Elem, map[*schema.Type]bool{}) {
			diags.Errorf(src.Pos(t.Pos), "uniqueItems over objects needs additionalProperties: false on them: ParseOutput decodes the declared properties only, so items that differ in a dropped member would be equal")
		}
		for _, p := range t.Props {
			walk(p.Type)
		}
		for _, v := range t.Variants {
			walk(v.Type)
		}
		walk(t.Elem)
	}
	walk(s.Root.Type)
	for _, d := range s.Defs {
		walk(d.Type)
	}
}

// dropsMembers reports whether decoding a value of type t into Go can
// drop a member: t holds an object without additionalProperties: false.
func dropsMembers(t *schema.Type, seen map[*schema.Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	switch {
	case t.Kind == schema.Object && !t.Closed:
		return true
	case t.Kind == schema.Ref:
		return dropsMembers(t.Ref.Type, seen)
	}
	for _, p := range t.Props {
		if dropsMembers(p.Type, seen) {
			return true
		}
	}
	for _, v := range t.Variants {
		if dropsMembers(v.Type, seen) {
			return true
		}
	}
	return dropsMembers(t.Elem, seen)
}
