package schema

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// AliasesKeyword is promptgen's extension for the schema-aligned parser:
// on an object, it maps property names to the other names a model may
// write for them; on an enum, it maps values to their other spellings.
//
//	properties: {sentiment: {enum: [positive, negative]}}
//	x-aliases: {sentiment: [mood, feeling]}
//
// It is left out of the schema sent to a model (Schema.JSON) and kept in
// Schema.ParserJSON.
const AliasesKeyword = "x-aliases"

// aliases checks the x-aliases entry e of t: a mapping from t's property
// names (an object) or string values (an enum) to lists of aliases, none
// of which may stand for two names.
func (b *builder) aliases(t *Type, e entry, path string) {
	at := path + "." + AliasesKeyword
	var names []string
	var noun string
	switch {
	case t.Kind == Object:
		noun = "property"
		for _, p := range t.Props {
			names = append(names, p.Name)
		}
	case t.Kind == String && len(t.Enum) > 0:
		noun = "value"
		for _, v := range t.Enum {
			names = append(names, v.(string))
		}
	default:
		b.errorf(e.k, at, "%s applies only to objects with properties and to string enums", AliasesKeyword)
		return
	}
	if e.v.Kind != yaml.MappingNode {
		b.wrongKind(e.v, at, "a mapping of "+noun+" names to lists of aliases")
		return
	}
	// owner maps each name and alias, folded, to the name it stands for.
	owner := map[string]string{}
	for _, n := range names {
		owner[strings.ToLower(n)] = n
	}
	for _, a := range b.entries(e.v, at) {
		aat := at + "." + a.key
		if !isIn(a.key, names) {
			b.errorf(a.k, aat, "no %s %q to alias%s", noun, a.key, DidYouMean(a.key, names))
			continue
		}
		list := deref(a.v)
		if list.Kind != yaml.SequenceNode {
			b.wrongKind(list, aat, "a list of aliases")
			continue
		}
		for _, v := range list.Content {
			alias := b.str(deref(v), aat)
			if alias == "" {
				if v.ShortTag() == "!!str" {
					b.errorf(v, aat, "an alias must not be empty")
				}
				continue
			}
			folded := strings.ToLower(alias)
			switch prev, taken := owner[folded]; {
			case taken && prev == a.key && strings.EqualFold(alias, a.key):
				b.errorf(v, aat, "alias %q is the %s itself (the parser matches names ignoring case)", alias, noun)
			case taken && prev == a.key:
				b.errorf(v, aat, "alias %q is given twice", alias)
			case taken:
				b.errorf(v, aat, "alias %q would stand for both %q and %q", alias, prev, a.key)
			default:
				owner[folded] = a.key
			}
		}
	}
	if b.aliasKeys == nil {
		b.aliasKeys = map[*yaml.Node]bool{}
	}
	b.aliasKeys[e.k] = true
}
