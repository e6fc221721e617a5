package runtime

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestValidateGoValues covers what only a Prompt built in Go can hold;
// the JSON corpus (prompt_schema_test.go) covers the rest.
func TestValidateGoValues(t *testing.T) {
	call := ToolCall{ID: "c1", Name: "f", Arguments: "{}"}
	tests := []struct {
		name string
		p    Prompt
		want string
	}{
		{"structured content that is no object", Prompt{
			{Role: RoleUser, Content: "hi"},
			{Role: RoleToolRequest, ToolCalls: []ToolCall{call}},
			{Role: RoleToolResult, ToolCallID: "c1", Data: json.RawMessage(`[1]`)},
		}, `message 2: content: malformed: structured content is not a JSON object`},
		{"text and structured content", Prompt{
			{Role: RoleUser, Content: "hi"},
			{Role: RoleToolRequest, ToolCalls: []ToolCall{call}},
			{Role: RoleToolResult, ToolCallID: "c1", Content: "x", Data: json.RawMessage(`{}`)},
		}, `message 2: content: not allowed: both text and structured content`},
		{"long arguments are shortened", Prompt{
			{Role: RoleUser, Content: "hi"},
			{Role: RoleToolRequest, ToolCalls: []ToolCall{{ID: "c1", Name: "f", Arguments: `{"city": "Paris", "country": "Fran€€€€€`}}},
		}, `message 1: tool_calls[0].function.arguments: arguments are not a JSON object: "{\"city\": \"Paris\", \"country\": \"Fran€€…"`},
		{"nil prompt", nil, `prompt has no messages`},
		{"valid", Prompt{{Role: RoleSystem, Content: "s"}, {Role: RoleUser, Content: "u"}}, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.p.Validate()
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestValidateErrorsAreTyped(t *testing.T) {
	p := Prompt{
		{Role: RoleUser, Content: "hi"},
		{Role: "robot", Content: "beep"},
		{Role: RoleSystem, Content: "late"},
	}
	err := p.Validate()
	for _, kind := range []error{ErrUnknownRole, ErrSystemNotFirst} {
		if !errors.Is(err, kind) {
			t.Errorf("errors.Is(err, %v) is false", kind)
		}
	}
	if errors.Is(err, ErrEmptyContent) {
		t.Error("errors.Is(err, ErrEmptyContent) is true")
	}
	var es MessageErrors
	if !errors.As(err, &es) || len(es) != 2 || es[0].Index != 1 || es[1].Index != 2 || es[1].Field != "role" {
		t.Errorf("MessageErrors: %#v", es)
	}
	var e *MessageError
	if !errors.As(err, &e) || e.Index != 1 || e.Err != ErrUnknownRole || e.Detail != `"robot"` {
		t.Errorf("first MessageError: %#v", e)
	}
}

func TestMessageJSON(t *testing.T) {
	p := Prompt{
		{Role: RoleSystem, Content: "<b>&</b>"},
		{Role: RoleUser, Name: "ana", Content: "hi"},
		{Role: RoleToolRequest, ToolCalls: []ToolCall{{ID: "c1", Name: "f", Arguments: `{"a":1}`}}},
		{Role: RoleToolResult, ToolCallID: "c1", Data: json.RawMessage(`{"ok": true}`)},
		{Role: RoleAssistant, Content: "done"},
	}
	got, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"role":"system","content":"\u003cb\u003e\u0026\u003c/b\u003e"},` +
		`{"role":"user","content":"hi","name":"ana"},` +
		`{"role":"tool_request","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]},` +
		`{"role":"tool_result","content":{"ok":true},"tool_call_id":"c1"},` +
		`{"role":"assistant","content":"done"}]`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var back Prompt
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if err := back.Validate(); err != nil {
		t.Error(err)
	}
	if back[0].Content != "<b>&</b>" || string(back[3].Data) != `{"ok":true}` || back[2].ToolCalls[0].Arguments != `{"a":1}` {
		t.Errorf("read back %+v", back)
	}
}

func TestUnmarshalErrors(t *testing.T) {
	var m Message
	err := json.Unmarshal([]byte(`{"role": "user", "content": 1, "extra": 2}`), &m)
	want := "content: malformed: want a string, an object or null\nextra: malformed: unknown field"
	if err == nil || err.Error() != want {
		t.Errorf("Message: got %v, want\n%s", err, want)
	}
	if !errors.Is(err, ErrMalformed) {
		t.Error("errors.Is(err, ErrMalformed) is false")
	}

	p := Prompt{{Role: RoleUser, Content: "kept"}}
	err = json.Unmarshal([]byte(`[{"role": "user", "content": "a"}, {"role": 2}, {"tool_calls": [null]}]`), &p)
	want = "message 1: role: malformed: want a string\nmessage 2: tool_calls[0]: malformed: want an object"
	if err == nil || err.Error() != want {
		t.Errorf("Prompt: got %v, want\n%s", err, want)
	}
	if len(p) != 1 || p[0].Content != "kept" {
		t.Errorf("a failed Unmarshal changed the prompt: %+v", p)
	}
}
