package anthropicprompt_test

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/google/go-cmp/cmp"
	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/anthropicprompt"
	"github.com/promptgen/promptgen/runtime/internal/adapttest"
	"github.com/promptgen/promptgen/runtime/params"
)

// Minimal messages responses: text, and a call of the output tool.
const (
	textResponse = `{
  "id": "msg_test", "type": "message", "role": "assistant", "model": "claude-test",
  "content": [{"type": "text", "text": "Jupiter."}],
  "stop_reason": "end_turn", "stop_sequence": null,
  "usage": {"input_tokens": 1, "output_tokens": 1}
}`
	toolResponse = `{
  "id": "msg_test", "type": "message", "role": "assistant", "model": "claude-test",
  "content": [
    {"type": "text", "text": "Here are the items."},
    {"type": "tool_use", "id": "toolu_1", "name": "output", "input": {"items": [{"owner": "Bob", "task": "send the report", "due": null}]}}
  ],
  "stop_reason": "tool_use", "stop_sequence": null,
  "usage": {"input_tokens": 1, "output_tokens": 1}
}`
)

// TestSDK sends each adapted request with the real SDK client to a
// loopback server and compares the JSON that the client sent with
// testdata/<case>.json.
func TestSDK(t *testing.T) {
	// An API key in the environment keeps the client from looking for
	// credential files; the options below override it anyway.
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-test")
	srv := adapttest.Serve(t, "/v1/messages")
	client := anthropic.NewClient(
		option.WithBaseURL(srv.URL),
		option.WithAPIKey("sk-ant-test"),
		option.WithHTTPClient(srv.Client()),
		option.WithMaxRetries(0),
		option.WithRequestTimeout(10*time.Second),
	)
	const model = "claude-sonnet-4-5"
	for _, tc := range []struct {
		name       string
		prompt     runtime.Prompt
		req        runtime.Request
		response   string
		completion string // what Completion returns for the response
	}{
		{"simple", adapttest.Simple(), adapttest.Request(model,
			runtime.Temperature(0.2), runtime.MaxTokens(300), runtime.TopP(0.9), runtime.Stop("END", "\n\n"),
			runtime.WithParameter("top_k", 40)),
			textResponse, "Jupiter."},
		{"structured", adapttest.Structured(), adapttest.Request(model, func(r *runtime.Request) {
			r.OutputFormat = "json"
			r.OutputSchema = json.RawMessage(adapttest.StructuredSchema)
		}), toolResponse, `{"items": [{"owner": "Bob", "task": "send the report", "due": null}]}`},
		{"structured_loose", adapttest.Structured(), adapttest.Request(model, func(r *runtime.Request) {
			r.OutputSchema = json.RawMessage(adapttest.LooseSchema) // outputFormat "" with a schema is JSON
		}), toolResponse, `{"items": [{"owner": "Bob", "task": "send the report", "due": null}]}`},
		{"images", adapttest.Images(), adapttest.Request(model), textResponse, "Jupiter."},
		{"tool_images", adapttest.ToolImages(), adapttest.Request(model), textResponse, "Jupiter."},
		{"tool_use", adapttest.ToolUse(), adapttest.Request(model, runtime.Temperature(0), runtime.WithParameter("stop_sequences", "STOP")),
			textResponse, "Jupiter."},
		{"tools", adapttest.ToolUse(), adapttest.Request(model, func(r *runtime.Request) {
			r.Tools, r.ToolChoice = adapttest.Tools(), "required"
		}), textResponse, "Jupiter."},
		{"knobs", adapttest.Simple(), adapttest.Request(model, runtime.WithParameter("tool_choice", "required"),
			runtime.WithExtraParameter("thinking", map[string]any{"type": "enabled", "budget_tokens": 2048}),
			runtime.WithExtraParameter("service_tier", "standard_only"), runtime.WithExtraParameter("metadata", map[string]any{"user_id": "u1"})),
			textResponse, "Jupiter."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := anthropicprompt.Messages(tc.prompt, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			srv.Respond(tc.response)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			msg, err := client.Messages.New(ctx, body)
			if err != nil {
				t.Fatal(err)
			}
			if got := anthropicprompt.Completion(msg); got != tc.completion {
				t.Errorf("Completion = %q, want %q", got, tc.completion)
			}
			adapttest.Golden(t, tc.name, srv.Last(t))
		})
	}
}

// TestTurns checks the merging of consecutive messages into turns, and
// the default max_tokens.
func TestTurns(t *testing.T) {
	p := runtime.Prompt{
		{Role: runtime.RoleUser, Content: "Weather?"},
		{Role: runtime.RoleUser, Content: "In Rome."},
		{Role: runtime.RoleAssistant, Content: "Checking."},
		{Role: runtime.RoleAssistant, ToolCalls: []runtime.ToolCall{{ID: "c1", Name: "get_weather", Arguments: `{"city":"Rome"}`}}},
		{Role: runtime.RoleToolResult, ToolCallID: "c1", Content: "sunny"},
		{Role: runtime.RoleUser, Content: "Thanks. Tomorrow?"},
	}
	body, err := anthropicprompt.Messages(p, adapttest.Request("m"))
	if err != nil {
		t.Fatal(err)
	}
	if body.System != nil {
		t.Errorf("system = %v, want none", body.System)
	}
	if body.MaxTokens != anthropicprompt.DefaultMaxTokens {
		t.Errorf("max_tokens = %d, want %d", body.MaxTokens, anthropicprompt.DefaultMaxTokens)
	}
	b, err := json.Marshal(body.Messages)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"content":[{"text":"Weather?","type":"text"},{"text":"In Rome.","type":"text"}],"role":"user"},` +
		`{"content":[{"text":"Checking.","type":"text"},{"id":"c1","input":{"city":"Rome"},"name":"get_weather","type":"tool_use"}],"role":"assistant"},` +
		`{"content":[{"tool_use_id":"c1","content":[{"text":"sunny","type":"text"}],"type":"tool_result"},{"text":"Thanks. Tomorrow?","type":"text"}],"role":"user"}]`
	if string(b) != want {
		t.Errorf("messages =\n%s\nwant\n%s", b, want)
	}
}

func TestCompletion(t *testing.T) {
	for _, tc := range []struct {
		name string
		msg  string
		want string
	}{
		{"text blocks", `{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`, "ab"},
		{"output tool", `{"content":[{"type":"text","text":"a"},{"type":"tool_use","id":"t","name":"output","input":{"x":1}}]}`, `{"x":1}`},
		{"other tool", `{"content":[{"type":"text","text":"a"},{"type":"tool_use","id":"t","name":"search","input":{}}]}`, "a"},
		{"empty", `{"content":[]}`, ""},
	} {
		var m anthropic.Message
		if err := json.Unmarshal([]byte(tc.msg), &m); err != nil {
			t.Fatal(err)
		}
		if got := anthropicprompt.Completion(&m); got != tc.want {
			t.Errorf("%s: Completion = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := anthropicprompt.Completion(nil); got != "" {
		t.Errorf("Completion(nil) = %q", got)
	}
}

func TestMessagesErrors(t *testing.T) {
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
		{"two systems", runtime.Prompt{{Role: runtime.RoleSystem, Content: "a"}, {Role: runtime.RoleSystem, Content: "b"}, {Role: runtime.RoleUser, Content: "hi"}},
			adapttest.Request("m"), []error{runtime.ErrSystemNotFirst}, "message 1: role"},
		{"system only", runtime.Prompt{{Role: runtime.RoleSystem, Content: "be brief"}}, adapttest.Request("m", runtime.Temperature(1)),
			[]error{runtime.ErrNoMessages}, "besides the system message"},
		{"bad arguments", runtime.Prompt{{Role: runtime.RoleToolRequest, ToolCalls: []runtime.ToolCall{{ID: "1", Name: "f", Arguments: "[]"}}}},
			adapttest.Request("m"), []error{runtime.ErrInvalidArguments}, "arguments"},
		{"no model", append(runtime.Prompt{{Role: runtime.RoleSystem, Content: "be brief"}}, user...), adapttest.Request(""),
			[]error{anthropicprompt.ErrNoModel}, "WithDefaultModel"},
		{"unsupported parameter", user, adapttest.Request("m", runtime.WithParameter("seed", 1)),
			[]error{anthropicprompt.ErrUnsupportedParameter}, `parameter "seed": unsupported parameter (supported: max_tokens, stop,`},
		{"openai's max_completion_tokens", user, adapttest.Request("m", runtime.WithParameter("max_completion_tokens", 10)),
			[]error{anthropicprompt.ErrUnsupportedParameter}, `"max_completion_tokens"`},
		{"max_tokens as a string", user, adapttest.Request("m", runtime.WithParameter("max_tokens", "100")),
			[]error{anthropicprompt.ErrInvalidParameter}, `parameter "max_tokens": invalid parameter: want an integer, not a string`},
		{"top_k as a float", user, adapttest.Request("m", runtime.WithParameter("top_k", 0.5)),
			[]error{anthropicprompt.ErrInvalidParameter}, "want an integer, not 0.5"},
		{"stop as an object", user, adapttest.Request("m", runtime.WithParameter("stop", map[string]any{})),
			[]error{anthropicprompt.ErrInvalidParameter}, "not an object"},
		{"tool_choice of OpenAI's words", user, adapttest.Request("m", runtime.WithParameter("tool_choice", "any")),
			[]error{anthropicprompt.ErrInvalidParameter}, `parameter "tool_choice": invalid parameter: want one of "auto", "none", "required", not "any"`},
		{"tool_choice with an output schema", user, adapttest.Request("m", runtime.WithParameter("tool_choice", "auto"), func(r *runtime.Request) {
			r.OutputSchema = json.RawMessage(adapttest.StructuredSchema)
		}), []error{anthropicprompt.ErrInvalidParameter}, `parameter "tool_choice": invalid parameter: the output schema forces the output tool`},
		{"stop twice", user, adapttest.Request("m", runtime.Stop("a"), runtime.WithParameter("stop_sequences", []string{"b"})),
			[]error{anthropicprompt.ErrInvalidParameter}, `"stop" and "stop_sequences"`},
		{"schema not an object", user, adapttest.Request("m", func(r *runtime.Request) {
			r.OutputFormat = "json"
			r.OutputSchema = json.RawMessage(`"object"`)
		}), []error{anthropicprompt.ErrInvalidSchema}, "not a JSON object"},
		{"schema of an array", user, adapttest.Request("m", func(r *runtime.Request) {
			r.OutputFormat = "json"
			r.OutputSchema = json.RawMessage(`{"type":"array"}`)
		}), []error{anthropicprompt.ErrInvalidSchema}, "the root is not an object (type array)"},
		{"parameter and schema problems", user, adapttest.Request("m", runtime.WithParameter("temperature", true), func(r *runtime.Request) {
			r.OutputSchema = json.RawMessage(`{"type":"string"}`)
		}), []error{anthropicprompt.ErrInvalidParameter, anthropicprompt.ErrInvalidSchema}, "not a boolean"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := anthropicprompt.Messages(tc.prompt, tc.req)
			if err == nil {
				t.Fatalf("no error; body %+v", body)
			}
			for _, target := range tc.is {
				if !errors.Is(err, target) {
					t.Errorf("error %q is not %q", err, target)
				}
			}
			if !strings.Contains(err.Error(), tc.msg) || !strings.HasPrefix(err.Error(), "anthropicprompt: ") {
				t.Errorf("error %q: want the prefix anthropicprompt: and %q", err, tc.msg)
			}
			if len(body.Messages) != 0 || body.System != nil || body.Model != "" || body.MaxTokens != 0 {
				t.Errorf("body not zero on error: %+v", body)
			}
		})
	}
}

// TestParameterTable: Messages maps every parameter that runtime/body
// gives Anthropic, and rejects the others as unsupported.
func TestParameterTable(t *testing.T) {
	user := runtime.Prompt{{Role: runtime.RoleUser, Content: "hi"}}
	for _, p := range params.All() {
		_, err := anthropicprompt.Messages(user, adapttest.Request("m", runtime.WithParameter(p.Name, adapttest.SampleValue(p))))
		if p.Providers&params.Anthropic != 0 {
			if err != nil {
				t.Errorf("%s: %v", p.Name, err)
			}
		} else if !errors.Is(err, anthropicprompt.ErrUnsupportedParameter) {
			t.Errorf("%s, not an Anthropic parameter: error %v, want ErrUnsupportedParameter", p.Name, err)
		}
	}
}

// TestToolChoice: tool_choice takes OpenAI's words; required is the
// messages API's any.
func TestToolChoice(t *testing.T) {
	user := runtime.Prompt{{Role: runtime.RoleUser, Content: "hi"}}
	for choice, want := range map[string]string{"auto": `{"type":"auto"}`, "none": `{"type":"none"}`, "required": `{"type":"any"}`} {
		body, err := anthropicprompt.Messages(user, adapttest.Request("m", runtime.WithParameter("tool_choice", choice)))
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(body.ToolChoice)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != want {
			t.Errorf("tool_choice %q = %s, want %s", choice, b, want)
		}
	}
}

// TestExtraParameters: extra parameters are sent as they are, over the
// fields that the adapter set.
func TestExtraParameters(t *testing.T) {
	req := adapttest.Request("m", runtime.MaxTokens(100), runtime.WithExtraParameter("max_tokens", 0), runtime.WithExtraParameter("container", "c1"))
	body, err := anthropicprompt.Messages(runtime.Prompt{{Role: runtime.RoleUser, Content: "hi"}}, req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"container":"c1","max_tokens":0,"messages":[{"content":[{"text":"hi","type":"text"}],"role":"user"}],"model":"m"}`
	got, _ := adapttest.Normalize(b)
	if wantN, _ := adapttest.Normalize([]byte(want)); string(got) != string(wantN) {
		t.Errorf("body = %s\nwant %s", got, want)
	}
	req.ExtraParameters["container"] = "changed" // the body hold their own copy
	if b2, _ := json.Marshal(body); string(b2) != string(b) {
		t.Errorf("changing the Request changed the body: %s", b2)
	}
}

// TestOutputFormats: only JSON outputs with a schema add the output tool.
func TestOutputFormats(t *testing.T) {
	schema := json.RawMessage(adapttest.StructuredSchema)
	for _, tc := range []struct {
		format string
		schema json.RawMessage
		want   bool
	}{
		{"json", schema, true},
		{"", schema, true},
		{"json", nil, false},
		{"", nil, false},
		{"yaml", schema, false},
		{"text", schema, false},
		{"xml", nil, false},
	} {
		r := adapttest.Request("m", func(r *runtime.Request) { r.OutputFormat, r.OutputSchema = tc.format, tc.schema })
		body, err := anthropicprompt.Messages(adapttest.Structured(), r)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(body.Tools) == 1 && body.ToolChoice.OfTool != nil; got != tc.want || (!tc.want && len(body.Tools) > 0) {
			t.Errorf("format %q, schema %v: output tool %v, want %v", tc.format, tc.schema != nil, got, tc.want)
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
		if strings.Contains(first, ".") && !strings.HasPrefix(imp, "github.com/anthropics/anthropic-sdk-go") && !strings.HasPrefix(imp, "github.com/promptgen/promptgen/runtime") {
			t.Errorf("imports %s", imp)
		}
	}
}

// TestToolCalls reads the tool_use blocks of a response but the output
// tool's, and rejects tools beside an output schema.
func TestToolCalls(t *testing.T) {
	var m anthropic.Message
	if err := json.Unmarshal([]byte(`{"content":[{"type":"text","text":"Looking."},{"type":"tool_use","id":"tu_1","name":"get_weather","input":{"city":"Paris"}},{"type":"tool_use","id":"tu_2","name":"output","input":{}}]}`), &m); err != nil {
		t.Fatal(err)
	}
	want := []runtime.ToolCall{{ID: "tu_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}}
	if d := cmp.Diff(want, anthropicprompt.ToolCalls(&m)); d != "" {
		t.Errorf("ToolCalls (-want +got)\n%s", d)
	}
	if got := anthropicprompt.ToolCalls(nil); got != nil {
		t.Errorf("ToolCalls(nil) = %v", got)
	}
	_, err := anthropicprompt.Messages(adapttest.Structured(), adapttest.Request("m", func(r *runtime.Request) {
		r.OutputSchema = json.RawMessage(adapttest.StructuredSchema)
		r.Tools = adapttest.Tools()
	}))
	if !errors.Is(err, anthropicprompt.ErrInvalidParameter) || !strings.Contains(err.Error(), "tools with an output schema") {
		t.Errorf("tools with an output schema: got %v", err)
	}
}

// TestSameBytes: the same request is the same bytes every time, tools and
// output schema included (a provider's prompt cache keys on them).
func TestSameBytes(t *testing.T) {
	for name, r := range map[string]runtime.Request{
		"tools":  adapttest.Request("m", func(r *runtime.Request) { r.Tools = adapttest.Tools() }),
		"output": adapttest.Request("m", func(r *runtime.Request) { r.OutputSchema = json.RawMessage(adapttest.StructuredSchema) }),
	} {
		var first []byte
		for range 20 {
			body, err := anthropicprompt.Messages(adapttest.ToolUse(), r)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(body)
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = b
			} else if string(b) != string(first) {
				t.Fatalf("%s: two encodings of one request:\n%s\n%s", name, first, b)
			}
		}
	}
}
