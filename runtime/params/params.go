// Package params is the table of the model parameters that promptgen
// knows: the union of the parameters of OpenAI's chat completions API and
// Anthropic's messages API that a prompt may set, with the type, the range
// and the providers of each, as the official Go SDKs in promptgen's go.mod
// document them (openai-go v3.44, anthropic-sdk-go v1.84).
//
// The generator checks the `parameters:` of prompt files and template sets
// against it, the provider adapters (runtime/openaiprompt,
// runtime/anthropicprompt) map exactly the parameters it gives their
// provider, and a vet analyzer may check constant overrides with it:
//
//	p, ok := params.Lookup("temperature")
//	if !ok { ... unknown: see Names for a did-you-mean, Misplaced for a hint }
//	if err := p.Check(0.2); err != nil { ... }
//
// A provider's other knobs are not parameters: a prompt puts them under
// `extra_parameters:`, which is sent as is. The package depends on the
// standard library and runtime/suggest only, and holds no mutable state.
package params

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/suggest"
)

// Kind is the type of a parameter's value.
type Kind uint8

const (
	// Number is a finite number, integral or not.
	Number Kind = iota + 1
	// Integer is an integer; a float with an integral value is one, as
	// JSON and YAML decoding may give.
	Integer
	// Bool is true or false.
	Bool
	// Enum is a string, one of Param.Values.
	Enum
	// Strings is a string or a list of strings.
	Strings
	// TokenBias is a mapping from token IDs (non-negative integers written
	// as strings) to integers in [Min, Max].
	TokenBias
)

var kindNames = [...]string{Number: "number", Integer: "integer", Bool: "bool", Enum: "enum",
	Strings: "strings", TokenBias: "token bias"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Provider is a set of model providers.
type Provider uint8

const (
	// OpenAI is OpenAI's chat completions API (openai.ChatCompletionNewParams).
	OpenAI Provider = 1 << iota
	// Anthropic is Anthropic's messages API (anthropic.MessageNewParams).
	Anthropic
)

func (p Provider) String() string {
	var names []string
	if p&OpenAI != 0 {
		names = append(names, "OpenAI")
	}
	if p&Anthropic != 0 {
		names = append(names, "Anthropic")
	}
	return strings.Join(names, ", ")
}

// Param is one known parameter.
type Param struct {
	// Name is the parameter's key, as the APIs spell it.
	Name string
	Kind Kind
	// Min and Max bound a Number, an Integer, and the values of a
	// TokenBias; they are infinite when unbounded. The range is the union
	// of the providers' ranges: temperature goes up to 2 for OpenAI, 1 for
	// Anthropic.
	Min, Max float64
	// Values are the strings an Enum takes.
	Values []string
	// Providers are the APIs that take the parameter.
	Providers Provider
	// Doc says what the parameter does.
	Doc string
}

var inf = math.Inf(1)

// table is sorted by name.
var table = []Param{
	{Name: "frequency_penalty", Kind: Number, Min: -2, Max: 2, Providers: OpenAI,
		Doc: "penalizes tokens by how often they appeared so far"},
	{Name: "logit_bias", Kind: TokenBias, Min: -100, Max: 100, Providers: OpenAI,
		Doc: "adds a bias to the likelihood of the given token IDs"},
	{Name: "logprobs", Kind: Bool, Providers: OpenAI,
		Doc: "returns the log probabilities of the output tokens"},
	{Name: "max_completion_tokens", Kind: Integer, Min: 1, Max: inf, Providers: OpenAI,
		Doc: "bounds the tokens generated, reasoning tokens included"},
	{Name: "max_tokens", Kind: Integer, Min: 0, Max: inf, Providers: OpenAI | Anthropic,
		Doc: "bounds the tokens generated (sent to OpenAI as max_completion_tokens; 0 pre-warms Anthropic's prompt cache)"},
	{Name: "n", Kind: Integer, Min: 1, Max: 128, Providers: OpenAI,
		Doc: "how many choices to generate"},
	{Name: "presence_penalty", Kind: Number, Min: -2, Max: 2, Providers: OpenAI,
		Doc: "penalizes tokens that appeared so far"},
	{Name: "reasoning_effort", Kind: Enum, Values: []string{"none", "minimal", "low", "medium", "high", "xhigh", "max"}, Providers: OpenAI,
		Doc: "constrains the effort of reasoning models"},
	{Name: "seed", Kind: Integer, Min: math.MinInt64, Max: math.MaxInt64, Providers: OpenAI,
		Doc: "asks for deterministic sampling"},
	{Name: "stop", Kind: Strings, Providers: OpenAI | Anthropic,
		Doc: "sequences that end the completion (OpenAI takes up to 4; sent to Anthropic as stop_sequences)"},
	{Name: "stop_sequences", Kind: Strings, Providers: Anthropic,
		Doc: "sequences that end the completion"},
	{Name: "temperature", Kind: Number, Min: 0, Max: 2, Providers: OpenAI | Anthropic,
		Doc: "sampling temperature (Anthropic takes 0 to 1)"},
	{Name: "tool_choice", Kind: Enum, Values: []string{"auto", "none", "required"}, Providers: OpenAI | Anthropic,
		Doc: "whether the model may, must not or must call a tool (required is Anthropic's any)"},
	{Name: "top_k", Kind: Integer, Min: 0, Max: inf, Providers: Anthropic,
		Doc: "samples from the k most likely tokens only"},
	{Name: "top_logprobs", Kind: Integer, Min: 0, Max: 20, Providers: OpenAI,
		Doc: "how many most likely tokens to return at each position, with logprobs"},
	{Name: "top_p", Kind: Number, Min: 0, Max: 1, Providers: OpenAI | Anthropic,
		Doc: "nucleus sampling: the probability mass to sample from"},
	{Name: "verbosity", Kind: Enum, Values: []string{"low", "medium", "high"}, Providers: OpenAI,
		Doc: "how verbose the answer is"},
}

// misplaced are names that are no parameter of a prompt, with where what
// they set belongs.
var misplaced = map[string]string{
	"response_format": "set outputFormat or outputSchema: the adapters build the response format from them",
	"model":           "model is a key of the prompt, beside parameters",
	"messages":        "messages is a key of the prompt, beside parameters",
	"system":          "system is a key of the prompt, beside parameters",
	"stream":          "streaming is chosen by the client call (NewStreaming), not the prompt",
	"stream_options":  "streaming is chosen by the client call (NewStreaming), not the prompt",
	"tools":           "tools are set on the SDK's params in code, after the adapter",
}

// Lookup returns the parameter called name.
func Lookup(name string) (Param, bool) {
	i, ok := slices.BinarySearchFunc(table, name, func(p Param, name string) int { return strings.Compare(p.Name, name) })
	if !ok {
		return Param{}, false
	}
	return clone(table[i]), true
}

// All returns every known parameter, sorted by name, in a new slice.
func All() []Param {
	out := make([]Param, len(table))
	for i, p := range table {
		out[i] = clone(p)
	}
	return out
}

// Names returns the names of the known parameters, sorted.
func Names() []string {
	names := make([]string, len(table))
	for i, p := range table {
		names[i] = p.Name
	}
	return names
}

// Misplaced reports whether name is no parameter but something a prompt
// or the caller sets elsewhere (response_format, model, stream, ...), and
// where.
func Misplaced(name string) (where string, ok bool) {
	where, ok = misplaced[name]
	return where, ok
}

// Validate checks every entry of ps, the parameters of a runtime.Request
// once a call's options (runtime.WithParameter, runtime.Temperature, ...)
// changed the prompt's: generated Request methods return its error, so that
// a misspelt name or a value of the wrong type fails at the call, not in an
// adapter. It returns nil, or one error per wrong entry in name order,
// joined: an unknown name with a did-you-mean, or the Check error that
// names the type the parameter takes. A provider's own parameters belong
// in the Request's ExtraParameters (runtime.WithExtraParameter), which are
// not checked.
func Validate(ps map[string]any) error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(ps)) {
		p, ok := Lookup(name)
		if !ok {
			errs = append(errs, unknown(name))
			continue
		}
		if err := p.Check(ps[name]); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Apply changes *r, a prompt's request with its defaults, by opts in
// order; when the parameters are then wrong, it empties *r and returns the
// error of Validate. A generated Request method ends with it.
func Apply(r *runtime.Request, opts []runtime.RequestOption) error {
	for _, o := range opts {
		o(r)
	}
	if err := Validate(r.Parameters); err != nil {
		*r = runtime.Request{}
		return err
	}
	return nil
}

// unknown is Validate's error for a name that is no parameter.
func unknown(name string) error {
	if where, ok := Misplaced(name); ok {
		return fmt.Errorf("%q is not a parameter: %s", name, where)
	}
	hint := suggest.DidYouMean(name, Names())
	if hint == "" {
		hint = " (set a provider's own parameters with runtime.WithExtraParameter, which sends them unchecked)"
	}
	return fmt.Errorf("unknown parameter %q%s", name, hint)
}

func clone(p Param) Param {
	p.Values = slices.Clone(p.Values)
	return p
}

// Type describes the values p takes, as its errors say it: "a number from
// 0 to 2", "an integer of at least 1", `one of "low", "medium", "high"`.
func (p Param) Type() string {
	switch p.Kind {
	case Number:
		return "a number" + p.bounds()
	case Integer:
		return "an integer" + p.bounds()
	case Bool:
		return "true or false"
	case Enum:
		quoted := make([]string, len(p.Values))
		for i, v := range p.Values {
			quoted[i] = strconv.Quote(v)
		}
		return "one of " + strings.Join(quoted, ", ")
	case Strings:
		return "a string or a list of strings"
	case TokenBias:
		return "a mapping from token IDs to integers" + p.bounds()
	}
	return p.Kind.String()
}

// bounds is the range part of Type; a bound at the limit of int64 is none.
func (p Param) bounds() string {
	hasMin := !math.IsInf(p.Min, -1) && p.Min != math.MinInt64
	hasMax := !math.IsInf(p.Max, 1) && p.Max != math.MaxInt64
	switch {
	case hasMin && hasMax:
		return " from " + formatFloat(p.Min) + " to " + formatFloat(p.Max)
	case hasMin:
		return " of at least " + formatFloat(p.Min)
	case hasMax:
		return " of at most " + formatFloat(p.Max)
	}
	return ""
}

// Check reports whether v is a valid value of p: an error saying what p
// takes and what v is otherwise. v is what a decoder or a Go call gives:
// any Go integer or float type or a json.Number for numbers; a string; a
// bool; a []string or []any for lists; a map with string keys for a
// mapping. A nil v (null) is never valid.
func (p Param) Check(v any) error {
	if detail, ok := p.check(v); !ok {
		return fmt.Errorf("parameter %q must be %s, not %s", p.Name, p.Type(), detail)
	}
	return nil
}

// check returns whether v is valid, and otherwise what is wrong with it.
func (p Param) check(v any) (string, bool) {
	switch p.Kind {
	case Number:
		f, ok := toNumber(v)
		return describe(v), ok && p.inRange(f)
	case Integer:
		return describe(v), isInteger(v) && p.inRange(mustNumber(v))
	case Bool:
		_, ok := v.(bool)
		return describe(v), ok
	case Enum:
		s, ok := v.(string)
		return describe(v), ok && slices.Contains(p.Values, s)
	case Strings:
		return checkStrings(v)
	case TokenBias:
		return p.checkBias(v)
	}
	return describe(v), false
}

func (p Param) inRange(f float64) bool { return f >= p.Min && f <= p.Max }

func checkStrings(v any) (string, bool) {
	switch v := v.(type) {
	case string, []string:
		return "", true
	case []any:
		for _, x := range v {
			if _, ok := x.(string); !ok {
				return "a list holding " + describe(x), false
			}
		}
		return "", true
	}
	return describe(v), false
}

func (p Param) checkBias(v any) (string, bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Map {
		return describe(v), false
	}
	if rv.Type().Key().Kind() != reflect.String {
		return "a mapping with keys of type " + rv.Type().Key().String(), false
	}
	keys := rv.MapKeys()
	slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	for _, k := range keys {
		if _, err := strconv.ParseUint(k.String(), 10, 64); err != nil {
			return "the key " + strconv.Quote(k.String()), false
		}
		x := rv.MapIndex(k).Interface()
		if !isInteger(x) || !p.inRange(mustNumber(x)) {
			return describe(x) + " for " + strconv.Quote(k.String()), false
		}
	}
	return "", true
}

// toNumber reads a number: any Go integer or float type, or a json.Number.
func toNumber(v any) (float64, bool) {
	if n, ok := v.(json.Number); ok {
		f, err := n.Float64()
		return f, err == nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint()), true
	case reflect.Float32, reflect.Float64:
		return rv.Float(), true
	}
	return 0, false
}

func mustNumber(v any) float64 {
	f, _ := toNumber(v)
	return f
}

// isInteger reports whether v is a number with an integral value that an
// int64 holds.
func isInteger(v any) bool {
	f, ok := toNumber(v)
	return ok && f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64
}

// describe names a value for a message: numbers, strings and bools as
// written, other values by their kind.
func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(v)
	case bool:
		return strconv.FormatBool(v)
	case json.Number:
		return string(v)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(rv.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(rv.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		return formatFloat(rv.Float())
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map:
		return "a mapping"
	}
	return fmt.Sprintf("a %T", v)
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
