package models

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/chat"
	"github.com/promptgen/promptgen/runtime/chatformat"
	"github.com/promptgen/promptgen/runtime/internal/injection"
)

// TestInjectionPayloads puts each hostile payload where outside text
// reaches a chat template: a system or user message's content (a feed
// value), a tool result, a tool call's arguments and a tool's description.
// With every shipped model, the conversation is either rejected for a
// special token of the model (exactly when the payload holds one), or
// formats as the same conversation with a plain word there, the payload
// printed in its place as is or JSON-escaped: it never adds, closes or
// reorders a turn.
func TestInjectionPayloads(t *testing.T) {
	const plain = "PLAINWORD"
	positions := []struct {
		name string
		put  func(p runtime.Prompt, ctx *chat.Context, s string)
	}{
		{"system content", func(p runtime.Prompt, _ *chat.Context, s string) { p[0].Content = s }},
		{"user content", func(p runtime.Prompt, _ *chat.Context, s string) { p[1].Content = s }},
		{"tool call arguments", func(p runtime.Prompt, _ *chat.Context, s string) {
			p[2].ToolCalls[0].Arguments = `{"city": ` + jsonString(s) + `}`
		}},
		{"tool result", func(p runtime.Prompt, _ *chat.Context, s string) { p[3].Content = s }},
		{"tool description", func(_ runtime.Prompt, ctx *chat.Context, s string) {
			tools, err := chat.Tools([]runtime.Tool{{Name: "get_weather", Description: s,
				Parameters: json.RawMessage(`{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}`)}})
			if err != nil {
				panic(err)
			}
			ctx.Tools = tools
		}},
	}
	format := func(m Model, pos int, s string) (string, error) {
		p, ctx := conversation(), chat.Context{AddGenerationPrompt: true}
		if pos == 4 {
			positions[1].put(p, &ctx, "hi") // a context with tools formats them
		}
		positions[pos].put(p, &ctx, s)
		return m.FormatPrompt(p, ctx)
	}
	var rejected, same int
	for _, name := range slices.Sorted(maps.Keys(shipped)) {
		m := shipped[name].model
		for pos, at := range positions {
			base, err := format(m, pos, plain)
			if err != nil {
				continue // this model's template does not take the conversation (Mistral's no system message)
			}
			for _, h := range injection.Payloads {
				got, err := format(m, pos, h)
				holds := slices.ContainsFunc(m.Markers, func(mk string) bool { return strings.Contains(h, mk) })
				switch {
				case holds && errors.Is(err, chatformat.ErrMarker):
					rejected++
				case holds || err != nil:
					t.Errorf("%s, %s, %q: err = %v; want ErrMarker exactly when it holds a special token", name, at.name, h, err)
				case !sameWithPayload(base, got, plain, h):
					t.Errorf("%s, %s, %q: the payload changed the prompt's shape:\nplain:\n%s\nwith it:\n%s", name, at.name, h, base, got)
				default:
					same++
				}
			}
		}
	}
	if rejected == 0 || same == 0 {
		t.Errorf("%d rejected, %d formatted alike: the test checks only one side", rejected, same)
	}
	t.Logf("%d rejected for a special token, %d formatted as the plain conversation", rejected, same)
}

// sameWithPayload reports whether got is base with each plain word
// replaced by payload, written as is (its invalid UTF-8 as U+FFFD, after
// a trip through JSON; trimmed, by a template that trims it) or as a JSON
// string's content (pythonJSONEscape).
func sameWithPayload(base, got, plain, payload string) bool {
	// The payload as JSON carried it (tool call arguments), invalid UTF-8
	// become U+FFFD.
	valid := strings.ToValidUTF8(payload, "\uFFFD")
	escaped := pythonJSONEscape(payload)
	trimmed := strings.TrimSpace(payload) // a template's | trim
	for {
		before, after, found := strings.Cut(base, plain)
		if !strings.HasPrefix(got, before) {
			return false
		}
		got = got[len(before):]
		if !found {
			return got == ""
		}
		switch {
		case strings.HasPrefix(got, payload):
			got = got[len(payload):]
		case strings.HasPrefix(got, valid):
			got = got[len(valid):]
		case strings.HasPrefix(got, trimmed):
			got = got[len(trimmed):]
		case strings.HasPrefix(got, escaped):
			got = got[len(escaped):]
		default:
			return false
		}
		base = after
	}
}

// pythonJSONEscape is s as the content of a JSON string that transformers'
// tojson (Python's json.dumps with ensure_ascii false) writes: quotes,
// backslashes and control characters escaped, all else as is; an invalid
// UTF-8 byte is U+FFFD, as the template's strings hold it.
func pythonJSONEscape(s string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '"' || r == '\\':
			b.WriteString("\\" + string(r))
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
