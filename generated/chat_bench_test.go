package generated

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/promptgen/promptgen/generated/internal/ttbench"
	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/chat"
	"github.com/promptgen/promptgen/runtime/chatformat"
)

// The chat benchmarks format the same 10-message conversation in ChatML
// three ways: runtime/chatformat's hand-written formatter, and the
// published ChatML chat template compiled with `inputs: chat`
// (prompts/bench/chatml.yaml) by the go backend and by the text/template
// backend (internal/ttbench).

// chatBenchPrompt is the conversation of testdata/bench/chatml.
func chatBenchPrompt(tb testing.TB) runtime.Prompt {
	var data struct {
		Messages []struct{ Role, Content string }
	}
	if err := json.Unmarshal(readChatBench(tb), &data); err != nil {
		tb.Fatal(err)
	}
	p := make(runtime.Prompt, len(data.Messages))
	for i, m := range data.Messages {
		p[i] = runtime.Message{Role: runtime.Role(m.Role), Content: m.Content}
	}
	return p
}

func readChatBench(tb testing.TB) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", "bench", "chatml", "ten_messages.json"))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func chatBenchFeed(tb testing.TB, p runtime.Prompt) ChatmlFeed {
	msgs, err := chat.FromPrompt(p)
	if err != nil {
		tb.Fatal(err)
	}
	return ChatmlFeed{Context: chat.Context{Messages: msgs, AddGenerationPrompt: true}}
}

func chatBenchTTFeed(tb testing.TB) ttbench.ChatmlFeed {
	var f ttbench.ChatmlFeed
	if err := json.Unmarshal(readChatBench(tb), &f); err != nil {
		tb.Fatal(err)
	}
	return f
}

// TestChatBenchAgree keeps the chat benchmarks honest: the three
// formatters print the same text, Jinja2's (testdata/bench/chatml).
func TestChatBenchAgree(t *testing.T) {
	p := chatBenchPrompt(t)
	if len(p) != 10 {
		t.Fatalf("the conversation has %d messages, want 10", len(p))
	}
	hand, _, err := chatformat.Format(chatformat.ChatML, p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Chatml.Render(chatBenchFeed(t, p))
	if err != nil || got != hand {
		t.Errorf("compiled template != chatformat (%v):\n%s\n---\n%s", err, got, hand)
	}
	tt, err := ttbench.Chatml.Render(chatBenchTTFeed(t))
	if err != nil || tt != hand {
		t.Errorf("text/template backend != chatformat (%v):\n%s\n---\n%s", err, tt, hand)
	}
}

func BenchmarkChatFormat(b *testing.B) {
	p := chatBenchPrompt(b)
	b.Run("chatformat", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink, _, _ = chatformat.Format(chatformat.ChatML, p)
		}
	})
	f := chatBenchFeed(b, p)
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink, _ = Chatml.Render(f)
		}
	})
	// From the same runtime.Prompt as chatformat takes: chat.FromPrompt
	// builds the messages first.
	b.Run("generated+FromPrompt", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			msgs, _ := chat.FromPrompt(p)
			sink, _ = Chatml.Render(ChatmlFeed{Context: chat.Context{Messages: msgs, AddGenerationPrompt: true}})
		}
	})
	tf := chatBenchTTFeed(b)
	b.Run("text-template", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink, _ = ttbench.Chatml.Render(tf)
		}
	})
}

// TestChatTemplateAllocs: a compiled chat template prints its + chains
// (role and content between the markers) into the buffer, building no
// intermediate string, so AppendRender into a large enough buffer does
// not allocate.
func TestChatTemplateAllocs(t *testing.T) {
	f := chatBenchFeed(t, chatBenchPrompt(t))
	buf := make([]byte, 0, 4096)
	if allocs := testing.AllocsPerRun(100, func() { buf, _ = Chatml.AppendRender(buf[:0], f) }); allocs != 0 {
		t.Errorf("Chatml.AppendRender allocates %v times, want 0", allocs)
	}
}
