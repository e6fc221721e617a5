package chat

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/promptgen/promptgen/runtime"
)

// TestCheckMarkers checks the path and the detail of the error for a
// marker at each kind of place of a context given as apply_chat_template's
// JSON, and what is not a marker.
func TestCheckMarkers(t *testing.T) {
	tests := []struct {
		name, ctx string
		markers   []string
		want      string // "" for no error
	}{
		{"clean", `{"messages": [{"role": "user", "content": "hi", "x": [1, 2.5, true, null, {"k": "v"}]}], "tools": [{"type": "function"}], "documents": null}`,
			[]string{"<|im_end|>"}, ""},
		{"content", `{"messages": [{"role": "user", "content": "hi"}, {"role": "user", "content": "a<|im_end|>b"}]}`,
			[]string{"<|im_start|>", "<|im_end|>"}, `message 1: content: holds a marker of the chat format: "<|im_end|>"`},
		{"first of the markers in their order", `{"messages": [{"role": "user", "content": "<|im_end|><|im_start|>"}]}`,
			[]string{"<|im_start|>", "<|im_end|>"}, `message 0: content: holds a marker of the chat format: "<|im_start|>"`},
		{"deep in a list of parts", `{"messages": [{"role": "user", "content": [{"type": "text", "text": "ok"}, {"type": "text", "text": "[INST]"}]}]}`,
			[]string{"[INST]"}, `message 0: content[1].text: holds a marker of the chat format: "[INST]"`},
		{"a key that is a name", `{"messages": [{"role": "user", "content": "hi", "meta": {"x_1": {"y": "[INST]"}}}]}`,
			[]string{"[INST]"}, `message 0: meta.x_1.y: holds a marker of the chat format: "[INST]"`},
		{"a key that is no name", `{"messages": [{"role": "user", "content": "hi", "meta": {"1 a": "[INST]"}}]}`,
			[]string{"[INST]"}, `message 0: meta["1 a"]: holds a marker of the chat format: "[INST]"`},
		{"in a key", `{"messages": [{"role": "user", "content": {"a[INST]": 1}}]}`,
			[]string{"[INST]"}, `message 0: content["a[INST]"]: holds a marker of the chat format: "[INST]" in the key`},
		{"in a key of the message", `{"messages": [{"role": "user", "[INST]": 1}]}`,
			[]string{"[INST]"}, `message 0: ["[INST]"]: holds a marker of the chat format: "[INST]" in the key`},
		{"a tool", `{"messages": [], "tools": [{"type": "function", "function": {"name": "f", "parameters": {"properties": {"q": {"description": "<s>"}}}}}]}`,
			[]string{"<s>"}, `tools[0].function.parameters.properties.q.description: holds a marker of the chat format: "<s>"`},
		{"a document", `{"messages": [], "documents": [{"title": "t", "text": "</s>"}]}`,
			[]string{"<s>", "</s>"}, `documents[0].text: holds a marker of the chat format: "</s>"`},
		{"the bos_token", `{"messages": [{"role": "user", "content": "<|begin|>hi"}], "bos_token": "<|begin|>"}`,
			nil, `message 0: content: holds a marker of the chat format: "<|begin|>"`},
		{"the eos_token", `{"messages": [{"role": "user", "name": "<|end|>"}], "eos_token": "<|end|>"}`,
			nil, `message 0: name: holds a marker of the chat format: "<|end|>"`},
		{"an empty bos_token and marker are none", `{"messages": [{"role": "user", "content": "hi"}], "bos_token": ""}`,
			[]string{""}, ""},
		{"the tokens are not input", `{"messages": [{"role": "user", "content": "hi"}], "bos_token": "<s>[INST]", "eos_token": "[INST]"}`,
			[]string{"[INST]"}, ""},
	}
	for _, tt := range tests {
		var c Context
		if err := json.Unmarshal([]byte(tt.ctx), &c); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		err := c.CheckMarkers(tt.markers...)
		got := ""
		if err != nil {
			got = err.Error()
			var me *runtime.MessageError
			if !errors.Is(err, ErrMarker) || !errors.As(err, &me) {
				t.Errorf("%s: %v is not a *runtime.MessageError with ErrMarker", tt.name, err)
			}
		}
		if got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}
