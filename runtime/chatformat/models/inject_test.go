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
// reorders a turn. Each model is given the fullest conversation its
// template takes.
func TestInjectionPayloads(t *testing.T) {
	const plain = "PLAINWORD"
	// Each position puts s in the first message of its kind, and reports
	// whether the conversation has one.
	content := func(r runtime.Role) func(runtime.Prompt, *chat.Context, string) bool {
		return func(p runtime.Prompt, _ *chat.Context, s string) bool {
			i := slices.IndexFunc(p, func(m runtime.Message) bool { return m.Role == r })
			if i >= 0 {
				p[i].Content = s
			}
			return i >= 0
		}
	}
	positions := []struct {
		name string
		put  func(p runtime.Prompt, ctx *chat.Context, s string) bool
	}{
		{"system content", content(runtime.RoleSystem)},
		{"user content", content(runtime.RoleUser)},
		{"tool call arguments", func(p runtime.Prompt, _ *chat.Context, s string) bool {
			i := slices.IndexFunc(p, func(m runtime.Message) bool { return len(m.ToolCalls) > 0 })
			if i >= 0 {
				p[i].ToolCalls[0].Arguments = `{"city": ` + jsonString(s) + `}`
			}
			return i >= 0
		}},
		{"tool result", content(runtime.RoleToolResult)},
		{"tool description", func(_ runtime.Prompt, ctx *chat.Context, s string) bool {
			tools, err := chat.Tools([]runtime.Tool{{Name: "get_weather", Description: s,
				Parameters: json.RawMessage(`{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}`)}})
			if err != nil {
				panic(err)
			}
			ctx.Tools = tools
			return true
		}},
	}
	// The conversations tried, the first a template takes: with tool calls
	// and results, without them, and the user's message alone.
	conversations := []func() runtime.Prompt{
		func() runtime.Prompt {
			p := conversation()
			// Mistral Nemo's template takes ids of nine characters only.
			p[2].ToolCalls[0].ID, p[3].ToolCallID = "call00001", "call00001"
			return p
		},
		func() runtime.Prompt { return conversation()[:2] },
		func() runtime.Prompt { return conversation()[1:2] },
	}
	format := func(m Model, conv, pos int, s string) (string, bool, error) {
		p, ctx := conversations[conv](), chat.Context{AddGenerationPrompt: true}
		if !positions[pos].put(p, &ctx, s) {
			return "", false, nil
		}
		out, err := m.FormatPrompt(p, ctx)
		return out, true, err
	}
	var rejected, same, skipped int
	for _, name := range slices.Sorted(maps.Keys(shipped)) {
		m := shipped[name].model
		for pos, at := range positions {
			conv, base := -1, ""
			for c := range conversations {
				out, ok, err := format(m, c, pos, plain)
				if ok && err == nil {
					conv, base = c, out
					break
				}
			}
			if conv < 0 {
				skipped++
				continue // the template takes no conversation with this position
			}
			for _, h := range injection.Payloads {
				got, _, err := format(m, conv, pos, h)
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
	t.Logf("%d rejected for a special token, %d formatted as the plain conversation; %d model and position pairs the template refuses", rejected, same, skipped)
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
