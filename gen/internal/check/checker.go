package check

import (
	"fmt"
	"maps"
	"slices"

	"github.com/promptgen/promptgen/gen/internal/builtins"
	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/names"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
	"github.com/promptgen/promptgen/schema"
)

// checker types one prompt's template: it infers the feed's types from use
// (or checks uses against declared inputs) and builds the IR.
type checker struct {
	diags  *diag.Sink
	p      *ir.PromptSpec
	ir     *ir.Prompt
	feed   *ir.Type
	scopes []*scope
	// later holds checks that need final types; they run after inference.
	later []func()
	// inferLater decides types once every template is checked, before
	// they are final.
	inferLater []func()
	// uses records each feed variable's first use, for unused-input warnings.
	used map[*ir.Field]bool
	tmp  int
	// inSet is the template set of the body checked, nil for a prompt file.
	inSet *InSet
	// m locates the template checked when it is not p.Map: a system or
	// message template.
	m *src.SourceMap
	// consumed are the calls whose result only their consumer can use:
	// map(attribute=) under a join.
	consumed map[*ir.Call]bool
	// assigned says, at the point checked, whether each local of the
	// frames entered has been assigned since its frame started.
	assigned map[*ir.Local]assignState
	// iterated are the results of unique, map and select/reject, Jinja2's generators,
	// that their consumer iterates: the only use a generator has.
	iterated map[ir.Expr]bool
	// textRead are the iterated ones whose consumer reads a string as its
	// text, not as the iterator Jinja2 makes of Undefined: in of what may
	// be '' (a substring of the empty string, never an item) and reverse
	// (a string, of an iterator a list).
	textRead map[ir.Expr]bool
	// generators are the locals set to a generator (see stored), readAt
	// where each local is first read.
	generators map[*ir.Local]generatorSet
	readAt     map[*ir.Local]src.Pos
	// rejected are the stand-ins for expressions reported as unsupported,
	// whose uses are not reported again.
	rejected map[ir.Expr]bool
	// loopIter is the iterable of the for loop being checked: items() and
	// keys() are supported there only.
	loopIter tmpl.Expr
	// sets are the checked sets with a value, for markUndefined and
	// markups, which tells the values that may be Markup once they are
	// all checked (see markup).
	sets    []*ir.Set
	markups *builtins.Markup
	// unvalued are the locals that a loop or a block set assigns.
	unvalued map[*ir.Local]bool
	// loops are the checked for loops and selects the checked selects of
	// dynamic values, whose targets and items markups follows; dyns the
	// dynamic operations, for checkHolders.
	loops   []*ir.For
	selects []*ir.Select
	dyns    []dynAt
	// dynObjects are the objects whose fields are inferred that became
	// dynamic values, with where, and dynKeys the attribute= keys of
	// dynamic filters (see checkDynObjects).
	dynObjects []objectAt
	dynKeys    []keyAt
	// safe are the results of the filter safe, Markup.
	safe map[ir.Expr]bool
	// modTests are the % of the tests even, odd and divisibleby, of numbers.
	modTests map[*tmpl.Binary]bool
	// checked are the expressions checked already that a construct checks
	// as part of others (m.get(k) as m[k] if k in m else none).
	checked map[tmpl.Expr]ir.Expr
	// namespaces are the locals set to namespace(...), and loopExits what
	// is assigned at each loop control of a loop (see loopControl).
	// nsSet holds, for a local set to namespace(...), the bool local that
	// each such set makes true: defined exactly where the local holds a
	// namespace.
	namespaces map[*ir.Local]*namespace
	nsSet      map[*ir.Local]*ir.Local
	loopExits  map[*ir.For][]map[*ir.Local]assignState
	// leadCall is the call evaluated first in the statement checked, the
	// only place of a call that modifies a list; listMods are those calls,
	// by the local whose list they modify (see listMethod).
	leadCall *tmpl.Call
	// folded is the slice of a generator that Jinja2 folds to undefined
	// in the output statement checked (foldedSlice).
	folded *tmpl.Slice
	// callMayNotRun counts the macro calls being expanded that may not
	// run (mayNotRun at the call).
	callMayNotRun int
	listMods      map[*ir.Local][]listMod
	// listChecked are the locals whose list checkListHolders checked.
	listChecked map[*ir.Local]bool
	// inIf counts the if branches around, and optional the expressions
	// around that Jinja2 may not evaluate: an and/or's right operand, a
	// conditional expression's arm, an elif's condition.
	inIf     int
	optional int
	// soft is set where Jinja2 compiles a frame soft: in an if (its
	// conditions and branches) or a conditional expression, up to the
	// next frame (a loop's body, a macro's, a block set's...). A filter or
	// test it lacks fails there where it runs, not at compile time.
	soft bool
	// clock is set while the template of a prompt file is checked, the
	// only one whose Render takes the clock of strftime_now.
	clock  bool
	macros macros
	// safeOf is the filter string that the filter safe being checked
	// applies, whose result is Markup on every render (safeFilter).
	safeOf *tmpl.Filter
	// rebinding collects the locals set to values of two types; rebound
	// holds those of a previous check, which are dynamic this time.
	rebinding, rebound map[string]bool
	// laterKinds collects the paths of the inferred inputs that a use as
	// a string found lists of unknown items or strings, or ints, numbers
	// or bools, and that a use as a map found objects; kinds are the
	// inputs checked as of those kinds from their first use (Config.Kinds).
	laterKinds, kinds map[string]ir.Kind
	firstKinds        bool // Config.FirstKinds
	// undefinedLate collects the positions of the list and dict literals
	// and loop.cycle() calls typed before a later use made an element or
	// argument possibly undefined, and of the list literals mixing int
	// and number elements; keepUndefined holds those of a previous check,
	// which are dynamic values this time (see keepsUndefined).
	undefinedLate, keepUndefined map[string]bool
	// emptyLate collects the positions of the empty list literals whose
	// objects a filter's attribute= typed and no input gives; emptyItems
	// holds those of a previous check, whose items are dynamic values
	// this time (see emptyLiteralItems).
	emptyLate, emptyItems map[string]bool
	// setBefore are the locals a set checked so far assigns.
	setBefore map[*ir.Local]bool
	// bound are the names the template's sets and for loops assign,
	// anywhere (see global); unbound the locals read where such a name is
	// always undefined (undefinedName), unassigned the reads of a local
	// of the frame before any set of it can have run (read).
	bound      map[string]bool
	unbound    map[*ir.Local]bool
	unassigned map[*ir.LocalRef]bool
	// dictUses are the names and attribute paths ("x", "x.y") that the
	// template reads an attribute, a constant key or a dict method of;
	// keyTested the objects they made of values that 'k' in x tests, with
	// where.
	dictUses  map[string]bool
	keyTested map[*ir.Type]tmpl.Span
	// definedTested are the operands of the tests defined and undefined
	// (and of default); missingKeys the keys that dict literals lack
	// read so far, with whether a read is tested (see missingKey).
	definedTested map[tmpl.Expr]bool
	missingKeys   map[missingKeyRead]bool
	// getReads are the reads x[k] that get() of x is checked as (x[k] if
	// k in x else d): they read the key only where x has it, so never a
	// dict method.
	getReads map[tmpl.Expr]bool
	// printedConcats are the ~ whose strings an output statement prints
	// as the render's text (methodsPrinted).
	printedConcats map[*ir.Binary]bool
	// definedOnly are the operands of the tests defined and undefined
	// alone; valueRead the feed variables read elsewhere (undefinedInputs).
	definedOnly map[tmpl.Expr]bool
	valueRead   map[*ir.Field]bool
}

const (
	unassigned assignState = iota
	maybeAssigned
	assigned
)

func (c *checker) pos(sp tmpl.Span) src.Pos {
	if c.m != nil {
		return c.m.Pos(sp.Start)
	}
	return c.p.Map.Pos(sp.Start)
}

func (c *checker) posString(sp tmpl.Span) string { return c.pos(sp).String() }

func (c *checker) errorf(sp tmpl.Span, format string, args ...any) {
	if n := len(c.macros.calling); n > 0 {
		at := c.macros.calls[n-1]
		format += fmt.Sprintf(" (in the call of macro %q at %d:%d)", c.macros.calling[n-1], at.Line, at.Col)
	}
	c.diags.Errorf(c.pos(sp), format, args...)
}

// mayNotRun reports whether the code checked may not run on a render:
// in an if's branch or an elif's condition (an if's first condition runs
// wherever the if does), a conditional expression's arm, an and/or's
// right operand, a loop, a macro, a call block, or a plain template file
// that another includes (a block set's body, a filter block and a
// generation block run where they stand). What Jinja2 fails on where it
// runs is an error where the code always runs, and elsewhere a warning
// and a render that fails where it runs.
func (c *checker) mayNotRun() bool {
	if c.inIf > 0 || c.optional > 0 || c.callMayNotRun > 0 || c.includable() {
		return true
	}
	for _, sc := range c.scopes[1:] {
		if sc.noLoopControl == "" { // not a frame run once in place
			return true
		}
	}
	return false
}

// optionally checks e, which Jinja2 may not evaluate, with check.
func (c *checker) optionally(e tmpl.Expr, check func(tmpl.Expr) ir.Expr) ir.Expr {
	c.optional++
	defer func() { c.optional-- }()
	return check(e)
}

// failedAt reports whether an error was already reported at sp, after
// which the types there tell nothing more.
func (c *checker) failedAt(sp tmpl.Span) bool { return c.failedAtPos(c.pos(sp)) }

// failedAtPos reports whether an error was reported at pos.
func (c *checker) failedAtPos(pos src.Pos) bool {
	for _, d := range c.diags.List {
		if d.Pos == pos && d.Severity == diag.SeverityError {
			return true
		}
	}
	return false
}

// newLocal makes a Go local named after name, which the template cannot
// see until it is bound with local.
func (c *checker) newLocal(name string, t *ir.Type) *ir.Local {
	return &ir.Local{Name: name, GoName: c.goName(name), T: t}
}

// goName makes a Go name after name that no other local or function of
// the template takes.
func (c *checker) goName(name string) string {
	c.tmp++
	goName, ok := names.Unexported(name)
	if !ok {
		goName = "v"
	}
	return fmt.Sprintf("%s_%d", goName, c.tmp)
}

// localType is the type a new local named name starts with: dynamic when
// the template sets it to values of several types, or when it is a chat
// context's dynamic variable.
func (c *checker) localType(name string) *ir.Type {
	if c.rebound[name] {
		return ir.DynamicType()
	}
	if f := c.feed.Field(name); f != nil && f.Chat && f.Type.Resolve().Kind == ir.KindDynamic {
		// A chat template that sets tools or documents ({% set tools = [] %})
		// sets a default for the data: a dynamic value, as the data is.
		return ir.DynamicType()
	}
	return &ir.Type{}
}

// inputType is the type an input inferred from its uses starts with:
// dynamic when a previous check found a local of its name set to a
// dynamic value after a typed use of the input (see staysTyped).
func (c *checker) inputType(name string) *ir.Type {
	if c.rebound[name] {
		return ir.DynamicType()
	}
	t := &ir.Type{}
	c.startKind(t, name)
	return t
}

// startKind makes t, new at input path p, of the kind the check is of it
// as (Config.Kinds).
func (c *checker) startKind(t *ir.Type, p string) {
	switch k := c.kinds[p]; k {
	case ir.KindString:
		t.Kind = k
	case ir.KindMap:
		t.Kind, t.Elem = k, &ir.Type{}
	}
}

// inferField adds to inferred object t the field key, first used at sp:
// a string or a map where the check is of it as one (Config.Kinds).
func (c *checker) inferField(t *ir.Type, key string, sp tmpl.Span, optional bool) *ir.Field {
	f := t.InferField(key, c.pos(sp), optional)
	if f.Type.Kind != ir.KindUnknown || len(c.kinds) == 0 && len(c.rebound) == 0 {
		return f
	}
	if p, ok := c.inputPath(t); ok {
		if c.rebound[p+"."+key] {
			// A previous check found the field made a dynamic value
			// after a typed use of it (see staysTyped).
			f.Type.Link = ir.DynamicType()
			return f
		}
		c.startKind(f.Type, p+"."+key)
	}
	return f
}

// inferredFieldPath is the path in the feed (user.address) of the field
// that x reads of an object whose fields are inferred.
func (c *checker) inferredFieldPath(x *ir.FieldRef) (string, bool) {
	t := x.Of.Type().Resolve()
	if t.Kind != ir.KindStruct || t.Declared || t.Go != nil {
		return "", false
	}
	p, ok := c.inputPath(t)
	return p + "." + x.Field.Key, ok
}

// inputPath is the path of type t in the feed (user.address, items[]):
// through object fields and list items.
func (c *checker) inputPath(t *ir.Type) (string, bool) {
	t = t.Resolve()
	seen := map[*ir.Type]bool{}
	var find func(in *ir.Type, prefix string) (string, bool)
	find = func(in *ir.Type, prefix string) (string, bool) {
		switch in = in.Resolve(); {
		case in == t && prefix != "":
			return prefix, true
		case seen[in]:
			return "", false
		}
		seen[in] = true
		switch in.Kind {
		case ir.KindList:
			return find(in.Elem, prefix+"[]")
		case ir.KindStruct:
			for _, f := range in.Fields {
				p := f.Key
				if prefix != "" {
					p = prefix + "." + f.Key
				}
				if q, ok := find(f.Type, p); ok {
					return q, true
				}
			}
		}
		return "", false
	}
	return find(c.feed, "")
}

const (
	useValue use = iota
	usePrint
	useTest
)

// A Checker checks the templates of one prompt against one feed: the
// templates of a prompt file share one (their locals, the feed's uses and
// the checks that wait for final types), each body of a template set has
// its own.
type Checker struct {
	// Used holds the feed variables its templates read.
	Used   map[*ir.Field]bool
	c      *checker
	bodies []*ir.Prompt
}

// Config is what a Checker needs besides the prompt and its feed.
type Config struct {
	// InSet is the template set of the body checked, nil in a prompt file.
	InSet *InSet
	// Rebound are the locals checked as dynamic, as a previous check
	// found them set to values of two types (see Checker.Recheck).
	Rebound map[string]bool
	// KeepUndefined are the positions of the list and dict literals and
	// loop.cycle() calls checked as dynamic values, as a previous check
	// found that an element may be undefined (or a literal's element
	// Markup, or a tuple holding it) only after it had typed them.
	KeepUndefined map[string]bool
	// Kinds are the paths (user, user.name, items[].name) of the
	// inferred inputs checked as strings or maps from their first use, as
	// a previous check found one a list or a scalar only until a use as a
	// string (a loop over it, then trim; 3 * x, then x.strip()): Jinja2
	// iterates, indexes, slices and repeats a string too; or an object
	// only until a use as a map (x.get('k'), then x.items()), which holds
	// the keys the template does not name too. Such a check stands only
	// where it passes.
	Kinds map[string]ir.Kind
	// EmptyItems are the positions of the empty list literals whose items
	// are checked as dynamic values, as a previous check found that the
	// attribute= of a filter of the literal typed them as objects that no
	// input gives.
	EmptyItems map[string]bool
	// FirstKinds: a check with Kinds failed, so the inputs keep the kind
	// of their first use, and a use as a string of one that is not (a str
	// method of an int) is what Jinja2 does with that kind (it fails
	// where it runs), not a reason to check it as a string.
	FirstKinds bool
}

// Add returns conf with the locals and literals of more made dynamic too,
// and whether more named any that conf did not.
func (conf Config) Add(more Config) (Config, bool) {
	grew := false
	union := func(a, b map[string]bool) map[string]bool {
		out := maps.Clone(a)
		for k := range b {
			if !out[k] {
				if out == nil {
					out = map[string]bool{}
				}
				out[k], grew = true, true
			}
		}
		return out
	}
	conf.Rebound = union(conf.Rebound, more.Rebound)
	conf.KeepUndefined = union(conf.KeepUndefined, more.KeepUndefined)
	conf.EmptyItems = union(conf.EmptyItems, more.EmptyItems)
	return conf, grew
}

// NewChecker returns a checker of templates of p against feed.
func NewChecker(p *ir.PromptSpec, feed *ir.Type, conf Config, diags *diag.Sink) *Checker {
	c := &checker{diags: diags, p: p, feed: feed, used: map[*ir.Field]bool{}, setBefore: map[*ir.Local]bool{}, unbound: map[*ir.Local]bool{}, rebinding: map[string]bool{}, rebound: conf.Rebound, laterKinds: map[string]ir.Kind{}, kinds: conf.Kinds, firstKinds: conf.FirstKinds, undefinedLate: map[string]bool{}, keepUndefined: conf.KeepUndefined, emptyLate: map[string]bool{}, emptyItems: conf.EmptyItems, inSet: conf.InSet}
	return &Checker{Used: c.used, c: c}
}

// Parse parses text, a template of p located by m, with p's options. It
// reports a syntax error, and returns nil then.
func Parse(p *ir.PromptSpec, text string, m src.SourceMap, diags *diag.Sink) *tmpl.Template {
	t, err := tmpl.Parse(text, p.Jinja)
	if err != nil {
		if e, ok := err.(*tmpl.Error); ok {
			diags.Errorf(m.Pos(e.Span.Start), "%s", e.Msg)
		} else {
			diags.Errorf(p.Pos, "%v", err)
		}
		return nil
	}
	return t
}

// Template checks t, located by m, and returns its IR. clock says that t
// is the template of a prompt file, the only one whose Render takes the
// clock of strftime_now. Its checks that need final types wait for Finish.
func (k *Checker) Template(t *tmpl.Template, m src.SourceMap, clock bool) *ir.Prompt {
	c := k.c
	x := ir.NewPrompt(c.p, c.feed)
	c.ir, c.m, c.clock = x, &m, clock
	defer func() { c.m, c.clock = nil, false }()
	defer c.keepPlace(len(c.later))
	c.template(t.Body, x)
	x.NumLocals = c.tmp
	k.bodies = append(k.bodies, x)
	return x
}

// keepPlace makes the checks deferred since later[start] run where they
// were recorded: in the template and the macro calls checked now, which
// their errors name.
func (c *checker) keepPlace(start int) {
	m, calling, calls := c.m, slices.Clone(c.macros.calling), slices.Clone(c.macros.calls)
	for i, f := range c.later[start:] {
		c.later[start+i] = func() {
			savedM, savedCalling, savedCalls := c.m, c.macros.calling, c.macros.calls
			c.m, c.macros.calling, c.macros.calls = m, calling, calls
			f()
			c.m, c.macros.calling, c.macros.calls = savedM, savedCalling, savedCalls
		}
	}
}

// Recheck returns what the checker found only a dynamic value can hold:
// the locals set to values of two types, and the literals (and
// loop.cycle() calls) an element of which a later use made possibly
// undefined. Checked again with them,
// they are dynamic.
func (k *Checker) Recheck() Config {
	return Config{Rebound: k.c.rebinding, KeepUndefined: k.c.undefinedLate, Kinds: k.c.laterKinds, EmptyItems: k.c.emptyLate}
}

// Finish completes the checks of the templates of checkers, which share
// feed, once their types are final. It reports false, and stops, when a
// type nests too deeply.
func Finish(checkers []*Checker, feed *ir.Type, diags *diag.Sink) bool {
	for _, k := range checkers {
		if !checkTypeDepth(k.c.p, feed, k.bodies, diags) {
			return false
		}
	}
	for _, k := range checkers {
		for _, f := range k.c.inferLater {
			f()
		}
	}
	undefinedInputs(checkers, feed)
	types.Finalize(feed)
	checkers[0].c.checkNoDicts(feed)
	for _, k := range checkers {
		for _, b := range k.bodies {
			ir.WalkFuncs(b, types.FinalizeExpr)
			for _, l := range b.AllLocals() {
				types.Finalize(l.T)
			}
		}
	}
	for _, k := range checkers {
		k.c.markUndefined()
		for _, f := range k.c.later {
			f()
		}
		k.c.checkHolders()
		k.c.checkDynObjects()
		k.c.keepMarkup(k.bodies)
	}
	return true
}

// undefinedInputs makes dynamic each inferred variable of feed that the
// templates only test with is defined or is undefined: its value is never
// read, so any JSON value goes, as Jinja2 takes any (vLLM's xLAM template
// tests tools_in_user_message so, which chat requests give as a bool).
func undefinedInputs(checkers []*Checker, feed *ir.Type) {
	if feed.Declared {
		return
	}
	for _, f := range feed.Fields {
		t := f.Type.Resolve()
		if f.Chat || t.Kind != ir.KindUnknown || t.Hint != ir.KindUnknown {
			continue
		}
		if !slices.ContainsFunc(checkers, func(k *Checker) bool { return k.c.valueRead[f] }) {
			t.Kind = ir.KindDynamic
		}
	}
}

// checkTypeDepth reports a feed whose variables' types nest deeper than
// types.MaxDepth, at the field where the limit is crossed, and any local
// of bodies whose type does (at the prompt, as locals keep no position).
// It reports whether all are within the limit.
func checkTypeDepth(p *ir.PromptSpec, feed *ir.Type, bodies []*ir.Prompt, diags *diag.Sink) bool {
	var locals []*ir.Local
	for _, b := range bodies {
		locals = append(locals, b.AllLocals()...)
	}
	f, deep := types.TooDeep(feed, locals)
	if f != nil {
		diags.Errorf(f.Pos, "%q is %s", f.Key, types.DepthError)
	}
	for _, l := range deep {
		diags.Errorf(p.Pos, "the value of %q is %s", l.Name, types.DepthError)
	}
	return f == nil && len(deep) == 0
}

// Allowed reports the feed variables that `variables: allowed` does
// not list, as warnings or, with `unknown: error`, errors.
func Allowed(v *ir.VariablesSpec, feed *ir.Type, used map[*ir.Field]bool, diags *diag.Sink) {
	if v == nil {
		return
	}
	for _, f := range feed.Fields {
		if feed.Declared && !used[f] || slices.Contains(v.Allowed, f.Key) {
			continue
		}
		report := diags.Warnf
		if v.Error {
			report = diags.Errorf
		}
		report(f.Pos, "variable %q is not in variables.allowed%s", f.Key, schema.DidYouMean(f.Key, v.Allowed))
	}
}

// constrain makes t of kind k (types.Constrain), reporting a mismatch at sp.
func (c *checker) constrain(t *ir.Type, k ir.Kind, sp tmpl.Span) {
	switch k {
	case ir.KindString:
		c.listString(t)
	case ir.KindMap:
		c.objectMap(t)
	case ir.KindList:
		if t := t.Resolve(); t.Kind == ir.KindUnknown && len(c.kinds) > 0 {
			defer func() {
				if p, ok := c.inputPath(t); ok {
					c.startKind(t.Elem, p+"[]")
				}
			}()
		}
	}
	if err := types.Constrain(t, k); err != nil {
		if at, ok := c.keyTested[t.Resolve()]; ok {
			p := c.pos(at)
			c.errorf(sp, "this value is used as a %s here, and as a dict where %d:%d tests a key of it: promptgen gives each variable one type (a value that is a dict in some data and a %s in other data needs a chat template's dynamic values, inputs: chat)", k, p.Line, p.Col, k)
			return
		}
		c.errorf(sp, "%v", err)
	}
}

// objectMap records the inferred input of type t, used as a map, where
// t is an object inferred from the template's reads (Config.Kinds).
func (c *checker) objectMap(t *ir.Type) {
	if t = t.Resolve(); t.Kind != ir.KindStruct || t.Declared {
		return
	}
	if p, ok := c.inputPath(t); ok {
		c.laterKinds[p] = ir.KindMap
	}
}

// unify makes a and b one type (types.Unify), reporting mismatches at sp.
func (c *checker) unify(a, b *ir.Type, sp tmpl.Span) {
	if a.Resolve().Kind == ir.KindString {
		c.listString(b)
	} else if b.Resolve().Kind == ir.KindString {
		c.listString(a)
	}
	c.mismatches(sp, types.Unify(a, b))
}

// listString records the inferred input of type t, used as a string,
// where t is a list of unknown items or strings, or an int, number or
// bool (Config.Kinds). It reports whether it recorded one of an
// inferred feed, which a check as a string may make pass.
func (c *checker) listString(t *ir.Type) bool {
	switch t = t.Resolve(); {
	case t.Declared, c.firstKinds:
		return false
	case t.Kind == ir.KindList:
		if k := t.Elem.Resolve().Kind; k != ir.KindUnknown && k != ir.KindString {
			return false
		}
	case !ir.IsScalar(t.Kind) || t.Kind == ir.KindString:
		return false
	}
	p, ok := c.inputPath(t)
	if ok {
		c.laterKinds[p] = ir.KindString
	}
	return ok && !c.feed.Declared
}

// unifyWeak relates the operands of a comparison (types.UnifyWeak),
// reporting mismatches at sp.
func (c *checker) unifyWeak(a, b *ir.Type, sp tmpl.Span) { c.mismatches(sp, types.UnifyWeak(a, b)) }

func (c *checker) mismatches(sp tmpl.Span, errs []error) {
	for _, err := range errs {
		c.errorf(sp, "%v", err)
	}
}
