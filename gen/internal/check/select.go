package check

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/promptgen/promptgen/gen/internal/builtins"
	"github.com/promptgen/promptgen/gen/internal/idtrack"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
)

// selectItem names the item a select condition reads; no template can
// write the name.
const selectItem = " item"

// selectFilter checks select, reject, selectattr and rejectattr (name) of
// a typed list or a dynamic value: the test they name, with its argument, becomes the
// condition on each item (or the item's attribute), checked as the
// template's own test; no test means the truth of the value.
func (c *checker) selectFilter(e *tmpl.Filter, name string) ir.Expr {
	x := c.expr(e.X, useValue)
	if name == "selectattr" || name == "rejectattr" {
		c.undefinedItems(x, e.X.Pos())
		c.emptyLiteralItems(x, e.X.Pos())
	}
	c.iterate(x)
	if c.rejected[x] {
		return x
	}
	xt := x.Type()
	switch {
	case xt.Kind == ir.KindUnknown:
		c.constrain(xt, ir.KindList, e.X.Pos())
	case xt.Resolve().Kind == ir.KindString && (name == "select" || name == "reject"):
		// Jinja2 tests the characters of a string.
		x = chars(x, c.posString(e.X.Pos()))
	case xt.Resolve().Kind == ir.KindString:
		// selectattr and rejectattr read an attribute of each character
		// (undefined): a list of them as a dynamic value.
		x = c.dyn(ir.DynList, "", ir.DynamicType(), e.X.Pos(), x)
	case (name == "selectattr" || name == "rejectattr") && listOfStrings(xt):
		// Of each string (undefined, or an item of it by an int index):
		// the list as a dynamic value, as map(attribute=) reads it.
		x = c.dyn(ir.DynList, "", ir.DynamicType(), e.X.Pos(), x)
	}
	xt = x.Type().Resolve()
	elem := ir.DynamicType() // a dynamic value's items are dynamic values
	if xt.Kind == ir.KindList {
		elem = xt.Elem
	} else if xt.Kind != ir.KindDynamic {
		c.errorf(e.NameSpan, "%s needs a list, not %s", name, xt)
		return c.reject()
	}
	// Past here, an error yields the list itself, which misleads no consumer.
	if len(e.Kwargs) > 0 {
		c.errorf(e.Kwargs[0].NameSpan, "filter %s takes no keyword arguments", name)
		return x
	}
	item := c.newLocal(selectItem, elem)
	var subject tmpl.Expr = &tmpl.Name{Span: e.NameSpan, Name: selectItem}
	args := e.Args
	if name == "selectattr" || name == "rejectattr" {
		if len(args) == 0 {
			c.errorf(e.Span, "filter %s needs an attribute name", name)
			return x
		}
		path, ok := constString(args[0])
		sp := args[0].Pos()
		if !ok {
			c.expr(args[0], useValue) // for what it reads
			c.errorf(sp, "filter %s: the attribute must be a string literal", name)
			return x
		}
		parts := strings.Split(path, ".")
		if elem.Resolve().Kind != ir.KindDynamic {
			// The path as map(attribute=) reads it, for its messages.
			if c.attrArg(constExpr(path), xt, sp) == nil {
				return x
			}
			c.later = append(c.later, func() {
				if c.noInputObjects(x, e.X.Pos()) {
					// Its Go type would have no name.
					c.errorf(sp, "filter %s of a list whose objects come from no input (an empty list literal) is not supported", name)
				}
			})
		} else if slices.ContainsFunc(parts, func(p string) bool { return p == "" || strings.ContainsFunc(p, nonASCIINumber) }) {
			c.errorf(sp, "filter %s: attribute supports field names and int indexes only, not %q", name, path)
			return x
		}
		// Jinja2 reads each part as a subscript first (environment.getitem),
		// a part of digits as an int.
		for _, part := range parts {
			var key any = part
			if asciiDigits(part) {
				n, err := strconv.ParseInt(part, 10, 64)
				if err != nil {
					c.errorf(sp, "filter %s: the index %s of attribute does not fit in 64 bits", name, part)
					return x
				}
				key = n
			}
			subject = &tmpl.Index{Span: sp, X: subject, Index: &tmpl.Const{Span: sp, Value: key}}
		}
		args = args[1:]
	}
	cond := subject
	var testArgs []ir.Expr
	if len(args) > 1 {
		for _, a := range args[1:] {
			testArgs = append(testArgs, c.expr(a, useValue))
		}
	}
	if len(args) > 0 {
		test, ok := constString(args[0])
		sp := args[0].Pos()
		if !ok {
			c.expr(args[0], useValue) // for what it reads
			c.errorf(sp, "filter %s: the test name must be a string literal", name)
			return x
		}
		cond = &tmpl.Test{Span: sp, X: subject, Name: test, NameSpan: sp, Args: args[1:]}
	}
	parent := c.scopes[len(c.scopes)-1]
	c.enter(idtrack.Frame(parent.sym, []*tmpl.Name{{Span: e.NameSpan, Name: selectItem}}, nil), new([]*ir.Local), nil, item)
	out := &ir.Select{Name: name, X: x, Item: item, Cond: c.expr(cond, useTest), Args: testArgs, Reject: strings.HasPrefix(name, "reject"), Pos: c.posString(e.Span)}
	c.leave(nil)
	c.mustIterate(out, name, e.NameSpan)
	if xt.Kind == ir.KindDynamic {
		// The items kept are the operand's, Markup where Jinja2's are,
		// and so is the item the condition tests (markups follows it).
		c.selects = append(c.selects, out)
	}
	return out
}

// constString is the value of a string literal.
func constString(e tmpl.Expr) (string, bool) {
	k, ok := e.(*tmpl.Const)
	if !ok {
		return "", false
	}
	s, ok := k.Value.(string)
	return s, ok
}

// dynMapFilter is map with a filter's name of a dynamic x.
func (c *checker) dynMapFilter(e *tmpl.Filter, x ir.Expr) ir.Expr {
	name, ok := c.mapFilterName(e, builtins.DynMapFilters, " of a dynamic value", nil)
	if !ok {
		return c.reject()
	}
	if a, ok := builtins.FilterAliases[name]; ok {
		name = a
	}
	if name == "tojson" {
		return c.dynMapToJSON(e, x)
	}
	params, kinds := ir.FilterParams[name], map[string][]ir.Kind{"int": {ir.KindUnknown, ir.KindInt}, "trim": {ir.KindString}, "truncate": {ir.KindInt, ir.KindUnknown, ir.KindString, ir.KindInt}}[name]
	if vf, ok := valueFilters[name]; ok {
		params, kinds = vf.params, vf.kinds
	}
	args := c.bindArgs("filter "+name, params, e.Args[1:], e.Kwargs, e.Span)
	for i, k := range kinds {
		if k != ir.KindUnknown && !builtins.IsNone(args[i]) {
			c.constrain(args[i].Type(), k, e.Span)
		}
	}
	out := c.dyn(ir.DynMapFilter, name, ir.DynamicType(), e.Span, append([]ir.Expr{x}, args...)...)
	c.mustIterate(out, "map", e.NameSpan)
	return out
}

// dynMapToJSON is map('tojson', ...) of a dynamic x: the runtime's filter
// named as ttfuncs names tojson's operations, Jinja2's (whose items are
// Markup), transformers' or its ensure_ascii=True, with the indent.
func (c *checker) dynMapToJSON(e *tmpl.Filter, x ir.Expr) ir.Expr {
	of := *e
	of.Args = e.Args[1:]
	name, args := "tojson", []ir.Expr(nil)
	if c.p.Jinja.Transformers {
		name, args = "tfjson", c.transformersToJSON(&of)
		if ir.ToJSONEnsureASCII(args) {
			name, args = "tfjsonascii", args[:1]
		}
	} else {
		args = c.bindArgs("filter tojson", ir.FilterParams["tojson"], of.Args, of.Kwargs, e.Span)
	}
	if !builtins.IsNone(args[0]) {
		c.constrain(args[0].Type(), ir.KindInt, e.Span)
	}
	out := c.dyn(ir.DynMapFilter, name, ir.DynamicType(), e.Span, x, args[0])
	c.mustIterate(out, "map", e.NameSpan)
	return out
}

// dynamicItems reports whether t is a list of dynamic values.
func dynamicItems(t *ir.Type) bool {
	t = t.Resolve()
	return t.Kind == ir.KindList && t.Elem.Resolve().Kind == ir.KindDynamic
}

// scalarItems reports whether t is a list of strings, ints, numbers or
// bools.
func scalarItems(t *ir.Type) bool {
	t = t.Resolve()
	if t.Kind != ir.KindList {
		return false
	}
	switch t.Elem.Resolve().Kind {
	case ir.KindString, ir.KindInt, ir.KindFloat, ir.KindBool:
		return true
	}
	return false
}

// mapFilterName is the filter name of map(name, ...), a string literal
// among allowed; ok is false, once reported, when it is not.
func (c *checker) mapFilterName(e *tmpl.Filter, allowed []string, of string, more []string) (name string, ok bool) {
	name, ok = constString(e.Args[0])
	sp := e.Args[0].Pos()
	switch {
	case !ok:
		c.expr(e.Args[0], useValue) // for what it reads
		c.errorf(sp, "filter map: the filter name must be a string literal")
		return "", false
	case !slices.Contains(allowed, name):
		c.errorf(sp, "filter map: map(%q)%s is not supported (map applies %s)", name, of, strings.Join(slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(allowed), more...)))), ", "))
		return "", false
	}
	return name, true
}

// mapFilter checks map with a filter's name (e.g. xs|map('upper')) over a
// typed list: the filter, with the other arguments, becomes the value of
// each item, checked as the template's own filter; a Go filter of
// `filters:` too, whose function takes the items.
func (c *checker) mapFilter(e *tmpl.Filter) ir.Expr {
	x := c.expr(e.X, useValue)
	c.iterate(x)
	if c.rejected[x] {
		return x
	}
	if x.Type().Resolve().Kind == ir.KindString {
		// Jinja2 maps the characters of a string.
		x = chars(x, c.posString(e.X.Pos()))
	}
	name, _ := constString(e.Args[0])
	if l, ok := x.(*ir.List); ok && len(l.Items) == 0 && name == "tojson" && l.T.Resolve().Elem.Resolve().Kind == ir.KindUnknown {
		c.unify(l.T.Resolve().Elem, ir.DynamicType(), e.X.Pos()) // [] | map('tojson'): no item to type
	}
	if isDynamic(x) || name == "tojson" && (dynamicItems(x.Type()) || scalarItems(x.Type())) {
		// A list of dynamic values (messages) converts to one, and so
		// does one of scalars, whose tojson is Markup in the list.
		return c.dynMapFilter(e, x)
	}
	if slices.Contains(builtins.DynMapFilters, name) && !slices.Contains(builtins.MapFilters, name) && c.goFilter(name) == nil && (!finalized(x.Type()) || types.ConvertsToDynamic(x.Type())) {
		// first, last, list, sort, ... of each item, which may be
		// undefined (first of ''), or of another type than a typed
		// list holds: of the list converted to a dynamic value (one
		// still untyped once its type is known, dynOperand).
		if x.Type().Kind == ir.KindUnknown {
			c.constrain(x.Type(), ir.KindList, e.X.Pos())
		}
		return c.dynMapFilter(e, x)
	}
	xt := x.Type()
	if xt.Kind == ir.KindUnknown {
		c.constrain(xt, ir.KindList, e.X.Pos())
	}
	if xt = xt.Resolve(); xt.Kind != ir.KindList {
		c.errorf(e.NameSpan, "map needs a list, not %s", xt)
		return c.reject()
	}
	// Past here, an error yields the list itself, which misleads no consumer.
	allowed := slices.Clone(builtins.MapFilters)
	for _, g := range c.p.Filters {
		allowed = append(allowed, g.Name) // checked on each item by goFilterCall
	}
	if slices.Contains(builtins.DynMapFilters, name) && !slices.Contains(builtins.MapFilters, name) && c.goFilter(name) == nil {
		c.errorf(e.Args[0].Pos(), "filter map: map(%q) of %s is not supported (of a list of strings, numbers, bools, none, lists and dicts it is)", name, ir.A(xt))
		return x
	}
	name, ok := c.mapFilterName(e, allowed, "", builtins.DynMapFilters)
	if !ok {
		return x
	}
	sp := e.Args[0].Pos()
	var args []ir.Expr
	for _, a := range e.Args[1:] {
		args = append(args, c.expr(a, useValue))
	}
	for _, kw := range e.Kwargs {
		args = append(args, c.expr(kw.Value, useValue))
	}
	item := c.newLocal(selectItem, xt.Elem)
	apply := &tmpl.Filter{Span: e.Span, X: &tmpl.Name{Span: sp, Name: selectItem}, Name: name, NameSpan: sp, Args: e.Args[1:], Kwargs: e.Kwargs}
	parent := c.scopes[len(c.scopes)-1]
	c.enter(idtrack.Frame(parent.sym, []*tmpl.Name{{Span: sp, Name: selectItem}}, nil), new([]*ir.Local), nil, item)
	elem := c.filter(apply, useValue)
	c.leave(nil)
	out := &ir.MapFilter{X: x, Item: item, Elem: elem, Args: args, T: &ir.Type{Kind: ir.KindList, Elem: elem.Type()}}
	c.mustIterate(out, "map", e.NameSpan)
	return out
}

// partialRead reports x, read by what (first, in), when it maps a Go
// filter that may fail (through select and further maps): Jinja2's map
// is lazy, and what stops at the item it needs, so the filter never
// fails on the items after it; the generated code maps every item first.
func (c *checker) partialRead(x ir.Expr, sp tmpl.Span, what string) {
	for {
		switch m := x.(type) {
		case *ir.Select:
			x = m.X
			continue
		case *ir.MapFilter:
			if g, ok := m.Elem.(*ir.Call); ok && g.Kind == ir.CallGoFilter && g.Go.Fallible {
				c.errorf(sp, "%s of map(%q) is not supported: Jinja2 stops at the item %s needs, so it does not call %s, which may fail, on the items after it (join the mapped list, or loop over it)", what, g.Name, what, g.Go.Ref())
				return
			}
			x = m.X
			continue
		}
		return
	}
}

// nonASCIINumber reports whether r is a number other than an ASCII digit,
// which Python's isdigit() may read as a digit of an int index.
func nonASCIINumber(r rune) bool { return r > unicode.MaxASCII && unicode.IsNumber(r) }

// asciiDigits reports whether s is one or more ASCII digits, a part of
// attribute= that Jinja2 reads as an int index.
func asciiDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}
