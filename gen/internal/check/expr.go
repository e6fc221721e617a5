package check

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/builtins"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/names"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
	"github.com/promptgen/promptgen/schema"
)

// dictDefault makes v, a variable of a chat prompt's own that local l
// may still hold, a dynamic value when the template sets l to a dict
// literal ({% if x is not defined %}{% set x = {'k': 'v'} %}{% endif %}):
// the variable is JSON passed to apply_chat_template, whose keys keep
// their order as the literal's do (a map would sort them, and JSON cannot
// fill a dict literal's type).
func (c *checker) dictDefault(l *ir.Local, v ir.Expr, sp tmpl.Span) {
	if l.T.Resolve().Kind == ir.KindDict {
		c.chatDynamic(v, sp)
	}
}

// iterate records that x, when a generator in Jinja2 (unique, map), is
// iterated by its consumer; a conditional passes on the arm it takes.
func (c *checker) iterate(x ir.Expr) {
	if eachArm(x, c.iterate) {
		return
	}
	f, isCall := x.(*ir.Call)
	_, isSelect := x.(*ir.Select)
	_, isMap := x.(*ir.MapFilter)
	_, isDyn := x.(*ir.Dynamic)
	if isCall && (builtins.IsGenerator(f) || f.Kind == ir.CallFilter && f.Name == "reverse") || isSelect || isMap || isDyn {
		if c.iterated == nil {
			c.iterated = map[ir.Expr]bool{}
		}
		c.iterated[x] = true
	}
}

// eachArm calls f with each arm of x when x is a conditional, and
// reports whether it is.
func eachArm(x ir.Expr, f func(ir.Expr)) bool {
	cond, ok := x.(*ir.Cond)
	if ok {
		f(cond.Then)
		if cond.Else != nil {
			f(cond.Else)
		}
	}
	return ok
}

// readText records that x's consumer, which iterates it, reads a string
// as its text (see textRead).
func (c *checker) readText(x ir.Expr) {
	if eachArm(x, c.readText) {
		return
	}
	if c.textRead == nil {
		c.textRead = map[ir.Expr]bool{}
	}
	c.textRead[x] = true
}

// mayBeGenerator reports whether x is a generator, or a conditional
// with one in an arm.
func mayBeGenerator(x ir.Expr) bool {
	if c, ok := x.(*ir.Cond); ok {
		return mayBeGenerator(c.Then) || c.Else != nil && mayBeGenerator(c.Else)
	}
	return generator(x)
}

// onlyGenerators reports whether x is a generator, or a conditional
// whose every arm is one.
func onlyGenerators(x ir.Expr) bool {
	if c, ok := x.(*ir.Cond); ok {
		return c.Else != nil && onlyGenerators(c.Then) && onlyGenerators(c.Else)
	}
	return generator(x)
}

// generator reports whether x is one of Jinja2's generators, or the
// iterator that reverse makes of a list: true even when empty.
func generator(x ir.Expr) bool {
	switch x := x.(type) {
	case *ir.Select, *ir.MapFilter:
		return true
	case *ir.Call:
		// reverse makes a list of a generator: an iterator only where
		// its operand is no generator in any arm.
		return builtins.IsGenerator(x) || x.Kind == ir.CallFilter && x.Name == "reverse" && x.Type().Kind == ir.KindList && !mayBeGenerator(x.X)
	case *ir.Dynamic:
		// Not reverse, whose value the runtime decides (dynReverse).
		return x.Op == ir.DynMapFilter || x.Op == ir.DynFilter && (x.Name == "map" || x.Name == "unique" || x.Name == "batch" || x.Name == "slice" || x.Name == "items")
	}
	return false
}

// mayYieldGenerator reports whether x, or a value a conditional or an
// and/or in it yields, is a generator.
func mayYieldGenerator(x ir.Expr) bool {
	switch x := x.(type) {
	case *ir.Cond:
		return mayYieldGenerator(x.Then) || x.Else != nil && mayYieldGenerator(x.Else)
	case *ir.Binary:
		if x.Value {
			return slices.ContainsFunc(builtins.Yields(x), mayYieldGenerator)
		}
	}
	return generator(x)
}

// condition checks e where its truth is tested: the test of an if, a
// conditional or a loop's filter, not, and a tested and/or.
func (c *checker) condition(e tmpl.Expr) ir.Expr {
	return c.truth(c.expr(e, useTest))
}

// truth is x where its truth is tested. A generator is true, and testing
// it runs nothing of it (see lazyTrue); a conditional with one as an arm
// tests the truth of the arm it takes.
func (c *checker) truth(x ir.Expr) ir.Expr {
	if generator(x) {
		c.iterate(x) // its one use
		return lazyTrue(x)
	}
	cond, ok := x.(*ir.Cond)
	if !ok {
		return x
	}
	then, els := c.truth(cond.Then), cond.Else
	if els != nil {
		els = c.truth(els)
	}
	if then == cond.Then && els == cond.Else {
		return x
	}
	return &ir.Cond{Cond: cond.Cond, Then: asBool(then), Else: asBool(els), T: &ir.Type{Kind: ir.KindBool}}
}

// asBool is the truth of x as a bool: x or false.
func asBool(x ir.Expr) ir.Expr {
	if x == nil || x.Type().Kind == ir.KindBool {
		return x
	}
	return &ir.Binary{Op: "or", X: x, Y: constExpr(false), T: &ir.Type{Kind: ir.KindBool}}
}

// lazyTrue is the truth of g, a generator: true, with its operand and
// arguments evaluated, as Jinja2 evaluates them before it calls the
// filter (they may fail the render), but nothing of the filter's work:
// (x or true) and ... for each that is not a constant. The expressions
// after are evaluated next, the same way.
func lazyTrue(g ir.Expr, after ...ir.Expr) ir.Expr {
	var evaluated []ir.Expr
	switch g := g.(type) {
	case *ir.Select:
		evaluated = append([]ir.Expr{g.X}, g.Args...)
	case *ir.MapFilter:
		evaluated = append([]ir.Expr{g.X}, g.Args...)
	case *ir.Call:
		evaluated = append([]ir.Expr{g.X}, g.Args...)
	case *ir.Dynamic:
		evaluated = slices.Clone(g.Args)
	}
	return evaluatedTrue(append(evaluated, after...)...)
}

// evaluatedTrue is true, with each of xs evaluated in turn, as a
// condition: where one fails, the render fails there. A list or dict
// literal printed where it stands (Inline) is its items, each of its own
// type: such a literal (of ints and numbers) has no Go type that holds
// them.
func evaluatedTrue(xs ...ir.Expr) ir.Expr {
	var out ir.Expr
	for _, x := range xs {
		switch l := x.(type) {
		case *ir.List:
			if l.Inline {
				x = evaluatedTrue(l.Items...)
			}
		case *ir.Dict:
			if l.Inline {
				x = evaluatedTrue(l.Values...)
			}
		}
		if _, ok := x.(*ir.Const); ok {
			continue
		}
		if !isTrue(x) { // evaluatedTrue of more, as an operand
			x = lazyOrTrue(x)
		}
		if out == nil {
			out = x
		} else {
			out = &ir.Binary{Op: "and", X: out, Y: x, T: &ir.Type{Kind: ir.KindBool}}
		}
	}
	if out == nil {
		return constExpr(true)
	}
	return out
}

// checkedAs runs check, a check of a construct as a rewrite of its parts
// (m.get(k) as m[k] if k in m else none), with each part of with standing
// for its check, and forgets them after: a macro's body is checked again
// at each call, with that call's locals.
func (c *checker) checkedAs(with map[tmpl.Expr]ir.Expr, check func() ir.Expr) ir.Expr {
	if c.checked == nil {
		c.checked = map[tmpl.Expr]ir.Expr{}
	}
	saved := map[tmpl.Expr]ir.Expr{}
	for e, x := range with {
		if old, ok := c.checked[e]; ok {
			saved[e] = old
		}
		c.checked[e] = x
	}
	defer func() {
		for e := range with {
			delete(c.checked, e)
		}
		maps.Copy(c.checked, saved)
	}()
	return check()
}

// lazyOrTrue is x evaluated as Jinja2 evaluates an operand of a generator
// it does not run, as a condition that is true: of a generator its own
// operands (lazyTrue), of a conditional that may yield one its condition
// and the arm it takes, the same way, and anything else in full.
func lazyOrTrue(x ir.Expr) ir.Expr {
	if generator(x) {
		return lazyTrue(x)
	}
	cond, ok := x.(*ir.Cond)
	if !ok || !mayYieldGenerator(cond) {
		return orTrue(x)
	}
	var els ir.Expr
	if cond.Else != nil {
		els = lazyOrTrue(cond.Else)
	}
	return &ir.Cond{Cond: cond.Cond, Then: lazyOrTrue(cond.Then), Else: els, T: &ir.Type{Kind: ir.KindBool}}
}

// mustIterate reports x, the result of the filter name, unless its
// consumer iterates it: Jinja2 yields a generator.
func (c *checker) mustIterate(x ir.Expr, name string, sp tmpl.Span) {
	c.mustIterateMsg(x, sp, name+" yields a generator in Jinja2, which prints as <generator ...> and has no length or index: loop over it, join it, or convert it with | list")
}

// mustIterateMsg reports x with msg unless its consumer iterates it.
func (c *checker) mustIterateMsg(x ir.Expr, sp tmpl.Span, msg string) {
	c.later = append(c.later, func() {
		if !c.iterated[x] {
			c.errorf(sp, "%s", msg)
		}
	})
}

// reject returns the stand-in for an expression reported as unsupported:
// none, whose uses report nothing more.
func (c *checker) reject() ir.Expr {
	x := &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	if c.rejected == nil {
		c.rejected = map[ir.Expr]bool{}
	}
	c.rejected[x] = true
	return x
}

// consume records that x's consumer can use its result.
func (c *checker) consume(x *ir.Call) {
	if c.consumed == nil {
		c.consumed = map[*ir.Call]bool{}
	}
	c.consumed[x] = true
}

// use says how an expression's value is used, for inference: a printed
// unknown defaults to string, a tested one is optional.
type use uint8

func (c *checker) expr(e tmpl.Expr, u use) ir.Expr {
	if x, ok := c.checked[e]; ok {
		return x
	}
	c.macros.count()
	switch e := e.(type) {
	case *tmpl.Name:
		return c.name(e, u)
	case *tmpl.Const:
		return constExpr(e.Value)
	case *tmpl.List:
		out := &ir.List{T: &ir.Type{Kind: ir.KindList, Elem: &ir.Type{}}}
		for _, it := range e.Items {
			out.Items = append(out.Items, c.asIterator(c.expr(it, useValue), it.Pos()))
		}
		if slices.ContainsFunc(out.Items, func(x ir.Expr) bool { return c.rejected[x] }) {
			return c.reject()
		}
		if !c.keepsUndefined(out.T, out.Items, e.Items, e.Span) {
			if slices.ContainsFunc(out.Items, func(x ir.Expr) bool { return x.Type().Resolve().Kind == ir.KindString }) {
				// An input beside a string: unify sees a copy of its
				// list type (types.Slot), which names no input.
				for _, x := range out.Items {
					c.listString(x.Type())
				}
			}
			for i, x := range out.Items {
				c.unify(out.T.Elem, types.Slot(x.Type()), e.Items[i].Pos())
			}
		}
		c.later = append(c.later, func() {
			elem := out.T.Resolve().Elem // nil once the list is a dynamic value
			for i, x := range out.Items {
				c.checkSlot(x, elem, out.Inline, e.Items[i].Pos(), e.Span)
			}
		})
		return out
	case *tmpl.Attr:
		return c.attr(e, e.X, e.Name, e.NameSpan, u)
	case *tmpl.Index:
		if k, ok := e.Index.(*tmpl.Const); ok {
			if s, ok := k.Value.(string); ok && c.isStructLike(e.X) {
				return c.attr(e, e.X, s, k.Span, u)
			}
		}
		return c.index(e, u)
	case *tmpl.Slice:
		return c.slice(e)
	case *tmpl.Unary:
		return c.unary(e, u)
	case *tmpl.Binary:
		return c.binary(e, u)
	case *tmpl.CondExpr:
		defer func(soft bool) { c.soft = soft }(c.soft)
		c.soft = true
		arm := func(e tmpl.Expr) ir.Expr { return c.expr(e, u) }
		out := &ir.Cond{Cond: c.condition(e.Cond), Then: c.optionally(e.Then, arm)}
		out.T = out.Then.Type()
		if e.Else != nil {
			out.Else = c.optionally(e.Else, arm)
			c.emptyIsObject(out.Then, out.Else, e.Then.Pos())
			c.emptyIsObject(out.Else, out.Then, e.Else.Pos())
			tk, ek := out.T.Resolve().Kind, out.Else.Type().Kind
			switch {
			case tk == ir.KindDynamic || ek == ir.KindDynamic:
				c.dynOperand(out.Then, e.Then.Pos())
				c.dynOperand(out.Else, e.Else.Pos())
				out.T = ir.DynamicType()
			case tk != ir.KindUnknown && ek != ir.KindUnknown && types.HoldsDynamic(out.T) != types.HoldsDynamic(out.Else.Type()):
				// A typed value and one that holds dynamic values (a list of
				// strings, messages[1:]): unified, the typed one would be
				// read as dynamic. Printed, each prints with its own type.
				if u == usePrint {
					out.T = &ir.Type{Kind: ir.KindString}
					break
				}
				c.dynOperand(out.Then, e.Then.Pos())
				c.dynOperand(out.Else, e.Else.Pos())
				out.T = ir.DynamicType()
			case (tk == ir.KindNone) != (ek == ir.KindNone) && u == usePrint:
				// x if c else none: x keeps its own type (none would make
				// an unknown x none), and each branch prints with its own.
				out.T = &ir.Type{Kind: ir.KindString}
			case (tk == ir.KindNone) != (ek == ir.KindNone):
				// As a value, or tested, it is x or none: a dynamic value.
				c.dynOperand(out.Then, e.Then.Pos())
				c.dynOperand(out.Else, e.Else.Pos())
				out.T = ir.DynamicType()
			case types.Unifiable(out.T, out.Else.Type()):
				c.unify(out.T, out.Else.Type(), e.Else.Pos())
				// An arm unified as a number does not follow its local to
				// dynamic (see unify); a recheck makes the local dynamic.
				c.staysTyped(e.Span, out.Then, out.Else)
			case tk == ir.KindStruct && isEmptyDict(out.Else), ek == ir.KindStruct && isEmptyDict(out.Then):
				c.unify(out.T, out.Else.Type(), e.Else.Pos()) // says which field {} lacks
				return c.reject()
			case (tk == ir.KindInt && ek == ir.KindFloat || tk == ir.KindFloat && ek == ir.KindInt) && u != usePrint && c.mixedAsDynamic([]ir.Expr{out.Then, out.Else}, e.Span):
				// As a value, the int branch stays an int, as in Python.
				out.T = ir.DynamicType()
			case (tk == ir.KindInt && ek == ir.KindFloat || tk == ir.KindFloat && ek == ir.KindInt) && u != usePrint:
				out.T = &ir.Type{Kind: ir.KindFloat}
			case u == usePrint:
				// Printed, each branch prints with its own type; as its
				// str() (a string) it is right in ~ and string filters.
				out.T = &ir.Type{Kind: ir.KindString}
			case c.mixedAsDynamic([]ir.Expr{out.Then, out.Else}, e.Span):
				out.T = ir.DynamicType()
			default:
				if tk == ir.KindString || ek == ir.KindString || itemOf(out.Then.Type(), out.Else.Type()) || itemOf(out.Else.Type(), out.Then.Type()) {
					// An input in the other arm is checked again as a
					// string from its first use, as where they unify; so
					// is one whose item is the other arm (x[0] if c else
					// x): only a string's items are of its own type.
					c.listString(out.Then.Type())
					c.listString(out.Else.Type())
				}
				c.errorf(e.Else.Pos(), "the conditional yields either %s here: promptgen can print that, but not use it as a value (make the branches one type, or convert with | string)", kindsOf([]ir.Expr{out.Then, out.Else}))
				return c.reject()
			}
		}
		return out
	case *tmpl.Filter:
		return c.filter(e, u)
	case *tmpl.Test:
		return c.test(e)
	case *tmpl.Call:
		return c.call(e, u)
	case *tmpl.Tuple:
		return c.tuple(e)
	case *tmpl.Dict:
		return c.dict(e)
	}
	return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
}

func constExpr(v any) *ir.Const {
	switch v.(type) {
	case string:
		return &ir.Const{Value: v, T: &ir.Type{Kind: ir.KindString}}
	case int64:
		return &ir.Const{Value: v, T: &ir.Type{Kind: ir.KindInt}}
	case float64:
		return &ir.Const{Value: v, T: &ir.Type{Kind: ir.KindFloat}}
	case bool:
		return &ir.Const{Value: v, T: &ir.Type{Kind: ir.KindBool}}
	}
	return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
}

// dict checks a dict literal. Its keys must be distinct string constants,
// so that its type can be a closed struct of them, or int constants, which
// make it a dynamic value (ByteDance-Seed-OSS's {0: 0, 512: 128, ...}).
func (c *checker) dict(e *tmpl.Dict) ir.Expr {
	out := &ir.Dict{T: &ir.Type{Kind: ir.KindDict}}
	taken := map[string]bool{}
	type key struct {
		s     string
		isInt bool
	}
	seen := map[key]bool{}
	var ints []bool
	for i, k := range e.Keys {
		v := c.asIterator(c.expr(e.Values[i], useValue), e.Values[i].Pos())
		var s string
		isInt := false
		kc, ok := k.(*tmpl.Const)
		if ok {
			switch kv := kc.Value.(type) {
			case string:
				s = kv
			case int64:
				s, isInt = strconv.FormatInt(kv, 10), true
			default:
				ok = false
			}
		}
		switch {
		case !ok:
			c.errorf(k.Pos(), "dict literal keys must be string or int constants")
			continue
		case seen[key{s, isInt}] && isInt:
			c.errorf(k.Pos(), "duplicate key %s in dict literal", s)
			continue
		case seen[key{s, isInt}]:
			c.errorf(k.Pos(), "duplicate key %q in dict literal", s)
			continue
		}
		seen[key{s, isInt}] = true
		ints = append(ints, isInt)
		// Struct fields named after the key when it makes a Go name, by
		// position otherwise; "_" cannot start a name made from a key.
		name, ok := names.Unexported(s)
		if !ok || taken[name] {
			name = fmt.Sprintf("_%d", i)
		}
		taken[name] = true
		out.T.Fields = append(out.T.Fields, &ir.Field{Key: s, Type: types.Slot(v.Type()), Pos: c.pos(k.Pos()), GoName: name})
		out.Values = append(out.Values, v)
	}
	if slices.Contains(ints, true) {
		out.IntKeys = ints
		c.intKeyed(out, e)
	} else {
		c.keepsUndefined(out.T, out.Values, e.Values, e.Span)
	}
	c.later = append(c.later, func() {
		t := out.T.Resolve()
		if t.Kind != ir.KindDynamic && len(t.Fields) != len(out.Values) {
			return // {} where it is an object
		}
		for i, v := range out.Values {
			var slot *ir.Type // a dynamic value's
			if t.Kind != ir.KindDynamic {
				slot = t.Fields[i].Type
			}
			c.checkSlot(v, slot, out.Inline, e.Values[i].Pos(), e.Span)
		}
	})
	return out
}

// intKeyed makes d, a dict literal e with an int key, a dynamic value:
// Jinja2's dict, whose int keys no struct field has. Each value must
// convert to a dynamic value.
func (c *checker) intKeyed(d *ir.Dict, e *tmpl.Dict) {
	d.T.Link = ir.DynamicType()
	for i, x := range d.Values {
		hint(x.Type(), usePrint)
		c.later = append(c.later, func() {
			switch xt := x.Type(); {
			case !finalized(xt):
			case !types.OperandConverts(xt):
				c.errorf(e.Values[i].Pos(), "this %s cannot be a value of a dict literal with int keys, which promptgen holds as a dynamic value: it cannot hold %s", xt, ir.A(xt))
			case types.InferredObjectIn(xt):
				c.dynObject(x, e.Values[i].Pos())
			}
		})
	}
}

// keepsUndefined makes t, the type of the list or dict literal at sp with
// the elements elems (written as srcs), a dynamic value when one of them
// may be undefined (holdsUndefined), or a use after it made one so in a
// previous check (see checkSlot): Jinja2 keeps Undefined in the list or
// dict, where a dynamic value holds it, with each element's own type. So
// does a tojson or safe result among them, or a tuple holding one
// (markupHere), which Jinja2 keeps as Markup, as a dynamic value does
// (keepMarkup), and scalars of types that no one type holds in a list
// (mixesScalars; a dict literal's values have a type each).
// Elements that are always defined keep the literal typed, and so does an
// element that may be undefined and that no dynamic value can hold (an
// object, a map), which checkSlot rejects unless the literal is printed
// where it stands.
func (c *checker) keepsUndefined(t *ir.Type, elems []ir.Expr, srcs []tmpl.Expr, sp tmpl.Span) bool {
	why, fix := "one that may be undefined, which Jinja2 keeps", "give that element a value with | default(...), or print the literal where it stands"
	here := c.markupHere() // follows the sets once, for every element
	switch {
	case slices.ContainsFunc(elems, holdsUndefined) || c.keepUndefined[c.posString(sp)]:
		if slices.ContainsFunc(elems, func(x ir.Expr) bool { return keptUndefined(x) && !mayConvertToDynamic(x.Type()) }) {
			return false
		}
	case slices.ContainsFunc(elems, func(x ir.Expr) bool { return here.May(x) || here.Holds(x) }):
		why, fix = "a tojson or safe result, which Jinja2 keeps as Markup", "make the tojson or safe result a plain string first with ~ ''"
	case t.Kind == ir.KindList && mixesScalars(elems):
		why, fix = "values of different types", "give the elements one type"
	default:
		return false
	}
	t.Link = ir.DynamicType()
	for i, x := range elems {
		hint(x.Type(), usePrint)
		c.later = append(c.later, func() {
			switch xt := x.Type(); {
			case !finalized(xt):
			case !types.OperandConverts(xt):
				c.errorf(srcs[i].Pos(), "this %s cannot be an element here: the list or dict holds %s, and promptgen holds such a list or dict as a dynamic value, which cannot hold %s (%s)", xt, why, ir.A(xt), fix)
			case types.InferredObjectIn(xt):
				c.dynObject(x, srcs[i].Pos())
			}
		})
	}
	return true
}

// mixesScalars reports whether elems, a literal's elements, hold
// scalars or none of kinds that no one type holds (['a', True],
// [n, none]; ints, numbers and bools unify as numbers): Python's list
// holds each as it is, and so does a dynamic value.
func mixesScalars(elems []ir.Expr) bool {
	var kind ir.Kind
	for _, x := range elems {
		switch k := x.Type().Resolve().Kind; {
		case !ir.IsScalar(k) && k != ir.KindNone:
		case kind == ir.KindUnknown:
			kind = k
		case k != kind && !(ir.IsNumber(k) && ir.IsNumber(kind)):
			return true
		}
	}
	return false
}

// markupHere tells which values may be Markup, or hold it, whatever the
// sets not checked yet assign (a tojson or safe result, a method or slice
// of one, a variable that a set checked before assigns one): a list or
// dict literal holding one is a dynamic value, which keeps Markup, and so
// is Markup's split(). As more sets only make more values Markup, markup
// agrees once every set is checked.
func (c *checker) markupHere() *builtins.Markup {
	return &builtins.Markup{Transformers: c.p.Jinja.Transformers, Safe: c.safe, Sets: c.sets, Loops: c.loops, Selects: c.selects}
}

// mayConvertToDynamic reports whether a value of type t, which may not be
// known yet, can be an element of a list or dict literal that is a
// dynamic value: as an operand of a dynamic operation
// (types.OperandConverts), an object or map becomes a dict.
func mayConvertToDynamic(t *ir.Type) bool {
	switch t = t.Resolve(); t.Kind {
	case ir.KindUnknown:
		return true
	case ir.KindList, ir.KindMap:
		return mayConvertToDynamic(t.Elem)
	case ir.KindDict, ir.KindStruct:
		for _, f := range t.Fields {
			if !mayConvertToDynamic(f.Type) {
				return false
			}
		}
		return true
	}
	return types.OperandConverts(t)
}

// holdsUndefined reports whether x, an element of a list or dict literal,
// may be undefined there, or is a literal that keepsUndefined made a
// dynamic value (a literal is dynamic only so when checked): the literal
// holding it is dynamic too, so that its other elements need not unify
// with a dynamic value ([[], [x]]).
func holdsUndefined(x ir.Expr) bool {
	switch x.(type) {
	case *ir.List, *ir.Dict:
		return x.Type().Kind == ir.KindDynamic
	}
	return keptUndefined(x)
}

// keptUndefined reports whether x, an element of a list or dict literal,
// may be undefined there: an index out of range (or first or last of an
// empty list) fails the render instead, where the literal is stored.
func keptUndefined(x ir.Expr) bool { return ir.MaybeUndefined(x) && ir.OutOfRange(x) == "" }

// isEmptyDict reports whether x is the literal {}.
func isEmptyDict(x ir.Expr) bool {
	d, ok := x.(*ir.Dict)
	return ok && len(d.Values) == 0
}

// emptyIsObject makes the type of x, an input or an item of one whose
// type is not known yet, an object that may be empty where its alternative
// is the literal {} (x.get('k', {}), x if c else {}, x | default({})):
// Jinja2 reads a key {} lacks as undefined, as promptgen reads an unset
// optional field. A chat prompt's own variable is a dynamic value instead
// (chatDynamic), as its data is: which keys it has is known at run time
// only, so a key known then reads it (nd[k] of nd = x if x is defined
// else {}), which an object's fields, inferred from the template's
// reads, could not answer.
func (c *checker) emptyIsObject(x, alt ir.Expr, sp tmpl.Span) {
	if !isEmptyDict(alt) {
		return
	}
	c.chatDynamic(x, sp)
	switch x.(type) {
	case *ir.FieldRef, *ir.Index:
	default:
		return
	}
	if t := x.Type().Resolve(); t.Kind == ir.KindUnknown && !t.Declared {
		t.Kind, t.MaybeEmpty = ir.KindStruct, true
		c.mustComeFromInput(t, sp)
	}
}

// chatDynamic makes x a dynamic value when it is a variable of a chat
// prompt's own (not of the chat context) that no use has typed yet.
func (c *checker) chatDynamic(x ir.Expr, sp tmpl.Span) {
	f, ok := x.(*ir.FieldRef)
	if !ok || f.Of != nil || f.Field.Chat || !c.p.Chat || c.feed.Declared {
		return
	}
	if f.Field.Type.Resolve().Kind == ir.KindUnknown {
		c.unify(f.Field.Type, ir.DynamicType(), sp)
	}
}

// checkNoDicts reports the variables in struct t whose type was inferred
// from a dict literal ({{ x if c else {'a': 1} }}): the feed needs a
// struct that JSON can fill, a dict literal's type is not one. It also
// reports an inferred field whose key encoding/json cannot name.
func (c *checker) checkNoDicts(t *ir.Type) {
	for _, f := range t.Fields {
		if !t.Declared && t.Go == nil && !ir.ValidJSONKey(f.Key) {
			c.diags.Errorf(f.Pos, "cannot infer a field named %q: a JSON key with such characters cannot name a Go struct field (declare the variable in inputs, as a map)", f.Key)
		}
		ft := f.Type.Resolve()
		for ft.Kind == ir.KindList || ft.Kind == ir.KindMap {
			ft = ft.Elem.Resolve()
		}
		switch ft.Kind {
		case ir.KindDict:
			c.diags.Errorf(f.Pos, "cannot infer the type of %q from a dict literal (declare it in inputs)", f.Key)
		case ir.KindNone:
			// A Go value would print None whatever the data holds: checked
			// again, the input is a dynamic value, which holds any. Once
			// the other checks ran: one may have said why.
			if p, ok := c.fieldPath(t, f); ok && ft == f.Type.Resolve() {
				c.rebinding[p] = true
			}
			c.later = append(c.later, func() {
				if c.failedAtPos(f.Pos) {
					return
				}
				c.diags.Errorf(f.Pos, "cannot infer the type of %q: it is used only as none is (declare it in inputs)", f.Key)
			})
		case ir.KindStruct:
			c.checkNoDicts(ft)
		}
	}
}

// fieldPath is the input path of field f of t, an inferred input or the
// feed (a variable's path is its name; see inputPath).
func (c *checker) fieldPath(t *ir.Type, f *ir.Field) (string, bool) {
	if t == c.feed {
		return f.Key, true
	}
	p, ok := c.inputPath(t)
	return p + "." + f.Key, ok
}

// checkSlot reports, once types are final, a literal's element x that
// would change type when stored in slot, as 1 in a list of numbers would
// print 1.0. Python keeps each element's type, and so does a literal
// written out where it is printed (inline). It also rejects a tojson
// result, which would print differently, and an element that may be
// undefined in a literal that is not printed where it stands: an object
// or a map, which no dynamic value holds, or one that only a use after the
// literal (at lit) made so, and the literal of a prompt file is checked
// again as a dynamic value. A nil slot is a dynamic value's, which holds
// undefined and each element's type.
func (c *checker) checkSlot(x ir.Expr, slot *ir.Type, inline bool, sp, lit tmpl.Span) {
	switch {
	case !c.markup(x):
	case slot != nil:
		// Only a set after the literal made it Markup: checked again, the
		// literal is a dynamic value, which keeps Markup; this error stays
		// where no second check runs.
		c.undefinedLate[c.posString(lit)] = true
		c.errorf(sp, "a tojson or safe result cannot be an element of this list or dict, which promptgen typed before a set after it made the element one (a template set is not checked again): Jinja2 keeps it as Markup, which prints as Markup('...') inside a list or dict (%s)", toPlain)
		return
	case !c.markups.Must(x) && !c.markups.ByBranch(x) && !(slot == nil && x.Type().Kind == ir.KindDynamic && c.markups.Kept(x)):
		c.rebindMarkup(x)
		c.errorf(sp, "this element is a tojson or safe result in some renders only: Jinja2 keeps Markup in a list or dict, which prints as Markup('...'), and promptgen keeps it only where the element is always Markup (%s)", toPlain)
		return
	}
	if slot == nil {
		return // a dynamic value keeps Markup items as they are
	}
	if c.markupHolds(x) {
		c.undefinedLate[c.posString(lit)] = true // as above
		c.errorf(sp, "a tuple that may hold a tojson or safe result cannot be an element of this list or dict: promptgen holds the literal as typed values, which do not keep Markup items (make the item a plain string first with ~ '')")
		return
	}
	if !inline && keptUndefined(x) {
		if xt := x.Type(); !types.OperandConverts(xt) {
			c.errorf(sp, "this element may be undefined, which Jinja2 keeps in the list or dict: promptgen holds such a list or dict as a dynamic value, which cannot hold %s (give it a value with | default(...), or print the literal where it stands)", ir.A(xt))
			return
		}
		c.undefinedLate[c.posString(lit)] = true
		c.errorf(sp, "this element may be undefined, which only a use after the literal shows, once promptgen typed it (a template set is not checked again): Jinja2 keeps Undefined in the list or dict (give it a value with | default(...), or print the literal where it stands)")
		return
	}
	xk, sk := x.Type().Kind, slot.Resolve().Kind
	if !inline && xk == ir.KindList && sk == ir.KindList {
		// The backends would need to convert the items of the element.
		if types.HoldsDynamic(x.Type()) != types.HoldsDynamic(slot) {
			c.errorf(sp, "this list element holds %s where the literal's other lists hold dynamic values (a list of them that may be undefined, say): not supported (give the elements one type)", ir.A(x.Type()))
			return
		}
		if ek, esk := innerKinds(x.Type(), slot.Resolve()); ek != esk && ek != ir.KindUnknown && esk != ir.KindUnknown {
			c.errorf(sp, "this %s is an element of a list literal of lists of %s: a literal whose lists hold items of different types is supported only where it is printed where it stands", x.Type(), esk)
			return
		}
	}
	if inline || xk == sk || !ir.IsNumber(xk) || !ir.IsNumber(sk) {
		return
	}
	// Checked again, the literal is a dynamic value, whose elements keep
	// their types; this error stays where that fails too, or where no
	// second check runs.
	c.undefinedLate[c.posString(lit)] = true
	c.errorf(sp, "this %s would become a %s, unlike in Jinja2: a literal mixing %s and %s elements is a dynamic value where a prompt file is checked again, and in a template set (which is not) supported only where it is printed, joined or concatenated with ~", xk, sk, xk, sk)
}

// innerKinds returns the kinds of the items of lists x and slot, or of
// their items' items, down to the first that is not a list in both.
func innerKinds(x, slot *ir.Type) (ir.Kind, ir.Kind) {
	for x.Kind == ir.KindList && slot.Kind == ir.KindList && x.Elem != nil && slot.Elem != nil {
		x, slot = x.Elem.Resolve(), slot.Elem.Resolve()
	}
	return x.Kind, slot.Kind
}

// inline marks x, when it is a list or dict literal that is printed where
// it stands, to be written out element by element, and so the literals
// inside it.
func inline(x ir.Expr) {
	switch x := x.(type) {
	case *ir.List:
		x.Inline = true
		for _, it := range x.Items {
			inline(it)
		}
	case *ir.Dict:
		x.Inline = true
		for _, v := range x.Values {
			inline(v)
		}
	}
}

// inlinePrinted marks the literals that a printed x prints where they
// stand: x itself, and those that the emitters print piece by piece, the
// branches of a conditional and the operands of ~.
func inlinePrinted(x ir.Expr) {
	switch x := x.(type) {
	case *ir.Cond:
		inlinePrinted(x.Then)
		inlinePrinted(x.Else)
	case *ir.Binary:
		if x.Op == "~" {
			inlinePrinted(x.X)
			inlinePrinted(x.Y)
		}
	}
	inline(x)
}

// hint records how an unknown value is used, for its default type.
func hint(t *ir.Type, u use) {
	t = t.Resolve()
	if t.Kind != ir.KindUnknown {
		return
	}
	switch u {
	case usePrint:
		t.Hint = ir.KindString
	case useTest:
		if t.Hint == ir.KindUnknown {
			t.Hint = ir.KindBool
		}
	}
}

func (c *checker) name(e *tmpl.Name, u use) ir.Expr {
	if x := c.read(e.Name, len(c.scopes)-1, e.Span); x != nil {
		if c.wholeNamespace(x.L, e.Span) {
			return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
		}
		hint(x.L.T, u)
		return x
	}
	if c.macroAsValue(e) {
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	if x := c.global(e, u); x != nil {
		return x
	}
	return c.undefinedName(e.Name, u)
}

// global is what name is outside the template's locals: a component of
// the set, or a variable of the feed. It is nil for a name that declared
// inputs lack and that the template sets or loops over elsewhere: Jinja2
// reads the template's variable there, which is undefined.
func (c *checker) global(e *tmpl.Name, u use) ir.Expr {
	if c.macroSpecialName(e) || c.templateName(e) {
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	if x := c.componentRef(e.Name, e.Span); x != nil {
		return x
	}
	if e.Name == "loop" {
		c.errorf(e.Span, "loop is only defined inside a for loop")
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	if c.globalValue(e) {
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	f := c.feed.Field(e.Name)
	if f == nil {
		if c.feed.Declared && c.bound[e.Name] {
			return nil
		}
		if c.feed.Declared {
			c.errorf(e.Span, "undefined variable %q%s", e.Name, schema.DidYouMean(e.Name, types.FieldKeys(c.feed)))
			f = &ir.Field{Key: e.Name, Type: &ir.Type{}, Pos: c.pos(e.Span)} // keeps checking the rest
		} else {
			f = &ir.Field{Key: e.Name, Type: c.inputType(e.Name), Pos: c.pos(e.Span)}
			c.feed.Fields = append(c.feed.Fields, f)
		}
	}
	c.used[f] = true
	if !c.definedOnly[e] {
		if c.valueRead == nil {
			c.valueRead = map[*ir.Field]bool{}
		}
		c.valueRead[f] = true
	}
	if ir.IsImage(f.Type) {
		c.errorf(e.Span, "%q is an image input, not a template value: an image part of a message's content gives it whole (image: \"{{ %s }}\")", e.Name, e.Name)
		f = &ir.Field{Key: e.Name, Type: ir.DynamicType(), Pos: c.pos(e.Span)} // keeps checking the rest, whatever it does with it
	}
	return c.fieldUse(nil, c.feed, f, e.Span, u)
}

// undefinedName is a read of name where it is always undefined (global):
// a local that no set assigns, which takes its type from the read's use.
// It is declared with the outermost frame's locals, which are in scope
// wherever the read is (a loop's filter runs outside its body's frame).
func (c *checker) undefinedName(name string, u use) ir.Expr {
	sc := c.scopes[0]
	l := c.newLocal(name, c.localType(name))
	l.MaybeUndefined = true
	*sc.locals = append(*sc.locals, l)
	c.unbound[l] = true
	hint(l.T, u)
	return &ir.LocalRef{L: l}
}

func (c *checker) fieldUse(of ir.Expr, parent *ir.Type, f *ir.Field, sp tmpl.Span, u use) ir.Expr {
	hint(f.Type, u)
	x := &ir.FieldRef{Of: of, Field: f, Pos: c.posString(sp)}
	if u == useTest {
		c.guard(x)
	}
	return x
}

// guard marks an inferred variable as optional when the template tests it
// (if x, x is defined, x | default): declared inputs keep their declaration.
func (c *checker) guard(x ir.Expr) {
	f, ok := x.(*ir.FieldRef)
	if !ok {
		return
	}
	parent := c.feed
	if f.Of != nil {
		parent = f.Of.Type()
	}
	if !parent.Declared && !f.Field.Chat {
		f.Field.Optional = true
	}
}

func (c *checker) isStructLike(e tmpl.Expr) bool {
	if x, ok := c.checked[e]; ok { // the object of a get() call
		k := x.Type().Kind
		return k == ir.KindStruct || k == ir.KindUnknown
	}
	switch e := e.(type) {
	case *tmpl.Name:
		if e.Name == "loop" && c.lookup("loop") == nil && c.innerLoop() != nil {
			return true
		}
		if l := c.lookup(e.Name); l != nil {
			k := l.T.Resolve().Kind
			return k == ir.KindStruct || k == ir.KindUnknown
		}
		if f := c.feed.Field(e.Name); f != nil {
			k := f.Type.Resolve().Kind
			return k == ir.KindStruct || k == ir.KindUnknown
		}
		return true
	case *tmpl.Attr, *tmpl.Index:
		return true
	}
	return false
}

func (c *checker) attr(e tmpl.Expr, x tmpl.Expr, name string, nameSp tmpl.Span, u use) ir.Expr {
	if n, ok := x.(*tmpl.Name); ok && n.Name == "loop" && c.lookup("loop") == nil {
		loop := c.innerLoop()
		switch {
		case loop != nil && (name == "previtem" || name == "nextitem"):
			return c.loopNeighbour(loop, name, nameSp, u)
		case loop != nil && name == "cycle":
			c.errorf(nameSp, "loop.cycle is a method: call it (loop.cycle(a, b))")
			return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
		}
		k, ok := builtins.LoopAttrs[name]
		if loop == nil || !ok {
			if loop == nil {
				c.errorf(n.Span, "loop is only defined inside a for loop")
			} else {
				c.errorf(nameSp, "unknown loop attribute %q%s", name, schema.DidYouMean(name, builtins.LoopAttrNames()))
			}
			return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
		}
		if name != "length" {
			loop.Index = "i"
		}
		if name != "index" && name != "index0" && name != "first" {
			loop.Length = "n"
		}
		return &ir.LoopAttr{For: loop, Attr: name, T: &ir.Type{Kind: k}}
	}
	if v, ok := c.namespaceAttr(x, name, u); ok {
		return v
	}
	if n, ok := x.(*tmpl.Name); ok && c.lookup(n.Name) == nil && c.macroAsValue(n) {
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	of := c.armsAsValues(c.expr(x, useValue), x.Pos())
	if c.rejected[of] {
		return c.reject()
	}
	if generator(of) {
		return c.generatorKey(of, constExpr(name), e.Pos())
	}
	t := of.Type()
	_, isAttr := e.(*tmpl.Attr)
	if t.Kind == ir.KindDynamic {
		return c.dynAttr(of, name, isAttr, e.Pos())
	}
	if fails, ok := c.alwaysUndefined(of, x.Pos(), fmt.Sprintf("its attribute %q", name)); ok {
		return fails
	}
	if t.Kind == ir.KindUnknown {
		c.constrain(t, ir.KindStruct, x.Pos())
		t = t.Resolve()
		c.mustComeFromInput(t, x.Pos())
	}
	if isAttr && builtins.IsDictMethod(name) && (t.Kind == ir.KindStruct || t.Kind == ir.KindMap || t.Kind == ir.KindDict) {
		if !builtins.IsDictMethodValue(name) {
			c.errorf(nameSp, "attribute %q is the dict method in Jinja2, not the key (an object is a dict too), which promptgen does not support as a value: subscript it (['%s'])", name, name)
			return c.reject()
		}
		// Jinja2 reads the attribute before the key: the method, whatever
		// the keys (a field of that name too), after of, which fails
		// where it is undefined. No field is read, or inferred, and of
		// is not converted.
		return &ir.Dynamic{Op: ir.DynMethod, Name: name, Args: []ir.Expr{&ir.Strict{X: of, Pos: c.posString(x.Pos())}}, T: ir.DynamicType(), Pos: c.posString(e.Pos())}
	}
	switch t.Kind {
	case ir.KindStruct:
		f, ok := c.structField(t, name, nameSp)
		if !ok {
			return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
		}
		if f == nil {
			if t.Declared {
				c.errorf(nameSp, "%s has no field %q%s", describe(x), name, schema.DidYouMean(name, types.FieldKeys(t)))
				return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
			}
			f = c.inferField(t, name, nameSp, false)
		}
		if builtins.IsDictMethod(name) && !c.getReads[e] && f.Optional && builtins.IsDictMethodValue(name) && !callsIn(x) {
			// x[name] (x.name returned above), whose x the check below
			// evaluates again: not where that may change something.
			return c.keyOrMethod(e, x, of, name, nameSp, u)
		}
		if builtins.IsDictMethod(name) && !c.getReads[e] {
			c.later = append(c.later, func() {
				if f.Optional {
					c.errorf(nameSp, "[%q] reads the dict method %s where the optional %q is unset (Jinja2 falls back to the attribute)", name, name, name)
				}
			})
		}
		return c.fieldUse(of, t, f, e.Pos(), u)
	case ir.KindMap:
		if !c.getReads[e] {
			c.mapKey(name, nameSp)
		}
		hint(t.Elem, u)
		return &ir.Index{X: of, Index: constExpr(name), T: t.Elem, Pos: c.posString(e.Pos())}
	case ir.KindDict:
		return c.dictValue(of, t, name, e, nameSp)
	}
	if t.Kind == ir.KindList && isAttr && !builtins.IsListAttr(name) && types.ConvertsToDynamic(t) && !mayBeGenerator(of) {
		// Python's list has no such attribute, nor item: undefined, as
		// the runtime reads the attribute of the list as a dynamic value
		// (xs['strip'] in index). A generator has other attributes.
		c.diags.Warnf(c.pos(nameSp), "%s is a %s, it has no attribute %q: Jinja2 reads it as undefined, and so does the render", describe(x), t, name)
		return c.dynAttr(of, name, true, e.Pos())
	}
	c.errorf(nameSp, "%s is a %s, it has no attribute %q", describe(x), t, name)
	return c.reject()
}

// keyOrMethod is x[name] in e of of, an object whose field name is
// optional and names a dict method that promptgen has as a value: Jinja2
// reads the key where it is there, else falls back to the attribute, the
// method. So it is checked as x[name] if name in x else x.name, a
// dynamic value where the field's is typed.
func (c *checker) keyOrMethod(e, x tmpl.Expr, of ir.Expr, name string, nameSp tmpl.Span, u use) ir.Expr {
	key := &tmpl.Const{Span: nameSp, Value: name}
	read := &tmpl.Index{Span: e.Pos(), X: x, Index: key}
	if c.getReads == nil {
		c.getReads = map[tmpl.Expr]bool{}
	}
	c.getReads[read] = true
	return c.checkedAs(map[tmpl.Expr]ir.Expr{x: of}, func() ir.Expr {
		return c.expr(&tmpl.CondExpr{
			Span: e.Pos(),
			Cond: &tmpl.Binary{Span: e.Pos(), Op: "in", X: key, Y: x},
			Then: read,
			Else: &tmpl.Attr{Span: e.Pos(), X: x, Name: name, NameSpan: nameSp},
		}, u)
	})
}

// dictValue reads key name of a dict of type t in e (x.name or
// x['name']); see missingKey for a key it lacks.
func (c *checker) dictValue(of ir.Expr, t *ir.Type, name string, e tmpl.Expr, nameSp tmpl.Span) ir.Expr {
	f := t.Field(name)
	if f == nil {
		return c.missingKey(of, t, name, e, nameSp)
	}
	return &ir.DictValue{Of: of, Field: f, Pos: c.posString(e.Pos())}
}

// missingKeyRead is a key read of a dict literal's type that lacks it.
type missingKeyRead struct {
	dict *ir.Type
	key  string
}

// missingKey reads key name, which dicts of type t lack: undefined in
// Jinja2 (or a dict method, x['items']), whatever the dict holds, and so
// a dynamic value read from an empty dict where the dict is a local's,
// computed where it was set, else from the dict itself, converted, which
// evaluates it as Jinja2 does. Unless some read of the key of such dicts
// is tested (is defined, default), it is likely a misspelling: a warning
// says so once types are final.
func (c *checker) missingKey(of ir.Expr, t *ir.Type, name string, e tmpl.Expr, nameSp tmpl.Span) ir.Expr {
	suggest := schema.DidYouMean(name, types.FieldKeys(t))
	noKey := func() {
		c.errorf(nameSp, "dict has no key %q%s: Jinja2 reads it as undefined, which promptgen does only for a dict a name holds or one of strings, numbers, bools, none, lists and dicts", name, suggest)
	}
	switch _, local := of.(*ir.LocalRef); {
	case local:
		of = &ir.Dict{T: &ir.Type{Kind: ir.KindDict}}
	case !finalized(t):
		// A value of an input not typed yet (a string unless its uses
		// say otherwise): checked once it is, where dynOperand of the
		// read below has not reported it.
		c.later = append(c.later, func() {
			if finalized(t) && !types.ConvertsToDynamic(t) && types.OperandConverts(t) && !types.InferredObjectIn(t) {
				noKey()
			}
		})
	case !types.ConvertsToDynamic(t):
		noKey()
		return c.reject()
	}
	read := missingKeyRead{t, name}
	if c.missingKeys == nil {
		c.missingKeys = map[missingKeyRead]bool{}
	}
	tested, seen := c.missingKeys[read]
	c.missingKeys[read] = tested || c.definedTested[e]
	if !seen {
		at := c.pos(nameSp)
		c.later = append(c.later, func() {
			if !c.missingKeys[read] {
				c.diags.Warnf(at, "dict has no key %q%s: Jinja2 reads it as undefined, and so does the render (test it with is defined where that is meant)", name, suggest)
			}
		})
	}
	_, attr := e.(*tmpl.Attr)
	return c.dynAttr(of, name, attr, e.Pos())
}

// alwaysUndefined reports x, read at sp where it is always undefined
// (undefinedName, or a local read before any set of it can have run),
// when what uses it as an object: it has no type to infer, and Jinja2
// raises UndefinedError there (failsWhereRuns: where the read may not
// run, x['k'] if x else ..., the render fails where it runs). It returns
// the value of the use.
func (c *checker) alwaysUndefined(x ir.Expr, sp tmpl.Span, what string) (ir.Expr, bool) {
	ref, ok := x.(*ir.LocalRef)
	if !ok || !c.unbound[ref.L] && !c.unassigned[ref] || ref.L.T.Resolve().Kind != ir.KindUnknown {
		return nil, false
	}
	msg := fmt.Sprintf("%q is always undefined here: the template sets it (or loops over it) only where this read cannot see it, and the inputs do not declare it (Jinja2 raises UndefinedError for %s)", ref.L.Name, what)
	if c.unassigned[ref] {
		msg = fmt.Sprintf("%q is always undefined here, before any set of it in this frame can have run, whatever the data holds (Jinja2 raises UndefinedError for %s)", ref.L.Name, what)
	}
	return c.failsWhereRuns(sp, "UndefinedError", msg), true
}

// undefinedItems makes x, a read where a name is always undefined
// (undefinedName) that no use has typed yet, a dynamic value, for a
// filter that reads attribute= of its items: Jinja2 iterates undefined
// as empty, so no item is read, and a typed list of objects would come
// from no input.
func (c *checker) undefinedItems(x ir.Expr, sp tmpl.Span) {
	if ref, ok := x.(*ir.LocalRef); ok && c.unbound[ref.L] && ref.L.T.Resolve().Kind == ir.KindUnknown {
		c.unify(ref.L.T, ir.DynamicType(), sp)
	}
}

// emptyLiteralItems makes the items of x, an empty list literal at sp whose
// items a filter's attribute= reads, dynamic values where a previous
// check found them objects that no input gives (emptyLate): the literal
// has no item, so none is read, and a typed list of those objects would
// have no Go type.
func (c *checker) emptyLiteralItems(x ir.Expr, sp tmpl.Span) {
	if l, ok := x.(*ir.List); ok && len(l.Items) == 0 && c.emptyItems[c.posString(sp)] {
		if t := l.T.Resolve(); t.Kind == ir.KindList && t.Elem.Resolve().Kind == ir.KindUnknown {
			c.unify(t.Elem, ir.DynamicType(), sp)
		}
	}
}

// noInputObjects reports, once types are final, whether the items of x,
// read by a filter's attribute=, are objects that no input gives, and
// where x is an empty list literal at sp records it for the next check
// (emptyLiteralItems).
func (c *checker) noInputObjects(x ir.Expr, sp tmpl.Span) bool {
	if t := x.Type().Resolve(); t.Kind != ir.KindList || types.FromFeed(c.feed, t.Elem) {
		return false
	}
	if l, ok := x.(*ir.List); ok && len(l.Items) == 0 {
		c.emptyLate[c.posString(sp)] = true
	}
	return true
}

// isConstString reports whether x is a string constant.
func isConstString(x ir.Expr) bool {
	k, ok := x.(*ir.Const)
	return ok && isStringValue(k.Value)
}

// itemOf reports whether list is a list whose items are of type item.
func itemOf(list, item *ir.Type) bool {
	list = list.Resolve()
	return list.Kind == ir.KindList && list.Elem.Resolve() == item.Resolve()
}

// hasKwarg reports whether e has the keyword argument name.
func hasKwarg(e *tmpl.Filter, name string) bool {
	return slices.ContainsFunc(e.Kwargs, func(kw tmpl.Kwarg) bool { return kw.Name == name })
}

// mustComeFromInput rejects, once every use is known, an object or map
// inferred from its uses whose value comes from no input (the items of an
// empty list literal): its Go type would have no name.
func (c *checker) mustComeFromInput(t *ir.Type, pos tmpl.Span) {
	c.later = append(c.later, func() {
		if !types.FromFeed(c.feed, t) {
			c.errorf(pos, "an object here comes from no input (the items of an empty list literal have no fields)")
		}
	})
}

// describe names an expression in messages: its source-like path.
func describe(e tmpl.Expr) string {
	switch e := e.(type) {
	case *tmpl.Name:
		return fmt.Sprintf("%q", e.Name)
	case *tmpl.Attr:
		return strings.TrimSuffix(describe(e.X), `"`) + "." + e.Name + `"`
	}
	return "the value"
}

// exprPath is the path of a name or attribute chain ("x", "x.y"), or "".
func exprPath(e tmpl.Expr) string {
	switch e := e.(type) {
	case *tmpl.Name:
		return e.Name
	case *tmpl.Attr:
		if p := exprPath(e.X); p != "" {
			return p + "." + e.Name
		}
	}
	return ""
}

// addDictUses adds to uses the paths of body whose attributes, constant
// keys or dict methods it reads: values that are objects, whose type an
// earlier 'k' in x would otherwise make a string.
func addDictUses(uses map[string]bool, body []tmpl.Node) {
	add := func(x tmpl.Expr) {
		if p := exprPath(x); p != "" {
			uses[p] = true
		}
	}
	tmpl.Inspect(body, func(tmpl.Node) {}, func(e tmpl.Expr) {
		switch e := e.(type) {
		case *tmpl.Attr:
			add(e.X)
		case *tmpl.Index:
			if k, ok := e.Index.(*tmpl.Const); ok {
				if _, ok := k.Value.(string); ok {
					add(e.X)
				}
			}
		case *tmpl.Call:
			if fn, ok := e.Fn.(*tmpl.Attr); ok && builtins.IsDictMethod(fn.Name) {
				add(fn.X)
			}
		}
	})
}

// mapKey rejects a constant map key that names a dict method: where the
// map lacks it, Jinja2 falls back to the attribute, the method.
func (c *checker) mapKey(key string, sp tmpl.Span) {
	if builtins.IsDictMethod(key) {
		c.errorf(sp, "[%q] reads the dict method %s where the map has no such key (Jinja2 falls back to the attribute)", key, key)
	}
}

func (c *checker) index(e *tmpl.Index, u use) ir.Expr {
	x := c.armsAsValues(c.expr(e.X, useValue), e.X.Pos())
	if c.rejected[x] {
		c.expr(e.Index, useValue)
		return c.reject()
	}
	if _, ok := e.Index.(*tmpl.Tuple); ok {
		c.errorf(e.Index.Pos(), "a tuple subscript x[a, b] reads nothing in Jinja2 (no key or index of the data is a tuple): not supported")
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	i := c.expr(e.Index, useValue)
	if c.rejected[i] {
		return c.reject()
	}
	if generator(x) {
		return c.generatorIndex(x, i, e)
	}
	t := x.Type()
	if t.Kind == ir.KindDynamic {
		if k, ok := e.Index.(*tmpl.Const); ok {
			if s, ok := k.Value.(string); ok {
				return c.dynAttr(x, s, false, e.Span)
			}
		}
		return c.dyn(ir.DynItem, "", ir.DynamicType(), e.Span, x, i)
	}
	if k, ok := e.Index.(*tmpl.Const); ok && t.Kind == ir.KindStruct {
		if s, ok := k.Value.(string); ok {
			// An object that no name holds (x.get('k', {})['a']): a key
			// of it is its attribute, as for one that a name holds.
			return c.checkedAs(map[tmpl.Expr]ir.Expr{e.X: x}, func() ir.Expr { return c.attr(e, e.X, s, k.Span, u) })
		}
	}
	c.staysTyped(e.Span, x)
	if t.Kind == ir.KindUnknown {
		if i.Type().Kind == ir.KindString {
			c.constrain(t, ir.KindMap, e.X.Pos())
		} else {
			c.constrain(t, ir.KindList, e.X.Pos())
		}
		t = t.Resolve()
	}
	if t.Kind == ir.KindDict {
		if k, ok := i.(*ir.Const); ok && i.Type().Kind == ir.KindString {
			return c.dictValue(x, t, k.Value.(string), e, e.Index.Pos())
		}
		if types.ConvertsToDynamic(t) {
			// Which key is read is known at run time only: the value
			// read is dynamic (risk_bank[requested_risk]).
			return c.dyn(ir.DynItem, "", ir.DynamicType(), e.Span, x, i)
		}
		c.errorf(e.Index.Pos(), "a dict literal can only be subscripted with a string constant (or, when its values are strings, numbers, bools, none, or lists and dicts of them, with any key)")
		return &ir.Const{T: &ir.Type{Kind: ir.KindNone}}
	}
	if types.HoldsDynamic(i.Type()) && (t.Kind == ir.KindList || t.Kind == ir.KindString || t.Kind == ir.KindMap) ||
		i.Type().Kind == ir.KindFloat && (t.Kind == ir.KindList || t.Kind == ir.KindString) ||
		isConstString(i) && !builtins.IsListAttr(i.(*ir.Const).Value.(string)) && t.Kind == ir.KindList && types.ConvertsToDynamic(t) ||
		isConstString(i) && !builtins.IsStrAttr(i.(*ir.Const).Value.(string)) && t.Kind == ir.KindString {
		// An index known at run time only, or a number, or a constant
		// string of a list or string that names none of its attributes:
		// Python's subscript of the value, undefined where it fails (a
		// float, a missing key, xs['strip'], s['0']), or an attribute it
		// names (xs['append']).
		return c.dyn(ir.DynItem, "", ir.DynamicType(), e.Span, x, i)
	}
	if (t.Kind == ir.KindList || t.Kind == ir.KindString) && neverAnIndex(i, t) {
		// Python's list and str take an int or a slice only, and of
		// another key Jinja2's getitem yields undefined (['a'][none],
		// 's'[[1]], []['k']), after it evaluated both.
		then := &ir.Index{X: x, Index: constExpr(int64(0)), T: &ir.Type{Kind: ir.KindString}, Pos: c.posString(e.Span)}
		if t.Kind == ir.KindList {
			then.T = t.Elem
		}
		evaluated := slices.DeleteFunc([]ir.Expr{x, i}, func(x ir.Expr) bool { return !mayFail(x) })
		return &ir.Cond{Cond: &ir.Unary{Op: "not", X: evaluatedTrue(evaluated...), T: &ir.Type{Kind: ir.KindBool}}, Then: then, T: then.T}
	}
	out := &ir.Index{X: x, Index: i, Pos: c.posString(e.Span)}
	switch t.Kind {
	case ir.KindList:
		c.intIndex(i, e.Index.Pos())
		out.T = t.Elem
	case ir.KindString:
		c.intIndex(i, e.Index.Pos())
		out.T = &ir.Type{Kind: ir.KindString}
	case ir.KindMap:
		c.constrain(i.Type(), ir.KindString, e.Index.Pos())
		if k, ok := i.(*ir.Const); ok {
			if key, ok := k.Value.(string); ok && !c.getReads[e] {
				c.mapKey(key, e.Index.Pos())
			}
		}
		out.T = t.Elem
	case ir.KindStruct:
		c.errorf(e.Span, "cannot read an object with a key known at run time only: promptgen reads an object's fields by name (declare it in inputs as a map, whose keys any string reads)")
		out.T = &ir.Type{Kind: ir.KindNone}
	default:
		c.errorf(e.Span, "cannot index %s", t)
		out.T = &ir.Type{Kind: ir.KindNone}
	}
	if isName(i) && ir.MaybeUndefined(i) {
		// Jinja2's getitem catches what Python raises of an Undefined
		// key (TypeError, KeyError): the item is undefined there.
		return &ir.Cond{Cond: &ir.Call{Kind: ir.CallTest, Name: "defined", X: i, T: &ir.Type{Kind: ir.KindBool}, Pos: out.Pos}, Then: out, T: out.T}
	}
	return out
}

// neverAnIndex reports whether i, a subscript of t, a list or string,
// is a key that Python's list or str refuses whatever its value, and
// that names no attribute of it: none, a list, map, dict or object, or
// of a list that no other type can hold, a string constant that names
// no list method.
func neverAnIndex(i ir.Expr, t *ir.Type) bool {
	switch i.Type().Resolve().Kind {
	case ir.KindNone, ir.KindList, ir.KindMap, ir.KindDict, ir.KindStruct:
		return true
	}
	return isConstString(i) && t.Kind == ir.KindList && !builtins.IsListAttr(i.(*ir.Const).Value.(string))
}

// mayFail reports whether evaluating x may fail: of a list or dict
// literal, evaluating an item.
func mayFail(x ir.Expr) bool {
	switch l := x.(type) {
	case *ir.List:
		return slices.ContainsFunc(l.Items, mayFail)
	case *ir.Dict:
		return slices.ContainsFunc(l.Values, mayFail)
	}
	return !cannotFail(x)
}

// isName reports whether x is a variable or a field of the inputs, which
// reads nothing else and can be read twice.
func isName(x ir.Expr) bool {
	switch x.(type) {
	case *ir.LocalRef, *ir.FieldRef:
		return true
	}
	return false
}

// generatorIndex is g[i] of g, a generator (or a list's reverse
// iterator), which Python cannot subscript: Jinja2's getitem yields
// undefined, after it evaluated the filter's operand and arguments and
// the index, and never runs the filter. So it is g[i] if not (their
// evaluation, true): undefined, and the item is never read.
//
// A string or dynamic index (a string at run time) is read by Jinja2 as
// an attribute of the generator object where it names one (send): g[i]
// is then the iterator item of i where g is true, after g's evaluation.
func (c *checker) generatorIndex(g, i ir.Expr, e *tmpl.Index) ir.Expr {
	c.iterate(g) // its one use
	switch k := i.Type().Kind; {
	case k == ir.KindString || types.HoldsDynamic(i.Type()):
		return c.generatorKey(g, i, e.Span)
	case k == ir.KindUnknown:
		c.intIndex(i, e.Index.Pos())
	}
	// Any other index (an int, a number, a list) is undefined: then,
	// never run, types it, with an int index.
	idx := i
	if k := i.Type().Resolve().Kind; k != ir.KindInt && k != ir.KindBool && k != ir.KindUnknown {
		idx = constExpr(int64(0))
	}
	var then ir.Expr
	switch elem := g.Type().Elem; {
	case isDynamic(g):
		then = c.dyn(ir.DynItem, "", ir.DynamicType(), e.Span, g, idx)
	case elem == nil:
		// g's operand is no list (a name a macro that calls itself
		// cannot read), which is reported
		return g
	default:
		then = &ir.Index{X: g, Index: idx, T: elem, Pos: c.posString(e.Span)}
	}
	return &ir.Cond{Cond: &ir.Unary{Op: "not", X: lazyTrue(g, i), T: &ir.Type{Kind: ir.KindBool}}, Then: then, T: then.Type()}
}

// generatorKey is g[key] or g.key of g, a generator, where key is a
// string (or a dynamic value): the attribute of the Python object it
// names (send), else undefined, after g's operand and arguments are
// evaluated (Jinja2's getattr and getitem agree on a generator, which
// has no items).
func (c *checker) generatorKey(g, key ir.Expr, sp tmpl.Span) ir.Expr {
	c.iterate(g) // its one use
	item := c.dyn(ir.DynIterItem, iteratorType(g), ir.DynamicType(), sp, key)
	return &ir.Cond{Cond: lazyTrue(g), Then: item, T: item.Type()}
}

// iteratorType is the Python type of g, a generator (see generator):
// list_reverseiterator where reverse makes it of a list.
func iteratorType(g ir.Expr) string {
	switch g := g.(type) {
	case *ir.Call:
		if g.Name == "reverse" {
			return "list_reverseiterator"
		}
	case *ir.Dynamic:
		if g.Op == ir.DynFilter && g.Name == "reverse" {
			return "list_reverseiterator"
		}
	}
	return "generator"
}

func isStringValue(v any) bool {
	_, ok := v.(string)
	return ok
}

// intIndex requires an index or slice bound to be an int. A number as a
// slice bound makes Jinja2 fail (TypeError); an index that becomes one
// after this use is an error too (one that is a number here is Python's
// subscript, see index).
func (c *checker) intIndex(i ir.Expr, sp tmpl.Span) {
	c.constrain(i.Type(), ir.KindInt, sp)
	c.later = append(c.later, func() {
		if i.Type().Resolve().Kind == ir.KindFloat {
			c.errorf(sp, "an index must be an int, not a number")
		}
	})
}

func (c *checker) slice(e *tmpl.Slice) ir.Expr {
	x := c.expr(e.X, useValue)
	if c.rejected[x] {
		return c.reject()
	}
	t := x.Type()
	if t.Kind == ir.KindDynamic {
		bounds := make([]ir.Expr, 3)
		for i, b := range []tmpl.Expr{e.Lo, e.Hi, e.Step} {
			if b != nil {
				bounds[i] = c.expr(b, useValue)
				c.intIndex(bounds[i], b.Pos())
			}
		}
		return &ir.Dynamic{Op: ir.DynSlice, Args: append([]ir.Expr{x}, bounds...), T: ir.DynamicType(), Pos: c.posString(e.Span)}
	}
	c.staysTyped(e.Span, x)
	if t.Kind == ir.KindUnknown && t.Hint != ir.KindList && t.Hint != ir.KindString {
		// Jinja2 slices a string into a string: a use of the result or of
		// the operand as a string makes it one, else it is a list (also
		// where arithmetic hinted a number: x + y of lists or strings).
		t.Hint = ir.KindList
	}
	out := &ir.Slice{X: x, T: t, Pos: c.posString(e.Span)}
	for _, p := range []struct {
		src tmpl.Expr
		dst *ir.Expr
	}{{e.Lo, &out.Lo}, {e.Hi, &out.Hi}, {e.Step, &out.Step}} {
		if p.src != nil {
			*p.dst = c.expr(p.src, useValue)
			c.intIndex(*p.dst, p.src.Pos())
		}
	}
	if k, ok := e.Step.(*tmpl.Const); ok && k.Value == int64(0) {
		c.errorf(k.Span, "slice step cannot be zero")
	}
	if generator(x) && c.folded == e {
		// Of constants only: never run.
		c.iterate(x)
		return &ir.Cond{Cond: constExpr(false), Then: out, T: t}
	}
	if generator(x) {
		if g, ok := c.misusedSlice(e, x, []ir.Expr{out.Lo, out.Hi, out.Step}); ok {
			return g
		}
	}
	if t.Kind == ir.KindUnknown {
		c.later = append(c.later, func() { c.sliceable(t, e.Span) })
	} else {
		c.sliceable(t, e.Span)
	}
	return out
}

// sliceable rejects a slice of t, unless t is a list or string.
func (c *checker) sliceable(t *ir.Type, sp tmpl.Span) {
	if t = t.Resolve(); t.Kind != ir.KindList && t.Kind != ir.KindString {
		c.errorf(sp, "cannot slice %s", t)
	}
}

func (c *checker) unary(e *tmpl.Unary, u use) ir.Expr {
	if e.Op == "not" {
		x := c.condition(e.X)
		return &ir.Unary{Op: "not", X: x, T: &ir.Type{Kind: ir.KindBool}, Pos: c.posString(e.Span)}
	}
	x := c.expr(e.X, useValue)
	t := x.Type()
	if t.Kind == ir.KindDynamic {
		if e.Op == "+" {
			return c.dyn(ir.DynArith, "+", ir.DynamicType(), e.Span, constExpr(int64(0)), x)
		}
		return c.dyn(ir.DynNeg, "", ir.DynamicType(), e.Span, x)
	}
	x = c.boolAsInt(e.Span, e.X, x)
	t = x.Type()
	if k := t.Resolve().Kind; k != ir.KindUnknown && k != ir.KindInt && k != ir.KindFloat && !c.rejected[x] {
		return c.failsWhereRuns(e.Span, "TypeError", fmt.Sprintf("operator %s needs a number, not %s", e.Op, t), x)
	}
	c.staysTyped(e.Span, x)
	if t.Kind == ir.KindUnknown {
		c.constrain(t, ir.KindInt, e.X.Pos())
	}
	out := &ir.Unary{Op: e.Op, X: x, T: x.Type(), Pos: c.posString(e.Span)}
	c.later = append(c.later, func() {
		if k := out.T.Resolve().Kind; k != ir.KindInt && k != ir.KindFloat {
			c.errorf(e.Span, "operator %s needs a number, not %s", e.Op, out.T)
		}
		c.checkConstInt(out, e.Span)
	})
	return out
}

// logic checks an and/or whose value is used, which yields one of its
// operands as in Python: a or b is a when a is true, else b; a and b is b
// when a is true, else a. Operands that are and/or themselves are chosen
// from where they stand, so only the operands it can yield (yields) decide
// its type: flag and 'x' or 'y' is a string. Operands of different types
// make it mixed: typed as its str(), which is right only where it is
// printed (u == usePrint).
func (c *checker) logic(e *tmpl.Binary, u use) (out *ir.Binary, mixed bool) {
	operand := func(x tmpl.Expr, u use) ir.Expr {
		b, ok := x.(*tmpl.Binary)
		for ok && (b.Op == "and" || b.Op == "or") {
			y, decided := decidedByLiteral(b)
			if !decided {
				x, _ := c.logic(b, u)
				return x
			}
			x = y
			b, ok = x.(*tmpl.Binary)
		}
		return c.expr(x, u)
	}
	// The left operand is tested, so it is a value, not its str().
	lu := useValue
	if b, ok := e.X.(*tmpl.Binary); ok && (b.Op == "and" || b.Op == "or") {
		lu = u
	}
	x := operand(e.X, lu)
	c.guard(x)
	hint(x.Type(), u)
	yu := u
	if _, ok := e.Y.(*tmpl.Name); ok && u == usePrint {
		yu = useValue // hinted below where it takes no other operand's type
	}
	y := c.optionally(e.Y, func(y tmpl.Expr) ir.Expr { return operand(y, yu) })
	out = &ir.Binary{Op: e.Op, X: x, Y: y, Value: true, Pos: c.posString(e.Span)}
	leaves := builtins.Yields(out)
	for _, l := range leaves {
		if types.HoldsDynamic(l.Type()) { // a dynamic value, or a list of them (messages)
			for _, l := range leaves {
				c.dynOperand(l, e.Span)
			}
			out.T = ir.DynamicType()
			return out, false
		}
	}
	deferred := false
	for i, a := range leaves {
		for _, b := range leaves[:i] {
			if u == usePrint && c.printedFallback(out, a, b) {
				deferred = deferred || a == y || b == y
				continue
			}
			if types.Unifiable(a.Type(), b.Type()) {
				c.unify(b.Type(), a.Type(), e.Span)
			}
		}
	}
	if !deferred {
		hint(y.Type(), u)
	}
	return out, c.logicType(out)
}

// printedFallback relates two operands of a printed and/or where one is of
// a known type and the other's is still unknown: the unknown one takes the
// known type once the template is checked, unless another use made it a
// list ({{ 1.0 or n }}{{ n|reverse }}), as printing needs no one type.
// It reports whether it did so.
func (c *checker) printedFallback(out *ir.Binary, a, b ir.Expr) bool {
	at, bt := a.Type().Resolve(), b.Type().Resolve()
	if bt.Kind == ir.KindUnknown {
		at, bt = bt, at
	}
	if at.Kind != ir.KindUnknown || at.Declared || bt.Kind == ir.KindUnknown || bt.Kind == ir.KindList {
		return false
	}
	c.inferLater = append(c.inferLater, func() {
		switch t := at.Resolve(); {
		case t.Kind == ir.KindUnknown && t.Hint == ir.KindList:
		case types.Unifiable(t, bt):
			types.Unify(t, bt) // no mismatch: Unifiable
		default:
			hint(t, usePrint)
		}
		c.logicType(out)
	})
	return true
}

// logicType sets the type of and/or's value out from the operands it
// yields: theirs where they share one, else the str() of either, and
// reports whether they are mixed so.
func (c *checker) logicType(out *ir.Binary) (mixed bool) {
	leaves := builtins.Yields(out)
	out.T = leaves[0].Type()
	for _, l := range leaves {
		if !ir.SameKind(l.Type(), out.T) {
			out.T, mixed = &ir.Type{Kind: ir.KindString}, true
		}
	}
	return mixed
}

// mixedAsDynamic makes the values that an and/or or a conditional yields,
// of several types and used as a value, dynamic operands, and reports
// whether it did: a dynamic value holds each with its own type, as Python
// does. Not where one is of a type still unknown or that does not convert
// (an object), nor a generator, which is true even when empty.
func (c *checker) mixedAsDynamic(yields []ir.Expr, sp tmpl.Span) bool {
	var empty []*ir.Type // the items of empty list literals, of no type yet
	for _, x := range yields {
		if l, ok := x.(*ir.List); ok && len(l.Items) == 0 && l.T.Resolve().Kind == ir.KindList && l.T.Resolve().Elem.Resolve().Kind == ir.KindUnknown {
			empty = append(empty, l.T.Resolve().Elem)
		}
	}
	if len(empty) > 0 && convertsMixed(slices.DeleteFunc(slices.Clone(yields), func(x ir.Expr) bool { l, ok := x.(*ir.List); return ok && len(l.Items) == 0 })) {
		// An empty literal holds no item: a list of dynamic values
		// (s or [] of a string s).
		for _, t := range empty {
			c.unify(t, ir.DynamicType(), sp)
		}
	}
	if !convertsMixed(yields) {
		return false
	}
	for _, x := range yields {
		c.dynOperand(x, sp)
	}
	return true
}

// convertsMixed reports whether values of several types that an
// expression yields can make it a dynamic value (see mixedAsDynamic).
func convertsMixed(yields []ir.Expr) bool {
	for _, x := range yields {
		if t := x.Type(); !finalized(t) || !types.ConvertsToDynamic(t) || mayYieldGenerator(x) {
			return false
		}
	}
	return true
}

// kindsOf lists the types of xs for messages: "int or string".
func kindsOf(xs []ir.Expr) string {
	var kinds []string
	for _, x := range xs {
		if n := x.Type().String(); !slices.Contains(kinds, n) {
			kinds = append(kinds, n)
		}
	}
	return strings.Join(kinds, " or ")
}

// printable checks, once types are final, that a printed value prints.
func (c *checker) printable(x ir.Expr, sp tmpl.Span) {
	c.readsWhole(x, sp, "printing")
	c.later = append(c.later, func() {
		if x.Type().Kind == ir.KindUnknown {
			c.errorf(sp, "cannot infer the type of this value (declare it in inputs)")
		}
	})
}
