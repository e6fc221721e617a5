package check

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
	"github.com/promptgen/promptgen/schema"
)

var filterAliases = map[string]string{"d": "default", "count": "length"}

// jinjaFilters are Jinja2's other built-in filters, named in errors so an
// author learns the filter exists but is not supported, rather than a typo.
var jinjaFilters = []string{"attr", "center", "escape", "e", "filesizeformat",
	"forceescape", "format", "groupby", "max", "min", "pprint", "random",
	"slice", "striptags", "sum", "urlencode", "urlize",
	"wordcount", "wordwrap", "xmlattr"}

// bindArgs maps positional and keyword arguments onto params, filling in
// defaults; absent optional parameters become a none constant.
func (c *checker) bindArgs(what string, params []ir.Param, args []tmpl.Expr, kwargs []tmpl.Kwarg, sp tmpl.Span) []ir.Expr {
	out := make([]ir.Expr, len(params))
	if len(args) > len(params) {
		c.errorf(sp, "%s takes at most %d arguments, got %d", what, len(params), len(args))
		args = args[:len(params)]
	}
	for i, a := range args {
		out[i] = c.expr(a, useValue)
	}
	for _, kw := range kwargs {
		i := ir.ParamIndex(params, kw.Name)
		switch {
		case i < 0:
			paramNames := make([]string, len(params))
			for j, p := range params {
				paramNames[j] = p.Name
			}
			c.errorf(kw.NameSpan, "%s has no parameter %q%s", what, kw.Name, schema.DidYouMean(kw.Name, paramNames))
		case out[i] != nil:
			c.errorf(kw.NameSpan, "%s got parameter %q twice", what, kw.Name)
		default:
			out[i] = c.expr(kw.Value, useValue)
		}
	}
	for i, p := range params {
		if out[i] == nil {
			if p.Required {
				c.errorf(sp, "%s needs parameter %q", what, p.Name)
			}
			out[i] = constExpr(p.Def)
		}
	}
	return out
}

// attrArg resolves attribute= of map, sort, unique and join against the
// element type of list t. Like Jinja2, a dotted name ("customer.name")
// is a path through nested objects; it returns the fields on the path.
func (c *checker) attrArg(arg ir.Expr, list *ir.Type, sp tmpl.Span) []*ir.Field {
	k, ok := arg.(*ir.Const)
	if !ok || k.Value == nil {
		return nil
	}
	name, ok := k.Value.(string)
	if !ok {
		c.errorf(sp, "attribute must be a string literal")
		return nil
	}
	if list.Kind == ir.KindUnknown {
		c.constrain(list, ir.KindList, sp)
	}
	list = list.Resolve()
	if list.Kind != ir.KindList {
		c.errorf(sp, "attribute= needs a list of objects, not %s", list)
		return nil
	}
	parts := strings.Split(name, ".")
	path := make([]*ir.Field, len(parts))
	t := list.Elem
	for i, part := range parts {
		if part == "" || strings.Trim(part, "0123456789") == "" {
			c.errorf(sp, "attribute= supports field names only, not %q", part)
			return nil
		}
		if t.Resolve().Kind == ir.KindUnknown {
			c.constrain(t, ir.KindStruct, sp)
		}
		switch t = t.Resolve(); {
		case t.Kind != ir.KindStruct && t.Kind != ir.KindDict && i == 0:
			c.errorf(sp, "attribute= needs a list of objects, not %s", list)
			return nil
		case t.Kind != ir.KindStruct && t.Kind != ir.KindDict:
			c.errorf(sp, "attribute=%q needs an object at %q, not %s", name, strings.Join(parts[:i], "."), t)
			return nil
		}
		f, ok := c.structField(t, part, sp)
		if !ok {
			return nil
		}
		if f == nil {
			if t.Kind == ir.KindDict {
				c.errorf(sp, "dict has no key %q%s", part, schema.DidYouMean(part, types.FieldKeys(t)))
				return nil
			}
			if t.Declared {
				c.errorf(sp, "object has no field %q%s", part, schema.DidYouMean(part, types.FieldKeys(t)))
				return nil
			}
			f = &ir.Field{Key: part, Type: &ir.Type{}, Pos: c.pos(sp)}
			t.Fields = append(t.Fields, f)
		}
		if f.Optional && isDictMethod(part) {
			// Jinja2 reads a missing key as the attribute: the dict method.
			c.errorf(sp, "attribute=%q reads the dict method %s where the optional %q is unset", name, part, part)
			return nil
		}
		path[i] = f
		t = f.Type
	}
	return path
}

// filters are the supported filters, by name; their parameters are
// ir.FilterParams'. Set in init: their functions check the operand,
// which may call a filter.
var filters map[string]filterDef

// filterDef is how the checker checks one filter.
type filterDef struct {
	flags filterFlag
	// typed types the call of a typed operand, f.out; it reports false,
	// once reported, when the filter's value is rejected. Nil for the
	// filters of dynamic values only.
	typed func(c *checker, f *filterUse) bool
	// args are the kinds its arguments must have once types are final
	// (ir.KindUnknown: any), and final what else it checks then.
	args  []ir.Kind
	final func(c *checker, f *filterUse)
	// dyn checks it on a dynamic operand; nil where that is not supported.
	dyn func(c *checker, f *filterUse) ir.Expr
}

// filterFlag is a property of a filter.
type filterFlag uint16

const (
	// printsOperand: Jinja2 converts the operand with str() (indent and
	// truncate do not: they need a string), so it is printed.
	printsOperand filterFlag = 1 << iota
	// takesString: a dynamic operand is converted with str() first.
	takesString
	// iterates: it iterates its operand, the one use of a generator.
	iterates
	// readsAll: it reads every field of its operand.
	readsAll
	// hintsString: an unknown operand defaults to a string, as where it is
	// printed; noHint: the filter's use says nothing of the operand's type.
	hintsString
	noHint
	// dynList: a list of dynamic values (messages) converts to one.
	dynList
	// dynOnly: only dynamic values have it.
	dynOnly
	// keepsMarkup: of Markup, Jinja2 returns Markup (see markup).
	keepsMarkup
)

func init() {
	text := printsOperand | takesString | keepsMarkup
	filters = map[string]filterDef{
		"default":    {flags: noHint, typed: (*checker).defaultFilter, args: []ir.Kind{ir.KindUnknown, ir.KindBool}, dyn: (*checker).dynDefault},
		"upper":      {flags: text, typed: (*checker).textFilter},
		"lower":      {flags: text, typed: (*checker).textFilter},
		"title":      {flags: text &^ keepsMarkup, typed: (*checker).textFilter},
		"capitalize": {flags: text, typed: (*checker).textFilter},
		"trim":       {flags: text, typed: (*checker).textFilter, args: []ir.Kind{ir.KindString}},
		"replace":    {flags: text &^ keepsMarkup, typed: (*checker).textFilter, args: []ir.Kind{ir.KindString, ir.KindString, ir.KindInt}},
		"indent":     {flags: takesString | keepsMarkup, typed: (*checker).textFilter, args: []ir.Kind{ir.KindUnknown, ir.KindBool, ir.KindBool}, final: (*checker).indentFinal},
		"truncate":   {flags: takesString | keepsMarkup, typed: (*checker).textFilter, args: []ir.Kind{ir.KindInt, ir.KindBool, ir.KindString, ir.KindInt}},
		"string":     {flags: printsOperand | readsAll | keepsMarkup, typed: (*checker).stringFilter, dyn: dynOp(ir.DynStr, ir.KindString)},
		"tojson":     {flags: readsAll | hintsString, typed: (*checker).stringFilter, args: []ir.Kind{ir.KindInt}, dyn: (*checker).dynToJSON},
		"join":       {flags: iterates, typed: (*checker).joinFilter, args: []ir.Kind{ir.KindString, ir.KindString}, final: (*checker).listFinal, dyn: (*checker).dynJoin},
		"length":     {typed: (*checker).lengthFilter, dyn: dynOp(ir.DynLength, ir.KindInt)},
		"first":      {flags: iterates, typed: (*checker).firstFilter, dyn: dynOp(ir.DynFirst, ir.KindDynamic)},
		"last":       {typed: (*checker).firstFilter, dyn: dynOp(ir.DynLast, ir.KindDynamic)},
		"int":        {flags: hintsString | dynList, typed: (*checker).numberFilter, args: []ir.Kind{ir.KindInt, ir.KindInt}, final: (*checker).numberFinal, dyn: dynCall(ir.KindUnknown, ir.KindInt)},
		"float":      {flags: hintsString | dynList, typed: (*checker).numberFilter, args: []ir.Kind{ir.KindFloat}, final: (*checker).numberFinal, dyn: dynCall()},
		"round":      {typed: (*checker).roundFilter, args: []ir.Kind{ir.KindInt, ir.KindString}, final: (*checker).roundFinal},
		"sort":       {flags: iterates | dynList, typed: (*checker).sortFilter, args: []ir.Kind{ir.KindBool, ir.KindBool, ir.KindString}, final: (*checker).listFinal, dyn: (*checker).dynSort},
		"unique":     {flags: iterates, typed: (*checker).sortFilter, args: []ir.Kind{ir.KindBool, ir.KindString}, final: (*checker).listFinal},
		"reverse":    {flags: iterates | dynList | keepsMarkup, typed: (*checker).reverseFilter, dyn: dynGenerator(dynCall())},
		"list":       {flags: iterates, typed: (*checker).listFilter, final: (*checker).listFinal, dyn: dynOp(ir.DynList, ir.KindDynamic)},
		"map":        {flags: iterates | dynList, typed: (*checker).mapAttrFilter, args: []ir.Kind{ir.KindString, ir.KindUnknown}, final: (*checker).listFinal, dyn: dynGenerator((*checker).dynMap)},
		// Of dynamic values only: the typed ones are iterables of loops.
		"items":    {dyn: dynGenerator(dynCall())},
		"dictsort": {dyn: dynCall(ir.KindBool, ir.KindString, ir.KindBool)},
		"batch":    {flags: iterates | dynList | dynOnly, dyn: dynGenerator(dynCall(ir.KindInt))},
		"abs":      {flags: dynList | dynOnly, dyn: dynCall()},
	}
}

// filterUse is a use of a filter being checked.
type filterUse struct {
	e    *tmpl.Filter
	name string    // e.Name, an alias resolved
	u    use       // how its value is used
	x    ir.Expr   // the operand
	args []ir.Expr // the arguments, bound to the parameters
	out  *ir.Call  // the call, of a typed operand
}

func (c *checker) filter(e *tmpl.Filter, u use) ir.Expr {
	name := e.Name
	if a, ok := filterAliases[name]; ok {
		name = a
	}
	if name == "safe" {
		return c.safeFilter(e, u)
	}
	switch name {
	case "select", "reject", "selectattr", "rejectattr":
		return c.selectFilter(e, name)
	case "map":
		if len(e.Args) > 0 {
			return c.mapFilter(e)
		}
	}
	def, ok := filters[name]
	if !ok {
		if contains(jinjaFilters, name) {
			c.errorf(e.NameSpan, "unsupported filter %q", e.Name)
		} else {
			c.errorf(e.NameSpan, "unknown filter %q%s", e.Name, schema.DidYouMean(e.Name, slices.Sorted(maps.Keys(filters))))
		}
		return c.reject()
	}
	params := ir.FilterParams[name]
	f := &filterUse{e: e, name: name, u: u}
	if name == "items" || name == "dictsort" {
		if f.x = c.expr(e.X, useValue); isDynamic(f.x) || f.x.Type().Kind == ir.KindList && types.HoldsDynamic(f.x.Type()) {
			f.args = c.bindArgs("filter "+name, params, e.Args, e.Kwargs, e.Span)
			return c.dynFilter(f)
		}
		// Their (key, value) pairs have no type of their own.
		c.errorf(e.NameSpan, "filter %s is supported only as the iterable of a for loop with two targets (for key, value in m|%s), or of a dynamic value", name, name)
		return c.reject()
	}
	xu := useValue
	if def.flags&printsOperand != 0 {
		xu = usePrint
	}
	f.x = c.expr(e.X, xu)
	x := f.x
	if c.rejected[x] {
		return c.reject()
	}
	if def.flags&iterates != 0 {
		c.iterate(x)
	} else if d, ok := x.(*ir.Dynamic); ok && name == "length" && (d.Op == ir.DynKeys || d.Op == ir.DynValues || d.Op == ir.DynItemsList) {
		c.iterate(x) // a dict view has a length
	}
	if def.flags&readsAll != 0 {
		c.readsWhole(x, e.Span, name)
	}
	switch {
	case def.flags&noHint != 0:
	case def.flags&hintsString != 0:
		hint(x.Type(), usePrint)
	default:
		hint(x.Type(), u)
	}
	out := &ir.Call{Kind: ir.CallFilter, Name: name, X: x, Pos: c.posString(e.Span)}
	if name == "tojson" && c.p.Jinja.Transformers {
		// Its first parameter is ensure_ascii, not indent.
		out.Args = c.transformersToJSON(out, e)
	} else {
		out.Args = c.bindArgs("filter "+name, params, e.Args, e.Kwargs, e.Span)
	}
	f.args, f.out = out.Args, out
	switch {
	case name == "default" && !isDynamic(x) && (types.HoldsDynamic(x.Type()) || types.HoldsDynamic(out.Args[0].Type())):
		// Either may be what it yields: a dynamic value, or a typed one
		// converted to one.
		return c.dynFilter(f)
	case name == "tojson" && types.HoldsDynamic(x.Type()):
		return c.dynFilter(f)
	case def.flags&dynList != 0 && !isDynamic(x) && x.Type().Kind == ir.KindList && types.HoldsDynamic(x.Type()):
		// A list of dynamic values (messages) converts to one.
		return c.dynFilter(f)
	case def.flags&dynOnly != 0 && !isDynamic(x):
		c.errorf(e.NameSpan, "filter %s is supported on dynamic values only (the chat context's messages, tools and documents)", name)
		return c.reject()
	case isDynamic(x) && def.flags&takesString != 0:
		// Jinja2 converts the operand with str() first.
		out.X = c.dyn(ir.DynStr, "", &ir.Type{Kind: ir.KindString}, e.X.Pos(), x)
		f.x = out.X
	case isDynamic(x):
		return c.dynFilter(f)
	default:
		c.staysTyped(e.Span, x)
	}
	if !def.typed(c, f) {
		return c.reject()
	}
	if isGenerator(out) {
		c.mustIterate(out, name, e.NameSpan)
	}
	c.later = append(c.later, func() { c.checkFilter(f) })
	return out
}

// defaultFilter types x|default(d): x where it is defined, else d.
func (c *checker) defaultFilter(f *filterUse) bool {
	x, out, e := f.x, f.out, f.e
	xt := x.Type()
	c.guard(x)
	c.later = append(c.later, func() {
		if ir.MaybeUndefined(out.Args[0]) {
			// Jinja2 would yield the undefined default; the Go value
			// cannot be undefined and set.
			c.errorf(e.Span, "the default of default() may be undefined: give it a value that is always defined (another default, or a literal)")
		}
	})
	d := out.Args[0].Type()
	if d.Kind == ir.KindNone {
		// Jinja2 would turn undefined into None, which prints "None";
		// a typed value cannot be both, so ask for what is meant.
		c.errorf(e.Span, "default(none) is not supported: an unset optional is already undefined (test it with \"is defined\")")
	}
	if d.Kind != ir.KindNone && types.Unifiable(xt, d) {
		c.unify(xt, d, e.Span)
	}
	out.T = xt.Resolve()
	if d.Kind != ir.KindNone && !ir.SameKind(x.Type(), d) {
		// As an and/or of different types: typed as its str(), right
		// where printed.
		out.T = &ir.Type{Kind: ir.KindString}
		if f.u != usePrint {
			c.errorf(e.Span, "default yields either %s here: promptgen can print that, but not use it as a value (make the value and the default one type, or convert with | string)", kindsOf([]ir.Expr{x, out.Args[0]}))
			out.T = &ir.Type{}
		}
	}
	return true
}

// textFilter types the filters of a string (upper, replace, truncate...).
func (c *checker) textFilter(f *filterUse) bool {
	c.constrain(f.x.Type(), ir.KindString, f.e.X.Pos())
	f.out.T = &ir.Type{Kind: ir.KindString}
	switch f.name {
	case "trim":
		c.checkMarkup(f.x, f.e.Span, "trim of", "which escapes the characters ("+toPlain+")", f.args[0])
	case "truncate":
		c.checkMarkup(f.x, f.e.Span, "truncate of", "which escapes the end ("+toPlain+")", f.args[2])
	}
	return true
}

// stringFilter types string and tojson, which take any value.
func (c *checker) stringFilter(f *filterUse) bool {
	if f.name == "string" {
		inline(f.x)
	}
	f.out.T = &ir.Type{Kind: ir.KindString}
	return true
}

func (c *checker) joinFilter(f *filterUse) bool {
	x, out, e := f.x, f.out, f.e
	out.T = &ir.Type{Kind: ir.KindString}
	if m, ok := x.(*ir.Call); ok && m.Kind == ir.CallFilter && m.Name == "map" && m.Attr != nil && isNone(m.Args[1]) && isNone(out.Args[1]) {
		// map(attribute=a) | join is join(attribute=a), where an
		// unset field joins as "" (str of Undefined).
		c.consume(m)
		out.X, out.Attr = m.X, m.Attr
		return true
	}
	c.constrain(x.Type(), ir.KindList, e.X.Pos())
	out.Attr = c.attrArg(out.Args[ir.ParamIndex(ir.FilterParams["join"], "attribute")], x.Type(), e.Span)
	if out.Attr == nil {
		inline(x)
		c.readsWhole(x, e.Span, "join")
	}
	return true
}

func (c *checker) lengthFilter(f *filterUse) bool {
	f.out.T = &ir.Type{Kind: ir.KindInt}
	c.later = append(c.later, func() {
		if k := f.x.Type().Kind; k != ir.KindList && k != ir.KindString && k != ir.KindMap && k != ir.KindDict && k != ir.KindStruct {
			c.errorf(f.e.NameSpan, "length needs a list, string, map, dict or object, not %s", f.x.Type())
		}
	})
	return true
}

// firstFilter types first and last.
func (c *checker) firstFilter(f *filterUse) bool {
	xt := f.x.Type()
	if xt.Kind == ir.KindUnknown {
		c.constrain(xt, ir.KindList, f.e.X.Pos())
	}
	switch xt = xt.Resolve(); xt.Kind {
	case ir.KindList:
		f.out.T = xt.Elem
	case ir.KindString:
		f.out.T = &ir.Type{Kind: ir.KindString}
	default:
		c.errorf(f.e.NameSpan, "%s needs a list or string, not %s", f.name, xt)
		f.out.T = &ir.Type{Kind: ir.KindNone}
	}
	return true
}

// numberFilter types int and float.
func (c *checker) numberFilter(f *filterUse) bool {
	f.out.T = &ir.Type{Kind: ir.KindInt}
	if f.name == "float" {
		f.out.T = &ir.Type{Kind: ir.KindFloat}
	}
	return true
}

func (c *checker) roundFilter(f *filterUse) bool {
	xt := f.x.Type()
	if !ir.IsNumber(xt.Resolve().Kind) {
		c.constrain(xt, ir.KindFloat, f.e.X.Pos())
	}
	// Python's round keeps an int an int; floor and ceil divide.
	f.out.T = &ir.Type{Kind: ir.KindFloat}
	if m, ok := f.out.Args[1].(*ir.Const); ok && m.Value == "common" && xt.Resolve().Kind == ir.KindInt {
		f.out.T = &ir.Type{Kind: ir.KindInt}
	}
	return true
}

// sortFilter types sort and unique.
func (c *checker) sortFilter(f *filterUse) bool {
	xt := f.x.Type()
	c.constrain(xt, ir.KindList, f.e.X.Pos())
	attr := f.out.Args[ir.ParamIndex(ir.FilterParams[f.name], "attribute")]
	if k, ok := attr.(*ir.Const); ok && f.name == "sort" && strings.Contains(fmt.Sprint(k.Value), ",") {
		// Jinja2's sort reads "a,b" as two sort keys.
		c.errorf(f.e.Span, "sort by several attributes (%q) is not supported", k.Value)
	} else {
		f.out.Attr = c.attrArg(attr, xt, f.e.Span)
	}
	f.out.T = xt
	return true
}

func (c *checker) reverseFilter(f *filterUse) bool {
	xt, out, e := f.x.Type(), f.out, f.e
	if xt.Kind == ir.KindUnknown {
		c.constrain(xt, ir.KindList, e.X.Pos())
	}
	switch out.T = xt.Resolve(); out.T.Kind {
	case ir.KindList:
		c.mustIterateMsg(out, e.NameSpan, "reverse of a list yields an iterator in Jinja2, which prints as <list_reverseiterator ...> and has no length or index: loop over it, join it, or convert it with | list")
	case ir.KindString:
		c.later = append(c.later, func() {
			if ir.MaybeUndefined(f.x) {
				// Jinja2 reverses Undefined as an empty iterator, which prints as one.
				c.errorf(e.NameSpan, "reverse of a string that may be undefined is not supported (give it a default)")
			}
		})
	default:
		c.errorf(e.NameSpan, "reverse needs a list or string, not %s", out.T)
		return false
	}
	return true
}

func (c *checker) listFilter(f *filterUse) bool {
	xt := f.x.Type()
	if xt.Kind == ir.KindUnknown {
		c.constrain(xt, ir.KindList, f.e.X.Pos())
	}
	f.out.T = xt.Resolve()
	if f.out.T.Kind != ir.KindList {
		f.out.T = &ir.Type{Kind: ir.KindList, Elem: &ir.Type{Kind: ir.KindString}}
	}
	return true
}

// mapAttrFilter types map(attribute=...).
func (c *checker) mapAttrFilter(f *filterUse) bool {
	out := f.out
	out.Attr = c.attrArg(out.Args[0], f.x.Type(), f.e.Span)
	out.T = &ir.Type{Kind: ir.KindList, Elem: &ir.Type{Kind: ir.KindString}}
	if out.Attr != nil {
		out.T = &ir.Type{Kind: ir.KindList, Elem: ir.AttrType(out.Attr)}
	}
	return true
}

// rebindAttr points the attribute= path of x at the fields of the final
// types: unification may have merged the struct its fields were read from
// into another (an empty literal's objects with a feed's), whose fields
// are the ones named and emitted.
func rebindAttr(x *ir.Call) {
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

// checkFilter validates a filter's operand and arguments once types are final.
func (c *checker) checkFilter(f *filterUse) {
	x, e := f.out, f.e
	rebindAttr(x)
	def := filters[x.Name]
	for i, want := range def.args {
		got := x.Args[i].Type().Kind
		if want == ir.KindUnknown || got == ir.KindNone || got == want || (want == ir.KindFloat && got == ir.KindInt) {
			continue
		}
		c.errorf(e.Span, "filter %s: parameter %q must be a %s, not %s", x.Name, ir.FilterParams[x.Name][i].Name, want, got)
	}
	if x.Attr != nil && !c.consumed[x] && !c.fromFeed(x.X.Type().Elem) {
		// Its Go type would have no name: the objects of an empty literal.
		c.errorf(e.NameSpan, "%s by attribute= of a list whose objects come from no input (an empty list literal) is not supported", x.Name)
		return
	}
	if def.final != nil {
		def.final(c, f)
	}
}

func (c *checker) indentFinal(f *filterUse) {
	if k := f.out.Args[0].Type().Kind; k != ir.KindInt && k != ir.KindString {
		c.errorf(f.e.Span, "filter indent: width must be an int or a string")
	}
}

// listFinal checks list, and join, sort, unique and map, which need a
// list, of scalars unless by attribute=.
func (c *checker) listFinal(f *filterUse) {
	x, e := f.out, f.e
	xk := x.X.Type().Kind
	if x.Name == "list" {
		if xk != ir.KindList && xk != ir.KindString && xk != ir.KindMap && xk != ir.KindDict {
			c.errorf(e.NameSpan, "list needs a list, string, map or dict, not %s", x.X.Type())
		}
		return
	}
	if xk != ir.KindList {
		c.errorf(e.NameSpan, "%s needs a list, not %s", x.Name, x.X.Type())
	} else if x.Name != "join" && isNone(x.Args[ir.ParamIndex(ir.FilterParams[x.Name], "attribute")]) && !ir.IsScalar(x.X.Type().Elem.Kind) {
		c.errorf(e.NameSpan, "%s needs attribute= for a list of %s", x.Name, x.X.Type().Elem)
	}
	if x.Name == "map" && x.Attr != nil {
		c.checkMapAttr(x, e)
	}
	var k *ir.Type // what sort or unique compares
	if xk == ir.KindList && (x.Name == "sort" || x.Name == "unique") {
		k = sortKey(x)
	}
	switch {
	case k == nil:
	case x.Name == "unique" && !ir.IsScalar(k.Kind):
		// Jinja2 fails on unhashable keys; Go does not compile.
		c.errorf(e.NameSpan, "unique by attribute= needs a string, number or bool, not %s", k)
	case x.Name == "sort" && k.Kind == ir.KindBool:
		// Go's cmp.Compare orders no bools; Python orders False first.
		c.errorf(e.NameSpan, "sort of bools is not supported")
	case x.Name == "sort" && !ir.IsScalar(k.Kind):
		c.errorf(e.NameSpan, "sort by attribute= needs a string or number, not %s", k)
	}
	if x.Name == "sort" && len(x.Attr) > 1 {
		// The comparison cannot fail the render when an object on the way is unset.
		for _, f := range x.Attr[:len(x.Attr)-1] {
			if f.Optional {
				c.errorf(e.Span, "sort by attribute= through the optional field %q is not supported", f.Key)
			}
		}
	}
}

// numberFinal checks int and float.
func (c *checker) numberFinal(f *filterUse) {
	x, e := f.out, f.e
	if !ir.IsScalar(x.X.Type().Kind) {
		c.errorf(e.NameSpan, "%s needs a string or number, not %s", x.Name, x.X.Type())
	}
	if k, ok := x.Args[0].(*ir.Const); ok && k.Value == nil {
		// Jinja2 yields the default, None, where the conversion fails.
		c.errorf(e.Span, "filter %s: a none default of a typed value is not supported (give a number)", x.Name)
	}
}

func (c *checker) roundFinal(f *filterUse) {
	if !ir.IsNumber(f.out.X.Type().Kind) {
		c.errorf(f.e.NameSpan, "round needs a number, not %s", f.out.X.Type())
	}
}

// dynFilter checks a filter of a dynamic operand, its arguments bound.
func (c *checker) dynFilter(f *filterUse) ir.Expr {
	if dyn := filters[f.name].dyn; dyn != nil {
		return dyn(c, f)
	}
	c.errorf(f.e.NameSpan, "filter %s of a dynamic value is not supported", f.name)
	return c.reject()
}

// dynOp is the dyn of a filter that is op of the operand alone, of kind k.
func dynOp(op ir.DynOp, k ir.Kind) func(*checker, *filterUse) ir.Expr {
	return func(c *checker, f *filterUse) ir.Expr {
		return c.dyn(op, "", &ir.Type{Kind: k}, f.e.Span, f.x)
	}
}

func (c *checker) dynDefault(f *filterUse) ir.Expr {
	return c.dyn(ir.DynDefault, "", ir.DynamicType(), f.e.Span, f.x, f.args[0], f.args[1])
}

func (c *checker) dynToJSON(f *filterUse) ir.Expr {
	return c.dyn(ir.DynToJSON, "", &ir.Type{Kind: ir.KindString}, f.e.Span, f.x, f.args[0])
}

func (c *checker) dynJoin(f *filterUse) ir.Expr {
	if !isNone(f.args[1]) {
		c.errorf(f.e.Span, "join(attribute=) of a dynamic value is not supported")
	}
	c.constrain(f.args[0].Type(), ir.KindString, f.e.Span)
	return c.dyn(ir.DynJoin, "", &ir.Type{Kind: ir.KindString}, f.e.Span, f.x, f.args[0])
}

// dynCall is the dyn of a filter that runtime/jinja applies with every
// argument given, whose first arguments have kinds (ir.KindUnknown: any):
// a flag is a bool, a count an int. sort and dictsort yield lists, as
// Python's sorted.
func dynCall(kinds ...ir.Kind) func(*checker, *filterUse) ir.Expr {
	return func(c *checker, f *filterUse) ir.Expr {
		for i, k := range kinds {
			if k != ir.KindUnknown && !isNone(f.args[i]) {
				c.constrain(f.args[i].Type(), k, f.e.Span)
			}
		}
		return c.dyn(ir.DynFilter, f.name, ir.DynamicType(), f.e.Span, append([]ir.Expr{f.x}, f.args...)...)
	}
}

func (c *checker) dynSort(f *filterUse) ir.Expr {
	out := dynCall(ir.KindBool, ir.KindBool)(c, f)
	c.dynAttrArg(f, f.args[2])
	return out
}

func (c *checker) dynMap(f *filterUse) ir.Expr {
	out := dynCall()(c, f)
	c.dynAttrArg(f, f.args[0])
	return out
}

// dynAttrArg checks the attribute or sort key of a filter of a dynamic
// value: a string literal.
func (c *checker) dynAttrArg(f *filterUse, attr ir.Expr) {
	if k, ok := attr.(*ir.Const); !ok || k.Value != nil && k.T.Kind != ir.KindString {
		c.errorf(f.e.Span, "filter %s: attribute must be a string literal", f.name)
	}
}

// dynGenerator is dyn for a filter that yields a generator in Jinja2 (or
// an iterator, reverse): its consumer must iterate it.
func dynGenerator(dyn func(*checker, *filterUse) ir.Expr) func(*checker, *filterUse) ir.Expr {
	return func(c *checker, f *filterUse) ir.Expr {
		out := dyn(c, f)
		what := "a generator, which prints as <generator ...>"
		if f.name == "reverse" {
			what = "an iterator (of anything but a string), which prints as <list_reverseiterator ...>"
		}
		c.mustIterateMsg(out, f.e.NameSpan, fmt.Sprintf("%s of a dynamic value yields %s in Jinja2 and has no length or index: loop over it, join it, or convert it with | list", f.name, what))
		return out
	}
}

// checkMapAttr checks map(attribute=...) through an optional last field,
// which yields Undefined where the field is unset: the result must be
// joined directly, or the unset fields need a default of the field's kind.
func (c *checker) checkMapAttr(x *ir.Call, e *tmpl.Filter) {
	f := x.Attr[len(x.Attr)-1]
	d := x.Args[1]
	switch {
	case !isNone(d) && !ir.SameKind(d.Type(), f.Type):
		c.errorf(e.Span, "filter map: default must have the type of the field %q (%s), not %s", f.Key, f.Type, d.Type())
	case f.Optional && isNone(d) && !c.consumed[x]:
		c.errorf(e.Span, "map(attribute=%q) yields Undefined where the optional %q is unset, which promptgen's lists cannot hold: join the result directly or give map a default=", ir.AttrPath(x.Attr), f.Key)
	}
}

// fromFeed reports whether t, once final, is not an object, or is one
// that the feed holds: only those have a Go type.
func (c *checker) fromFeed(t *ir.Type) bool {
	if t = t.Resolve(); t.Kind != ir.KindStruct {
		return true
	}
	seen := map[*ir.Type]bool{}
	var walk func(*ir.Type) bool
	walk = func(u *ir.Type) bool {
		u = u.Resolve()
		if u == t {
			return true
		}
		if seen[u] {
			return false
		}
		seen[u] = true
		if u.Elem != nil && walk(u.Elem) {
			return true
		}
		for _, f := range u.Fields {
			if walk(f.Type) {
				return true
			}
		}
		return false
	}
	return walk(c.feed)
}

// sortKey is the type sort compares the elements of x.X by.
func sortKey(x *ir.Call) *ir.Type {
	if x.Attr != nil {
		return ir.AttrType(x.Attr)
	}
	return x.X.Type().Elem.Resolve()
}

// isNone reports whether x is the constant none, as an absent optional
// argument is.
func isNone(x ir.Expr) bool {
	k, ok := x.(*ir.Const)
	return ok && k.Value == nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// transformersToJSONParams are the parameters of the transformers
// profile's tojson: json.dumps's, ensure_ascii first.
var transformersToJSONParams = []ir.Param{{Name: "ensure_ascii", Def: false}, {Name: "indent"}, {Name: "separators"}, {Name: "sort_keys", Def: false}}

// transformersToJSON binds the arguments of the transformers profile's
// tojson, of which promptgen supports indent, and returns them as
// Jinja2's tojson takes them. Its keys come in insertion order, which only
// a dict literal has: an object or a map of the feed has the order of its
// JSON data in Python, which a Go struct or map does not keep.
func (c *checker) transformersToJSON(out *ir.Call, e *tmpl.Filter) []ir.Expr {
	args := c.bindArgs("filter tojson", transformersToJSONParams, e.Args, e.Kwargs, e.Span)
	for i, p := range transformersToJSONParams {
		if k, ok := args[i].(*ir.Const); p.Name != "indent" && (!ok || k.Value != p.Def) {
			c.errorf(e.Span, "filter tojson: %s is not supported (transformers' tojson supports indent)", p.Name)
		}
	}
	c.later = append(c.later, func() {
		if t := types.KeyedIn(out.X.Type()); t != nil {
			c.errorf(e.Span, "tojson of the transformers profile writes the keys of a %s in the order of its JSON data, which promptgen's types do not keep (only a dict literal's)", t)
		}
	})
	return []ir.Expr{args[1]}
}
