package difffuzz

// The case generator: a random `inputs` schema and a random well-typed
// template over the whole supported subset (docs/template-language.md),
// built from weighted productions. Every production belongs to a named
// family, so that a family promptgen is known to get wrong can be
// switched off (excludedFamilies) until its fix lands. This file holds the
// families, the generator's types and the case; the gen_*.go files the
// productions, by kind of construct.

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/promptgen/promptgen/internal/pyjinja"
)

// excludedFamilies are the families the generator leaves out by default: each
// makes promptgen differ from Jinja2 on purpose, as docs/template-language.md's table of
// deliberate divergences says (with its own case in
// gen/testdata/render/divergences). Options.Enable turns one on for a run.
var excludedFamilies = []string{
	"json-null",          // JSON null for an optional in the data: it means unset
	"index-out-of-range", // an index past the end stored in a list or dict: Render fails with ErrUndefined
	"first-empty",        // first/last of an empty list stored in a list or dict: Render fails with ErrUndefined
}

// includedFamilies are the families of the productions that are on by default.
// Options.Enable and Options.Disable accept these and excludedFamilies.
var includedFamilies = []string{
	// Statements, whitespace and prompt files.
	"text", "print", "if", "elif", "else", "for", "for-else", "for-filter", "for-items", "for-string", "include",
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
	"method-affix", "method-split", "method-replace", "method-search", "method-pad", "method-lines", "method-partition", "test-builtin",
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
	"neg-zero-constant", "dict-missing-key", "mixed-value", "filter-abs-batch", "macro-param-global", "dyn-round",
	// Issue 27: the names a loop's body or else, a block set or a filter
	// block assigns (loop targets too), read after it, where they are
	// undefined (declared inputs) or optional inputs (inferred ones).
	"read-after-frame",
	// Issue 27: a for loop over a list literal with an element that may
	// be undefined, which Jinja2 keeps (and so promptgen's dynamic value).
	"for-literal-undefined",
	// Issue 27: a generator (map, select, reject, unique, a list's
	// reverse) stored with set in a name nothing reads.
	"set-generator",
	// Issue 27: a generator (or a list's reverse) tested, subscripted by
	// an int (undefined), and stored through a conditional.
	"generator-test", "generator-index", "set-generator-cond",
	// Issue 27: tojson of a generator (or a list's reverse) where it may
	// not run (in an if, a loop or a macro), which fails the render where
	// it runs (Jinja2: TypeError), as llama.cpp's DeepSeek-R1 template's.
	"generator-tojson",
	// Issue 27: a generator used where Jinja2 raises TypeError (length,
	// last, +, a slice, a parity test) where it may not run.
	"generator-misuse",
	// Issue 27: a generator passed to a macro that calls itself
	// (Hermes-2-Pro's json_to_python_type(json_spec|items)).
	"generator-recursive-arg",
	// Issue 27: a generator (or a list's reverse) held as a value: set to
	// a name, in a list, dict or tuple literal, a namespace attribute or
	// a macro's argument, read there more than once (one iterator that
	// every read shares), compared with ==.
	"generator-value",
	// Issue 27: dict literals with int keys (ByteDance-Seed-OSS's
	// {0: 0, 512: 128, ...}), read, looped over with dictsort and items.
	"dict-int-keys",
	// Issue 27: a generator passed to a macro's list parameter (supported
	// where the body does not read it).
	"macro-generator-arg",
	// Issue 27: a loop over reverse of a string that may be undefined.
	"reverse-undefined-string",
	// Issue 27: tuple literals, unpacked in for and set (gen_tuples.go), and
	// tuples of dynamic values.
	"tuple", "dyn-tuple", "macro-varargs",
	// Issue 27: {% call %} blocks, whose body a macro's caller() prints;
	// macros defined after sets of the template, whose bodies read them;
	// macros that read kwargs, called with keyword arguments past their
	// parameters.
	"macro-call", "macro-reads-top", "macro-kwargs", "macro-recursive", "macro-after-if", "filter-missing",
	// Issue 27: a default that reads a key or attribute (optional) of a
	// value that is always defined: x|default(o.k).
	"default-read",
	// Issue 27: a list literal mixing int and number elements used as a
	// value (indexed, passed to a filter): a dynamic value.
	"mixed-number-value",
	// Issue 27: a list literal of scalars of types no one type holds
	// (['a', True]): a dynamic list.
	"mixed-scalar-value",
	// Issue 27: select, reject, selectattr and rejectattr of a typed
	// string, which Jinja2 iterates by character.
	"select-string",
	// Issue 27: the transformers profile's tojson with a positional
	// ensure_ascii of any constant (tojson(2)).
	"tojson-ensure-ascii",
	// Issue 27: {% set ns = namespace(...) %} again for a namespace of the
	// frame (its arguments may read the first's attributes).
	"namespace-twice",
	// Issue 27: a namespace set anew in an if branch, read and set after
	// the if, where the name holds the one its branch chose.
	"namespace-branch",
	// Issue 27: a namespace set in an if branch only, its attribute read
	// and set in a second if of the same condition.
	"namespace-maybe",
	// Issue 27: printf-style formatting, the filter format and % of a
	// string (typed), and of dynamic values; str.format of typed values.
	"filter-format", "dyn-str-format", "str-format",
	// Issue 27: a typed list repeated by an int or a bool (xs * 2).
	"list-repeat",
	// Issue 27: compare also orders bools, and (declared inputs) a bool
	// with an int or a number (False < True, True > 0).
	"compare-bool",
	// Issue 27: a dynamic value as a string method's int argument.
	"dyn-method-int",
	// Issue 27: a dynamic value as the index of a typed list or string,
	// or of a generator; a number or a string as a generator's.
	"dyn-index",
	// Issue 27: upper, lower, title, capitalize, trim and replace of a
	// number, a bool or none (str() of it).
	"text-filter-scalar",
	// Issue 27: center, escape, filesizeformat, urlencode, sum, min, max.
	"filter-value",
	// Issue 27: groupby, slice and forceescape of typed values (and, with
	// dyn-filters, groupby and slice of dynamic values).
	"filter-group",
	// Issue 27: groupby, slice, min, max, unique and sort of a typed list
	// of objects of the inputs (converted to dicts), by a field or a path.
	"filter-object-list",
	// Issue 27: unique of dynamic values, by the item or attribute=.
	"dyn-unique",
	// Issue 27: Python's list methods that modify a list (gen_listmethods.go),
	// and the list also held by another name or iterated as it changes.
	"list-method", "list-alias",
	// Chat templates (issue 14): namespace() attributes, and the
	// transformers profile with what it adds (see gen_profile.go).
	"namespace", "profile", "loop-control", "generation", "raise", "strftime",
	// Chat templates: inputs: chat and its dynamic values (gen_dynamic.go),
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
	// {% macro %} definitions and calls (gen_macros.go).
	"macro",
	// Type tests of typed values (sequence, mapping, integer, true, ...) and
	// the comparison tests (x is eq(y), x is in(xs), ...) for operators.
	"test-type", "test-compare",
	// select/reject/selectattr/rejectattr of any dynamic value, by any test.
	"select-dynamic",
	// safe: Markup of a printable value.
	"filter-safe",
	// Issue 27: + of a dynamic value and a safe or tojson result (Markup),
	// which escapes the dynamic string; Markup in one branch of a
	// condition only, and as a tuple item (printed, or read back).
	"dyn-markup",
	// Issue 27: Markup's string methods (split, splitlines, partition,
	// rpartition: Markup strings; replace, strip: escaped arguments),
	// escape and forceescape of Markup, a list literal holding it, and
	// truncate and trim of Markup (escaped end and characters).
	"markup-methods",
	// An int operation with an operand at the int64 limits: its result
	// is printed, or the render fails where Python's int leaves 64 bits.
	"int-limits",
	// x if c else none, printed; m.get(key, default) of typed maps; for
	// loops over m.values(); macros defined in an if branch.
	"cond-none", "method-get", "for-values", "macro-in-if",
	// Issue 27: x.get('k', {}) of an object input, whose fields are then
	// undefined where the data lacks k.
	"get-empty",
	// map with a filter of a value (center, wordcount, round, ...) of
	// typed lists and dynamic values.
	"map-value-filter",
	// Issue 27: an inferred variable only tested with is defined (vLLM's
	// xLAM template), a dynamic value, whose data is any JSON value.
	"defined-only-input",
	// Issue 27: update() of a dict literal in an if, in the transformers
	// profile, whose sandbox raises SecurityError where it runs.
	"dict-update",
	// Issue 27: map('tojson') of a dynamic value (vLLM's gemma3_pythonic
	// templates), Jinja2's or the transformers profile's tojson of each item.
	"map-tojson",
	// Issue 27: map of the filters of a list or dict that make a new value
	// (list, sort, dictsort, sum, min, max) of a dynamic value.
	"map-list-filter",
	// {% set d.k = v %} of a dict in an if, which Jinja2 fails on where
	// it runs (and so does the render).
	"setattr-not-namespace",
	// Issue 27: an operation Python refuses whatever the values (a
	// string's -, an int looped over or tested for members, a str method
	// of an int ...) in an if, which fails the render where it runs.
	"op-fails",
	// for k, v in a dict literal's dictsort, items or .items().
	"dict-literal-items",
	// Numbers (issue 22): strings of numbers in the forms Python reads
	// (also in the data), floats beyond 2^53 and at the ends of the range
	// in the data, int / int of them, round to negative precisions.
	"number-data",
	// Issue 27: sort without attribute= of a list of lists of scalars,
	// which Python orders item by item.
	"sort-lists",
	// Issue 27: a list of typed values plus a list holding a dynamic one
	// (a dynamic list, as Python's); a chat template's own variable or {}
	// read with a key known at run time (a dynamic value, as its data).
	"dyn-concat-mixed", "chat-own-or-empty",
	// Issue 27: a macro that calls itself and reads caller(), called in
	// {% call %} blocks, at the top and in its own body, whose bodies read
	// the names around them (minicpm3's object_to_fields), and plainly,
	// where caller() fails the render.
	"macro-recursive-caller",
	// Issue 27: a dict method read as an attribute of an object, a map or
	// a dict literal (x.items, x.get), used as a value: tested, compared,
	// and where the data decides, used where Jinja2 fails on it.
	"dict-method-value",
	// Issue 27: a dict view (items(), keys(), values()) of an object, a
	// map or a dict literal used as a value outside a loop: converted,
	// measured, joined, sorted, searched with in.
	"dict-view",
	// Issue 27: macros defined in an included file, called there only,
	// whose names may hide the includer's (difffuzz seed 1 case 826).
	"include-macro",
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

type valueKind uint8

const (
	kindString valueKind = iota
	kindInt
	kindFloat
	kindBool
	kindList
	kindObject
	kindMap
)

// valueType is a value type of the generated world. Object types compare by
// identity: each is a distinct struct of the feed.
type valueType struct {
	kind   valueKind
	elem   *valueType
	fields []*field
}

type field struct {
	name     string
	t        *valueType
	optional bool
}

var (
	typeString = &valueType{kind: kindString}
	typeInt    = &valueType{kind: kindInt}
	typeFloat  = &valueType{kind: kindFloat}
	typeBool   = &valueType{kind: kindBool}
)

func listOf(t *valueType) *valueType { return &valueType{kind: kindList, elem: t} }

func (t *valueType) scalar() bool { return t.kind <= kindBool }

func typeEq(a, b *valueType) bool {
	switch {
	case a.kind != b.kind:
		return false
	case a.kind == kindObject:
		return a == b
	case a.kind == kindList || a.kind == kindMap:
		return typeEq(a.elem, b.elem)
	}
	return true
}

// expression is a generated expression: its text, the precedence of its top
// operator, and the data paths ("xs[].name") its value may be, and its
// elements may be when it is a list or map. An operation that must not
// meet an unset optional marks them as always set in the data.
type expression struct {
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

// variable is a name in scope.
type variable struct {
	name  string
	t     *valueType
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

// ref is a value reachable from a name in scope: the name or a chain of
// object fields.
type ref struct {
	text     string
	t        *valueType
	paths    []string
	optional bool
	// parentOptional: the value it is a field of may be undefined; unset:
	// it may be undefined whatever the data; maybeEmpty: it may be the
	// literal {} (x.get('k', {})), whose fields are undefined.
	parentOptional, unset, maybeEmpty bool
}

type scope struct {
	vars []*variable
	loop bool // a loop body, where loop.* is defined
	// types are the types of the names set in this scope so far,
	// including in branches.
	types map[string]*valueType
}

// Case is one generated case. Its data is made later, from the feed
// type promptgen generates for it.
type Case struct {
	Index    int
	Key      string
	File     string // the prompt file's name
	Source   []byte // the prompt file
	Template string
	Env      pyjinja.Env
	// Includes are the plain template files beside it that it includes,
	// by name.
	Includes map[string]string
	// inputs are the variables the generator meant, with their types: the
	// data of a case promptgen rejects, which has no feed type.
	inputs []*field
	seed   uint64 // the seed it was generated from
	// mustSet are data paths never to leave unset.
	mustSet map[string]bool
	// chat: the prompt has inputs: chat, and its data is a chat context
	// (ChatData), read as a chat context is (Trial.Lenient).
	chat bool
}

// generator generates cases.
type generator struct {
	r        *rand.Rand
	off      map[string]bool
	dynShare float64 // Options.DynShare

	// The case being generated.
	inputs []*field
	// declared: inputs is a JSON Schema, so every input's type is final.
	// Otherwise promptgen infers types (of shorthand objects' fields too)
	// from use, and an intended type the template does not pin may come
	// out different: productions that would retype an input are left out.
	declared  bool
	scopes    []*scope
	guards    []string // texts of the optionals tested true around here
	mustSet   map[string]bool
	sensitive int          // >0 while making the operand of an operation an unset optional must not reach
	definite  int          // >0 while making a value that must not be undefined
	ifs       int          // if bodies around
	loops     int          // for bodies around
	loopItems []*valueType // the item type of each loop around, nil for several targets or dynamic items
	forElse   int          // for loops' else bodies around
	setBlock  int          // {% set x %} bodies around
	budget    int          // statements left
	dictSets  int          // dict literals set so far (dictKeyStmt)
	dyn       []*dynVar    // a chat case's dynamic names in scope
	// profile: the case has the transformers profile; generation counts
	// the generation blocks around.
	profile    bool
	generation int
	macros     []*macro // the macros defined so far
	walks      bool     // a chat case defined walk (recursiveMacros)
	// walkSlicesStr: walk prints a slice of str(v), which of a generator
	// is a part of its address (no renderer reproduces one).
	walkSlicesStr bool
	// walkCaller: walk reads caller, and is called in {% call %} blocks
	// (family macro-recursive-caller).
	walkCaller bool
	// includes are the case's template files; macroBody is set while a
	// macro's body is generated, where include is not supported.
	includes  map[string]string
	macroBody bool
	// namespaceHidden: a parameter of the macro generated hides
	// namespace(), which its body does not call; nor does it include a
	// file, which promptgen compiles alone too, where namespace is the
	// function, which promptgen does not take as a value.
	namespaceHidden bool
}

func (g *generator) on(family string) bool { return !g.off[family] }

func (g *generator) chance(p float64) bool { return g.r.Float64() < p }

func (g *generator) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

// choice is a weighted production, applicable when ok.
type choice struct {
	w  int
	ok bool
	f  func()
}

// choose runs one applicable choice, picked by weight, and reports
// whether there was one.
func (g *generator) choose(cs ...choice) bool {
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
	inputNames = []string{"name", "title", "user", "msg", "tags", "count", "n", "x", "s", "f", "buf", "err",
		"ctx", "type", "len", "string", "data", "item", "rows", "score", "ok", "flag", "Value", "a_b", "v1", "größe"}
	fieldNames = []string{"name", "id", "type", "len", "first", "kind", "label", "n", "score", "Name", "a_b",
		"tags", "ok", "sub", "x1"}
	// dictMethods are field names that Jinja2 reads as the dict's method
	// in o.name.
	dictMethods = []string{"items", "keys", "values", "get"}
	localNames  = []string{"x", "y", "tmp", "acc", "label", "total", "out", "i", "s", "err", "name"}
	loopNames   = []string{"it", "x", "c", "row", "item", "e", "k", "v", "s", "n"}
	mapKeys     = []string{"a", "b", "k1", "Z", "x y", "é"}
	words       = []string{"Hello", "world", "a", "x", "The end.", "é", "日本", "<b>", "&", "'q'", "\"dq\"", "#",
		"%", "}", "}}", "%}", "-", "+", "1", "  ", " ", "\t", "\n", "\n", "\n  ", "  \n", "\n\n"}
)

// newCase generates case i.
func (g *generator) newCase(i int) *Case {
	g.inputs, g.scopes, g.guards, g.mustSet = nil, nil, nil, map[string]bool{}
	g.sensitive, g.definite, g.ifs, g.loops, g.forElse, g.setBlock, g.generation = 0, 0, 0, 0, 0, 0, 0
	g.profile, g.macros, g.includes = false, nil, map[string]string{}
	c := &Case{Index: i, Key: fmt.Sprintf("c%05d", i)}
	if g.on("dynamic") && g.chance(g.dynShare) {
		return g.chatCase(c)
	}

	plain := g.on("plain-file") && g.chance(0.08)
	mode := "inferred"
	if !plain {
		g.choose(
			choice{4, g.on("inputs-inferred"), func() { mode = "inferred" }},
			choice{3, g.on("inputs-shorthand"), func() { mode = "shorthand" }},
			choice{4, g.on("inputs-schema"), func() { mode = "schema" }})
		c.Env = pyjinja.Env{
			TrimBlocks:          g.on("trim-blocks") && g.chance(0.35),
			LstripBlocks:        g.on("lstrip-blocks") && g.chance(0.35),
			KeepTrailingNewline: g.on("keep-trailing-newline") && g.chance(0.3),
			Profile:             g.on("profile") && g.chance(0.15),
		}
		if c.Env.Profile {
			g.profile = true
			c.Env.TrimBlocks, c.Env.LstripBlocks = true, true
		}
	}
	g.declared = mode == "schema"
	g.inputs = g.schema(mode == "shorthand")
	top := &scope{types: map[string]*valueType{}}
	for _, f := range g.inputs {
		top.vars = append(top.vars, &variable{name: f.name, t: f.t, paths: []string{f.name}, optional: f.optional, input: true})
	}
	g.scopes = []*scope{top}
	var b strings.Builder
	g.budget = 3 + g.r.IntN(12)
	if g.on("macro") && g.chance(0.2) {
		if g.on("macro-in-if") && g.chance(0.3) {
			// As Command R7B's template: macros defined in an if branch,
			// called there; the else has none.
			c, _ := g.cond(1)
			b.WriteString(g.tag("if " + g.wrap(c, precOr)))
			b.WriteString(g.macroDefs(false))
			b.WriteString(g.body())
			defined := g.macros
			g.macros = nil
			b.WriteString(g.tag("else") + g.body() + g.tag("endif"))
			if g.on("macro-after-if") && g.chance(0.5) {
				// As GLM-5.2's: called after the if too, which fails
				// where the branch did not run.
				g.macros = defined
			}
		} else {
			b.WriteString(g.macroDefs(false))
		}
	}
	for g.budget > 0 {
		if len(g.macros) == 0 && g.on("macro") && g.on("macro-reads-top") && g.chance(0.05) {
			b.WriteString(g.macroDefs(true))
		}
		b.WriteString(g.stmt())
	}
	if mode == "inferred" && !plain && g.on("defined-only-input") && g.chance(0.1) {
		b.WriteString(g.definedOnlyInput())
	}
	if g.chance(0.3) {
		b.WriteString("\n")
	}
	c.Template = b.String()
	if g.on("crlf") && g.chance(0.03) {
		c.Template = strings.ReplaceAll(c.Template, "\n", "\r\n")
	}
	c.mustSet, c.inputs = g.mustSet, g.inputs
	if len(g.includes) > 0 {
		c.Includes = g.includes
	}
	if plain {
		c.File = c.Key + ".jinja"
		c.Source = []byte(c.Template)
		return c
	}
	c.File = c.Key + ".yaml"
	c.Source = g.promptFile(c, mode)
	return c
}
