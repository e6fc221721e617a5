package gen

import (
	"path"
	"strconv"
	"strings"
	"unicode"
)

// Suffixes of derived names; they are reserved in the package scope.
const (
	suffixFeed   = "Feed"
	suffixItem   = "Item"
	suffixPrompt = "Prompt"
)

// namePrompts decides every Go name of the checked prompts: prompt values,
// struct types and fields. Collisions are errors at both positions.
func namePrompts(ps []*irPrompt, diags *diagSink) {
	pkg := newNameScope("SupportPackageIsVersion1")
	for _, p := range ps {
		key := path.Base(p.Prompt.Key)
		name, ok := exportedName(key)
		if !ok {
			diags.errorf(p.Prompt.Pos, "prompt name %q does not make a Go name (set go_name)", key)
			continue
		}
		p.Name = name
		p.TypeName = "_" + name + suffixPrompt
		claim(pkg, diags, p.Name, p.Prompt.Key, p.Prompt.Pos)
		nameStruct(pkg, diags, p.Feed, name+suffixFeed, p.Prompt.Key)
		p.Structs = structsOf(p.Feed, nil)
	}
}

// claim records goName for key, reporting a collision at both positions.
func claim(s *nameScope, diags *diagSink, goName, key string, pos Pos) {
	owner, ownerPos, ok := s.claim(goName, key, pos)
	if ok {
		return
	}
	if ownerPos.File == "" {
		diags.errorf(pos, "%q maps to %s, which promptgen generates itself (set go_name)", key, goName)
		return
	}
	diags.errorf(pos, "%q and %q (%s) both map to %s; set go_name on one", key, owner, shortPos(ownerPos, pos), goName)
	diags.errorf(ownerPos, "%q and %q (%s) both map to %s; set go_name on one", owner, key, shortPos(pos, ownerPos), goName)
}

// shortPos names p relative to from: "line 3" in the same file.
func shortPos(p, from Pos) string {
	if p.File == from.File {
		return "line " + strconv.Itoa(p.Line)
	}
	return p.String()
}

func nameStruct(pkg *nameScope, diags *diagSink, t *Type, name, owner string) {
	t = t.resolve()
	if t.Name != "" {
		return
	}
	t.Name = name
	claim(pkg, diags, name, owner, Pos{File: "(generated)"})
	fields := newNameScope(feedMethods...)
	for _, f := range t.Fields {
		goName, ok := exportedName(f.Key)
		if !ok {
			diags.errorf(f.Pos, "variable %q does not make a Go name (set go_name)", f.Key)
			continue
		}
		f.GoName = goName
		claim(fields, diags, goName, f.Key, f.Pos)
		switch ft := f.Type.resolve(); {
		case ft.Kind == KindStruct:
			nameStruct(pkg, diags, ft, strings.TrimSuffix(name, suffixFeed)+goName, owner)
		case (ft.Kind == KindList || ft.Kind == KindMap) && ft.Elem.resolve().Kind == KindStruct:
			nameStruct(pkg, diags, ft.Elem, strings.TrimSuffix(name, suffixFeed)+goName+suffixItem, owner)
		}
	}
}

// structsOf lists t and the struct types it contains, depth first.
func structsOf(t *Type, seen []*Type) []*Type {
	t = t.resolve()
	switch t.Kind {
	case KindList, KindMap:
		return structsOf(t.Elem, seen)
	case KindStruct:
		for _, s := range seen {
			if s == t {
				return seen
			}
		}
		seen = append(seen, t)
		for _, f := range t.Fields {
			seen = structsOf(f.Type, seen)
		}
	}
	return seen
}

// fileStem is a prompt file's generated file name without suffix:
// lower-cased, non-alphanumerics turned into "_".
func fileStem(key string) string {
	return strings.Map(func(r rune) rune {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return unicode.ToLower(r)
		}
		return '_'
	}, key)
}
