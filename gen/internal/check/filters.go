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
			names := make([]string, len(params))
			for j, p := range params {
				names[j] = p.Name
			}
			c.errorf(kw.NameSpan, "%s has no parameter %q%s", what, kw.Name, schema.DidYouMean(kw.Name, names))
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
	params, ok := ir.FilterParams[name]
	if !ok {
		if contains(jinjaFilters, name) {
			c.errorf(e.NameSpan, "unsupported filter %q", e.Name)
		} else {
			c.errorf(e.NameSpan, "unknown filter %q%s", e.Name, schema.DidYouMean(e.Name, slices.Sorted(maps.Keys(ir.FilterParams))))
		}
		return c.reject()
	}
	if name == "items" || name == "dictsort" {
		if x := c.expr(e.X, useValue); isDynamic(x) || x.Type().Kind == ir.KindList && types.HoldsDynamic(x.Type()) {
			return c.dynFilter(e, name, x, c.bindArgs("filter "+name, params, e.Args, e.Kwargs, e.Span))
		}
		// Their (key, value) pairs have no type of their own.
		c.errorf(e.NameSpan, "filter %s is supported only as the iterable of a for loop with two targets (for key, value in m|%s), or of a dynamic value", name, name)
		return c.reject()
	}
	// The operand of a filter that converts it with str() is printed
	// (indent and truncate do not: they need a string).
	xu := useValue
	switch name {
	case "upper", "lower", "title", "capitalize", "trim", "string", "replace":
		xu = usePrint
	}
	x := c.expr(e.X, xu)
	if c.rejected[x] {
		return c.reject()
	}
	switch name {
	case "join", "list", "first", "sort", "unique", "map", "reverse", "batch":
		c.iterate(x)
	case "length":
		if d, ok := x.(*ir.Dynamic); ok && (d.Op == ir.DynKeys || d.Op == ir.DynValues || d.Op == ir.DynItemsList) {
			c.iterate(x) // a dict view has a length
		}
	}
	switch name {
	case "string", "tojson":
		c.readsWhole(x, e.Span, name)
	}
	switch name {
	case "default":
	case "tojson", "int", "float":
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
	switch {
	case name == "default" && !isDynamic(x) && (types.HoldsDynamic(x.Type()) || types.HoldsDynamic(out.Args[0].Type())):
		// Either may be what it yields: a dynamic value, or a typed one
		// converted to one.
		return c.dynFilter(e, name, x, out.Args)
	case name == "tojson" && types.HoldsDynamic(x.Type()):
		return c.dynFilter(e, name, x, out.Args)
	}
	if dynListFilters[name] && !isDynamic(x) && x.Type().Kind == ir.KindList && types.HoldsDynamic(x.Type()) {
		// A list of dynamic values (messages) converts to one.
		return c.dynFilter(e, name, x, out.Args)
	}
	if dynOnlyFilters[name] && !isDynamic(x) {
		c.errorf(e.NameSpan, "filter %s is supported on dynamic values only (the chat context's messages, tools and documents)", name)
		return c.reject()
	}
	if isDynamic(x) {
		switch name {
		case "upper", "lower", "title", "capitalize", "trim", "replace", "indent", "truncate":
			// Jinja2 converts the operand with str() first.
			out.X = c.dyn(ir.DynStr, "", &ir.Type{Kind: ir.KindString}, e.X.Pos(), x)
			x = out.X
		default:
			return c.dynFilter(e, name, x, out.Args)
		}
	} else {
		c.staysTyped(e.Span, x)
	}
	xt := x.Type()
	str := func() *ir.Type { return &ir.Type{Kind: ir.KindString} }
	switch name {
	case "default":
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
			out.T = str()
			if u != usePrint {
				c.errorf(e.Span, "default yields either %s here: promptgen can print that, but not use it as a value (make the value and the default one type, or convert with | string)", kindsOf([]ir.Expr{x, out.Args[0]}))
				out.T = &ir.Type{}
			}
		}
	case "upper", "lower", "title", "capitalize", "trim", "replace", "indent", "truncate":
		c.constrain(xt, ir.KindString, e.X.Pos())
		out.T = str()
		switch name {
		case "trim":
			c.checkMarkup(x, e.Span, "trim of", "which escapes the characters ("+toPlain+")", out.Args[0])
		case "truncate":
			c.checkMarkup(x, e.Span, "truncate of", "which escapes the end ("+toPlain+")", out.Args[2])
		}
	case "string", "tojson":
		if name == "string" {
			inline(x)
		}
		out.T = str()
	case "join":
		if m, ok := x.(*ir.Call); ok && m.Kind == ir.CallFilter && m.Name == "map" && m.Attr != nil && isNone(m.Args[1]) && isNone(out.Args[1]) {
			// map(attribute=a) | join is join(attribute=a), where an
			// unset field joins as "" (str of Undefined).
			c.consume(m)
			out.X, out.Attr, out.T = m.X, m.Attr, str()
			break
		}
		c.constrain(xt, ir.KindList, e.X.Pos())
		out.Attr = c.attrArg(out.Args[ir.ParamIndex(params, "attribute")], xt, e.Span)
		if out.Attr == nil {
			inline(x)
			c.readsWhole(x, e.Span, "join")
		}
		out.T = str()
	case "length":
		out.T = &ir.Type{Kind: ir.KindInt}
		c.later = append(c.later, func() {
			if k := x.Type().Kind; k != ir.KindList && k != ir.KindString && k != ir.KindMap && k != ir.KindDict && k != ir.KindStruct {
				c.errorf(e.NameSpan, "length needs a list, string, map, dict or object, not %s", x.Type())
			}
		})
	case "first", "last":
		if xt.Kind == ir.KindUnknown {
			c.constrain(xt, ir.KindList, e.X.Pos())
		}
		switch xt = xt.Resolve(); xt.Kind {
		case ir.KindList:
			out.T = xt.Elem
		case ir.KindString:
			out.T = str()
		default:
			c.errorf(e.NameSpan, "%s needs a list or string, not %s", name, xt)
			out.T = &ir.Type{Kind: ir.KindNone}
		}
	case "int":
		out.T = &ir.Type{Kind: ir.KindInt}
	case "float":
		out.T = &ir.Type{Kind: ir.KindFloat}
	case "round":
		if !ir.IsNumber(xt.Resolve().Kind) {
			c.constrain(xt, ir.KindFloat, e.X.Pos())
		}
		// Python's round keeps an int an int; floor and ceil divide.
		out.T = &ir.Type{Kind: ir.KindFloat}
		if m, ok := out.Args[1].(*ir.Const); ok && m.Value == "common" && xt.Resolve().Kind == ir.KindInt {
			out.T = &ir.Type{Kind: ir.KindInt}
		}
	case "sort", "unique":
		c.constrain(xt, ir.KindList, e.X.Pos())
		attr := out.Args[ir.ParamIndex(params, "attribute")]
		if k, ok := attr.(*ir.Const); ok && name == "sort" && strings.Contains(fmt.Sprint(k.Value), ",") {
			// Jinja2's sort reads "a,b" as two sort keys.
			c.errorf(e.Span, "sort by several attributes (%q) is not supported", k.Value)
		} else {
			out.Attr = c.attrArg(attr, xt, e.Span)
		}
		out.T = xt
	case "reverse":
		if xt.Kind == ir.KindUnknown {
			c.constrain(xt, ir.KindList, e.X.Pos())
		}
		switch out.T = xt.Resolve(); out.T.Kind {
		case ir.KindList:
			c.mustIterateMsg(out, e.NameSpan, "reverse of a list yields an iterator in Jinja2, which prints as <list_reverseiterator ...> and has no length or index: loop over it, join it, or convert it with | list")
		case ir.KindString:
			c.later = append(c.later, func() {
				if ir.MaybeUndefined(x) {
					// Jinja2 reverses Undefined as an empty iterator, which prints as one.
					c.errorf(e.NameSpan, "reverse of a string that may be undefined is not supported (give it a default)")
				}
			})
		default:
			c.errorf(e.NameSpan, "reverse needs a list or string, not %s", out.T)
			return c.reject()
		}
	case "list":
		if xt.Kind == ir.KindUnknown {
			c.constrain(xt, ir.KindList, e.X.Pos())
		}
		out.T = xt.Resolve()
		if out.T.Kind != ir.KindList {
			out.T = &ir.Type{Kind: ir.KindList, Elem: str()}
		}
	case "map":
		out.Attr = c.attrArg(out.Args[ir.ParamIndex(params, "attribute")], xt, e.Span)
		out.T = &ir.Type{Kind: ir.KindList, Elem: str()}
		if out.Attr != nil {
			out.T = &ir.Type{Kind: ir.KindList, Elem: ir.AttrType(out.Attr)}
		}
	}
	if isGenerator(out) {
		c.mustIterate(out, name, e.NameSpan)
	}
	c.later = append(c.later, func() { c.checkFilter(out, e) })
	return out
}

// dynListFilters are the filters that a list of dynamic values takes as
// one dynamic value, and dynOnlyFilters those that only dynamic values
// have.
var (
	dynListFilters = map[string]bool{"reverse": true, "sort": true, "map": true, "batch": true, "abs": true, "int": true, "float": true}
	dynOnlyFilters = map[string]bool{"batch": true, "abs": true}
)

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
func (c *checker) checkFilter(x *ir.Call, e *tmpl.Filter) {
	rebindAttr(x)
	xk := x.X.Type().Kind
	argKinds := map[string][]ir.Kind{
		"replace":  {ir.KindString, ir.KindString, ir.KindInt},
		"trim":     {ir.KindString},
		"join":     {ir.KindString, ir.KindString},
		"int":      {ir.KindInt, ir.KindInt},
		"float":    {ir.KindFloat},
		"round":    {ir.KindInt, ir.KindString},
		"indent":   {ir.KindUnknown, ir.KindBool, ir.KindBool},
		"truncate": {ir.KindInt, ir.KindBool, ir.KindString, ir.KindInt},
		"sort":     {ir.KindBool, ir.KindBool, ir.KindString},
		"unique":   {ir.KindBool, ir.KindString},
		"tojson":   {ir.KindInt},
		"default":  {ir.KindUnknown, ir.KindBool},
		"map":      {ir.KindString, ir.KindUnknown},
	}[x.Name]
	for i, want := range argKinds {
		got := x.Args[i].Type().Kind
		if want == ir.KindUnknown || got == ir.KindNone || got == want || (want == ir.KindFloat && got == ir.KindInt) {
			continue
		}
		c.errorf(e.Span, "filter %s: parameter %q must be a %s, not %s", x.Name, ir.FilterParams[x.Name][i].Name, want, got)
	}
	if x.Name == "indent" {
		if k := x.Args[0].Type().Kind; k != ir.KindInt && k != ir.KindString {
			c.errorf(e.Span, "filter indent: width must be an int or a string")
		}
	}
	if x.Attr != nil && !c.consumed[x] && !c.fromFeed(x.X.Type().Elem) {
		// Its Go type would have no name: the objects of an empty literal.
		c.errorf(e.NameSpan, "%s by attribute= of a list whose objects come from no input (an empty list literal) is not supported", x.Name)
		return
	}
	switch x.Name {
	case "join", "sort", "unique", "map":
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
	case "int", "float":
		if !ir.IsScalar(xk) {
			c.errorf(e.NameSpan, "%s needs a string or number, not %s", x.Name, x.X.Type())
		}
		if k, ok := x.Args[0].(*ir.Const); ok && k.Value == nil {
			// Jinja2 yields the default, None, where the conversion fails.
			c.errorf(e.Span, "filter %s: a none default of a typed value is not supported (give a number)", x.Name)
		}
	case "round":
		if !ir.IsNumber(xk) {
			c.errorf(e.NameSpan, "round needs a number, not %s", x.X.Type())
		}
	case "list":
		if xk != ir.KindList && xk != ir.KindString && xk != ir.KindMap && xk != ir.KindDict {
			c.errorf(e.NameSpan, "list needs a list, string, map or dict, not %s", x.X.Type())
		}
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
