package generated_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promptgen/promptgen/generated"
	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/openaiprompt"
)

// TestRequest checks the payload of a model call (the prompt format's
// step 5): rendered prompt, effective model, merged parameters, output
// format and schema.
func TestRequest(t *testing.T) {
	feed := generated.TriageTicketFeed{Subject: "Charged twice", Body: "Please refund one charge.", RecentTickets: []generated.TriageTicketRecentTicketsItem{}}
	r, err := generated.TriageTicket.Request(feed, runtime.Temperature(0.2), runtime.Stop("\n\n"))
	if err != nil {
		t.Fatal(err)
	}
	text, err := generated.TriageTicket.Render(feed)
	if err != nil {
		t.Fatal(err)
	}
	if r.Prompt != text || r.Model != "gpt-4o-mini" || r.OutputFormat != "json" {
		t.Errorf("prompt %q, model %q, format %q", r.Prompt, r.Model, r.OutputFormat)
	}
	wantParams := map[string]any{"temperature": 0.2, "max_tokens": 400, "stop": []string{"\n\n"}}
	if diff := cmp.Diff(wantParams, r.Parameters); diff != "" {
		t.Errorf("parameters (-want +got):\n%s", diff)
	}
	var schema map[string]any
	if err := json.Unmarshal(r.OutputSchema, &schema); err != nil || schema["type"] != "object" {
		t.Errorf("OutputSchema is not the object schema: %v %s", err, r.OutputSchema)
	}
	if diff := cmp.Diff(map[string]any{"prompt_cache_key": "support-triage"}, r.ExtraParameters); diff != "" {
		t.Errorf("extra parameters (-want +got):\n%s", diff)
	}
	// Each Request has its own parameters.
	r.ExtraParameters["prompt_cache_key"] = "changed"
	if again, _ := generated.TriageTicket.Request(feed); again.Parameters["temperature"] != 0 || again.ExtraParameters["prompt_cache_key"] != "support-triage" {
		t.Errorf("the defaults changed: %v %v", again.Parameters, again.ExtraParameters)
	}

	// A prompt without a model takes the application's default; one
	// without outputSchema sends none.
	plan, err := generated.PlanSteps.Request(generated.PlanStepsFeed{MaxSteps: "3", Goal: "Ship it"}, runtime.WithDefaultModel("gpt-4o"))
	if err != nil {
		t.Fatal(err)
	}
	if plan.Model != "gpt-4o" || plan.OutputFormat != "" || plan.OutputSchema != nil {
		t.Errorf("model %q, format %q, schema %s", plan.Model, plan.OutputFormat, plan.OutputSchema)
	}

	// A render error is returned as Render returns it. The feed is filled
	// field by field: a literal that leaves out Goal fails promptgen vet.
	var partial generated.PlanStepsFeed
	partial.MaxSteps = "3"
	if _, err := generated.PlanSteps.Request(partial); err == nil {
		t.Error("Request with an unset required variable succeeded")
	}
}

// TestRequestChecksParameters: parameters set at the call are checked
// when Request returns, as the prompt file's are when generating: an
// unknown name (with a did-you-mean), a value of the wrong type or out of
// range is an error naming the parameter and the type it takes, not a
// failure in an adapter later; extra parameters stay unchecked. (The
// names and values come from the table, not constants, which promptgen
// vet would report first.)
func TestRequestChecksParameters(t *testing.T) {
	feed := generated.TriageTicketFeed{Subject: "Charged twice", Body: "Please refund one charge.", RecentTickets: []generated.TriageTicketRecentTicketsItem{}}
	type param struct {
		key   string
		value any
	}
	tests := []struct {
		name  string
		set   []param
		extra []param
		want  string // "" for a valid request
	}{
		{name: "misspelt", set: []param{{"temprature", 0.2}},
			want: `unknown parameter "temprature" (did you mean "temperature"?)`},
		{name: "wrong type", set: []param{{"temperature", "hot"}},
			want: `parameter "temperature" must be a number from 0 to 2, not "hot"`},
		{name: "out of range", set: []param{{"temperature", 3}},
			want: `parameter "temperature" must be a number from 0 to 2, not 3`},
		{name: "a fraction for an integer", set: []param{{"max_tokens", 0.5}},
			want: `parameter "max_tokens" must be an integer of at least 0, not 0.5`},
		{name: "a provider's own parameter", set: []param{{"thinking", true}},
			want: `unknown parameter "thinking" (set a provider's own parameters with runtime.WithExtraParameter, which sends them unchecked)`},
		{name: "every Go number", set: []param{{"temperature", 1}, {"max_tokens", int64(300)}, {"seed", uint16(7)}, {"n", 2.0}}},
		{name: "an extra parameter", extra: []param{{"thinking", map[string]any{"type": "enabled"}}}},
		{name: "a removed default", set: []param{{"max_tokens", nil}}},
	}
	for _, tt := range tests {
		var opts []runtime.RequestOption
		for _, p := range tt.set {
			opts = append(opts, runtime.WithParameter(p.key, p.value))
		}
		for _, p := range tt.extra {
			opts = append(opts, runtime.WithExtraParameter(p.key, p.value))
		}
		r, err := generated.TriageTicket.Request(feed, opts...)
		got := ""
		if err != nil {
			got = err.Error()
			if r.Prompt != "" || r.Parameters != nil {
				t.Errorf("%s: Request returned a payload with its error: %+v", tt.name, r)
			}
		}
		if got != tt.want {
			t.Errorf("%s: err = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestRequestReachesTheAdapter: a prompt's parameters and extra_parameters
// become fields of the provider's request.
func TestRequestReachesTheAdapter(t *testing.T) {
	feed := generated.TriageTicketFeed{Subject: "Charged twice", Body: "Please refund one charge.", RecentTickets: []generated.TriageTicketRecentTicketsItem{}}
	r, err := generated.TriageTicket.Request(feed)
	if err != nil {
		t.Fatal(err)
	}
	params, err := openaiprompt.Chat(runtime.Prompt{{Role: runtime.RoleUser, Content: r.Prompt}}, r)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal(b, &body); err != nil {
		t.Fatal(err)
	}
	if body["prompt_cache_key"] != "support-triage" || body["max_completion_tokens"] != 400.0 || body["temperature"] != 0.0 {
		t.Errorf("request body: %s", b)
	}
}
