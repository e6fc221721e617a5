package gen

import (
	"path"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/names"
)

// Methods generated on a set's feed and on the struct types in it; a field
// may not take their names.
var setFeedMethods = []string{"Merge", "Validate"}

// nameSets decides the Go names of the checked sets in the package scope
// pkg: the set type, its feed and the struct types in it, New<Set>, the
// key constants, and the helpers, which start with "_" and a lower-case
// letter so that they never meet a user's name.
func nameSets(pkg *names.Scope, sets []*ir.PromptSet, base string, diags *diag.Sink) {
	for _, s := range sets {
		key := path.Base(s.Spec.Key)
		if s.Spec.Key == "" {
			key = base // the prompts directory is itself the set
		}
		name, pos, ok := goName(key, s.Spec.GoName, s.Spec.Pos, s.Spec.GoNamePos, "set name", diags)
		if !ok {
			nameStruct(names.NewScope(), diags, s.Feed, "X"+suffixFeed, s.Spec.Key, pos, setFeedMethods)
			continue
		}
		s.Name = name
		r, size := utf8.DecodeRuneInString(name)
		s.Helper = "_" + string(unicode.ToLower(r)) + name[size:]
		// A set's key in messages is its promptset.yaml, so that it
		// never equals a prompt's key.
		owner := path.Join(s.Spec.Key, setFile)
		claim(pkg, diags, name, owner, pos)
		claim(pkg, diags, "New"+name, owner, pos)
		nameStruct(pkg, diags, s.Feed, name+suffixFeed, owner, pos, setFeedMethods)
		s.Structs = structsOf(s.Feed, nil)
		for _, k := range s.Keys {
			suffix, kpos, ok := goName(k.Key, k.Override, k.Pos, k.OverridePos, "template key", diags)
			if !ok {
				continue
			}
			k.GoName = name + "Key" + suffix
			claim(pkg, diags, k.GoName, k.Key, kpos)
		}
		for id, t := range s.Templates {
			t.Func = s.Helper + "Template" + strconv.Itoa(id)
		}
		for i, c := range s.Components {
			c.Func = s.Helper + "Component" + strconv.Itoa(i)
			for j, v := range c.Versions {
				v.Func = c.Func + "V" + strconv.Itoa(j)
			}
		}
	}
}
