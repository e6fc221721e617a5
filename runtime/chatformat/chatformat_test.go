package chatformat

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/runtime"
)

func TestDetect(t *testing.T) {
	tests := []struct {
		tokens []string
		want   Style
	}{
		{nil, Base},
		{[]string{"<s>", "</s>", "<unk>"}, Base},
		{[]string{"<|im_start|>", "<|im_end|>"}, ChatML},
		{[]string{"[INST]", "[/INST]"}, Instruct},
		{[]string{"<|im_start|>", "[INST]"}, Instruct}, // [INST] is checked first
		{[]string{"[inst]", "<|IM_START|>"}, Base},
	}
	for _, tt := range tests {
		if got := Detect(tt.tokens); got != tt.want {
			t.Errorf("Detect(%q) = %v, want %v", tt.tokens, got, tt.want)
		}
	}
}

func TestDetectJSON(t *testing.T) {
	tests := []struct {
		json string
		want Style
	}{
		{`{"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"}`, Base},
		{`{"additional_special_tokens": ["<|im_start|>", "<|im_end|>"], "eos_token": {"content": "<|im_end|>", "lstrip": false}, "pad_token": "<|endoftext|>"}`, ChatML},
		{`{"additional_special_tokens": [{"content": "[INST]", "special": true}, "[/INST]"], "bos_token": "<s>"}`, Instruct},
		{`{"eos_token": {"content": "<|im_start|>"}, "model_max_length": 4096}`, ChatML},
	}
	for _, tt := range tests {
		got, err := DetectJSON([]byte(tt.json))
		if err != nil || got != tt.want {
			t.Errorf("DetectJSON(%s) = %v, %v; want %v", tt.json, got, err, tt.want)
		}
	}
	if _, err := DetectJSON([]byte(`["[INST]"]`)); err == nil {
		t.Error("DetectJSON of a list: no error")
	}
}

func TestFormatErrors(t *testing.T) {
	tool := runtime.Prompt{
		{Role: runtime.RoleUser, Content: "hi"},
		{Role: runtime.RoleToolResult, ToolCallID: "c1", Content: "x"},
	}
	tests := []struct {
		style Style
		p     runtime.Prompt
		want  string
	}{
		{ChatML, nil, "prompt has no messages"},
		{Llama2, runtime.Prompt{sys("s")}, "prompt has no messages: nothing after the system message"},
		{Instruct, runtime.Prompt{sys("s"), user("u")}, "message 0: role: conversation roles must alternate user/assistant/user/assistant/..."},
		{Instruct, runtime.Prompt{user("u"), user("v")}, "message 1: role: conversation roles must alternate user/assistant/user/assistant/..."},
		{ChatML, tool, `message 1: role: not supported by the chat format: "tool_result" messages`},
		{Base, tool, `message 1: role: not supported by the chat format: "tool_result" messages`},
		{Llama2, runtime.Prompt{user("u"), sys("s")}, `message 1: role: not supported by the chat format: "system" messages after the first`},
		{ChatML, runtime.Prompt{user("a"), {Role: runtime.RoleAssistant, ToolCalls: []runtime.ToolCall{{ID: "c", Name: "f", Arguments: "{}"}}}},
			"message 1: tool_calls: not supported by the chat format: tool calls"},
		{ChatML, runtime.Prompt{user("a <|im_end|> b")}, `message 0: content: holds a marker of the chat format: "<|im_end|>"`},
		{Llama2, runtime.Prompt{sys("x <</SYS>>"), user("u")}, `message 0: content: holds a marker of the chat format: "<</SYS>>"`},
		{Style(9), runtime.Prompt{user("u")}, "chatformat: unknown style Style(9)"},
	}
	for _, tt := range tests {
		_, _, err := Format(tt.style, tt.p)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Format(%v, %v):\n got %v\nwant %s", tt.style, tt.p, err, tt.want)
		}
	}
}

func TestFormatBase(t *testing.T) {
	got, end, err := Format(Base, runtime.Prompt{sys("Complete the story."), user("Once upon a time ✓")})
	if want := "Complete the story.\n\nOnce upon a time ✓"; err != nil || got != want || end != "e upon a time ✓" {
		t.Errorf("got %q %q %v, want %q", got, end, err, want)
	}
	got, end, _ = Format(Base, runtime.Prompt{user("short")})
	if got != "short" || end != "short" {
		t.Errorf("got %q %q", got, end)
	}
}

func TestTaggedFormat(t *testing.T) {
	tg := DefaultTagged()
	text := "Be brief.\n<question>What is <b>" + Escape("Go & <i>Rust</i>") + "</b>?</question>"
	tests := []struct {
		style     Style
		stripHTML bool
		want, end string
	}{
		{Instruct, false, "[INST] Be brief.\nWhat is <b>Go & <i>Rust</i></b>? [/INST]", "[/INST]"},
		{Llama2, true, "[INST] Be brief.\nWhat is Go & Rust? [/INST]", "[/INST]"},
		{Base, false, "Be brief.\nWhat is <b>Go & <i>Rust</i></b>?", "i>Rust</i></b>?"},
		{ChatML, true, "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nWhat is Go & Rust?<|im_end|>\n<|im_start|>assistant\n", "assistant"},
	}
	for _, tt := range tests {
		got, end, err := tg.Format(tt.style, text, tt.stripHTML)
		if err != nil || got != tt.want || end != tt.end {
			t.Errorf("Format(%v, stripHTML=%v) = %q, %q, %v\nwant %q, %q", tt.style, tt.stripHTML, got, end, err, tt.want, tt.end)
		}
	}
	if _, _, err := tg.Format(Instruct, "<question>a [/INST] b</question>", false); !errors.Is(err, ErrMarker) {
		t.Errorf("marker in an Instruct tagged prompt: %v", err)
	}
	if _, _, err := tg.Format(ChatML, "<history>Bot: hi</history>", false); !errors.Is(err, ErrHistoryLine) {
		t.Errorf("bad history: %v", err)
	}
}

func TestEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"a < b && c > d", "a &lt; b &amp;&amp; c > d"},
		{"</question>", "&lt;/question>"},
		{"line\nnext\r\n", "line&#10;next&#13;&#10;"},
		{" padded\t", "&#32;padded&#9;"},
		{"in ner", "in ner"},
		{"\u3000\u2028x", "&#12288;&#8232;x"},
		{"   ", "&#32;&#32;&#32;"},
		{"&#10;", "&amp;#10;"},
		{"bad \xff utf-8", "bad \xff utf-8"},
		{"", ""},
	}
	for _, tt := range tests {
		got := Escape(tt.in)
		if got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if back := unescape(got); back != tt.in {
			t.Errorf("unescape(%q) = %q, want %q", got, back, tt.in)
		}
	}
}

func TestHistoryErrors(t *testing.T) {
	tg := DefaultTagged()
	tests := []struct {
		msgs []runtime.Message
		want string
	}{
		{[]runtime.Message{sys("s")}, `message 0: role: not supported by the chat format: no speaker for "system" messages`},
		{[]runtime.Message{user("u"), asst("")}, "message 1: content: empty content"},
		{[]runtime.Message{{Role: runtime.RoleAssistant, ToolCalls: []runtime.ToolCall{{ID: "c"}}}}, "message 0: tool_calls: not supported by the chat format: tool calls"},
		{[]runtime.Message{{Role: runtime.RoleUser, Parts: []runtime.Part{runtime.TextPart("hi")}}}, "message 0: content: not supported by the chat format: content parts"},
	}
	for _, tt := range tests {
		if _, err := tg.History(tt.msgs); err == nil || err.Error() != tt.want {
			t.Errorf("History(%v):\n got %v\nwant %s", tt.msgs, err, tt.want)
		}
	}
	bad := &Tagged{Speakers: []Speaker{{"Us: er", runtime.RoleUser}}}
	if _, err := bad.History([]runtime.Message{user("u")}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("speaker name with \": \": %v", err)
	}
	_, err := tg.Parse("<history>User: a\nAI b</history>")
	if want := `history line 2: malformed history line: "AI b": want "Speaker: message"`; err == nil || err.Error() != want {
		t.Errorf("Parse:\n got %v\nwant %s", err, want)
	}
}

// TestDependencies keeps chatformat to the standard library and the
// runtime: generated packages may import it.
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(dep, "/")
		if strings.Contains(first, ".") && !strings.HasPrefix(dep, "github.com/promptgen/promptgen/runtime") {
			t.Errorf("chatformat depends on %s", dep)
		}
	}
}
