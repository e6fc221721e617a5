package schema

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// ref makes t a Ref to the Def that $ref names. Only annotations may stand
// beside $ref: draft-07 ignores the other keywords there, and the model
// could not merge them into the named type.
func (b *builder) ref(t *Type, ref entry, kw map[string]entry, order []string, path string) *Type {
	for _, k := range order {
		if k != "$ref" {
			b.errorf(kw[k].k, path+"."+k, "%q beside %q is not supported (only annotations such as description are)", k, "$ref")
		}
	}
	at := path + ".$ref"
	target := b.str(ref.v, at)
	if target == "" {
		return t
	}
	if !strings.HasPrefix(target, "#") {
		b.errorf(ref.v, at, "$ref %q: only references inside the schema (starting with \"#\") are supported", target)
		return t
	}
	d := b.defs[target]
	if target == "#" {
		d = b.root
	}
	if d == nil {
		if strings.HasPrefix(target, "#/$defs/") || strings.HasPrefix(target, "#/definitions/") {
			b.errorf(ref.v, at, "$ref %q: no such definition%s", target, DidYouMean(target, b.defNames))
		} else {
			b.errorf(ref.v, at, "$ref %q: only \"#\", \"#/$defs/NAME\" and \"#/definitions/NAME\" are supported", target)
		}
		return t
	}
	t.Kind, t.Ref = Ref, d
	return t
}

// union is a oneOf or anyOf whose kind is decided once every Def is built.
type union struct {
	t        *Type
	keyword  string     // "oneOf" or "anyOf"
	k        *yaml.Node // the keyword's key, for warnings
	branches []*Type
}

// union reads oneOf or anyOf. Branches of type null only make it nullable;
// one branch left is the type itself; more are decided by decideUnions.
func (b *builder) union(t *Type, kw map[string]entry, order []string, path string) *Type {
	_, oneOf := kw["oneOf"]
	_, anyOf := kw["anyOf"]
	if oneOf && anyOf {
		b.errorf(kw["anyOf"].k, path+".anyOf", "%q beside %q is not supported", "anyOf", "oneOf")
		return t
	}
	e := kw["oneOf"]
	if anyOf {
		e = kw["anyOf"]
	}
	for _, k := range order {
		if k != e.key && k != "type" {
			b.errorf(kw[k].k, path+"."+k, "%q beside %q is not supported", k, e.key)
		}
	}
	at := path + "." + e.key
	if e.v.Kind != yaml.SequenceNode || len(e.v.Content) == 0 {
		b.wrongKind(e.v, at, "a list of schemas")
		return t
	}
	u := &union{t: t, keyword: e.key, k: e.k}
	for i, c := range e.v.Content {
		if isNullSchema(deref(c)) {
			t.Nullable = true
			continue
		}
		u.branches = append(u.branches, b.build(c, fmt.Sprintf("%s[%d]", at, i)))
	}
	switch len(u.branches) {
	case 0:
		b.errorf(e.v, at, "no branch besides type \"null\"")
	case 1:
		only := u.branches[0]
		only.Nullable = only.Nullable || t.Nullable
		if t.Description != "" {
			only.Description = t.Description
		}
		only.Path, only.Pos = t.Path, t.Pos
		return only
	default:
		b.unions = append(b.unions, u)
	}
	return t
}

// isNullSchema reports whether n is {type: "null"}, with annotations at most.
func isNullSchema(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	null := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		switch {
		case k.Value == "type" && v.Kind == yaml.ScalarNode && v.Value == "null":
			null = true
		case k.Value != "description" && !isIn(k.Value, annotations):
			return false
		}
	}
	return null
}

// decideUnions gives each union with several branches its kind: a Union of
// objects with a discriminator, a string enum, or Raw with a warning.
func (b *builder) decideUnions() {
	for _, u := range b.unions {
		t := u.t
		if name, variants := discriminate(u.branches); name != "" {
			t.Kind, t.Discriminator, t.Variants = Union, name, variants
			continue
		}
		if values, ok := stringEnums(u.branches); ok {
			t.Kind, t.Enum = String, values
			continue
		}
		t.Kind = Raw
		b.warnf(u.k, t.Path+"."+u.keyword, "%s is kept as raw JSON: its branches are not all objects with a required property whose \"const\" tells them apart", u.keyword)
	}
}

// discriminate returns the discriminator of branches that are all objects:
// the first property of the first branch that every branch requires with a
// single string value, all values distinct.
func discriminate(branches []*Type) (string, []*Variant) {
	objects := make([]*Type, len(branches))
	for i, br := range branches {
		if objects[i] = objectOf(br); objects[i] == nil {
			return "", nil
		}
	}
candidates:
	for _, p := range objects[0].Props {
		seen := map[string]bool{}
		variants := make([]*Variant, len(branches))
		for i, o := range objects {
			q := o.prop(p.Name)
			if q == nil || !q.Required || q.Type.Kind != String || len(q.Type.Enum) != 1 || q.Type.Nullable {
				continue candidates
			}
			v := q.Type.Enum[0].(string)
			if seen[v] {
				continue candidates
			}
			seen[v] = true
			variants[i] = &Variant{Value: v, Type: branches[i]}
		}
		return p.Name, variants
	}
	return "", nil
}

// objectOf returns the Object that t is or refers to, or nil.
func objectOf(t *Type) *Type {
	for range 100 { // a Ref cycle is reported elsewhere
		switch {
		case t == nil:
			return nil
		case t.Kind == Object && !t.Nullable:
			return t
		case t.Kind == Ref && !t.Nullable:
			t = t.Ref.Type
		default:
			return nil
		}
	}
	return nil
}

// stringEnums returns the values of branches that are all string enums or
// consts, without duplicates.
func stringEnums(branches []*Type) ([]any, bool) {
	var values []any
	seen := map[string]bool{}
	for _, br := range branches {
		if br.Kind != String || len(br.Enum) == 0 || br.Nullable {
			return nil, false
		}
		for _, v := range br.Enum {
			if s := v.(string); !seen[s] {
				seen[s] = true
				values = append(values, s)
			}
		}
	}
	return values, true
}
