// Package runtime is what every package promptgen generates imports: the
// prompt and message values (Prompt, Message, their validation), template
// sets (Manager, fallback resolution, switching, version variants), feed
// merging, render options and sectioned prompts. Its subpackages hold what
// only some prompts need: jinja (dynamic values), chat and chatformat (chat
// templates), output, params, tiktoken, ttfuncs (the text/template
// backend), snapshot and the provider adapters. It depends on the standard
// library only; a change to its exported API is a change to every
// generated package.
//
// # Sectioned prompts
//
// A sectioned prompt is a static head followed by named sections, each
// rendered from its own template (think-prompt-injection.md). Generated
// code renders each section's title and body and calls BuildSection, then
// AppendPrompt; ParseSections reads a rendered prompt back. The rules, which
// a golden script mirrors:
//
//   - Text = ("## " + Title + "\n" if Title != "") + Body with its trailing
//     "\n" characters removed.
//   - A block is Text, or with markers "<!-- BEGIN: name -->\n" + Text +
//     "\n<!-- END: name -->".
//   - Prompt = the head (its trailing "\n" characters removed; left out when
//     then empty) and the blocks, joined by "\n\n", followed by one "\n".
//   - With markers, the head, Title and Body are escaped first
//     (EscapeMarkers: "<!-- END" becomes "<\!-- END"), so that feed text can
//     neither open nor close a section. Section boundaries come from the
//     prompt file only.
//   - Tokens are counted on Text, never on marker lines. A budget of 0
//     only counts.
//   - Over budget, TruncateError is a *BudgetError.
//   - TruncateText keeps prefix + "…", where prefix is Tokenizer.Cut(Text,
//     Budget - Count("…")), cut shorter while prefix + "…" is over budget,
//     and never shorter than the title line: when title line + "…" is over
//     budget too, it is a *BudgetError.
//   - TruncateItems keeps the first k iterations of the outer loop and puts
//     the line indent + "... and N more" (N = iterations dropped) in place
//     of the others; the text after the loop stays. If even k = 0 is over
//     budget, it is a *BudgetError.
//
// In Python, with body the title line and Body joined (and escaped, with
// markers) and loop the loop's offsets in it, the text with k < n
// iterations kept (with all n kept, it is body.rstrip("\n")) is:
//
//	n = len(loop) - 1
//	kept = body[:loop[k]]
//	after = body[loop[n]:].rstrip("\n")
//	first = body[loop[0]:loop[1]].lstrip("\n")
//	indent = first[:len(first) - len(first.lstrip(" \t"))]
//	note = indent + "... and %d more" % (n - k)
//	text = kept + ("\n" if kept and not kept.endswith("\n") else "") + note + ("\n" + after if after else "")
//
// k is the most iterations that fit, as far as counting the parts of the
// text apart tells: the text before the loop, each kept iteration, the note
// and the text after, each part counted with the newlines that start the
// next one and without its own ("\n\n" is one token). Iterations are
// counted in order only until the budget is reached. With a
// SplittingTokenizer (runtime/tiktoken's encodings), which tells where
// counts add up, the parts join there, so the count is exact and choosing
// k costs about one count of the result and of the iteration past it:
// k is the most iterations that fit, one more is over. With another
// Tokenizer choosing k costs about two counts of the result; the text with
// k iterations is then counted exactly, and k steps down while it is over
// budget.
package runtime

import (
	"encoding/json"
	"errors"
	"strconv"
	"sync/atomic"
	"unsafe"
)

// SupportPackageIsVersion1 is referenced by generated code so that a
// generated package and an incompatible runtime fail to compile together.
const SupportPackageIsVersion1 = true

// Sentinel causes of render errors, for errors.Is.
var (
	// ErrMissing: a required variable was left unset (empty string, nil
	// slice or map).
	ErrMissing = errors.New("required variable is not set")
	// ErrUndefined: an optional variable that is unset was used where
	// Jinja2 raises UndefinedError (attribute access, arithmetic, ordering).
	ErrUndefined = errors.New("variable is undefined")
	// ErrInvalid: an operation Jinja2 rejects at render time, such as a
	// division by zero.
	ErrInvalid = errors.New("invalid operation")
	// ErrTooLarge: the render would build a string longer than MaxOutput,
	// or a loop went on with an output already longer.
	ErrTooLarge = errors.New("output would exceed runtime.MaxOutput")
	// ErrRaised: the template called raise_exception (the transformers
	// profile), as a chat template does for a conversation it rejects; the
	// Error's Detail is the message.
	ErrRaised = errors.New("the template raised an exception")
)

// MaxOutput bounds what one render builds, in bytes: no string that a
// template computes (s * n, indent, join, replace, tojson with an indent)
// may be longer, and no loop starts an iteration once the output is longer.
// Past it, rendering stops with ErrTooLarge instead of exhausting memory.
const MaxOutput = 64 << 20

// MaxMacroDepth bounds how many macro frames a call of a macro that
// calls itself may open. Jinja2 raises RecursionError near 200 nested
// macro calls, at a depth that depends on Python's stack where the render
// runs (198 under transformers' sandbox called from a script's top level,
// 247 without the sandbox); past this bound, below those, the render fails
// on both backends rather than depend on the caller.
const MaxMacroDepth = 190

// MaxMacroCalls bounds the calls of macros that call themselves in one
// render: a macro that calls itself twice per level is exponential in its
// depth, and Jinja2 would run it for ages.
const MaxMacroCalls = 1 << 20

// EnterMacro counts a call of macro name (one that calls itself) of
// prompt at pos, which opens the depth-th macro frame, in a render that
// has made *calls such calls: past MaxMacroDepth or MaxMacroCalls it
// returns the render's error.
func EnterMacro(prompt, pos, name string, depth int, calls *int) error {
	*calls++
	switch {
	case depth > MaxMacroDepth:
		return FailDetail(prompt, pos, ErrInvalid, "macro "+strconv.Quote(name)+": more than "+strconv.Itoa(MaxMacroDepth)+" nested macro calls (Jinja2 raises RecursionError near 200)")
	case *calls > MaxMacroCalls:
		return FailDetail(prompt, pos, ErrInvalid, "more than "+strconv.Itoa(MaxMacroCalls)+" calls of macros that call themselves in one render")
	}
	return nil
}

// Error is a render failure at a position of a prompt's template.
type Error struct {
	Prompt string // the prompt's key, e.g. "support/summarize"
	Pos    string // "file:line:col" in the prompt file
	Var    string // the variable concerned, if any
	Err    error  // one of the sentinel errors above
	Detail string // specifics, such as "division by zero"
}

func (e *Error) Error() string {
	msg := e.Pos + ": render " + e.Prompt + ": "
	if e.Var != "" {
		msg += `"` + e.Var + `": `
	}
	msg += e.Err.Error()
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// Fail returns the *Error of a render of prompt that stops at pos with
// err, one of the sentinel errors, about variable (or ""). Generated code
// calls it on paths that end a render; not inlined, each call stays one
// call to compile, and the hot path around it small.
//
//go:noinline
func Fail(prompt, pos string, err error, variable string) error {
	return &Error{Prompt: prompt, Pos: pos, Var: variable, Err: err}
}

// FailDetail is Fail with a detail (the message of ErrInvalid or
// ErrRaised) instead of a variable.
//
//go:noinline
func FailDetail(prompt, pos string, err error, detail string) error {
	return &Error{Prompt: prompt, Pos: pos, Err: err, Detail: detail}
}

// Nest returns err with path and a dot put before the variable of every
// *Error in it, so that what a nested object's Validate reports names the
// variable from the top of the feed ("customer.name", "orders[2].id").
func Nest(err error, path string) error {
	switch e := err.(type) {
	case *Error:
		nested := *e
		nested.Var = path + "." + e.Var
		return &nested
	case interface{ Unwrap() []error }:
		errs := e.Unwrap()
		out := make([]error, len(errs))
		for i, x := range errs {
			out[i] = Nest(x, path)
		}
		return errors.Join(out...)
	}
	return err
}

// Problems collects what a generated Validate finds. Its methods are not
// inlined: a Validate is then a short list of calls, which a library of a
// thousand prompts compiles markedly faster than appends of inlined errors.
type Problems struct{ errs []error }

// Missing records the required variable of prompt, declared at pos, as
// left unset.
//
//go:noinline
func (p *Problems) Missing(prompt, pos, variable string) {
	p.errs = append(p.errs, Fail(prompt, pos, ErrMissing, variable))
}

// Require records the required variable of prompt, declared at pos, as
// left unset unless set: a Validate is one call per required variable,
// without a branch of its own.
//
//go:noinline
func (p *Problems) Require(set bool, prompt, pos, variable string) {
	if !set {
		p.Missing(prompt, pos, variable)
	}
}

// Nested records the errors of a nested object's Validate, err (nil when
// it found none), under path (see Nest).
//
//go:noinline
func (p *Problems) Nested(err error, path string) {
	if err != nil {
		p.errs = append(p.errs, Nest(err, path))
	}
}

// Item records the errors of the Validate of item i of the list at path,
// err (nil when it found none), under path[i].
//
//go:noinline
func (p *Problems) Item(err error, path string, i int) {
	if err != nil {
		p.errs = append(p.errs, Nest(err, path+"["+strconv.Itoa(i)+"]"))
	}
}

// Err returns the errors recorded, joined, or nil.
//
//go:noinline
func (p *Problems) Err() error { return errors.Join(p.errs...) }

// SizeHint remembers the largest output of a renderer so that the next
// render allocates its buffer once. It is safe for concurrent use.
type SizeHint struct{ max atomic.Int64 }

// maxHint bounds what SizeHint pre-allocates after one unusually large render.
const maxHint = 1 << 20

// Get returns the size to pre-allocate: the largest size observed, at
// least min.
func (h *SizeHint) Get(min int) int {
	return max(int(h.max.Load()), min)
}

// Observe records the size of a rendered output.
func (h *SizeHint) Observe(n int) {
	n = min(n, maxHint)
	for {
		cur := h.max.Load()
		if int64(n) <= cur || h.max.CompareAndSwap(cur, int64(n)) {
			return
		}
	}
}

// Buffer returns an empty buffer for a render, with room for the largest
// output observed and at least min bytes. A generated Render is one call
// of Done on what AppendRender appends to it; neither is inlined, so that
// each Render of a large library stays small to compile.
//
//go:noinline
func (h *SizeHint) Buffer(min int) []byte {
	return make([]byte, 0, h.Get(min))
}

// Done returns "" and err when err is not nil; otherwise it observes the
// size of buf, a render's output in a buffer from Buffer, and returns buf
// as a string without copying (see BytesToString).
//
//go:noinline
func (h *SizeHint) Done(buf []byte, err error) (string, error) {
	if err != nil {
		return "", err
	}
	h.Observe(len(buf))
	return BytesToString(buf), nil
}

// BytesToString returns the bytes of buf as a string without copying, as
// strings.Builder does. The caller must not modify buf afterwards; generated
// renderers use it on a buffer they allocated and then drop.
func BytesToString(buf []byte) string {
	return unsafe.String(unsafe.SliceData(buf), len(buf))
}

// Request is the payload of one model call, as the prompt format's
// processing flow builds it (step 5): the rendered prompt, the effective
// model, the merged parameters, and what the output should look like. A
// generated prompt's Request method fills it from the prompt's defaults,
// then applies its RequestOptions in order.
type Request struct {
	// Prompt is the rendered prompt text; "" for a prompt with messages.
	Prompt string `json:"prompt"`
	// Messages are the prompt's messages, built structurally by its
	// Messages method, when the prompt has `messages:` or a `system:`
	// template; nil otherwise (then Prompt is the one user message).
	Messages Prompt `json:"messages,omitempty"`
	// Model is the prompt's model, or what WithModel or WithDefaultModel
	// set; "" leaves the choice to the caller.
	Model string `json:"model,omitempty"`
	// Parameters are the prompt's default parameters (temperature,
	// max_tokens, ...) overridden by the call's; a new map per Request.
	Parameters map[string]any `json:"parameters,omitempty"`
	// ExtraParameters are the prompt's extra_parameters overridden by the
	// call's: a provider's own request fields, which the adapters send as
	// they are, over any field of the same name; nil when none.
	ExtraParameters map[string]any `json:"extraParameters,omitempty"`
	// OutputFormat is the prompt's outputFormat: json, yaml, text, xml or "".
	OutputFormat string `json:"outputFormat,omitempty"`
	// OutputSchema is the JSON Schema of the output, for providers'
	// structured-output modes; nil when the prompt has none.
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	// Tools are the prompt's tools, and ToolChoice its tool_choice: auto,
	// none, required or a tool's name ("" leaves it to the provider).
	Tools      []Tool `json:"tools,omitempty"`
	ToolChoice string `json:"toolChoice,omitempty"`
}

// RequestOption changes a Request at the call site.
type RequestOption func(*Request)

// WithModel sets the model, whatever the prompt names.
func WithModel(model string) RequestOption {
	return func(r *Request) { r.Model = model }
}

// WithDefaultModel sets the model when the prompt names none: the
// application's default model.
func WithDefaultModel(model string) RequestOption {
	return func(r *Request) {
		if r.Model == "" {
			r.Model = model
		}
	}
}

// WithParameter sets the parameter key to value, replacing the prompt's
// default; a nil value removes it.
func WithParameter(key string, value any) RequestOption {
	return func(r *Request) { setOrDelete(&r.Parameters, key, value) }
}

// WithExtraParameter sets the extra parameter key to value, a request
// field that the adapters send unchecked; a nil value removes it.
func WithExtraParameter(key string, value any) RequestOption {
	return func(r *Request) { setOrDelete(&r.ExtraParameters, key, value) }
}

// setOrDelete sets (*m)[key] to value, making the map if needed, or
// deletes key when value is nil.
func setOrDelete(m *map[string]any, key string, value any) {
	if value == nil {
		delete(*m, key)
		return
	}
	if *m == nil {
		*m = map[string]any{}
	}
	(*m)[key] = value
}

// Temperature sets the "temperature" parameter.
func Temperature(t float64) RequestOption { return WithParameter("temperature", t) }

// MaxTokens sets the "max_tokens" parameter.
func MaxTokens(n int) RequestOption { return WithParameter("max_tokens", n) }

// TopP sets the "top_p" parameter.
func TopP(p float64) RequestOption { return WithParameter("top_p", p) }

// Stop sets the "stop" parameter: the sequences that end the completion.
func Stop(sequences ...string) RequestOption {
	return WithParameter("stop", append([]string(nil), sequences...))
}
