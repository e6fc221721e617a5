package builtins

import (
	"maps"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/ir"
)

// LoopAttrs are the attributes of loop that hold a value, by kind.
var LoopAttrs = map[string]ir.Kind{
	"index": ir.KindInt, "index0": ir.KindInt, "revindex": ir.KindInt, "revindex0": ir.KindInt,
	"first": ir.KindBool, "last": ir.KindBool, "length": ir.KindInt,
}

// LoopAttrNames are the names loop. takes, for suggestions.
func LoopAttrNames() []string {
	attrs := append(slices.Collect(maps.Keys(LoopAttrs)), "previtem", "nextitem", "cycle")
	slices.Sort(attrs)
	return attrs
}

// IsDictMethod reports whether Jinja2 reads d.name as an attribute of the
// Python dict rather than as its key.
func IsDictMethod(name string) bool {
	switch name {
	case "clear", "copy", "fromkeys", "get", "items", "keys", "pop", "popitem", "setdefault", "update", "values":
		return true
	}
	return strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

// ProfileGlobals are the globals the transformers profile adds.
var ProfileGlobals = []string{"raise_exception", "strftime_now"}

// MacroSpecialNames are the names Jinja2 gives a meaning inside a macro,
// and UnsupportedMacroNames those no macro or parameter may take: these and
// the names that would hide a global.
var (
	MacroSpecialNames     = []string{"caller", "varargs", "kwargs"}
	UnsupportedMacroNames = append(slices.Clone(MacroSpecialNames), "loop", "range", "namespace", "raise_exception", "strftime_now")
)
