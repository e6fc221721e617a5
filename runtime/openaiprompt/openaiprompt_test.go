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

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/internal/adapttest"
	"github.com/promptgen/promptgen/runtime/openaiprompt"
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			params, err := openaiprompt.Chat(tc.prompt, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			completion, err := client.Chat.Completions.New(ctx, params)
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
	params, err := openaiprompt.Chat(p, adapttest.Request("m"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(params.Messages[1])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"tool_calls":[{"id":"c1","function":{"arguments":"{}","name":"get_weather"},"type":"function"}],"role":"assistant"}`
	if string(b) != want {
		t.Errorf("assistant message = %s\nwant %s", b, want)
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
			params, err := openaiprompt.Chat(tc.prompt, tc.req)
			if err == nil {
				t.Fatalf("no error; params %+v", params)
			}
			for _, target := range tc.is {
				if !errors.Is(err, target) {
					t.Errorf("error %q is not %q", err, target)
				}
			}
			if !strings.Contains(err.Error(), tc.msg) || !strings.HasPrefix(err.Error(), "openaiprompt: ") {
				t.Errorf("error %q: want the prefix openaiprompt: and %q", err, tc.msg)
			}
			if len(params.Messages) != 0 || params.Model != "" {
				t.Errorf("params not zero on error: %+v", params)
			}
		})
	}
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
		params, err := openaiprompt.Chat(adapttest.Structured(), r)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		switch rf := params.ResponseFormat; {
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

// TestDependencies keeps the package to the standard library, the runtime
// and the SDK.
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(imp, "/")
		if strings.Contains(first, ".") && !strings.HasPrefix(imp, "github.com/openai/openai-go/v3") && !strings.HasPrefix(imp, "github.com/promptgen/promptgen/runtime") {
			t.Errorf("imports %s", imp)
		}
	}
}
