package names

import (
	"go/token"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
)

// Suffixes of derived names; they are reserved in the package scope.
const (
	SuffixFeed   = "Feed"
	SuffixItem   = "Item"
	SuffixPrompt = "Prompt"
	// SuffixOutput names the output type, <Prompt>Output, and prefixes
	// the types inside it.
	SuffixOutput = "Output"
	// SuffixPartial names what is known of a streamed answer,
	// <Prompt>Partial, and prefixes the structs inside it.
	SuffixPartial = "Partial"
	// SuffixArgs names a tool's arguments, <Tool>Args, SuffixCall a call
	// of it, <Tool>Call, and SuffixToolCall the calls of a prompt's
	// tools, <Prompt>ToolCall.
	SuffixArgs     = "Args"
	SuffixCall     = "Call"
	SuffixToolCall = "ToolCall"
	// SuffixExample names the type of one example, <Prompt>Example.
	SuffixExample = "Example"
	// SuffixFragment names a fragment's function, <Name>Fragment, and
	// SuffixParams its variables, <Name>FragmentParams.
	SuffixFragment = "Fragment"
	SuffixParams   = "Params"
)

// feedMethods are the methods generated on every struct type; a field may
// not take their names.
var feedMethods = []string{"Validate"}

// chatContextNames are the names a feed with the fields of runtime/chat.Context
// (ir.Field.Chat) has from embedding it, besides those fields: the embedded
// field and the context's methods (TestReservedFieldNames finds them by
// reflection).
var chatContextNames = []string{"Context", "Chat", "CheckMarkers", "Merge"}

// Prompts decides every Go name of the checked prompts: prompt values,
// struct types and fields. Collisions are errors at both positions. It
// returns the package scope, for the names of template sets. A prompt's
// output types are named right after its feed.
func Prompts(ps []*ir.Prompt, diags *diag.Sink) *Scope {
	pkg := NewScope("SupportPackageIsVersion1")
	for _, p := range ps {
		key := path.Base(p.Key)
		name, pos, ok := GoName(key, p.GoNameOverride, p.Pos, p.GoNamePos, "prompt name", diags)
		if ok && p.Fragment {
			// The fragment's own name is claimed too, so a prompt or set
			// of the same name is an error at both, not a near miss.
			if Claim(pkg, diags, name, p.Key, pos) && Claim(pkg, diags, name+SuffixFragment, p.Key, pos) {
				p.Name = name + SuffixFragment
				nameStruct(pkg, diags, p.Feed, p.Name+SuffixParams, p.Key, pos, feedMethods)
			} else {
				nameStruct(NewScope(), diags, p.Feed, "X"+SuffixFeed, p.Key, pos, feedMethods)
			}
		} else if ok && Claim(pkg, diags, name, p.Key, pos) && Claim(pkg, diags, name+SuffixPrompt, p.Key, pos) {
			p.Name = name
			p.TypeName = name + SuffixPrompt
			nameStruct(pkg, diags, p.Feed, name+SuffixFeed, p.Key, pos, feedMethods)
			if p.Output != nil {
				nameOutput(pkg, diags, p)
				namePartials(pkg, diags, p)
			}
			nameDeclaredTools(pkg, diags, &p.DeclaredTools, name, p.Key, pos)
			if p.HasExamples {
				p.ExampleName = name + SuffixExample
				Claim(pkg, diags, p.ExampleName, p.Key+".examples", pos)
			}
		} else {
			// Still check the fields, in a scope of their own.
			nameStruct(NewScope(), diags, p.Feed, "X"+SuffixFeed, p.Key, pos, feedMethods)
		}
		p.Structs = structsOf(p.Feed, nil)
	}
	return pkg
}

// nameDeclaredTools names the tools of a prompt or set (its Go name name,
// its key owner) the first time the package sees each, and the interface
// of their calls.
func nameDeclaredTools(pkg *Scope, diags *diag.Sink, d *ir.DeclaredTools, name, owner string, pos src.Pos) {
	for _, t := range d.Tools {
		switch first := pkg.tools[t.Spec.Name]; {
		case first == nil:
			pkg.tools[t.Spec.Name] = t
			nameTool(pkg, diags, t)
		case first != t:
			diags.Errorf(t.Spec.Pos, "tool %q is also declared at %s: declare it once, in %s/, and name it in both places",
				t.Spec.Name, src.ShortPos(first.Spec.Pos, t.Spec.Pos), ir.ToolsDir)
			diags.Errorf(first.Spec.Pos, "tool %q is also declared at %s: declare it once, in %s/, and name it in both places",
				t.Spec.Name, src.ShortPos(t.Spec.Pos, first.Spec.Pos), ir.ToolsDir)
		}
	}
	if len(d.Tools) > 0 {
		d.ToolCall = name + SuffixToolCall
		Claim(pkg, diags, d.ToolCall, owner+" tools", pos)
	}
}

// GoName is the exported Go name of key, or its go_name override, with the
// position that later errors about the name point at.
func GoName(key, override string, keyPos, overridePos src.Pos, noun string, diags *diag.Sink) (string, src.Pos, bool) {
	if override != "" {
		if !token.IsIdentifier(override) || !token.IsExported(override) {
			diags.Errorf(overridePos, "go_name %q is not an exported Go identifier", override)
			return "", overridePos, false
		}
		return override, overridePos, true
	}
	name, ok := Exported(key)
	if !ok {
		diags.Errorf(keyPos, "%s %q does not make a Go name (set go_name)", noun, key)
	}
	return name, keyPos, ok
}

// Claim records goName for key, reporting a collision at both positions.
func Claim(s *Scope, diags *diag.Sink, goName, key string, pos src.Pos) bool {
	owner, ownerPos, ok := s.Claim(goName, key, pos)
	if ok {
		return true
	}
	if ownerPos.File == "" {
		diags.Errorf(pos, "%q maps to %s, which promptgen generates itself (set go_name)", key, goName)
		return false
	}
	diags.Errorf(pos, "%q and %q (%s) both map to %s; set go_name on one", key, owner, src.ShortPos(ownerPos, pos), goName)
	diags.Errorf(ownerPos, "%q and %q (%s) both map to %s; set go_name on one", owner, key, src.ShortPos(pos, ownerPos), goName)
	return false
}

// nameStruct names struct type t and, below it, its fields and nested
// struct types. key and pos name what t belongs to in messages: the prompt
// for a feed, the dotted variable path for a nested type. methods are the
// names the generated type already has (Validate, Merge, ...).
func nameStruct(pkg *Scope, diags *diag.Sink, t *ir.Type, name, key string, pos src.Pos, methods []string) {
	t = t.Resolve()
	if t.Name != "" {
		return
	}
	t.Name = name
	Claim(pkg, diags, name, key, pos)
	reserved := methods
	if slices.ContainsFunc(t.Fields, func(f *ir.Field) bool { return f.Chat }) {
		reserved = slices.Concat(methods, chatContextNames)
	}
	for _, f := range t.Fields {
		if f.Chat { // embedded with runtime/chat.Context, which names them alike
			f.GoName, _ = Exported(f.Key)
			reserved = append(reserved, f.GoName)
		}
	}
	fields := NewScope(reserved...)
	for _, f := range t.Fields {
		if f.Chat {
			continue
		}
		fieldName, pos, ok := GoName(f.Key, f.GoNameOverride, f.Pos, f.GoNamePos, "variable", diags)
		if !ok {
			continue
		}
		f.GoName = fieldName
		if f.GoNameOverride == "" && fields.reserved(fieldName) {
			// The type already has the name and keeps it (Validate, the
			// embedded Context); the variable's is suffixed, as Go
			// keywords are (type → type_): context → Context_.
			f.GoName += "_"
		}
		Claim(fields, diags, f.GoName, f.Key, pos)
		prefix, isFeed := strings.CutSuffix(name, SuffixFeed)
		if !isFeed {
			prefix = strings.TrimSuffix(name, SuffixParams) // a fragment's
		}
		prefix += fieldName
		ft, item := f.Type.Resolve(), ""
		for ft.Kind == ir.KindList || ft.Kind == ir.KindMap {
			ft, item = ft.Elem.Resolve(), SuffixItem // one Item for a list of lists too
		}
		if ft.Kind == ir.KindStruct {
			nameStruct(pkg, diags, ft, prefix+item, key+"."+f.Key, pos, methods)
		}
	}
}

// structsOf lists t and the struct types it contains, depth first.
func structsOf(t *ir.Type, seen []*ir.Type) []*ir.Type {
	t = t.Resolve()
	switch t.Kind {
	case ir.KindList, ir.KindMap:
		return structsOf(t.Elem, seen)
	case ir.KindStruct:
		if t.Go != nil {
			return seen // an existing Go type: generated code names it
		}
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

// FileStem is a prompt file's generated file name without suffix:
// lower-cased, non-alphanumerics turned into "_".
func FileStem(key string) string {
	return strings.Map(func(r rune) rune {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return unicode.ToLower(r)
		}
		return '_'
	}, key)
}

// Methods generated on a set's feed and on the struct types in it; a field
// may not take their names.
var setFeedMethods = []string{"Merge", "Validate"}

// Sets decides the Go names of the checked sets in the package scope
// pkg: the set type, its feed and the struct types in it, New<Set>, the
// key constants, and the helpers, which start with "_" and a lower-case
// letter so that they never meet a user's name.
func Sets(pkg *Scope, sets []*ir.PromptSet, base string, diags *diag.Sink) {
	for _, s := range sets {
		key := path.Base(s.Key)
		if s.Key == "" {
			key = base // the prompts directory is itself the set
		}
		name, pos, ok := GoName(key, s.GoNameOverride, s.Pos, s.GoNamePos, "set name", diags)
		if !ok {
			nameStruct(NewScope(), diags, s.Feed, "X"+SuffixFeed, s.Key, pos, setFeedMethods)
			continue
		}
		s.Name = name
		r, size := utf8.DecodeRuneInString(name)
		s.Helper = "_" + string(unicode.ToLower(r)) + name[size:]
		// A set's key in messages is its promptset.yaml, so that it
		// never equals a prompt's key.
		owner := path.Join(s.Key, ir.SetFile)
		Claim(pkg, diags, name, owner, pos)
		Claim(pkg, diags, "New"+name, owner, pos)
		nameStruct(pkg, diags, s.Feed, name+SuffixFeed, owner, pos, setFeedMethods)
		s.Structs = structsOf(s.Feed, nil)
		nameDeclaredTools(pkg, diags, &s.DeclaredTools, name, owner, pos)
		for _, k := range s.Keys {
			suffix, kpos, ok := GoName(k.Key, k.Override, k.Pos, k.OverridePos, "template key", diags)
			if !ok {
				continue
			}
			k.GoName = name + "Key" + suffix
			Claim(pkg, diags, k.GoName, k.Key, kpos)
		}
		for _, p := range s.Predefined {
			suffix, ok := Exported(p.Name)
			if !ok {
				diags.Errorf(p.Pos, "predefined variable set %q does not make a Go name (rename it)", p.Name)
				continue
			}
			p.GoName = name + "Predefined" + suffix
			Claim(pkg, diags, p.GoName, "predefined_variables."+p.Name, p.Pos)
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
