package check

import (
	"fmt"
	"slices"

	"github.com/promptgen/promptgen/gen/internal/builtins"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
)

// Operations on dynamic values (ir.KindDynamic): the chat context's
// messages, tools and documents, and what a template computes from them.
// The checker types them as dynamic and leaves the decision to the run
// time (runtime/jinja.Value), which has Python's semantics; an operation
// with a dynamic operand is an ir.Dynamic, whose typed operands the
// backends convert.

func isDynamic(x ir.Expr) bool { return x.Type().Kind == ir.KindDynamic }

// staysTyped checks, once types are final, that the operands of an
// operation decided as typed did not become dynamic: a local set to a
// dynamic value after this use, or an input that is also such a local.
func (c *checker) staysTyped(sp tmpl.Span, xs ...ir.Expr) {
	c.later = append(c.later, func() {
		for _, x := range xs {
			if isDynamic(x) && !c.failedAt(sp) {
				switch x := x.(type) {
				case *ir.LocalRef:
					c.rebinding[x.L.Name] = true // checked again with the local dynamic
				case *ir.FieldRef:
					if x.Of == nil && !c.feed.Declared {
						c.rebinding[x.Field.Key] = true // and the input inferred dynamic
					} else if p, ok := c.inferredFieldPath(x); ok {
						c.rebinding[p] = true // and the field inferred dynamic
					}
				}
				c.errorf(sp, "an operand here becomes a dynamic value (it is set to one elsewhere) after this use was typed: not supported")
				return
			}
		}
	})
}

// dyn returns the operation op on args, of type t.
func (c *checker) dyn(op ir.DynOp, name string, t *ir.Type, sp tmpl.Span, args ...ir.Expr) *ir.Dynamic {
	for i, a := range args {
		c.dynOperand(a, sp)
		c.methodOperand(op, name, i, a, sp)
	}
	out := &ir.Dynamic{Op: op, Name: name, Args: args, T: t, Pos: c.posString(sp)}
	c.dyns = append(c.dyns, dynAt{out, c.pos(sp)})
	return out
}

// dynOperand checks, once types are final, that a typed operand of a
// dynamic operation converts to a dynamic value (types.OperandConverts):
// an object or a map converts field by field, so every field of a bound
// Go type in it must be readable. An object whose fields are inferred
// must have every key read of a dynamic value among them
// (checkDynObjects).
func (c *checker) dynOperand(x ir.Expr, sp tmpl.Span) {
	if x == nil {
		return
	}
	hint(x.Type(), usePrint)
	c.readsWhole(x, sp, "converting it to a dynamic value")
	c.later = append(c.later, func() {
		switch t := x.Type(); {
		case !finalized(t):
		case !types.OperandConverts(t):
			c.errorf(sp, "%s cannot be used with a dynamic value (only strings, numbers, bools, none, objects, maps, and lists and dicts of them)", ir.A(t))
		case types.InferredObjectIn(t):
			c.dynObject(x, sp)
		}
	})
}

// dynObject records x, which holds an object whose fields are inferred,
// made a dynamic value at sp (see checkDynObjects).
func (c *checker) dynObject(x ir.Expr, sp tmpl.Span) {
	c.dynObjects = append(c.dynObjects, objectAt{x, c.pos(sp)})
}

// objectAt is a value that holds an object and where it is.
type objectAt struct {
	x   ir.Expr
	pos src.Pos
}

// checkDynObjects rejects, once every check is done, each object whose
// fields are inferred (from the template's reads of it) made a dynamic
// value, where a read of a dynamic value may add a field to it: the dict
// it becomes holds only the fields inferred, so a key read through a
// dynamic value (xs[0].email of [user, x]) would be undefined whatever
// the data. That is so where a dynamic value that may hold such an object
// (holdsDynObject) is read with a key (an attribute, a constant key,
// get(), 'k' in, a filter's attribute=) that is not a field of every such
// object, or with a key known only when rendering.
func (c *checker) checkDynObjects() {
	if len(c.dynObjects) == 0 {
		return
	}
	holds := c.localsHoldingDynObjects()
	var reads []keyAt
	for _, r := range c.dynKeys {
		if c.holdsDynObject(r.of, holds) {
			reads = append(reads, r)
		}
	}
	for _, d := range c.dyns {
		var k ir.Expr
		switch d.x.Op {
		case ir.DynAttr:
			k = constExpr(d.x.Name)
		case ir.DynItem, ir.DynGet:
			k = d.x.Args[1]
		case ir.DynContains:
			k = d.x.Args[0]
			if !c.holdsDynObject(d.x.Args[1], holds) {
				continue
			}
		}
		if k == nil || c.failedAtPos(d.pos) || d.x.Op != ir.DynContains && !c.holdsDynObject(d.x.Args[0], holds) {
			continue
		}
		if kc, ok := k.(*ir.Const); ok {
			if s, ok := kc.Value.(string); ok {
				reads = append(reads, keyAt{s, nil, d.x.Pos})
			}
		} else if kk := k.Type().Kind; kk != ir.KindInt && kk != ir.KindBool && kk != ir.KindFloat && kk != ir.KindNone {
			reads = append(reads, keyAt{"", nil, d.x.Pos})
		}
	}
	const what, why = "an object whose fields promptgen infers from the template's reads (in %s) becomes a dynamic value here", "a read of the dict it becomes adds no field (declare its fields in inputs)"
objects:
	for _, o := range c.dynObjects {
		if c.failedAtPos(o.pos) {
			continue
		}
		t := o.x.Type()
		for _, r := range reads {
			if r.key == "" {
				c.diags.Errorf(o.pos, what+", and a dynamic value that may hold it is read at %s with a key known only when rendering: "+why, ir.A(t), r.at)
				continue objects
			}
			for _, obj := range inferredObjects(t, nil) {
				if obj.Field(r.key) == nil {
					c.diags.Errorf(o.pos, what+", and a dynamic value that may hold it is read at %s with the key %q, which is not one of its fields: "+why, ir.A(t), r.at, r.key)
					continue objects
				}
			}
		}
	}
}

// keyAt is a key read of a dynamic value of, and where; key is "" where
// it is known only when rendering.
type keyAt struct {
	key string
	of  ir.Expr
	at  string
}

// localsHoldingDynObjects returns the locals that may hold an object
// whose fields are inferred as a dynamic value (holdsDynObject), as true,
// and those that a set or a loop assigns that do not, as false.
func (c *checker) localsHoldingDynObjects() map[*ir.Local]bool {
	values := map[*ir.Local][]ir.Expr{}
	for _, s := range c.sets {
		values[s.Local] = append(values[s.Local], s.Value)
	}
	for _, f := range c.loops {
		for _, l := range append([]*ir.Local{f.Key, f.Value}, f.Unpack...) {
			if l != nil {
				values[l] = append(values[l], f.Iter)
			}
		}
	}
	holds := map[*ir.Local]bool{}
	for l := range values {
		holds[l] = false
	}
	for changed := true; changed; {
		changed = false
		for l, vs := range values {
			if !holds[l] && slices.ContainsFunc(vs, func(x ir.Expr) bool { return c.holdsDynObject(x, holds) }) {
				holds[l], changed = true, true
			}
		}
	}
	return holds
}

// holdsDynObject reports whether x may hold an object whose fields are
// inferred, as a dynamic value it became: a typed value holding one, or a
// dynamic value made of such values, or a local that holds says does.
// The feed's dynamic values hold JSON data. What it cannot follow (a
// local no set or loop assigns, a filter's result) may hold one.
func (c *checker) holdsDynObject(x ir.Expr, holds map[*ir.Local]bool) bool {
	if x == nil {
		return false
	}
	if x.Type().Kind != ir.KindDynamic {
		return types.InferredObjectIn(x.Type())
	}
	some := func(xs ...ir.Expr) bool {
		return slices.ContainsFunc(xs, func(x ir.Expr) bool { return c.holdsDynObject(x, holds) })
	}
	switch x := x.(type) {
	case *ir.List:
		return some(x.Items...)
	case *ir.Dict:
		return some(x.Values...)
	case *ir.Cond:
		return some(x.Then, x.Else)
	case *ir.Binary:
		return some(x.X, x.Y)
	case *ir.Strict:
		return some(x.X)
	case *ir.FieldRef:
		return x.Of != nil && some(x.Of)
	case *ir.Dynamic:
		return some(x.Args...)
	case *ir.LocalRef:
		h, ok := holds[x.L]
		return h || !ok
	}
	return true
}

// inferredObjects appends to out the objects whose fields are inferred
// that t holds.
func inferredObjects(t *ir.Type, out []*ir.Type) []*ir.Type {
	switch t = t.Resolve(); t.Kind {
	case ir.KindList, ir.KindMap:
		return inferredObjects(t.Elem, out)
	case ir.KindStruct, ir.KindDict:
		if t.Kind == ir.KindStruct && !t.Declared && t.Go == nil && !slices.Contains(out, t) {
			out = append(out, t)
		}
		for _, f := range t.Fields {
			out = inferredObjects(f.Type, out)
		}
	}
	return out
}

// finalized reports whether t got its final type once the checks are
// done: a type still unknown is of an expression that is not in the IR,
// as a use of it was rejected (and reported there).
func finalized(t *ir.Type) bool {
	unknown := map[*ir.Type]bool{}
	types.AddUnknown(t, unknown)
	return len(unknown) == 0
}

// dynAttr is x.name, or with attr unset x['name'], of a dynamic x. Jinja2
// reads the attribute of the Python value first for x.name, and for
// x['name'] where there is no such key: a method of a dict, str or list
// is a dynamic value of its own, which promptgen does not print, and
// the other attributes fail the render (jinja.Value.Attr and Item).
func (c *checker) dynAttr(of ir.Expr, name string, attr bool, sp tmpl.Span) ir.Expr {
	if !attr {
		return c.dyn(ir.DynItem, "", ir.DynamicType(), sp, of, constExpr(name))
	}
	return c.dyn(ir.DynAttr, name, ir.DynamicType(), sp, of)
}

// dynBinary checks a binary operator with a dynamic operand.
func (c *checker) dynBinary(e *tmpl.Binary, x, y ir.Expr) ir.Expr {
	if c.isPrintf(e, x) {
		return c.printf(x, y, e.Span)
	}
	switch e.Op {
	case "==", "!=":
		return c.dyn(ir.DynEqual, e.Op, &ir.Type{Kind: ir.KindBool}, e.Span, x, y)
	case "<", "<=", ">", ">=":
		return c.dyn(ir.DynCompare, e.Op, &ir.Type{Kind: ir.KindBool}, e.Span, x, y)
	case "in", "not in":
		return c.dyn(ir.DynContains, e.Op, &ir.Type{Kind: ir.KindBool}, e.Span, x, y)
	}
	return c.dyn(ir.DynArith, e.Op, ir.DynamicType(), e.Span, x, y)
}

// dynMethod checks method name of a dynamic x: the dict methods get,
// keys and values (items only as a loop's iterable, see items); a str
// method is called on x as a string, and fails where x is not one.
func (c *checker) dynMethod(e *tmpl.Call, fn *tmpl.Attr, x ir.Expr) (ir.Expr, bool) {
	switch fn.Name {
	case "get":
		args := c.bindArgs("get()", []ir.Param{{Name: "key", Required: true}, {Name: "default"}}, e.Args, e.Kwargs, e.Span)
		return c.dyn(ir.DynGet, "", ir.DynamicType(), e.Span, x, args[0], args[1]), true
	case "keys", "values", "items":
		if len(e.Args) > 0 || len(e.Kwargs) > 0 {
			c.errorf(e.Span, "%s() takes no arguments", fn.Name)
		}
		op := map[string]ir.DynOp{"keys": ir.DynKeys, "values": ir.DynValues, "items": ir.DynItems}[fn.Name]
		if e != c.loopIter && fn.Name == "items" {
			op = ir.DynItemsList
		}
		d := c.dyn(op, "", ir.DynamicType(), e.Span, x)
		d.Method = true
		if e != c.loopIter {
			c.mustIterateMsg(d, fn.NameSpan, fmt.Sprintf("%s() yields a dict view in Jinja2, which prints as dict_%s([...]): loop over it, join it, take its length, or convert it with | list", fn.Name, fn.Name))
		}
		return d, true
	}
	return c.dyn(ir.DynAsString, "", &ir.Type{Kind: ir.KindString}, fn.Span, x), false
}

// tuple is a tuple literal, a dynamic value: Python prints it as ('a', 1),
// and Jinja2 iterates, indexes and compares it as the sequence it is.
func (c *checker) tuple(e *tmpl.Tuple) ir.Expr {
	return c.tupleOf(e.Items, e.Span)
}

// tupleOf is the tuple of the values of items. Jinja2 keeps a tojson or
// safe result as Markup inside a tuple, which prints as Markup('...'): an
// item that the dynamic value may not keep as Markup where Jinja2's is
// (builtins.Markup.KeptOperand: a condition is kept branch by branch) is
// rejected.
func (c *checker) tupleOf(items []tmpl.Expr, sp tmpl.Span) ir.Expr {
	values := make([]ir.Expr, len(items))
	for i, it := range items {
		values[i] = c.asIterator(c.expr(it, useValue), it.Pos())
		c.later = append(c.later, func() {
			if c.markup(values[i]) && !c.markups.KeptOperand(values[i]) {
				c.rebindMarkup(values[i])
				c.errorf(it.Pos(), "a value that may or may not be a tojson or safe result cannot be a tuple item: Jinja2 keeps Markup as it is inside a tuple, which prints as Markup('...') ("+toPlain+")")
			}
		})
	}
	return c.dyn(ir.DynTuple, "", ir.DynamicType(), sp, values...)
}

// methodFails are the operations that fail on a method operand (the
// operand's index, -1 for any), by what Jinja2 does: raises TypeError
// or UndefinedError (an attribute of the method, called), or makes a
// string of it, which holds its address in memory (methodUse).
var methodFails = map[ir.DynOp]struct {
	operand int
	does    string
}{
	ir.DynStr: {-1, "str"}, ir.DynToJSON: {0, "TypeError"}, ir.DynLength: {0, "TypeError"},
	ir.DynArith: {-1, "TypeError"}, ir.DynNeg: {0, "TypeError"}, ir.DynCompare: {-1, "TypeError"},
	ir.DynContains: {1, "TypeError"}, ir.DynFirst: {0, "TypeError"}, ir.DynLast: {0, "TypeError"},
	ir.DynJoin: {0, "TypeError"}, ir.DynList: {0, "TypeError"}, ir.DynAsString: {0, "UndefinedError"},
	ir.DynGet: {0, "UndefinedError"}, ir.DynKeys: {0, "UndefinedError"}, ir.DynValues: {0, "UndefinedError"},
	ir.DynItems: {0, "UndefinedError"}, ir.DynItemsList: {0, "UndefinedError"},
}

// methodOperand checks x, operand i of op (of name, a filter's), where op
// fails on a method (methodFails), with methodUse. A filter other than int
// and float (0 of a method) reads its text, which holds an address, or
// fails: as a string made of it.
func (c *checker) methodOperand(op ir.DynOp, name string, i int, x ir.Expr, sp tmpl.Span) {
	if f, fails := methodFails[op]; fails && (f.operand < 0 || f.operand == i) {
		c.methodUse(x, f.does, sp)
	} else if (op == ir.DynFilter || op == ir.DynMapFilter) && i == 0 && name != "int" && name != "float" {
		c.methodUse(x, "str", sp)
	}
	if op == ir.DynStr || op == ir.DynJoin && i == 0 {
		c.heldMethodUse(x, sp) // join makes a string of each item
	}
}

// heldMethodUse rejects x, made a string at sp, where it may hold a dict
// method read as an attribute (heldMethod): the string holds the method's
// address in memory, as where the method itself is made one (methodUse).
func (c *checker) heldMethodUse(x ir.Expr, sp tmpl.Span) {
	c.later = append(c.later, func() { c.heldMethodMade(x, sp) }) // once every set is checked
}

// heldMethodMade is heldMethodUse once every set is checked.
func (c *checker) heldMethodMade(x ir.Expr, sp tmpl.Span) {
	if m := c.heldMethod(x, map[*ir.Local]bool{}); m != nil {
		c.errorf(sp, "this value may hold attribute %q, which is the dict method in Jinja2, not the key (an object is a dict too): made a string here, it holds the method's address in memory (<built-in method ... at 0x...>), which no renderer reproduces (subscript it: ['%s'])", m.Name, m.Name)
	}
}

// methodUse checks x where it is a dict method read as an attribute
// (x.items of an object, map or dict: DynMethod), or may be one, used
// where Jinja2 fails on a method (does is TypeError or UndefinedError),
// prints it (printed: an output statement's, whose text is the render's)
// or makes a string of it (str), both with its address in memory, which
// no renderer reproduces. As failsWhereRuns does: an error where the code
// always runs; where it may not run, or where x may be something else, a
// warning, and the render fails where it runs, as the dynamic operation
// does on a method (ErrInvalid, or ErrUndefined for UndefinedError). A
// string made of one is an error wherever it stands: Jinja2 may use it
// as text (its length), which a failing render would not match.
func (c *checker) methodUse(x ir.Expr, does string, sp tmpl.Span) {
	m, sure := dictMethod(x)
	if m == nil {
		return
	}
	msg := fmt.Sprintf("attribute %q is the dict method in Jinja2, not the key (an object is a dict too), ", m.Name)
	if !sure {
		msg = fmt.Sprintf("this may be the dict method %s (an attribute of an object, map or dict, or an optional key of that name that is unset, which Jinja2 reads as the method), ", m.Name)
	}
	warning := "Jinja2 raises " + does + " where it runs, and so does the render"
	switch does {
	case "printed":
		msg += "printed here with its address in memory (<built-in method ... at 0x...>), which no renderer reproduces"
		warning = "the render fails where it runs"
	case "str":
		msg += "made a string here, which holds its address in memory (<built-in method ... at 0x...>), which no renderer reproduces"
	default:
		msg += "on which this raises " + does
	}
	if sure {
		msg += fmt.Sprintf(" (subscript it: ['%s'])", m.Name)
	}
	if does == "str" || sure && !c.mayNotRun() {
		c.errorf(sp, "%s", msg)
		return
	}
	c.diags.Warnf(c.pos(sp), "%s: %s", msg, warning)
}

// heldMethod returns a dict method read as an attribute (DynMethod) that
// x may hold as an item, at any depth: of a list or dict literal, a
// tuple, a branch of a condition, what an operation that keeps items
// (builtins.KeepsItems) makes of one, or a local a set assigns one (seen
// are the locals followed so far).
func (c *checker) heldMethod(x ir.Expr, seen map[*ir.Local]bool) *ir.Dynamic {
	var items []ir.Expr
	switch x := x.(type) {
	case *ir.LocalRef:
		if seen[x.L] {
			return nil
		}
		seen[x.L] = true
		for _, s := range c.sets {
			if s.Local == x.L && s.Value != nil {
				items = append(items, s.Value)
			}
		}
	case *ir.List:
		items = x.Items
	case *ir.Dict:
		items = x.Values
	case *ir.Cond:
		items = []ir.Expr{x.Then, x.Else}
	case *ir.Dynamic:
		if !builtins.KeepsItems(x) {
			return nil
		}
		items = x.Args
	}
	for _, it := range items {
		if m, _ := dictMethod(it); m != nil {
			return m
		}
		if m := c.heldMethod(it, seen); m != nil {
			return m
		}
	}
	return nil
}

// dictMethod returns the dict method read as an attribute (DynMethod)
// that x is, or that an arm of a conditional x may be (sure is false), or
// that a default of it is.
func dictMethod(x ir.Expr) (m *ir.Dynamic, sure bool) {
	switch x := x.(type) {
	case *ir.Dynamic:
		switch x.Op {
		case ir.DynMethod:
			return x, true
		case ir.DynDefault:
			return dictMethod(x.Args[0])
		}
	case *ir.Cond:
		for _, arm := range []ir.Expr{x.Then, x.Else} {
			if m, _ := dictMethod(arm); m != nil {
				return m, false
			}
		}
	}
	return nil, false
}
