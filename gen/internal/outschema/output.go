package outschema

import (
	"strconv"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/names"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/schema"
)

// This file lowers a prompt's output: outputFormat and outputSchema become
// the Go types that ParseOutput returns, every name decided here so that
// emit only writes them.
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
	if format == "" {
		return nil
	}
	o := &ir.Output{Format: format, Schema: p.OutputSchema,
		Named: map[*schema.Type]*ir.OutType{}, Defs: map[*schema.Def]*ir.OutType{}}
	if format == ir.FormatText && o.Schema != nil {
		diags.Warnf(p.OutputSchemaPos, "outputSchema is not used with outputFormat %q: ParseOutput returns the completion as is", p.OutputFormat)
		o.Schema = nil
	}
	if o.Schema != nil {
		checkDecoded(o.Schema, diags)
		o.Checks = lowerChecks(o.Schema)
	}
	return o
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

// Name decides the names of p's output types in the package scope
// pkg. Properties and variants are named in a scope per struct.
func Name(pkg *names.Scope, diags *diag.Sink, p *ir.Prompt) {
	o := p.Output
	o.Name = p.Name + names.SuffixOutput
	o.SchemaVar = "_" + o.Name + "Schema"
	if o.Checks != nil {
		o.ChecksType = "_" + o.Name + "Checks"
		nameChecks(o.Checks, o.Name)
	}
	n := &outNamer{o: o, pkg: pkg, diags: diags, key: p.Spec.Key + " outputSchema", prompt: p.Spec.Key}
	if o.Schema == nil {
		doc := "is the answer of the " + p.Spec.Key + " prompt: the JSON value of the completion, not decoded."
		if o.Format == ir.FormatText {
			doc = "is the answer of the " + p.Spec.Key + " prompt: the completion's text."
		}
		n.add(&ir.OutType{Name: o.Name, Kind: ir.OutAlias, Doc: doc}, n.key, p.Spec.Pos)
		return
	}
	root := o.Schema.Root
	doc := "is the answer of the " + p.Spec.Key + " prompt, as its outputSchema describes it."
	switch t := root.Type; {
	case t.Kind == schema.Object || t.Kind == schema.Union || isEnum(t):
		n.walk(t, o.Name, n.key, doc)
		o.Defs[root] = o.Named[t]
	default:
		kind := ir.OutDefined
		if t.Kind == schema.Raw || t.Kind == schema.Ref {
			kind = ir.OutAlias
		}
		ot := &ir.OutType{Name: o.Name, Kind: kind, T: t, Doc: doc}
		n.add(ot, n.key, src.Pos(t.Pos))
		o.Defs[root] = ot
		n.children(t, o.Name, n.key)
	}
	for _, d := range o.Schema.Defs {
		name, ok := names.Exported(d.Name)
		if !ok {
			diags.Errorf(src.Pos(d.Type.Pos), "definition %q does not make a Go name (rename it)", d.Name)
			continue
		}
		name = o.Name + name
		key := n.key + "." + d.Name
		doc := "is the " + d.Name + " definition of the outputSchema of the " + p.Spec.Key + " prompt."
		switch t := d.Type; {
		case t.Kind == schema.Object || t.Kind == schema.Union || isEnum(t):
			n.walk(t, name, key, doc)
			o.Defs[d] = o.Named[t]
		case d.Recursive:
			ot := &ir.OutType{Name: name, Kind: ir.OutDefined, T: t, Doc: doc}
			n.add(ot, key, src.Pos(t.Pos))
			o.Defs[d] = ot
			n.children(t, name, key)
		default:
			n.children(t, name, key)
		}
	}
}

// isEnum reports whether t is a string enum with a named Go type: a const
// is a plain string.
func isEnum(t *schema.Type) bool {
	return t.Kind == schema.String && len(t.Enum) > 0 && !t.Const
}

// outNamer names the types of one output.
type outNamer struct {
	o     *ir.Output
	pkg   *names.Scope
	diags *diag.Sink
	// key is "<prompt key> outputSchema", the owner of names in messages
	// (a space, so that no feed variable's path is the same).
	key    string
	prompt string // the prompt's key, for doc comments
}

// add claims t's name and appends it to the types to emit.
func (n *outNamer) add(t *ir.OutType, key string, pos src.Pos) {
	names.Claim(n.pkg, n.diags, t.Name, key, pos)
	n.o.Types = append(n.o.Types, t)
	if t.T != nil {
		n.o.Named[t.T] = t
	}
}

// where describes a nested type for its doc comment, from its key.
// The key of the root's elements is "[]": they are "output[]".
func (n *outNamer) where(key string) string {
	rel := strings.TrimPrefix(strings.TrimPrefix(key, n.key), ".")
	if strings.HasPrefix(rel, "[") {
		rel = "output" + rel
	}
	return "is " + rel + " in the output of the " + n.prompt + " prompt."
}

// walk names schema t, which needs a named type, and the types below it.
// key is its dotted path in messages.
func (n *outNamer) walk(t *schema.Type, name, key, doc string) {
	ot := &ir.OutType{Name: name, T: t, Doc: doc}
	pos := src.Pos(t.Pos)
	switch {
	case t.Kind == schema.Object:
		ot.Kind = ir.OutStruct
		n.add(ot, key, pos)
		fields := names.NewScope()
		for _, p := range t.Props {
			goName, ok := names.Exported(p.Name)
			if !ok {
				n.diags.Errorf(src.Pos(p.Pos), "property %q does not make a Go name", p.Name)
				continue
			}
			if !ir.ValidJSONKey(p.Name) {
				n.diags.Errorf(src.Pos(p.Pos), "property %q cannot be a name in a Go struct tag: encoding/json would decode another member into it (names take letters, digits, spaces and %s)", p.Name, ir.JSONTagPunct)
				continue
			}
			if !n.claimMember(fields, goName, "properties", p.Name, src.Pos(p.Pos)) {
				continue
			}
			ot.Fields = append(ot.Fields, ir.OutField{Prop: p, GoName: goName})
			n.child(p.Type, name+goName, key+"."+p.Name)
		}
	case t.Kind == schema.Union:
		ot.Kind = ir.OutUnion
		n.add(ot, key, pos)
		fields := names.NewScope("MarshalJSON", "UnmarshalJSON")
		for _, v := range t.Variants {
			goName, ok := names.Exported(v.Value)
			if !ok {
				n.diags.Errorf(src.Pos(v.Type.Pos), "%q value %q does not make a Go name", t.Discriminator, v.Value)
				continue
			}
			if !n.claimMember(fields, goName, t.Discriminator+" values", v.Value, src.Pos(v.Type.Pos)) {
				continue
			}
			ot.Variants = append(ot.Variants, ir.OutVariant{V: v, GoName: goName})
			if v.Type.Kind != schema.Ref {
				n.walk(v.Type, name+goName, key+"."+v.Value, n.where(key+"."+v.Value))
			}
		}
	case isEnum(t):
		ot.Kind = ir.OutEnum
		n.add(ot, key, pos)
		consts := names.NewScope()
		for _, v := range t.Enum {
			s := v.(string)
			c := ir.OutConst{Value: s}
			if suffix := names.NewNamer().ExportedWords(s); suffix != "" &&
				n.claimMember(consts, suffix, "enum values", s, pos) {
				c.GoName = name + suffix
				names.Claim(n.pkg, n.diags, c.GoName, key+"="+strconv.Quote(s), pos)
			}
			ot.Consts = append(ot.Consts, c)
		}
	}
}

// claimMember claims a field or constant name in the scope of one type;
// two JSON names that make the same Go name are an error at both.
func (n *outNamer) claimMember(s *names.Scope, goName, noun, key string, pos src.Pos) bool {
	owner, ownerPos, ok := s.Claim(goName, key, pos)
	if ok {
		return true
	}
	if ownerPos.File == "" {
		n.diags.Errorf(pos, "%q maps to %s, which promptgen generates itself", key, goName)
		return false
	}
	n.diags.Errorf(pos, "%s %q and %q (%s) both map to %s", noun, key, owner, src.ShortPos(ownerPos, pos), goName)
	if ownerPos != pos {
		n.diags.Errorf(ownerPos, "%s %q and %q (%s) both map to %s", noun, owner, key, src.ShortPos(pos, ownerPos), goName)
	}
	return false
}

// child names the types below a property or an element of type t, which
// stands at name and key.
func (n *outNamer) child(t *schema.Type, name, key string) {
	if t.Kind == schema.Object || t.Kind == schema.Union || isEnum(t) {
		n.walk(t, name, key, n.where(key))
		return
	}
	n.children(t, name, key)
}

// children names the types below an array or a map.
func (n *outNamer) children(t *schema.Type, name, key string) {
	if t.Kind == schema.Array || t.Kind == schema.Map {
		n.child(t.Elem, name+names.SuffixItem, key+"[]")
	}
}
