package names

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/schema"
)

// This file names a prompt's output, which outschema lowered: the types
// that ParseOutput returns, their fields, variants and enum constants, and
// the functions and pattern variables of the generated checks.

// nameOutput decides the names of p's output types in the package scope
// pkg, with its checks'. Properties and variants are named in a scope per
// struct.
func nameOutput(pkg *Scope, diags *diag.Sink, p *ir.Prompt) {
	o := p.Output
	n := newOutNamer(pkg, diags, o, p.Name+SuffixOutput, p.Key+" outputSchema", "the output of the "+p.Key+" prompt")
	if o.Schema == nil {
		doc := "is the answer of the " + p.Key + " prompt: the JSON value of the completion, not decoded."
		if o.Format == ir.FormatText {
			doc = "is the answer of the " + p.Key + " prompt: the completion's text."
		}
		n.add(&ir.OutType{Name: o.Name, Kind: ir.OutAlias, Doc: doc}, n.key, p.Pos)
		return
	}
	n.schema("is the answer of the "+p.Key+" prompt, as its outputSchema describes it.", "the outputSchema of the "+p.Key+" prompt")
}

// nameTool decides the Go names of tool t: its arguments' types,
// <Tool>Args, named as an output's, its call type and its variable.
func nameTool(pkg *Scope, diags *diag.Sink, t *ir.Tool) {
	goName, _ := Exported(t.Spec.Name) // load checked that the name makes one
	key := "tool " + t.Spec.Name
	t.GoName, t.Call, t.Var = goName, goName+SuffixCall, "_"+goName+"Tool"
	Claim(pkg, diags, t.Call, key, t.Spec.Pos)
	n := newOutNamer(pkg, diags, t.Args, goName+SuffixArgs, key+" parameters", "the arguments of the "+t.Spec.Name+" tool")
	n.schema("are the arguments of the "+t.Spec.Name+" tool.", "the parameters of the "+t.Spec.Name+" tool")
}

// newOutNamer names o's root type name and its package variables; key
// owns the names in messages, and owner says whose the types are in doc
// comments.
func newOutNamer(pkg *Scope, diags *diag.Sink, o *ir.Output, name, key, owner string) *outNamer {
	o.Name = name
	o.SchemaVar = "_" + o.Name + "Schema"
	if o.Format != ir.FormatText {
		o.ParserVar = "_" + o.Name + "Parser"
	}
	if o.Checks != nil {
		o.ChecksType = "_" + o.Name + "Checks"
		nameChecks(o.Checks, o.Name)
	}
	return &outNamer{o: o, pkg: pkg, diags: diags, key: key, owner: owner}
}

// schema names the types of an output with a schema: the root's, with doc,
// then the definitions of the schema, which whose describes.
func (n *outNamer) schema(doc, whose string) {
	o, diags := n.o, n.diags
	root := o.Schema.Root
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
		name, ok := Exported(d.Name)
		if !ok {
			diags.Errorf(src.Pos(d.Type.Pos), "definition %q does not make a Go name (rename it)", d.Name)
			continue
		}
		name = o.Name + name
		key := n.key + "." + d.Name
		doc := "is the " + d.Name + " definition of " + whose + "."
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

// namePartials decides <Prompt>Partial and the partial structs it is made
// of: one per output struct reached from the root through properties and
// list items, except through unions, maps and recursive definitions, whose
// values are told only when complete.
func namePartials(pkg *Scope, diags *diag.Sink, p *ir.Prompt) {
	o := p.Output
	if o.Format != ir.FormatJSON || o.Schema == nil {
		return
	}
	o.Partial = p.Name + SuffixPartial
	made := map[*ir.OutType]*ir.PartialType{}
	var partialOf func(ot *ir.OutType) *ir.PartialType
	// structOf returns the output struct of a value of type t that has a
	// partial struct, and whether t is a list of them.
	structOf := func(t *schema.Type) (*ir.OutType, bool) {
		list := t.Kind == schema.Array
		if list {
			t = t.Elem
		}
		if t.Kind == schema.Ref {
			if t.Ref.Recursive {
				return nil, false
			}
			ot := o.Defs[t.Ref]
			if ot == nil || ot.Kind != ir.OutStruct {
				return nil, false
			}
			return ot, list
		}
		if ot := o.Named[t]; ot != nil && ot.Kind == ir.OutStruct {
			return ot, list
		}
		return nil, false
	}
	partialOf = func(ot *ir.OutType) *ir.PartialType {
		if pt := made[ot]; pt != nil {
			return pt
		}
		pt := &ir.PartialType{Name: o.Partial + strings.TrimPrefix(ot.Name, o.Name), Of: ot}
		made[ot] = pt
		Claim(pkg, diags, pt.Name, p.Key+" partial "+ot.Name, src.Pos(ot.T.Pos))
		o.Partials = append(o.Partials, pt)
		for _, f := range ot.Fields {
			pf := ir.PartialField{OutField: f}
			if st, list := structOf(f.Prop.Type); st != nil {
				pf.Struct, pf.List = partialOf(st), list
			}
			pt.Fields = append(pt.Fields, pf)
		}
		return pt
	}
	root := o.Schema.Root.Type
	if st, list := structOf(root); st != nil && !list {
		partialOf(st)
		return
	}
	Claim(pkg, diags, o.Partial, p.Key+" partial", p.Pos)
	o.PartialRoot = &ir.PartialField{}
	if st, list := structOf(root); st != nil {
		o.PartialRoot.Struct, o.PartialRoot.List = partialOf(st), list
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
	pkg   *Scope
	diags *diag.Sink
	// key is "<prompt key> outputSchema", the owner of names in messages
	// (a space, so that no feed variable's path is the same).
	key   string
	owner string // whose the types are, for doc comments: "the output of the x prompt"
}

// add claims t's name and appends it to the types to emit.
func (n *outNamer) add(t *ir.OutType, key string, pos src.Pos) {
	Claim(n.pkg, n.diags, t.Name, key, pos)
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
	return "is " + rel + " in " + n.owner + "."
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
		fields := NewScope()
		for _, p := range t.Props {
			goName := propertyGoName(p.Name)
			if !n.claimMember(fields, goName, "properties", p.Name, src.Pos(p.Pos)) {
				continue
			}
			ot.Fields = append(ot.Fields, ir.OutField{Prop: p, GoName: goName})
			n.child(p.Type, name+goName, key+"."+p.Name)
		}
	case t.Kind == schema.Union:
		ot.Kind = ir.OutUnion
		n.add(ot, key, pos)
		fields := NewScope("MarshalJSON", "UnmarshalJSON")
		for _, v := range t.Variants {
			goName, ok := Exported(v.Value)
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
		consts := NewScope()
		for _, v := range t.Enum {
			s := v.(string)
			c := ir.OutConst{Value: s}
			if suffix := NewNamer().ExportedWords(s); suffix != "" &&
				n.claimMember(consts, suffix, "enum values", s, pos) {
				c.GoName = name + suffix
				Claim(n.pkg, n.diags, c.GoName, key+"="+strconv.Quote(s), pos)
			}
			ot.Consts = append(ot.Consts, c)
		}
	}
}

// propertyGoName is the Go name of the field of property key: its words,
// exported, or, when they make no exported name ("5", "😀", ""), Field and
// the words, or the code points of a key without letters or digits.
func propertyGoName(key string) string {
	if name, ok := Exported(key); ok {
		return name
	}
	suffix := NewNamer().ExportedWords(key)
	if suffix == "" {
		var b strings.Builder
		for _, r := range key {
			fmt.Fprintf(&b, "U%04X", r)
		}
		suffix = cmp.Or(b.String(), "Empty")
	}
	return "Field" + suffix
}

// claimMember claims a field or constant name in the scope of one type;
// two JSON names that make the same Go name are an error at both.
func (n *outNamer) claimMember(s *Scope, goName, noun, key string, pos src.Pos) bool {
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
		n.child(t.Elem, name+SuffixItem, key+"[]")
	}
}

// nameChecks names the check functions and pattern variables of an
// output named name.
func nameChecks(c *ir.Checks, name string) {
	c.Root.Func = "_" + name + "Check"
	n, p := 0, 0
	for _, s := range c.Schemas {
		if s != c.Root && !s.Trivial() {
			n++
			s.Func = "_" + name + "Check" + strconv.Itoa(n)
		}
		if s.Pattern != "" {
			p++
			s.PatternVar = "_" + name + "Pattern" + strconv.Itoa(p)
		}
	}
}
