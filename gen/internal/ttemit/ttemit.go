package ttemit

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/ir"
)

// tval is a translated expression.
type tval struct {
	pre   string // actions to run first; they print nothing
	val   string // an operand: a variable, a field chain, a literal or a parenthesized call
	maybe bool   // val may be undefined
}

// ttEmitter translates one prompt.
type ttEmitter struct {
	file string // position prefix: positions are passed as "line:col"
	key  string // the prompt's, which names its functions' templates
	// tojson is the function of the tojson filter: Jinja2's, or with the
	// transformers profile transformers'.
	tojson string
	tmp    int
	loops  map[*ir.For]loopVars
	// at is the position of the print or expression being translated,
	// where printing a dynamic value that is a method fails.
	at string
	// assumed counts the reads of the feed's optional fields (their field
	// chains) that an enclosing if showed defined, as goemit's assumed.
	assumed map[string]int
	// alias maps a field chain of the feed to the variable that an
	// enclosing if bound it to (branch).
	alias map[string]string
	// validated holds, in the translation for a feed whose Validate
	// passed (TranslateValidated), the feed's type and the struct types
	// ir.Validated returns: their required fields are set, and are read
	// without a check. unchecked counts the checks left out so.
	validated map[*ir.Type]bool
	feed      *ir.Type
	unchecked int
}

// within makes pos the position of what is translated, e.at, until the
// function it returns is called.
func (e *ttEmitter) within(pos string) func() {
	outer := e.at
	e.at = pos
	return func() { e.at = outer }
}

// dynStr is str() of v, a dynamic value, failing at e.at on a method.
func (e *ttEmitter) dynStr(v tval) tval {
	return tval{pre: v.pre, val: call("dyn", strconv.Quote("str"), e.pos(e.at), v.val)}
}

// Translate returns the text/template source of p's template.
func Translate(p *ir.Prompt) string {
	return translate(newEmitter(p), p)
}

// TranslateValidated returns the text/template source of p's template for
// a feed whose Validate returned nil: without the checks of its required
// strings, lists and maps, which cannot fail then. It returns "" where
// Translate's source has no such check.
func TranslateValidated(p *ir.Prompt) string {
	e := newEmitter(p)
	e.validated, e.feed = ir.Validated(p.Feed), p.Feed
	out := translate(e, p)
	if e.unchecked == 0 {
		return ""
	}
	return out
}

func newEmitter(p *ir.Prompt) *ttEmitter {
	e := &ttEmitter{file: p.File, key: p.Key, loops: map[*ir.For]loopVars{}, alias: map[string]string{}, tojson: "tojson"}
	if p.Transformers {
		e.tojson = "tfjson"
	}
	return e
}

func translate(e *ttEmitter, p *ir.Prompt) string {
	out := withFeed(e.declare(p.Locals) + e.nodes(p.Body))
	for _, f := range p.Funcs {
		out += e.define(p.Key, f)
		for _, c := range f.Callers {
			out += e.defineCaller(p.Key, f, c)
		}
	}
	return out
}

// isSet reports whether required field x is surely set: read from a
// struct that a passed Validate checked (validated), and not a chat field,
// which Validate leaves to the render. It counts the check that the
// translation leaves out.
func (e *ttEmitter) isSet(x *ir.FieldRef) bool {
	owner := e.feed
	if x.Of != nil {
		owner = x.Of.Type().Resolve()
	}
	if !e.validated[owner] || x.Field.Chat {
		return false
	}
	e.unchecked++
	return true
}

// feedVar is the template variable that holds the feed, $.F, in a
// template that reads it: a field of a variable is one reflective lookup
// fewer than a field of $.F.
const feedVar = "$_f"

// withFeed is body, the actions of a template, declaring feedVar first
// if it reads the feed.
func withFeed(body string) string {
	if !strings.Contains(body, feedVar+".") {
		return body
	}
	return action(feedVar+" := $.F") + body
}

// define is function f of prompt key as an associated template, which a
// call executes with $: its arguments are where the call put them.
func (e *ttEmitter) define(key string, f *ir.Func) string {
	var b strings.Builder
	b.WriteString("{{ define " + strconv.Quote(funcTemplate(key, f)) + " }}")
	var body strings.Builder
	for i, p := range f.Params {
		body.WriteString(action("$" + p.GoName + " := $.Arg " + strconv.Itoa(i)))
	}
	if f.Caller != "" {
		body.WriteString(action("$" + f.Caller + " := $.Arg " + strconv.Itoa(len(f.Params))))
	}
	body.WriteString(e.declare(f.Locals))
	body.WriteString(e.nodes(f.Body))
	b.WriteString(withFeed(body.String()))
	b.WriteString("{{ end }}")
	return b.String()
}

// funcTemplate names the template of function f of prompt key, which no
// other template of a set shares.
func funcTemplate(key string, f *ir.Func) string { return key + "/" + f.GoName }

// defineCaller is caller c of function f of prompt key as an associated
// template, which a call of caller() in f executes with $: the values of
// its Env are the arguments EnterCaller handed it.
func (e *ttEmitter) defineCaller(key string, f *ir.Func, c *ir.Caller) string {
	var body strings.Builder
	for i, l := range c.Env {
		body.WriteString(action("$" + l.GoName + " := $.Arg " + strconv.Itoa(i)))
	}
	body.WriteString(e.declare(c.Locals))
	body.WriteString(e.nodes(c.Body))
	return "{{ define " + strconv.Quote(callerTemplate(key, f, c.Site)) + " }}" + withFeed(body.String()) + "{{ end }}"
}

// callerTemplate names the template of caller site of function f of
// prompt key.
func callerTemplate(key string, f *ir.Func, site int) string {
	return funcTemplate(key, f) + "/caller" + strconv.Itoa(site)
}

// callCaller prints a call of caller() in a function's body: EnterCaller
// hands the caller its call passed its values (and fails where it passed
// none), and the caller's template runs.
func (e *ttEmitter) callCaller(x *ir.CallCaller) string {
	frame := e.temp("caller")
	out := action(frame + " := $.EnterCaller $" + x.Func.Caller + " " + strconv.Itoa(x.Frames) + " " + e.pos(x.Pos))
	for i := range x.Func.Callers {
		if i == 0 {
			out += "{{ if eq " + frame + ".Site 0 }}"
		} else {
			out += "{{ else if eq " + frame + ".Site " + strconv.Itoa(i) + " }}"
		}
		out += "{{ template " + strconv.Quote(callerTemplate(e.key, x.Func, i)) + " $ }}"
	}
	if len(x.Func.Callers) > 0 {
		out += "{{ end }}"
	}
	return out + action("$.Leave "+frame+".Depth")
}

// callFunc prints a call of a function: Enter counts the macro frame it
// opens and hands it the arguments, Leave closes it.
func (e *ttEmitter) callFunc(x *ir.CallFunc) string {
	args := make([]tval, len(x.Args))
	for i, a := range x.Args {
		args[i] = e.expr(a)
	}
	pre, vals := e.inOrder(args...)
	if x.Func.Caller != "" {
		vals = append(vals, e.closure(x.Caller))
	}
	depth := e.temp("depth")
	enter := append([]string{"$.Enter", strconv.Itoa(x.Frames), e.pos(x.Pos), strconv.Quote(x.Func.Name)}, vals...)
	return pre + action(depth+" := "+strings.Join(enter, " ")) +
		"{{ template " + strconv.Quote(funcTemplate(e.key, x.Func)) + " $ }}" + action("$.Leave "+depth)
}

// closure is the caller of a {% call %} block, with the values of its
// Env; nil for none.
func (e *ttEmitter) closure(x *ir.Caller) string {
	if x == nil {
		return "nil"
	}
	args := []string{strconv.Itoa(x.Site)}
	for _, l := range x.Env {
		args = append(args, "$"+l.GoName)
	}
	return call("$.Closure", args...)
}

func (e *ttEmitter) temp(prefix string) string {
	e.tmp++
	return fmt.Sprintf("$_%s%d", prefix, e.tmp)
}

// pos turns a position of the prompt's file into a "line:col" literal, to
// which rendering adds the file; one of a template file it includes stays
// whole.
func (e *ttEmitter) pos(p string) string {
	rest, ok := strings.CutPrefix(p, e.file+":")
	if !ok {
		return strconv.Quote(p)
	}
	return strconv.Quote(rest)
}

// call is a function call as an operand.
func call(fn string, args ...string) string {
	if len(args) == 0 {
		return fn
	}
	return "(" + fn + " " + strings.Join(args, " ") + ")"
}

// action is {{ x }} for an operand or pipeline x.
func action(x string) string { return "{{ " + unparen(x) + " }}" }

// unparen removes the parentheses around a whole call.
func unparen(x string) string {
	if len(x) < 2 || x[0] != '(' || x[len(x)-1] != ')' {
		return x
	}
	depth, quoted := 0, false
	for i := 0; i < len(x); i++ {
		c := x[i]
		switch {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 && i < len(x)-1 {
				return x
			}
		}
	}
	return x[1 : len(x)-1]
}

// text escapes literal template text: a "{" that starts a "{{" (or could,
// before an action) is printed by an action.
func text(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '{' && (i+1 == len(s) || s[i+1] == '{') {
			b.WriteString(`{{ "{" }}`)
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// literal is a constant as a template operand.
func literal(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		s := strconv.FormatFloat(v, 'g', -1, 64)
		switch {
		case strings.ContainsAny(s, "nN"): // NaN, ±Inf
			return call("tofloat", strconv.Quote(s), "0.0")
		case !strings.ContainsAny(s, ".e"):
			s += ".0" // a float constant, not an int
		}
		return s
	case bool:
		return strconv.FormatBool(v)
	}
	return "none"
}

// zero is the value a local starts with.
func zero(l *ir.Local) string {
	if l.MaybeUndefined {
		return "undef"
	}
	switch l.T.Resolve().Kind {
	case ir.KindString:
		return `""`
	case ir.KindInt:
		return "0"
	case ir.KindFloat:
		return "0.0"
	case ir.KindBool:
		return "false"
	case ir.KindList:
		return "nolist"
	case ir.KindMap:
		return "nomap"
	}
	return "undef"
}

// strict returns v's value, failing the render when v is undefined, as
// Jinja2 does for attribute access, arithmetic and ordering.
func (e *ttEmitter) strict(v tval, pos, name string) tval {
	if !v.maybe {
		return v
	}
	return tval{pre: v.pre, val: call("strict", v.val, e.pos(pos), strconv.Quote(name))}
}

// lenient turns a possibly undefined value into its lenient form, as
// Jinja2's undefined prints empty and has length 0: a scalar takes its zero
// value; functions taking a list or map treat undefined as empty.
func (e *ttEmitter) lenient(v tval, t *ir.Type) tval {
	if !v.maybe {
		return v
	}
	var z string
	switch t.Resolve().Kind {
	case ir.KindString:
		z = `""`
	case ir.KindInt:
		z = "0"
	case ir.KindFloat:
		z = "0.0"
	case ir.KindBool:
		z = "false"
	default:
		return v
	}
	return tval{pre: v.pre, val: call("dflt", v.val, z)}
}

// discard evaluates v for its failures only.
func discard(v tval) string {
	if strings.HasPrefix(v.val, "(") {
		return v.pre + action("$_ := "+v.val)
	}
	return v.pre
}

// cond translates x as a condition: an operand whose text/template truth
// is Jinja2's truth of x. text/template's truth agrees with Python's for
// every defined value of a feed type, so only values that may be undefined
// need a call.
func (e *ttEmitter) cond(x ir.Expr) tval {
	switch x := x.(type) {
	case *ir.Unary:
		if x.Op == "not" {
			c := e.cond(x.X)
			return tval{pre: c.pre, val: call("not", c.val)}
		}
	case *ir.Binary:
		if (x.Op == "and" || x.Op == "or") && !x.Value {
			return e.logic(x, e.cond)
		}
	}
	return e.truthOf(e.expr(x), x)
}

// truthOf is cond for v, the value of x.
func (e *ttEmitter) truthOf(v tval, x ir.Expr) tval {
	t := x.Type()
	switch {
	case t.Kind == ir.KindDynamic:
		return tval{pre: v.pre, val: call("truth", v.val)}
	case t.Kind == ir.KindNone:
		return tval{pre: discard(v), val: "false"}
	case t.Kind == ir.KindStruct && !ir.HasRequiredField(t):
		// False when no optional field is set, as an empty dict.
	case t.Kind == ir.KindDict:
		// text/template finds every struct true; truth counts the keys.
	case !v.maybe:
		return v
	case t.Kind == ir.KindStruct:
		if f, ok := x.(*ir.FieldRef); ok && f.Field.Optional {
			return v // a nil pointer is false, a struct with a key true
		}
	}
	return tval{pre: v.pre, val: call("truth", v.val)}
}

// boolean translates x to a bool value with Jinja2's truth of x.
func (e *ttEmitter) boolean(x ir.Expr) tval {
	v := e.expr(x)
	if x.Type().Kind == ir.KindBool && !v.maybe {
		return v
	}
	return tval{pre: v.pre, val: call("truth", v.val)}
}

func (e *ttEmitter) expr(x ir.Expr) tval {
	if pos := ir.PosOf(x); pos != "" {
		defer e.within(pos)()
	}
	switch x := x.(type) {
	case *ir.Dynamic:
		return e.dynamic(x)
	case *ir.FieldRef:
		return e.field(x)
	case *ir.LocalRef:
		return tval{val: localList(x.L), maybe: x.L.MaybeUndefined}
	case *ir.LoopAttr:
		l := e.loops[x.For]
		i, n := l.index, l.length
		switch x.Attr {
		case "index":
			return tval{val: l.index1()}
		case "index0":
			return tval{val: l.index0()}
		case "first":
			if l.padded {
				return tval{val: call("eq", i, "1")}
			}
			return tval{val: call("eq", i, "0")}
		case "last":
			if l.padded {
				return tval{val: call("eq", i, n)}
			}
			return tval{val: call("eq", i, call("diff", n, "1"))}
		case "length":
			return tval{val: n}
		case "revindex":
			return tval{val: call("diff", n, l.index0())}
		case "revindex0":
			return tval{val: call("diff", n, l.index1())}
		case "previtem", "nextitem":
			item := l.item(1)
			if x.Attr == "previtem" {
				item = l.item(-1)
			}
			v := e.temp("v") // the key, then its value or the pair
			var val string
			switch {
			case l.pairs:
				val = call("dyn", `"tuple"`, e.pos(x.For.Pos), call("index", v, "0"), call("index", v, "1"))
			case l.values:
				val = call("getitem", l.m, v)
			case l.m != "":
				val = call("dyn", `"tuple"`, e.pos(x.For.Pos), v, call("getitem", l.m, v))
			default:
				return tval{val: item, maybe: true}
			}
			pre := action(v+" := "+item) + action("if def "+v) + action(v+" = "+unparen(val)) + "{{ end }}"
			return tval{pre: pre, val: v, maybe: true}
		}
	case *ir.Select:
		return e.selectItems(x)
	case *ir.MapFilter:
		return e.mapItems(x)
	case *ir.LoopCycle:
		var args []tval
		for _, a := range x.Args {
			args = append(args, e.expr(a)) // the checker rejects a value that may be undefined
		}
		pre, vals := e.inOrder(args...)
		return tval{pre: pre, val: call("loopcycle", append([]string{e.loops[x.For].index0()}, vals...)...)}
	case *ir.Const:
		return tval{val: literal(x.Value)}
	case *ir.List:
		// A list of dynamic values holds Undefined as a dynamic one does.
		pre, items := e.elements(x.Items, x.Inline, x.Type().Kind == ir.KindDynamic || x.T.Resolve().Elem.Resolve().Kind == ir.KindDynamic)
		fn := "list"
		if !x.Inline && x.Type().Kind != ir.KindDynamic {
			fn = listFunc(x.T)
		}
		return tval{pre: pre, val: "(" + strings.TrimSpace(fn+" "+strings.Join(items, " ")) + ")"}
	case *ir.Dict:
		if x.T.Resolve().Kind == ir.KindMap {
			return tval{val: "nomap"} // {} where a map is expected
		}
		pre, vals := e.elements(x.Values, x.Inline, x.Type().Kind == ir.KindDynamic)
		args := []string{"dict"}
		if x.IntKeys != nil {
			args[0] = "intkeyed" // a dynamic value
		}
		for i, f := range x.T.Fields { // its keys, also when it is dynamic
			key := strconv.Quote(f.Key)
			if x.IntKeys != nil && x.IntKeys[i] {
				key = f.Key
			}
			args = append(args, key, vals[i])
		}
		return tval{pre: pre, val: "(" + strings.Join(args, " ") + ")"}
	case *ir.DictValue:
		// A dict that is not printed where it stands holds no undefined value.
		v := e.strict(e.expr(x.Of), x.Pos, ir.VarPath(x.Of))
		return tval{pre: v.pre, val: call("getitem", v.val, strconv.Quote(x.Field.Key))}
	case *ir.Index:
		xv := e.strict(e.expr(x.X), x.Pos, ir.VarPath(x.X))
		iv := e.strict(e.expr(x.Index), x.Pos, ir.VarPath(x.Index))
		pre, vals := e.inOrder(xv, iv)
		return tval{pre: pre, val: call("getitem", vals...), maybe: true}
	case *ir.Slice:
		return e.slice(x)
	case *ir.Unary:
		if x.Op == "not" {
			c := e.cond(x.X)
			return tval{pre: c.pre, val: call("not", c.val)}
		}
		v := e.strict(e.expr(x.X), x.Pos, ir.VarPath(x.X))
		if x.Op == "-" {
			return tval{pre: v.pre, val: call("neg", v.val, e.pos(x.Pos))}
		}
		return v
	case *ir.Binary:
		return e.binary(x)
	case *ir.Cond:
		return e.condExpr(x)
	case *ir.Capture: // the body prints, and what it printed is cut back out
		mark, out := e.temp("mark"), e.temp("macro")
		var guard string
		if x.Defined != nil { // Jinja2 calls Undefined: UndefinedError
			guard = action("if not "+e.expr(x.Defined).val) + action(call("strict", "undef", e.pos(x.Pos), strconv.Quote(x.Macro))) + "{{ end }}"
		}
		return tval{pre: guard + e.declare(x.Locals) + action(mark+" := $.Mark") + e.nodes(x.Body) + action(out+" := $.Cut "+mark), val: out}
	case *ir.Strict:
		v := e.expr(x.X)
		v.maybe = v.maybe || x.X.Type().Kind == ir.KindDynamic // a dynamic value holds its undefined
		return e.strict(v, x.Pos, ir.VarPath(x.X))
	case *ir.Strftime:
		v := e.strict(e.expr(x.Format), x.Pos, ir.VarPath(x.Format)) // Python's strftime takes no Undefined
		return tval{pre: v.pre, val: call("$.Strftime", v.val, e.pos(x.Pos))}
	case *ir.Range:
		var bounds []tval
		for _, a := range []ir.Expr{x.Start, x.Stop, x.Step} {
			bounds = append(bounds, e.strict(e.expr(a), x.Pos, ir.VarPath(a))) // Python's range takes no Undefined
		}
		pre, vals := e.inOrder(bounds...)
		return tval{pre: pre, val: call("pyrange", append(vals, e.pos(x.Pos))...)}
	case *ir.Include:
		mark, out := e.temp("mark"), e.temp("c")
		return tval{pre: action(mark+" := $.Mark") + e.include(x) + action(out+" := $.Cut "+mark), val: out}
	case *ir.Call:
		switch x.Kind {
		case ir.CallFilter:
			return e.filter(x)
		case ir.CallTest:
			return e.test(x)
		case ir.CallGoFilter:
			return e.goFilter(x)
		case ir.CallListMethod:
			return e.listMethod(x)
		}
		return e.method(x)
	}
	panic(fmt.Sprintf("emit: unexpected expression %T", x))
}

// elements translates the elements of a list or dict literal. An Inline
// literal is printed where it stands, and a dynamic one holds Jinja2's
// Undefined: their elements keep their own type, and an undefined one is
// Undefined, so they are passed as they are. In a typed literal an element
// out of range fails the render, as in the go backend, unless it is a
// dynamic value, which holds Undefined; a value that the translation cannot
// tell defined takes its type.
func (e *ttEmitter) elements(xs []ir.Expr, inline, dynamic bool) (pre string, vals []string) {
	elems := make([]tval, len(xs))
	for i, x := range xs {
		v := e.expr(x)
		if pos := ir.OutOfRange(x); !inline && !dynamic && pos != "" && x.Type().Resolve().Kind != ir.KindDynamic {
			v = e.strict(v, pos, "")
		}
		if !inline && !dynamic && v.maybe {
			switch t := x.Type(); t.Kind {
			case ir.KindList:
				v.val = call("dflt", v.val, emptyList(t))
			case ir.KindMap:
				v.val = call("dflt", v.val, "nomap")
			default:
				v = e.lenient(v, t)
			}
		}
		elems[i] = v
	}
	return e.inOrder(elems...)
}

// listFunc is the ttfuncs function that builds a list of type t: a typed
// slice for scalar elements, converting each.
func listFunc(t *ir.Type) string {
	switch t.Resolve().Elem.Resolve().Kind {
	case ir.KindString:
		return "strs"
	case ir.KindInt:
		return "ints"
	case ir.KindFloat:
		return "floats"
	case ir.KindBool:
		return "bools"
	}
	return "list"
}

// emptyList is an empty list of type t, which compares equal to the empty
// list literal of its type.
func emptyList(t *ir.Type) string {
	if fn := listFunc(t); fn != "list" {
		return "(" + fn + ")"
	}
	return "nolist"
}

// access returns the actions and the field chain that read x, unchecked.
func (e *ttEmitter) access(x *ir.FieldRef) (pre, acc string) {
	base := tval{val: feedVar}
	if x.Of != nil {
		base = e.expr(x.Of)
		if !base.maybe || e.assumed[base.val] == 0 {
			base = e.strict(base, x.Pos, ir.VarPath(x.Of))
		}
		if x.Of.Type().Resolve().MaybeEmpty { // its value may be the dict {}
			return base.pre, call("field", base.val, strconv.Quote(x.Field.GoName))
		}
	}
	acc = base.val + "." + x.Field.GoName
	if v, ok := e.alias[acc]; ok {
		acc = v
	}
	return base.pre, acc
}

func (e *ttEmitter) field(x *ir.FieldRef) tval {
	pre, acc := e.access(x)
	base := tval{pre: pre}
	t := x.Field.Type.Resolve()
	if t.Kind == ir.KindDynamic {
		if x.Field.NoneIfUnset {
			acc = call("dyn", `"ornone"`, e.pos(x.Pos), acc)
		}
		return tval{pre: base.pre, val: acc}
	}
	if x.Field.Optional {
		if t.Kind == ir.KindList || t.Kind == ir.KindMap {
			acc = call("opt", acc)
		}
		return tval{pre: base.pre, val: acc, maybe: true}
	}
	switch t.Kind {
	case ir.KindString, ir.KindList, ir.KindMap:
		if !e.isSet(x) {
			acc = call("req", acc, e.pos(x.Pos), strconv.Quote(ir.VarPath(x)))
		}
	}
	return tval{pre: base.pre, val: acc}
}

func (e *ttEmitter) slice(x *ir.Slice) tval {
	operands := []tval{e.strict(e.expr(x.X), x.Pos, ir.VarPath(x.X))}
	for _, b := range []struct {
		x      ir.Expr
		absent string
	}{{x.Lo, "nil"}, {x.Hi, "nil"}, {x.Step, "1"}} {
		if b.x == nil {
			operands = append(operands, tval{val: b.absent})
			continue
		}
		operands = append(operands, e.strict(e.expr(b.x), x.Pos, ir.VarPath(b.x)))
	}
	pre, vals := e.inOrder(operands...)
	return tval{pre: pre, val: call("pyslice", append(vals, e.pos(x.Pos))...)}
}

// condExpr is x if c else y: the branch not taken is not evaluated.
func (e *ttEmitter) condExpr(x *ir.Cond) tval {
	c := e.cond(x.Cond)
	t := e.temp("t")
	branch := func(b ir.Expr) string {
		if b == nil {
			return ""
		}
		v := e.as(e.expr(b), b.Type(), x.T)
		return v.pre + action(t+" = "+v.val)
	}
	pre := c.pre + action(t+" := undef") + action("if "+unparen(c.val)) + branch(x.Then)
	if x.Else != nil {
		pre += "{{ else }}" + branch(x.Else)
	}
	return tval{pre: pre + "{{ end }}", val: t, maybe: true}
}

// as converts v, a value of type from, to type to, for a choice among
// values of different types: an int widens to a float, other kinds become
// their str() (to is then a string).
func (e *ttEmitter) as(v tval, from, to *ir.Type) tval {
	switch {
	case to.Resolve().Kind == ir.KindDynamic:
		// The dynamic functions take a value of any type.
	case from.Kind == ir.KindInt && to.Resolve().Kind == ir.KindFloat:
		v.val = call("tofloat", v.val, "0.0")
	case from.Resolve().Kind == ir.KindDynamic && !v.maybe:
		v = e.dynStr(v)
	case !ir.SameKind(from, to):
		v = e.str(v)
	}
	return v
}

// str converts v to a string as Jinja2's str() does, keeping undefined.
func (e *ttEmitter) str(v tval) tval {
	if v.maybe {
		return tval{pre: v.pre, val: call("strkeep", v.val), maybe: true}
	}
	return tval{pre: v.pre, val: call("str", v.val)}
}

var arithFuncs = map[string]string{"+": "add", "-": "sub", "*": "mul", "/": "div", "//": "floordiv", "%": "mod", "**": "pow"}

func (e *ttEmitter) binary(x *ir.Binary) tval {
	switch x.Op {
	case "and", "or":
		if !x.Value {
			return e.logic(x, e.boolean)
		}
		return e.logicValue(x)
	case "~":
		operand := func(y ir.Expr) tval {
			v := e.expr(y)
			if y.Type().Kind == ir.KindDynamic {
				v = e.dynStr(v) // str of undefined is "", as cat prints it
			}
			return v
		}
		pre, vals := e.inOrder(operand(x.X), operand(x.Y))
		return tval{pre: pre, val: call("cat", vals...)}
	case "==", "!=":
		pre, vals := e.inOrder(e.expr(x.X), e.expr(x.Y))
		v := call("equal", vals...)
		if x.Op == "!=" {
			v = call("not", v)
		}
		return tval{pre: pre, val: v}
	case "<", "<=", ">", ">=":
		pre, vals := e.inOrder(e.strict(e.expr(x.X), x.Pos, ir.VarPath(x.X)), e.strict(e.expr(x.Y), x.Pos, ir.VarPath(x.Y)))
		return tval{pre: pre, val: call("compare", vals[0], strconv.Quote(x.Op), vals[1])}
	case "in", "not in":
		// Undefined is in no list, map or object; in a string it fails.
		a, y := e.expr(x.X), e.expr(x.Y)
		if x.Y.Type().Kind == ir.KindString && a.maybe {
			// Jinja2 finds nothing in undefined, and fails to look for
			// undefined in a string, once both operands are evaluated (y
			// may fail first: x is in(none|join)).
			for _, v := range []*tval{&a, &y} {
				if strings.HasPrefix(v.val, "(") {
					t := e.temp("op")
					v.pre += action(t + " := " + v.val)
					v.val = t
				}
			}
			check := action("$_ := " + e.strict(tval{val: a.val, maybe: true}, x.Pos, ir.VarPath(x.X)).val)
			if y.maybe {
				check = action("if "+call("def", y.val)) + check + "{{ end }}"
			}
			a.pre, y.pre = a.pre+y.pre+check, ""
		}
		pre, vals := e.inOrder(a, y) // in finds nothing in undefined
		v := call("in", vals...)
		if x.Op == "not in" {
			v = call("not", v)
		}
		return tval{pre: pre, val: v}
	}
	// Jinja2 evaluates both operands before the operator fails on an
	// undefined one: y may fail first (x // s.rindex('y')).
	xv, yv := e.expr(x.X), e.expr(x.Y)
	pre, vals := e.inOrder(xv, yv)
	if xv.maybe && strings.HasPrefix(vals[1], "(") {
		// x, then y, are evaluated before x's check, not y as the
		// check's argument after it (x's own reads may fail first).
		for i := range vals {
			if strings.HasPrefix(vals[i], "(") {
				t := e.temp("op")
				pre += action(t + " := " + vals[i])
				vals[i] = t
			}
		}
	}
	a := e.strict(tval{val: vals[0], maybe: xv.maybe}, x.Pos, ir.VarPath(x.X)).val
	b := e.strict(tval{val: vals[1], maybe: yv.maybe}, x.Pos, ir.VarPath(x.Y)).val
	if x.EscapeX {
		a = call("escape", a, e.pos(x.Pos))
	}
	if x.EscapeY {
		b = call("escape", b, e.pos(x.Pos))
	}
	fn := arithFuncs[x.Op]
	switch {
	case x.Op == "*" && (x.X.Type().Kind == ir.KindString || x.Y.Type().Kind == ir.KindString || x.X.Type().Kind == ir.KindList || x.Y.Type().Kind == ir.KindList):
		return tval{pre: pre, val: call("repeat", a, b, e.pos(x.Pos))}
	case x.Op == "**" && x.T.Resolve().Kind == ir.KindFloat:
		// An int to a negative constant int power is a float.
		return tval{pre: pre, val: call(fn, call("tofloat", a, "0.0"), b, e.pos(x.Pos))}
	}
	return tval{pre: pre, val: call(fn, a, b, e.pos(x.Pos))}
}

// logic is a bool and/or, with operands translated by operand (cond or
// boolean). text/template's and/or short-circuit; a right operand that
// needs actions of its own runs them only when it is evaluated.
func (e *ttEmitter) logic(x *ir.Binary, operand func(ir.Expr) tval) tval {
	if k, ok := x.X.(*ir.Const); ok {
		// A constant left operand decides at generate time.
		if ir.ConstTruth(k) == (x.Op == "or") {
			return tval{val: strconv.FormatBool(x.Op == "or")}
		}
		return operand(x.Y)
	}
	a, b := operand(x.X), operand(x.Y)
	if b.pre == "" {
		return tval{pre: a.pre, val: call(x.Op, a.val, b.val)}
	}
	t := e.temp("t")
	test := t
	if x.Op == "or" {
		test = call("not", t)
	}
	pre := a.pre + action(t+" := "+a.val) + action("if "+unparen(test)) + b.pre + action(t+" = "+b.val) + "{{ end }}"
	return tval{pre: pre, val: t}
}

// logicValue is an and/or that yields an operand, chosen as the go
// backend does (see choose).
func (e *ttEmitter) logicValue(x *ir.Binary) tval {
	t := e.temp("t")
	pre := action(t+" := undef") + e.choose(x, func(leaf ir.Expr, v *tval) string {
		if v == nil {
			w := e.expr(leaf)
			v = &w
		}
		w := e.as(*v, leaf.Type(), x.T)
		return w.pre + action(t+" = "+w.val)
	})
	return tval{pre: pre, val: t, maybe: ir.MaybeUndefined(x)}
}

// choose translates x, an and/or that yields an operand, as the decisions
// among the operands it yields, with k's actions for each operand where it
// is the result. k gets the operand's value when it was evaluated to test
// its truth, else nil.
func (e *ttEmitter) choose(x ir.Expr, k func(leaf ir.Expr, v *tval) string) string {
	b, ok := x.(*ir.Binary)
	if !ok || !b.Value {
		return k(x, nil)
	}
	return e.branchOn(b.X, func(leaf ir.Expr, v tval, truthy bool) string {
		if truthy == (b.Op == "or") {
			return k(leaf, &v)
		}
		return e.choose(b.Y, k)
	})
}

// branchOn evaluates x into a variable, branches on its truth and puts
// decide's actions in each branch, as the go backend's ir.BranchOn.
func (e *ttEmitter) branchOn(x ir.Expr, decide func(leaf ir.Expr, v tval, truthy bool) string) string {
	if b, ok := x.(*ir.Binary); ok && b.Value {
		return e.branchOn(b.X, func(leaf ir.Expr, v tval, truthy bool) string {
			if truthy == (b.Op == "or") {
				return decide(leaf, v, truthy)
			}
			return e.branchOn(b.Y, decide)
		})
	}
	if k, ok := x.(*ir.Const); ok {
		return decide(x, tval{val: literal(k.Value)}, ir.ConstTruth(k))
	}
	v := e.expr(x)
	t := e.temp("t")
	held := tval{val: t, maybe: v.maybe}
	c := e.truthOf(held, x)
	return v.pre + action(t+" := "+v.val) + c.pre + action("if "+unparen(c.val)) + decide(x, held, true) +
		"{{ else }}" + decide(x, held, false) + "{{ end }}"
}

func (e *ttEmitter) test(x *ir.Call) tval {
	if x.X.Type().Resolve().Kind == ir.KindDynamic {
		// The operand's type became dynamic after the test was checked.
		return e.expr(x.DynamicTest())
	}
	v := e.expr(x.X)
	t := x.X.Type()
	c, used := "false", false
	switch x.Name {
	case "defined":
		c = "true"
		if v.maybe {
			c, used = call("def", v.val), true
		}
	case "undefined":
		if v.maybe {
			c, used = call("not", call("def", v.val)), true
		}
	case "none":
		// An unset optional is undefined, and undefined is not none.
		c = strconv.FormatBool(t.Kind == ir.KindNone)
	case "lower", "upper":
		c, used = call("is"+x.Name, v.val), true // of x|string, always defined
	case "filter", "test":
		// Undefined and values other than strings name nothing.
		if t.Kind == ir.KindString {
			c, used = call("isname", v.val, strconv.Quote(x.Name)), true
		}
	default:
		c, used = typeTest(x.Name, t.Kind, v)
	}
	pre := v.pre
	if !used {
		pre = discard(v) // the type decides; the operand still runs
	}
	if x.Not {
		c = call("not", c)
	}
	return tval{pre: pre, val: c}
}

// typeTest is type test name of v, of kind k (see ir.TypeTest): the
// condition and whether it reads v.
func typeTest(name string, k ir.Kind, v tval) (string, bool) {
	r := ir.TypeTest(name, k)
	if v.maybe {
		switch undef := ir.UndefinedPasses(name); {
		case r == ir.TestPasses && undef:
			return "true", false
		case r == ir.TestFails && !undef:
			return "false", false
		case r == ir.TestPasses:
			return call("def", v.val), true
		case r == ir.TestFails:
			return call("not", call("def", v.val)), true
		case r == ir.TestIsValue:
			return call("truth", v.val), true // undefined is not true
		}
		return call("and", call("def", v.val), call("not", call("truth", v.val))), true
	}
	switch r {
	case ir.TestPasses:
		return "true", false
	case ir.TestIsValue:
		return v.val, true
	case ir.TestIsNotValue:
		return call("not", v.val), true
	}
	return "false", false
}

// arg returns a filter argument and whether it was given.
func (e *ttEmitter) arg(x *ir.Call, i int) (tval, bool) {
	a := x.Args[i]
	if k, ok := a.(*ir.Const); ok && k.Value == nil {
		return tval{val: "nil"}, false
	}
	return e.strict(e.expr(a), x.Pos, ir.VarPath(a)), true
}

// withArgs translates receiver v and every argument of x after it, in
// order (see inOrder): vals[0] is the receiver, vals[1+i] argument i, nil
// when absent.
func (e *ttEmitter) withArgs(v tval, x *ir.Call) (pre string, vals []string, given []bool) {
	operands := []tval{v}
	given = make([]bool, len(x.Args))
	for i := range x.Args {
		var a tval
		a, given[i] = e.arg(x, i)
		operands = append(operands, a)
	}
	pre, vals = e.inOrder(operands...)
	return pre, vals, given
}

func (e *ttEmitter) filter(x *ir.Call) tval {
	xt := x.X.Type()
	switch x.Name {
	case "default":
		return e.defaultFilter(x)
	case "length":
		v := e.lenient(e.expr(x.X), xt)
		return tval{pre: v.pre, val: call("length", v.val)}
	case "first", "last":
		if _, ok := ir.Pulled(x.X); ok && x.Name == "first" {
			return e.pullFirst(x.X)
		}
		v := e.expr(x.X) // first of undefined is undefined
		return tval{pre: v.pre, val: call(x.Name, v.val), maybe: true}
	case "tojson":
		v := e.strict(e.expr(x.X), x.Pos, ir.VarPath(x.X))
		ind, _ := e.arg(x, 0)
		pre, vals := e.inOrder(v, ind)
		return tval{pre: pre, val: call(e.toJSONFunc(x.Args), append(vals, e.pos(x.Pos))...)}
	case "join":
		v := e.lenient(e.expr(x.X), xt)
		sep, _ := e.arg(x, 0)
		pre, vals := e.inOrder(v, sep)
		if x.Attr != nil {
			return tval{pre: pre, val: call("joinattr", vals[0], vals[1], attrLookupPath(xt, x.Attr), e.pos(x.Pos))}
		}
		return tval{pre: pre, val: call("join", vals[0], vals[1], e.pos(x.Pos))}
	case "list":
		v := e.lenient(e.expr(x.X), xt)
		return tval{pre: v.pre, val: call("tolist", v.val)}
	case "reverse":
		v := e.lenient(e.expr(x.X), xt)
		return tval{pre: v.pre, val: call("reverse", v.val)}
	case "map":
		mapped := e.temp("mapped")
		pre, loop := e.pull(x, func(it string) string { return action(mapped + " = push " + mapped + " " + it) })
		return tval{pre: pre + action(mapped+" := "+emptyList(x.T)) + loop, val: mapped}
	case "sort", "unique":
		operands := []tval{e.lenient(e.expr(x.X), xt)}
		for i := 0; i < len(x.Args)-1; i++ {
			a, _ := e.arg(x, i)
			operands = append(operands, a)
		}
		pre, args := e.inOrder(operands...)
		fn := x.Name
		if x.Attr != nil {
			fn += "attr"
			args = append(args, attrLookupPath(xt, x.Attr))
			args = append(args, e.pos(x.Pos))
		}
		return tval{pre: pre, val: call(fn, args...)}
	case "int":
		v := e.strict(e.expr(x.X), x.Pos, ir.VarPath(x.X)) // int(Undefined) raises
		d, _ := e.arg(x, 0)
		base, _ := e.arg(x, 1)
		pre, vals := e.inOrder(v, d, base)
		return tval{pre: pre, val: call("toint", append(vals, e.pos(x.Pos))...)}
	case "float":
		v := e.strict(e.expr(x.X), x.Pos, ir.VarPath(x.X))
		d, _ := e.arg(x, 0)
		pre, vals := e.inOrder(v, d)
		return tval{pre: pre, val: call("tofloat", vals...)}
	case "round":
		v := e.strict(e.expr(x.X), x.Pos, ir.VarPath(x.X))
		pre, vals, _ := e.withArgs(v, x)
		if x.T.Kind == ir.KindInt {
			return tval{pre: pre, val: call("roundint", vals[0], vals[1], e.pos(x.Pos))}
		}
		return tval{pre: pre, val: call("round", vals[0], vals[1], vals[2], e.pos(x.Pos))}
	}
	// The remaining filters take a string; the functions convert with str.
	v := e.expr(x.X)
	if x.Name == "indent" {
		// Jinja2's indent appends "\n" to its operand, which undefined fails.
		v = e.strict(v, x.Pos, ir.VarPath(x.X))
	}
	pre, vals, given := e.withArgs(v, x)
	recv, args := vals[0], vals[1:]
	switch x.Name {
	case "string":
		return tval{pre: pre, val: call("str", recv)}
	case "upper", "lower", "title", "capitalize":
		return tval{pre: pre, val: call(x.Name, recv)}
	case "trim":
		return tval{pre: pre, val: call("strip", recv, args[0])}
	case "replace":
		if !given[2] {
			args[2] = "-1"
		}
		return tval{pre: pre, val: call("replace", recv, args[0], args[1], args[2], e.pos(x.Pos))}
	case "indent":
		return tval{pre: pre, val: call("indent", recv, args[0], args[1], args[2], e.pos(x.Pos))}
	case "truncate":
		// truncate returns an undefined operand; truncesc of Markup escapes the end.
		fn := "truncate"
		if x.EscapeEnd {
			fn = "truncesc"
		}
		return tval{pre: pre, val: call(fn, recv, args[0], args[1], args[2], args[3], e.pos(x.Pos)), maybe: v.maybe}
	}
	panic(fmt.Sprintf("emit: unexpected filter %q", x.Name))
}

func (e *ttEmitter) defaultFilter(x *ir.Call) tval {
	v := e.expr(x.X)
	d, given := e.arg(x, 0)
	if !given {
		return e.lenient(v, x.X.Type())
	}
	boolean := false
	if k, ok := x.Args[1].(*ir.Const); ok {
		boolean, _ = k.Value.(bool)
	}
	// A default of another kind makes a string: the value as printed.
	same := ir.SameKind(x.X.Type(), x.Args[0].Type())
	wrap := func(v tval) tval {
		if !same {
			v.val = call("str", v.val)
		}
		return v
	}
	// Jinja2 evaluates the default, which may fail, even where it is not
	// used.
	if !v.maybe && !boolean {
		pre, vals := e.inOrder(v, tval{pre: discard(d)})
		return wrap(tval{pre: pre, val: vals[0]})
	}
	pre, vals := e.inOrder(v, d)
	fn := "dflt"
	if boolean {
		fn = "dfltb"
	}
	return wrap(tval{pre: pre, val: call(fn, vals...)})
}

func (e *ttEmitter) method(x *ir.Call) tval {
	pre, vals, given := e.withArgs(e.strict(e.expr(x.X), x.Pos, ir.VarPath(x.X)), x)
	recv, args := vals[0], vals[1:]
	switch x.Name {
	case "strip", "lstrip", "rstrip":
		return tval{pre: pre, val: call(x.Name, recv, args[0])}
	case "upper", "lower", "capitalize":
		return tval{pre: pre, val: call(x.Name, recv)}
	case "title":
		return tval{pre: pre, val: call("pytitle", recv)}
	case "startswith", "endswith":
		return tval{pre: pre, val: call(x.Name, recv, args[0])}
	case "replace":
		return tval{pre: pre, val: call("replace", recv, args[0], args[1], args[2], e.pos(x.Pos))}
	case "split":
		if !given[0] {
			args[0] = "nil"
		}
		return tval{pre: pre, val: call("split", recv, args[0], args[1], e.pos(x.Pos))}
	case "find", "rfind", "count":
		return tval{pre: pre, val: call("str"+x.Name, recv, args[0], args[1], args[2])}
	case "index", "rindex":
		return tval{pre: pre, val: call("str"+x.Name, recv, args[0], args[1], args[2], e.pos(x.Pos))}
	case "zfill":
		return tval{pre: pre, val: call("zfill", recv, args[0], e.pos(x.Pos))}
	case "ljust", "rjust", "center":
		return tval{pre: pre, val: call("justify", recv, args[0], args[1], strconv.Quote(x.Name[:1]), e.pos(x.Pos))}
	case "partition", "rpartition":
		return tval{pre: pre, val: call("partition", recv, args[0], strconv.FormatBool(x.Name == "rpartition"), e.pos(x.Pos))}
	case "swapcase", "splitlines":
		return tval{pre: pre, val: call(x.Name, append([]string{recv}, args...)...)}
	}
	panic(fmt.Sprintf("emit: unexpected method %q", x.Name))
}

func (e *ttEmitter) nodes(ns []ir.Node) string {
	var b strings.Builder
	for _, n := range ns {
		b.WriteString(e.node(n))
	}
	return b.String()
}

func (e *ttEmitter) node(n ir.Node) string {
	switch n := n.(type) {
	case *ir.Text:
		return text(n.Value)
	case *ir.Print:
		defer e.within(n.Pos)()
		return e.print(n.X)
	case *ir.If:
		return e.ifChain(n.Branches, n.Else)
	case *ir.For:
		return e.forLoop(n)
	case *ir.Set:
		return e.set(n)
	case *ir.LoopControl:
		// The loop's range is the innermost one around the node.
		if n.Break {
			return "{{ break }}"
		}
		return "{{ continue }}"
	case *ir.Raise:
		v := e.expr(n.Msg)
		return v.pre + action(call("raise", v.val, e.pos(n.Pos)))
	}
	panic(fmt.Sprintf("emit: unexpected node %T", n))
}

func (e *ttEmitter) print(x ir.Expr) string {
	switch c := x.(type) {
	case *ir.CallFunc:
		return e.callFunc(c)
	case *ir.CallCaller:
		return e.callCaller(c)
	}
	if b, ok := x.(*ir.Binary); ok && b.Op == "~" {
		return e.print(b.X) + e.print(b.Y)
	}
	if out, ok := e.printField(x); ok {
		return out
	}
	if c, ok := x.(*ir.Include); ok {
		return e.include(c)
	}
	if b, ok := x.(*ir.Binary); ok && b.Value {
		return e.choose(b, func(leaf ir.Expr, v *tval) string {
			if v == nil {
				return e.print(leaf)
			}
			return e.printValue(*v, leaf.Type())
		})
	}
	if c, ok := x.(*ir.Cond); ok {
		// Each branch prints with its own type, as in the go backend.
		cv := e.cond(c.Cond)
		out := cv.pre + action("if "+unparen(cv.val)) + e.print(c.Then)
		if c.Else != nil {
			out += "{{ else }}" + e.print(c.Else)
		}
		return out + "{{ end }}"
	}
	return e.printValue(e.expr(x), x.Type())
}

// printValue prints v, a value of type t; undefined prints nothing.
func (e *ttEmitter) printValue(v tval, t *ir.Type) string {
	switch k := t.Kind; {
	case k == ir.KindNone && v.maybe:
		return v.pre + action("if def "+v.val) + "None{{ end }}"
	case k == ir.KindNone:
		return discard(v) + "None"
	case !v.maybe && (k == ir.KindString || k == ir.KindInt):
		return v.pre + action(v.val)
	case k == ir.KindDynamic:
		s := e.dynStr(v)
		return s.pre + action(s.val)
	case k == ir.KindList || k == ir.KindDict:
		// Its items may be dynamic values, which fail here on a method.
		return v.pre + action(call("strat", e.pos(e.at), v.val))
	}
	return v.pre + action(call("str", v.val))
}

// printField prints the most common values without a function call, as
// text/template's with tests exactly what Jinja2 needs: a required string
// field (failing when empty), an optional string or int field (a pointer,
// printed when set), the latter with a constant default of its kind.
func (e *ttEmitter) printField(x ir.Expr) (string, bool) {
	var dflt string
	if c, ok := x.(*ir.Call); ok && c.Kind == ir.CallFilter && c.Name == "default" {
		k, ok := c.Args[0].(*ir.Const)
		if b, _ := c.Args[1].(*ir.Const); !ok || k.Value == nil || b == nil || b.Value != false || !ir.SameKind(c.X.Type(), k.T) {
			return "", false
		}
		switch v := k.Value.(type) {
		case string:
			dflt = text(v)
		case int64:
			dflt = strconv.FormatInt(v, 10)
		default:
			return "", false
		}
		x = c.X
	}
	f, ok := x.(*ir.FieldRef)
	if !ok || f.Of != nil && f.Of.Type().Resolve().MaybeEmpty {
		// field of a value that may be the dict {} yields the pointer's
		// target, which with would test for truth ("" and 0 are false).
		return "", false
	}
	k := f.Field.Type.Resolve().Kind
	pre, acc := e.access(f)
	switch {
	case f.Field.Optional && (k == ir.KindString || k == ir.KindInt):
		if dflt != "" {
			return pre + action("with "+acc) + "{{ . }}{{ else }}" + dflt + "{{ end }}", true
		}
		return pre + action("with "+acc) + "{{ . }}{{ end }}", true
	case !f.Field.Optional && k == ir.KindString && dflt == "" && e.isSet(f):
		return pre + action(acc), true
	case !f.Field.Optional && k == ir.KindString && dflt == "":
		return pre + action("with "+acc) + "{{ . }}{{ else }}" + action(call("missing", e.pos(f.Pos), strconv.Quote(ir.VarPath(f)))) + "{{ end }}", true
	}
	return "", false
}

func (e *ttEmitter) ifChain(bs []ir.Branch, els []ir.Node) string {
	c := e.cond(bs[0].Cond)
	out := c.pre + e.branch("if", c.val, bs[0])
	ends := 1
	for _, b := range bs[1:] {
		c := e.cond(b.Cond)
		if c.pre == "" {
			out += e.branch("else if", c.val, b)
			continue
		}
		out += "{{ else }}" + c.pre + e.branch("if", c.val, b)
		ends++
	}
	if len(els) > 0 {
		out += "{{ else }}" + e.nodes(els)
	}
	return out + strings.Repeat("{{ end }}", ends)
}

// branch is the action `kw cond` and the body of b, which runs where cond
// holds. Where cond reads a field of the feed ({% if x %}, x an object)
// and the body reads it again ({{ x.a }}), the action binds it to a
// variable that the body reads instead: one reflective lookup of the
// field, not one per read. (The feed does not change; a local might.)
func (e *ttEmitter) branch(kw, cond string, b ir.Branch) string {
	if !feedChain(cond) {
		return action(kw+" "+unparen(cond)) + e.assumeWhile(b)
	}
	v := e.temp("c")
	outer, ok := e.alias[cond]
	e.alias[cond] = v
	body := e.assumeWhile(b)
	if ok {
		e.alias[cond] = outer
	} else {
		delete(e.alias, cond)
	}
	if strings.Contains(body, v) {
		cond = v + " := " + cond
	}
	return action(kw+" "+cond) + body
}

// feedChain reports whether x is a field chain of the feed, $_f.A.B.
func feedChain(x string) bool {
	rest, ok := strings.CutPrefix(x, feedVar+".")
	return ok && rest != "" && strings.Trim(rest, ".0123456789_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") == ""
}

// assumeWhile translates the body of b, where its condition holds: the
// feed's optional fields that the condition shows defined
// (ir.DefinedWhenTrue) are read there without strict (ttfuncs' strict is a
// function call, which text/template makes through reflection), as goemit
// does not test them again. Each is assumed as soon as it is found, so that
// the read of a field of an object assumed is the one the body makes,
// without strict.
func (e *ttEmitter) assumeWhile(b ir.Branch) string {
	if e.assumed == nil {
		e.assumed = map[string]int{}
	}
	var facts []string
	ir.DefinedWhenTrue(b.Cond, func(x *ir.FieldRef) {
		if v := e.field(x); v.maybe {
			e.assumed[v.val]++
			facts = append(facts, v.val)
		}
	})
	out := e.nodes(b.Body)
	for _, f := range facts {
		e.assumed[f]--
	}
	return out
}

func (e *ttEmitter) declare(locals []*ir.Local) string {
	var b strings.Builder
	for _, l := range locals {
		v := zero(l)
		if l.Shared {
			v = call("listshare", v)
		}
		b.WriteString(action("$" + l.GoName + " := " + v))
	}
	return b.String()
}

func (e *ttEmitter) set(n *ir.Set) string {
	l := "$" + n.Local.GoName
	if n.Value == nil {
		mark := e.temp("mark")
		return action(mark+" := $.Mark") + e.nodes(n.Body) + action(l+" = $.Cut "+mark)
	}
	if r, ok := ir.Unstrict(n.Value).(*ir.LocalRef); ok && n.Local.Shared {
		return action(l + " = $" + r.L.GoName) // the list both share
	}
	v := e.expr(n.Value)
	if !ir.SameKind(n.Value.Type(), n.Local.T) && n.Local.T.Resolve().Kind != ir.KindDynamic {
		v = e.str(v)
	}
	if n.Local.Shared { // a new list, in a box of its own
		v.val = call("listshare", v.val)
	}
	return v.pre + action(l+" = "+v.val)
}

func (e *ttEmitter) forLoop(n *ir.For) string {
	it := n.Iter.Type()
	var v tval
	// missing checks a required list where the range runs no iteration,
	// since nil has none: no function call (which text/template makes
	// through reflection) when it has items.
	var missing string
	switch f, _ := n.Iter.(*ir.FieldRef); {
	case f != nil && it.Kind == ir.KindList && !f.Field.Optional && n.Key == nil && n.Filter == nil && !n.Items:
		var acc string
		v.pre, acc = e.access(f)
		v.val = acc
		if !e.isSet(f) {
			missing = discard(tval{val: call("req", acc, e.pos(f.Pos), strconv.Quote(ir.VarPath(f)))})
		}
	case it.Kind == ir.KindDynamic:
		v = e.dynIter(n)
	case n.Strict:
		v = e.strict(e.expr(n.Iter), n.Pos, ir.VarPath(n.Iter))
	default:
		v = e.lenient(e.expr(n.Iter), it)
	}
	out := v.pre
	items, m := e.temp("items"), ""
	dynPairs := it.Kind == ir.KindDynamic && n.Key != nil
	switch {
	case n.Live: // the local itself, read at each iteration
	case it.Kind == ir.KindDynamic:
		out += action(items + " := " + v.val)
	case n.Dictsort != nil:
		m = e.temp("m")
		cs := e.strict(e.expr(n.Dictsort[0]), n.Pos, ir.VarPath(n.Dictsort[0]))
		rev := e.strict(e.expr(n.Dictsort[1]), n.Pos, ir.VarPath(n.Dictsort[1]))
		pre, vals := e.inOrder(tval{val: v.val}, cs, rev) // v.pre is in out already
		out += pre + action(m+" := "+vals[0]) + action(items+" := "+call("dictsort", m, vals[1], vals[2]))
	case n.Key != nil:
		m = e.temp("m")
		out += action(m+" := "+v.val) + action(items+" := "+call("iter", m))
	case it.Kind == ir.KindList && !v.maybe:
		out += action(items + " := " + v.val)
	default:
		out += action(items + " := " + call("iter", v.val))
	}
	// target binds the loop targets, given the range variable x.
	target := func(x string) string {
		switch {
		case dynPairs:
			return action("$"+n.Key.GoName+" := index "+x+" 0") + action("$"+n.Value.GoName+" := index "+x+" 1")
		case (it.Kind == ir.KindDynamic || it.Kind == ir.KindList && it.Elem.Resolve().Kind == ir.KindDynamic) && n.Unpack != nil:
			parts := e.temp("parts")
			s := action(parts + " := " + unparen(call("dyn", `"unpack"`, e.pos(n.Pos), x, strconv.Itoa(len(n.Unpack)))))
			for i, l := range n.Unpack {
				s += action("$" + l.GoName + " := index " + parts + " " + strconv.Itoa(i))
			}
			return s
		case n.Key != nil:
			return action("$" + n.Value.GoName + " := " + unparen(call("getitem", m, x)))
		case n.Unpack != nil:
			// Python unpacks each element, used or not.
			s := action("$_ := " + call("unpack", x, strconv.Itoa(len(n.Unpack)), e.pos(n.Pos)))
			for i, l := range n.Unpack {
				s += action("$" + l.GoName + " := index " + x + " " + strconv.Itoa(i))
			}
			return s
		}
		return ""
	}
	var rangeVar string
	switch {
	case dynPairs:
		rangeVar = e.temp("x")
	case n.Key != nil:
		rangeVar = "$" + n.Key.GoName
	case n.Unpack != nil:
		rangeVar = e.temp("x")
	default:
		rangeVar = "$" + n.Value.GoName
	}
	if n.Filter != nil {
		kept := e.temp("kept")
		c := e.cond(n.Filter)
		out += action(kept+" := nolist") + action("range "+rangeVar+" := "+items) + target(rangeVar) +
			c.pre + action("if "+unparen(c.val)) + action(kept+" = keep "+kept+" "+rangeVar) + "{{ end }}{{ end }}" +
			action(items+" = "+kept)
	}
	l := loopVars{items: items, padded: padIndex(n) && !n.Live}
	if n.Key != nil {
		l.m, l.values, l.pairs = m, n.Values, dynPairs
	}
	if n.Index != "" || n.Live {
		l.index = e.temp("i")
	}
	if n.Length != "" {
		l.length = e.temp("n")
		out += action(l.length + " := len " + items)
	}
	e.loops[n] = l
	vars, over, open, close := rangeVar, items, "", ""
	if l.index != "" && !n.Live {
		vars = l.index + ", " + rangeVar
	}
	if l.padded { // the first iteration, of the item pad adds, renders nothing
		over, open, close = "pad "+items, action("if "+l.index), "{{ end }}"
	}
	// Stop a loop that makes the output too long before it exhausts memory.
	body := e.nodes(n.Body)
	if n.Items { // where the loop starts and each iteration ends, for the budget
		out += action("$.ItemEnd")
		body += action("$.ItemEnd")
	}
	// Each iteration fails once the output is past runtime.MaxOutput:
	// $.Full, a map, is true once it is, in the variable too.
	full := e.temp("full")
	out += action(full + " := $.Full")
	limit := action("if "+full) + action("$.TooLarge "+e.pos(n.Pos)) + "{{ end }}"
	if n.Live {
		// Item i while i is below the list's length at that moment, as
		// Python's list iterator takes it: a range over the ints that
		// stops there.
		xs := localList(ir.LiveList(n))
		vars, over = l.index, strconv.Itoa(math.MaxInt64)
		if it.Kind == ir.KindDynamic { // a list value's items, as they are now
			cur := e.temp("items")
			open, xs = action(cur+" := "+unparen(call("dyn", `"iter"`, e.pos(n.Pos), xs))), cur
		}
		open += action("if ge "+l.index+" "+call("len", xs)) + "{{ break }}{{ end }}" + action(rangeVar+" := index "+xs+" "+l.index)
	}
	if len(n.Else) > 0 && (n.Live || ir.HasLoopControl(n.Body, n) || ir.HasLoopControl(n.Else, nil)) {
		// The else runs when no iteration ran to the end, as in Jinja2. It
		// is outside the range, where a loop control stops the loop around
		// it (text/template's would end this range).
		done := e.temp("done")
		out = action(done+" := false") + out
		if missing != "" {
			missing = "{{ else }}" + missing
		}
		return out + action("range "+vars+" := "+over) + open + target(rangeVar) + limit + e.declare(n.Locals) + body +
			action(done+" = true") + close + missing + "{{ end }}" + action("if not "+done) + e.nodes(n.Else) + "{{ end }}"
	}
	out += action("range "+vars+" := "+over) + open + target(rangeVar) + limit + e.declare(n.Locals) + body + close
	if len(n.Else) > 0 || missing != "" {
		out += "{{ else }}" + missing + e.nodes(n.Else)
	}
	return out + "{{ end }}"
}

// loopVars are the template variables of a loop's index, length and
// items. A padded loop ranges over pad's items, its own after one that no
// iteration renders, so that the range's index is loop.index: printing it
// calls no function, where (inc $i) is a call through reflection, which
// costs text/template about twice a field read.
type loopVars struct {
	index, length, items string
	// m is the map or dict of a loop over its values or items, in which
	// loop.previtem and loop.nextitem look up their keys; values marks
	// a loop over its values (ir.For.Values), and pairs one over a dynamic
	// value's (key, value) pairs.
	m             string
	values, pairs bool
	padded        bool
}

// index0 and index1 are loop.index0 and loop.index.
func (l loopVars) index0() string {
	if l.padded {
		return call("diff", l.index, "1")
	}
	return l.index
}

func (l loopVars) index1() string {
	if l.padded {
		return l.index
	}
	return call("inc", l.index)
}

// item is loop.previtem (delta -1) or loop.nextitem (1).
func (l loopVars) item(delta int) string {
	if l.padded {
		delta--
	}
	return call("loopitem", l.items, l.index, strconv.Itoa(delta))
}

// padIndex reports whether loop n ranges over its items padded: where it
// reads loop.index and not index0, revindex or cycle, which would then
// take a call more.
func padIndex(n *ir.For) bool {
	index, other := false, false
	ir.Walk(n.Body, func(x ir.Expr) {
		switch x := x.(type) {
		case *ir.LoopAttr:
			if x.For == n {
				index = index || x.Attr == "index"
				other = other || x.Attr == "index0" || x.Attr == "revindex"
			}
		case *ir.LoopCycle:
			other = other || x.For == n
		}
	})
	return index && !other
}

// attrLookupPath is the attribute= path of a filter on a list of type
// list, as ttfuncs takes it: a struct field by its Go name, a dict's value
// by its key, joined with dots (a key in a path has none).
func attrLookupPath(list *ir.Type, path []*ir.Field) string {
	names := make([]string, len(path))
	t := list.Resolve().Elem
	for i, f := range path {
		names[i] = f.GoName
		if t.Resolve().Kind == ir.KindDict {
			names[i] = f.Key
		}
		t = f.Type
	}
	return strconv.Quote(strings.Join(names, "."))
}

// include renders a component of a set where it stands, through
// ttfuncs' $.Include: the template of the component's version that the
// variant chooses ($.Version), else of its first version, as the go
// backend's component function does.
func (e *ttEmitter) include(x *ir.Include) string {
	c := x.Comp
	inc := func(v ir.ComponentTemplate) string {
		return action("$.Include " + strconv.Quote(v.Key) + " " + strconv.Quote(v.File))
	}
	if len(c.Templates) == 1 {
		return inc(c.Templates[0])
	}
	ver := e.temp("v")
	out := action(ver + " := $.Version " + strconv.Quote(c.Name))
	for i, v := range c.Templates[1:] {
		kw := "if "
		if i > 0 {
			kw = "else if "
		}
		out += action(kw+"eq "+ver+" "+strconv.Quote(v.Version)) + inc(v)
	}
	return out + "{{ else }}" + inc(c.Templates[0]) + "{{ end }}"
}

// toJSONFunc is the ttfuncs function (and dyn operation) of tojson with
// arguments args: Jinja2's, the transformers profile's, or its
// ensure_ascii=True.
func (e *ttEmitter) toJSONFunc(args []ir.Expr) string {
	if ir.ToJSONEnsureASCII(args) {
		return "tfjsonascii"
	}
	return e.tojson
}

// dynamic translates an operation on dynamic values: a call of ttfuncs'
// dyn, which converts each operand to a runtime/jinja.Value.
func (e *ttEmitter) dynamic(x *ir.Dynamic) tval {
	switch {
	case x.Op == ir.DynFirst && pulledDynamic(x.Args[0]):
		v := e.pullFirst(x.Args[0])
		v.maybe = false // a dynamic value, undefined without items
		return v
	case x.Op == ir.DynContains && pulledDynamic(x.Args[1]):
		return e.pullContains(x)
	case x.Op == ir.DynGenIterator:
		return e.genIterator(x)
	}
	var pre string
	op := dynOps[x.Op]
	exprs := x.Args
	if x.Op == ir.DynToJSON {
		op, exprs = e.toJSONFunc(x.Args[1:]), x.Args[:2]
	}
	if x.Op == ir.DynItems && x.Method {
		op = "dictitems"
	}
	args := []string{strconv.Quote(op), e.pos(x.Pos)}
	if x.Op == ir.DynAttr || x.Op == ir.DynEqual || x.Op == ir.DynCompare || x.Op == ir.DynArith || x.Op == ir.DynContains || x.Op == ir.DynTest || x.Op == ir.DynFilter || x.Op == ir.DynMapFilter || x.Op == ir.DynAsIndex || x.Op == ir.DynMissing || x.Op == ir.DynGenerator || x.Op == ir.DynIterItem || x.Op == ir.DynMethod || x.Op == ir.DynIterator {
		args = append(args, strconv.Quote(x.Name))
	}
	if x.Op == ir.DynTest && x.Not {
		args[2] = strconv.Quote("not " + x.Name)
	}
	operands := make([]tval, len(exprs))
	for i, a := range exprs {
		if a == nil {
			operands[i] = tval{val: "nil"}
			continue
		}
		operands[i] = e.expr(a)
		if x.Op == ir.DynGet && i == 0 {
			// Jinja2 looks get up on the receiver before it evaluates the
			// arguments: an undefined receiver fails first (seed 202 case 19731).
			operands[i] = e.strict(tval{pre: operands[i].pre, val: operands[i].val, maybe: true}, x.Pos, "")
		}
		if x.Op == ir.DynSlice || x.Op == ir.DynToJSON && a == x.Args[1] || x.Op == ir.DynUnpacked && i > 0 {
			operands[i] = e.strict(operands[i], x.Pos, ir.VarPath(a)) // a bound or an indent, not a dynamic value
		}
	}
	pre, vals := e.inOrder(operands...)
	return tval{pre: pre, val: call("dyn", append(args, vals...)...)}
}

// genIterator is x, a chain of generator filters of dynamic values held
// as a value: the generator whose items the runtime makes as pulled
// (jinja.GenIterator), after the source and each link's arguments,
// evaluated in turn as Jinja2 makes the generators.
func (e *ttEmitter) genIterator(x *ir.Dynamic) tval {
	src, links, _ := ir.GenLinks(x.Args[0])
	operands := []tval{e.expr(src)}
	for _, l := range links {
		for _, a := range l.Args[1:] {
			operands = append(operands, e.expr(a))
		}
	}
	pre, vals := e.inOrder(operands...)
	pos := e.pos(x.Pos)
	args := []string{strconv.Quote(x.Name), pos, vals[0]}
	vals = vals[1:]
	for _, l := range links {
		filter, name := l.GenFilter()
		n := len(l.Args) - 1
		args = append(args, call("gen", append([]string{strconv.Quote(filter), strconv.Quote(name), pos}, vals[:n]...)...))
		vals = vals[n:]
	}
	return tval{pre: pre, val: call("geniter", args...)}
}

// inOrder joins the actions of operands that Jinja2 evaluates left to
// right, binding an operand's value to a variable when one after it has
// actions of its own: those run first, and would otherwise fail before
// the operand does (a default's argument holding a conditional, seed 201
// case 14864).
func (e *ttEmitter) inOrder(operands ...tval) (pre string, vals []string) {
	vals = make([]string, len(operands))
	for i, v := range operands {
		pre += v.pre
		vals[i] = v.val
		later := slices.ContainsFunc(operands[i+1:], func(o tval) bool { return o.pre != "" })
		if later && strings.HasPrefix(v.val, "(") {
			vals[i] = e.temp("op")
			pre += action(vals[i] + " := " + v.val)
		}
	}
	return pre, vals
}

// dynOps names the operations of ttfuncs' dyn.
var dynOps = map[ir.DynOp]string{
	ir.DynAttr: "attr", ir.DynItem: "item", ir.DynIterItem: "iteratoritem", ir.DynSlice: "slice", ir.DynEqual: "equal",
	ir.DynCompare: "compare", ir.DynArith: "arith", ir.DynNeg: "neg", ir.DynContains: "contains",
	ir.DynTest: "test", ir.DynLength: "length", ir.DynStr: "str", ir.DynAsString: "asstring", ir.DynAsInt: "asint", ir.DynAsIndex: "asindex",
	ir.DynDefault: "default", ir.DynToJSON: "tojson", ir.DynFirst: "first", ir.DynLast: "last",
	ir.DynJoin: "join", ir.DynList: "list", ir.DynGet: "get", ir.DynKeys: "keys",
	ir.DynValues: "values", ir.DynItems: "items", ir.DynItemsList: "itemslist", ir.DynFilter: "filter",
	ir.DynMapFilter: "mapfilter", ir.DynTuple: "tuple", ir.DynUnpacked: "unpackitem",
	ir.DynMarkup: "markup", ir.DynMarkupItems: "markup", ir.DynMissing: "missing", ir.DynStrOperand: "stroperand",
	ir.DynGenerator: "generator", ir.DynMethod: "method", ir.DynIterator: "iterator",
}

// dynIter is what a loop over a dynamic iterable ranges over: its items,
// or with two targets over .items() or |items, the (key, value) pairs.
func (e *ttEmitter) dynIter(n *ir.For) tval {
	if d, ok := n.Iter.(*ir.Dynamic); ok && d.Op == ir.DynItems {
		return e.dynamic(d)
	}
	v := e.expr(n.Iter)
	return tval{pre: v.pre, val: call("dyn", `"iter"`, e.pos(n.Pos), v.val)}
}
