package difffuzz

// The chat cases (family "dynamic"): prompt files with `inputs: chat`
// whose templates work on the chat context's dynamic values
// (runtime/jinja.Value), rendered with a random chat context (chatdata.go).

import (
	"strconv"
	"strings"

	"github.com/promptgen/promptgen/internal/pyjinja"
)

// fzDynVar is a dynamic name in scope and the shape its data usually has.
type fzDynVar struct {
	name, shape string
}

// fzShape is what a value of a shape usually holds: the keys of a dict
// (and the shape under each), or the shape of a list's items.
type fzShape struct {
	keys []string
	sub  map[string]string
	elem string
}

// fzShapes are the shapes of a chat context's data, as ChatData makes
// it; "any" is a value of any shape.
var fzShapes = map[string]fzShape{
	"messages": {elem: "message"},
	"message": {keys: []string{"role", "content", "name", "tool_calls", "tool_call_id", "reasoning_content"},
		sub: map[string]string{"content": "content", "tool_calls": "calls"}},
	"content":   {elem: "part", keys: []string{"type", "text"}},
	"part":      {keys: []string{"type", "text", "image"}},
	"calls":     {elem: "call"},
	"call":      {keys: []string{"id", "type", "function"}, sub: map[string]string{"function": "function"}},
	"function":  {keys: []string{"name", "arguments", "description", "parameters"}, sub: map[string]string{"parameters": "params"}},
	"params":    {keys: []string{"type", "properties", "required"}, sub: map[string]string{"properties": "any"}},
	"tools":     {elem: "tool"},
	"tool":      {keys: []string{"type", "function"}, sub: map[string]string{"function": "function"}},
	"documents": {elem: "document"},
	"document":  {keys: []string{"doc_id", "text"}},
	"any":       {keys: fzDynKeys, elem: "any"},
}

var (
	// fzDynKeys are the keys of the data's other dicts.
	fzDynKeys = []string{"a", "b", "x y", "é", "type", "text", "name", "n", "0"}
	// fzDynMethodKeys are keys that name a dict or str method: a subscript
	// with one reads the method where the key is absent, which promptgen
	// rejects.
	fzDynMethodKeys = []string{"items", "get", "keys", "values", "upper", "strip", "title"}
	fzRoles         = []string{"system", "user", "assistant", "tool", "developer"}
	fzDynLocals     = []string{"x", "y", "content", "system", "rest", "last", "acc", "text", "role"}
	fzDynLoopNames  = []string{"message", "m", "part", "call", "item", "it", "v"}
	fzDynTests      = []string{"defined", "undefined", "none", "string", "mapping", "iterable", "sequence", "number",
		"boolean", "integer", "float", "true", "false", "callable"}
)

// chatCase makes c a chat case.
func (g *fzGen) chatCase(c *Case) *Case {
	c.chat = true
	c.Env = pyjinja.Env{TrimBlocks: g.chance(0.5), LstripBlocks: g.chance(0.5), KeepTrailingNewline: g.chance(0.2)}
	if g.on("profile") && g.chance(0.3) {
		// What the corpus's templates run under.
		c.Env.Profile, c.Env.TrimBlocks, c.Env.LstripBlocks = true, true, true
		g.profile = true
	}
	g.scopes = []*fzScope{{types: map[string]*fzType{}}}
	g.dyn = []*fzDynVar{{"messages", "messages"}, {"tools", "tools"}, {"documents", "documents"}}
	g.budget = 2 + g.r.IntN(8)
	var b strings.Builder
	if g.chance(0.5) {
		// The shape of most chat templates: one loop over the messages.
		for range g.r.IntN(3) {
			b.WriteString(g.dynStmt())
		}
		b.WriteString(g.dynFor(fzExpr{text: "messages", prec: precPrimary}, "messages"))
	}
	for g.budget > 0 {
		b.WriteString(g.dynStmt())
	}
	c.Template = b.String()
	c.File = c.Key + ".yaml"
	c.Source = g.promptFile(c, "chat")
	return c
}

func (g *fzGen) dynStmt() string {
	g.budget--
	var out string
	deep := g.ifs+g.loops < 3 && g.budget > 0
	g.choose(
		choice{15, true, func() { out = g.text() }},
		choice{30, true, func() { out = g.dynPrint() }},
		choice{12, deep, func() { out = g.dynIf() }},
		choice{10, deep, func() { out = g.dynLoop() }},
		choice{10, true, func() { out = g.dynSet() }},
		choice{2, true, func() { out = g.comment() }},
		choice{2, g.profile && g.on("raise"), func() { out = g.dynRaise() }},
	)
	return out
}

// dynRaise raises, under a condition, with a message built from dynamic
// values, as chat templates reject a message's role.
func (g *fzGen) dynRaise() string {
	x, _ := g.dynExpr(1)
	msg := g.binary(fzExpr{text: "'bad: '", prec: precPrimary}, g.pick([]string{"~", "+"}), x, precConcat)
	raise := g.open("{{") + " raise_exception(" + msg.text + ") " + g.close("}}")
	return g.tag("if "+g.wrap(g.dynCond(1), precOr)) + raise + g.tag("endif")
}

func (g *fzGen) dynBody() string { return g.block(g.dynStmt) }

func (g *fzGen) dynPrint() string {
	var e fzExpr
	g.choose(
		choice{12, true, func() { e, _ = g.dynExpr(2) }},
		choice{2, true, func() { e = g.dynToJSON() }},
		choice{3, true, func() { e = g.dynCond(2) }},
		choice{2, true, func() {
			x, _ := g.dynExpr(1)
			y, _ := g.dynExpr(1)
			e = g.binary(x, "~", y, precConcat)
		}},
		choice{1, true, func() {
			e = fzExpr{text: g.pick([]string{"bos_token", "eos_token", "add_generation_prompt"}), prec: precPrimary}
		}},
		choice{1, g.loops > 0, func() {
			e = fzExpr{text: "loop." + g.pick([]string{"index", "index0", "first", "last", "length", "revindex"}), prec: precPrimary}
		}},
		choice{2, g.loops > 0 && g.on("loop-neighbour"), func() {
			var ok bool
			if e, ok = g.dynNeighbour(); !ok {
				e = g.dynCond(1)
			}
		}},
		choice{1, g.loops > 0 && g.on("loop-cycle"), func() {
			e = fzExpr{text: "loop.cycle(" + g.strLit() + ", " + g.strLit() + ")", prec: precPrimary}
		}},
		choice{2, g.on("select"), func() { e = g.dynSelect() }},
	)
	return g.open("{{") + g.pad() + e.text + g.pad() + g.close("}}")
}

func (g *fzGen) dynToJSON() fzExpr {
	x, _ := g.dynExpr(1)
	if g.chance(0.2) {
		return g.filter(x, "tojson", g.kw("indent", strconv.Itoa(g.r.IntN(3))))
	}
	return g.filter(x, "tojson")
}

func (g *fzGen) dynIf() string {
	var b strings.Builder
	branch := func(kw string) {
		if kw != "else" {
			kw += " " + g.wrap(g.dynCond(2), precOr)
		}
		b.WriteString(g.tag(kw))
		g.ifs++
		b.WriteString(g.dynBody())
		g.ifs--
	}
	branch("if")
	for g.chance(0.3) {
		branch("elif")
	}
	if g.chance(0.4) {
		branch("else")
	}
	// A set in a branch stays set after the if (undefined when the branch
	// did not run): its names stay in scope.
	b.WriteString(g.tag("endif"))
	return b.String()
}

// dynLoop is a for loop over a dynamic value.
func (g *fzGen) dynLoop() string {
	x, shape := g.dynExpr(1)
	switch g.r.IntN(7) {
	case 0:
		return g.dynForItems(g.pick([]string{"items", "|items"}), x)
	case 1:
		return g.dynForKeys(x)
	case 2:
		if g.on("dyn-filters") {
			if g.chance(0.3) {
				return g.dynForItems("|dictsort", x)
			}
			name := g.pick([]string{"reverse", "sort", "batch(2)", "map(attribute='role')"})
			if g.chance(0.5) {
				x, shape = fzExpr{text: "messages", prec: precPrimary}, "messages"
			}
			if name != "reverse" && name != "sort" {
				shape = "any"
			}
			return g.dynFor(fzExpr{text: g.wrap(x, precUnary) + "|" + name, prec: precUnary}, shape)
		}
	}
	return g.dynFor(x, shape)
}

// dynFor is {% for v in x %} with an optional loop filter and else.
func (g *fzGen) dynFor(x fzExpr, shape string) string {
	name := g.pick(fzDynLoopNames)
	head := "for " + name + " in " + g.beforeName(x, precOr)
	n := len(g.dyn)
	g.dyn = append(g.dyn, &fzDynVar{name, fzShapes[shape].elem})
	if g.chance(0.15) {
		head += " if " + g.wrap(g.dynCond(1), precOr)
	}
	var item *fzType
	if x.text == "messages" {
		item = fzDynItem
	}
	return g.dynLoopBodyOf(head, n, item)
}

// fzDynItem is the item type of a loop over the messages, a list of
// dynamic values, where loop.previtem and loop.nextitem are supported.
var fzDynItem = &fzType{kind: fzObject}

// dynNeighbour is loop.previtem or loop.nextitem when the innermost loop
// is over the messages.
func (g *fzGen) dynNeighbour() (fzExpr, bool) {
	if !g.on("loop-neighbour") || g.loops == 0 || g.loopItems[len(g.loopItems)-1] != fzDynItem {
		return fzExpr{}, false
	}
	return fzExpr{text: "loop." + g.pick([]string{"previtem", "nextitem"}), prec: precPrimary}, true
}

// dynSelect is a select filter of the messages (or, in family
// select-dynamic, of any dynamic value), converted to a list.
func (g *fzGen) dynSelect() fzExpr {
	x := fzExpr{text: "messages", prec: precPrimary}
	if g.on("select-dynamic") && g.chance(0.5) {
		x, _ = g.dynExpr(1)
	}
	var name string
	var args []string
	switch g.r.IntN(3) {
	case 0:
		name = g.pick([]string{"selectattr", "rejectattr"})
		args = []string{"'role'", "'" + g.pick([]string{"equalto", "ne", "in"}) + "'"}
		if args[1] == "'in'" {
			args[1] += ", ['" + g.pick(fzRoles) + "', '" + g.pick(fzRoles) + "']"
		} else {
			args[1] += ", '" + g.pick(fzRoles) + "'"
		}
	case 1:
		name = g.pick([]string{"selectattr", "rejectattr"})
		args = []string{"'" + g.pick(fzShapes["message"].keys) + "'"}
		if g.chance(0.7) {
			args = append(args, "'"+g.pick([]string{"defined", "undefined", "none", "string", "mapping"})+"'")
		}
	default:
		name = g.pick([]string{"select", "reject"})
		if g.chance(0.7) {
			args = []string{"'" + g.pick([]string{"defined", "mapping", "string"}) + "'"}
		}
		if g.on("select-dynamic") && g.chance(0.5) {
			args = []string{"'" + g.pick(fzDynTests) + "'"}
			if g.chance(0.3) {
				args = []string{"'" + g.pick([]string{"eq", "ne", "in", "=="}) + "'", g.strLit()}
			}
		}
	}
	return g.filter(g.filter(x, name, args...), "list")
}

// dynForItems is {% for k, v in x.items() %}, x|items or x|dictsort.
func (g *fzGen) dynForItems(how string, x fzExpr) string {
	iter := g.method(x, "items")
	if how != "items" {
		iter = g.filter(x, how[1:])
	}
	k, v := g.pick([]string{"k", "key", "name"}), g.pick([]string{"v", "value", "val"})
	n := len(g.dyn)
	g.dyn = append(g.dyn, &fzDynVar{k, "any"}, &fzDynVar{v, "any"})
	return g.dynLoopBody("for "+k+", "+v+" in "+g.beforeName(iter, precOr), n)
}

// dynForKeys is a loop over x.keys() or x.values().
func (g *fzGen) dynForKeys(x fzExpr) string {
	name := g.pick(fzDynLoopNames)
	n := len(g.dyn)
	g.dyn = append(g.dyn, &fzDynVar{name, "any"})
	return g.dynLoopBody("for "+name+" in "+g.method(x, g.pick([]string{"keys", "values"})).text, n)
}

// dynLoopBody closes a loop whose names from n on are its own.
func (g *fzGen) dynLoopBody(head string, n int) string { return g.dynLoopBodyOf(head, n, nil) }

// dynLoopBodyOf is dynLoopBody of a loop whose items have type item.
func (g *fzGen) dynLoopBodyOf(head string, n int, item *fzType) string {
	g.enterLoop(item)
	body := g.dynBody()
	g.leaveLoop()
	g.dyn = g.dyn[:n]
	out := g.tag(head) + body
	if g.chance(0.2) {
		g.forElse++
		out += g.tag("else") + g.dynBody()
		g.forElse--
		g.dyn = g.dyn[:n]
	}
	return out + g.tag("endfor")
}

// dynSet sets a local to a value computed from the chat context. A set
// in a loop's body is seen only there.
func (g *fzGen) dynSet() string {
	name := g.pick(fzDynLocals)
	if g.loops == 0 && g.ifs == 0 && g.chance(0.1) {
		name = "messages"
	}
	var x fzExpr
	shape := "any"
	if name == "messages" {
		x = g.slice(fzExpr{text: "messages", prec: precPrimary})
		shape = "messages"
	} else {
		x, shape = g.dynExpr(2)
	}
	g.dyn = append(g.dyn, &fzDynVar{name, shape})
	return g.tag("set " + name + " = " + x.text)
}

// dynRef is a dynamic name in scope followed by up to two accesses.
func (g *fzGen) dynRef() (fzExpr, string) {
	v := g.dyn[g.r.IntN(len(g.dyn))]
	e, shape := fzExpr{text: v.name, prec: precPrimary}, v.shape
	if x, ok := g.dynNeighbour(); ok && g.chance(0.2) {
		e, shape = x, "message" // undefined at an end, where an access fails on both sides
	}
	for range g.r.IntN(3) {
		e, shape = g.dynAccess(e, shape)
	}
	return e, shape
}

// shapeKey picks a key of a value of shape s (or any key, sometimes) and
// the shape of its value, "any" when not known.
func (g *fzGen) shapeKey(s fzShape) (key, sub string) {
	keys := s.keys
	if len(keys) == 0 || g.chance(0.2) {
		keys = fzDynKeys
	}
	key = g.pick(keys)
	if sub = s.sub[key]; sub == "" {
		sub = "any"
	}
	return key, sub
}

// dynAccess is a key, index, slice or get() of e.
func (g *fzGen) dynAccess(e fzExpr, shape string) (fzExpr, string) {
	s := fzShapes[shape]
	key := func() (string, string) { return g.shapeKey(s) }
	var out fzExpr
	sub := "any"
	g.choose(
		choice{6, s.keys != nil, func() {
			k, sh := key()
			sub = sh
			if strings.ContainsAny(k, " é0") || g.chance(0.4) {
				out = fzExpr{text: g.wrap(e, precPrimary) + "['" + k + "']", prec: precPrimary}
			} else {
				out = fzExpr{text: g.wrap(e, precPrimary) + "." + k, prec: precPrimary}
			}
		}},
		choice{1, g.chance(0.2), func() {
			out = fzExpr{text: g.wrap(e, precPrimary) + "['" + g.pick(fzDynMethodKeys) + "']", prec: precPrimary}
		}},
		choice{4, s.elem != "", func() {
			sub = s.elem
			i := g.pick([]string{"0", "1", "-1", "2", "-2"})
			if g.loops > 0 && g.chance(0.3) {
				i = "loop.index0"
			}
			out = fzExpr{text: g.wrap(e, precPrimary) + "[" + i + "]", prec: precPrimary}
		}},
		choice{2, true, func() {
			sub = shape
			out = g.slice(e)
		}},
		choice{3, s.keys != nil, func() {
			k, sh := key()
			sub = sh
			if g.chance(0.5) {
				d, _ := g.dynLeaf()
				out = g.method(e, "get", "'"+k+"'", g.wrap(d, precCond))
			} else {
				out = g.method(e, "get", "'"+k+"'")
			}
		}},
	)
	return out, sub
}

// dynLeaf is a dynamic reference or a literal.
func (g *fzGen) dynLeaf() (fzExpr, string) {
	if g.chance(0.7) {
		return g.dynRef()
	}
	return g.dynLit(), "any"
}

// dynLit is a literal of any kind a dynamic value converts from.
func (g *fzGen) dynLit() fzExpr {
	var e fzExpr
	g.choose(
		choice{4, true, func() { e = g.lit(fzStr) }},
		choice{3, true, func() { e = g.lit(fzIntT) }},
		choice{1, true, func() { e = g.lit(fzFlt) }},
		choice{1, true, func() { e = g.lit(fzBoolT) }},
		choice{1, true, func() { e = fzExpr{text: g.pick([]string{"none", "None"}), prec: precPrimary} }},
		choice{1, true, func() { e = g.lit(listOf([]*fzType{fzStr, fzIntT, fzFlt, fzBoolT}[g.r.IntN(4)])) }},
		choice{1, true, func() { e = fzExpr{text: "'" + g.pick(fzRoles) + "'", prec: precPrimary} }},
	)
	return e
}

// dynExpr is an expression with a dynamic operand, and the shape of its
// value.
func (g *fzGen) dynExpr(d int) (fzExpr, string) { return g.dynValue(d, true) }

// dynOperand is a dynamic expression, mostly one of dynamic type: an
// operation on typed operands (a length, a concatenation) is typed, and
// promptgen rejects a typed operation that Python would fail at run time.
func (g *fzGen) dynOperand(d int) (fzExpr, string) { return g.dynValue(d, g.chance(0.15)) }

// dynValue is dynExpr, with typed results only when typed is set.
func (g *fzGen) dynValue(d int, typed bool) (fzExpr, string) {
	if d <= 0 {
		return g.dynLeaf()
	}
	sub := func() fzExpr { x, _ := g.dynOperand(d - 1); return x }
	var e fzExpr
	shape := "any"
	g.choose(
		choice{12, true, func() { e, shape = g.dynRef() }},
		choice{2, typed, func() { e = g.dynLit() }},
		choice{3, true, func() {
			op := g.pick([]string{"+", "-", "*", "/", "//", "%", "+", "+"})
			prec := precMul
			if op == "+" || op == "-" {
				prec = precAdd
			}
			x, y := sub(), sub()
			switch {
			case op == "%" && !g.on("dyn-str-format"):
				y = g.lit([]*fzType{fzIntT, fzFlt}[g.r.IntN(2)])
			case g.chance(0.5):
				y = g.dynLit()
			}
			e = g.binary(x, op, y, prec)
		}},
		choice{1, true, func() {
			y := fzExpr{text: strconv.Itoa(g.r.IntN(4)), prec: precPrimary}
			x, _ := g.dynLeaf()
			e = g.binary(x, "**", y, precPow)
		}},
		choice{1, true, func() { e = fzExpr{text: "-" + g.wrap(sub(), precPrimary), prec: precUnary} }},
		choice{2, typed, func() { e = g.binary(sub(), "~", sub(), precConcat) }},
		choice{3, true, func() {
			x, sh := g.dynOperand(d - 1)
			shape = sh
			args := []string{g.wrap(sub(), precCond)}
			if g.chance(0.3) {
				args = append(args, g.kw("boolean", g.pick([]string{"true", "false"})))
			}
			e = g.filter(x, g.pick([]string{"default", "d"}), args...)
		}},
		choice{2, true, func() {
			x, sh := g.dynOperand(d - 1)
			shape = fzShapes[sh].elem
			e = g.filter(x, g.pick([]string{"first", "last"}))
		}},
		choice{1, true, func() {
			x, sh := g.dynOperand(d - 1)
			shape = sh
			e = g.filter(x, "list")
		}},
		choice{6, g.on("dyn-filters"), func() { e, shape = g.dynFilter(d) }},
		choice{2, typed, func() {
			e = g.filter(sub(), g.pick([]string{"length", "count", "string", "upper", "lower", "trim", "title"}))
		}},
		choice{1, typed, func() {
			var args []string
			if g.chance(0.6) {
				args = append(args, g.strLit())
			}
			e = g.filter(sub(), "join", args...)
		}},
		choice{2, typed, func() {
			name := g.pick([]string{"strip", "upper", "lower", "startswith", "endswith", "split", "replace", "lstrip"})
			var args []string
			switch name {
			case "startswith", "endswith":
				args = []string{g.strLit()}
			case "replace":
				args = []string{g.strLit(), g.strLit()}
			}
			e = g.method(sub(), name, args...)
		}},
		choice{2, true, func() {
			x, sh := g.dynOperand(d - 1)
			y, _ := g.dynOperand(d - 1)
			shape = sh
			c := g.dynCond(d - 1)
			y = g.operand(y, precCond)
			e = fzExpr{text: g.beforeName(x, precOr) + " if " + g.wrap(c, precOr) + " else " + y.text, prec: precCond, openRight: y.openRight}
		}},
		choice{1, true, func() {
			x := g.andOrLeft(sub)
			if g.chance(0.5) {
				e = g.binary(x, "and", sub(), precAnd)
			} else {
				e = g.binary(x, "or", sub(), precOr)
			}
		}},
	)
	return e, shape
}

// dynFilter is a filter of a dynamic value or of the messages that
// Jinja2 computes with Python's semantics: sort, dictsort, int, float and
// abs as values, and reverse, map, batch, items and the dict views
// consumed by list, join, first, length (views) or sort.
func (g *fzGen) dynFilter(d int) (fzExpr, string) {
	x, shape := g.dynOperand(d - 1)
	if g.chance(0.4) {
		v := g.pick([]string{"messages", "messages", "tools", "documents"})
		x, shape = fzExpr{text: v, prec: precPrimary}, v
		if g.chance(0.3) {
			x = g.slice(x)
		}
	}
	s := fzShapes[shape]
	key := func() (string, string) {
		if e := fzShapes[s.elem]; e.keys != nil && g.chance(0.8) {
			s = e
		}
		k, sub := g.shapeKey(s)
		if sub != "any" && g.chance(0.4) {
			k2 := g.pick(append(fzShapes[sub].keys, "0"))
			return k + "." + k2, "any"
		}
		return k, sub
	}
	bools := func(names ...string) []string {
		var args []string
		for _, n := range names {
			if g.chance(0.4) {
				args = append(args, n+"="+g.pick([]string{"true", "false"}))
			}
		}
		return args
	}
	var e fzExpr
	out := "any"
	iterated := false
	g.choose(
		choice{3, true, func() {
			args := bools("reverse", "case_sensitive")
			out = shape
			if g.chance(0.6) {
				k, _ := key()
				if g.chance(0.2) {
					k2, _ := key()
					k += "," + k2
				}
				args = append(args, "attribute='"+k+"'")
			}
			e = g.filter(x, "sort", args...)
		}},
		choice{2, true, func() {
			args := bools("case_sensitive")
			if g.chance(0.4) {
				args = append(args, "by='"+g.pick([]string{"key", "value", "key", "value", "k"})+"'")
			}
			e = g.filter(x, "dictsort", append(args, bools("reverse")...)...)
		}},
		choice{2, true, func() {
			var args []string
			if g.chance(0.3) {
				args = append(args, g.wrap(g.dynLit(), precCond))
			}
			if g.chance(0.2) {
				args = append(args, g.pick([]string{"0", "2", "8", "16"}))
			}
			e = g.filter(x, "int", args...)
		}},
		choice{1, true, func() {
			var args []string
			if g.chance(0.3) {
				args = append(args, g.wrap(g.dynLit(), precCond))
			}
			e = g.filter(x, "float", args...)
		}},
		choice{1, true, func() { e = g.filter(x, "abs") }},
		choice{3, true, func() { e, out, iterated = g.filter(x, "reverse"), shape, true }},
		choice{4, true, func() {
			k, _ := key()
			args := []string{"attribute='" + k + "'"}
			if g.chance(0.3) {
				args = append(args, "default="+g.wrap(g.dynLit(), precCond))
			}
			e, iterated = g.filter(x, "map", args...), true
		}},
		choice{2, true, func() {
			name := g.pick([]string{"upper", "lower", "title", "capitalize", "trim", "string", "length", "count", "int", "float", "abs", "first", "last"})
			e, iterated = g.filter(x, "map", "'"+name+"'"), true
		}},
		choice{2, true, func() {
			args := []string{strconv.Itoa(g.r.IntN(4))}
			if g.chance(0.4) {
				args = append(args, g.wrap(g.dynLit(), precCond))
			}
			e, iterated = g.filter(x, "batch", args...), true
		}},
		choice{2, true, func() { e, iterated = g.filter(x, "items"), true }},
		choice{3, true, func() {
			e, iterated = g.method(x, g.pick([]string{"items", "keys", "values"})), true
			if g.chance(0.2) {
				e, iterated = g.filter(e, "length"), false
			}
		}},
	)
	if iterated || g.chance(0.2) {
		g.choose(
			choice{6, true, func() { e = g.filter(e, "list") }},
			choice{2, true, func() {
				var args []string
				if g.chance(0.6) {
					args = append(args, g.strLit())
				}
				e, out = g.filter(e, "join", args...), "any"
			}},
			choice{2, true, func() { e, out = g.filter(e, "first"), "any" }},
			choice{1, true, func() { e = g.filter(e, "sort") }},
		)
	}
	return e, out
}

// dynCond is a condition on dynamic values.
func (g *fzGen) dynCond(d int) fzExpr {
	sub := func() fzExpr { x, _ := g.dynOperand(max(d-1, 0)); return x }
	var e fzExpr
	g.choose(
		choice{5, true, func() { e = g.isTest(sub(), g.pick(fzDynTests)) }},
		choice{4, true, func() {
			op := g.pick([]string{"==", "!=", "<", ">", "<=", ">=", "==", "=="})
			y := sub()
			if g.chance(0.6) {
				y = g.dynLit()
			}
			e = g.compare(sub(), op, y)
		}},
		choice{4, true, func() {
			op := g.pick([]string{"in", "not in"})
			switch g.r.IntN(3) {
			case 0:
				k := g.pick(append(fzShapes["message"].keys, fzDynKeys...))
				e = g.compare(fzExpr{text: "'" + k + "'", prec: precPrimary}, op, sub())
			case 1:
				e = g.compare(sub(), op, g.dynLit())
			default:
				e = g.compare(sub(), op, sub())
			}
		}},
		choice{3, true, func() { e = sub() }},
		choice{2, g.on("dyn-filters"), func() {
			// in iterates a generator.
			x, _ := g.dynOperand(max(d-1, 0))
			y := g.filter(x, "map", "attribute='"+g.pick(append(fzShapes["message"].keys, fzDynKeys...))+"'")
			switch g.r.IntN(3) {
			case 0:
				y = g.filter(x, "reverse")
			case 1:
				y = g.method(x, "values")
			}
			left := g.dynLit()
			if g.chance(0.3) {
				left = sub()
			}
			e = g.compare(left, g.pick([]string{"in", "not in"}), y)
		}},
		choice{1, d > 0, func() { e = g.not(g.dynCond(d - 1)) }},
		choice{2, d > 0, func() {
			x := g.andOrLeft(func() fzExpr { return g.dynCond(d - 1) })
			if g.chance(0.5) {
				e = g.binary(x, "and", g.dynCond(d-1), precAnd)
			} else {
				e = g.binary(x, "or", g.dynCond(d-1), precOr)
			}
		}},
		choice{1, g.loops > 0, func() { e = fzExpr{text: "loop." + g.pick([]string{"first", "last"}), prec: precPrimary} }},
		choice{2, g.loops > 0 && g.on("loop-neighbour"), func() {
			x, ok := g.dynNeighbour()
			if !ok {
				e = fzExpr{text: "add_generation_prompt", prec: precPrimary}
				return
			}
			if g.chance(0.5) {
				e = g.isTest(x, g.pick([]string{"defined", "undefined"}))
			} else {
				// As chat templates compare roles, guarded.
				e = fzExpr{text: x.text + " is defined and " + x.text + ".role == " + "'" + g.pick(fzRoles) + "'", prec: precAnd}
			}
		}},
		choice{1, true, func() { e = fzExpr{text: "add_generation_prompt", prec: precPrimary} }},
	)
	return e
}
