package gen

// The differential fuzzer's case generator: a random `inputs` schema and a
// random well-typed template over the whole supported subset
// (docs/template-language.md), built from weighted productions. Every production
// belongs to a named family, so that a family promptgen is known to get
// wrong can be switched off (fzExcluded) until its fix lands.

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// fzExcluded are the families the generator leaves out by default: each
// makes promptgen differ from Jinja2 on purpose, as docs/template-language.md's table of
// deliberate divergences says (with its own case in
// testdata/render/divergences). -difffuzz.enable turns one on for a run.
var fzExcluded = []string{
	"json-null",          // JSON null for an optional in the data: it means unset
	"index-out-of-range", // an index past the end stored in a list or dict: Render fails with ErrUndefined
	"first-empty",        // first/last of an empty list stored in a list or dict: Render fails with ErrUndefined
	"dyn-str-format",     // a dynamic string % a dict or undefined: Render fails with ErrInvalid (no printf formatting)
}

// fzFamilies are the families of the productions that are on by default.
// -difffuzz.enable and -difffuzz.disable accept these and fzExcluded.
var fzFamilies = []string{
	// Statements, whitespace and prompt files.
	"text", "print", "if", "elif", "else", "for", "for-else", "for-filter", "for-items", "for-string",
	"for-map", "loop-attr", "set", "set-tuple", "set-block", "set-in-if", "set-in-for",
	"loopvar-shadow", "comment", "raw", "ws-minus", "ws-plus", "ws-plus-var", "tag-space", "trim-blocks",
	"lstrip-blocks", "keep-trailing-newline", "crlf", "plain-file", "yaml-quoted", "inputs-shorthand",
	"inputs-schema", "inputs-inferred", "nullable-type", "map-input",
	// Values and operators.
	"literal", "string-escape", "int-underscore", "list-literal", "dict-literal", "none", "mixed-number-list",
	"attr", "attr-subscript", "index", "slice", "map-index", "arith", "divide", "pow", "unary", "concat",
	"plus", "repeat", "compare", "compare-mixed", "compare-chain", "and-or", "not", "in", "cond",
	"cond-no-else", "test", "unguarded-optional", "guard", "precedence-bare", "extra-parens",
	// Filters and methods.
	"filter-case", "filter-trim", "filter-replace", "filter-indent", "filter-truncate", "filter-string",
	"filter-tojson", "filter-join", "filter-default", "filter-default-mixed", "filter-first-last",
	"filter-length", "filter-int", "filter-float", "filter-round", "filter-sort", "filter-unique",
	"filter-list", "filter-reverse", "filter-map-attr", "filter-alias", "kwargs", "sort-bool", "method-strip", "method-case",
	"method-affix", "method-split", "method-replace",
	// Data.
	"unicode-case",
	// The constructs of issue 10, and those this fuzzer found diverging
	// until they were fixed or rejected.
	"set-shadow-input", "set-in-set-block", "andor-value", "for-multi-target", "list-of-lists",
	"map-attr-optional", "default-list-print", "tojson-operand", "items-unset", "truncate-short",
	"pow-negative", "first-unset", "in-object", "length-object", "items-dict-literal",
	"empty-list-concat", "test-parity", "lazy-value", "field-dict-method", "undefined-in-literal",
	"set-retype", "loop-attr-in-filter", "andor-constant", "set-leak-if", "set-loopvar", "slice-unset",
	"in-undefined", "set-in-for-else", "filter-undefined", "set-shadow-input-top", "default-inferred",
	"neg-zero-constant",
	// Chat templates (issue 14): namespace() attributes, and the
	// transformers profile with what it adds (see difffuzz_profile_test.go).
	"namespace", "profile", "loop-control", "generation", "raise", "strftime",
	// Chat templates: inputs: chat and its dynamic values (difffuzz_dynamic_test.go),
	// and the filters of dynamic values (reverse, sort, dictsort, map, batch,
	// items, dict views, int, float, abs).
	"dynamic", "dyn-filters",
	// range(): small int bounds, negative and (rarely) zero steps.
	"range",
	// loop.previtem and loop.nextitem (guarded, defaulted or printed), and
	// loop.cycle(...) of same-typed values.
	"loop-neighbour", "loop-cycle",
	// select/reject of scalars and selectattr/rejectattr of objects, by a
	// test with its argument or by truth.
	"select",
	// {% filter %} blocks of string filters, and map with a filter's name.
	"filter-block", "filter-map-name",
	// {% macro %} definitions and calls (difffuzz_macro_test.go).
	"macro",
	// Type tests of typed values (sequence, mapping, integer, true, ...) and
	// the comparison tests (x is eq(y), x is in(xs), ...) for operators.
	"test-type", "test-compare",
	// select/reject/selectattr/rejectattr of any dynamic value, by any test.
	"select-dynamic",
	// safe: Markup of a printable value.
	"filter-safe",
	// x if c else none, printed; m.get(key, default) of typed maps; for
	// loops over m.values(); macros defined in an if branch.
	"cond-none", "method-get", "for-values", "macro-in-if",
	// Numbers (issue 22): strings of numbers in the forms Python reads
	// (also in the data), floats beyond 2^53 and at the ends of the range
	// in the data, int / int of them, round to negative precisions.
	"number-data",
}

// Jinja2's operator precedence, loosest first. A unary operand takes
// filters and tests (Jinja2 parses -x|f as (-x)|f), a primary also .attr,
// [index] and calls.
const (
	precCond = iota + 1
	precOr
	precAnd
	precNot
	precCmp
	precAdd
	precConcat
	precMul
	precPow
	precUnary
	precPostfix // a filter or test applied
	precPrimary // a name, literal, parenthesised expression, .attr, [index] or call
)

type fzKind uint8

const (
	fzString fzKind = iota
	fzInt
	fzFloat
	fzBool
	fzList
	fzObject
	fzMap
)

// fzType is a value type of the generated world. Object types compare by
// identity: each is a distinct struct of the feed.
type fzType struct {
	kind   fzKind
	elem   *fzType
	fields []*fzField
}

type fzField struct {
	name     string
	t        *fzType
	optional bool
}

var (
	fzStr   = &fzType{kind: fzString}
	fzIntT  = &fzType{kind: fzInt}
	fzFlt   = &fzType{kind: fzFloat}
	fzBoolT = &fzType{kind: fzBool}
)

func listOf(t *fzType) *fzType { return &fzType{kind: fzList, elem: t} }

func (t *fzType) scalar() bool { return t.kind <= fzBool }

func typeEq(a, b *fzType) bool {
	switch {
	case a.kind != b.kind:
		return false
	case a.kind == fzObject:
		return a == b
	case a.kind == fzList || a.kind == fzMap:
		return typeEq(a.elem, b.elem)
	}
	return true
}

// fzExpr is a generated expression: its text, the precedence of its top
// operator, and the data paths ("xs[].name") its value may be, and its
// elements may be when it is a list or map. An operation that must not
// meet an unset optional marks them as always set in the data.
type fzExpr struct {
	text  string
	prec  int
	paths []string
	elems []string
	// lazy: a generator (unique, map), which Jinja2 can only iterate.
	lazy bool
	// openRight: it ends in a test without parentheses (x is defined),
	// which would take a following name or literal as its argument.
	openRight bool
}

// fzVar is a name in scope.
type fzVar struct {
	name  string
	t     *fzType
	paths []string
	// optional: may be undefined (an optional input, or a local set in a
	// branch that may not have run, which is unset too).
	optional bool
	unset    bool
	input    bool
	loopVar  bool
	// namespace: a namespace(...), whose fields are its attributes, used
	// only through them.
	namespace bool
}

// fzRef is a value reachable from a name in scope: the name or a chain of
// object fields.
type fzRef struct {
	text     string
	t        *fzType
	paths    []string
	optional bool
	// parentOptional: the value it is a field of may be undefined; unset:
	// it may be undefined whatever the data.
	parentOptional, unset bool
}

type fzScope struct {
	vars []*fzVar
	loop bool // a loop body, where loop.* is defined
	// types are the types of the names set in this scope so far,
	// including in branches.
	types map[string]*fzType
}

// fzOptions are the Jinja2 environment options of a case.
type fzOptions struct {
	TrimBlocks          bool `json:"trim_blocks"`
	LstripBlocks        bool `json:"lstrip_blocks"`
	KeepTrailingNewline bool `json:"keep_trailing_newline"`
	// Profile is jinja: {profile: transformers}, which turns trim_blocks
	// and lstrip_blocks on.
	Profile bool `json:"profile"`
}

// fzCase is one generated case. Its data is made later, from the feed
// type promptgen generates for it.
type fzCase struct {
	index    int
	key      string
	file     string // the prompt file's name
	source   []byte // the prompt file
	template string
	options  fzOptions
	// mustSet are data paths never to leave unset.
	mustSet map[string]bool
	// chat: the prompt has inputs: chat, and its data is a chat context
	// (fzChatData), read as a chat context is (fzRun.lenient).
	chat bool
}

// fzGen generates cases.
type fzGen struct {
	r   *rand.Rand
	off map[string]bool

	// The case being generated.
	inputs []*fzField
	// declared: inputs is a JSON Schema, so every input's type is final.
	// Otherwise promptgen infers types (of shorthand objects' fields too)
	// from use, and an intended type the template does not pin may come
	// out different: productions that would retype an input are left out.
	declared  bool
	scopes    []*fzScope
	guards    []string // texts of the optionals tested true around here
	mustSet   map[string]bool
	sensitive int         // >0 while making the operand of an operation an unset optional must not reach
	definite  int         // >0 while making a value that must not be undefined
	ifs       int         // if bodies around
	loops     int         // for bodies around
	loopItems []*fzType   // the item type of each loop around, nil for several targets or dynamic items
	forElse   int         // for loops' else bodies around
	setBlock  int         // {% set x %} bodies around
	budget    int         // statements left
	dyn       []*fzDynVar // a chat case's dynamic names in scope
	// profile: the case has the transformers profile; generation counts
	// the generation blocks around.
	profile    bool
	generation int
	macros     []*fzMacro // the macros defined so far
}

func (g *fzGen) on(family string) bool { return !g.off[family] }

func (g *fzGen) chance(p float64) bool { return g.r.Float64() < p }

func (g *fzGen) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

// choice is a weighted production, applicable when ok.
type choice struct {
	w  int
	ok bool
	f  func()
}

// choose runs one applicable choice, picked by weight, and reports
// whether there was one.
func (g *fzGen) choose(cs ...choice) bool {
	total := 0
	for _, c := range cs {
		if c.ok {
			total += c.w
		}
	}
	if total == 0 {
		return false
	}
	n := g.r.IntN(total)
	for _, c := range cs {
		if !c.ok {
			continue
		}
		if n < c.w {
			c.f()
			return true
		}
		n -= c.w
	}
	panic("unreachable")
}

// Names include Go keywords, predeclared names, the generated code's own
// locals and Python dict methods, which the naming pass must handle.
var (
	fzInputNames = []string{"name", "title", "user", "msg", "tags", "count", "n", "x", "s", "f", "buf", "err",
		"ctx", "type", "len", "string", "data", "item", "rows", "score", "ok", "flag", "Value", "a_b", "v1", "größe"}
	fzFieldNames = []string{"name", "id", "type", "len", "first", "kind", "label", "n", "score", "Name", "a_b",
		"tags", "ok", "sub", "x1"}
	// fzDictMethods are field names that Jinja2 reads as the dict's method
	// in o.name.
	fzDictMethods = []string{"items", "keys", "values", "get"}
	fzLocalNames  = []string{"x", "y", "tmp", "acc", "label", "total", "out", "i", "s", "err", "name"}
	fzLoopNames   = []string{"it", "x", "c", "row", "item", "e", "k", "v", "s", "n"}
	fzMapKeys     = []string{"a", "b", "k1", "Z", "x y", "é"}
	fzWords       = []string{"Hello", "world", "a", "x", "The end.", "é", "日本", "<b>", "&", "'q'", "\"dq\"", "#",
		"%", "}", "}}", "%}", "-", "+", "1", "  ", " ", "\t", "\n", "\n", "\n  ", "  \n", "\n\n"}
)

// newCase generates case i.
func (g *fzGen) newCase(i int) *fzCase {
	g.inputs, g.scopes, g.guards, g.mustSet = nil, nil, nil, map[string]bool{}
	g.sensitive, g.definite, g.ifs, g.loops, g.forElse, g.setBlock, g.generation = 0, 0, 0, 0, 0, 0, 0
	g.profile, g.macros = false, nil
	c := &fzCase{index: i, key: fmt.Sprintf("c%05d", i)}
	if g.on("dynamic") && g.chance(*fzDynShare) {
		return g.chatCase(c)
	}

	plain := g.on("plain-file") && g.chance(0.08)
	mode := "inferred"
	if !plain {
		g.choose(
			choice{4, g.on("inputs-inferred"), func() { mode = "inferred" }},
			choice{3, g.on("inputs-shorthand"), func() { mode = "shorthand" }},
			choice{4, g.on("inputs-schema"), func() { mode = "schema" }})
		c.options = fzOptions{
			TrimBlocks:          g.on("trim-blocks") && g.chance(0.35),
			LstripBlocks:        g.on("lstrip-blocks") && g.chance(0.35),
			KeepTrailingNewline: g.on("keep-trailing-newline") && g.chance(0.3),
			Profile:             g.on("profile") && g.chance(0.15),
		}
		if c.options.Profile {
			g.profile = true
			c.options.TrimBlocks, c.options.LstripBlocks = true, true
		}
	}
	g.declared = mode == "schema"
	g.inputs = g.schema(mode == "shorthand")
	top := &fzScope{types: map[string]*fzType{}}
	for _, f := range g.inputs {
		top.vars = append(top.vars, &fzVar{name: f.name, t: f.t, paths: []string{f.name}, optional: f.optional, input: true})
	}
	g.scopes = []*fzScope{top}
	var b strings.Builder
	g.budget = 3 + g.r.IntN(12)
	if g.on("macro") && g.chance(0.2) {
		if g.on("macro-in-if") && g.chance(0.3) {
			// As Command R7B's template: macros defined in an if branch,
			// called there; the else has none.
			c, _ := g.cond(1)
			b.WriteString(g.tag("if " + g.wrap(c, precOr)))
			b.WriteString(g.macroDefs())
			b.WriteString(g.body())
			g.macros = nil
			b.WriteString(g.tag("else") + g.body() + g.tag("endif"))
		} else {
			b.WriteString(g.macroDefs())
		}
	}
	for g.budget > 0 {
		b.WriteString(g.stmt())
	}
	if g.chance(0.3) {
		b.WriteString("\n")
	}
	c.template = b.String()
	if g.on("crlf") && g.chance(0.03) {
		c.template = strings.ReplaceAll(c.template, "\n", "\r\n")
	}
	c.mustSet = g.mustSet
	if plain {
		c.file = c.key + ".jinja"
		c.source = []byte(c.template)
		return c
	}
	c.file = c.key + ".yaml"
	c.source = g.promptFile(c, mode)
	return c
}

// schema makes the intended inputs. Shorthand spells scalars, lists of
// scalars and `object` (fields inferred from the template).
func (g *fzGen) schema(shorthand bool) []*fzField {
	var out []*fzField
	used := map[string]bool{}
	for range g.r.IntN(6) {
		name := g.pick(fzInputNames)
		if used[name] || shorthand && name == "type" { // type: object would make inputs a JSON Schema
			continue
		}
		used[name] = true
		f := &fzField{name: name, t: g.randType(2, shorthand), optional: g.chance(0.35)}
		if shorthand && f.t.kind == fzList {
			f.optional = false // a shorthand list cannot be marked optional
		}
		out = append(out, f)
	}
	return out
}

func (g *fzGen) randType(depth int, shorthand bool) *fzType {
	var t *fzType
	// A number is inferred an int when an int meets it: intended only
	// when declared.
	elem := func() *fzType {
		for {
			e := g.randType(depth-1, shorthand)
			if (e.kind != fzList || g.on("list-of-lists")) && (!shorthand || e.scalar()) {
				return e
			}
		}
	}
	g.choose(
		choice{5, true, func() { t = fzStr }},
		choice{4, true, func() { t = fzIntT }},
		choice{2, g.declared, func() { t = fzFlt }},
		choice{2, true, func() { t = fzBoolT }},
		choice{3, depth > 0, func() { t = listOf(elem()) }},
		choice{3, depth > 0, func() { t = g.objectType(depth-1, shorthand) }},
		choice{1, depth > 0 && !shorthand && g.on("map-input"), func() { t = &fzType{kind: fzMap, elem: elem()} }},
	)
	return t
}

// objectType makes an object type. In shorthand it is `object`, whose
// fields the template's uses infer, so its intended fields are scalars.
func (g *fzGen) objectType(depth int, shorthand bool) *fzType {
	t := &fzType{kind: fzObject}
	used := map[string]bool{}
	for range 1 + g.r.IntN(4) {
		name := g.pick(fzFieldNames)
		if g.on("field-dict-method") && g.chance(0.05) {
			name = g.pick(fzDictMethods)
		}
		if used[name] {
			continue
		}
		used[name] = true
		ft := g.randType(depth, shorthand)
		if shorthand && !ft.scalar() {
			ft = fzStr
		}
		t.fields = append(t.fields, &fzField{name: name, t: ft, optional: g.chance(0.3)})
	}
	return t
}

// promptFile writes the case as a YAML prompt file.
func (g *fzGen) promptFile(c *fzCase, mode string) []byte {
	doc := &yaml.Node{Kind: yaml.MappingNode}
	add := func(k string, v *yaml.Node) { doc.Content = append(doc.Content, yamlScalar(k), v) }
	opts := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	for _, o := range []struct {
		name string
		on   bool
	}{{"trim_blocks", c.options.TrimBlocks && !c.options.Profile}, {"lstrip_blocks", c.options.LstripBlocks && !c.options.Profile}, {"keep_trailing_newline", c.options.KeepTrailingNewline}} {
		if o.on {
			opts.Content = append(opts.Content, yamlScalar(o.name), yamlScalar("true"))
		}
	}
	if c.options.Profile {
		opts.Content = append(opts.Content, yamlScalar("profile"), yamlScalar("transformers"))
	}
	if len(opts.Content) > 0 {
		add("jinja", opts)
	}
	switch mode {
	case "chat":
		add("inputs", yamlScalar("chat"))
	case "shorthand":
		in := &yaml.Node{Kind: yaml.MappingNode}
		for _, f := range g.inputs {
			in.Content = append(in.Content, yamlScalar(f.name), g.shorthandNode(f))
		}
		if len(in.Content) > 0 {
			add("inputs", in)
		}
	case "schema":
		add("inputs", g.schemaNode(&fzType{kind: fzObject, fields: g.inputs}))
	}
	tn := yamlScalar(c.template)
	if g.on("yaml-quoted") && g.chance(0.3) {
		tn.Style = yaml.DoubleQuotedStyle
	}
	add("template", tn)
	b, err := yaml.Marshal(doc)
	if err != nil {
		panic(err)
	}
	// yaml.v3 writes some strings (a leading newline, a tab starting a
	// line) as block scalars it reads back differently or not at all.
	var back struct{ Template string }
	if err := yaml.Unmarshal(b, &back); err != nil || back.Template != c.template {
		tn.Style = yaml.DoubleQuotedStyle
		if b, err = yaml.Marshal(doc); err != nil {
			panic(err)
		}
	}
	return b
}

func yamlScalar(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: s} }

var (
	fzShorthandNames = map[fzKind]string{fzString: "string", fzInt: "int", fzFloat: "number", fzBool: "bool", fzObject: "object"}
	fzSchemaNames    = map[fzKind]string{fzString: "string", fzInt: "integer", fzFloat: "number", fzBool: "boolean",
		fzList: "array", fzObject: "object", fzMap: "object"}
)

func (g *fzGen) shorthandNode(f *fzField) *yaml.Node {
	if f.t.kind == fzList {
		return &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{yamlScalar(fzShorthandNames[f.t.elem.kind])}}
	}
	s := fzShorthandNames[f.t.kind]
	switch {
	case f.optional && g.chance(0.2):
		// A mapping is a JSON Schema, which spells the type names out.
		return &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: []*yaml.Node{
			yamlScalar("type"), yamlScalar(fzSchemaNames[f.t.kind]), yamlScalar("optional"), yamlScalar("true")}}
	case f.optional:
		s += "?"
	}
	return yamlScalar(s)
}

// schemaNode writes t as a JSON Schema. An optional property is left out
// of required, or is nullable.
func (g *fzGen) schemaNode(t *fzType) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	if g.chance(0.3) {
		m.Style = yaml.FlowStyle
	}
	add := func(k string, v *yaml.Node) { m.Content = append(m.Content, yamlScalar(k), v) }
	add("type", yamlScalar(fzSchemaNames[t.kind]))
	switch t.kind {
	case fzList:
		add("items", g.schemaNode(t.elem))
	case fzMap:
		add("additionalProperties", g.schemaNode(t.elem))
	case fzObject:
		props := &yaml.Node{Kind: yaml.MappingNode}
		req := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, f := range t.fields {
			fn := g.schemaNode(f.t)
			switch {
			case f.optional && g.on("nullable-type") && g.chance(0.25):
				fn.Content[1] = &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{
					fn.Content[1], {Kind: yaml.ScalarNode, Value: "null", Style: yaml.DoubleQuotedStyle}}}
				req.Content = append(req.Content, yamlScalar(f.name))
			case !f.optional:
				req.Content = append(req.Content, yamlScalar(f.name))
			}
			props.Content = append(props.Content, yamlScalar(f.name), fn)
		}
		add("properties", props)
		if len(req.Content) > 0 {
			add("required", req)
		}
	}
	return m
}

// Statements.

func (g *fzGen) stmt() string {
	g.budget--
	var out string
	deep := g.ifs+g.loops < 3 && g.budget > 0
	g.choose(
		choice{20, g.on("text"), func() { out = g.text() }},
		choice{30, g.on("print"), func() { out = g.print() }},
		choice{10, g.on("if") && deep, func() { out = g.ifStmt() }},
		choice{10, g.on("for") && deep, func() { out = g.forStmt() }},
		choice{8, g.on("set") && g.canSet(), func() { out = g.setStmt() }},
		choice{3, g.on("set-block") && deep && g.canSet(), func() { out = g.setBlockStmt() }},
		choice{3, g.on("filter-block") && deep, func() { out = g.filterBlockStmt() }},
		choice{3, g.on("comment"), func() { out = g.comment() }},
		choice{2, g.on("raw"), func() { out = g.raw() }},
		choice{3, g.on("namespace") && g.canSet(), func() { out = g.namespaceStmt() }},
		choice{6, g.on("namespace") && g.namespaceInScope() != nil, func() { out = g.namespaceAttrStmt() }},
		choice{15, g.profile && g.on("loop-control") && g.canLoopControl(), func() { out = g.loopControl() }},
		choice{2, g.profile && g.on("generation") && deep, func() { out = g.generationStmt() }},
		choice{1, g.profile && g.on("raise"), func() { out = g.raiseStmt() }},
	)
	return out
}

// body generates the statements of a block.
func (g *fzGen) body() string { return g.block(g.stmt) }

// block generates one to three statements with stmt, the later ones while
// the budget lasts.
func (g *fzGen) block(stmt func() string) string {
	var b strings.Builder
	for i := range 1 + g.r.IntN(3) {
		if i > 0 && g.budget <= 0 {
			break
		}
		b.WriteString(stmt())
	}
	return b.String()
}

func (g *fzGen) canSet() bool {
	switch {
	case g.setBlock > 0 && !g.on("set-in-set-block"):
		return false
	case g.loops > 0 && !g.on("set-in-for"):
		return false
	case g.ifs > 0 && !g.on("set-in-if"):
		return false
	case g.forElse > 0 && !g.on("set-in-for-else"):
		return false
	}
	return true
}

// text is literal template text. It never ends in "{", which would join
// the next tag's delimiter.
func (g *fzGen) text() string {
	var b strings.Builder
	for range 1 + g.r.IntN(4) {
		b.WriteString(g.pick(fzWords))
	}
	if g.chance(0.1) {
		b.WriteString("{ ")
	}
	return b.String()
}

// open and close are a tag's delimiters with random whitespace control.
func (g *fzGen) open(delim string) string {
	switch {
	case g.on("ws-minus") && g.chance(0.25):
		return delim + "-"
	case delim != "{{" && g.on("ws-plus") && g.chance(0.08):
		return delim + "+"
	case delim == "{{" && g.on("ws-plus-var") && g.chance(0.02):
		return delim + "+"
	}
	return delim
}

func (g *fzGen) close(delim string) string {
	switch {
	case g.on("ws-minus") && g.chance(0.25):
		return "-" + delim
	case delim != "}}" && g.on("ws-plus") && g.chance(0.08):
		return "+" + delim
	}
	return delim
}

// pad is the space inside a tag's delimiters.
func (g *fzGen) pad() string {
	if !g.on("tag-space") {
		return " "
	}
	switch n := g.r.IntN(20); {
	case n < 2:
		return ""
	case n < 3:
		return "\n"
	case n < 4:
		return "  "
	}
	return " "
}

func (g *fzGen) tag(content string) string {
	return g.open("{%") + g.pad() + content + g.pad() + g.close("%}")
}

func (g *fzGen) print() string {
	var e fzExpr
	if g.on("filter-tojson") && !g.on("tojson-operand") && g.chance(0.06) {
		// The one place a tojson result goes while it cannot be an operand.
		e = g.tojson(g.undefOperand(func() fzExpr { return g.anyValue(2) }))
	} else {
		e = g.printable(3)
	}
	return g.open("{{") + g.pad() + e.text + g.pad() + g.close("}}")
}

func (g *fzGen) comment() string {
	body := strings.NewReplacer("#}", "", "{#", "").Replace(g.text())
	return g.open("{#") + body + g.close("#}")
}

func (g *fzGen) raw() string {
	inner := g.pick([]string{"{{ x }}", "{% if %}", "{# c #}", "a {{", "}} b", " {%- x -%} "}) + g.text()
	return g.tag("raw") + inner + g.tag("endraw")
}

func (g *fzGen) ifStmt() string {
	var b strings.Builder
	var leaked []*fzVar
	branch := func(kw string, c fzExpr, guard string) {
		b.WriteString(g.tag(kw + " " + g.wrap(c, precOr)))
		text, set := g.branch(guard)
		b.WriteString(text)
		leaked = append(leaked, set...)
	}
	c, guard := g.cond(2)
	branch("if", c, guard)
	for g.on("elif") && g.chance(0.3) {
		c, guard := g.cond(2)
		branch("elif", c, guard)
	}
	if g.on("else") && g.chance(0.4) {
		b.WriteString(g.tag("else"))
		text, set := g.branch("")
		b.WriteString(text)
		leaked = append(leaked, set...)
	}
	b.WriteString(g.tag("endif"))
	if g.on("set-leak-if") {
		// A set in a branch is seen after the if: undefined when the
		// branch did not run.
		top := g.scopes[len(g.scopes)-1]
		for _, v := range leaked {
			v.optional, v.unset = true, true
			top.vars = append(top.vars, v)
		}
	}
	return b.String()
}

// branch generates an if branch's body, where guard (an optional tested
// true) is set. It returns the body and the variables it set, which it
// takes out of scope.
func (g *fzGen) branch(guard string) (string, []*fzVar) {
	top := g.scopes[len(g.scopes)-1]
	n := len(top.vars)
	if guard != "" {
		g.guards = append(g.guards, guard)
	}
	g.ifs++
	text := g.body()
	g.ifs--
	if guard != "" {
		g.guards = g.guards[:len(g.guards)-1]
	}
	set := slices.Clone(top.vars[n:])
	top.vars = top.vars[:n]
	return text, set
}

func (g *fzGen) forStmt() string {
	var iter fzExpr
	var targets []*fzVar
	loopName := func() string {
		for {
			name := g.pick(fzLoopNames)
			if g.on("loopvar-shadow") || g.lookup(name) == nil {
				return name
			}
		}
	}
	g.choose(
		choice{8, true, func() {
			t := g.randListType()
			iter = g.exprLazy(t, 2)
			targets = []*fzVar{{name: loopName(), t: t.elem, paths: iter.elems}}
		}},
		choice{2, g.on("for-string"), func() {
			iter = g.expr(fzStr, 1)
			targets = []*fzVar{{name: loopName(), t: fzStr}}
		}},
		choice{2, g.on("for-map") && g.hasRef(fzMap), func() {
			iter = g.useRef(g.randRef(func(r *fzRef) bool { return r.t.kind == fzMap && g.usable(r) }))
			if g.on("filter-list") && g.chance(0.3) {
				iter = g.filter(iter, "list")
			}
			targets = []*fzVar{{name: loopName(), t: fzStr}}
		}},
		choice{3, g.on("for-items") && g.hasRef(fzMap), func() {
			x, t := g.loopMap()
			iter = g.method(x, "items")
			k, v := loopName(), loopName()
			for v == k {
				v = loopName()
			}
			targets = []*fzVar{{name: k, t: fzStr}, {name: v, t: t.elem, paths: x.elems}}
		}},
		choice{2, g.on("for-values") && g.hasRef(fzMap), func() {
			x, t := g.loopMap()
			iter = g.method(x, "values")
			targets = []*fzVar{{name: loopName(), t: t.elem, paths: x.elems}}
		}},
		choice{1, g.on("items-dict-literal"), func() {
			t := []*fzType{fzStr, fzIntT, fzFlt, fzBoolT}[g.r.IntN(4)]
			var items []string
			for _, k := range []string{"a", "b", "k"}[:1+g.r.IntN(3)] {
				items = append(items, "'"+k+"': "+g.wrap(g.literalItem(func() fzExpr { return g.expr(t, 1) }), precCond))
			}
			iter = fzExpr{text: "{" + strings.Join(items, ", ") + "}.items()", prec: precPrimary}
			k, v := loopName(), loopName()
			for v == k {
				v = loopName()
			}
			targets = []*fzVar{{name: k, t: fzStr}, {name: v, t: t}}
		}},
		choice{2, g.on("range"), func() {
			iter = g.rangeCall()
			targets = []*fzVar{{name: loopName(), t: fzIntT}}
		}},
		choice{1, g.on("for-multi-target"), func() {
			// Pairs to unpack: lists of two scalars.
			t := []*fzType{fzStr, fzIntT, fzFlt, fzBoolT}[g.r.IntN(4)]
			var items []string
			for range 1 + g.r.IntN(3) {
				a := g.literalItem(func() fzExpr { return g.expr(t, 1) })
				b := g.literalItem(func() fzExpr { return g.expr(t, 1) })
				items = append(items, "["+g.wrap(a, precCond)+", "+g.wrap(b, precCond)+"]")
			}
			iter = fzExpr{text: "[" + strings.Join(items, ", ") + "]", prec: precPrimary}
			a, b := loopName(), loopName()
			for b == a {
				b = loopName()
			}
			targets = []*fzVar{{name: a, t: t}, {name: b, t: t}}
		}},
	)
	names := make([]string, len(targets))
	types := map[string]*fzType{}
	for i, v := range targets {
		names[i] = v.name
		v.loopVar = true
		types[v.name] = v.t
	}
	head := "for " + strings.Join(names, ", ") + " in " + g.beforeName(iter, precOr)
	g.scopes = append(g.scopes, &fzScope{vars: targets, loop: true, types: types})
	if g.on("for-filter") && g.chance(0.2) {
		// loop is the outer loop's here, if any.
		loops := g.loops
		if !g.on("loop-attr-in-filter") {
			g.loops = 0
		}
		c, _ := g.cond(1)
		g.loops = loops
		head += " if " + g.wrap(c, precOr)
	}
	var item *fzType
	if len(targets) == 1 {
		item = targets[0].t
	}
	g.enterLoop(item)
	body := g.body()
	g.leaveLoop()
	g.scopes = g.scopes[:len(g.scopes)-1]
	out := g.tag(head) + body
	if g.on("for-else") && g.chance(0.25) {
		// The else block is a scope of its own.
		g.scopes = append(g.scopes, &fzScope{types: map[string]*fzType{}})
		g.forElse++
		out += g.tag("else") + g.body()
		g.forElse--
		g.scopes = g.scopes[:len(g.scopes)-1]
	}
	return out + g.tag("endfor")
}

// rangeCall is range(stop), range(start, stop) or range(start, stop,
// step) of small int literals, so that Jinja2 never builds a long range; a
// zero step, which both sides reject at render time, is rare.
func (g *fzGen) rangeCall() fzExpr {
	n := func() string { return strconv.Itoa(g.r.IntN(10) - 3) }
	args := []string{n()}
	if g.chance(0.6) {
		args = append(args, n())
		if g.chance(0.5) {
			step := []string{"1", "2", "3", "-1", "-2"}[g.r.IntN(5)]
			if g.chance(0.02) {
				step = "0"
			}
			args = append(args, step)
		}
	}
	return fzExpr{text: "range(" + strings.Join(args, ", ") + ")", prec: precPrimary}
}

func elemPaths(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p + "[]"
	}
	return out
}

// setTarget picks the name a set assigns, and the type of its value: the
// type the name has in this scope already (promptgen gives a local one
// type), unless set-retype is on.
func (g *fzGen) setTarget() (string, *fzType) {
	top := g.scopes[len(g.scopes)-1]
	for {
		name := g.pick(slices.Concat(fzLocalNames, fzInputNames[:6]))
		v := g.lookup(name)
		switch {
		case v != nil && v.input && g.ifs+g.loops+g.setBlock+g.forElse > 0 && !g.on("set-shadow-input"):
			continue
		case v != nil && v.input && !g.on("set-shadow-input-top"):
			continue
		case v != nil && v.loopVar && slices.Contains(top.vars, v) && !g.on("set-loopvar"):
			continue
		}
		t, ok := top.types[name]
		switch {
		case ok && g.canMake(t) && (!g.on("set-retype") || g.chance(0.9)):
		case ok && !g.on("set-retype"):
			continue
		default:
			t = g.randMakeable()
		}
		top.types[name] = t
		return name, t
	}
}

// loopMap is a map variable to loop over the items or values of, and its
// type: one that may be unset only with items-unset, where Jinja2 fails.
func (g *fzGen) loopMap() (fzExpr, *fzType) {
	var t *fzType
	x := g.sensitiveOp("items-unset", func() fzExpr {
		r := g.randRef(func(r *fzRef) bool { return r.t.kind == fzMap && g.usable(r) })
		if r == nil {
			r = g.randRef(func(r *fzRef) bool { return r.t.kind == fzMap })
		}
		t = r.t
		return g.useRef(r)
	})
	return x, t
}

// declare puts a set's target in scope.
func (g *fzGen) declare(v *fzVar) {
	top := g.scopes[len(g.scopes)-1]
	top.vars = append(top.vars, v)
}

func (g *fzGen) setStmt() string {
	if g.on("set-tuple") && g.chance(0.15) {
		a, ta := g.setTarget()
		b, tb := g.setTarget()
		if a != b {
			x, y := g.expr(ta, 2), g.expr(tb, 2)
			out := g.tag("set " + a + ", " + b + " = " + g.wrap(x, precCond) + ", " + g.wrap(y, precCond))
			g.declare(&fzVar{name: a, t: ta, paths: x.paths})
			g.declare(&fzVar{name: b, t: tb, paths: y.paths})
			return out
		}
	}
	name, t := g.setTarget()
	x := g.expr(t, 3)
	out := g.tag("set " + name + " = " + x.text)
	g.declare(&fzVar{name: name, t: t, paths: x.paths})
	return out
}

// filterBlockStmt is {% filter %} with a chain of one or two string
// filters over a body that is a scope of its own, as a block set's is.
func (g *fzGen) filterBlockStmt() string {
	var chain []string
	for range 1 + g.r.IntN(2) {
		name := g.pick([]string{"upper", "lower", "title", "capitalize", "trim", "replace", "indent", "truncate"})
		chain = append(chain, g.callName(name, false, g.stringFilterArgs(name)...))
	}
	g.setBlock++
	g.scopes = append(g.scopes, &fzScope{types: map[string]*fzType{}})
	body := g.body()
	g.scopes = g.scopes[:len(g.scopes)-1]
	g.setBlock--
	return g.tag("filter "+strings.Join(chain, "|")) + body + g.tag("endfilter")
}

func (g *fzGen) setBlockStmt() string {
	name, _ := g.setTarget()
	g.scopes[len(g.scopes)-1].types[name] = fzStr
	g.setBlock++
	body := g.body()
	g.setBlock--
	g.declare(&fzVar{name: name, t: fzStr})
	return g.tag("set "+name) + body + g.tag("endset")
}

// Names in scope.

// lookup finds the variable a name refers to here.
func (g *fzGen) lookup(name string) *fzVar {
	for i := len(g.scopes) - 1; i >= 0; i-- {
		vars := g.scopes[i].vars
		for j := len(vars) - 1; j >= 0; j-- {
			if vars[j].name == name {
				return vars[j]
			}
		}
	}
	return nil
}

func (g *fzGen) inLoop() bool { return g.loops > 0 }

// enterLoop and leaveLoop bracket a loop body whose items have type item
// (nil when loop.previtem is not supported there).
func (g *fzGen) enterLoop(item *fzType) {
	g.loops++
	g.loopItems = append(g.loopItems, item)
}

func (g *fzGen) leaveLoop() {
	g.loops--
	g.loopItems = g.loopItems[:len(g.loopItems)-1]
}

// loopNeighbour is loop.previtem or loop.nextitem when the innermost loop's
// items are scalars of type t (any scalar type when t is nil), or false.
func (g *fzGen) loopNeighbour(t *fzType) (fzExpr, bool) {
	if !g.on("loop-neighbour") || !g.inLoop() {
		return fzExpr{}, false
	}
	item := g.loopItems[len(g.loopItems)-1]
	if item == nil || !item.scalar() || t != nil && !typeEq(item, t) {
		return fzExpr{}, false
	}
	return fzExpr{text: "loop." + g.pick([]string{"previtem", "nextitem"}), prec: precPrimary}, true
}

// loopCycle is loop.cycle(...) of two or three defined values of type t.
func (g *fzGen) loopCycle(t *fzType) fzExpr {
	args := make([]string, 2+g.r.IntN(2))
	for i := range args {
		args[i] = g.wrap(g.defined(func() fzExpr { return g.expr(t, 0) }), precCond)
	}
	return fzExpr{text: "loop.cycle(" + strings.Join(args, ", ") + ")", prec: precPrimary}
}

// guarded reports whether the optional text is tested true around here,
// directly or through a field of it.
func (g *fzGen) guarded(text string) bool {
	for _, gd := range g.guards {
		if gd == text || strings.HasPrefix(gd, text+".") {
			return true
		}
	}
	return false
}

// refs lists the values reachable from the names in scope, through up to
// three fields.
func (g *fzGen) refs() []*fzRef {
	var out []*fzRef
	seen := map[string]bool{}
	var walk func(r *fzRef, depth int)
	walk = func(r *fzRef, depth int) {
		out = append(out, r)
		if r.t.kind != fzObject || depth == 0 || !g.on("attr") {
			return
		}
		for _, f := range r.t.fields {
			text := r.text + "." + f.name
			if g.on("attr-subscript") && g.chance(0.15) {
				text = r.text + "['" + f.name + "']"
			}
			walk(&fzRef{
				text: text, t: f.t, paths: fieldPaths(r.paths, f.name),
				optional:       r.optional || f.optional && !g.guarded(r.text+"."+f.name),
				parentOptional: r.optional, unset: r.unset,
			}, depth-1)
		}
	}
	for i := len(g.scopes) - 1; i >= 0; i-- {
		vars := g.scopes[i].vars
		for j := len(vars) - 1; j >= 0; j-- {
			v := vars[j]
			if seen[v.name] {
				continue
			}
			seen[v.name] = true
			r := &fzRef{text: v.name, t: v.t, paths: v.paths, optional: v.optional && !g.guarded(v.name), unset: v.unset}
			if v.namespace {
				out = append(out, g.namespaceRefs(r)...)
				continue
			}
			walk(r, 3)
		}
	}
	return out
}

// usable reports whether r may be used: an optional only when the
// unguarded-optional family is on, and under a sensitive operation only
// when its data can be kept set.
func (g *fzGen) usable(r *fzRef) bool {
	switch {
	case !r.optional:
		return true
	case g.definite > 0:
		return false
	case g.sensitive > 0:
		return len(r.paths) > 0 && !r.unset
	}
	return g.on("unguarded-optional")
}

// defined makes a value that is never undefined: no optional in it, and
// the data it reads always set (inference may make optional what the
// generator did not).
func (g *fzGen) defined(f func() fzExpr) fzExpr {
	g.definite++
	g.sensitive++
	defer func() { g.definite--; g.sensitive-- }()
	return f()
}

// literalItem makes an element of a list or dict literal, which holds no
// undefined value unless undefined-in-literal is on.
func (g *fzGen) literalItem(f func() fzExpr) fzExpr {
	if g.on("undefined-in-literal") {
		return f()
	}
	return g.defined(f)
}

func (g *fzGen) randRef(ok func(*fzRef) bool) *fzRef {
	var rs []*fzRef
	for _, r := range g.refs() {
		if ok(r) {
			rs = append(rs, r)
		}
	}
	if len(rs) == 0 {
		return nil
	}
	return rs[g.r.IntN(len(rs))]
}

func (g *fzGen) hasRef(k fzKind) bool {
	return g.randRef(func(r *fzRef) bool { return r.t.kind == k && g.usable(r) }) != nil
}

// useRef is a reference's expression; under a sensitive operation its
// data is marked always set.
func (g *fzGen) useRef(r *fzRef) fzExpr {
	g.markSet(r.paths)
	return fzExpr{text: r.text, prec: precPrimary, paths: r.paths, elems: elemPaths(r.paths)}
}

func fieldPaths(paths []string, name string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p + "." + name
	}
	return out
}

// undefOperand makes the operand of a filter that Jinja2 and promptgen
// treat differently when it is undefined, unless filter-undefined is on.
func (g *fzGen) undefOperand(f func() fzExpr) fzExpr { return g.sensitiveOp("filter-undefined", f) }

// undefDepth is what undefOperand adds to g.sensitive.
func (g *fzGen) undefDepth() int {
	if g.on("filter-undefined") {
		return 0
	}
	return 1
}

// markSet marks data paths as always set while a sensitive operation is
// being made.
func (g *fzGen) markSet(paths []string) {
	if g.sensitive > 0 {
		for _, p := range paths {
			g.mustSet[p] = true
		}
	}
}

// sensitiveOp makes the operand of an operation that an unset optional
// must not reach while family is off.
func (g *fzGen) sensitiveOp(family string, f func() fzExpr) fzExpr {
	if g.on(family) {
		return f()
	}
	g.sensitive++
	defer func() { g.sensitive-- }()
	return f()
}

// canMake reports whether an expression of type t can be made: objects
// and maps only come from the data.
func (g *fzGen) canMake(t *fzType) bool {
	return g.canLit(t) || g.randRef(func(r *fzRef) bool { return typeEq(r.t, t) && g.usable(r) }) != nil
}

// canLit reports whether t has literals: scalars, and lists of what can
// be made.
func (g *fzGen) canLit(t *fzType) bool {
	return t.scalar() || t.kind == fzList && g.canMake(t.elem)
}

// randMakeable is a random type an expression can be made of: a scalar,
// a list of them, or the type of a value in scope.
func (g *fzGen) randMakeable() *fzType {
	var t *fzType
	g.choose(
		choice{5, true, func() { t = fzStr }},
		choice{4, true, func() { t = fzIntT }},
		choice{2, true, func() { t = fzFlt }},
		choice{2, true, func() { t = fzBoolT }},
		choice{2, true, func() { t = listOf([]*fzType{fzStr, fzIntT, fzFlt, fzBoolT}[g.r.IntN(4)]) }},
		choice{4, true, func() {
			if r := g.randRef(g.usable); r != nil {
				t = r.t
			} else {
				t = fzStr
			}
		}},
	)
	if t.kind == fzList && t.elem.kind == fzList && !g.on("list-of-lists") {
		return fzStr
	}
	return t
}

// randListType is the type of a list to loop over.
func (g *fzGen) randListType() *fzType {
	for range 10 {
		if t := g.randMakeable(); t.kind == fzList {
			return t
		}
	}
	return listOf(fzStr)
}

// Expressions.

// wrap is e's text as an operand that needs precedence min.
func (g *fzGen) wrap(e fzExpr, min int) string { return g.operand(e, min).text }

// operand is e as an operand that needs precedence min: in parentheses
// when it binds looser, or by chance.
func (g *fzGen) operand(e fzExpr, min int) fzExpr {
	if e.prec < min || e.prec < precPrimary && !g.on("precedence-bare") || g.on("extra-parens") && g.chance(0.03) {
		return fzExpr{text: "(" + e.text + ")", prec: precPrimary, paths: e.paths, elems: e.elems, lazy: e.lazy}
	}
	return e
}

// beforeName is e's text as an operand that needs precedence min and is
// followed by a name (if, in, is).
func (g *fzGen) beforeName(e fzExpr, min int) string {
	if e.openRight {
		return "(" + e.text + ")"
	}
	return g.wrap(e, min)
}

func (g *fzGen) binary(x fzExpr, op string, y fzExpr, prec int) fzExpr {
	y = g.operand(y, prec+1)
	return fzExpr{text: g.wrap(x, prec) + " " + op + " " + y.text, prec: prec, openRight: y.openRight}
}

// compare is x op y for a comparison operator, which does not chain here.
func (g *fzGen) compare(x fzExpr, op string, y fzExpr) fzExpr {
	if names := fzCompareTests[op]; g.on("test-compare") && g.chance(0.25) {
		// The comparison test of the same meaning: x is eq(y), x is not in(y).
		not := ""
		if op == "not in" {
			not = "not "
		}
		return fzExpr{text: g.beforeName(x, precUnary) + " is " + not + g.pick(names) + "(" + y.text + ")", prec: precPostfix}
	}
	left := g.wrap(x, precCmp+1)
	if op == "in" || op == "not in" {
		left = g.beforeName(x, precCmp+1)
	}
	y = g.operand(y, precCmp+1)
	return fzExpr{text: left + " " + op + " " + y.text, prec: precCmp, openRight: y.openRight}
}

// fzCompareTests are the tests that apply each comparison operator.
var fzCompareTests = map[string][]string{
	"==": {"eq", "equalto"}, "!=": {"ne"}, "<": {"lt", "lessthan"}, "<=": {"le"},
	">": {"gt", "greaterthan"}, ">=": {"ge"}, "in": {"in"}, "not in": {"in"},
}

// fzTypeTests are Jinja2's tests of a value's type.
var fzTypeTests = []string{"string", "number", "integer", "float", "boolean", "true", "false", "mapping",
	"iterable", "sequence", "callable"}

// not is `not x`.
func (g *fzGen) not(x fzExpr) fzExpr {
	x = g.operand(x, precNot)
	return fzExpr{text: "not " + x.text, prec: precNot, openRight: x.openRight}
}

// isTest is `x is [not] name`.
func (g *fzGen) isTest(x fzExpr, name string) fzExpr {
	return fzExpr{text: g.beforeName(x, precUnary) + " is " + g.pick([]string{"", "not "}) + name, prec: precPostfix,
		openRight: !strings.HasSuffix(name, ")")}
}

// call is x.name(args) or x|name(args); x needs precedence min.
func (g *fzGen) call(x fzExpr, min int, sep, name string, args ...string) fzExpr {
	text := g.wrap(x, min) + sep + g.callName(name, sep == ".", args...)
	prec := precPrimary
	if sep != "." {
		prec = precPostfix
	}
	return fzExpr{text: text, prec: prec}
}

// stringFilterArgs are random arguments of string filter name.
func (g *fzGen) stringFilterArgs(name string) []string {
	var args []string
	switch name {
	case "trim":
		if g.chance(0.3) {
			args = append(args, g.strLit())
		}
	case "replace":
		args = []string{g.strLit(), g.strLit()}
		if g.chance(0.3) {
			args = append(args, g.kw("count", strconv.Itoa(g.r.IntN(3))))
		}
	case "indent":
		if g.chance(0.7) {
			w := strconv.Itoa(g.r.IntN(5))
			if g.chance(0.2) {
				w = g.strLit()
			}
			args = append(args, g.kw("width", w))
		}
		if g.chance(0.4) {
			args = append(args, "first="+g.pick([]string{"true", "false"}))
		}
		if g.chance(0.3) {
			args = append(args, "blank="+g.pick([]string{"true", "false"}))
		}
	case "truncate":
		end := "'...'" // the default
		var more []string
		if g.chance(0.5) {
			more = append(more, g.kw("killwords", g.pick([]string{"true", "false"})))
			if g.chance(0.6) {
				end = g.pick([]string{"'...'", "''", "'>'", "'…'"})
				more = append(more, g.kw("end", end))
				if g.chance(0.5) {
					more = append(more, g.kw("leeway", strconv.Itoa(g.r.IntN(6))))
				}
			}
		}
		n := g.r.IntN(12)
		if short := len([]rune(end)) - 2; n < short && !g.on("truncate-short") {
			n = short // Jinja2 asserts length >= len(end)
		}
		args = append([]string{g.kw("length", strconv.Itoa(n))}, more...)
	}
	return args
}

// callName is name(args), or name alone when there are no args and the
// parentheses may be left out.
func (g *fzGen) callName(name string, parens bool, args ...string) string {
	if len(args) > 0 || parens {
		return name + "(" + strings.Join(g.callArgs(args), ", ") + ")"
	}
	return name
}

func (g *fzGen) filter(x fzExpr, name string, args ...string) fzExpr {
	e := g.call(x, precUnary, "|", name, args...)
	e.paths, e.elems = x.paths, x.elems
	return e
}

func (g *fzGen) method(x fzExpr, name string, args ...string) fzExpr {
	return g.call(x, precPrimary, ".", name, args...)
}

// kw is an argument that call passes by position or by keyword.
func (g *fzGen) kw(name, value string) string { return name + "\x00" + value }

var keywordRe = regexp.MustCompile(`^[a-z_]+=`)

// callArgs spells the arguments of a call: keyword arguments (name=...)
// come last, and of the arguments made with kw, a random tail is passed by
// keyword, the others by position.
func (g *fzGen) callArgs(args []string) []string {
	start := len(args)
	for start > 0 && (strings.Contains(args[start-1], "\x00") || keywordRe.MatchString(args[start-1])) {
		start--
	}
	if g.on("kwargs") {
		start += g.r.IntN(len(args) - start + 1)
	} else {
		start = len(args)
	}
	out := make([]string, len(args))
	for i, a := range args {
		name, value, ok := strings.Cut(a, "\x00")
		switch {
		case !ok:
			out[i] = a
		case i >= start:
			out[i] = name + "=" + value
		default:
			out[i] = value
		}
	}
	return out
}

// tojson is x|tojson; make x with undefOperand.
func (g *fzGen) tojson(x fzExpr) fzExpr {
	if g.chance(0.2) {
		return g.filter(x, "tojson", g.kw("indent", strconv.Itoa(g.r.IntN(3))))
	}
	return g.filter(x, "tojson")
}

// printable is any expression to print: a value of any type, or one of
// the forms only printing allows.
func (g *fzGen) printable(d int) fzExpr {
	var e fzExpr
	ok := g.choose(
		choice{20, true, func() { e = g.anyValue(d) }},
		choice{1, g.on("none"), func() { e = fzExpr{text: g.pick([]string{"none", "None"}), prec: precPrimary} }},
		choice{3, g.on("loop-neighbour") && g.inLoop(), func() {
			if x, ok := g.loopNeighbour(nil); ok {
				e = x
			} else {
				e = g.anyValue(d)
			}
		}},
		choice{1, g.on("dict-literal"), func() { e = g.dictLit(d) }},
		choice{1, g.on("mixed-number-list"), func() {
			e = fzExpr{text: "[" + g.intLit().text + ", " + g.floatLit().text + "]", prec: precPrimary}
		}},
		choice{1, g.on("cond-none") && d > 0, func() {
			// x if c else none (or none if c else x), printed: each
			// branch prints with its own type.
			x := g.anyValue(d - 1)
			c, _ := g.cond(d - 1)
			if g.chance(0.5) {
				e = fzExpr{text: g.beforeName(x, precOr) + " if " + g.wrap(c, precOr) + " else none", prec: precCond}
				return
			}
			x = g.operand(x, precCond)
			e = fzExpr{text: "none if " + g.wrap(c, precOr) + " else " + x.text, prec: precCond, openRight: x.openRight}
		}},
		choice{1, g.on("cond-no-else") && d > 0, func() {
			x := g.anyValue(d - 1)
			c, _ := g.cond(d - 1)
			c = g.operand(c, precOr)
			e = fzExpr{text: g.beforeName(x, precOr) + " if " + c.text, prec: precCond, openRight: c.openRight}
		}},
		choice{2, g.on("filter-default-mixed"), func() {
			// An optional with a default of another type (which would
			// be its inferred type).
			r := g.randRef(func(r *fzRef) bool {
				return r.optional && r.t.scalar() && len(r.paths) > 0 && (g.declared || g.on("default-inferred"))
			})
			if r == nil {
				e = g.anyValue(d)
				return
			}
			other := []*fzType{fzStr, fzIntT, fzFlt, fzBoolT}[g.r.IntN(4)]
			e = g.filter(g.useRef(r), g.defaultName(), g.lit(other).text)
		}},
		choice{1, g.on("tojson-operand") && g.on("filter-tojson"), func() { e = g.tojson(g.undefOperand(func() fzExpr { return g.anyValue(d) })) }},
		choice{1, g.on("default-list-print") && g.on("filter-default"), func() {
			r := g.randRef(func(r *fzRef) bool { return r.t.kind == fzList && r.optional })
			if r == nil {
				e = g.anyValue(d)
				return
			}
			e = g.filter(g.useRef(r), g.defaultName(), g.pick([]string{"[]", g.expr(r.t, 0).text}))
		}},
	)
	if !ok {
		e = g.anyValue(d)
	}
	return e
}

// anyValue is an expression of a random type.
func (g *fzGen) anyValue(d int) fzExpr { return g.expr(g.randMakeable(), d) }

func (g *fzGen) defaultName() string {
	if g.on("filter-alias") && g.chance(0.2) {
		return "d"
	}
	return "default"
}

// cond is an expression read for its truth by an if, elif, loop filter or
// conditional expression. guard is the text of an optional the
// expression tests true, for the body it guards.
func (g *fzGen) cond(d int) (e fzExpr, guard string) {
	g.choose(
		choice{4, g.on("guard"), func() {
			r := g.randRef(func(r *fzRef) bool { return r.optional && !r.parentOptional })
			if r == nil {
				e = g.expr(fzBoolT, d)
				return
			}
			guard = r.text
			x := fzExpr{text: r.text, prec: precPrimary}
			switch g.r.IntN(3) {
			case 0:
				e = fzExpr{text: r.text + " is defined", prec: precPostfix, openRight: true}
			case 1:
				e = x
			default:
				e = g.not(fzExpr{text: r.text + " is undefined", prec: precPostfix, openRight: true})
			}
		}},
		choice{6, true, func() { e = g.expr(fzBoolT, d) }},
		choice{3, true, func() { e = g.anyValue(d) }}, // its truthiness
		choice{2, g.on("and-or") && d > 0, func() {
			x := g.andOrLeft(func() fzExpr { x, _ := g.cond(d - 1); return x })
			y, _ := g.cond(d - 1)
			if g.chance(0.5) {
				e = g.binary(x, "and", y, precAnd)
			} else {
				e = g.binary(x, "or", y, precOr)
			}
		}},
		choice{1, g.on("not") && d > 0, func() {
			x, _ := g.cond(d - 1)
			e = g.not(x)
		}},
	)
	return e, guard
}

// expr is an expression of type t.
func (g *fzGen) expr(t *fzType, d int) fzExpr {
	e := g.exprLazy(t, d)
	if e.lazy && !g.on("lazy-value") {
		e = g.filter(e, "list")
		e.lazy = false
	}
	return e
}

// exprLazy is an expression of type t, which may be a generator when t
// is a list: for operands that only iterate.
func (g *fzGen) exprLazy(t *fzType, d int) fzExpr {
	var e fzExpr
	if d > 0 && g.choose(g.productions(t, d, &e)...) {
		return e
	}
	return g.leaf(t)
}

// leaf is a reference or a literal of type t.
func (g *fzGen) leaf(t *fzType) fzExpr {
	r := g.randRef(func(r *fzRef) bool { return typeEq(r.t, t) && g.usable(r) })
	lit := g.canLit(t)
	if r != nil && (g.chance(0.6) || !lit || !g.on("literal")) {
		return g.useRef(r)
	}
	if !lit {
		// Callers check canMake, but it may have been true only outside
		// a sensitive or definite operation: use any reference, or an
		// empty list of objects.
		if r = g.randRef(func(r *fzRef) bool { return typeEq(r.t, t) }); r != nil {
			return g.useRef(r)
		}
		if t.kind != fzList {
			panic(fmt.Sprintf("difffuzz: no value of kind %d, which only the data has", t.kind))
		}
		return fzExpr{text: "[]", prec: precPrimary}
	}
	return g.lit(t)
}

// lit is a literal of type t, a scalar or a list.
func (g *fzGen) lit(t *fzType) fzExpr {
	switch t.kind {
	case fzString:
		return fzExpr{text: g.strLit(), prec: precPrimary}
	case fzInt:
		return g.intLit()
	case fzFloat:
		return g.floatLit()
	case fzBool:
		return fzExpr{text: g.pick([]string{"true", "false", "True", "False"}), prec: precPrimary}
	case fzList:
		n := g.r.IntN(4)
		if n == 0 && !g.on("empty-list-concat") {
			n = 1
		}
		e := fzExpr{prec: precPrimary}
		items := make([]string, n)
		for i := range items {
			x := g.literalItem(func() fzExpr { return g.leaf(t.elem) })
			items[i] = g.wrap(x, precCond)
			e.elems = append(e.elems, x.paths...)
		}
		e.text = "[" + strings.Join(items, ", ") + "]"
		return e
	}
	panic(fmt.Sprintf("lit of kind %d", t.kind))
}

func (g *fzGen) strLit() string {
	s := ""
	for range g.r.IntN(3) {
		s += g.pick(fzWords)
	}
	q := g.pick([]string{"'", "\""})
	var b strings.Builder
	b.WriteString(q)
	for _, r := range s {
		switch {
		case string(r) == q || r == '\\':
			b.WriteString("\\" + string(r))
		case r == '\n' && g.on("string-escape") && g.chance(0.5):
			b.WriteString(`\n`)
		case r == '\t' && g.on("string-escape"):
			b.WriteString(`\t`)
		case r == 'é' && g.on("string-escape") && g.chance(0.5):
			b.WriteString(`\u00e9`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteString(q)
	return b.String()
}

func (g *fzGen) intLit() fzExpr {
	// Small enough that products and powers stay in int64 (Go's int
	// wraps, a documented divergence).
	n := g.r.IntN(10)
	if g.chance(0.15) {
		n = g.r.IntN(300)
	}
	text := strconv.Itoa(n)
	if g.on("int-underscore") && g.chance(0.05) {
		text = "1_" + fmt.Sprintf("%03d", n%1000) // 1_000 to 1_299
	}
	if g.on("unary") && g.chance(0.1) {
		return fzExpr{text: "-" + text, prec: precUnary}
	}
	return fzExpr{text: text, prec: precPrimary}
}

func (g *fzGen) floatLit() fzExpr {
	text := g.pick([]string{"0.5", "1.0", "2.25", "0.1", "3.14159", "1e3", "2E2", "1.5e-3", "10.0", "0.0", "2.5", "1_000.5", "0.3"})
	if g.on("unary") && g.chance(0.1) {
		return fzExpr{text: "-" + text, prec: precUnary}
	}
	return fzExpr{text: text, prec: precPrimary}
}

// dictLit is a dict literal of scalars, printed or read by key.
func (g *fzGen) dictLit(d int) fzExpr {
	var items []string
	keys := []string{"a", "b", "k", "name"}
	for _, k := range keys[:1+g.r.IntN(3)] {
		v := g.literalItem(func() fzExpr { return g.expr([]*fzType{fzStr, fzIntT, fzFlt, fzBoolT}[g.r.IntN(4)], min(d, 1)) })
		items = append(items, "'"+k+"': "+g.wrap(v, precCond))
	}
	return fzExpr{text: "{" + strings.Join(items, ", ") + "}", prec: precPrimary}
}

// productions are the ways to make an expression of type t with depth d
// left; each sets *e.
func (g *fzGen) productions(t *fzType, d int, e *fzExpr) []choice {
	sub := d - 1
	nest := t.kind != fzList || g.on("list-of-lists") // t may be a list's element
	cs := []choice{
		{6, true, func() { *e = g.leaf(t) }},
		{3, g.on("cond"), func() {
			x, y := g.expr(t, sub), g.expr(t, sub)
			c, _ := g.cond(sub)
			y = g.operand(y, precCond)
			*e = fzExpr{text: g.beforeName(x, precOr) + " if " + g.wrap(c, precOr) + " else " + y.text, prec: precCond,
				paths: slices.Concat(x.paths, y.paths), elems: slices.Concat(x.elems, y.elems), openRight: y.openRight}
		}},
		{2, g.on("index") && nest, func() { *e = g.index(t, sub) }},
		{1, g.on("method-get") && nest && g.canMake(&fzType{kind: fzMap, elem: t}), func() {
			m := g.expr(&fzType{kind: fzMap, elem: t}, 0)
			key := "'" + g.pick(fzMapKeys) + "'"
			if g.chance(0.3) {
				key = g.wrap(g.expr(fzStr, 0), precCond)
			}
			dflt := g.leaf(t) // promptgen takes a literal or a variable, which cannot fail
			if g.chance(0.2) {
				dflt = g.expr(t, sub)
			}
			*e = fzExpr{text: g.wrap(m, precPrimary) + ".get(" + key + ", " + g.wrap(dflt, precCond) + ")", prec: precPrimary,
				paths: slices.Concat(m.paths, dflt.paths), elems: dflt.elems}
		}},
		{2, g.on("filter-first-last") && nest, func() {
			name := g.pick([]string{"first", "last"})
			empty := g.on("first-empty")
			x := g.sensitiveOp("first-unset", func() fzExpr {
				if name == "first" && empty {
					return g.exprLazy(listOf(t), sub)
				}
				return g.expr(listOf(t), sub)
			})
			*e = g.filter(x, name)
			e.paths, e.elems = x.elems, elemPaths(x.elems)
			if !empty {
				fb := g.operand(g.expr(t, 0), precCond)
				*e = fzExpr{text: e.text + " if " + g.wrap(x, precUnary) + "|length > 0 else " + fb.text, prec: precCond,
					paths: slices.Concat(e.paths, fb.paths), elems: slices.Concat(e.elems, fb.elems), openRight: fb.openRight}
			}
		}},
		{2, g.on("loop-neighbour") && g.inLoop() && t.scalar(), func() {
			x, ok := g.loopNeighbour(t)
			if !ok {
				*e = g.leaf(t)
				return
			}
			fb := g.defined(func() fzExpr { return g.expr(t, 0) })
			if g.chance(0.5) {
				*e = g.filter(x, g.defaultName(), g.wrap(fb, precCond))
				return
			}
			fb = g.operand(fb, precCond)
			*e = fzExpr{text: x.text + " if " + x.text + " is defined else " + fb.text, prec: precCond, openRight: fb.openRight}
		}},
		{2, g.on("loop-cycle") && g.inLoop() && t.scalar(), func() { *e = g.loopCycle(t) }},
		{2, g.on("filter-default") && t.scalar() && (g.declared || g.on("default-inferred")), func() {
			r := g.randRef(func(r *fzRef) bool { return r.optional && typeEq(r.t, t) && len(r.paths) > 0 })
			if r == nil {
				*e = g.leaf(t)
				return
			}
			args := []string{g.wrap(g.defined(func() fzExpr { return g.expr(t, 0) }), precCond)}
			if g.chance(0.3) {
				args = append(args, g.kw("boolean", g.pick([]string{"true", "false"})))
			}
			*e = g.filter(g.useRef(r), g.defaultName(), args...)
		}},
	}
	switch t.kind {
	case fzString:
		cs = append(cs, choice{3, g.on("macro") && len(g.macros) > 0, func() { *e = g.macroCall(sub) }})
		cs = append(cs, g.stringProductions(sub, e)...)
	case fzInt:
		cs = append(cs, g.intProductions(sub, e)...)
	case fzFloat:
		cs = append(cs, g.floatProductions(sub, e)...)
	case fzBool:
		cs = append(cs, g.boolProductions(sub, e)...)
	case fzList:
		cs = append(cs, g.listProductions(t, sub, e)...)
	}
	return cs
}

// index is an element of a list or map, or a character of a string,
// guarded by a length or key test unless index-out-of-range is on.
func (g *fzGen) index(t *fzType, d int) fzExpr {
	var x, i fzExpr
	var guard string
	fromMap := t.kind != fzString && g.on("map-index") && g.chance(0.3) && g.canMake(&fzType{kind: fzMap, elem: t})
	switch {
	case fromMap:
		x = g.expr(&fzType{kind: fzMap, elem: t}, 0)
		k := "'" + g.pick(fzMapKeys) + "'"
		i = fzExpr{text: k, prec: precPrimary}
		guard = k + " in " + g.wrap(x, precCmp+1)
	case t.kind == fzString && g.chance(0.4):
		x = g.expr(fzStr, d)
	default:
		if !g.canMake(listOf(t)) {
			return g.leaf(t)
		}
		x = g.expr(listOf(t), d)
	}
	if !fromMap {
		n := g.r.IntN(6) - 2
		i = fzExpr{text: strconv.Itoa(n), prec: precPrimary}
		if n < 0 {
			i.prec = precUnary
		}
		length := g.wrap(x, precUnary) + "|length"
		guard = length + " > " + strconv.Itoa(n)
		if n < 0 {
			guard = length + " >= " + strconv.Itoa(-n)
		}
	}
	el := fzExpr{text: g.wrap(x, precPrimary) + "[" + i.text + "]", prec: precPrimary, paths: x.elems, elems: elemPaths(x.elems)}
	if g.on("index-out-of-range") && g.chance(0.5) {
		return el
	}
	fb := g.operand(g.expr(t, 0), precCond)
	return fzExpr{text: el.text + " if " + guard + " else " + fb.text, prec: precCond,
		paths: slices.Concat(el.paths, fb.paths), elems: slices.Concat(el.elems, fb.elems), openRight: fb.openRight}
}

func (g *fzGen) stringProductions(d int, e *fzExpr) []choice {
	str := func() fzExpr { return g.expr(fzStr, d) }
	return []choice{
		{4, g.profile && g.on("strftime"), func() { *e = g.strftime() }},
		{3, g.on("concat"), func() { *e = g.binary(g.printable(d), "~", g.printable(d), precConcat) }},
		{1, g.on("plus"), func() { *e = g.binary(str(), "+", str(), precAdd) }},
		{1, g.on("repeat"), func() {
			n := fzExpr{text: strconv.Itoa(g.r.IntN(4)), prec: precPrimary}
			if g.chance(0.5) {
				*e = g.binary(str(), "*", n, precMul)
			} else {
				*e = g.binary(n, "*", str(), precMul)
			}
		}},
		{2, g.on("filter-case"), func() { *e = g.filter(str(), g.pick([]string{"upper", "lower", "title", "capitalize"})) }},
		{1, g.on("filter-reverse"), func() { *e = g.filter(str(), "reverse") }},
		{1, g.on("filter-trim"), func() { *e = g.filter(str(), "trim", g.stringFilterArgs("trim")...) }},
		{1, g.on("filter-replace"), func() { *e = g.filter(str(), "replace", g.stringFilterArgs("replace")...) }},
		{1, g.on("filter-indent"), func() { *e = g.filter(g.undefOperand(str), "indent", g.stringFilterArgs("indent")...) }},
		{1, g.on("filter-truncate"), func() {
			*e = g.filter(g.undefOperand(str), "truncate", g.stringFilterArgs("truncate")...)
		}},
		{2, g.on("filter-string"), func() { *e = g.filter(g.printable(d), "string") }},
		{1, g.on("filter-safe"), func() { *e = g.filter(g.printable(d), "safe") }},
		{1, g.on("filter-tojson") && g.on("tojson-operand"), func() { *e = g.tojson(g.undefOperand(func() fzExpr { return g.anyValue(d) })) }},
		{2, g.on("filter-join"), func() {
			var x fzExpr
			var args []string
			if g.chance(0.6) {
				args = append(args, g.kw("d", g.strLit()))
			}
			if r := g.randRef(func(r *fzRef) bool { return isObjectList(r.t) && g.usable(r) }); r != nil && g.chance(0.4) {
				f := r.t.elem.fields[g.r.IntN(len(r.t.elem.fields))]
				if f.t.scalar() {
					x = g.sensitiveOp("map-attr-optional", func() fzExpr {
						y := g.useRef(r)
						g.markSet(fieldPaths(y.elems, f.name))
						return y
					})
					if len(args) == 0 {
						args = append(args, "''")
					}
					args = append(args, "attribute='"+f.name+"'")
					*e = g.filter(x, "join", args...)
					return
				}
			}
			x = g.exprLazy(listOf([]*fzType{fzStr, fzIntT, fzFlt, fzBoolT}[g.r.IntN(4)]), d)
			*e = g.filter(x, "join", args...)
		}},
		{2, g.on("method-strip"), func() {
			name := g.pick([]string{"strip", "lstrip", "rstrip"})
			if g.chance(0.3) {
				*e = g.method(g.undefOperand(str), name, g.strLit())
			} else {
				*e = g.method(g.undefOperand(str), name)
			}
		}},
		{2, g.on("method-case"), func() { *e = g.method(g.undefOperand(str), g.pick([]string{"upper", "lower", "title", "capitalize"})) }},
		{1, g.on("method-replace"), func() {
			args := []string{g.strLit(), g.strLit()}
			if g.chance(0.3) {
				args = append(args, strconv.Itoa(g.r.IntN(4)-1))
			}
			*e = g.method(g.undefOperand(str), "replace", args...)
		}},
		{2, g.on("slice"), func() { *e = g.slice(g.sensitiveOp("slice-unset", str)) }},
	}
}

func isObjectList(t *fzType) bool { return t.kind == fzList && t.elem.kind == fzObject }

// slice is x[lo:hi:step] with some parts left out.
func (g *fzGen) slice(x fzExpr) fzExpr {
	part := func() string {
		if g.chance(0.4) {
			return ""
		}
		return strconv.Itoa(g.r.IntN(7) - 3)
	}
	s := part() + ":" + part()
	if g.chance(0.3) {
		step := []string{"", "1", "2", "-1", "-2"}[g.r.IntN(5)]
		s += ":" + step
	}
	return fzExpr{text: g.wrap(x, precPrimary) + "[" + s + "]", prec: precPrimary, paths: x.paths, elems: x.elems}
}

func (g *fzGen) intProductions(d int, e *fzExpr) []choice {
	num := func() fzExpr { return g.expr(fzIntT, d) }
	return []choice{
		{4, g.on("arith"), func() {
			op := g.pick([]string{"+", "-", "*", "//", "%"})
			prec := precMul
			if op == "+" || op == "-" {
				prec = precAdd
			}
			*e = g.binary(num(), op, num(), prec)
		}},
		{1, g.on("pow"), func() {
			y := fzExpr{text: strconv.Itoa(g.r.IntN(4)), prec: precPrimary}
			*e = g.binary(g.expr(fzIntT, 0), "**", y, precPow)
		}},
		// The operand of - is a primary: Jinja2 reads -x|f as (-x)|f.
		{1, g.on("unary"), func() { *e = fzExpr{text: "-" + g.wrap(num(), precPrimary), prec: precUnary} }},
		{3, g.on("filter-length"), func() {
			name := "length"
			if g.on("filter-alias") && g.chance(0.2) {
				name = "count"
			}
			var x fzExpr
			g.choose(
				choice{3, true, func() { x = g.expr(g.randListType(), d) }},
				choice{2, true, func() { x = g.expr(fzStr, d) }},
				choice{1, g.hasRef(fzMap), func() { x = g.expr(g.randRef(func(r *fzRef) bool { return r.t.kind == fzMap && g.usable(r) }).t, 0) }},
				choice{1, g.on("length-object") && g.hasRef(fzObject), func() {
					x = g.expr(g.randRef(func(r *fzRef) bool { return r.t.kind == fzObject && g.usable(r) }).t, 0)
				}},
			)
			*e = g.filter(x, name)
		}},
		{2, g.on("filter-int"), func() {
			var x fzExpr
			var args []string
			g.sensitive += g.undefDepth()
			defer func() { g.sensitive -= g.undefDepth() }()
			g.choose(
				choice{2, true, func() {
					x = fzExpr{text: g.pick([]string{"'12'", "'-4'", "' 7 '", "'3.7'", "'abc'", "''", "'1e3'", "'0x1A'", "'0b101'", "'1_000'", "'٣'"}), prec: precPrimary}
					if g.on("number-data") && g.chance(0.3) {
						x.text = g.pick([]string{"' +1_000 '", "'9007199254740993'", "'-0'", "'1__2'", "'nan'", "'inf'", "'1e400'", "'-9.2e18'", "'\\t42\\n'"})
					}
					if g.chance(0.3) {
						args = append(args, g.kw("default", strconv.Itoa(g.r.IntN(9)-1)))
						if g.chance(0.5) {
							args = append(args, g.kw("base", g.pick([]string{"10", "16", "2", "0"})))
						}
					}
				}},
				choice{1, true, func() { x = g.expr(fzStr, d) }},
				choice{2, true, func() { x = g.expr(fzFlt, d) }},
				choice{1, true, func() { x = num() }},
				choice{1, true, func() { x = g.expr(fzBoolT, 0) }},
			)
			*e = g.filter(x, "int", args...)
		}},
		// round makes an inferred operand a number.
		{1, g.on("filter-round") && g.declared, func() {
			if g.chance(0.5) {
				p := g.r.IntN(3)
				if g.on("number-data") && g.chance(0.5) {
					p = -1 - g.r.IntN(3) // Python rounds an int to tens, ties to even
				}
				*e = g.filter(g.undefOperand(num), "round", strconv.Itoa(p))
			} else {
				*e = g.filter(g.undefOperand(num), "round")
			}
		}},
		{2, g.on("loop-attr") && g.inLoop(), func() {
			*e = fzExpr{text: "loop." + g.pick([]string{"index", "index0", "revindex", "revindex0", "length"}), prec: precPrimary}
		}},
		{1, g.on("method-split") && g.on("filter-length"), func() {
			*e = g.filter(g.method(g.undefOperand(func() fzExpr { return g.expr(fzStr, d) }), "split"), "length")
		}},
	}
}

func (g *fzGen) floatProductions(d int, e *fzExpr) []choice {
	flt := func() fzExpr { return g.expr(fzFlt, d) }
	// An int operand of a float operation: not in inferred mode, where it
	// would make an inferred int input a number.
	number := func() fzExpr {
		if g.chance(0.5) && g.declared {
			return g.expr(fzIntT, d)
		}
		return flt()
	}
	return []choice{
		{4, g.on("arith"), func() {
			op := g.pick([]string{"+", "-", "*", "//", "%"})
			prec := precMul
			if op == "+" || op == "-" {
				prec = precAdd
			}
			x, y := flt(), number()
			if g.chance(0.5) {
				x, y = y, x
			}
			*e = g.binary(x, op, y, prec)
		}},
		{3, g.on("divide"), func() {
			if !g.declared && g.chance(0.5) { // ints of one kind
				*e = g.binary(g.expr(fzIntT, d), "/", g.expr(fzIntT, d), precMul)
				return
			}
			*e = g.binary(number(), "/", number(), precMul)
		}},
		{1, g.on("pow"), func() {
			y := fzExpr{text: strconv.Itoa(g.r.IntN(3)), prec: precPrimary}
			*e = g.binary(g.expr(fzFlt, 0), "**", y, precPow)
		}},
		// An int beyond 2^53 (a literal, or int of a string, which the data
		// may hold) divided by an int: Python's quotient is correctly
		// rounded. Only as the dividend, so no product leaves int64.
		{1, g.on("number-data"), func() {
			x := fzExpr{text: g.pick([]string{"9007199254740993", "4611686018427387905", "12345678901234567"}), prec: precPrimary}
			if g.chance(0.5) {
				g.sensitive += g.undefDepth()
				x = g.filter(g.expr(fzStr, d), "int")
				g.sensitive -= g.undefDepth()
			}
			*e = g.binary(x, "/", g.expr(fzIntT, d), precMul)
		}},
		// An int to a negative constant power is a float.
		{1, g.on("pow-negative"), func() {
			y := fzExpr{text: strconv.Itoa(-1 - g.r.IntN(2)), prec: precUnary}
			*e = g.binary(g.expr(fzIntT, 0), "**", y, precPow)
		}},
		{1, g.on("unary"), func() {
			x := g.leaf(fzFlt) // a name or a literal, never a constant Go folds
			if g.on("neg-zero-constant") {
				x = flt()
			}
			*e = fzExpr{text: "-" + g.wrap(x, precPrimary), prec: precUnary}
		}},
		{2, g.on("filter-float"), func() {
			var x fzExpr
			var args []string
			g.sensitive += g.undefDepth()
			defer func() { g.sensitive -= g.undefDepth() }()
			g.choose(
				choice{2, true, func() {
					x = fzExpr{text: g.pick([]string{"'1.5'", "' 2 '", "'abc'", "'1e3'", "'-0.25'", "'1_0.5'"}), prec: precPrimary}
					if g.on("number-data") && g.chance(0.3) {
						// Not inf or nan: Jinja2 folds the constant and writes it
						// into its Python code as inf, a NameError (they come in
						// the data).
						x.text = g.pick([]string{"'-1e-400'", "'9007199254740993'", "' +.5 '", "'1_.5'", "'4.9e-324'", "'-0'", "'1E+2'"})
					}
					if g.chance(0.3) {
						args = append(args, g.kw("default", g.floatLit().text))
					}
				}},
				choice{1, true, func() { x = g.expr(fzStr, d) }},
				choice{2, true, func() { x = g.expr(fzIntT, d) }},
				choice{1, true, func() { x = flt() }},
			)
			*e = g.filter(x, "float", args...)
		}},
		{2, g.on("filter-round"), func() {
			var args []string
			method := "common"
			if g.chance(0.6) {
				p := g.r.IntN(4)
				if g.on("number-data") && g.chance(0.3) {
					p = -1 - g.r.IntN(3)
				}
				args = append(args, g.kw("precision", strconv.Itoa(p)))
				if g.chance(0.6) {
					method = g.pick([]string{"common", "floor", "ceil"})
					args = append(args, g.kw("method", "'"+method+"'"))
				}
			}
			x := flt()
			if method != "common" && g.chance(0.3) && g.declared {
				x = g.expr(fzIntT, d) // floor and ceil make a float of it
			}
			*e = g.filter(g.undefOperand(func() fzExpr { return x }), "round", args...)
		}},
	}
}

func (g *fzGen) boolProductions(d int, e *fzExpr) []choice {
	scalar := func() *fzType { return []*fzType{fzStr, fzIntT, fzFlt, fzBoolT}[g.r.IntN(4)] }
	return []choice{
		{2, g.on("loop-neighbour") && g.inLoop(), func() {
			x, ok := g.loopNeighbour(nil)
			if !ok {
				*e = g.leaf(fzBoolT)
				return
			}
			*e = fzExpr{text: x.text + " is " + g.pick([]string{"defined", "undefined", "not defined"}), prec: precPostfix, openRight: true}
		}},
		{4, g.on("compare"), func() {
			op := g.pick([]string{"==", "!=", "<", "<=", ">", ">="})
			var x, y fzExpr
			switch t := scalar(); {
			case t == fzBoolT && (op == "==" || op == "!="):
				x, y = g.expr(fzBoolT, d), g.expr(fzBoolT, d)
			case t == fzStr:
				x, y = g.expr(fzStr, d), g.expr(fzStr, d)
			case !g.declared:
				// Mixing would make an inferred int a number.
				nt := []*fzType{fzIntT, fzFlt}[g.r.IntN(2)]
				x, y = g.expr(nt, d), g.expr(nt, d)
			default:
				x, y = g.expr([]*fzType{fzIntT, fzFlt}[g.r.IntN(2)], d), g.expr([]*fzType{fzIntT, fzFlt}[g.r.IntN(2)], d)
			}
			*e = g.compare(x, op, y)
		}},
		{1, g.on("compare-mixed") && g.declared, func() {
			x, y := g.expr(fzStr, d), g.expr(fzIntT, d)
			if g.chance(0.5) {
				x, y = y, x
			}
			*e = g.compare(x, g.pick([]string{"==", "!="}), y)
		}},
		{1, g.on("compare-chain"), func() {
			x, y, z := g.expr(fzIntT, d), g.expr(fzIntT, d), g.operand(g.expr(fzIntT, d), precCmp+1)
			*e = fzExpr{text: g.wrap(x, precCmp+1) + " < " + g.wrap(y, precCmp+1) + " <= " + z.text, prec: precCmp, openRight: z.openRight}
		}},
		{2, g.on("not"), func() {
			x, _ := g.cond(d)
			*e = g.not(x)
		}},
		{2, g.on("and-or"), func() {
			op, prec := "and", precAnd
			if g.chance(0.5) {
				op, prec = "or", precOr
			}
			if g.on("andor-value") && g.chance(0.3) {
				// Non-bool operands: the value is one of them, read
				// for its truth here.
				*e = g.binary(g.anyValue(d), op, g.anyValue(d), prec)
				return
			}
			// The value is one of the operands: each must be a bool,
			// never undefined, nor a name inference may make a string.
			operand := func() fzExpr { return g.expr(fzBoolT, d) }
			if !g.on("andor-value") {
				operand = func() fzExpr {
					x := g.defined(func() fzExpr { return g.expr(fzBoolT, d) })
					if !g.declared && x.prec >= precPostfix && !(x.prec == precPrimary && isScalarLit(x.text)) {
						x = fzExpr{text: "not not " + g.wrap(x, precNot), prec: precNot}
					}
					return x
				}
			}
			*e = g.binary(g.andOrLeft(operand), op, operand(), prec)
		}},
		{3, g.on("in"), func() { *e = g.in(d) }},
		{3, g.on("test"), func() {
			name := g.pick([]string{"defined", "undefined", "none", "string", "number"})
			if g.on("test-type") && g.chance(0.5) {
				name = g.pick(fzTypeTests)
			}
			if g.on("test-parity") && g.chance(0.3) {
				name = g.pick([]string{"even", "odd", "divisibleby(3)"})
				*e = g.isTest(g.expr(fzIntT, d), name)
				return
			}
			var x fzExpr
			if r := g.randRef(func(r *fzRef) bool { return r.optional && !r.parentOptional }); r != nil && g.chance(0.5) {
				x = g.useRef(r)
			} else {
				x = g.anyValue(d)
			}
			*e = g.isTest(x, name)
		}},
		{2, g.on("method-affix"), func() {
			*e = g.method(g.undefOperand(func() fzExpr { return g.expr(fzStr, d) }), g.pick([]string{"startswith", "endswith"}), g.strLit())
		}},
		{2, g.on("loop-attr") && g.inLoop(), func() {
			*e = fzExpr{text: "loop." + g.pick([]string{"first", "last"}), prec: precPrimary}
		}},
	}
}

// andOrLeft makes the left operand of and/or: no bool literal unless
// andor-constant is on.
func (g *fzGen) andOrLeft(f func() fzExpr) fzExpr {
	x := f()
	if x.prec == precPrimary && isScalarLit(x.text) && !g.on("andor-constant") {
		return fzExpr{text: "not not " + x.text, prec: precNot}
	}
	return x
}

// isScalarLit reports whether text is a scalar literal.
func isScalarLit(text string) bool {
	switch text {
	case "true", "false", "True", "False", "none", "None":
		return true
	}
	_, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
	return err == nil || strings.HasPrefix(text, "'") || strings.HasPrefix(text, `"`)
}

// in is a membership test: a substring, a list element or a map key.
func (g *fzGen) in(d int) fzExpr {
	if !g.on("in-undefined") {
		g.sensitive++
		defer func() { g.sensitive-- }()
	}
	op := g.pick([]string{"in", "not in"})
	var x, y fzExpr
	g.choose(
		choice{3, true, func() { x, y = g.expr(fzStr, d), g.expr(fzStr, d) }},
		choice{3, true, func() {
			t := []*fzType{fzStr, fzIntT, fzFlt, fzBoolT}[g.r.IntN(4)]
			x, y = g.expr(t, d), g.exprLazy(listOf(t), d)
			if t == fzFlt && g.chance(0.3) && g.declared {
				x = g.expr(fzIntT, d)
			}
		}},
		choice{1, g.hasRef(fzMap), func() {
			x = g.expr(fzStr, d)
			y = g.expr(g.randRef(func(r *fzRef) bool { return r.t.kind == fzMap && g.usable(r) }).t, 0)
		}},
		choice{1, g.on("in-object") && g.hasRef(fzObject), func() {
			r := g.randRef(func(r *fzRef) bool { return r.t.kind == fzObject && g.usable(r) })
			x = fzExpr{text: "'" + r.t.fields[0].name + "'", prec: precPrimary}
			y = g.useRef(r)
		}},
	)
	return g.compare(x, op, y)
}

// selectTest is the test of a select filter on values of type t, with its
// argument, or nothing (their truth). An optional value gets only tests
// that an undefined passes or fails without an error.
func (g *fzGen) selectTest(t *fzType, optional bool) []string {
	arg := func() string { return g.wrap(g.defined(func() fzExpr { return g.expr(t, 0) }), precCond) }
	var out []string
	cmp := func() {
		out = []string{"'" + g.pick([]string{"equalto", "==", "eq", "ne", "!=", "lt", "<", "le", "gt", ">=", "ge", "greaterthan"}) + "'", arg()}
	}
	g.choose(
		choice{2, true, func() {}},
		choice{2, true, func() { out = []string{"'" + g.pick([]string{"defined", "undefined"}) + "'"} }},
		choice{1, !optional, func() { out = []string{"'" + g.pick([]string{"string", "number", "none"}) + "'"} }},
		choice{2, g.on("test-type"), func() { out = []string{"'" + g.pick(fzTypeTests) + "'"} }},
		choice{3, !optional && t.kind == fzInt, func() { out = []string{"'" + g.pick([]string{"odd", "even"}) + "'"} }},
		choice{1, !optional && t.kind == fzInt, func() { out = []string{"'divisibleby'", strconv.Itoa(1 + g.r.IntN(4))} }},
		choice{4, !optional && (t.kind == fzInt || t.kind == fzFloat || t.kind == fzString), cmp},
		choice{2, !optional && t.kind == fzBool, func() { out = []string{"'" + g.pick([]string{"equalto", "ne"}) + "'", arg()} }},
		choice{1, !optional && t.kind == fzString, func() {
			out = []string{"'in'", "[" + arg() + ", " + arg() + "]"}
		}},
	)
	return out
}

// mapByName is map with a filter's name yielding a list of elem: a string
// filter over strings, string over numbers, int or length to ints, float
// to floats.
func (g *fzGen) mapByName(elem *fzType, d int) fzExpr {
	from := []*fzType{fzStr, fzIntT, fzFlt}[g.r.IntN(3)]
	var name string
	switch elem.kind {
	case fzString:
		name = g.pick([]string{"upper", "lower", "title", "capitalize", "trim", "replace", "indent", "truncate", "string"})
		if name != "string" {
			from = fzStr
		}
	case fzInt:
		name = g.pick([]string{"int", "length", "count"})
		if name != "int" {
			from = fzStr
		}
	default:
		name = "float"
	}
	args := append([]string{"'" + name + "'"}, g.stringFilterArgs(name)...)
	e := g.filter(g.exprLazy(listOf(from), d), "map", args...)
	e.lazy = true
	return e
}

func (g *fzGen) listProductions(t *fzType, d int, e *fzExpr) []choice {
	list := func() fzExpr { return g.expr(t, d) }
	iterated := func() fzExpr { return g.exprLazy(t, d) }
	scalar := t.elem.scalar()
	var field *fzField // a scalar field of the elements, for attribute=
	if t.elem.kind == fzObject {
		for _, f := range t.elem.fields {
			if f.t.scalar() && !f.optional && (f.t.kind != fzBool || g.on("sort-bool") && g.chance(0.1)) {
				field = f
			}
		}
	}
	return []choice{
		{4, g.on("list-literal") && g.canMake(t.elem), func() {
			*e = fzExpr{prec: precPrimary}
			items := make([]string, 1+g.r.IntN(3))
			for i := range items {
				x := g.literalItem(func() fzExpr { return g.expr(t.elem, d) })
				items[i] = g.wrap(x, precCond)
				e.elems = append(e.elems, x.paths...)
			}
			e.text = "[" + strings.Join(items, ", ") + "]"
		}},
		{2, g.on("slice"), func() { *e = g.slice(g.sensitiveOp("slice-unset", list)) }},
		// Sorting bools is an error: rarely.
		{2, g.on("filter-sort") && (scalar || field != nil) && (t.elem.kind != fzBool || g.on("sort-bool") && g.chance(0.1)), func() {
			var args []string
			if g.chance(0.4) {
				args = append(args, g.kw("reverse", g.pick([]string{"true", "false"})))
			}
			if g.chance(0.3) {
				args = append(args, "case_sensitive="+g.pick([]string{"true", "false"}))
			}
			if !scalar {
				args = append(args, "attribute='"+field.name+"'")
			}
			*e = g.filter(iterated(), "sort", args...)
		}},
		{1, g.on("filter-unique") && scalar, func() {
			if g.chance(0.3) {
				*e = g.filter(iterated(), "unique", "case_sensitive="+g.pick([]string{"true", "false"}))
			} else {
				*e = g.filter(iterated(), "unique")
			}
			e.lazy = true
		}},
		{1, g.on("filter-list"), func() { *e = g.filter(iterated(), "list") }},
		{1, g.on("filter-reverse"), func() {
			*e = g.filter(iterated(), "reverse")
			e.lazy = true
		}},
		{2, g.on("select") && scalar, func() {
			*e = g.filter(iterated(), g.pick([]string{"select", "reject"}), g.selectTest(t.elem, false)...)
			e.lazy = true
		}},
		{2, g.on("select") && t.elem.kind == fzObject, func() {
			var fields []*fzField
			for _, f := range t.elem.fields {
				if f.t.scalar() {
					fields = append(fields, f)
				}
			}
			if len(fields) == 0 {
				*e = list()
				return
			}
			f := fields[g.r.IntN(len(fields))]
			args := append([]string{"'" + f.name + "'"}, g.selectTest(f.t, f.optional)...)
			*e = g.filter(iterated(), g.pick([]string{"selectattr", "rejectattr"}), args...)
			e.lazy = true
		}},
		{2, g.on("method-split") && t.elem.kind == fzString, func() {
			var args []string
			if g.chance(0.6) {
				args = append(args, g.pick([]string{"' '", "','", "'a'", "'\\n'"}))
				if g.chance(0.3) {
					args = append(args, strconv.Itoa(g.r.IntN(3)))
				}
			}
			*e = g.method(g.undefOperand(func() fzExpr { return g.expr(fzStr, d) }), "split", args...)
		}},
		{1, g.on("filter-list") && t.elem.kind == fzString, func() { *e = g.filter(g.expr(fzStr, d), "list") }},
		{2, g.on("filter-map-attr"), func() {
			// A list of objects with a field of t's element type.
			r := g.randRef(func(r *fzRef) bool {
				if !isObjectList(r.t) || !g.usable(r) {
					return false
				}
				for _, f := range r.t.elem.fields {
					if typeEq(f.t, t.elem) {
						return true
					}
				}
				return false
			})
			if r == nil {
				*e = g.leaf(t)
				return
			}
			var f *fzField
			for _, ff := range r.t.elem.fields {
				if typeEq(ff.t, t.elem) {
					f = ff
				}
			}
			x := g.sensitiveOp("map-attr-optional", func() fzExpr {
				x := g.useRef(r)
				g.markSet(fieldPaths(x.elems, f.name))
				return x
			})
			*e = g.filter(x, "map", "attribute='"+f.name+"'")
			e.paths, e.elems, e.lazy = nil, fieldPaths(x.elems, f.name), true
		}},
		{2, g.on("filter-map-name") && (t.elem.kind == fzString || t.elem.kind == fzInt || t.elem.kind == fzFloat), func() {
			*e = g.mapByName(t.elem, d)
		}},
		{1, g.on("plus"), func() {
			x, y := list(), list()
			*e = g.binary(x, "+", y, precAdd)
			e.paths, e.elems = slices.Concat(x.paths, y.paths), slices.Concat(x.elems, y.elems)
		}},
	}
}
