package check

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/promptgen/promptgen/gen/internal/builtins"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
	"github.com/promptgen/promptgen/schema"
)

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
	switch {
	case ir.IsScalar(list.Kind) && list.Kind != ir.KindString, list.Kind == ir.KindNone:
		// The filters that take attribute= iterate their operand.
		c.errorf(sp, "attribute= needs a list of objects, not %s (Jinja2 raises TypeError)", list)
		return nil
	case list.Kind != ir.KindList:
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
			f = c.inferField(t, part, sp, false)
		}
		if f.Optional && builtins.IsDictMethod(part) {
			// Jinja2 reads a missing key as the attribute: the dict method.
			c.errorf(sp, "attribute=%q reads the dict method %s where the optional %q is unset", name, part, part)
			return nil
		}
		path[i] = f
		t = f.Type
	}
	return path
}

// filters check the supported filters (builtins.Filters), by name. Set
// in init: their functions check the operand, which may call a filter.
var filters map[string]filterDef

// filterDef is how the checker checks one filter.
type filterDef struct {
	// typed types the call of a typed operand, f.out; it reports false,
	// once reported, when the filter's value is rejected. Nil for the
	// filters of dynamic values only.
	typed func(c *checker, f *filterUse) bool
	// dyn checks it on a dynamic operand; nil where that is not supported.
	dyn func(c *checker, f *filterUse) ir.Expr
}

func init() {
	filters = map[string]filterDef{
		"default":    {typed: (*checker).defaultFilter, dyn: (*checker).dynDefault},
		"upper":      {typed: (*checker).textFilter},
		"lower":      {typed: (*checker).textFilter},
		"title":      {typed: (*checker).textFilter},
		"capitalize": {typed: (*checker).textFilter},
		"trim":       {typed: (*checker).textFilter},
		"replace":    {typed: (*checker).textFilter},
		"indent":     {typed: (*checker).textFilter},
		"truncate":   {typed: (*checker).textFilter, dyn: dynCall(ir.KindInt, ir.KindBool, ir.KindString, ir.KindInt)},
		"string":     {typed: (*checker).stringFilter, dyn: dynOp(ir.DynStr, ir.KindString)},
		"tojson":     {typed: (*checker).stringFilter, dyn: (*checker).dynToJSON},
		"join":       {typed: (*checker).joinFilter, dyn: (*checker).dynJoin},
		"length":     {typed: (*checker).lengthFilter, dyn: dynOp(ir.DynLength, ir.KindInt)},
		"first":      {typed: (*checker).firstFilter, dyn: dynOp(ir.DynFirst, ir.KindDynamic)},
		"last":       {typed: (*checker).firstFilter, dyn: dynOp(ir.DynLast, ir.KindDynamic)},
		"int":        {typed: (*checker).numberFilter, dyn: dynCall(ir.KindUnknown, ir.KindInt)},
		"float":      {typed: (*checker).numberFilter, dyn: dynCall()},
		"round":      {typed: (*checker).roundFilter, dyn: dynCall(ir.KindInt, ir.KindString)},
		"sort":       {typed: (*checker).sortFilter, dyn: dynAttrCall(2, ir.KindBool, ir.KindBool)},
		"unique":     {typed: (*checker).sortFilter, dyn: dynGenerator(dynAttrCall(1, ir.KindBool))},
		"reverse":    {typed: (*checker).reverseFilter, dyn: dynGenerator(dynCall())},
		"list":       {typed: (*checker).listFilter, dyn: dynOp(ir.DynList, ir.KindDynamic)},
		"map":        {typed: (*checker).mapAttrFilter, dyn: dynGenerator(dynAttrCall(0))},
		// Of dynamic values only: the typed ones are iterables of loops.
		"items":    {dyn: dynGenerator(dynCall())},
		"dictsort": {dyn: dynCall(ir.KindBool, ir.KindString, ir.KindBool)},
		"batch":    {dyn: dynGenerator(dynCall(ir.KindInt))},
		"abs":      {dyn: dynCall()},
	}
}

// listOfStrings reports whether t is a list of strings.
func listOfStrings(t *ir.Type) bool {
	t = t.Resolve()
	return t.Kind == ir.KindList && t.Elem.Resolve().Kind == ir.KindString
}

// listOfLists reports whether t is a list of lists of scalars, or of
// items whose type is not known yet.
func listOfLists(t *ir.Type) bool {
	t = t.Resolve()
	if t.Kind != ir.KindList || t.Elem.Resolve().Kind != ir.KindList {
		return false
	}
	k := t.Elem.Resolve().Elem.Resolve().Kind
	return k == ir.KindUnknown || ir.IsScalar(k)
}

// strFilters are the filters of a string that Jinja2 applies to str() of
// any value (soft_str): of a number, a bool, none, a list or a dict, they
// are checked as of its | string.
var strFilters = map[string]bool{"upper": true, "lower": true, "title": true, "capitalize": true, "trim": true, "replace": true}

// filterUse is a use of a filter being checked.
type filterUse struct {
	e    *tmpl.Filter
	name string    // e.Name, an alias resolved
	u    use       // how its value is used
	x    ir.Expr   // the operand
	args []ir.Expr // the arguments, bound to the parameters
	out  *ir.Call  // the call, of a typed operand
	// fails is the value that fails the render where the filter runs,
	// which Jinja2 fails on whatever the operand's value (filterFails).
	fails ir.Expr
}

func (c *checker) filter(e *tmpl.Filter, u use) ir.Expr {
	if g := c.goFilter(e.Name); g != nil {
		return c.goFilterCall(e, g)
	}
	name := e.Name
	if a, ok := builtins.FilterAliases[name]; ok {
		name = a
	}
	switch name {
	case "default":
		c.testsDefined(e.X)
	case "safe":
		return c.safeFilter(e, u)
	case "format":
		return c.formatFilter(e)
	case "sort":
		if l, ok := e.X.(*tmpl.List); ok && len(l.Items) == 0 && len(e.Args) < 3 && !slices.ContainsFunc(e.Args, func(a tmpl.Expr) bool { return !builtins.CannotFail(a) }) &&
			!slices.ContainsFunc(e.Kwargs, func(kw tmpl.Kwarg) bool { return kw.Name == "attribute" || !builtins.CannotFail(kw.Value) }) {
			// Sorting nothing compares nothing: [] of any item type
			// (attribute= says what the items are).
			c.bindArgs("filter sort", ir.FilterParams["sort"], e.Args, e.Kwargs, e.Span)
			return c.expr(e.X, u)
		}
	}
	if vf, ok := valueFilters[name]; ok {
		return c.valueFilter(e, name, vf)
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
	flags := builtins.Filters[name].Flags
	if !ok {
		if why, ok := builtins.UnsupportedFilters[name]; ok {
			c.errorf(e.NameSpan, "unsupported filter %q: %s", e.Name, why)
		} else {
			known := append(slices.Sorted(maps.Keys(filters)), append(slices.Sorted(maps.Keys(valueFilters)), "format")...)
			for _, g := range c.p.Filters {
				known = append(known, g.Name)
			}
			if c.soft {
				return c.missing(e.NameSpan, "filter", e.Name, schema.DidYouMean(e.Name, known), append([]tmpl.Expr{e.X}, e.Args...), e.Kwargs)
			}
			c.errorf(e.NameSpan, "unknown filter %q%s", e.Name, schema.DidYouMean(e.Name, known))
		}
		return c.reject()
	}
	params := ir.FilterParams[name]
	f := &filterUse{e: e, name: name, u: u}
	if name == "items" || name == "dictsort" {
		f.x = c.expr(e.X, useValue)
		switch xt := f.x.Type().Resolve(); {
		case isDynamic(f.x), xt.Kind == ir.KindList && types.HoldsDynamic(xt),
			xt.Kind == ir.KindMap || xt.Kind == ir.KindStruct || xt.Kind == ir.KindDict:
			// Their (key, value) pairs have no type of their own: those
			// of the operand's dynamic value (a dict), a typed one converted.
			f.args = c.bindArgs("filter "+name, params, e.Args, e.Kwargs, e.Span)
			return c.dynFilter(f)
		case xt.Kind == ir.KindUnknown:
			c.errorf(e.NameSpan, "filter %s is supported only as the iterable of a for loop with two targets (for key, value in m|%s), or of a map, dict, object or dynamic value", name, name)
		case name == "items":
			// A generator: Jinja2 raises where it is iterated.
			c.errorf(e.NameSpan, "filter items needs a map, dict or object, not %s (Jinja2 raises TypeError)", xt)
		default:
			args := c.bindArgs("filter "+name, params, e.Args, e.Kwargs, e.Span)
			return c.failsWhereRuns(e.NameSpan, "AttributeError", fmt.Sprintf("filter dictsort needs a map, dict or object, not %s (Jinja2 raises AttributeError: it calls items())", xt), f.x, evaluatedTrue(args...))
		}
		return c.reject()
	}
	xu := useValue
	if flags&builtins.PrintsOperand != 0 {
		xu = usePrint
	}
	f.x = c.expr(e.X, xu)
	if b, ok := f.x.(*ir.Binary); flags&builtins.Iterates == 0 || ok && b.Value {
		// A conditional that an iterating filter takes iterates the arm
		// it takes; an and/or tests the generator it yields, true.
		f.x = c.armsAsValues(f.x, e.X.Pos())
	}
	x := f.x
	if name == "map" || hasKwarg(e, "attribute") {
		c.undefinedItems(x, e.X.Pos())
	}
	if hasKwarg(e, "attribute") && name != "join" { // join(attribute=) of dynamic values is not supported
		c.emptyLiteralItems(x, e.X.Pos())
	}
	if c.rejected[x] {
		return c.reject()
	}
	x = c.generatorOperand(x, name, e.X.Pos())
	f.x = x
	if k := x.Type().Resolve().Kind; strFilters[name] && k != ir.KindString && k != ir.KindUnknown && k != ir.KindDynamic {
		// Jinja2's filter takes str() of any value: x | string. An
		// inferred input is checked again as a string, as a use as one.
		c.listString(x.Type())
		of := *e
		of.X = &tmpl.Filter{Span: e.X.Pos(), X: e.X, Name: "string", NameSpan: e.NameSpan}
		return c.checkedAs(map[tmpl.Expr]ir.Expr{e.X: x}, func() ir.Expr { return c.filter(&of, u) })
	}
	if name == "tojson" && generator(x) && c.mayNotRun() {
		return c.generatorToJSON(e, x)
	}
	if generator(x) {
		if out, ok := c.misusedFilter(e, x); ok {
			return out
		}
	}
	if name == "first" {
		c.partialRead(x, e.NameSpan, "first")
	}
	if flags&builtins.Iterates != 0 {
		c.iterate(x)
		if name == "reverse" {
			c.readText(x)
		}
	} else if d, ok := x.(*ir.Dynamic); ok && name == "length" && (d.Op == ir.DynKeys || d.Op == ir.DynValues || d.Op == ir.DynItemsList) {
		c.iterate(x) // a dict view has a length
	}
	if flags&builtins.ReadsAll != 0 {
		c.readsWhole(x, e.Span, name)
	}
	switch {
	case flags&builtins.NoHint != 0, name == "reverse" && u == useTest:
		// The truth of reverse's value says nothing of what it reverses.
	case flags&builtins.HintsString != 0:
		hint(x.Type(), usePrint)
	default:
		hint(x.Type(), u)
	}
	out := &ir.Call{Kind: ir.CallFilter, Name: name, X: x, Pos: c.posString(e.Span)}
	if name == "tojson" && c.p.Jinja.Transformers {
		// Its first parameter is ensure_ascii, not indent.
		out.Args = c.transformersToJSON(e)
	} else {
		out.Args = c.bindArgs("filter "+name, params, e.Args, e.Kwargs, e.Span)
	}
	f.args, f.out = out.Args, out
	if (flags&builtins.PrintsOperand != 0 || name == "join") && !isDynamic(x) {
		// A dynamic x: as DynStr's or DynJoin's operand.
		c.heldMethodUse(x, e.X.Pos())
	}
	if name == "default" && !isDynamic(x) && (ir.MaybeUndefined(out.Args[0]) || c.keepUndefined[c.posString(e.Span)]) {
		if d, ok := c.undefinedDefault(e, x, out.Args, u); ok {
			return d
		}
	}
	switch {
	case name == "default" && !isDynamic(x) && (types.HoldsDynamic(x.Type()) || types.HoldsDynamic(out.Args[0].Type())):
		// Either may be what it yields: a dynamic value, or a typed one
		// converted to one.
		return c.dynFilter(f)
	case name == "default" && u != usePrint && !builtins.IsNone(out.Args[0]) && !ir.SameKind(x.Type(), out.Args[0].Type()) && convertsMixed([]ir.Expr{x, out.Args[0]}):
		// Values of two types, as an and/or of them (mixedAsDynamic).
		return c.dynFilter(f)
	case name == "sort" && builtins.IsNone(out.Args[ir.ParamIndex(params, "attribute")]) && listOfLists(x.Type()):
		// Python orders lists item by item, as dynamic values compare.
		return c.dynFilter(f)
	case name == "tojson" && types.HoldsDynamic(x.Type()):
		return c.dynFilter(f)
	case name == "tojson" && c.p.Jinja.Transformers && types.KeyedIn(x.Type()) != nil && types.OperandConverts(x.Type()) && !types.InferredObjectIn(x.Type()):
		// transformers' tojson writes keys in insertion order: of the
		// dict the object (its set fields in declaration order, as
		// encoding/json writes the feed) or the map (sorted) converts to.
		return c.dynFilter(f)
	case flags&builtins.DynList != 0 && !isDynamic(x) && x.Type().Kind == ir.KindList && types.HoldsDynamic(x.Type()):
		// A list of dynamic values (messages) converts to one.
		return c.dynFilter(f)
	case flags&builtins.DynOnly != 0 && !isDynamic(x) && (!finalized(x.Type()) || types.ConvertsToDynamic(x.Type())):
		// A typed operand converts to a dynamic value (one still untyped
		// is checked once its type is known, dynOperand).
		return c.dynFilter(f)
	case flags&builtins.DynOnly != 0 && !isDynamic(x):
		c.errorf(e.NameSpan, "filter %s is supported on dynamic values and values that convert to one (strings, numbers, bools, none, lists of them and dicts), not %s", name, ir.A(x.Type()))
		return c.reject()
	case isDynamic(x) && flags&builtins.PrintsOperand != 0:
		// Jinja2 converts the operand with str() first.
		out.X = c.dyn(ir.DynStr, "", &ir.Type{Kind: ir.KindString}, e.X.Pos(), x)
		f.x = out.X
	case flags&builtins.PrintsOperand != 0 && name != "string" && printsAsStr(x.Type()):
		// A number, bool or none: Jinja2 converts it with str() first
		// (2.5|upper is '2.5').
		c.staysTyped(e.Span, x)
		out.X = &ir.Call{Kind: ir.CallFilter, Name: "string", X: x, T: &ir.Type{Kind: ir.KindString}, Pos: out.Pos}
		f.x = out.X
	case isDynamic(x) && flags&builtins.TakesString != 0 && filters[name].dyn == nil:
		// indent takes a string, and fails on most others.
		out.X = c.dyn(ir.DynStrOperand, "", &ir.Type{Kind: ir.KindString}, e.X.Pos(), x)
		f.x = out.X
	case isDynamic(x):
		return c.dynFilter(f)
	case name == "reverse" && u == useTest && x.Type().Resolve().Kind == ir.KindUnknown:
		// Tested, its value is true where it is an iterator (of a list,
		// or of undefined), else where the string is not empty: the
		// runtime decides, once the operand's type is known.
		if t := x.Type().Resolve(); t.Hint == ir.KindUnknown {
			t.Hint = ir.KindList
		}
		return c.dynFilter(f)
	case (name == "sort" || name == "unique") && c.sortsConverted(f):
		return c.dynFilter(f)
	case name == "map" && mapsOptional(x.Type(), out.Args[0], out.Args[1]):
		// Undefined (or a default of another type) where the field is
		// unset, which a dynamic value holds (Jinja2 prints Undefined as
		// Undefined in a list).
		return c.dynFilter(f)
	case name == "reverse" && x.Type().Resolve().Kind == ir.KindString && ir.MaybeUndefined(x):
		// An iterator where it is undefined (reversed(Undefined)), a
		// string elsewhere: the runtime decides (dynReverse).
		return c.dynFilter(f)
	case name == "map" && (x.Type().Resolve().Kind == ir.KindString || listOfStrings(x.Type())):
		// map(attribute=) reads an attribute of each character, or of
		// each string of a list (undefined): of a list of them as a
		// dynamic value, as selectattr does.
		each := "string"
		if x.Type().Resolve().Kind == ir.KindString {
			each = "character"
		}
		if a, ok := out.Args[0].(*ir.Const); ok {
			if s, ok := a.Value.(string); ok && builtins.IsStrAttr(strings.Split(s, ".")[0]) {
				c.errorf(e.Span, "map(attribute=%q) of %s reads the str method %q of each %s, which Jinja2 prints with its address in memory (<built-in method ...>): not supported", s, ir.A(x.Type()), strings.Split(s, ".")[0], each)
				return c.reject()
			}
		}
		if each == "character" {
			f.x = c.dyn(ir.DynList, "", ir.DynamicType(), e.X.Pos(), x)
		}
		return c.dynFilter(f)
	default:
		c.staysTyped(e.Span, x)
	}
	if name == "tojson" && c.p.Jinja.Transformers {
		c.later = append(c.later, func() {
			if t := types.KeyedIn(x.Type()); t != nil {
				c.errorf(e.Span, "tojson of the transformers profile writes the keys of %s in the order of its JSON data, which promptgen knows only of the objects the inputs declare (declare it in inputs)", ir.A(t))
			}
		})
	}
	if !def.typed(c, f) {
		return c.reject()
	}
	if f.fails != nil {
		return f.fails
	}
	if builtins.IsGenerator(out) {
		c.mustIterate(out, name, e.NameSpan)
	}
	c.later = append(c.later, func() { c.checkFilter(f) })
	if isDynamic(x) && flags&builtins.KeepsMarkup != 0 && flags&(builtins.TakesString|builtins.PrintsOperand) != 0 && e != c.safeOf && rereadable(x) && c.markupHere().May(x) {
		// A string filter of a dynamic value that may be Markup, which
		// says at run time whether it is: the result is Markup where it is,
		// as Jinja2's string of Markup is.
		return c.dyn(ir.DynMarkup, "", ir.DynamicType(), e.Span, out, x)
	}
	return out
}

// generatorOperand is x, the operand of the filter name, or where x is
// a generator that the filter takes as an object (valueOfGenerator), the
// iterator holding it (asIterator).
func (c *checker) generatorOperand(x ir.Expr, name string, sp tmpl.Span) ir.Expr {
	if generator(x) && valueOfGenerator[name] {
		return c.asIterator(x, sp)
	}
	return x
}

// valueOfGenerator are the filters that Jinja2 runs on a generator
// without iterating it or printing its address: wordcount counts the
// words of its text, which its address does not change, int and float
// fall back to their default (Python's TypeError).
var valueOfGenerator = map[string]bool{"wordcount": true, "int": true, "float": true}

// printsAsStr reports whether a filter of a string takes a value of type
// t as the string it prints: a number, a bool or none.
func printsAsStr(t *ir.Type) bool {
	switch t.Resolve().Kind {
	case ir.KindInt, ir.KindFloat, ir.KindBool, ir.KindNone:
		return true
	}
	return false
}

// sortsConverted reports whether f, sort or unique of a typed list of
// objects, is computed on the objects converted to dicts (runtime/jinja's
// sort and unique): sort by several attributes ("a,b"), or either by a
// path through an optional field, where Jinja2 finds two Undefined keys
// equal (and sort fails comparing one with a value) while the typed
// filters know no undefined key; and unique without attribute= of a list
// of objects, maps or lists, or by a list or object attribute, which
// Jinja2 cannot hash: it fails on the first item (so renders only an
// empty list), as runtime/jinja's does.
// The objects' fields must be declared (dynOperand).
func (c *checker) sortsConverted(f *filterUse) bool {
	t := f.x.Type().Resolve()
	if f.name == "unique" && t.Kind == ir.KindList && builtins.IsNone(f.args[ir.ParamIndex(ir.FilterParams[f.name], "attribute")]) {
		switch t.Elem.Resolve().Kind {
		case ir.KindStruct, ir.KindMap, ir.KindList, ir.KindDict:
			return types.OperandConverts(t) && !types.InferredObjectIn(t)
		}
	}
	if t.Kind != ir.KindList || t.Elem.Resolve().Kind != ir.KindStruct || types.InferredObjectIn(t) {
		return false
	}
	k, ok := f.args[ir.ParamIndex(ir.FilterParams[f.name], "attribute")].(*ir.Const)
	if !ok {
		return false
	}
	attr, ok := k.Value.(string)
	if !ok {
		return false
	}
	parts := []string{attr}
	if f.name == "sort" {
		parts = strings.Split(attr, ",")
	}
	converted := len(parts) > 1
	for _, p := range parts {
		path := c.attrArg(&ir.Const{Value: p, T: k.T}, t, f.e.Span)
		converted = converted || slices.ContainsFunc(path, func(f *ir.Field) bool { return f.Optional })
		// unique by a list or object, which Python cannot hash either.
		converted = converted || f.name == "unique" && len(path) > 0 && !ir.IsScalar(path[len(path)-1].Type.Resolve().Kind)
	}
	return converted
}

// undefinedDefault checks e, x|default(d) of x, already checked with its
// arguments args, where d may be undefined: as the conditional it is in
// Jinja2, x if x is defined else d (x if x else d with boolean=true),
// which may be undefined too. It reports false for a boolean that is not
// a constant.
func (c *checker) undefinedDefault(e *tmpl.Filter, x ir.Expr, args []ir.Expr, u use) (ir.Expr, bool) {
	boolean, ok := args[1].(*ir.Const)
	if !ok {
		return nil, false
	}
	d := func() tmpl.Expr {
		if len(e.Args) > 0 {
			return e.Args[0]
		}
		for _, kw := range e.Kwargs {
			if kw.Name == "default_value" {
				return kw.Value
			}
		}
		return nil
	}()
	const fails = "the default of default() may be undefined, and Jinja2 evaluates it even where the value is defined, failing where it fails: give it " + neverFailing
	var cond tmpl.Expr = &tmpl.Test{Span: e.Span, X: e.X, Name: "defined", NameSpan: e.NameSpan}
	if boolean.Value == true {
		cond = e.X
	}
	out := c.checkedAs(map[tmpl.Expr]ir.Expr{e.X: x, d: args[0]}, func() ir.Expr {
		return c.expr(&tmpl.CondExpr{Span: e.Span, Then: e.X, Cond: cond, Else: d}, u)
	})
	// Jinja2 evaluates x, then d, where x is defined too.
	return c.eagerDefault(out, d, args[0], fails, x, args[0]), true
}

// eagerDefault returns out, what x|default(d) or m.get(k, d) yields, as
// the conditional it amounts to, which evaluates d (checked as dx) only
// where it takes it. Jinja2 evaluates d before the call, and fails where
// it fails, even where the value is defined or the key is there: where d
// may fail, out evaluates xs first, what Jinja2 evaluates before the call
// (d last), in turn. A later use may make what d reads maybe undefined:
// out is then made to evaluate them too, or, where it is no conditional,
// that is an error (msg).
func (c *checker) eagerDefault(out ir.Expr, d tmpl.Expr, dx ir.Expr, msg string, xs ...ir.Expr) ir.Expr {
	if d == nil || builtins.CannotFail(d) {
		return out
	}
	if !neverFails(d, dx) {
		return evaluatedFirst(out, xs...)
	}
	c.later = append(c.later, func() {
		if neverFails(d, dx) {
			return
		}
		if _, ok := out.(*ir.Cond); ok {
			evaluatedFirst(out, xs...)
		} else {
			c.errorf(d.Pos(), "%s", msg)
		}
	})
	return out
}

// evaluatedFirst returns out, after xs are evaluated in turn (failing the
// render where one fails). A conditional is changed in place, for the
// uses that already hold it.
func evaluatedFirst(out ir.Expr, xs ...ir.Expr) ir.Expr {
	eval := evaluatedTrue(xs...)
	if cond, ok := out.(*ir.Cond); ok {
		inner := *cond
		*cond = ir.Cond{Cond: eval, Then: &inner, Else: &inner, T: inner.T}
		return cond
	}
	return &ir.Cond{Cond: eval, Then: out, Else: out, T: out.Type()}
}

// neverFailing names the expressions that neverFails accepts.
const neverFailing = "a literal, a variable, a ~ of them, a key, attribute or index of a value that is always defined, first or last of a list that is, or a conditional of them whose test cannot fail"

// neverFails reports whether Jinja2 evaluates d, checked as x, without
// failing, whatever the data: a literal, a name, a ~ or list of them
// (builtins.CannotFail); a namespace's attribute (ns.a, ns['a']); a key,
// attribute or index (a.b, a['b'], a[0]) of a value that is never
// undefined and so read itself, with an index that cannot fail (Jinja2's
// getattr and getitem yield undefined for what a value lacks; they fail
// only on an undefined value); first or last of such a list or string,
// length of a list, string, map or object that never fails; and a
// conditional whose condition cannot fail (condNeverFails) and
// whose branches never fail.
func neverFails(d tmpl.Expr, x ir.Expr) bool {
	if builtins.CannotFail(d) {
		return true
	}
	var dx tmpl.Expr
	switch d := d.(type) {
	case *tmpl.Attr:
		dx = d.X
	case *tmpl.Index:
		if !builtins.CannotFail(d.Index) {
			return false
		}
		dx = d.X
	case *tmpl.Filter:
		call, ok := x.(*ir.Call)
		if !ok || call.Kind != ir.CallFilter {
			return false
		}
		switch {
		case (d.Name == "first" || d.Name == "last") && call.Name == d.Name:
			return readable(call.X, ir.KindList, ir.KindString) && neverFails(d.X, call.X)
		case (d.Name == "length" || d.Name == "count") && call.Name == "length":
			// The length of an undefined value is 0.
			k := call.X.Type().Kind
			return k != ir.KindDynamic && slices.Contains([]ir.Kind{ir.KindList, ir.KindString, ir.KindMap, ir.KindStruct, ir.KindDict}, k) && neverFails(d.X, call.X)
		}
		return false
	case *tmpl.CondExpr:
		cond, ok := x.(*ir.Cond)
		if !ok || !condNeverFails(d.Cond, cond.Cond) || (d.Else == nil) != (cond.Else == nil) {
			return false
		}
		// Jinja2 evaluates the branch the condition takes.
		taken, static := staticTruth(d.Cond)
		return (static && !taken || neverFails(d.Then, cond.Then)) && (d.Else == nil || static && taken || neverFails(d.Else, cond.Else))
	case *tmpl.Call:
		// m.get(k, d): m[k] if k in m else d, as typedGet checks it.
		fn, ok := d.Fn.(*tmpl.Attr)
		cond, isCond := x.(*ir.Cond)
		if !ok || fn.Name != "get" || !isCond || !cond.KeyTested || len(d.Kwargs) > 0 || len(d.Args) == 0 || len(d.Args) > 2 || !builtins.CannotFail(d.Args[0]) {
			return false
		}
		of := readOf(cond.Then)
		return of != nil && readable(of) && neverFails(fn.X, of) && (len(d.Args) == 1 || neverFails(d.Args[1], cond.Else))
	default:
		return false
	}
	if _, ok := x.(*ir.LocalRef); ok {
		_, ok := dx.(*tmpl.Name)
		return ok // a namespace's attribute, which a read never fails on
	}
	of := readOf(x)
	return of != nil && readable(of) && neverFails(dx, of)
}

// readOf returns the value that x, a key, attribute or index, reads, or
// nil.
func readOf(x ir.Expr) ir.Expr {
	var of ir.Expr
	switch x := x.(type) {
	case *ir.FieldRef:
		of = x.Of
	case *ir.DictValue:
		of = x.Of
	case *ir.Index:
		of = x.X
	}
	if s, ok := of.(*ir.Strict); ok {
		// A get() of it, which fails on undefined: readable tells.
		of = s.X
	}
	return of
}

// staticTruth returns the truth of d where it compares the length of a
// list or string literal with an int literal, and static true.
func staticTruth(d tmpl.Expr) (truth, static bool) {
	b, ok := d.(*tmpl.Binary)
	if !ok {
		return false, false
	}
	n, nok := literalLength(b.X)
	k, kok := b.Y.(*tmpl.Const)
	if !nok || !kok {
		return false, false
	}
	m, ok := k.Value.(int64)
	if !ok {
		return false, false
	}
	switch b.Op {
	case ">":
		return n > m, true
	case ">=":
		return n >= m, true
	case "<":
		return n < m, true
	case "<=":
		return n <= m, true
	case "==":
		return n == m, true
	case "!=":
		return n != m, true
	}
	return false, false
}

// literalLength returns n where d is the length of a list literal or a
// string literal, n.
func literalLength(d tmpl.Expr) (int64, bool) {
	f, ok := d.(*tmpl.Filter)
	if !ok || f.Name != "length" && f.Name != "count" || len(f.Args) > 0 || len(f.Kwargs) > 0 {
		return 0, false
	}
	switch x := f.X.(type) {
	case *tmpl.List:
		return int64(len(x.Items)), true
	case *tmpl.Const:
		if s, ok := x.Value.(string); ok {
			return int64(utf8.RuneCountInString(s)), true
		}
	}
	return 0, false
}

// readable reports whether Jinja2 reads x itself without failing: x is
// never undefined and, with kinds, of one of them. A dynamic value holds
// its undefined itself, which MaybeUndefined does not see.
func readable(x ir.Expr, kinds ...ir.Kind) bool {
	k := x.Type().Kind
	return k != ir.KindDynamic && !ir.MaybeUndefined(x) && (len(kinds) == 0 || slices.Contains(kinds, k))
}

// condNeverFails reports whether Jinja2 tests d, checked as x, without
// failing: the truth of a value that never fails, == and != of such
// values, an ordering comparison of such ints, numbers or bools, and
// not, and and or of such conditions.
func condNeverFails(d tmpl.Expr, x ir.Expr) bool {
	switch d := d.(type) {
	case *tmpl.Unary:
		u, ok := x.(*ir.Unary)
		return ok && d.Op == "not" && u.Op == "not" && condNeverFails(d.X, u.X)
	case *tmpl.Binary:
		b, ok := x.(*ir.Binary)
		if !ok || b.Op != d.Op {
			return false
		}
		switch d.Op {
		case "and", "or":
			return condNeverFails(d.X, b.X) && condNeverFails(d.Y, b.Y)
		case "==", "!=":
			return neverFails(d.X, b.X) && neverFails(d.Y, b.Y)
		case "<", "<=", ">", ">=":
			numeric := []ir.Kind{ir.KindInt, ir.KindFloat, ir.KindBool}
			return readable(b.X, numeric...) && readable(b.Y, numeric...) && neverFails(d.X, b.X) && neverFails(d.Y, b.Y)
		}
		return false
	}
	return neverFails(d, x)
}

// defaultFilter types x|default(d): x where it is defined, else d.
func (c *checker) defaultFilter(f *filterUse) bool {
	x, out, e := f.x, f.out, f.e
	xt := x.Type()
	c.guard(x)
	c.later = append(c.later, func() {
		if ir.MaybeUndefined(out.Args[0]) {
			// Only a use after the call made it so: checked again, it is
			// a conditional (undefinedDefault); this error stays where
			// that fails too, or where no second check runs (a set).
			c.undefinedLate[c.posString(e.Span)] = true
			c.errorf(e.Span, "the default of default() may be undefined, which only a use after it shows, once promptgen typed the call (a template set is not checked again): give it a value that is always defined (another default, or a literal)")
		}
	})
	c.emptyIsObject(x, out.Args[0], e.X.Pos())
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
		c.markupMethod(f.x, f.out, f.e.Span, false, 0)
	case "truncate":
		c.markupTruncate(f.x, f.out, f.e.Span)
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
	if m, ok := x.(*ir.Call); ok && m.Kind == ir.CallFilter && m.Name == "map" && m.Attr != nil && builtins.IsNone(m.Args[1]) && builtins.IsNone(out.Args[1]) {
		// map(attribute=a) | join is join(attribute=a), where an
		// unset field joins as "" (str of Undefined).
		c.consume(m)
		out.X, out.Attr = m.X, m.Attr
		return true
	}
	attr := out.Args[ir.ParamIndex(ir.FilterParams["join"], "attribute")]
	switch xt := x.Type().Resolve(); xt.Kind {
	case ir.KindInt, ir.KindFloat, ir.KindBool, ir.KindNone:
		return c.filterFails(f, "TypeError", fmt.Sprintf("join needs a list or string, not %s (Jinja2 raises TypeError)", xt), false)
	case ir.KindString:
		if !builtins.IsNone(attr) {
			c.errorf(e.NameSpan, "join by attribute= of a string is not supported (it joins the attribute of each character, always undefined)")
			return false
		}
		// Jinja2 joins the characters of a string: the list of them.
		inline(x)
		out.X = chars(x, out.Pos)
		return true
	}
	c.constrain(x.Type(), ir.KindList, e.X.Pos())
	out.Attr = c.attrArg(attr, x.Type(), e.Span)
	if out.Attr == nil {
		inline(x)
		c.readsWhole(x, e.Span, "join")
	}
	return true
}

func (c *checker) lengthFilter(f *filterUse) bool {
	f.out.T = &ir.Type{Kind: ir.KindInt}
	if t := f.x.Type().Resolve(); isScalarNotString(t.Kind) {
		return c.filterFails(f, "TypeError", fmt.Sprintf("length needs a list, string, map, dict or object, not %s", t), false)
	}
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
	case ir.KindInt, ir.KindFloat, ir.KindBool, ir.KindNone:
		return c.filterFails(f, "TypeError", fmt.Sprintf("%s needs a list or string, not %s", f.name, xt), false)
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
	// Python rounds a bool as the int it is (round(True) is 1).
	f.x = c.boolAsInt(f.e.Span, f.e.X, f.x)
	f.out.X = f.x
	xt := f.x.Type()
	switch k := xt.Resolve().Kind; {
	case k == ir.KindUnknown:
		c.constrain(xt, ir.KindFloat, f.e.X.Pos())
	case !ir.IsNumber(k):
		return c.filterFails(f, "TypeError", fmt.Sprintf("round needs a number, not %s (Python raises TypeError)", xt.Resolve()), true)
	}
	// Python's round keeps an int an int; floor and ceil divide.
	f.out.T = &ir.Type{Kind: ir.KindFloat}
	if m, ok := f.out.Args[1].(*ir.Const); ok && m.Value == "common" && xt.Resolve().Kind == ir.KindInt {
		f.out.T = &ir.Type{Kind: ir.KindInt}
	}
	return true
}

// chars is x | list of string x: the list of its characters, which
// Jinja2 iterates where a filter iterates a string.
func chars(x ir.Expr, pos string) ir.Expr {
	return &ir.Call{Kind: ir.CallFilter, Name: "list", X: x, T: &ir.Type{Kind: ir.KindList, Elem: &ir.Type{Kind: ir.KindString}}, Pos: pos}
}

// sortFilter types sort and unique; of a string, its characters.
func (c *checker) sortFilter(f *filterUse) bool {
	if f.x.Type().Resolve().Kind == ir.KindString {
		f.x = chars(f.x, f.out.Pos)
		f.out.X = f.x
	}
	xt := f.x.Type()
	c.constrain(xt, ir.KindList, f.e.X.Pos())
	attr := f.out.Args[ir.ParamIndex(ir.FilterParams[f.name], "attribute")]
	if k, ok := attr.(*ir.Const); ok && f.name == "sort" && strings.Contains(fmt.Sprint(k.Value), ",") {
		// Jinja2's sort reads "a,b" as two sort keys, which promptgen
		// reads of objects converted to dicts (sortsConverted); of what
		// is no list the type errors say enough.
		if xt.Resolve().Kind == ir.KindList {
			c.errorf(f.e.Span, "sort by several attributes (%q) is supported only of a list of objects whose fields the inputs declare, or of a dynamic value", k.Value)
		}
	} else {
		f.out.Attr = c.attrArg(attr, xt, f.e.Span)
	}
	if f.name == "unique" {
		c.later = append(c.later, func() {
			if slices.ContainsFunc(f.out.Attr, func(a *ir.Field) bool { return a.Optional }) {
				// Jinja2 keeps the first item whose key is undefined.
				c.errorf(f.e.Span, "unique by a path through an optional field is supported only of a list of objects whose fields the inputs declare, or of a dynamic value")
			}
		})
	}
	f.out.T = xt
	return true
}

func (c *checker) reverseFilter(f *filterUse) bool {
	switch t := f.x.Type().Resolve(); t.Kind {
	case ir.KindUnknown:
		// Jinja2 reverses a string into a string: a use of the result or
		// of the operand as a string makes it one, else it is a list.
		if t.Hint == ir.KindUnknown {
			t.Hint = ir.KindList
		}
		f.out.T = t
	case ir.KindList, ir.KindString:
		f.out.T = t
	case ir.KindInt, ir.KindFloat, ir.KindBool, ir.KindNone:
		return c.filterFails(f, "FilterArgumentError", fmt.Sprintf("reverse needs a list or string, not %s", t), false)
	default:
		c.errorf(f.e.NameSpan, "reverse needs a list or string, not %s", t)
		return false
	}
	c.later = append(c.later, func() { c.reversed(f) })
	return true
}

// reversed checks reverse of a list or string once every type is known.
func (c *checker) reversed(f *filterUse) {
	out, e := f.out, f.e
	switch out.T = out.T.Resolve(); out.T.Kind {
	case ir.KindList:
		if !onlyGenerators(f.x) && !c.iterated[out] {
			// Jinja2 reverses a generator or an iterator into a list.
			c.errorf(e.NameSpan, "reverse of a list yields an iterator in Jinja2, which prints as <list_reverseiterator ...> and has no length or index: loop over it, join it, or convert it with | list")
		}
	case ir.KindString:
		switch {
		case !ir.MaybeUndefined(f.x):
		case !c.iterated[out]:
			// Jinja2 reverses Undefined as an empty iterator, which prints
			// as one; iterated, it is the empty string's reverse.
			c.errorf(e.NameSpan, "reverse of a string that may be undefined yields an iterator in Jinja2 where it is undefined, which prints as <reversed ...> and has no length or index: loop over it, convert it with | list, or give it a default")
		case c.textRead[out]:
			c.errorf(e.NameSpan, "reverse of a string that may be undefined yields an iterator in Jinja2 where it is undefined, where in finds no '' (the empty string holds one) and reverse makes a list of it: give it a default")
		}
	default:
		c.errorf(e.NameSpan, "reverse needs a list or string, not %s", out.T)
	}
}

func (c *checker) listFilter(f *filterUse) bool {
	xt := f.x.Type()
	if t := xt.Resolve(); isScalarNotString(t.Kind) {
		return c.filterFails(f, "TypeError", fmt.Sprintf("list needs a list, string, map or dict, not %s", t), false)
	}
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

// checkFilter validates a filter's operand and arguments once types are final.
func (c *checker) checkFilter(f *filterUse) {
	x, e := f.out, f.e
	builtins.RebindAttr(x)
	def := builtins.Filters[x.Name]
	def.CheckArgs(x, e, c.errorf)
	if x.Attr != nil && !c.consumed[x] && c.noInputObjects(x.X, e.X.Pos()) {
		// Its Go type would have no name: the objects of an empty literal.
		c.errorf(e.NameSpan, "%s by attribute= of a list whose objects come from no input (an empty list literal) is not supported", x.Name)
		return
	}
	if l, ok := x.X.(*ir.List); ok && len(l.Items) == 0 && x.Name == "sort" && !slices.ContainsFunc(x.Args, func(a ir.Expr) bool { _, ok := a.(*ir.Const); return !ok }) {
		// Sorting nothing compares nothing, whatever the items' type
		// (another use may make them lists): a copy of the literal.
		x.Name, x.Args, x.Attr = "list", nil, nil
		return
	}
	if def.Final != nil {
		def.Final(x, e, c.errorf)
	}
	if x.Name == "map" && x.Attr != nil {
		c.checkMapAttr(x, e)
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
	return c.dyn(ir.DynToJSON, "", &ir.Type{Kind: ir.KindString}, f.e.Span, append([]ir.Expr{f.x}, f.args...)...)
}

func (c *checker) dynJoin(f *filterUse) ir.Expr {
	if !builtins.IsNone(f.args[1]) {
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
			if k != ir.KindUnknown && !builtins.IsNone(f.args[i]) {
				c.constrain(f.args[i].Type(), k, f.e.Span)
			}
		}
		return c.dyn(ir.DynFilter, f.name, ir.DynamicType(), f.e.Span, append([]ir.Expr{f.x}, f.args...)...)
	}
}

// dynAttrCall is dynCall(kinds...) of a filter whose argument attr is an
// attribute= or a sort key (sort, unique, map).
func dynAttrCall(attr int, kinds ...ir.Kind) func(*checker, *filterUse) ir.Expr {
	return func(c *checker, f *filterUse) ir.Expr {
		out := dynCall(kinds...)(c, f)
		c.dynAttrArg(f, f.args[attr])
		return out
	}
}

// dynAttrArg checks the attribute or sort key of a filter of a dynamic
// value: a string literal.
func (c *checker) dynAttrArg(f *filterUse, attr ir.Expr) {
	k, ok := attr.(*ir.Const)
	if !ok || k.Value != nil && k.T.Kind != ir.KindString {
		c.errorf(f.e.Span, "filter %s: attribute must be a string literal", f.name)
		return
	}
	if s, ok := k.Value.(string); ok {
		if g, ok := f.x.(*ir.Dynamic); ok && g.Op == ir.DynFilter && g.Name == "groupby" && !strings.ContainsAny(s, ".,") {
			return // a key of a group (grouper, list), not of the items it holds
		}
		// A path of keys, or several (sort's "a,b"), each read.
		for _, k := range strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == ',' }) {
			c.dynKeys = append(c.dynKeys, keyAt{k, f.x, c.posString(f.e.Span)})
		}
	}
}

// dynGenerator is dyn for a filter that yields a generator in Jinja2 (or
// an iterator, reverse): its consumer must iterate it.
func dynGenerator(dyn func(*checker, *filterUse) ir.Expr) func(*checker, *filterUse) ir.Expr {
	return func(c *checker, f *filterUse) ir.Expr {
		if cond, ok := f.x.(*ir.Cond); ok && f.name == "reverse" && mayYieldGenerator(cond) && hasElse(cond) {
			return c.reverseArms(cond, f.e.Span)
		}
		out := dyn(c, f)
		if f.name == "reverse" && generator(f.x) {
			return out // a list, as reverse makes of a generator
		}
		if f.name == "reverse" {
			c.dynReverse(out, f.x)
			return out
		}
		what := "a generator, which prints as <generator ...>"
		of := " of a dynamic value"
		if k := f.x.Type().Resolve().Kind; k == ir.KindMap || k == ir.KindStruct || k == ir.KindDict {
			of = "" // items of a typed map, object or dict
		}
		c.mustIterateMsg(out, f.e.NameSpan, fmt.Sprintf("%s%s yields %s in Jinja2 and has no length or index: loop over it, join it, or convert it with | list", f.name, of, what))
		return out
	}
}

// reverseArms is reverse of x, a conditional whose arms may be generators,
// as reverse of the arm Jinja2 takes: a list of a generator, Python's
// reversed() of another value (dynReverse).
func (c *checker) reverseArms(x ir.Expr, sp tmpl.Span) ir.Expr {
	if cond, ok := x.(*ir.Cond); ok && hasElse(cond) {
		return &ir.Cond{Cond: cond.Cond, Then: c.reverseArms(cond.Then, sp), Else: c.reverseArms(cond.Else, sp), T: ir.DynamicType()}
	}
	out := c.dyn(ir.DynFilter, "reverse", ir.DynamicType(), sp, x)
	if !generator(x) {
		c.dynReverse(out, x)
	}
	return out
}

// hasElse reports whether conditional x and those in its arms have an
// else: where one has none, the value Jinja2 reverses may be undefined.
func hasElse(x *ir.Cond) bool {
	if x.Else == nil {
		return false
	}
	for _, arm := range []ir.Expr{x.Then, x.Else} {
		if a, ok := arm.(*ir.Cond); ok && !hasElse(a) {
			return false
		}
	}
	return true
}

// mapsOptional reports whether attr, a constant attribute= of a list of
// type t, names an optional field of the objects it holds by the fields
// known so far (declared, or inferred by a use before), and def, map's
// default, is none or of another kind than the field.
func mapsOptional(t *ir.Type, attr, def ir.Expr) bool {
	k, ok := attr.(*ir.Const)
	path, isString := k.Value.(string)
	if t = t.Resolve(); !ok || !isString || t.Kind != ir.KindList {
		return false
	}
	var f *ir.Field
	t = t.Elem
	for _, key := range strings.Split(path, ".") {
		if t = t.Resolve(); t.Kind != ir.KindStruct {
			return false
		}
		if f = t.Field(key); f == nil {
			return false
		}
		t = f.Type
	}
	return f.Optional && (builtins.IsNone(def) || def.Type().Resolve().Kind != ir.KindUnknown && !ir.SameKind(def.Type(), f.Type))
}

// dynReverse makes out, reverse of a dynamic value (or of a string that
// may be undefined), what Jinja2's is where its consumer does not
// iterate it: the runtime's reversed, a string of a string and else
// Python's reversed() (an iterator: a list_reverseiterator, of undefined
// an empty reversed). Iterated, it stays the list of the items reversed;
// so does reverse of x, another reverse, which the runtime's list is
// where Jinja2's iterator is (reversed() refuses it: reverse makes a
// list), and a string where it is one.
func (c *checker) dynReverse(out, x ir.Expr) {
	inner, ok := x.(*ir.Dynamic)
	if ok && inner.Op == ir.DynFilter && inner.Name == "reverse" {
		return
	}
	c.later = append(c.later, func() {
		if d, ok := out.(*ir.Dynamic); ok && !c.iterated[out] {
			d.Name = "reversed"
		}
	})
}

// checkMapAttr checks map(attribute=...) through an optional last field,
// which yields Undefined where the field is unset: the result must be
// joined directly, or the unset fields need a default of the field's kind.
func (c *checker) checkMapAttr(x *ir.Call, e *tmpl.Filter) {
	f := x.Attr[len(x.Attr)-1]
	d := x.Args[1]
	switch {
	case !builtins.IsNone(d) && !ir.SameKind(d.Type(), f.Type):
		c.errorf(e.Span, "filter map: default must have the type of the field %q (%s), not %s", f.Key, f.Type, d.Type())
	case f.Optional && builtins.IsNone(d) && !c.consumed[x]:
		c.errorf(e.Span, "map(attribute=%q) yields Undefined where the optional %q is unset, which promptgen holds only where a use before the map (or inputs) makes the field optional: join the result directly, give map a default= or declare the field in inputs", ir.AttrPath(x.Attr), f.Key)
	}
}

// transformersToJSON binds the arguments of the transformers profile's
// tojson, of which promptgen supports indent and a literal ensure_ascii,
// and returns them as Jinja2's tojson takes them, followed by true for
// ensure_ascii=True (ir.ToJSONEnsureASCII). Its keys come in insertion
// order: an object or a map of the feed has the order of its JSON data in
// Python, which filter takes as encoding/json writes the feed (an object's
// set fields in declaration order, a map's keys sorted) by converting it to
// a dynamic value.
func (c *checker) transformersToJSON(e *tmpl.Filter) []ir.Expr {
	args := c.bindArgs("filter tojson", builtins.TransformersToJSONParams, e.Args, e.Kwargs, e.Span)
	ensureASCII := false
	for i, p := range builtins.TransformersToJSONParams {
		k, ok := args[i].(*ir.Const)
		switch {
		case p.Name == "indent":
		case p.Name == "ensure_ascii" && ok:
			// json.dumps takes its truth (tojson(2) escapes).
			ensureASCII = ir.ConstTruth(k)
		case p.Name == "ensure_ascii":
			c.errorf(e.Span, "filter tojson: ensure_ascii must be a constant, whose truth promptgen reads when generating (transformers' tojson takes it first, before indent)")
		case !ok || k.Value != p.Def:
			c.errorf(e.Span, "filter tojson: %s is not supported (transformers' tojson supports indent and ensure_ascii)", p.Name)
		}
	}
	if ensureASCII {
		return []ir.Expr{args[1], constExpr(true)}
	}
	return []ir.Expr{args[1]}
}

// generatorToJSON is tojson of g, a generator or a list's reverse
// iterator, where it may not run (in an if, a loop or a macro: llama.cpp's
// DeepSeek-R1 template prints tools | map(attribute='function') | tojson
// under {% if tools %}). json.dumps raises TypeError on it whatever it
// holds, after Jinja2 evaluated g's operand and arguments (nothing of g's
// work) and tojson's: a warning, and the render fails where it runs.
// Where it always runs, it is the error of a generator used as a value.
func (c *checker) generatorToJSON(e *tmpl.Filter, g ir.Expr) ir.Expr {
	params := ir.FilterParams["tojson"]
	if c.p.Jinja.Transformers {
		params = builtins.TransformersToJSONParams
	}
	args := c.bindArgs("filter tojson", params, e.Args, e.Kwargs, e.Span)
	c.iterate(g) // its one use
	what, typ := generatorType(g)
	return c.fails(e.NameSpan, "tojson "+typ, fmt.Sprintf("tojson of %s: Jinja2 raises TypeError (Object of type %s is not JSON serializable) where it runs, and so does the render (convert it with | list)", what, typ), lazyTrue(g, args...))
}

// generatorType is what g, a generator, is, and the name of its Python
// type: a generator, or a list's reverse iterator.
func generatorType(g ir.Expr) (what, typ string) {
	if f, ok := g.(*ir.Call); ok && f.Name == "reverse" {
		return "an iterator (reverse of a list)", "list_reverseiterator"
	} else if d, ok := g.(*ir.Dynamic); ok && d.Name == "reverse" {
		return "an iterator (reverse of a list)", "list_reverseiterator"
	}
	return "a generator", "generator"
}

// missing is a filter or test (kind) name that Jinja2 lacks, applied to
// args and kwargs where the frame is soft: Jinja2 compiles it to fail
// where it runs (TemplateRuntimeError), after its arguments, and so does
// promptgen, with a warning (suggest is the did-you-mean).
func (c *checker) missing(sp tmpl.Span, kind, name, suggest string, args []tmpl.Expr, kwargs []tmpl.Kwarg) ir.Expr {
	warning := fmt.Sprintf("unknown %s %q%s: Jinja2 fails where it runs, as this is in an if or a conditional expression, and so does the render", kind, name, suggest)
	return c.fails(sp, kind+" "+name, warning, c.evalArgs(args, kwargs)...)
}

// filterFails is f, a filter that Jinja2 raises exc (TypeError or an
// exception mapped alike) on where it runs whatever its operand's value (msg): a
// value that fails the render there after the operand and the arguments
// (failsWhereRuns), or false where it is an error. Where undefinedFails is
// false Jinja2 takes an undefined operand as empty (length 0): one that
// may be undefined stays an error.
func (c *checker) filterFails(f *filterUse, exc, msg string, undefinedFails bool) bool {
	if !undefinedFails && ir.MaybeUndefined(f.x) {
		c.errorf(f.e.NameSpan, "%s", msg)
		return false
	}
	f.fails = c.failsWhereRuns(f.e.NameSpan, exc, msg, f.x, evaluatedTrue(f.args...))
	return !c.rejected[f.fails]
}

// isScalarNotString reports whether k is an int, number, bool or none,
// which Python neither iterates nor measures.
func isScalarNotString(k ir.Kind) bool {
	return k == ir.KindInt || k == ir.KindFloat || k == ir.KindBool || k == ir.KindNone
}
