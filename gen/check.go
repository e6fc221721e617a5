package gen

import (
	"fmt"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/schema"
)

// checker types one prompt's template: it infers the feed's types from use
// (or checks uses against declared inputs) and builds the IR.
type checker struct {
	diags  *diagSink
	p      *Prompt
	ir     *irPrompt
	feed   *Type
	scopes []*scope
	// later holds checks that need final types; they run after inference.
	later []func()
	// sets are the sets of a value, for markUndefined.
	sets []*irSet
	// uses records each feed variable's first use, for unused-input warnings.
	used map[*Field]bool
	tmp  int
	// inSet is the template set of the body checked, nil for a prompt file.
	inSet *setContext
	// m locates the template checked when it is not p.Map: a system or
	// message template.
	m *SourceMap
}

type scope struct {
	names  map[string]*irLocal
	locals *[]*irLocal // where set targets of this scope are declared
	loop   *irFor      // the innermost for loop, nil at top level
}

func (c *checker) pos(sp tmpl.Span) Pos {
	if c.m != nil {
		return c.m.Pos(sp.Start)
	}
	return c.p.Map.Pos(sp.Start)
}

func (c *checker) posString(sp tmpl.Span) string { return c.pos(sp).String() }

func (c *checker) errorf(sp tmpl.Span, format string, args ...any) {
	c.diags.errorf(c.pos(sp), format, args...)
}

// failedAt reports whether an error was already reported at sp, after
// which the types there tell nothing more.
func (c *checker) failedAt(sp tmpl.Span) bool {
	pos := c.pos(sp)
	for _, d := range c.diags.list {
		if d.Pos == pos && d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// newLocal makes a Go local named after name, which the template cannot
// see until it is bound with local.
func (c *checker) newLocal(name string, t *Type) *irLocal {
	c.tmp++
	goName, ok := unexportedName(name)
	if !ok {
		goName = "v"
	}
	return &irLocal{Name: name, GoName: fmt.Sprintf("%s_%d", goName, c.tmp), T: t}
}

// local declares a Go local for a template name in the current scope.
func (c *checker) local(name string, t *Type) *irLocal {
	l := c.newLocal(name, t)
	c.scopes[len(c.scopes)-1].names[name] = l
	return l
}

func (c *checker) lookup(name string) *irLocal {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if l := c.scopes[i].names[name]; l != nil {
			return l
		}
	}
	return nil
}

func (c *checker) nodes(ns []tmpl.Node) []irNode {
	var out []irNode
	for _, n := range ns {
		out = append(out, c.node(n)...)
	}
	return out
}

// node checks one template node. It yields no IR for empty text and
// several nodes for a set with several targets.
func (c *checker) node(n tmpl.Node) []irNode {
	switch n := n.(type) {
	case *tmpl.Text:
		if n.Value == "" {
			return nil
		}
		c.ir.StaticSize += len(n.Value)
		return []irNode{&irText{Value: n.Value}}
	case *tmpl.Output:
		x := c.expr(n.X, usePrint)
		c.printable(x, n.X.Pos())
		inline(x)
		return []irNode{&irPrint{X: x}}
	case *tmpl.If:
		out := &irIf{}
		for _, b := range n.Branches {
			out.Branches = append(out.Branches, irBranch{Cond: c.expr(b.Cond, useTest), Body: c.nodes(b.Body)})
		}
		out.Else = c.nodes(n.Else)
		return []irNode{out}
	case *tmpl.For:
		return []irNode{c.forLoop(n)}
	case *tmpl.Set:
		return c.set(n)
	case *tmpl.Include:
		if c.inSet != nil {
			return c.include(n)
		}
		c.errorf(n.Span, "include is only supported inside template sets")
		return nil
	}
	panic(fmt.Sprintf("check: unexpected node %T", n))
}

func (c *checker) forLoop(n *tmpl.For) irNode {
	iter := c.expr(n.Iter, useValue)
	out := &irFor{Iter: iter}
	it := iter.typ()
	var keyT, valT *Type
	switch {
	case isItemsCall(n.Iter):
		keyT, valT = &Type{Kind: KindString}, it.Elem
		if it.Kind != KindMap {
			valT = &Type{Kind: KindNone} // items() reported the error
		}
		if len(n.Targets) != 2 {
			c.errorf(n.Span, "items() yields pairs: write \"for key, value in ....items()\"")
		}
	case len(n.Targets) == 2:
		c.errorf(n.Targets[1].Span, "unpacking two loop targets needs .items() on a map")
	default:
		if it.Kind == KindUnknown {
			c.constrain(it, KindList, n.Iter.Pos())
		}
		switch it = it.resolve(); it.Kind {
		case KindList:
			valT = it.Elem
		case KindString:
			valT = &Type{Kind: KindString}
		case KindMap:
			valT = &Type{Kind: KindString}
		default:
			c.errorf(n.Iter.Pos(), "cannot loop over %s", it)
			valT = &Type{Kind: KindString}
		}
	}
	body := &scope{names: map[string]*irLocal{}, locals: &out.Locals, loop: out}
	c.scopes = append(c.scopes, body)
	if keyT != nil && len(n.Targets) == 2 {
		out.Key = c.local(n.Targets[0].Name, keyT)
		out.Value = c.local(n.Targets[1].Name, valT)
	} else {
		out.Value = c.local(n.Targets[0].Name, valT)
	}
	if n.Filter != nil {
		out.Filter = c.expr(n.Filter, useTest)
	}
	out.Body = c.nodes(n.Body)
	c.scopes = c.scopes[:len(c.scopes)-1]
	out.Else = c.nodes(n.Else)
	return out
}

func isItemsCall(e tmpl.Expr) bool {
	call, ok := e.(*tmpl.Call)
	if !ok || len(call.Args) != 0 {
		return false
	}
	a, ok := call.Fn.(*tmpl.Attr)
	return ok && a.Name == "items"
}

func (c *checker) set(n *tmpl.Set) []irNode {
	switch {
	case n.Value == nil:
		out := &irSet{Body: c.nodes(n.Body)}
		return []irNode{c.assign(n.Targets[0].Name, out, &Type{Kind: KindString}, n.Span)}
	case len(n.Targets) == 1:
		out := &irSet{Value: c.expr(n.Value, useValue)}
		return []irNode{c.assign(n.Targets[0].Name, out, out.Value.typ(), n.Span)}
	}
	return c.tupleSet(n)
}

// assign binds name in the current scope to out's value, of type t, and
// completes out: a name already set in this scope keeps its local.
func (c *checker) assign(name string, out *irSet, t *Type, sp tmpl.Span) *irSet {
	sc := c.scopes[len(c.scopes)-1]
	if l := sc.names[name]; l != nil {
		c.unify(l.T, t, sp)
		out.Local = l
	} else {
		out.Local = c.local(name, t)
		*sc.locals = append(*sc.locals, out.Local)
	}
	c.trackUndefined(out)
	return out
}

// trackUndefined records out for markUndefined.
func (c *checker) trackUndefined(out *irSet) {
	if out.Value != nil {
		c.sets = append(c.sets, out)
	}
}

// markUndefined marks, once types are final, the locals that may be
// undefined: those assigned a value that can be. A local read into
// another may be marked by a set further down, so it runs until nothing
// changes.
func (c *checker) markUndefined() {
	for changed := true; changed; {
		changed = false
		for _, s := range c.sets {
			if !s.Local.MaybeUndefined && maybeUndefined(s.Value) {
				s.Local.MaybeUndefined, changed = true, true
			}
		}
	}
}

// tupleSet checks {% set a, b = x, y %}, which needs a value per target.
// Python evaluates every value before it assigns a target, so when a value
// reads one of the targets ({% set a, b = b, a %}), the values go through
// temporaries first.
func (c *checker) tupleSet(n *tmpl.Set) []irNode {
	var items []tmpl.Expr
	switch v := n.Value.(type) {
	case *tmpl.Tuple:
		items = v.Items
	case *tmpl.List:
		items = v.Items
	default:
		c.errorf(n.Value.Pos(), "set with %d targets needs %d values separated by commas", len(n.Targets), len(n.Targets))
		return nil
	}
	if len(items) != len(n.Targets) {
		c.errorf(n.Value.Pos(), "set assigns %d values to %d targets", len(items), len(n.Targets))
		return nil
	}
	values := make([]irExpr, len(items))
	for i, it := range items {
		values[i] = c.expr(it, useValue)
	}
	var out []irNode
	if c.readsTargets(values, n.Targets) {
		sc := c.scopes[len(c.scopes)-1]
		for i, v := range values {
			tmp := &irSet{Local: c.newLocal("v", v.typ()), Value: v}
			*sc.locals = append(*sc.locals, tmp.Local)
			c.trackUndefined(tmp)
			out = append(out, tmp)
			values[i] = &irLocalRef{L: tmp.Local}
		}
	}
	for i, target := range n.Targets {
		out = append(out, c.assign(target.Name, &irSet{Value: values[i]}, values[i].typ(), n.Span))
	}
	return out
}

// readsTargets reports whether any of values reads a local that assigning
// targets in the current scope would overwrite.
func (c *checker) readsTargets(values []irExpr, targets []*tmpl.Name) bool {
	sc := c.scopes[len(c.scopes)-1]
	reads := false
	for _, v := range values {
		walkExpr(v, func(x irExpr) {
			if ref, ok := x.(*irLocalRef); ok {
				for _, t := range targets {
					reads = reads || sc.names[t.Name] == ref.L
				}
			}
		})
	}
	return reads
}

// use says how an expression's value is used, for inference: a printed
// unknown defaults to string, a tested one is optional.
type use uint8

const (
	useValue use = iota
	usePrint
	useTest
)

func (c *checker) expr(e tmpl.Expr, u use) irExpr {
	switch e := e.(type) {
	case *tmpl.Name:
		return c.name(e, u)
	case *tmpl.Const:
		return constExpr(e.Value)
	case *tmpl.List:
		out := &irList{T: &Type{Kind: KindList, Elem: &Type{}}}
		for _, it := range e.Items {
			x := c.expr(it, useValue)
			c.unify(out.T.Elem, slotType(x.typ()), it.Pos())
			out.Items = append(out.Items, x)
		}
		c.later = append(c.later, func() {
			for i, x := range out.Items {
				c.checkSlot(x, out.T.resolve().Elem, out.Inline, e.Items[i].Pos())
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
		return c.index(e)
	case *tmpl.Slice:
		return c.slice(e)
	case *tmpl.Unary:
		return c.unary(e, u)
	case *tmpl.Binary:
		return c.binary(e, u)
	case *tmpl.CondExpr:
		out := &irCond{Cond: c.expr(e.Cond, useTest), Then: c.expr(e.Then, u)}
		out.T = out.Then.typ()
		if e.Else != nil {
			out.Else = c.expr(e.Else, u)
			if tk, ek := out.T.resolve().Kind, out.Else.typ().resolve().Kind; (tk == KindInt && ek == KindFloat) || (tk == KindFloat && ek == KindInt) {
				// Each branch keeps its type (printed as it is); a use as
				// a value widens the int branch to a float.
				out.T = &Type{Kind: KindFloat}
			} else {
				c.unify(out.T, out.Else.typ(), e.Else.Pos())
			}
			c.later = append(c.later, func() {
				if mixesBoolNumber(out.Then.typ().Kind, out.Else.typ().Kind) {
					c.errorf(e.Else.Pos(), "type mismatch: %s and %s", out.Then.typ(), out.Else.typ())
				}
			})
		}
		return out
	case *tmpl.Filter:
		return c.filter(e, u)
	case *tmpl.Test:
		return c.test(e)
	case *tmpl.Call:
		return c.call(e, u)
	case *tmpl.Tuple:
		c.errorf(e.Span, "tuples are not supported (use a list)")
	case *tmpl.Dict:
		return c.dict(e)
	}
	return &irConst{T: &Type{Kind: KindNone}}
}

func constExpr(v any) *irConst {
	switch v.(type) {
	case string:
		return &irConst{Value: v, T: &Type{Kind: KindString}}
	case int64:
		return &irConst{Value: v, T: &Type{Kind: KindInt}}
	case float64:
		return &irConst{Value: v, T: &Type{Kind: KindFloat}}
	case bool:
		return &irConst{Value: v, T: &Type{Kind: KindBool}}
	}
	return &irConst{T: &Type{Kind: KindNone}}
}

// dict checks a dict literal. Its keys must be distinct string constants,
// so that its type can be a closed struct of them.
func (c *checker) dict(e *tmpl.Dict) irExpr {
	out := &irDict{T: &Type{Kind: KindDict}}
	names := map[string]bool{}
	for i, k := range e.Keys {
		v := c.expr(e.Values[i], useValue)
		var s string
		key, ok := k.(*tmpl.Const)
		if ok {
			s, ok = key.Value.(string)
		}
		switch {
		case !ok:
			c.errorf(k.Pos(), "dict literal keys must be string constants")
			continue
		case out.T.field(s) != nil:
			c.errorf(k.Pos(), "duplicate key %q in dict literal", s)
			continue
		}
		// Struct fields named after the key when it makes a Go name, by
		// position otherwise; "_" cannot start a name made from a key.
		name, ok := unexportedName(s)
		if !ok || names[name] {
			name = fmt.Sprintf("_%d", i)
		}
		names[name] = true
		out.T.Fields = append(out.T.Fields, &Field{Key: s, Type: slotType(v.typ()), Pos: c.pos(k.Pos()), GoName: name})
		out.Values = append(out.Values, v)
	}
	c.later = append(c.later, func() {
		for i, f := range out.T.resolve().Fields {
			c.checkSlot(out.Values[i], f.Type, out.Inline, e.Values[i].Pos())
		}
	})
	return out
}

// checkNoDicts reports the variables in struct t whose type was inferred
// from a dict literal ({{ x if c else {'a': 1} }}): the feed needs a
// struct that JSON can fill, a dict literal's type is not one.
func (c *checker) checkNoDicts(t *Type) {
	for _, f := range t.Fields {
		ft := f.Type.resolve()
		for ft.Kind == KindList || ft.Kind == KindMap {
			ft = ft.Elem.resolve()
		}
		switch ft.Kind {
		case KindDict:
			c.diags.errorf(f.Pos, "cannot infer the type of %q from a dict literal (declare it in inputs)", f.Key)
		case KindStruct:
			c.checkNoDicts(ft)
		}
	}
}

// slotType is the type for storing a value of type t in a list (or dict)
// literal: a copy of a known scalar type, so that widening the slot to
// number for another element leaves the value's own type alone.
func slotType(t *Type) *Type {
	if t = t.resolve(); isScalar(t.Kind) {
		return &Type{Kind: t.Kind}
	}
	return t
}

// checkSlot reports, once types are final, a literal's element x that
// would change type when stored in slot, as 1 in a list of numbers would
// print 1.0. Python keeps each element's type, and so does a literal
// written out where it is printed (inline). It also rejects a tojson
// result, which would print differently.
func (c *checker) checkSlot(x irExpr, slot *Type, inline bool, sp tmpl.Span) {
	if f, ok := x.(*irCall); ok && f.Kind == callFilter && f.Name == "tojson" {
		c.errorf(sp, "a tojson result cannot be a list or dict element (Jinja2 keeps it as Markup, which prints as Markup('...') inside a list or dict)")
		return
	}
	xk, sk := x.typ().Kind, slot.resolve().Kind
	if inline || xk == sk || !isNumber(xk) || !isNumber(sk) {
		return
	}
	c.errorf(sp, "this %s would become a %s, unlike in Jinja2: a literal mixing %s and %s elements is supported only where it is printed, joined or concatenated with ~", xk, sk, xk, sk)
}

// inline marks x, when it is a list or dict literal that is printed where
// it stands, to be written out element by element, and so the literals
// inside it.
func inline(x irExpr) {
	switch x := x.(type) {
	case *irList:
		x.Inline = true
		for _, it := range x.Items {
			inline(it)
		}
	case *irDict:
		x.Inline = true
		for _, v := range x.Values {
			inline(v)
		}
	}
}

// hint records how an unknown value is used, for its default type.
func hint(t *Type, u use) {
	t = t.resolve()
	if t.Kind != KindUnknown {
		return
	}
	switch u {
	case usePrint:
		t.hint = KindString
	case useTest:
		if t.hint == KindUnknown {
			t.hint = KindBool
		}
	}
}

func (c *checker) name(e *tmpl.Name, u use) irExpr {
	if l := c.lookup(e.Name); l != nil {
		hint(l.T, u)
		return &irLocalRef{L: l}
	}
	if x := c.componentRef(e.Name, e.Span); x != nil {
		return x
	}
	if e.Name == "loop" {
		c.errorf(e.Span, "loop is only defined inside a for loop")
		return &irConst{T: &Type{Kind: KindNone}}
	}
	f := c.feed.field(e.Name)
	if f == nil {
		if c.feed.Declared {
			c.errorf(e.Span, "undefined variable %q%s", e.Name, schema.DidYouMean(e.Name, fieldKeys(c.feed)))
			f = &Field{Key: e.Name, Type: &Type{}, Pos: c.pos(e.Span)} // keeps checking the rest
		} else {
			f = &Field{Key: e.Name, Type: &Type{}, Pos: c.pos(e.Span)}
			c.feed.Fields = append(c.feed.Fields, f)
		}
	}
	c.used[f] = true
	return c.fieldUse(nil, c.feed, f, e.Span, u)
}

func (c *checker) fieldUse(of irExpr, parent *Type, f *Field, sp tmpl.Span, u use) irExpr {
	hint(f.Type, u)
	x := &irField{Of: of, Field: f, Pos: c.posString(sp)}
	if u == useTest {
		c.guard(x)
	}
	return x
}

// guard marks an inferred variable as optional when the template tests it
// (if x, x is defined, x | default): declared inputs keep their declaration.
func (c *checker) guard(x irExpr) {
	f, ok := x.(*irField)
	if !ok {
		return
	}
	parent := c.feed
	if f.Of != nil {
		parent = f.Of.typ()
	}
	if !parent.Declared {
		f.Field.Optional = true
	}
}

func fieldKeys(t *Type) []string {
	keys := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		keys[i] = f.Key
	}
	return keys
}

func (c *checker) isStructLike(e tmpl.Expr) bool {
	switch e := e.(type) {
	case *tmpl.Name:
		if e.Name == "loop" && c.lookup("loop") == nil && c.innerLoop() != nil {
			return true
		}
		if l := c.lookup(e.Name); l != nil {
			k := l.T.resolve().Kind
			return k == KindStruct || k == KindUnknown
		}
		if f := c.feed.field(e.Name); f != nil {
			k := f.Type.resolve().Kind
			return k == KindStruct || k == KindUnknown
		}
		return true
	case *tmpl.Attr, *tmpl.Index:
		return true
	}
	return false
}

func (c *checker) innerLoop() *irFor {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if c.scopes[i].loop != nil {
			return c.scopes[i].loop
		}
	}
	return nil
}

var loopAttrs = map[string]Kind{
	"index": KindInt, "index0": KindInt, "revindex": KindInt, "revindex0": KindInt,
	"first": KindBool, "last": KindBool, "length": KindInt,
}

func (c *checker) attr(e tmpl.Expr, x tmpl.Expr, name string, nameSp tmpl.Span, u use) irExpr {
	if n, ok := x.(*tmpl.Name); ok && n.Name == "loop" && c.lookup("loop") == nil {
		loop := c.innerLoop()
		k, ok := loopAttrs[name]
		if loop == nil || !ok {
			if loop == nil {
				c.errorf(n.Span, "loop is only defined inside a for loop")
			} else {
				c.errorf(nameSp, "unknown loop attribute %q%s", name, schema.DidYouMean(name, sortedKeys(loopAttrs)))
			}
			return &irConst{T: &Type{Kind: KindNone}}
		}
		if name != "length" {
			loop.Index = "i"
		}
		if name != "index" && name != "index0" && name != "first" {
			loop.Length = "n"
		}
		return &irLoopAttr{For: loop, Attr: name, T: &Type{Kind: k}}
	}
	of := c.expr(x, useValue)
	t := of.typ()
	if t.Kind == KindUnknown {
		c.constrain(t, KindStruct, x.Pos())
		t = t.resolve()
	}
	switch t.Kind {
	case KindStruct:
		f := t.field(name)
		if f == nil {
			if t.Declared {
				c.errorf(nameSp, "%s has no field %q%s", describe(x), name, schema.DidYouMean(name, fieldKeys(t)))
				return &irConst{T: &Type{Kind: KindNone}}
			}
			f = &Field{Key: name, Type: &Type{}, Pos: c.pos(nameSp)}
			t.Fields = append(t.Fields, f)
		}
		return c.fieldUse(of, t, f, e.Pos(), u)
	case KindMap:
		hint(t.Elem, u)
		return &irIndex{X: of, Index: constExpr(name), T: t.Elem, Pos: c.posString(e.Pos())}
	case KindDict:
		if _, isAttr := e.(*tmpl.Attr); isAttr && isDictMethod(name) {
			c.errorf(nameSp, "attribute %q of a dict is its method in Jinja2, not the key (write ['%s'])", name, name)
			return &irConst{T: &Type{Kind: KindNone}}
		}
		return c.dictValue(of, t, name, e.Pos(), nameSp)
	}
	c.errorf(nameSp, "%s is a %s, it has no attribute %q", describe(x), t, name)
	return &irConst{T: &Type{Kind: KindNone}}
}

// dictValue reads key name of a dict of type t: a missing key, which is
// undefined in Jinja2, is a generate-time error.
func (c *checker) dictValue(of irExpr, t *Type, name string, sp, nameSp tmpl.Span) irExpr {
	f := t.field(name)
	if f == nil {
		c.errorf(nameSp, "dict has no key %q%s", name, schema.DidYouMean(name, fieldKeys(t)))
		return &irConst{T: &Type{Kind: KindNone}}
	}
	return &irDictValue{Of: of, Field: f, Pos: c.posString(sp)}
}

// isDictMethod reports whether Jinja2 reads d.name as an attribute of the
// Python dict rather than as its key.
func isDictMethod(name string) bool {
	switch name {
	case "clear", "copy", "fromkeys", "get", "items", "keys", "pop", "popitem", "setdefault", "update", "values":
		return true
	}
	return strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
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

func (c *checker) index(e *tmpl.Index) irExpr {
	x := c.expr(e.X, useValue)
	i := c.expr(e.Index, useValue)
	t := x.typ()
	if t.Kind == KindUnknown {
		if i.typ().Kind == KindString {
			c.constrain(t, KindMap, e.X.Pos())
		} else {
			c.constrain(t, KindList, e.X.Pos())
		}
		t = t.resolve()
	}
	if t.Kind == KindDict {
		if k, ok := i.(*irConst); ok && i.typ().Kind == KindString {
			return c.dictValue(x, t, k.Value.(string), e.Span, e.Index.Pos())
		}
		c.errorf(e.Index.Pos(), "a dict literal can only be subscripted with a string constant")
		return &irConst{T: &Type{Kind: KindNone}}
	}
	out := &irIndex{X: x, Index: i, Pos: c.posString(e.Span)}
	switch t.Kind {
	case KindList:
		c.intIndex(i, e.Index.Pos())
		out.T = t.Elem
	case KindString:
		c.intIndex(i, e.Index.Pos())
		out.T = &Type{Kind: KindString}
	case KindMap:
		c.constrain(i.typ(), KindString, e.Index.Pos())
		out.T = t.Elem
	default:
		c.errorf(e.Span, "cannot index %s", t)
		out.T = &Type{Kind: KindNone}
	}
	return out
}

// intIndex requires an index or slice bound to be an int. A number would
// make Jinja2's subscript fail and yield undefined; that is an error here.
func (c *checker) intIndex(i irExpr, sp tmpl.Span) {
	c.constrain(i.typ(), KindInt, sp)
	c.later = append(c.later, func() {
		if i.typ().resolve().Kind == KindFloat {
			c.errorf(sp, "an index must be an int, not a number")
		}
	})
}

func (c *checker) slice(e *tmpl.Slice) irExpr {
	x := c.expr(e.X, useValue)
	t := x.typ()
	if t.Kind == KindUnknown {
		c.constrain(t, KindList, e.X.Pos())
		t = t.resolve()
	}
	out := &irSlice{X: x, T: t, Pos: c.posString(e.Span)}
	for _, p := range []struct {
		src tmpl.Expr
		dst *irExpr
	}{{e.Lo, &out.Lo}, {e.Hi, &out.Hi}, {e.Step, &out.Step}} {
		if p.src != nil {
			*p.dst = c.expr(p.src, useValue)
			c.intIndex(*p.dst, p.src.Pos())
		}
	}
	if k, ok := e.Step.(*tmpl.Const); ok && k.Value == int64(0) {
		c.errorf(k.Span, "slice step cannot be zero")
	}
	if t.Kind != KindList && t.Kind != KindString {
		c.errorf(e.Span, "cannot slice %s", t)
	}
	return out
}

func (c *checker) unary(e *tmpl.Unary, u use) irExpr {
	if e.Op == "not" {
		x := c.expr(e.X, useTest)
		return &irUnary{Op: "not", X: x, T: &Type{Kind: KindBool}, Pos: c.posString(e.Span)}
	}
	x := c.expr(e.X, useValue)
	t := x.typ()
	if t.Kind == KindUnknown {
		c.constrain(t, KindInt, e.X.Pos())
	}
	out := &irUnary{Op: e.Op, X: x, T: x.typ(), Pos: c.posString(e.Span)}
	c.later = append(c.later, func() {
		if k := out.T.resolve().Kind; k != KindInt && k != KindFloat {
			c.errorf(e.Span, "operator %s needs a number, not %s", e.Op, out.T)
		}
	})
	return out
}

func (c *checker) binary(e *tmpl.Binary, u use) irExpr {
	switch e.Op {
	case "and", "or":
		x, y := c.expr(e.X, useTest), c.expr(e.Y, useTest)
		if u != useTest {
			hint(x.typ(), u)
			hint(y.typ(), u)
		}
		out := &irBinary{Op: e.Op, X: x, Y: y, T: &Type{Kind: KindBool}, Pos: c.posString(e.Span)}
		if u != useTest && sameKind(x.typ(), y.typ()) {
			// Jinja2's and/or yield an operand, which matters when printed.
			out.T = x.typ()
		}
		return out
	case "~":
		x, y := c.expr(e.X, usePrint), c.expr(e.Y, usePrint)
		c.printable(x, e.X.Pos())
		c.printable(y, e.Y.Pos())
		inline(x)
		inline(y)
		return &irBinary{Op: "~", X: x, Y: y, T: &Type{Kind: KindString}, Pos: c.posString(e.Span)}
	case "==", "!=":
		x, y := c.expr(e.X, useValue), c.expr(e.Y, useValue)
		c.unifyWeak(x.typ(), y.typ(), e.Span)
		c.later = append(c.later, func() {
			switch xk, yk := x.typ().Kind, y.typ().Kind; {
			case c.failedAt(e.Span):
			case isComposite(x.typ()) || isComposite(y.typ()):
				c.errorf(e.Span, "cannot compare %s %s %s: compare their fields or items", x.typ(), e.Op, y.typ())
			case mixesBoolNumber(xk, yk):
				c.errorf(e.Span, "comparing %s with %s is not supported", x.typ(), y.typ())
			}
		})
		return &irBinary{Op: e.Op, X: x, Y: y, T: &Type{Kind: KindBool}, Pos: c.posString(e.Span)}
	case "<", "<=", ">", ">=":
		x, y := c.expr(e.X, useValue), c.expr(e.Y, useValue)
		c.unifyWeak(x.typ(), y.typ(), e.Span)
		out := &irBinary{Op: e.Op, X: x, Y: y, T: &Type{Kind: KindBool}, Pos: c.posString(e.Span)}
		c.later = append(c.later, func() {
			xk, yk := x.typ().Kind, y.typ().Kind
			numbers := isNumber(xk) && isNumber(yk) && xk != KindBool && yk != KindBool
			if !numbers && !(xk == KindString && yk == KindString) {
				c.errorf(e.Span, "cannot compare %s %s %s", x.typ(), e.Op, y.typ())
			}
		})
		return out
	case "in", "not in":
		x, y := c.expr(e.X, useValue), c.expr(e.Y, useValue)
		yt := y.typ()
		if yt.Kind == KindUnknown {
			if x.typ().Kind == KindString {
				c.constrain(yt, KindString, e.Y.Pos())
			} else {
				c.constrain(yt, KindList, e.Y.Pos())
			}
			yt = yt.resolve()
		}
		switch yt.Kind {
		case KindString:
			c.constrain(x.typ(), KindString, e.X.Pos())
		case KindList:
			c.unifyWeak(x.typ(), yt.Elem, e.X.Pos())
			c.later = append(c.later, func() {
				xk, ek := x.typ().Kind, yt.resolve().Elem.resolve().Kind
				switch {
				case !isScalar(ek):
					c.errorf(e.Y.Pos(), "membership test in a list of %s is not supported", yt.resolve().Elem)
				case mixesBoolNumber(xk, ek) || xk == KindFloat && ek == KindInt:
					c.errorf(e.Span, "testing a %s in a list of %s is not supported", x.typ(), yt.resolve().Elem)
				}
			})
		case KindMap:
			c.constrain(x.typ(), KindString, e.X.Pos())
		default:
			c.errorf(e.Y.Pos(), "cannot test membership in %s", yt)
		}
		return &irBinary{Op: e.Op, X: x, Y: y, T: &Type{Kind: KindBool}, Pos: c.posString(e.Span)}
	}
	return c.arith(e)
}

func (c *checker) arith(e *tmpl.Binary) irExpr {
	x, y := c.expr(e.X, useValue), c.expr(e.Y, useValue)
	xt, yt := x.typ(), y.typ()
	switch {
	case xt.Kind == KindUnknown && yt.Kind == KindUnknown:
		c.unify(xt, yt, e.Span)
		xt.resolve().hint = KindInt
	case xt.Kind == KindUnknown:
		c.constrain(xt, arithPeer(e.Op, yt.Kind, false), e.X.Pos())
	case yt.Kind == KindUnknown:
		c.constrain(yt, arithPeer(e.Op, xt.Kind, true), e.Y.Pos())
	}
	out := &irBinary{Op: e.Op, X: x, Y: y, Pos: c.posString(e.Span)}
	xt, yt = xt.resolve(), yt.resolve()
	switch t, ok := arithResult(e.Op, xt, yt); {
	case e.Op == "/":
		out.T = &Type{Kind: KindFloat}
	case ok:
		out.T = t
	default:
		out.T = xt // both unknown and unified, or an error reported below
	}
	c.later = append(c.later, func() {
		t, ok := arithResult(e.Op, x.typ(), y.typ())
		if !ok {
			c.errorf(e.Span, "unsupported operand types for %s: %s and %s", e.Op, x.typ(), y.typ())
		} else if t.Kind != out.T.resolve().Kind {
			out.T = t
		}
	})
	return out
}

// arithPeer is the kind an unknown operand takes when the other one is
// known: a string + x makes x a string, 2 * x an int, "ab" * x an int.
func arithPeer(op string, other Kind, unknownIsRight bool) Kind {
	switch {
	case other == KindString && op == "+":
		return KindString
	case other == KindString && op == "*":
		return KindInt
	case other == KindList && op == "+":
		return KindList
	case other == KindList && op == "*":
		return KindInt
	case other == KindFloat:
		return KindFloat
	}
	return KindInt
}

func arithResult(op string, x, y *Type) (*Type, bool) {
	xk, yk := x.Kind, y.Kind
	switch {
	case isNumber(xk) && isNumber(yk) && xk != KindBool && yk != KindBool:
		if op == "/" || xk == KindFloat || yk == KindFloat {
			return &Type{Kind: KindFloat}, true
		}
		return &Type{Kind: KindInt}, true
	case op == "+" && xk == KindString && yk == KindString:
		return x, true
	case op == "+" && xk == KindList && yk == KindList && sameKind(x.Elem.resolve(), y.Elem.resolve()):
		return x, true
	case op == "*" && xk == KindString && yk == KindInt:
		return x, true
	case op == "*" && xk == KindInt && yk == KindString:
		return y, true
	}
	return nil, false
}

func isNumber(k Kind) bool { return k == KindInt || k == KindFloat || k == KindBool }

// isComposite reports whether t is an object, a map, a dict or a list of
// them, which == would have to compare as Python dicts: not supported.
func isComposite(t *Type) bool {
	switch t = t.resolve(); t.Kind {
	case KindStruct, KindMap, KindDict:
		return true
	case KindList:
		return isComposite(t.Elem)
	}
	return false
}

// mixesBoolNumber reports whether a bool meets an int or number, which
// Python allows (True == 1) but the Go code cannot do without conversions.
func mixesBoolNumber(a, b Kind) bool {
	return isNumber(a) && isNumber(b) && (a == KindBool) != (b == KindBool)
}

func sameKind(a, b *Type) bool {
	a, b = a.resolve(), b.resolve()
	if a.Kind != b.Kind {
		return false
	}
	if a.Kind == KindList || a.Kind == KindMap {
		return sameKind(a.Elem, b.Elem)
	}
	return (a.Kind != KindStruct && a.Kind != KindDict) || a == b
}

// printable checks, once types are final, that a printed value prints.
func (c *checker) printable(x irExpr, sp tmpl.Span) {
	c.later = append(c.later, func() {
		if x.typ().Kind == KindUnknown {
			c.errorf(sp, "cannot infer the type of this value (declare it in inputs)")
		}
	})
}
