package params

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/runtime"
)

func TestLookup(t *testing.T) {
	for _, name := range []string{"temperature", "top_p", "top_k", "max_tokens", "max_completion_tokens",
		"stop", "stop_sequences", "seed", "presence_penalty", "frequency_penalty", "logit_bias", "n",
		"logprobs", "top_logprobs", "reasoning_effort", "verbosity", "tool_choice"} {
		p, ok := Lookup(name)
		if !ok || p.Name != name {
			t.Errorf("Lookup(%q) = %v, %v", name, p, ok)
		}
		if p.Kind == 0 || p.Providers == 0 || p.Doc == "" {
			t.Errorf("%s: incomplete entry %+v", name, p)
		}
	}
	for _, name := range []string{"temprature", "response_format", "model", "", "Temperature"} {
		if p, ok := Lookup(name); ok {
			t.Errorf("Lookup(%q) = %v, want none", name, p)
		}
	}
}

func TestAllIsSortedAndACopy(t *testing.T) {
	all := All()
	if !slices.IsSortedFunc(all, func(a, b Param) int { return strings.Compare(a.Name, b.Name) }) {
		t.Errorf("All is not sorted by name")
	}
	if names := Names(); len(names) != len(all) || !slices.IsSorted(names) {
		t.Errorf("Names() = %v", names)
	}
	all[0].Name = "changed"
	all[0].Values = append(all[0].Values, "x")
	if All()[0].Name == "changed" {
		t.Errorf("All returns the table itself")
	}
	p, _ := Lookup("verbosity")
	p.Values[0] = "changed"
	if q, _ := Lookup("verbosity"); q.Values[0] == "changed" {
		t.Errorf("Lookup shares the Values of the table")
	}
}

func TestProviders(t *testing.T) {
	tests := []struct {
		name string
		want Provider
	}{
		{"temperature", OpenAI | Anthropic},
		{"top_p", OpenAI | Anthropic},
		{"max_tokens", OpenAI | Anthropic},
		{"stop", OpenAI | Anthropic},
		{"tool_choice", OpenAI | Anthropic},
		{"top_k", Anthropic},
		{"stop_sequences", Anthropic},
		{"seed", OpenAI},
		{"logit_bias", OpenAI},
		{"max_completion_tokens", OpenAI},
	}
	for _, tt := range tests {
		if p, _ := Lookup(tt.name); p.Providers != tt.want {
			t.Errorf("%s: Providers = %v, want %v", tt.name, p.Providers, tt.want)
		}
	}
	if got := (OpenAI | Anthropic).String(); got != "OpenAI, Anthropic" {
		t.Errorf("String() = %q", got)
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name  string
		value any
		want  string // "" for a valid value
	}{
		{"temperature", 0.2, ""},
		{"temperature", int64(1), ""},
		{"temperature", 2, ""},
		{"temperature", 0, ""},
		{"temperature", float32(1.5), ""},
		{"temperature", json.Number("0.5"), ""},
		{"temperature", 2.5, `parameter "temperature" must be a number from 0 to 2, not 2.5`},
		{"temperature", -0.1, `parameter "temperature" must be a number from 0 to 2, not -0.1`},
		{"temperature", "hot", `parameter "temperature" must be a number from 0 to 2, not "hot"`},
		{"temperature", true, `parameter "temperature" must be a number from 0 to 2, not true`},
		{"temperature", nil, `parameter "temperature" must be a number from 0 to 2, not null`},
		{"temperature", math.NaN(), `parameter "temperature" must be a number from 0 to 2, not NaN`},
		{"top_p", 1.01, `parameter "top_p" must be a number from 0 to 1, not 1.01`},
		{"presence_penalty", -2, ""},
		{"frequency_penalty", 2.1, `parameter "frequency_penalty" must be a number from -2 to 2, not 2.1`},
		{"max_tokens", int64(500), ""},
		{"max_tokens", 500.0, ""},
		{"max_tokens", uint8(5), ""},
		{"max_tokens", 0, ""},
		{"max_tokens", 500.5, `parameter "max_tokens" must be an integer of at least 0, not 500.5`},
		{"max_tokens", -1, `parameter "max_tokens" must be an integer of at least 0, not -1`},
		{"max_tokens", "500", `parameter "max_tokens" must be an integer of at least 0, not "500"`},
		{"max_completion_tokens", 0, `parameter "max_completion_tokens" must be an integer of at least 1, not 0`},
		{"n", 128, ""},
		{"n", 129, `parameter "n" must be an integer from 1 to 128, not 129`},
		{"top_logprobs", 21, `parameter "top_logprobs" must be an integer from 0 to 20, not 21`},
		{"seed", int64(math.MinInt64), ""},
		{"seed", 1e300, `parameter "seed" must be an integer, not 1e+300`},
		{"logprobs", true, ""},
		{"logprobs", "yes", `parameter "logprobs" must be true or false, not "yes"`},
		{"stop", "END", ""},
		{"stop", []string{"a", "b"}, ""},
		{"stop", []any{"a", "b"}, ""},
		{"stop", []any{}, ""},
		{"stop", []any{"a", int64(1)}, `parameter "stop" must be a string or a list of strings, not a list holding 1`},
		{"stop", 3, `parameter "stop" must be a string or a list of strings, not 3`},
		{"stop_sequences", []string{"x"}, ""},
		{"reasoning_effort", "low", ""},
		{"reasoning_effort", "hgih", `parameter "reasoning_effort" must be one of "none", "minimal", "low", "medium", "high", "xhigh", "max", not "hgih"`},
		{"verbosity", 1, `parameter "verbosity" must be one of "low", "medium", "high", not 1`},
		{"tool_choice", "required", ""},
		{"tool_choice", "any", `parameter "tool_choice" must be one of "auto", "none", "required", not "any"`},
		{"logit_bias", map[string]any{"50256": int64(-100), "1": 100.0}, ""},
		{"logit_bias", map[string]int{"50256": 5}, ""},
		{"logit_bias", map[string]any{}, ""},
		{"logit_bias", map[string]any{"50256": int64(-101)}, `parameter "logit_bias" must be a mapping from token IDs to integers from -100 to 100, not -101 for "50256"`},
		{"logit_bias", map[string]any{"the": int64(1)}, `parameter "logit_bias" must be a mapping from token IDs to integers from -100 to 100, not the key "the"`},
		{"logit_bias", map[string]any{"-3": int64(1)}, `parameter "logit_bias" must be a mapping from token IDs to integers from -100 to 100, not the key "-3"`},
		{"logit_bias", []any{int64(1)}, `parameter "logit_bias" must be a mapping from token IDs to integers from -100 to 100, not a list`},
		{"logit_bias", map[int]int{1: 1}, `parameter "logit_bias" must be a mapping from token IDs to integers from -100 to 100, not a mapping with keys of type int`},
	}
	for _, tt := range tests {
		p, ok := Lookup(tt.name)
		if !ok {
			t.Fatalf("no parameter %q", tt.name)
		}
		err := p.Check(tt.value)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s.Check(%#v) = %q, want %q", tt.name, tt.value, got, tt.want)
		}
	}
}

func TestMisplaced(t *testing.T) {
	for _, name := range []string{"response_format", "model", "messages", "system", "stream", "tools"} {
		where, ok := Misplaced(name)
		if !ok || where == "" {
			t.Errorf("Misplaced(%q) = %q, %v", name, where, ok)
		}
		if _, known := Lookup(name); known {
			t.Errorf("%q is both known and misplaced", name)
		}
	}
	if _, ok := Misplaced("temperature"); ok {
		t.Errorf("temperature is misplaced")
	}
}

// TestRangesAreConsistent guards the table against entries a Check could
// never accept.
func TestRangesAreConsistent(t *testing.T) {
	for _, p := range All() {
		switch p.Kind {
		case Number, Integer, TokenBias:
			if !(p.Min <= p.Max) {
				t.Errorf("%s: Min %v > Max %v", p.Name, p.Min, p.Max)
			}
		case Enum:
			if len(p.Values) == 0 {
				t.Errorf("%s: an enum without values", p.Name)
			}
		}
		if p.Kind != Enum && len(p.Values) > 0 {
			t.Errorf("%s: Values on a %v", p.Name, p.Kind)
		}
	}
}

// TestValidate checks a Request's parameters as a call's options leave
// them: names against the table, with a did-you-mean, and values with
// Check; every problem is reported, in name order.
func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		ps   map[string]any
		want string // "" for valid parameters
	}{
		{"none", nil, ""},
		{"valid", map[string]any{"temperature": 0.2, "max_tokens": 300, "stop": []string{"END"}, "seed": int64(7)}, ""},
		{"any Go number for a number", map[string]any{"temperature": 1, "top_p": float32(0.5), "frequency_penalty": int8(-1),
			"presence_penalty": json.Number("1.5")}, ""},
		{"an integral float for an integer", map[string]any{"max_tokens": 300.0, "n": uint(2)}, ""},
		{"misspelt", map[string]any{"temprature": 0.2},
			`unknown parameter "temprature" (did you mean "temperature"?)`},
		{"unknown", map[string]any{"thinking": map[string]any{"type": "enabled"}},
			`unknown parameter "thinking" (set a provider's own parameters with runtime.WithExtraParameter, which sends them unchecked)`},
		{"misplaced", map[string]any{"response_format": "json"},
			`"response_format" is not a parameter: set outputFormat or outputSchema: the adapters build the response format from them`},
		{"wrong type", map[string]any{"temperature": "hot"},
			`parameter "temperature" must be a number from 0 to 2, not "hot"`},
		{"a fraction for an integer", map[string]any{"max_tokens": 0.5},
			`parameter "max_tokens" must be an integer of at least 0, not 0.5`},
		{"a string for a bool", map[string]any{"logprobs": "true"},
			`parameter "logprobs" must be true or false, not "true"`},
		{"every problem, in name order", map[string]any{"top_p": 2, "temprature": 0.2, "max_tokens": "many"},
			`parameter "max_tokens" must be an integer of at least 0, not "many"` + "\n" +
				`unknown parameter "temprature" (did you mean "temperature"?)` + "\n" +
				`parameter "top_p" must be a number from 0 to 1, not 2`},
	}
	for _, tt := range tests {
		err := Validate(tt.ps)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s: Validate(%v) = %q, want %q", tt.name, tt.ps, got, tt.want)
		}
	}
}

func TestApply(t *testing.T) {
	r := runtime.Request{Prompt: "p", Parameters: map[string]any{"temperature": 0.6}}
	err := Apply(&r, []runtime.RequestOption{runtime.WithModel("m"), runtime.Temperature(0.2), runtime.WithModel("o")})
	want := runtime.Request{Prompt: "p", Model: "o", Parameters: map[string]any{"temperature": 0.2}}
	if err != nil || !reflect.DeepEqual(r, want) {
		t.Errorf("Apply: %+v, %v; want %+v, nil", r, err, want)
	}
	err = Apply(&r, []runtime.RequestOption{runtime.WithModel("m"), runtime.WithParameter("temprature", 0.2)})
	if wantErr := `unknown parameter "temprature" (did you mean "temperature"?)`; err == nil || err.Error() != wantErr || !reflect.DeepEqual(r, runtime.Request{}) {
		t.Errorf("Apply with a misspelt parameter: %+v, %v; want an empty Request, %s", r, err, wantErr)
	}
}
