package generated_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promptgen/promptgen/generated"
	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/tiktoken"
)

// TestThinkSections checks the sections of every kitchen/think fixture:
// in file order, those whose when is false left out, each within its
// budget and counted by o200k_base, and given back, name and text, by
// runtime.ParseSections from the rendered prompt.
func TestThinkSections(t *testing.T) {
	feeds, err := filepath.Glob(filepath.Join("testdata", "kitchen", "think", "*.json"))
	if err != nil || len(feeds) == 0 {
		t.Fatalf("no kitchen/think fixtures: %v", err)
	}
	order := []string{"user_profile", "kitchen_dashboard", "entities_in_context", "conversation", "task", "your_decision"}
	tok := tiktoken.O200kBase()
	for _, file := range feeds {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var f generated.ThinkFeed
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		sections, err := generated.Think.Sections(f)
		if err != nil {
			t.Errorf("%s: Sections: %v", name, err)
			continue
		}
		var names []string
		for _, s := range sections {
			names = append(names, s.Name)
			if s.Tokens != tok.Count(s.Text) || s.Budget > 0 && s.Tokens > s.Budget || s.Truncated || s.Dropped != 0 {
				t.Errorf("%s: section %s: %d tokens (counted %d), budget %d, truncated %v, dropped %d: a fixture must fit its budgets",
					name, s.Name, s.Tokens, tok.Count(s.Text), s.Budget, s.Truncated, s.Dropped)
			}
		}
		var want []string
		for _, n := range order {
			switch {
			case n == "entities_in_context" && len(f.Registry) == 0,
				n == "conversation" && len(f.Recent) == 0 && f.Earlier == nil:
				continue
			}
			want = append(want, n)
		}
		if d := cmp.Diff(want, names); d != "" {
			t.Errorf("%s: sections (-want +got):\n%s", name, d)
		}
		text, err := generated.Think.Render(f)
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := runtime.ParseSections(text)
		if err != nil {
			t.Errorf("%s: ParseSections: %v", name, err)
			continue
		}
		for i := range sections {
			sections[i] = runtime.Section{Name: sections[i].Name, Text: sections[i].Text}
		}
		if d := cmp.Diff(sections, parsed); d != "" {
			t.Errorf("%s: ParseSections(Render) (-want +got):\n%s", name, d)
		}
	}
}

// coarseTokens counts a token per 100 bytes or part of them.
type coarseTokens struct{}

func (coarseTokens) Count(text string) int { return (len(text) + 99) / 100 }
func (coarseTokens) Cut(text string, n int) string {
	return text[:max(0, min(100*n, len(text)))]
}

// TestWithTokenizerCopies checks that WithTokenizer returns a prompt
// counting with the tokenizer it is given and leaves the package's
// prompt, a pointer that every caller shares, counting with its own.
func TestWithTokenizerCopies(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "kitchen", "think", "full.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f generated.ThinkFeed
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	counted := func(p *generated.ThinkPrompt, count func(string) int) {
		t.Helper()
		sections, err := p.Sections(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range sections {
			if s.Tokens != count(s.Text) {
				t.Errorf("section %s: %d tokens, want %d", s.Name, s.Tokens, count(s.Text))
			}
		}
	}
	coarse := generated.Think.WithTokenizer(coarseTokens{})
	if coarse == generated.Think {
		t.Fatal("WithTokenizer returned the package's prompt")
	}
	counted(coarse, coarseTokens{}.Count)
	counted(generated.Think, tiktoken.O200kBase().Count)
}
