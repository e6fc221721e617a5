package builtins

import (
	"maps"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
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

// IsDictMethodValue reports whether name is a method of Python's dict
// that promptgen has as a value (runtime/jinja.DictMethod): the ones
// that change nothing, which transformers' sandbox gives too.
func IsDictMethodValue(name string) bool {
	switch name {
	case "copy", "fromkeys", "get", "items", "keys", "values":
		return true
	}
	return false
}

// IsStrAttr reports whether a Python str has the attribute name (dir(str)
// of Python 3.11: its methods, or a special name), which Jinja2 reads of
// a string, where a dict would be read by key.
func IsStrAttr(name string) bool {
	return strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__") || slices.Contains(strAttrs, name)
}

// IsListAttr reports whether a Python list has the attribute name (dir(list)
// of Python 3.11: its methods, or a special name), which Jinja2 reads as
// xs['name'] where the subscript fails.
func IsListAttr(name string) bool {
	return strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__") ||
		slices.Contains(strings.Fields("append clear copy count extend index insert pop remove reverse sort"), name)
}

// ChangesNothing reports whether the call e is of a method that changes
// nothing, whatever its receiver: one of str's, or a dict's get(),
// keys(), values() or items(). Called twice, it yields the same, or
// fails the same.
func ChangesNothing(e *tmpl.Call) bool {
	a, ok := e.Fn.(*tmpl.Attr)
	return ok && (slices.Contains(strAttrs, a.Name) && !IsListAttr(a.Name) || slices.Contains([]string{"get", "keys", "values", "items"}, a.Name))
}

var strAttrs = strings.Fields("capitalize casefold center count encode endswith expandtabs find format format_map index" +
	" isalnum isalpha isascii isdecimal isdigit isidentifier islower isnumeric isprintable isspace istitle" +
	" isupper join ljust lower lstrip maketrans partition removeprefix removesuffix replace rfind rindex" +
	" rjust rpartition rsplit rstrip split splitlines startswith strip swapcase title translate upper zfill")

// ProfileGlobals are the globals the transformers profile adds.
var ProfileGlobals = []string{"raise_exception", "strftime_now"}

// MacroSpecialNames are the names Jinja2 gives a meaning inside a macro,
// UnsupportedParamNames those no macro parameter may take (these and the
// names promptgen reads as their globals wherever they stand), and
// UnsupportedMacroNames those no macro may take: those and the globals
// that only a local may hide (a parameter named range or namespace hides
// the function in the macro's body, where calling it is an error).
var (
	MacroSpecialNames     = []string{"caller", "varargs", "kwargs"}
	UnsupportedParamNames = append(slices.Clone(MacroSpecialNames), "loop", "raise_exception", "strftime_now")
	UnsupportedMacroNames = append(slices.Clone(UnsupportedParamNames), "range", "namespace")
)
