package check

import (
	"github.com/promptgen/promptgen/gen/internal/builtins"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
)

// valueFilter is a filter that runtime/jinja.Filter applies to the
// dynamic value of its operand, a typed operand converted, with Jinja2's
// semantics: its parameters, the kinds its arguments must have
// (ir.KindUnknown: any), and whether it yields a string (else a dynamic
// value) or an int.
type valueFilter struct {
	params  []ir.Param
	kinds   []ir.Kind
	str     bool
	integer bool
	// takesString: Jinja2 fails on an operand that is not a string.
	takesString bool
	// generator: Jinja2 yields a generator, which its consumer must iterate.
	generator bool
	// iterates: Jinja2 iterates the operand; the others read its str()
	// (of a generator, "<generator object ...>"), or its items.
	iterates bool
	// markupAsPlain: of Markup, the filter yields what it yields of the
	// plain string (forceescape escapes it again; groupby and slice iterate
	// its characters, which are plain strings), so a tojson or safe result
	// needs no check.
	markupAsPlain bool
}

var attributeParam = ir.Param{Name: "attribute"}

// valueFilters are the filters checked as valueFilter.
var valueFilters = map[string]valueFilter{
	"center":         {params: []ir.Param{{Name: "width", Def: int64(80)}}, kinds: []ir.Kind{ir.KindInt}, str: true},
	"escape":         {str: true},
	"filesizeformat": {params: []ir.Param{{Name: "binary", Def: false}}, kinds: []ir.Kind{ir.KindBool}, str: true},
	"urlencode":      {str: true, markupAsPlain: true, iterates: true},
	"striptags":      {str: true, markupAsPlain: true},
	"wordcount":      {integer: true, markupAsPlain: true},
	"forceescape":    {str: true, markupAsPlain: true},
	"groupby": {params: []ir.Param{{Name: "attribute", Required: true}, {Name: "default"}, {Name: "case_sensitive", Def: false}},
		kinds: []ir.Kind{ir.KindUnknown, ir.KindUnknown, ir.KindBool}, iterates: true, markupAsPlain: true},
	"slice":   {params: []ir.Param{{Name: "slices", Required: true}, {Name: "fill_with"}}, kinds: []ir.Kind{ir.KindInt}, generator: true, iterates: true, markupAsPlain: true},
	"xmlattr": {params: []ir.Param{{Name: "autospace", Def: true}}, kinds: []ir.Kind{ir.KindBool}, str: true},
	"sum":     {params: []ir.Param{attributeParam, {Name: "start", Def: int64(0)}}, iterates: true},
	"min":     {params: []ir.Param{{Name: "case_sensitive", Def: false}, attributeParam}, kinds: []ir.Kind{ir.KindBool}, markupAsPlain: true, iterates: true},
	"max":     {params: []ir.Param{{Name: "case_sensitive", Def: false}, attributeParam}, kinds: []ir.Kind{ir.KindBool}, markupAsPlain: true, iterates: true},
	"wordwrap": {params: []ir.Param{{Name: "width", Def: int64(79)}, {Name: "break_long_words", Def: true}, {Name: "wrapstring"}, {Name: "break_on_hyphens", Def: true}},
		kinds: []ir.Kind{ir.KindInt, ir.KindBool, ir.KindString, ir.KindBool}, str: true, takesString: true, markupAsPlain: true},
}

// valueFilter checks x|name(args...) of a valueFilter.
func (c *checker) valueFilter(e *tmpl.Filter, name string, vf valueFilter) ir.Expr {
	if name == "sum" {
		e = sumOfMap(e)
	}
	xu := usePrint
	if vf.iterates || vf.takesString {
		// Not the operand's str(): a conditional of two types is no string.
		xu = useValue
	}
	x := c.expr(e.X, xu)
	if name == "groupby" || hasKwarg(e, "attribute") {
		c.undefinedItems(x, e.X.Pos())
		c.emptyLiteralItems(x, e.X.Pos())
	}
	if c.rejected[x] {
		return c.reject()
	}
	x = c.generatorOperand(x, name, e.X.Pos())
	if sorted, ok := minMaxBySort(e, name); ok && inferredItems(x.Type()) {
		// Of objects whose fields are inferred, which no dynamic value
		// holds: the first of the stable sort is the item min (max) yields.
		return c.checkedAs(map[tmpl.Expr]ir.Expr{e.X: x}, func() ir.Expr { return c.expr(sorted, useValue) })
	}
	if vf.iterates {
		c.iterate(x)
	}
	if vf.takesString && !isDynamic(x) {
		c.constrain(x.Type(), ir.KindString, e.X.Pos())
	}
	// Markup's methods keep Markup (center); escape leaves it as it is,
	// which the runtime does of a value that keeps Markup (keepMarkup).
	switch {
	case name == "escape":
		c.later = append(c.later, func() {
			if c.markup(x) && !c.markups.Kept(x) {
				c.errorf(e.Span, "filter escape of a value that may or may not be a tojson or safe result is not supported: Jinja2 leaves Markup as it is and escapes a plain string ("+toPlain+")")
			}
		})
	case !vf.markupAsPlain:
		c.checkMarkup(x, e.Span, "filter "+name+" of", "which promptgen's strings are not ("+toPlain+")")
	}
	args := c.bindArgs("filter "+name, vf.params, e.Args, e.Kwargs, e.Span)
	for i, k := range vf.kinds {
		if k != ir.KindUnknown && !builtins.IsNone(args[i]) {
			c.constrain(args[i].Type(), k, e.Span)
		}
	}
	if i := ir.ParamIndex(vf.params, "attribute"); i >= 0 {
		if k, ok := args[i].(*ir.Const); !ok || k.Value != nil && k.T.Kind != ir.KindString && k.T.Kind != ir.KindInt {
			c.errorf(e.Span, "filter %s: attribute must be a string literal", name)
		} else if _, named := k.Value.(string); named && objectItems(x.Type()) {
			// The objects convert to dicts of their fields: the path must
			// name fields.
			c.attrArg(k, x.Type(), e.Span)
			c.later = append(c.later, func() {
				if c.noInputObjects(x, e.X.Pos()) {
					c.errorf(e.NameSpan, "%s by attribute= of a list whose objects come from no input (an empty list literal) is not supported", name)
				}
			})
		}
	}
	if (name == "min" || name == "max") && builtins.IsNone(args[1]) {
		c.later = append(c.later, func() {
			// Python orders no two dicts: Jinja2 fails but on one item.
			if t := x.Type().Resolve(); t.Kind == ir.KindList && (t.Elem.Resolve().Kind == ir.KindStruct || t.Elem.Resolve().Kind == ir.KindMap) {
				c.errorf(e.NameSpan, "%s needs attribute= for a list of %s", name, t.Elem)
			}
		})
	}
	out := ir.Expr(c.dyn(ir.DynFilter, name, ir.DynamicType(), e.Span, append([]ir.Expr{x}, args...)...))
	if vf.generator {
		c.mustIterateMsg(out, e.NameSpan, name+" yields a generator in Jinja2, which prints as <generator ...> and has no length or index: loop over it, join it, or convert it with | list")
	}
	switch {
	case vf.str:
		out = c.dyn(ir.DynStr, "", &ir.Type{Kind: ir.KindString}, e.Span, out)
	case vf.integer:
		out = c.dyn(ir.DynAsInt, "", &ir.Type{Kind: ir.KindInt}, e.Span, out)
	}
	return out
}

// objectItems reports whether t is, or may be inferred as, a list of
// objects: unknown, or a list of unknown items or objects. A string
// attribute= makes an unknown operand a list of objects (inferred, so
// then rejected as an operand: dynOperand).
func objectItems(t *ir.Type) bool {
	switch t = t.Resolve(); t.Kind {
	case ir.KindUnknown:
		return true
	case ir.KindList:
		k := t.Elem.Resolve().Kind
		return k == ir.KindUnknown || k == ir.KindStruct
	}
	return false
}

// sumOfMap is xs|sum(attribute=a, start=s) as xs|map(attribute=a)|sum(start=s),
// which Jinja2 computes alike: a typed list of objects has no dynamic
// value, the list of their fields does. Other calls are left as they are.
func sumOfMap(e *tmpl.Filter) *tmpl.Filter {
	var attr, start tmpl.Expr
	if len(e.Args) > 2 {
		return e
	}
	if len(e.Args) > 0 {
		attr = e.Args[0]
	}
	if len(e.Args) > 1 {
		start = e.Args[1]
	}
	for _, kw := range e.Kwargs {
		switch {
		case kw.Name == "attribute" && attr == nil:
			attr = kw.Value
		case kw.Name == "start" && start == nil:
			start = kw.Value
		default:
			return e // bindArgs reports it
		}
	}
	if k, ok := attr.(*tmpl.Const); !ok {
		return e // valueFilter reports it
	} else if _, ok := k.Value.(string); !ok {
		return e
	}
	out := &tmpl.Filter{Span: e.Span, NameSpan: e.NameSpan, Name: "sum",
		X: &tmpl.Filter{Span: e.Span, NameSpan: e.NameSpan, Name: "map", X: e.X, Kwargs: []tmpl.Kwarg{{Name: "attribute", NameSpan: e.NameSpan, Value: attr}}}}
	if start != nil {
		out.Kwargs = []tmpl.Kwarg{{Name: "start", NameSpan: e.NameSpan, Value: start}}
	}
	return out
}

// minMaxBySort is x|min(attribute=a) (max, case_sensitive=c) as
// x|sort(attribute=a, case_sensitive=c, reverse=<max>)|first, which yields
// the same item: Python's min and max yield the first least (greatest)
// item, a stable sort puts it first (reversed too). It reports false
// unless attribute= is a string constant.
func minMaxBySort(e *tmpl.Filter, name string) (*tmpl.Filter, bool) {
	if name != "min" && name != "max" || len(e.Args) > 2 {
		return nil, false
	}
	kw := map[string]tmpl.Expr{}
	for i, a := range e.Args {
		kw[[]string{"case_sensitive", "attribute"}[i]] = a
	}
	for _, k := range e.Kwargs {
		if _, dup := kw[k.Name]; dup || k.Name != "case_sensitive" && k.Name != "attribute" {
			return nil, false // valueFilter reports it
		}
		kw[k.Name] = k.Value
	}
	if a, ok := kw["attribute"].(*tmpl.Const); !ok {
		return nil, false
	} else if _, ok := a.Value.(string); !ok {
		return nil, false
	}
	sort := &tmpl.Filter{Span: e.Span, X: e.X, Name: "sort", NameSpan: e.NameSpan, Kwargs: []tmpl.Kwarg{
		{Name: "reverse", NameSpan: e.NameSpan, Value: &tmpl.Const{Span: e.NameSpan, Value: name == "max"}},
		{Name: "attribute", NameSpan: e.NameSpan, Value: kw["attribute"]},
	}}
	if cs, ok := kw["case_sensitive"]; ok {
		sort.Kwargs = append(sort.Kwargs, tmpl.Kwarg{Name: "case_sensitive", NameSpan: e.NameSpan, Value: cs})
	}
	return &tmpl.Filter{Span: e.Span, X: sort, Name: "first", NameSpan: e.NameSpan}, true
}

// inferredItems reports whether t is, or may be inferred as, a list of
// objects whose fields are inferred: unknown, or a list of unknown items
// or of such objects.
func inferredItems(t *ir.Type) bool {
	if t = t.Resolve(); !objectItems(t) {
		return false
	}
	return t.Kind == ir.KindUnknown || t.Elem.Resolve().Kind == ir.KindUnknown || types.InferredObjectIn(t)
}
