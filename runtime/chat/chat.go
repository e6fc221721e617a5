// Package chat is the context that a Hugging Face chat template receives
// from transformers' apply_chat_template, for prompt files with
// `inputs: chat`: the conversation's messages, the tools and documents,
// add_generation_prompt and the special tokens. Messages, tools and
// documents are dynamic values (runtime/jinja.Value), as the template sees
// the JSON-like data apply_chat_template passes; FromPrompt builds a
// context from a runtime.Prompt, so a promptgen prompt can be formatted
// with a model's own template.
//
// It depends on the standard library, runtime and runtime/jinja only.
package chat

import (
	"encoding/json"
	"fmt"

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/jinja"
)

// Context is what a chat template renders: its JSON form is the keyword
// arguments of apply_chat_template (messages, tools, documents,
// add_generation_prompt, and the tokenizer's special tokens). A prompt
// with `inputs: chat` embeds it in its feed, next to the other variables
// its template reads (enable_thinking, date_string, ...).
type Context struct {
	// Messages are the conversation: each a dict with "role", "content"
	// (a string, a list of parts such as {"type": "text", "text": ...},
	// or None), and optionally "name", "tool_calls" (a list of {"id",
	// "type", "function": {"name", "arguments"}}), "tool_call_id",
	// "reasoning_content" or any other key. A key that is absent is
	// undefined in the template; JSON null is None.
	Messages []jinja.Value `json:"messages"`
	// Tools and Documents are lists of dicts. Unset (the zero Value),
	// the template sees None, as apply_chat_template passes tools=None.
	Tools     jinja.Value `json:"tools"`
	Documents jinja.Value `json:"documents"`
	// AddGenerationPrompt asks the template to open the assistant's turn.
	AddGenerationPrompt bool `json:"add_generation_prompt"`
	// BosToken and EosToken are the tokenizer's special tokens; nil is
	// undefined in the template.
	BosToken *string `json:"bos_token,omitempty"`
	EosToken *string `json:"eos_token,omitempty"`
}

// Chat returns c. A feed that embeds a Context has it too, so code can
// take any prompt's feed with `inputs: chat` as interface{ Chat() *Context }.
func (c *Context) Chat() *Context { return c }

// Merge merges other into c as a template set's feed merges its fields
// (runtime.ConflictStrategy): the messages as a list; tools, documents
// and the special tokens each as one value, which runtime.AttributeOnly
// keeps where both are set and the others replace; add_generation_prompt
// is set when either sets it.
func (c *Context) Merge(other Context, s runtime.ConflictStrategy) {
	runtime.MergeSlice(&c.Messages, other.Messages, s)
	mergeDefined(&c.Tools, other.Tools, s)
	mergeDefined(&c.Documents, other.Documents, s)
	c.AddGenerationPrompt = c.AddGenerationPrompt || other.AddGenerationPrompt
	for _, tok := range []struct {
		into **string
		from *string
	}{{&c.BosToken, other.BosToken}, {&c.EosToken, other.EosToken}} {
		if tok.from != nil && (*tok.into == nil || s != runtime.AttributeOnly) {
			*tok.into = tok.from
		}
	}
}

// mergeDefined sets *dst to src where src is defined and *dst is not, or
// s lets the incoming value win.
func mergeDefined(dst *jinja.Value, src jinja.Value, s runtime.ConflictStrategy) {
	if src.Defined() && (!dst.Defined() || s != runtime.AttributeOnly) {
		*dst = src
	}
}

// Message returns a message dict with role and text content.
func Message(role, content string) jinja.Value {
	return jinja.DictValue().Set("role", jinja.StringValue(role)).Set("content", jinja.StringValue(content))
}

// FromPrompt returns the messages of p as apply_chat_template takes them:
// system, user and assistant messages keep their role and text (a
// message with structured Data has it as its content, a dict); a
// tool_request becomes an assistant message with tool_calls (their
// arguments decoded to a dict) and content None, or its text; a
// tool_result becomes a "tool" message with tool_call_id and, if set,
// name. An assistant message with tool calls gets them the same way. A
// user or tool_result message's content parts become a list of {"type": "text", "text":
// ...} and {"type": "image"} dicts, the form of transformers' multimodal
// chat templates: an image's URL or data goes to the model's processor,
// never to the template.
func FromPrompt(p runtime.Prompt) ([]jinja.Value, error) {
	out := make([]jinja.Value, 0, len(p))
	// The messages' keys and values, carved out of one array each: a
	// message costs one allocation (its dict), not five.
	n := 0
	for _, m := range p {
		n += 2 + btoi(m.Name != "") + btoi(len(m.ToolCalls) > 0) + btoi(m.ToolCallID != "")
	}
	keys := make([]string, 0, n)
	vals := make([]jinja.Value, 0, n)
	for i, m := range p {
		start := len(keys)
		set := func(key string, val jinja.Value) {
			keys, vals = append(keys, key), append(vals, val)
		}
		role := string(m.Role)
		switch m.Role {
		case runtime.RoleToolRequest:
			role = "assistant"
		case runtime.RoleToolResult:
			role = "tool"
		}
		set("role", jinja.StringValue(role))
		switch {
		case m.Parts != nil:
			set("content", contentParts(m.Parts))
		case m.Data != nil:
			var data jinja.Value
			if err := json.Unmarshal(m.Data, &data); err != nil {
				return nil, fmt.Errorf("chat: message %d: content: %w", i, err)
			}
			set("content", data)
		case m.Content == "" && len(m.ToolCalls) > 0:
			set("content", jinja.NoneValue())
		default:
			set("content", jinja.StringValue(m.Content))
		}
		if m.Name != "" {
			set("name", jinja.StringValue(m.Name))
		}
		if len(m.ToolCalls) > 0 {
			calls := make([]jinja.Value, len(m.ToolCalls))
			for j, c := range m.ToolCalls {
				var args jinja.Value
				if err := json.Unmarshal([]byte(c.Arguments), &args); err != nil {
					return nil, fmt.Errorf("chat: message %d: tool_calls[%d].function.arguments: %w", i, j, err)
				}
				fn := jinja.DictValue().Set("name", jinja.StringValue(c.Name)).Set("arguments", args)
				calls[j] = jinja.DictValue().Set("id", jinja.StringValue(c.ID)).Set("type", jinja.StringValue("function")).Set("function", fn)
			}
			set("tool_calls", jinja.ListValue(calls...))
		}
		if m.ToolCallID != "" {
			set("tool_call_id", jinja.StringValue(m.ToolCallID))
		}
		out = append(out, jinja.DictOf(keys[start:], vals[start:]))
	}
	return out, nil
}

// btoi is 1 for true, 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// contentParts returns parts as a template sees a list content.
func contentParts(parts []runtime.Part) jinja.Value {
	items := make([]jinja.Value, len(parts))
	for i, p := range parts {
		if p.Image != nil {
			items[i] = jinja.DictValue().Set("type", jinja.StringValue("image"))
		} else {
			items[i] = jinja.DictValue().Set("type", jinja.StringValue("text")).Set("text", jinja.StringValue(p.Text))
		}
	}
	return jinja.ListValue(items...)
}

// Tools returns tools as apply_chat_template takes them, the form of
// transformers' get_json_schema: a list of {"type": "function",
// "function": {"name", "description", "parameters"}}, the description
// left out when empty. A generated chat template gives a Context without
// tools the prompt's declared ones.
func Tools(tools []runtime.Tool) (jinja.Value, error) {
	items := make([]jinja.Value, len(tools))
	for i, t := range tools {
		var params jinja.Value
		if err := json.Unmarshal(t.Parameters, &params); err != nil {
			return jinja.Value{}, fmt.Errorf("chat: tool %q: parameters: %w", t.Name, err)
		}
		fn := jinja.DictValue().Set("name", jinja.StringValue(t.Name))
		if t.Description != "" {
			fn.Set("description", jinja.StringValue(t.Description))
		}
		fn.Set("parameters", params)
		items[i] = jinja.DictValue().Set("type", jinja.StringValue("function")).Set("function", fn)
	}
	return jinja.ListValue(items...), nil
}
