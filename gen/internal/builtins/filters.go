package builtins

import (
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
)

// FilterAliases are the other names of filters.
var FilterAliases = map[string]string{"d": "default", "count": "length", "e": "escape"}

// UnsupportedFilters are Jinja2's other built-in filters, with why each
// is not supported, so an author learns the filter exists rather than a
// typo.
var UnsupportedFilters = map[string]string{
	"attr": "Jinja2's attr reads a Python attribute, never a key, so of the data a prompt renders (dicts from JSON) it is " +
		"undefined or a dict method: read the key with x.name or x['name']",
	"pprint": "Python's pprint wraps at 80 columns, splits long strings and sorts dict keys, which promptgen does not " +
		"reproduce: print the value as it is, or with tojson",
	"random": "its output changes from render to render",
	"urlize": "promptgen does not reproduce Jinja2's URL and e-mail detection heuristics (and prompts for a model rarely " +
		"need HTML links): write the links in the data, or use urlencode for a query part",
}

// FilterFlag is a property of a filter.
type FilterFlag uint16

const (
	// PrintsOperand: Jinja2 converts the operand with str() (indent and
	// truncate do not: they need a string), so it is printed.
	PrintsOperand FilterFlag = 1 << iota
	// TakesString: a dynamic operand is converted with str() first, or,
	// without PrintsOperand, taken as a string (ir.DynStrOperand), but by
	// truncate, which returns undefined as it is: runtime/jinja's.
	TakesString
	// Iterates: it iterates its operand, the one use of a generator.
	Iterates
	// ReadsAll: it reads every field of its operand.
	ReadsAll
	// HintsString: an unknown operand defaults to a string, as where it is
	// printed; NoHint: the filter's use says nothing of the operand's type.
	HintsString
	NoHint
	// DynList: a list of dynamic values (messages) converts to one.
	DynList
	// DynOnly: only dynamic values have it; a typed operand converts to one.
	DynOnly
	// KeepsMarkup: of Markup, Jinja2 returns Markup (see Markup).
	KeepsMarkup
)

// sortKey is the type sort compares the elements of x.X by.
func sortKey(x *ir.Call) *ir.Type {
	if x.Attr != nil {
		return ir.AttrType(x.Attr)
	}
	return x.X.Type().Elem.Resolve()
}

// TransformersToJSONParams are the parameters of the transformers
// profile's tojson: json.dumps's, ensure_ascii first.
var TransformersToJSONParams = []ir.Param{{Name: "ensure_ascii", Def: false}, {Name: "indent"}, {Name: "separators"}, {Name: "sort_keys", Def: false}}

// A Filter is what the checker knows of a supported filter besides its
// parameters (ir.FilterParams): how it reads its operand, the kinds its
// arguments must have once types are final (ir.KindUnknown: any), and
// what else Final checks then.
type Filter struct {
	Flags FilterFlag
	Args  []ir.Kind
	Final func(x *ir.Call, e *tmpl.Filter, errorf Errorf)
}

// Errorf reports an error at sp.
type Errorf func(sp tmpl.Span, format string, args ...any)

// CheckArgs checks the kinds of the arguments of x, a call of the filter
// e, once types are final.
func (f Filter) CheckArgs(x *ir.Call, e *tmpl.Filter, errorf Errorf) {
	for i, want := range f.Args {
		got := x.Args[i].Type().Kind
		if want == ir.KindUnknown || got == ir.KindNone || got == want || (want == ir.KindFloat && got == ir.KindInt) {
			continue
		}
		errorf(e.Span, "filter %s: parameter %q must be %s, not %s", x.Name, ir.FilterParams[x.Name][i].Name, ir.A(want), got)
	}
}

// textFlags are the flags of the filters of a string.
const textFlags = PrintsOperand | TakesString | KeepsMarkup

// Filters are the supported filters, by name, with those of dynamic
// values only (items, dictsort, batch, abs).
var Filters = map[string]Filter{
	"default":    {Flags: NoHint, Args: []ir.Kind{ir.KindUnknown, ir.KindBool}},
	"upper":      {Flags: textFlags},
	"lower":      {Flags: textFlags},
	"title":      {Flags: textFlags &^ KeepsMarkup},
	"capitalize": {Flags: textFlags},
	"trim":       {Flags: textFlags, Args: []ir.Kind{ir.KindString}},
	"replace":    {Flags: textFlags &^ KeepsMarkup, Args: []ir.Kind{ir.KindString, ir.KindString, ir.KindInt}},
	"indent":     {Flags: TakesString | KeepsMarkup, Args: []ir.Kind{ir.KindUnknown, ir.KindBool, ir.KindBool}, Final: indentFinal},
	"truncate":   {Flags: TakesString | KeepsMarkup, Args: []ir.Kind{ir.KindInt, ir.KindBool, ir.KindString, ir.KindInt}},
	"string":     {Flags: PrintsOperand | ReadsAll | KeepsMarkup},
	"tojson":     {Flags: ReadsAll | HintsString, Args: []ir.Kind{ir.KindInt}},
	"join":       {Flags: Iterates, Args: []ir.Kind{ir.KindString, ir.KindString}, Final: listFinal},
	"length":     {Flags: HintsString}, // an unknown only measured is a string, also where the length is tested
	"first":      {Flags: Iterates},
	"last":       {Flags: KeepsMarkup}, // reversed() reads Markup by index, which keeps it; first iterates, which does not
	"int":        {Flags: HintsString | DynList, Args: []ir.Kind{ir.KindInt, ir.KindInt}, Final: numberFinal},
	"float":      {Flags: HintsString | DynList, Args: []ir.Kind{ir.KindFloat}, Final: numberFinal},
	"round":      {Args: []ir.Kind{ir.KindInt, ir.KindString}, Final: roundFinal},
	"sort":       {Flags: Iterates | DynList, Args: []ir.Kind{ir.KindBool, ir.KindBool, ir.KindString}, Final: listFinal},
	"unique":     {Flags: Iterates | DynList, Args: []ir.Kind{ir.KindBool, ir.KindString}, Final: listFinal},
	"reverse":    {Flags: Iterates | DynList | KeepsMarkup},
	"list":       {Flags: Iterates, Final: listFinal},
	"map":        {Flags: Iterates | DynList, Args: []ir.Kind{ir.KindString, ir.KindUnknown}, Final: listFinal},
	"items":      {},
	"dictsort":   {},
	"batch":      {Flags: Iterates | DynList | DynOnly},
	"abs":        {Flags: DynList | DynOnly},
}

func indentFinal(x *ir.Call, e *tmpl.Filter, errorf Errorf) {
	if k := x.Args[0].Type().Kind; k != ir.KindInt && k != ir.KindString {
		errorf(e.Span, "filter indent: width must be an int or a string")
	}
}

// listFinal checks list, and join, sort, unique and map, which need a
// list, of scalars unless by attribute=.
func listFinal(x *ir.Call, e *tmpl.Filter, errorf Errorf) {
	xk := x.X.Type().Kind
	if x.Name == "list" {
		if xk != ir.KindList && xk != ir.KindString && xk != ir.KindMap && xk != ir.KindDict {
			errorf(e.NameSpan, "list needs a list, string, map or dict, not %s", x.X.Type())
		}
		return
	}
	if xk != ir.KindList {
		errorf(e.NameSpan, "%s needs a list, not %s", x.Name, x.X.Type())
	} else if elem := x.X.Type().Elem.Resolve(); x.Name == "unique" && IsNone(x.Args[ir.ParamIndex(ir.FilterParams[x.Name], "attribute")]) && !ir.IsScalar(elem.Kind) {
		// The checker computes it on dynamic values where the items convert.
		errorf(e.NameSpan, "unique of a list of %s whose fields promptgen infers is not supported: Jinja2 fails on its first item (Python cannot hash a dict: TypeError), so it renders only an empty list (declare the objects in inputs)", elem)
		return
	} else if x.Name != "join" && IsNone(x.Args[ir.ParamIndex(ir.FilterParams[x.Name], "attribute")]) && !ir.IsScalar(elem.Kind) {
		errorf(e.NameSpan, "%s needs attribute= for a list of %s", x.Name, elem)
		return
	}
	var k *ir.Type // what sort or unique compares
	if xk == ir.KindList && (x.Name == "sort" || x.Name == "unique") {
		k = sortKey(x)
	}
	switch {
	case k == nil:
	case x.Name == "unique" && !ir.IsScalar(k.Kind):
		// Jinja2 fails on unhashable keys; Go does not compile.
		errorf(e.NameSpan, "unique by attribute= needs a string, number or bool, not %s", k)
	case x.Name == "sort" && !ir.IsScalar(k.Kind):
		errorf(e.NameSpan, "sort by attribute= needs a string or number, not %s", k)
	}
	if x.Name == "sort" && len(x.Attr) > 1 {
		// The comparison cannot fail the render when an object on the way is unset.
		for _, f := range x.Attr[:len(x.Attr)-1] {
			if f.Optional {
				errorf(e.Span, "sort by attribute= through the optional field %q is not supported", f.Key)
			}
		}
	}
}

// numberFinal checks int and float.
func numberFinal(x *ir.Call, e *tmpl.Filter, errorf Errorf) {
	if !ir.IsScalar(x.X.Type().Kind) {
		errorf(e.NameSpan, "%s needs a string or number, not %s", x.Name, x.X.Type())
	}
	if k, ok := x.Args[0].(*ir.Const); ok && k.Value == nil {
		// Jinja2 yields the default, None, where the conversion fails.
		errorf(e.Span, "filter %s: a none default of a typed value is not supported (give a number)", x.Name)
	}
}

func roundFinal(x *ir.Call, e *tmpl.Filter, errorf Errorf) {
	if !ir.IsNumber(x.X.Type().Kind) {
		errorf(e.NameSpan, "round needs a number, not %s (Python raises TypeError)", x.X.Type())
	}
}

// MapFilters are the filters that map(name, args...) applies to each item.
var MapFilters = []string{"abs", "capitalize", "center", "count", "filesizeformat", "float", "indent", "int", "length",
	"lower", "replace", "round", "string", "striptags", "title", "trim", "truncate", "upper", "urlencode", "wordcount", "wordwrap"}

// DynMapFilters are the filters map applies to the items of a dynamic
// value (jinja.Filter has them).
var DynMapFilters = []string{"upper", "lower", "title", "capitalize", "trim", "string", "replace", "truncate", "length", "count", "int", "float", "abs", "first", "last",
	"center", "filesizeformat", "indent", "round", "striptags", "urlencode", "wordcount", "wordwrap", "tojson",
	"list", "sort", "dictsort", "sum", "min", "max"}

// IsMapToJSON reports whether x is map('tojson') of a dynamic value, whose
// Name is the runtime's filter: Jinja2's tojson, or transformers' (tfjson,
// tfjsonascii), which read a Markup item as its string.
func IsMapToJSON(x *ir.Dynamic) bool {
	return x.Op == ir.DynMapFilter && (x.Name == "tojson" || x.Name == "tfjson" || x.Name == "tfjsonascii")
}

// IsGenerator reports whether Jinja2's filter for x returns a generator.
func IsGenerator(x *ir.Call) bool {
	return x.Kind == ir.CallFilter && (x.Name == "unique" || x.Name == "map")
}

// IsNone reports whether x is the constant none, as an absent optional
// argument is.
func IsNone(x ir.Expr) bool {
	k, ok := x.(*ir.Const)
	return ok && k.Value == nil
}

// RebindAttr points the attribute= path of x at the fields of the final
// types: unification may have merged the struct its fields were read from
// into another (an empty literal's objects with a feed's), whose fields
// are the ones named and emitted.
func RebindAttr(x *ir.Call) {
	t := x.X.Type().Resolve()
	if x.Attr == nil || t.Kind != ir.KindList {
		return
	}
	elem := t.Elem
	for i, f := range x.Attr {
		g := elem.Resolve().Field(f.Key)
		if g == nil {
			return
		}
		x.Attr[i], elem = g, g.Type
	}
}
