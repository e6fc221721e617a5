package openaiprompt_test

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/google/go-cmp/cmp"
	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/internal/adapttest"
	"github.com/promptgen/promptgen/runtime/openaiprompt"
	"github.com/promptgen/promptgen/runtime/params"
)

// response is a minimal chat completion.
const response = `{
  "id": "chatcmpl-test", "object": "chat.completion", "created": 1, "model": "gpt-4o-mini",
  "choices": [{"index": 0, "finish_reason": "stop", "logprobs": null,
    "message": {"role": "assistant", "content": "Jupiter.", "refusal": null}}],
  "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
}`

// TestSDK sends each adapted request with the real SDK client to a
// loopback server and compares the JSON that the client sent with
// testdata/<case>.json.
func TestSDK(t *testing.T) {
	srv := adapttest.Serve(t, "/chat/completions")
	srv.Respond(response)
	client := openai.NewClient(
		option.WithBaseURL(srv.URL),
		option.WithAPIKey("sk-test"),
		option.WithHTTPClient(srv.Client()),
		option.WithMaxRetries(0),
		option.WithRequestTimeout(10*time.Second),
	)
	const model = "gpt-4o-mini"
	for _, tc := range []struct {
		name   string
		prompt runtime.Prompt
		req    runtime.Request
	}{
		{"simple", adapttest.Simple(), adapttest.Request(model,
			runtime.Temperature(0.2), runtime.MaxTokens(300), runtime.TopP(0.9), runtime.Stop("END", "\n\n"),
			runtime.WithParameter("seed", 7), runtime.WithParameter("frequency_penalty", 0.5))},
		{"structured", adapttest.Structured(), adapttest.Request(model, func(r *runtime.Request) {
			r.OutputFormat = "json"
			r.OutputSchema = json.RawMessage(adapttest.StructuredSchema)
		})},
		{"structured_loose", adapttest.Structured(), adapttest.Request(model, func(r *runtime.Request) {
			r.OutputSchema = json.RawMessage(adapttest.LooseSchema) // outputFormat "" with a schema is JSON
		})},
		{"json_mode", adapttest.Structured(), adapttest.Request(model, func(r *runtime.Request) {
			r.OutputFormat = "json"
		})},
		{"tool_use", adapttest.ToolUse(), adapttest.Request(model, runtime.Temperature(0), runtime.WithParameter("stop", "STOP"))},
		{"images", adapttest.Images(), adapttest.Request(model)},
		{"tools", adapttest.ToolUse(), adapttest.Request(model, func(r *runtime.Request) {
			r.Tools, r.ToolChoice = adapttest.Tools(), "get_weather"
		})},
		{"knobs", adapttest.Simple(), adapttest.Request(model,
			runtime.WithParameter("n", 2), runtime.WithParameter("logit_bias", map[string]any{"50256": -100, "1734": 5.0}),
			runtime.WithParameter("logprobs", true), runtime.WithParameter("top_logprobs", 3),
			runtime.WithParameter("reasoning_effort", "low"), runtime.WithParameter("verbosity", "high"),
			runtime.WithParameter("tool_choice", "none"), runtime.WithParameter("presence_penalty", -0.5),
			runtime.WithExtraParameter("service_tier", "flex"), runtime.WithExtraParameter("prompt_cache_key", "promptgen"),
			runtime.WithExtraParameter("metadata", map[string]any{"run": "42"}))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := openaiprompt.Chat(tc.prompt, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			completion, err := client.Chat.Completions.New(ctx, body)
			if err != nil {
				t.Fatal(err)
			}
			if got := completion.Choices[0].Message.Content; got != "Jupiter." {
				t.Errorf("completion = %q, want %q", got, "Jupiter.")
			}
			adapttest.Golden(t, tc.name, srv.Last(t))
		})
	}
}

// TestAssistantToolCalls: an assistant message's own tool calls are sent
// like a tool_request's.
func TestAssistantToolCalls(t *testing.T) {
	p := runtime.Prompt{
		{Role: runtime.RoleUser, Content: "Weather?"},
		{Role: runtime.RoleAssistant, ToolCalls: []runtime.ToolCall{{ID: "c1", Name: "get_weather", Arguments: `{}`}}},
		{Role: runtime.RoleToolResult, ToolCallID: "c1", Content: "sunny"},
	}
	body, err := openaiprompt.Chat(p, adapttest.Request("m"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(body.Messages[1])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"tool_calls":[{"id":"c1","function":{"arguments":"{}","name":"get_weather"},"type":"function"}],"role":"assistant"}`
	if string(b) != want {
		t.Errorf("assistant message = %s\nwant %s", b, want)
	}
}

// TestToolResultTextParts: a tool_result of text parts is a tool message
// whose content is text parts, the one list it takes.
func TestToolResultTextParts(t *testing.T) {
	p := runtime.Prompt{
		{Role: runtime.RoleUser, Content: "Weather?"},
		{Role: runtime.RoleToolRequest, ToolCalls: []runtime.ToolCall{{ID: "c1", Name: "get_weather", Arguments: `{}`}}},
		{Role: runtime.RoleToolResult, ToolCallID: "c1", Parts: []runtime.Part{runtime.TextPart("sunny"), runtime.TextPart("18 °C")}},
	}
	body, err := openaiprompt.Chat(p, adapttest.Request("m"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(body.Messages[2])
	if err != nil {
		t.Fatal(err)
	}
	// From the API reference: a tool message's content is a string or an
	// array of text content parts.
	want := `{"content":[{"text":"sunny","type":"text"},{"text":"18 °C","type":"text"}],"tool_call_id":"c1","role":"tool"}`
	if string(b) != want {
		t.Errorf("tool message = %s\nwant %s", b, want)
	}
}

func TestChatErrors(t *testing.T) {
	user := runtime.Prompt{{Role: runtime.RoleUser, Content: "hi"}}
	for _, tc := range []struct {
		name   string
		prompt runtime.Prompt
		req    runtime.Request
		is     []error
		msg    string // a part of the message
	}{
		{"empty prompt", nil, adapttest.Request("m"), []error{runtime.ErrNoMessages}, "invalid prompt"},
		{"system not first", runtime.Prompt{{Role: runtime.RoleUser, Content: "hi"}, {Role: runtime.RoleSystem, Content: "be brief"}},
			adapttest.Request("m"), []error{runtime.ErrSystemNotFirst}, "message 1: role"},
		{"unmatched tool result", runtime.Prompt{{Role: runtime.RoleToolResult, ToolCallID: "x", Content: "1"}},
			adapttest.Request("m"), []error{runtime.ErrUnmatchedToolResult}, `"x"`},
		{"no model", user, adapttest.Request(""), []error{openaiprompt.ErrNoModel}, "WithDefaultModel"},
		{"images in tool results", adapttest.ToolImages(), adapttest.Request("m"), []error{openaiprompt.ErrToolResultImage},
			"openaiprompt: message 2: content[1]: a tool message of chat completions takes text only, not an image (send the images in a user message after the tool results)\n" +
				"message 3: content[0]: a tool message"},
		{"unsupported parameter", user, adapttest.Request("m", runtime.WithParameter("top_k", 40)),
			[]error{openaiprompt.ErrUnsupportedParameter}, `parameter "top_k": unsupported parameter (supported: frequency_penalty,`},
		{"typo", user, adapttest.Request("m", runtime.WithParameter("temprature", 0.1)),
			[]error{openaiprompt.ErrUnsupportedParameter}, `"temprature"`},
		{"temperature as a string", user, adapttest.Request("m", runtime.WithParameter("temperature", "hot")),
			[]error{openaiprompt.ErrInvalidParameter}, `parameter "temperature": invalid parameter: want a number, not a string`},
		{"fractional max_tokens", user, adapttest.Request("m", runtime.WithParameter("max_tokens", 10.5)),
			[]error{openaiprompt.ErrInvalidParameter}, "want an integer, not 10.5"},
		{"stop of numbers", user, adapttest.Request("m", runtime.WithParameter("stop", []any{"a", 1})),
			[]error{openaiprompt.ErrInvalidParameter}, "want a string or a list of strings"},
		{"reasoning effort misspelt", user, adapttest.Request("m", runtime.WithParameter("reasoning_effort", "hgih")),
			[]error{openaiprompt.ErrInvalidParameter}, `parameter "reasoning_effort": invalid parameter: want one of "none", "minimal", "low", "medium", "high", "xhigh", "max", not "hgih"`},
		{"tool_choice of Anthropic", user, adapttest.Request("m", runtime.WithParameter("tool_choice", "any")),
			[]error{openaiprompt.ErrInvalidParameter}, `want one of "auto", "none", "required", not "any"`},
		{"logit_bias of words", user, adapttest.Request("m", runtime.WithParameter("logit_bias", map[string]any{"the": 1})),
			[]error{openaiprompt.ErrInvalidParameter}, `parameter "logit_bias": invalid parameter: want a mapping from token IDs to integers, not the key "the"`},
		{"logit_bias of fractions", user, adapttest.Request("m", runtime.WithParameter("logit_bias", map[string]any{"1": 0.5})),
			[]error{openaiprompt.ErrInvalidParameter}, `not 0.5 for "1"`},
		{"logprobs as a string", user, adapttest.Request("m", runtime.WithParameter("logprobs", "yes")),
			[]error{openaiprompt.ErrInvalidParameter}, `want true or false, not a string`},
		{"max_tokens twice", user, adapttest.Request("m", runtime.MaxTokens(10), runtime.WithParameter("max_completion_tokens", 20)),
			[]error{openaiprompt.ErrInvalidParameter}, `"max_completion_tokens" and "max_tokens"`},
		{"every parameter problem", user, adapttest.Request("m", runtime.WithParameter("top_k", 1), runtime.WithParameter("seed", "x")),
			[]error{openaiprompt.ErrInvalidParameter, openaiprompt.ErrUnsupportedParameter}, `"seed"`},
		{"schema not an object", user, adapttest.Request("m", func(r *runtime.Request) {
			r.OutputFormat = "json"
			r.OutputSchema = json.RawMessage(`[1]`)
		}), []error{openaiprompt.ErrInvalidSchema}, "not a JSON object"},
		{"schema with trailing data", user, adapttest.Request("m", func(r *runtime.Request) {
			r.OutputSchema = json.RawMessage(`{"type":"object"} {}`)
		}), []error{openaiprompt.ErrInvalidSchema}, "data after"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := openaiprompt.Chat(tc.prompt, tc.req)
			if err == nil {
				t.Fatalf("no error; body %+v", body)
			}
			for _, target := range tc.is {
				if !errors.Is(err, target) {
					t.Errorf("error %q is not %q", err, target)
				}
			}
			if !strings.Contains(err.Error(), tc.msg) || !strings.HasPrefix(err.Error(), "openaiprompt: ") {
				t.Errorf("error %q: want the prefix openaiprompt: and %q", err, tc.msg)
			}
			if len(body.Messages) != 0 || body.Model != "" {
				t.Errorf("body not zero on error: %+v", body)
			}
		})
	}
}

// TestParameterTable: Chat maps every parameter that runtime/body gives
// OpenAI, and rejects the others as unsupported.
func TestParameterTable(t *testing.T) {
	user := runtime.Prompt{{Role: runtime.RoleUser, Content: "hi"}}
	for _, p := range params.All() {
		_, err := openaiprompt.Chat(user, adapttest.Request("m", runtime.WithParameter(p.Name, adapttest.SampleValue(p))))
		if p.Providers&params.OpenAI != 0 {
			if err != nil {
				t.Errorf("%s: %v", p.Name, err)
			}
		} else if !errors.Is(err, openaiprompt.ErrUnsupportedParameter) {
			t.Errorf("%s, not an OpenAI parameter: error %v, want ErrUnsupportedParameter", p.Name, err)
		}
	}
}

// TestExtraParameters: extra parameters are sent as they are, over the
// fields that the adapter set.
func TestExtraParameters(t *testing.T) {
	req := adapttest.Request("m", runtime.Temperature(0.5),
		runtime.WithExtraParameter("temperature", 1.5), runtime.WithExtraParameter("store", true))
	body, err := openaiprompt.Chat(runtime.Prompt{{Role: runtime.RoleUser, Content: "hi"}}, req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"messages":[{"content":"hi","role":"user"}],"model":"m","store":true,"temperature":1.5}`
	if got, _ := adapttest.Normalize(b); string(got) != mustNormalize(t, want) {
		t.Errorf("body = %s\nwant %s", got, want)
	}
	req.ExtraParameters["store"] = false // the body hold their own copy
	if b2, _ := json.Marshal(body); string(b2) != string(b) {
		t.Errorf("changing the Request changed the body: %s", b2)
	}
}

func mustNormalize(t *testing.T, s string) string {
	t.Helper()
	b, err := adapttest.Normalize([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestOutputFormats: only JSON outputs set a response format.
func TestOutputFormats(t *testing.T) {
	schema := json.RawMessage(adapttest.StructuredSchema)
	for _, tc := range []struct {
		format string
		schema json.RawMessage
		want   string // the response format's type; "" for none
	}{
		{"json", schema, "json_schema"},
		{"", schema, "json_schema"},
		{"json", nil, "json_object"},
		{"", nil, ""},
		{"yaml", schema, ""},
		{"text", schema, ""},
		{"xml", nil, ""},
	} {
		r := adapttest.Request("m", func(r *runtime.Request) { r.OutputFormat, r.OutputSchema = tc.format, tc.schema })
		body, err := openaiprompt.Chat(adapttest.Structured(), r)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		switch rf := body.ResponseFormat; {
		case rf.OfJSONSchema != nil:
			got = "json_schema"
		case rf.OfJSONObject != nil:
			got = "json_object"
		case rf.OfText != nil:
			got = "text"
		}
		if got != tc.want {
			t.Errorf("format %q, schema %v: response format %q, want %q", tc.format, tc.schema != nil, got, tc.want)
		}
	}
}

// TestDependencies keeps the package to the standard library, the runtime,
// the SDK and internal/strictschema (standard library only).
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(imp, "/")
		if strings.Contains(first, ".") && !strings.HasPrefix(imp, "github.com/openai/openai-go/v3") && !strings.HasPrefix(imp, "github.com/promptgen/promptgen/runtime") &&
			imp != "github.com/promptgen/promptgen/internal/strictschema" {
			t.Errorf("imports %s", imp)
		}
	}
}

// TestToolCalls reads the function calls of a response's message, and
// rejects a strict tool whose parameters strict mode would refuse.
func TestToolCalls(t *testing.T) {
	var c openai.ChatCompletion
	if err := json.Unmarshal([]byte(`{"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
		"tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}}]}`), &c); err != nil {
		t.Fatal(err)
	}
	got := openaiprompt.ToolCalls(c.Choices[0].Message)
	want := []runtime.ToolCall{{ID: "call_1", Name: "get_weather", Arguments: `{"city": "Paris"}`}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ToolCalls (-want +got)\n%s", d)
	}
	loose := runtime.Tool{Name: "lookup", Strict: true, Parameters: json.RawMessage(`{"type": "object", "properties": {"q": {"type": "string"}}}`)}
	_, err := openaiprompt.Chat(adapttest.Simple(), adapttest.Request("m", func(r *runtime.Request) { r.Tools = []runtime.Tool{loose} }))
	if !errors.Is(err, openaiprompt.ErrInvalidSchema) || !strings.Contains(err.Error(), `tool "lookup"`) {
		t.Errorf("strict tool with loose parameters: got %v", err)
	}
}
