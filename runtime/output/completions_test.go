package output

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// summary is the hand-written output type of the spec's customer
// interaction summary; summarySchema is its hand-written schema.
type summary struct {
	MainReason  string   `json:"main_reason"`
	Sentiment   string   `json:"sentiment"`
	ActionItems []string `json:"action_items"`
	Summary     string   `json:"summary"`
}

const summarySchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "main_reason": {"type": "string", "minLength": 1},
    "sentiment": {"type": "string", "enum": ["positive", "neutral", "negative"]},
    "action_items": {"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": 5},
    "summary": {"type": "string"}
  },
  "required": ["main_reason", "sentiment", "action_items", "summary"],
  "additionalProperties": false
}`

var (
	summaryValidator = MustCompileSchema(summarySchema)
	summaryList      = MustCompileSchema(`{"type": "array", "items": ` + summarySchema + `}`)
)

const okJSON = `{"main_reason": "Billing query", "sentiment": "neutral", "action_items": ["Refund the fee"], "summary": "The customer asked about a fee. It was refunded."}`

var okSummary = summary{"Billing query", "neutral", []string{"Refund the fee"}, "The customer asked about a fee. It was refunded."}

// completions are realistic LLM replies with what Extract and Parse (with
// the hand-written schema) make of them. They also seed the fuzz targets.
var completions = []struct {
	name       string
	completion string
	extracted  string   // what Extract returns, when it succeeds
	extractErr error    // what Extract fails with (errors.Is)
	want       *summary // what Parse returns, when it succeeds
	violations []string // "pointer keyword" of each Error Parse reports
}{
	{name: "bare", completion: okJSON, extracted: okJSON, want: &okSummary},
	{name: "bare with blank lines", completion: "\n\n  " + okJSON + "\n\n", extracted: okJSON, want: &okSummary},
	{
		name:       "fenced after a sentence",
		completion: "Sure! Here's the JSON:\n\n```json\n" + okJSON + "\n```",
		extracted:  okJSON, want: &okSummary,
	},
	{
		name:       "untagged fence and a closing remark",
		completion: "```\n" + okJSON + "\n```\nLet me know if you need anything else.",
		extracted:  okJSON, want: &okSummary,
	},
	{name: "tilde fence", completion: "~~~json\n" + okJSON + "\n~~~\n", extracted: okJSON, want: &okSummary},
	{name: "upper-case tag", completion: "```JSON\n" + okJSON + "\n```", extracted: okJSON, want: &okSummary},
	{name: "one-line fence", completion: "Result: ```json " + okJSON + "```", extracted: okJSON, want: &okSummary},
	{
		name:       "prose before, no fence",
		completion: "Here is the summary of the interaction: " + okJSON,
		extracted:  okJSON, want: &okSummary,
	},
	{
		name:       "trailing explanation",
		completion: okJSON + "\n\nI rated the sentiment neutral because the customer stayed calm {even} when [annoyed].",
		extracted:  okJSON, want: &okSummary,
	},
	{
		name:       "braces and fences inside strings",
		completion: "Answer: " + `{"main_reason": "Template {name} broke", "sentiment": "negative", "action_items": ["Fix \"}\" and ']' in ` + "```" + `code` + "```" + `"], "summary": "A {literal} brace: }"}`,
		extracted:  `{"main_reason": "Template {name} broke", "sentiment": "negative", "action_items": ["Fix \"}\" and ']' in ` + "```" + `code` + "```" + `"], "summary": "A {literal} brace: }"}`,
		want:       &summary{"Template {name} broke", "negative", []string{"Fix \"}\" and ']' in ```code```"}, "A {literal} brace: }"},
	},
	{
		name:       "stray braces in prose before the JSON",
		completion: "You asked for {main_reason, sentiment} in [JSON format]. Here it is:\n" + okJSON,
		extracted:  okJSON, want: &okSummary,
	},
	{
		name:       "reasoning block first",
		completion: "<think>The schema wants {\"sentiment\": ...}; the tone is [calm], so neutral.</think>\n" + okJSON,
		extracted:  okJSON, want: &okSummary,
	},
	{
		name:       "inline example then the fenced answer",
		completion: `The format is {"sentiment": "positive"}. My answer:` + "\n```json\n" + okJSON + "\n```",
		extracted:  okJSON, want: &okSummary,
	},
	{
		name:       "two bare objects: the first wins",
		completion: okJSON + "\n\nOr, more briefly:\n" + `{"main_reason": "Fee"}`,
		extracted:  okJSON, want: &okSummary,
	},
	{
		name:       "two fenced blocks: the first wins",
		completion: "```json\n" + okJSON + "\n```\nAlternative:\n```json\n{}\n```",
		extracted:  okJSON, want: &okSummary,
	},
	{
		name:       "a citation before the object",
		completion: "As noted in [1], the fee was waived.\n" + okJSON,
		extracted:  "[1]", want: &okSummary,
	},
	{
		name:       "markdown checkbox before the object",
		completion: "- [ ] follow up\n" + okJSON,
		extracted:  "[ ]", want: &okSummary,
	},
	{
		name:       "truncated by max_tokens",
		completion: `{"main_reason": "Billing query", "sentiment": "neutral", "action_items": ["Refund the f`,
		extractErr: ErrTruncated,
	},
	{
		name:       "truncated inside an unclosed fence",
		completion: "```json\n{\"main_reason\": \"Billing query\",\n  \"sentiment\": ",
		extractErr: ErrTruncated,
	},
	{
		name:       "trailing comma in a json fence",
		completion: "```json\n{\"main_reason\": \"x\", \"sentiment\": \"neutral\",}\n```\n" + okJSON,
		extractErr: ErrInvalidJSON,
	},
	{
		name:       "python dict",
		completion: "{'main_reason': 'Billing', 'sentiment': 'neutral'}",
		extractErr: ErrNoJSON,
	},
	{name: "refusal", completion: "I'm sorry, but I can't help with that.", extractErr: ErrNoJSON},
	{name: "empty", completion: "", extractErr: ErrNoJSON},
	{
		name:       "wrong enum value",
		completion: `{"main_reason": "x", "sentiment": "angry", "action_items": [], "summary": "s"}`,
		extracted:  `{"main_reason": "x", "sentiment": "angry", "action_items": [], "summary": "s"}`,
		violations: []string{"/sentiment enum"},
	},
	{
		name:       "missing required",
		completion: "```json\n" + `{"main_reason": "x", "sentiment": "neutral"}` + "\n```",
		extracted:  `{"main_reason": "x", "sentiment": "neutral"}`,
		violations: []string{" required"},
	},
	{
		name:       "extra field under additionalProperties false",
		completion: `{"main_reason": "x", "sentiment": "neutral", "action_items": [], "summary": "s", "confidence": 0.9}`,
		extracted:  `{"main_reason": "x", "sentiment": "neutral", "action_items": [], "summary": "s", "confidence": 0.9}`,
		violations: []string{" additionalProperties"},
	},
	{
		// encoding/json would decode "Sentiment" into the Sentiment field.
		name:       "a member named in another case",
		completion: `{"main_reason": "x", "sentiment": "positive", "Sentiment": "bogus", "action_items": [], "summary": "s"}`,
		extracted:  `{"main_reason": "x", "sentiment": "positive", "Sentiment": "bogus", "action_items": [], "summary": "s"}`,
		violations: []string{" additionalProperties", "/Sentiment properties"},
	},
	{
		name:       "a member given twice",
		completion: `{"main_reason": "x", "sentiment": "bogus", "action_items": [], "summary": "s", "sentiment": "positive"}`,
		extracted:  `{"main_reason": "x", "sentiment": "bogus", "action_items": [], "summary": "s", "sentiment": "positive"}`,
		violations: []string{"/sentiment duplicate"},
	},
	{
		// Not checked against the schema: its arithmetic would take long.
		name:       "a number beyond the limits",
		completion: `{"main_reason": "x", "sentiment": "neutral", "action_items": [1.5e999999], "summary": "s"}`,
		extracted:  `{"main_reason": "x", "sentiment": "neutral", "action_items": [1.5e999999], "summary": "s"}`,
		violations: []string{"/action_items/0 number"},
	},
	{
		name:       "string instead of array",
		completion: `{"main_reason": "x", "sentiment": "neutral", "action_items": "call back", "summary": "s"}`,
		extracted:  `{"main_reason": "x", "sentiment": "neutral", "action_items": "call back", "summary": "s"}`,
		violations: []string{"/action_items type"},
	},
	{
		name:       "wrong element type and empty element",
		completion: `{"main_reason": "x", "sentiment": "neutral", "action_items": ["a", "", 3], "summary": "s"}`,
		extracted:  `{"main_reason": "x", "sentiment": "neutral", "action_items": ["a", "", 3], "summary": "s"}`,
		violations: []string{"/action_items/1 minLength", "/action_items/2 type"},
	},
	{
		name:       "null and a number where strings belong",
		completion: `{"main_reason": null, "sentiment": 2, "action_items": [], "summary": "s"}`,
		extracted:  `{"main_reason": null, "sentiment": 2, "action_items": [], "summary": "s"}`,
		violations: []string{"/main_reason type", "/sentiment type"},
	},
	{
		name:       "too many items",
		completion: `{"main_reason": "x", "sentiment": "neutral", "action_items": ["1","2","3","4","5","6"], "summary": "s"}`,
		extracted:  `{"main_reason": "x", "sentiment": "neutral", "action_items": ["1","2","3","4","5","6"], "summary": "s"}`,
		violations: []string{"/action_items maxItems"},
	},
	{
		name:       "unicode",
		completion: "Voilà 👇\n```json\n" + `{"main_reason": "Remboursement refusé 😡", "sentiment": "negative", "action_items": ["返金する", "\u00e9t\u00e9"], "summary": "Client mécontent."}` + "\n```",
		extracted:  `{"main_reason": "Remboursement refusé 😡", "sentiment": "negative", "action_items": ["返金する", "\u00e9t\u00e9"], "summary": "Client mécontent."}`,
		want:       &summary{"Remboursement refusé 😡", "negative", []string{"返金する", "été"}, "Client mécontent."},
	},
	{
		name:       "CRLF line endings",
		completion: "Here you go:\r\n```json\r\n{\r\n  \"main_reason\": \"Billing query\",\r\n  \"sentiment\": \"neutral\",\r\n  \"action_items\": [\"Refund the fee\"],\r\n  \"summary\": \"The customer asked about a fee. It was refunded.\"\r\n}\r\n```\r\n",
		extracted:  "{\r\n  \"main_reason\": \"Billing query\",\r\n  \"sentiment\": \"neutral\",\r\n  \"action_items\": [\"Refund the fee\"],\r\n  \"summary\": \"The customer asked about a fee. It was refunded.\"\r\n}",
		want:       &okSummary,
	},
	{name: "byte order mark", completion: "\uFEFF" + okJSON, extracted: okJSON, want: &okSummary},
	{
		name:       "nested fence language is not json",
		completion: "```python\nprint({'a': 1})\n```\n" + okJSON,
		extracted:  okJSON, want: &okSummary,
	},
}

// TestCompletions runs the completions through Extract and through Parse.
func TestCompletions(t *testing.T) {
	for _, tt := range completions {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Extract(tt.completion)
			switch {
			case tt.extractErr != nil:
				if !errors.Is(err, tt.extractErr) {
					t.Fatalf("Extract = %q, %v; want error %v", doc, err, tt.extractErr)
				}
			case err != nil || string(doc) != tt.extracted:
				t.Fatalf("Extract = %q, %v;\nwant %q", doc, err, tt.extracted)
			}
			got, err := Parse[summary](tt.completion, summaryValidator)
			switch {
			case tt.extractErr != nil:
				if !errors.Is(err, tt.extractErr) {
					t.Errorf("Parse error = %v; want %v", err, tt.extractErr)
				}
			case tt.violations != nil:
				if diff := cmp.Diff(tt.violations, violations(err)); diff != "" {
					t.Errorf("Parse error = %v; violations (-want +got):\n%s", err, diff)
				}
			case err != nil:
				t.Errorf("Parse error = %v", err)
			default:
				if diff := cmp.Diff(*tt.want, got); diff != "" {
					t.Errorf("Parse (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// violations returns "pointer keyword" for each Error in err.
func violations(err error) []string {
	var es Errors
	if !errors.As(err, &es) {
		return []string{"not Errors: " + err.Error()}
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Pointer+" "+e.Keyword)
	}
	return out
}

func TestArrays(t *testing.T) {
	completion := "Here are both:\n[" + okJSON + ", " + okJSON + "]\nDone."
	got, err := Parse[[]summary](completion, summaryList)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]summary{okSummary, okSummary}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	_, err = Parse[[]summary](`[{"main_reason": "x"}]`, summaryList)
	if diff := cmp.Diff([]string{"/0 required"}, violations(err)); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
}

// TestParseTargets checks which values Parse searches for, by Go type.
func TestParseTargets(t *testing.T) {
	const completion = "See [1]: " + `{"a": 1}`
	if got, err := Parse[*struct{ A int }](completion, nil); err != nil || got.A != 1 {
		t.Errorf("Parse[*struct] = %v, %v", got, err)
	}
	if got, err := Parse[map[string]int](completion, nil); err != nil || got["a"] != 1 {
		t.Errorf("Parse[map] = %v, %v", got, err)
	}
	if got, err := Parse[[]int](completion, nil); err != nil || len(got) != 1 {
		t.Errorf("Parse[[]int] = %v, %v", got, err)
	}
	if got, err := Parse[json.RawMessage](completion, nil); err != nil || string(got) != "[1]" {
		t.Errorf("Parse[json.RawMessage] = %s, %v", got, err)
	}
}

func TestErrorMessages(t *testing.T) {
	tests := []struct {
		completion string
		want       string
	}{
		{strings.Repeat(" ", MaxCompletion+1), "the completion is larger than 1048576 bytes"},
		{`Sure: {"a": [1, 2}`, `invalid JSON: unexpected '}' at offset 17 in the value at offset 6`},
		{"{\"a\": \"b", "the JSON value is truncated: the text ends inside the value at offset 0"},
		{"\uFEFFOK: {\"a\": [1,]}", "invalid JSON: unexpected ']' at offset 16 in the value at offset 7"},
		{
			`{"main_reason": "x", "sentiment": "angry", "action_items": [""], "summary": "s", "extra": 1}`,
			`additionalProperties 'extra' not allowed
/action_items/0: length must be >= 1, but got 0
/sentiment: value must be one of "positive", "neutral", "negative"`,
		},
		{`{"main_reason": "x"}`, `missing properties: 'sentiment', 'action_items', 'summary'`},
		{
			`{"main_reason": "x", "sentiment": "positive", "Sentiment": "bogus", "action_items": [], "summary": "s", "summary": "t"}`,
			`additionalProperties 'Sentiment' not allowed
/Sentiment: member "Sentiment" is not "sentiment": names are case-sensitive
/summary: member "summary" is given more than once`,
		},
		{
			`{"main_reason": "x", "sentiment": "neutral", "action_items": [1e1000], "summary": "s"}`,
			`/action_items/0: number beyond the limits: at most 100 bytes, with an exponent of at most 999`,
		},
	}
	for _, tt := range tests {
		_, err := Parse[summary](tt.completion, summaryValidator)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%.40q) error:\n%v\nwant:\n%s", tt.completion, err, tt.want)
		}
	}
}

// TestDecodeTypeErrors covers Decode without a schema: a value of the
// wrong type becomes one Error with keyword "type".
func TestDecodeTypeErrors(t *testing.T) {
	var s summary
	err := Decode([]byte(`{"action_items": ["a", 2]}`), &s, nil)
	want := Errors{{Pointer: "/action_items/1", Keyword: "type", Message: "got number, want string"}}
	if diff := cmp.Diff(want, err); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestConcurrentUse shares one compiled Schema between goroutines, as
// generated packages do; run it with -race.
func TestConcurrentUse(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := completions[i%len(completions)]
			for range 50 {
				_, err := Parse[summary](c.completion, summaryValidator)
				if (err == nil) != (c.extractErr == nil && c.violations == nil) {
					t.Errorf("%s: Parse error = %v", c.name, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
