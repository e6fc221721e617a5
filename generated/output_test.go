package generated_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promptgen/promptgen/generated"
	"github.com/promptgen/promptgen/runtime/output"
	"github.com/promptgen/promptgen/runtime/output/yamlout"
)

// outputPrompt is the API of a generated prompt with structured output.
type outputPrompt[F, O any] interface {
	Key() string
	Render(F) (string, error)
	ParseOutput(string, ...output.ParseOption) (O, error)
}

// example is one of a prompt's examples, its types erased.
type example struct {
	render func() (string, error)
	output any
	// encode and parse round-trip the output through JSON.
	encode func() ([]byte, error)
	parse  func(completion string) (any, error)
}

func examplesOf[F, O any, E any](p outputPrompt[F, O], exs []E, fields func(E) (F, O)) []example {
	var out []example
	for _, e := range exs {
		f, o := fields(e)
		out = append(out, example{
			render: func() (string, error) { return p.Render(f) },
			output: o,
			encode: func() ([]byte, error) { return json.Marshal(o) },
			parse:  func(c string) (any, error) { return p.ParseOutput(c) },
		})
	}
	return out
}

// TestExamplesRoundTrip checks every example of every prompt with a
// schema: its input renders, and its output, encoded as JSON and parsed
// back through the generated ParseOutput (which validates it against the
// compiled schema), is the value it was.
func TestExamplesRoundTrip(t *testing.T) {
	cases := map[string][]example{
		generated.SummarizeCustomerInteraction.Key(): examplesOf(generated.SummarizeCustomerInteraction, generated.SummarizeCustomerInteraction.Examples(),
			func(e generated.SummarizeCustomerInteractionExample) (generated.SummarizeCustomerInteractionFeed, generated.SummarizeCustomerInteractionOutput) {
				return e.Input, e.Output
			}),
		generated.TriageTicket.Key(): examplesOf(generated.TriageTicket, generated.TriageTicket.Examples(),
			func(e generated.TriageTicketExample) (generated.TriageTicketFeed, generated.TriageTicketOutput) {
				return e.Input, e.Output
			}),
		generated.NextAction.Key(): examplesOf(generated.NextAction, generated.NextAction.Examples(),
			func(e generated.NextActionExample) (generated.NextActionFeed, generated.NextActionOutput) {
				return e.Input, e.Output
			}),
		generated.ExtractEntities.Key(): examplesOf(generated.ExtractEntities, generated.ExtractEntities.Examples(),
			func(e generated.ExtractEntitiesExample) (generated.ExtractEntitiesFeed, generated.ExtractEntitiesOutput) {
				return e.Input, e.Output
			}),
	}
	for key, exs := range cases {
		if len(exs) == 0 {
			t.Errorf("%s has no examples", key)
		}
		for i, ex := range exs {
			t.Run(fmt.Sprintf("%s/%d", key, i), func(t *testing.T) {
				if _, err := ex.render(); err != nil {
					t.Errorf("rendering the example's input: %v", err)
				}
				doc, err := ex.encode()
				if err != nil {
					t.Fatal(err)
				}
				got, err := ex.parse(string(doc))
				if err != nil {
					t.Fatalf("ParseOutput(%s): %v", doc, err)
				}
				if diff := cmp.Diff(ex.output, got); diff != "" {
					t.Errorf("decode(encode(output)) differs (-example +round trip):\n%s", diff)
				}
			})
		}
	}
}

// violations lists the "pointer keyword" of each output.Error in err, or
// the error's text when it is not output.Errors.
func violations(err error) []string {
	var es output.Errors
	if !errors.As(err, &es) {
		return []string{"not output.Errors: " + err.Error()}
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Pointer+" "+e.Keyword)
	}
	return out
}

// parseCase is one completion and what the generated ParseOutput makes
// of it.
type parseCase struct {
	name       string
	completion string
	check      func(t *testing.T, v any) // on success
	violations []string                  // "pointer keyword", sorted
	errIs      error                     // an extraction failure
}

func runParseCases[O any](t *testing.T, parse func(string, ...output.ParseOption) (O, error), cases []parseCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := parse(c.completion)
			switch {
			case c.errIs != nil:
				if !errors.Is(err, c.errIs) {
					t.Fatalf("err = %v, want %v", err, c.errIs)
				}
			case c.violations != nil:
				if err == nil {
					t.Fatalf("no error, want %v", c.violations)
				}
				if diff := cmp.Diff(c.violations, violations(err)); diff != "" {
					t.Errorf("violations (-want +got):\n%s\n%v", diff, err)
				}
			case err != nil:
				t.Fatalf("ParseOutput: %v", err)
			default:
				c.check(t, v)
			}
		})
	}
}

func TestParseOutputTriageTicket(t *testing.T) {
	const ok = `{"category": "billing", "priority": "high",
  "summary": "The customer was charged twice and wants a refund.",
  "customer": {"sentiment": "negative", "churn_risk": 0.4, "mentioned_plan": "pro"},
  "actions": [{"owner": "billing", "task": "Refund the duplicate", "due_in_hours": 24}],
  "tags": ["refund"]}`
	runParseCases(t, generated.TriageTicket.ParseOutput, []parseCase{
		{
			name:       "fenced after a sentence",
			completion: "Here is the triage:\n\n```json\n" + ok + "\n```\n",
			check: func(t *testing.T, v any) {
				o := v.(generated.TriageTicketOutput)
				if o.Category != generated.TriageTicketOutputCategoryBilling || o.Priority != generated.TriageTicketOutputPriorityHigh {
					t.Errorf("category %q priority %q", o.Category, o.Priority)
				}
				if o.Customer.ChurnRisk == nil || *o.Customer.ChurnRisk != 0.4 || *o.Customer.MentionedPlan != "pro" {
					t.Errorf("customer %+v", o.Customer)
				}
				if len(o.Actions) != 1 || o.Actions[0].Owner != generated.TriageTicketOutputActionsItemOwnerBilling || *o.Actions[0].DueInHours != 24 {
					t.Errorf("actions %+v", o.Actions)
				}
				if o.DuplicateOf != nil {
					t.Errorf("duplicate_of %q, want unset", *o.DuplicateOf)
				}
			},
		},
		{
			name:       "bare, optional fields absent",
			completion: `{"category": "other", "priority": "low", "summary": "A question about the API limits.", "customer": {"sentiment": "neutral"}, "actions": []}`,
			check: func(t *testing.T, v any) {
				o := v.(generated.TriageTicketOutput)
				if o.Customer.ChurnRisk != nil || o.Tags != nil || o.Actions == nil {
					t.Errorf("got %+v", o)
				}
			},
		},
		{
			name:       "enum, pattern, range and extra key",
			completion: `{"category": "refund", "priority": "high", "summary": "Charged twice for March.", "customer": {"sentiment": "negative", "churn_risk": 1.5}, "actions": [], "tags": ["Refund!"], "confidence": 0.9}`,
			violations: []string{" additionalProperties", "/category enum", "/customer/churn_risk maximum", "/tags/0 pattern"},
		},
		{
			name:       "missing required and wrong types",
			completion: "```json\n" + `{"category": "bug", "summary": 42, "customer": {}, "actions": [{"owner": "qa", "task": ""}]}` + "\n```",
			violations: []string{" required", "/actions/0/owner enum", "/actions/0/task minLength", "/customer required", "/summary type"},
		},
		{
			name:       "duplicate tags",
			completion: `{"category": "bug", "priority": "normal", "summary": "Export crashes on big files.", "customer": {"sentiment": "neutral"}, "actions": [], "tags": ["export", "export"]}`,
			violations: []string{"/tags uniqueItems"},
		},
		{
			name:       "truncated",
			completion: "```json\n" + ok[:80],
			errIs:      output.ErrTruncated,
		},
		{
			name:       "no JSON at all",
			completion: "I could not triage this ticket.",
			errIs:      output.ErrNoJSON,
		},
	})
}

func TestParseOutputNextAction(t *testing.T) {
	runParseCases(t, generated.NextAction.ParseOutput, []parseCase{
		{
			name: "search with a nested plan",
			completion: `{"thought": "Look it up.", "action": {"type": "search", "query": "go 1.22 release"},
"plan": [{"title": "Find it", "done": false, "substeps": [{"title": "Search", "done": true}]}]}`,
			check: func(t *testing.T, v any) {
				o := v.(generated.NextActionOutput)
				if o.Action.Search == nil || o.Action.Search.Query != "go 1.22 release" || o.Action.Browse != nil || o.Action.Answer != nil {
					t.Errorf("action %+v", o.Action)
				}
				if len(o.Plan) != 1 || len(o.Plan[0].Substeps) != 1 || !o.Plan[0].Substeps[0].Done {
					t.Errorf("plan %+v", o.Plan)
				}
			},
		},
		{
			name:       "answer in prose",
			completion: `I have enough to answer. {"thought": "Done.", "action": {"type": "answer", "text": "6 February 2024", "citations": ["https://go.dev/blog/go1.22"]}} Hope this helps!`,
			check: func(t *testing.T, v any) {
				o := v.(generated.NextActionOutput)
				if o.Action.Answer == nil || o.Action.Answer.Text != "6 February 2024" || len(o.Action.Answer.Citations) != 1 {
					t.Errorf("action %+v", o.Action)
				}
			},
		},
		{
			name:       "unknown action type",
			completion: `{"thought": "Hmm.", "action": {"type": "email", "to": "someone"}}`,
			// No branch fits: the errors are those of the branch with the
			// fewest, the first on a tie.
			violations: []string{"/action required", "/action/type const"},
		},
		{
			name:       "browse without url",
			completion: `{"thought": "Read it.", "action": {"type": "browse", "href": "https://go.dev"}}`,
			violations: []string{"/action required"},
		},
		{
			name:       "search out of range",
			completion: `{"thought": "Wide search.", "action": {"type": "search", "query": "go", "max_results": 50}}`,
			violations: []string{"/action/max_results maximum"},
		},
	})
}

func TestParseOutputExtractEntities(t *testing.T) {
	runParseCases(t, generated.ExtractEntities.ParseOutput, []parseCase{
		{
			name: "fenced YAML",
			completion: "Here are the entities:\n\n```yaml\nentities:\n  - name: Marie Curie\n    kind: person\n    mentions: 2\n" +
				"    attributes: {born: \"1867\"}\n    first_seen: {start: 0, end: 11}\n  - name: Paris\n    kind: place\n    mentions: 1\n" +
				"language: fr\nconfidence: null\n```\n",
			check: func(t *testing.T, v any) {
				o := v.(generated.ExtractEntitiesOutput)
				if o.Language != generated.ExtractEntitiesOutputLanguageFr || o.Confidence != nil || len(o.Entities) != 2 {
					t.Fatalf("got %+v", o)
				}
				e := o.Entities[0]
				if e.Kind != generated.ExtractEntitiesOutputEntitiesItemKindPerson || e.Attributes["born"] != "1867" || e.FirstSeen == nil || e.FirstSeen.End != 11 {
					t.Errorf("entity %+v", e)
				}
			},
		},
		{
			name:       "whole completion is YAML",
			completion: "entities: []\nlanguage: en\nconfidence: 0.5\n",
			check: func(t *testing.T, v any) {
				o := v.(generated.ExtractEntitiesOutput)
				if o.Entities == nil || *o.Confidence != 0.5 {
					t.Errorf("got %+v", o)
				}
			},
		},
		{
			name:       "unquoted number attribute and bad kind",
			completion: "```yaml\nentities:\n  - {name: Curie, kind: scientist, mentions: 0, attributes: {born: 1867}}\nlanguage: fr\n```",
			violations: []string{"/entities/0/attributes/born type", "/entities/0/kind enum", "/entities/0/mentions minimum"},
		},
	})
}

// TestParseOutputMemberNames checks that ParseOutput rejects the members
// that encoding/json would decode although the checks did not read them:
// names in another case than a property's, at any depth, and members given
// twice (decoded into the first value). Before, the first two returned
// err == nil with Sentiment == "bogus" and ChurnRisk == 5.
func TestParseOutputMemberNames(t *testing.T) {
	const summary = `"main_reason": "Billing", "action_items": [], "summary": "Charged twice."`
	runParseCases(t, generated.SummarizeCustomerInteraction.ParseOutput, []parseCase{
		{
			name:       "a property in another case",
			completion: `{"sentiment": "positive", "Sentiment": "bogus", ` + summary + `}`,
			violations: []string{"/Sentiment properties"},
		},
		{
			name:       "a property in another case alone",
			completion: `{"SENTIMENT": "bogus", "sentiment": "positive", ` + summary + `}`,
			violations: []string{"/SENTIMENT properties"},
		},
		{
			name:       "a property given twice",
			completion: `{"sentiment": "bogus", ` + summary + `, "sentiment": "positive"}`,
			violations: []string{"/sentiment duplicate", "/sentiment enum"},
		},
	})
	const ticket = `"category": "billing", "priority": "high", "summary": "Charged twice for March.", "actions": []`
	runParseCases(t, generated.TriageTicket.ParseOutput, []parseCase{
		{
			name:       "a nested property in another case",
			completion: `{` + ticket + `, "customer": {"sentiment": "negative", "churn_risk": 0.5, "Churn_Risk": 5}}`,
			violations: []string{"/customer/Churn_Risk properties"},
		},
		{
			name:       "an optional nested property in another case",
			completion: `{` + ticket + `, "customer": {"sentiment": "negative", "Churn_risk": 5}}`,
			violations: []string{"/customer/Churn_risk properties"},
		},
		{
			// Decoding would merge the two objects: {"sentiment": "negative", "churn_risk": 5}.
			name:       "an object given twice",
			completion: `{` + ticket + `, "customer": {"sentiment": "negative", "churn_risk": 5}, "customer": {"sentiment": "negative"}}`,
			violations: []string{"/customer duplicate", "/customer/churn_risk maximum"},
		},
		{
			name:       "a member given twice in an array item",
			completion: `{"category": "billing", "priority": "high", "summary": "Charged twice for March.", "customer": {"sentiment": "negative"}, "actions": [{"owner": "billing", "task": "Refund", "task": "Refund it"}]}`,
			violations: []string{"/actions/0/task duplicate"},
		},
		{
			name:       "a number beyond the limits",
			completion: `{` + ticket + `, "customer": {"sentiment": "negative", "churn_risk": 1e-999999}}`,
			violations: []string{"/customer/churn_risk number"},
		},
	})
	runParseCases(t, generated.NextAction.ParseOutput, []parseCase{
		{
			// UnmarshalJSON would read "TYPE" as the discriminator and decode a browse action.
			name:       "a discriminator in another case",
			completion: `{"thought": "Look it up.", "action": {"type": "search", "query": "go", "TYPE": "browse"}}`,
			violations: []string{"/action/TYPE properties"},
		},
		{
			name:       "a variant property in another case",
			completion: `{"thought": "Look it up.", "action": {"type": "search", "query": "go", "Max_Results": 50}}`,
			violations: []string{"/action/Max_Results properties"},
		},
	})
	runParseCases(t, generated.ExtractEntities.ParseOutput, []parseCase{
		{
			name:       "a YAML key in another case",
			completion: "entities: []\nlanguage: en\nLanguage: xx\n",
			violations: []string{"/Language properties"},
		},
		{
			name:       "a YAML key given twice",
			completion: "entities: []\nlanguage: xx\nlanguage: en\n",
			errIs:      yamlout.ErrInvalidYAML,
		},
	})
}

// TestParseOutputErrorsArePointers checks the typed errors a caller uses
// to build a retry prompt.
func TestParseOutputErrorsArePointers(t *testing.T) {
	_, err := generated.SummarizeCustomerInteraction.ParseOutput(`{"main_reason": "x", "sentiment": "angry", "action_items": [], "summary": "s"}`)
	var es output.Errors
	if !errors.As(err, &es) || len(es) != 1 {
		t.Fatalf("err = %v, want one output.Error", err)
	}
	if e := es[0]; e.Pointer != "/sentiment" || e.Keyword != "enum" || !strings.Contains(e.Message, "positive") {
		t.Errorf("got %+v", e)
	}
}

// TestParseOutputLenient: the generated ParseOutput reads what models
// write, led by the schema (x-aliases included), reports each repair, and
// parses strictly when asked.
func TestParseOutputLenient(t *testing.T) {
	const answer = "Here is the triage:\n```json\n{\n  // routed by the model\n  category: defect,\n  priority: 'HIGH',\n" +
		"  summary: \"The customer was charged twice and wants a refund.\",\n" +
		"  customer: {sentiment: Negative, churn_risk: \"0.4\"},\n" +
		"  actions: [{owner: billing, task: \"Refund the duplicate\", due_in_hours: 24.0},],\n  tags: refund,\n}\n```\n"
	var fixes []output.Fix
	got, err := generated.TriageTicket.ParseOutput(answer, output.Fixes(&fixes))
	if err != nil {
		t.Fatal(err)
	}
	risk, hours := 0.4, 24
	want := generated.TriageTicketOutput{
		Category: generated.TriageTicketOutputCategoryBug,
		Priority: generated.TriageTicketOutputPriorityHigh,
		Summary:  "The customer was charged twice and wants a refund.",
		Customer: generated.TriageTicketOutputCustomer{Sentiment: generated.TriageTicketOutputCustomerSentimentNegative, ChurnRisk: &risk},
		Actions:  []generated.TriageTicketOutputActionsItem{{Owner: generated.TriageTicketOutputActionsItemOwnerBilling, Task: "Refund the duplicate", DueInHours: &hours}},
		Tags:     []string{"refund"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("value (-want +got)\n%s", d)
	}
	// The differential check: the schema compiled by jsonschema agrees
	// that the repaired value is valid.
	req, err := generated.TriageTicket.Request(generated.TriageTicketFeed{Subject: "s", Body: "b", RecentTickets: []generated.TriageTicketRecentTicketsItem{}})
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := json.Marshal(got)
	if err := output.MustCompileSchema(string(req.OutputSchema)).Validate(doc, nil); err != nil {
		t.Errorf("jsonschema rejects the repaired value %s: %v", doc, err)
	}
	var fs []string
	for _, f := range fixes {
		fs = append(fs, f.String())
	}
	wantFixes := []string{ // in the order of the answer
		"comment removed", "unquoted key", "unquoted key", "unquoted key", "unquoted key", "unquoted key", "unquoted key", "trailing comma removed",
		"/category: unquoted string", "/category: enum value matched by its alias",
		"/priority: single-quoted string", "/priority: enum value matched ignoring case and punctuation",
		"/customer: unquoted key", "/customer: unquoted key",
		"/customer/sentiment: unquoted string", "/customer/sentiment: enum value matched ignoring case and punctuation",
		"/customer/churn_risk: number read from a string",
		"/actions: trailing comma removed",
		"/actions/0: unquoted key", "/actions/0: unquoted key", "/actions/0: unquoted key",
		"/actions/0/owner: unquoted string",
		"/actions/0/due_in_hours: integral number made an integer",
		"/tags: unquoted string", "/tags: single value made a one-item list",
	}
	if d := cmp.Diff(wantFixes, fs); d != "" {
		t.Errorf("fixes (-want +got)\n%s", d)
	}

	if _, err := generated.TriageTicket.ParseOutput(answer, output.Strict(), output.Fixes(&fixes)); !errors.Is(err, output.ErrInvalidJSON) || fixes != nil {
		t.Errorf("strict: got %v and fixes %v, want ErrInvalidJSON and none", err, fixes)
	}
	if _, err := generated.TriageTicket.ParseOutput(`{"category": "billing", "priority": "high", "summary": "Charged twice for March.", "customer": {"sentiment": "neg`); !errors.Is(err, output.ErrTruncated) {
		t.Errorf("truncated: got %v, want ErrTruncated", err)
	}
}

// TestCorrection: the generated Correction quotes what ParseOutput
// rejected, and the schema when the answer held no JSON.
func TestCorrection(t *testing.T) {
	_, err := generated.TriageTicket.ParseOutput(`{"category": "refunds", "priority": "high", "summary": "Charged twice in March.", "customer": {"sentiment": "negative"}, "actions": []}`)
	want := `Your answer does not fit the JSON Schema it must follow:
- at /category: value must be one of "billing", "bug", "feature_request", "account", "other"
Reply again with the corrected JSON value, and nothing else.`
	if got := generated.TriageTicket.Correction(err); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	_, err = generated.TriageTicket.ParseOutput("Sorry, I cannot help with that.")
	got := generated.TriageTicket.Correction(err)
	// The schema ends as the prompt file writes it: with the required list.
	if !strings.HasPrefix(got, "Your answer holds no JSON value that can be read.") || !strings.HasSuffix(got, `"required":["category","priority","summary","customer","actions"]}`) || strings.Contains(got, "x-aliases") {
		t.Errorf("no JSON: got %s", got)
	}
}

// streamer is the streaming API of a generated prompt with a JSON output.
type streamer[P, O any] interface {
	ParseOutput(string, ...output.ParseOption) (O, error)
	Stream() *output.Stream[P, O]
}

// checkStream feeds completion to a stream of p in chunks of every size
// given: no prefix is an error, and after End the partial's JSON is the
// JSON of ParseOutput's value.
func checkStream[P, O any](t *testing.T, p streamer[P, O], completion string, sizes ...int) {
	t.Helper()
	want, err := p.ParseOutput(completion)
	if err != nil {
		t.Fatalf("ParseOutput: %v", err)
	}
	wantJSON, _ := json.Marshal(want)
	for _, size := range sizes {
		s := p.Stream()
		for i := 0; i < len(completion); i += size {
			if _, err := s.WriteString(completion[i:min(i+size, len(completion))]); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Partial(); err != nil {
				t.Fatalf("chunks of %d, after %q: %v", size, completion[:min(i+size, len(completion))], err)
			}
		}
		got, err := s.End()
		if err != nil {
			t.Fatalf("End: %v", err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("End differs from ParseOutput (-want +got)\n%s", d)
		}
		partial, err := s.Partial()
		partialJSON, _ := json.Marshal(partial)
		if err != nil || string(partialJSON) != string(wantJSON) {
			t.Errorf("chunks of %d: final partial %s (%v), want %s", size, partialJSON, err, wantJSON)
		}
	}
}

// TestStreamExamples streams every example output of the prompts with a
// JSON output, as written and indented, and a messy answer.
func TestStreamExamples(t *testing.T) {
	for _, e := range generated.TriageTicket.Examples() {
		doc, _ := json.MarshalIndent(e.Output, "", "  ")
		checkStream(t, generated.TriageTicket, string(doc), 1, 7)
	}
	for _, e := range generated.NextAction.Examples() {
		doc, _ := json.Marshal(e.Output)
		checkStream(t, generated.NextAction, "Next:\n```json\n"+string(doc)+"\n```\n", 1, 16)
	}
	for _, e := range generated.SummarizeCustomerInteraction.Examples() {
		doc, _ := json.Marshal(e.Output)
		checkStream(t, generated.SummarizeCustomerInteraction, string(doc), 1, 5)
	}
	checkStream(t, generated.TriageTicket, "Here is the triage:\n{\n  // routed\n  category: defect, priority: 'HIGH',\n"+
		"  summary: \"The customer was charged twice and wants a refund.\",\n  customer: {sentiment: Negative, churn_risk: \"0.4\"},\n"+
		"  actions: [{owner: billing, task: \"Refund the duplicate\", due_in_hours: 24.0},],\n  tags: refund,\n}", 1, 3)
}

// TestParsePartialStates reads an answer cut at a point of interest.
func TestParsePartialStates(t *testing.T) {
	p, err := generated.TriageTicket.ParsePartial(`{"category": "billing", "priority": "high", "summary": "Charged tw`)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := p.Category.Get(); !ok || c != generated.TriageTicketOutputCategoryBilling || !p.Category.Done() {
		t.Errorf("category: %v %v", c, p.Category.State())
	}
	if p.Summary.Value() != "Charged tw" || p.Summary.State() != output.InProgress {
		t.Errorf("summary: %q %v", p.Summary.Value(), p.Summary.State())
	}
	if p.Customer.State() != output.Absent {
		t.Errorf("customer: %v", p.Customer.State())
	}
	b, _ := json.Marshal(p)
	if want := `{"category":"billing","priority":"high","summary":"Charged tw"}`; string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
}

// FuzzParseOutputLenient: whatever the answer, a value ParseOutput returns
// without error is valid for jsonschema too, and its partial never fails
// where the whole answer parses.
func FuzzParseOutputLenient(f *testing.F) {
	f.Add("Here:\n{category: defect, priority: 'HIGH', summary: \"Charged twice for the March invoice.\", customer: {sentiment: Negative, churn_risk: \"0.4\"}, actions: [{owner: billing, task: Refund, due_in_hours: 24.0},], tags: refund,}")
	f.Add(`{"category": "billing", "priority": "high", "summary": "Charged twice in March.", "customer": {"sentiment": "negative"}, "actions": []}`)
	req, err := generated.TriageTicket.Request(generated.TriageTicketFeed{Subject: "s", Body: "b", RecentTickets: []generated.TriageTicketRecentTicketsItem{}})
	if err != nil {
		f.Fatal(err)
	}
	schema := output.MustCompileSchema(string(req.OutputSchema))
	f.Fuzz(func(t *testing.T, answer string) {
		v, err := generated.TriageTicket.ParseOutput(answer)
		if err != nil {
			return
		}
		doc, _ := json.Marshal(v)
		if err := schema.Validate(doc, nil); err != nil {
			t.Fatalf("%q parsed to %s, which jsonschema rejects: %v", answer, doc, err)
		}
		if _, err := generated.TriageTicket.ParsePartial(answer); err != nil {
			t.Fatalf("%q parses, but its partial fails: %v", answer, err)
		}
	})
}
