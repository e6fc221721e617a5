package difffuzz

// The chat cases (family "dynamic"): prompt files with `inputs: chat`
// whose templates work on the chat context's dynamic values
// (runtime/jinja.Value), rendered with a random chat context (chatdata.go).

import (
	"slices"
	"strconv"
	"strings"

	"github.com/promptgen/promptgen/internal/pyjinja"
)

// dynVar is a dynamic name in scope and the shape its data usually has.
type dynVar struct {
	name, shape string
}

// shapeSpec is what a value of a shape usually holds: the keys of a dict
// (and the shape under each), or the shape of a list's items.
type shapeSpec struct {
	keys []string
	sub  map[string]string
	elem string
}

// shapes are the shapes of a chat context's data, as ChatData makes
// it; "any" is a value of any shape.
var shapes = map[string]shapeSpec{
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
	"any":       {keys: dynKeys, elem: "any"},
}

var (
	// dynKeys are the keys of the data's other dicts.
	dynKeys = []string{"a", "b", "x y", "é", "type", "text", "name", "n", "0"}
	// dynMethodKeys are keys that name a dict, str or list method: a
	// subscript with one reads the method where the key is absent, and an
	// attribute of a dict is its method, which is a value (true, callable)
	// that promptgen does not print.
	dynMethodKeys = []string{"items", "get", "keys", "values", "upper", "strip", "title", "format", "count"}
	roles         = []string{"system", "user", "assistant", "tool", "developer"}
	dynLocals     = []string{"x", "y", "content", "system", "rest", "last", "acc", "text", "role"}
	dynLoopNames  = []string{"message", "m", "part", "call", "item", "it", "v"}
	dynTests      = []string{"defined", "undefined", "none", "string", "mapping", "iterable", "sequence", "number",
		"boolean", "integer", "float", "true", "false", "callable", "lower", "upper", "escaped", "filter", "test"}
)

// chatCase makes c a chat case.
func (g *generator) chatCase(c *Case) *Case {
	c.chat = true
	c.Env = pyjinja.Env{TrimBlocks: g.chance(0.5), LstripBlocks: g.chance(0.5), KeepTrailingNewline: g.chance(0.2)}
	if g.on("profile") && g.chance(0.3) {
		// What the corpus's templates run under.
		c.Env.Profile, c.Env.TrimBlocks, c.Env.LstripBlocks = true, true, true
		g.profile = true
	}
	g.scopes = []*scope{{types: map[string]*valueType{}}}
	g.dyn = []*dynVar{{"messages", "messages"}, {"tools", "tools"}, {"documents", "documents"}}
	g.budget = 2 + g.r.IntN(8)
	var b strings.Builder
	if g.on("macro-recursive") && g.chance(0.3) {
		b.WriteString(g.recursiveMacros())
	}
	if g.chance(0.5) {
		// The shape of most chat templates: one loop over the messages.
		for range g.r.IntN(3) {
			b.WriteString(g.dynStmt())
		}
		b.WriteString(g.dynFor(expression{text: "messages", prec: precPrimary}, "messages"))
	}
	for g.budget > 0 {
		b.WriteString(g.dynStmt())
	}
	c.Template = b.String()
	c.File = c.Key + ".yaml"
	c.Source = g.promptFile(c, "chat")
	return c
}

func (g *generator) dynStmt() string {
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
		choice{15, g.walks, func() { out = g.walkCall() }},
	)
	return out
}

// recursiveMacros defines walk (family macro-recursive), a macro that
// calls itself, as chat templates print tool schemas: on the items of its
// argument v, directly or through walk_items, or on v again, until its
// depth d reaches a small limit; its body prints dynamic expressions of v
// and of the chat context around the recursion.
func (g *generator) recursiveMacros() string {
	saved := *g
	g.dyn = append(slices.Clip(g.dyn), &dynVar{"v", "any"})
	g.scopes = []*scope{{types: map[string]*valueType{}}}
	g.budget = 1 + g.r.IntN(3)
	deeper := func(x string) string {
		if g.chance(0.3) {
			return "walk(" + x + ", d=d + 1)"
		}
		return "walk(" + x + ", d + 1)"
	}
	withCaller := g.on("macro-recursive-caller") && g.chance(0.4)
	printed := func(call string) string {
		return g.pick([]string{"{{ " + call + " }}", "{{ " + call + "|trim }}", "{{ '<' ~ " + call + " ~ '>' }}", "{{ (" + call + ")|length }}"})
	}
	// recurse prints a call of deeper on x, in a {% call %} block whose
	// body reads the names around it (names) where walk reads caller.
	recurse := func(x string, names ...string) string {
		if !withCaller || g.chance(0.2) {
			return printed(deeper(x))
		}
		body := g.pick([]string{"[", "|", ""})
		for _, n := range names {
			if g.chance(0.6) {
				body += "{{ " + n + "|string|length }}{{ " + n + " is mapping }}"
			}
		}
		return g.tag("call "+deeper(x)) + body + g.tag("endcall")
	}
	items := g.tag("if v is mapping") + g.tag("for k, c in v|dictsort") + "{{ k }}:" + recurse("c", "k", "c", "d") + g.tag("endfor") +
		g.tag("elif v is iterable and v is not string") + g.tag("for c in v") + recurse("c", "c", "v") + g.tag("endfor") + g.tag("endif")
	var defs, recursion string
	switch g.r.IntN(3) {
	case 0:
		recursion = items
	case 1: // on v again
		recursion = recurse("v", "v", "d")
	default: // through another macro, defined first
		defs = g.tag("macro walk_items(v, d)") + items + g.tag("endmacro")
		recursion = printed("walk_items(v, d)")
	}
	// Half the bodies print what holds for any value, so that more
	// renderings get through the recursion without an error.
	around := func() string {
		if g.chance(0.5) {
			return g.dynBody()
		}
		return g.pick([]string{"{{ d }}|", "{{ v if v is string }}", "{{ v is mapping }}", "{{ (v|string)[:6] }}",
			"{% if v is number %}{{ v + 1 }}{% endif %}", "{{ 'L' ~ v|length if v is iterable }}"})
	}
	body := around() + g.tag("if d < "+strconv.Itoa(1+g.r.IntN(3))) + recursion + g.tag("endif") + around()
	if withCaller {
		// The caller's output, as a namespace's first field (minicpm3),
		// printed once or twice, or never (Jinja2 passes a caller only to
		// a macro that reads it).
		body = g.pick([]string{"{% set o = namespace(f=caller()) %}" + body + "{{ o.f }}", "{{ caller() }}" + body,
			body + "{{ caller()|length }}{{ caller() }}", body + "{{ caller() if d > 9 }}"})
	}
	saved.mustSet, saved.r = g.mustSet, g.r
	*g = saved
	g.walks, g.walkCaller = true, withCaller
	g.walkSlicesStr = strings.Contains(defs+body, "|string)[:")
	return defs + g.tag("macro walk(v, d=0)") + body + g.tag("endmacro")
}

// walkCall prints a call of walk on a dynamic value: a name in scope, or
// an expression.
func (g *generator) walkCall() string {
	x := g.dyn[g.r.IntN(len(g.dyn))].name
	if g.chance(0.5) {
		e, _ := g.dynExpr(1)
		x = e.text
	}
	if g.on("generator-recursive-arg") && !g.walkSlicesStr && g.chance(0.3) {
		// Passed unrun, as Hermes-2-Pro's template passes json_spec|items.
		x = g.dynGenerator().text
	}
	call := "walk(" + x + ")"
	if g.chance(0.3) {
		call = "walk(" + x + ", " + strconv.Itoa(g.r.IntN(2)) + ")"
	}
	if g.walkCaller && g.chance(0.8) {
		// The block's body reads the names in scope.
		body := "{{ '*' }}"
		if n := g.dyn[g.r.IntN(len(g.dyn))].name; g.chance(0.5) {
			body += "{{ " + n + "|length }}"
		}
		return g.tag("call "+call) + body + g.tag("endcall")
	}
	return "{{ " + call + " }}"
}

// dynRaise raises, under a condition, with a message built from dynamic
// values, as chat templates reject a message's role.
func (g *generator) dynRaise() string {
	x, _ := g.dynExpr(1)
	msg := g.binary(expression{text: "'bad: '", prec: precPrimary}, g.pick([]string{"~", "+"}), x, precConcat)
	raise := g.open("{{") + " raise_exception(" + msg.text + ") " + g.close("}}")
	return g.tag("if "+g.wrap(g.dynCond(1), precOr)) + raise + g.tag("endif")
}

func (g *generator) dynBody() string { return g.block(g.dynStmt) }

func (g *generator) dynPrint() string {
	var e expression
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
			e = expression{text: g.pick([]string{"bos_token", "eos_token", "add_generation_prompt"}), prec: precPrimary}
		}},
		choice{1, g.loops > 0, func() {
			e = expression{text: "loop." + g.pick([]string{"index", "index0", "first", "last", "length", "revindex"}), prec: precPrimary}
		}},
		choice{2, g.loops > 0 && g.on("loop-neighbour"), func() {
			var ok bool
			if e, ok = g.dynNeighbour(); !ok {
				e = g.dynCond(1)
			}
		}},
		choice{1, g.loops > 0 && g.on("loop-cycle"), func() {
			e = expression{text: "loop.cycle(" + g.strLit() + ", " + g.strLit() + ")", prec: precPrimary}
		}},
		choice{2, g.on("select"), func() { e = g.dynSelect() }},
		choice{1, g.on("generator-test") || g.on("generator-index"), func() { e = g.dynGeneratorValue() }},
		// Where it may not run: json.dumps raises TypeError where it runs.
		choice{1, g.on("generator-tojson") && (g.ifs > 0 || g.loops > 0), func() { e = g.tojson(g.dynGenerator()) }},
	)
	return g.open("{{") + g.pad() + e.text + g.pad() + g.close("}}")
}

func (g *generator) dynToJSON() expression {
	x, _ := g.dynExpr(1)
	return g.tojson(x)
}

func (g *generator) dynIf() string {
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
func (g *generator) dynLoop() string {
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
				x, shape = expression{text: "messages", prec: precPrimary}, "messages"
			}
			if name != "reverse" && name != "sort" {
				shape = "any"
			}
			return g.dynFor(expression{text: g.wrap(x, precUnary) + "|" + name, prec: precUnary}, shape)
		}
	}
	return g.dynFor(x, shape)
}

// dynFor is {% for v in x %} with an optional loop filter and else.
func (g *generator) dynFor(x expression, shape string) string {
	name := g.pick(dynLoopNames)
	head := "for " + name + " in " + g.beforeName(x, precOr)
	n := len(g.dyn)
	g.dyn = append(g.dyn, &dynVar{name, shapes[shape].elem})
	if g.chance(0.15) {
		head += " if " + g.wrap(g.dynCond(1), precOr)
	}
	var item *valueType
	if x.text == "messages" {
		item = dynLoopItem
	}
	return g.dynLoopBodyOf(head, n, item)
}

// dynLoopItem is the item type of a loop over the messages, a list of
// dynamic values, where loop.previtem and loop.nextitem are supported.
var dynLoopItem = &valueType{kind: kindObject}

// dynNeighbour is loop.previtem or loop.nextitem when the innermost loop
// is over the messages.
func (g *generator) dynNeighbour() (expression, bool) {
	if !g.on("loop-neighbour") || g.loops == 0 || g.loopItems[len(g.loopItems)-1] != dynLoopItem {
		return expression{}, false
	}
	return expression{text: "loop." + g.pick([]string{"previtem", "nextitem"}), prec: precPrimary}, true
}

// dynSelect is a select filter of the messages (or, in family
// select-dynamic, of any dynamic value), converted to a list.
func (g *generator) dynSelect() expression { return g.filter(g.dynSelectLazy(), "list") }

// dynSelectLazy is select, reject, selectattr or rejectattr of messages
// (or of a dynamic value), a generator.
func (g *generator) dynSelectLazy() expression {
	x := expression{text: "messages", prec: precPrimary}
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
			args[1] += ", ['" + g.pick(roles) + "', '" + g.pick(roles) + "']"
		} else {
			args[1] += ", '" + g.pick(roles) + "'"
		}
	case 1:
		name = g.pick([]string{"selectattr", "rejectattr"})
		args = []string{"'" + g.pick(shapes["message"].keys) + "'"}
		if g.chance(0.7) {
			args = append(args, "'"+g.pick([]string{"defined", "undefined", "none", "string", "mapping"})+"'")
		}
	default:
		name = g.pick([]string{"select", "reject"})
		if g.chance(0.7) {
			args = []string{"'" + g.pick([]string{"defined", "mapping", "string"}) + "'"}
		}
		if g.on("select-dynamic") && g.chance(0.5) {
			args = []string{"'" + g.pick(dynTests) + "'"}
			if g.chance(0.3) {
				args = []string{"'" + g.pick([]string{"eq", "ne", "in", "=="}) + "'", g.strLit()}
			}
		}
	}
	return g.filter(x, name, args...)
}

// dynGenerator is a generator of dynamic values: map, unique or a
// select of the messages.
func (g *generator) dynGenerator() expression {
	x := expression{text: "messages", prec: precPrimary}
	switch g.r.IntN(3) {
	case 0:
		return g.filter(x, "map", "attribute='"+g.pick(shapes["message"].keys)+"'")
	case 1:
		return g.filter(x, "unique")
	}
	return g.dynSelectLazy()
}

// dynGeneratorValue is a generator of dynamic values tested or subscripted
// by an int (families generator-test and generator-index), which Jinja2
// decides by its type alone (undefined for the subscript).
func (g *generator) dynGeneratorValue() expression {
	x := g.dynGenerator()
	if g.on("generator-index") && (!g.on("generator-test") || g.chance(0.5)) {
		return expression{text: g.wrap(x, precPrimary) + "[" + strconv.Itoa(g.r.IntN(3)-1) + "]", prec: precPrimary}
	}
	name := g.pick(generatorTests)
	if g.chance(0.3) {
		name = "not " + name
	}
	return expression{text: g.wrap(x, precPostfix) + " is " + name, prec: precPostfix, openRight: true}
}

// dynForItems is {% for k, v in x.items() %}, x|items or x|dictsort.
func (g *generator) dynForItems(how string, x expression) string {
	iter := g.method(x, "items")
	if how != "items" {
		iter = g.filter(x, how[1:])
	}
	k, v := g.pick([]string{"k", "key", "name"}), g.pick([]string{"v", "value", "val"})
	n := len(g.dyn)
	g.dyn = append(g.dyn, &dynVar{k, "any"}, &dynVar{v, "any"})
	return g.dynLoopBody("for "+k+", "+v+" in "+g.beforeName(iter, precOr), n)
}

// dynForKeys is a loop over x.keys() or x.values().
func (g *generator) dynForKeys(x expression) string {
	name := g.pick(dynLoopNames)
	n := len(g.dyn)
	g.dyn = append(g.dyn, &dynVar{name, "any"})
	return g.dynLoopBody("for "+name+" in "+g.method(x, g.pick([]string{"keys", "values"})).text, n)
}

// dynLoopBody closes a loop whose names from n on are its own.
func (g *generator) dynLoopBody(head string, n int) string { return g.dynLoopBodyOf(head, n, nil) }

// dynLoopBodyOf is dynLoopBody of a loop whose items have type item.
func (g *generator) dynLoopBodyOf(head string, n int, item *valueType) string {
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
func (g *generator) dynSet() string {
	name := g.pick(dynLocals)
	if g.loops == 0 && g.ifs == 0 && g.chance(0.1) {
		name = "messages"
	}
	var x expression
	shape := "any"
	if name == "messages" {
		x = g.slice(expression{text: "messages", prec: precPrimary})
		shape = "messages"
	} else {
		x, shape = g.dynExpr(2)
	}
	g.dyn = append(g.dyn, &dynVar{name, shape})
	return g.tag("set " + name + " = " + x.text)
}
