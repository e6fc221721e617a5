// Package ttfuncs runs Jinja2 templates that promptgen translated to Go
// text/template: it holds the functions (Funcs) that give the translation
// Jinja2's semantics — truthiness, undefined values, Python-style printing,
// filters, methods and operators — and Execute, which runs a translated
// template on a feed.
//
// A translated template reads the feed's fields by their Go names through
// $.F (the feed is in field F of the data), and takes values where Jinja2
// would be undefined as a nil pointer (an unset optional) or as the value
// of the function undef. The functions accept the values of any Go type
// with the shape of a generated feed: string, int, float64 and bool, nil-able
// pointers to them, slices, maps with string keys, and structs (or pointers
// to structs) whose json tags give the keys that Jinja2 prints; a pointer
// field is optional, and so is a slice or map field tagged ",omitempty".
// So the same translation runs on a generated feed struct, on a user's type
// bound with goType, or on a value of a type built with reflect.StructOf
// from the prompt's types and decoded from JSON. Values the template builds
// itself are lists ([]string, ..., []any) and dict literals, which the
// function dict makes: keys in insertion order, printed in that order and
// written sorted by tojson.
//
// A template of a template set runs with ExecuteVariant: it renders a
// component with $.Include, which executes the component's template (an
// associated template named by the component's prompt), and picks the
// version of a versioned component with $.Version.
//
// The package depends on the standard library, runtime and runtime/jinja
// only.
package ttfuncs

import (
	"errors"
	"fmt"
	"strings"
	"text/template"

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/jinja"
)

// Execute runs t, a translated template, with feed as its variables and
// appends the output to dst. A failure of the template returns dst with
// part of the output appended and a *runtime.Error whose Prompt is prompt
// and whose Pos is in file.
func Execute(t *template.Template, dst []byte, prompt, file string, feed any) ([]byte, error) {
	return ExecuteVariant(t, dst, prompt, file, feed, runtime.Variant{})
}

// ExecuteWith is Execute for the template of a prompt that reads the
// clock, whose strftime_now formats the time of opts (runtime.RenderNow).
func ExecuteWith(t *template.Template, dst []byte, prompt, file string, feed any, opts []runtime.RenderOption) ([]byte, error) {
	return execute(&root{F: feed, buf: dst, start: len(dst), t: t, opts: opts}, prompt, file)
}

// ExecuteVariant is Execute for a template of a template set, which
// renders the set's components with $.Include and chooses the version of a
// versioned component with $.Version, from v. The templates of the
// components are t's associated templates (t.New(prompt).Parse), named by
// their prompt; a failure inside a component is reported with the
// component's prompt and file.
func ExecuteVariant(t *template.Template, dst []byte, prompt, file string, feed any, v runtime.Variant) ([]byte, error) {
	return execute(&root{F: feed, buf: dst, start: len(dst), t: t, v: v}, prompt, file)
}

// ExecuteItems is Execute for the template of a `truncate: items` section:
// it also appends to *ends the offsets, from the start of the render, where
// the section's loop starts and where each of its iterations ends (the
// template marks them with $.ItemEnd), for runtime.BuildSection.
func ExecuteItems(t *template.Template, dst []byte, prompt, file string, feed any, ends *[]int) ([]byte, error) {
	return execute(&root{F: feed, buf: dst, start: len(dst), t: t, ends: ends}, prompt, file)
}

func execute(r *root, prompt, file string) ([]byte, error) {
	r.Full = map[bool]struct{}{}
	err := r.t.Execute(r, r)
	return r.buf, annotate(err, prompt, file)
}

// annotate adds prompt and file to the *runtime.Error in err, unless an
// included component's template already did.
func annotate(err error, prompt, file string) error {
	if err == nil {
		return nil
	}
	var re *runtime.Error
	if errors.As(err, &re) {
		e := *re
		if e.Prompt == "" {
			e.Prompt = prompt
			if lineCol(e.Pos) { // else in a template file the prompt includes
				e.Pos = file + ":" + e.Pos
			}
		}
		return &e
	}
	return err
}

// lineCol reports whether pos is a "line:col" without a file.
func lineCol(pos string) bool {
	line, col, ok := strings.Cut(pos, ":")
	digits := func(s string) bool {
		return s != "" && strings.Trim(s, "0123456789") == ""
	}
	return ok && digits(line) && digits(col)
}

// root is the data of a translated template ($) and the writer it executes
// to: a block set ({% set x %}...{% endset %}) marks the output and cuts
// what the block wrote.
type root struct {
	// Full holds a key once the output is longer than runtime.MaxOutput,
	// none before: a loop then fails before its next iteration
	// (TooLarge). Write and Cut keep it. A map, whose truth in
	// text/template is its length, so that a loop reads $.Full into a
	// variable once and tests the variable before each iteration: no
	// field lookup there (MethodByName and FieldByName on root), and no
	// allocation (a method call).
	Full  map[bool]struct{}
	F     any // the feed
	buf   []byte
	start int                // the length of buf before the render
	t     *template.Template // whose associated templates Include runs
	v     runtime.Variant
	ends  *[]int // where ItemEnd records offsets; nil outside ExecuteItems
	opts  []runtime.RenderOption
	// depth counts the macro frames open (of macros that call
	// themselves, compiled to associated templates), calls their calls in
	// the render, and args holds the arguments of the call that Enter
	// opened last, which its template takes first (Arg).
	depth, calls int
	args         []any
}

// Include renders the component whose template is named prompt (read
// from file) where it stands, with the same feed and variant. It prints
// nothing itself: the component writes to the output.
func (r *root) Include(prompt, file string) (string, error) {
	t := r.t.Lookup(prompt)
	if t == nil {
		return "", fmt.Errorf("no component template %q", prompt)
	}
	return "", annotate(t.Execute(r, r), prompt, file)
}

// Strftime is strftime_now(format) of the transformers profile: the time
// of the render options formatted as Python's strftime, or ErrInvalid
// for a directive jinja.Strftime does not support.
func (r *root) Strftime(format, pos string) (string, error) {
	s, err := jinja.Strftime(runtime.RenderNow(r.opts), format)
	if err != nil {
		return "", invalid(pos, err.Error())
	}
	return s, nil
}

// Version returns the version of component that the variant chooses, ""
// for its unversioned content.
func (r *root) Version(component string) string { return r.v.Version(component) }

// Write appends p. The output only grows, so Full only fills.
func (r *root) Write(p []byte) (int, error) {
	r.buf = append(r.buf, p...)
	if len(r.buf)-r.start > runtime.MaxOutput {
		r.Full[true] = struct{}{}
	}
	return len(p), nil
}

// setFull keeps Full.
func (r *root) setFull() {
	switch full := len(r.buf)-r.start > runtime.MaxOutput; {
	case full:
		r.Full[true] = struct{}{}
	case len(r.Full) > 0:
		clear(r.Full)
	}
}

// TooLarge fails with ErrTooLarge: a loop calls it before an iteration
// when Full.
func (r *root) TooLarge(pos string) (string, error) {
	return "", fail(pos, "", runtime.ErrTooLarge)
}

// ItemEnd records the length of the output so far in the offsets of
// ExecuteItems; it prints nothing.
func (r *root) ItemEnd() string {
	if r.ends != nil {
		*r.ends = append(*r.ends, len(r.buf)-r.start)
	}
	return ""
}

// Enter opens the frame of a call of macro name at pos, frames macro
// frames deeper than the frame it stands in, with args, and returns the
// depth to restore with Leave once the call's template has run. Past
// runtime.MaxMacroDepth or MaxMacroCalls it fails, as runtime.EnterMacro.
func (r *root) Enter(frames int, pos, name string, args ...any) (int, error) {
	depth := r.depth + frames + 1
	if err := runtime.EnterMacro("", pos, name, depth, &r.calls); err != nil {
		return 0, err
	}
	saved := r.depth
	r.depth, r.args = depth, args
	return saved, nil
}

// closure is the caller of a {% call %} block of a macro that calls
// itself: site says which of the macro's callers it is, env holds the
// values of the locals around the block that its body reads.
type closure struct {
	site int
	env  []any
}

// Closure returns the caller of the {% call %} block that is caller site
// of its macro, with env, which its template reads with Arg.
func (r *root) Closure(site int, env ...any) any { return &closure{site, env} }

// callerFrame is a caller's frame that EnterCaller opened: the caller's
// Site, which template runs, and the Depth to restore with Leave.
type callerFrame struct{ Site, Depth int }

// EnterCaller opens the frame of a call of caller at pos, frames macro
// frames deeper than the frame it stands in, as Enter does, and hands
// it the values of c, the caller that the macro's call passed. Where the
// call passed none (a call without a {% call %} block), caller is
// undefined: it fails with ErrUndefined.
func (r *root) EnterCaller(c any, frames int, pos string) (callerFrame, error) {
	cl, ok := c.(*closure)
	if !ok {
		return callerFrame{}, fail(pos, "caller", runtime.ErrUndefined)
	}
	saved, err := r.Enter(frames, pos, "caller", cl.env...)
	if err != nil {
		return callerFrame{}, err
	}
	return callerFrame{cl.site, saved}, nil
}

// Arg returns argument i of the call Enter opened last.
func (r *root) Arg(i int) any { return r.args[i] }

// Leave closes the frame of a call, restoring depth, which Enter
// returned; it prints nothing.
func (r *root) Leave(depth int) string {
	r.depth = depth
	return ""
}

// Mark returns the current length of the output, for Cut.
func (r *root) Mark() int { return len(r.buf) }

// Cut removes and returns what was written since Mark returned mark.
func (r *root) Cut(mark int) string {
	s := string(r.buf[mark:])
	r.buf = r.buf[:mark]
	r.setFull()
	return s
}

// fail returns the error of a failed render; Execute adds the prompt and
// the file to pos ("line:col").
func fail(pos, name string, err error) error {
	return &runtime.Error{Pos: pos, Var: name, Err: err}
}

// invalid returns the ErrInvalid error of a failed render, with detail.
func invalid(pos, detail string) error {
	return &runtime.Error{Pos: pos, Err: runtime.ErrInvalid, Detail: detail}
}

// Funcs returns the functions that translated templates call, for
// template.Funcs. Each call returns a new map.
func Funcs() template.FuncMap {
	return template.FuncMap{
		// Values and undefined.
		"undef":     func() any { return undefined{} },
		"none":      func() any { return none{} },
		"nolist":    func() []any { return nil },
		"nomap":     func() map[string]any { return nil },
		"req":       req,
		"missing":   missing,
		"strict":    strict,
		"opt":       opt,
		"def":       isDefined,
		"truth":     truth,
		"dflt":      dflt,
		"dfltb":     dfltb,
		"str":       func(v any) (string, error) { return str(v), checkPrint(v) },
		"strkeep":   func(v any) (any, error) { return strKeep(v), checkPrint(v) },
		"strat":     strAt,
		"cat":       func(vs ...any) (string, error) { return cat(vs...), checkPrint(vs...) },
		"iter":      iter,
		"unpack":    unpack,
		"keep":      keep,
		"push":      push,
		"strs":      strs,
		"ints":      ints,
		"floats":    floats,
		"bools":     bools,
		"list":      list,
		"dict":      newDict,
		"intkeyed":  intKeyed,
		"getitem":   getItem,
		"field":     fieldOf,
		"pyslice":   pySlice,
		"pyrange":   pyRange,
		"loopitem":  loopItem,
		"loopcycle": loopCycle,
		"pad":       pad,
		"inc":       inc,
		"diff":      diff,
		"pick":      pick,
		"equal":     equal,
		"compare":   compare,
		"in":        in,
		// Arithmetic.
		"neg":      neg,
		"add":      add,
		"sub":      sub,
		"mul":      mul,
		"repeat":   repeat,
		"escape":   escape,
		"div":      div,
		"floordiv": floorDiv,
		"mod":      mod,
		"pow":      pow,
		// Filters.
		"length":     length,
		"first":      first,
		"last":       last,
		"tojson":     toJSON,
		"join":       join,
		"joinattr":   joinAttr,
		"sort":       sortList,
		"sortattr":   sortAttr,
		"unique":     unique,
		"uniqueattr": uniqueAttr,
		"tolist":     toList,
		"reverse":    reverse,
		"dictsort":   dictSort,
		"mapattr":    mapAttr,
		"attritem":   mapAttrItem,
		"toint":      toInt,
		"tofloat":    toFloat,
		"round":      round,
		"roundint":   roundInt,
		"upper":      upper,
		"lower":      lower,
		"title":      title,
		"pytitle":    pyTitle,
		"capitalize": capitalize,
		"strip":      strip,
		"lstrip":     lstrip,
		"rstrip":     rstrip,
		"replace":    replace,
		"indent":     indent,
		"truncate":   truncate,
		"truncesc":   truncateMarkup,
		"startswith": startsWith,
		"endswith":   endsWith,
		"split":      split,
		"strfind":    strFind,
		"strrfind":   strRFind,
		"strcount":   strCount,
		"strindex":   strIndex,
		"strrindex":  strRIndex,
		"zfill":      zfill,
		"justify":    justify,
		"swapcase":   swapCase,
		"splitlines": splitLines,
		"islower":    isLower,
		"isupper":    isUpper,
		"isname":     isName,
		"partition":  partition,
		// Dynamic values.
		"dyn":      dyn,
		"gen":      newGen,
		"geniter":  genIter,
		"genitems": genItems,
		"gennext":  genNext,
		// Globals of the transformers profile.
		"raise":       raise,
		"tfjson":      toJSONTransformers,
		"tfjsonascii": toJSONTransformersASCII,
		// Python's list methods that modify a list (lists.go).
		"listappend": listAppend,
		"listextend": listExtend,
		"listinsert": listInsert,
		"listpop":    listPop,
		"listclear":  listClear,
		"listvalue":  toValue,
		"listshare":  listShare,
		"listset":    listSet,
	}
}

// raise fails the render with runtime.ErrRaised and message msg: the
// transformers profile's raise_exception.
func raise(msg, pos string) (string, error) {
	return "", &runtime.Error{Pos: pos, Err: runtime.ErrRaised, Detail: msg}
}
