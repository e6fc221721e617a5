package yamlout

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/runtime/internal/costtest"
)

// laughs is a "billion laughs": a few lines that aliases expand to a
// million strings.
const laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n"

func TestExtract(t *testing.T) {
	tests := []struct {
		name, completion string
		want             string
		err              error
	}{
		{"bare", "main_reason: Billing\nsentiment: neutral\naction_items:\n  - Refund\n", `{"action_items":["Refund"],"main_reason":"Billing","sentiment":"neutral"}`, nil},
		{"fenced after prose", "Here you go:\n```yaml\nsentiment: negative\ncount: 3\n```\nAnything else?", `{"count":3,"sentiment":"negative"}`, nil},
		{"yml tag and CRLF", "```yml\r\na: 1.5\r\nb: true\r\n```", `{"a":1.5,"b":true}`, nil},
		{"untagged fence", "```\n- x\n- y\n```", `["x","y"]`, nil},
		{"json fence skipped", "```json\n{\"a\": 1}\n```\n```yaml\na: 2\n```", `{"a":2}`, nil},
		{"non-string keys", "1: one\ntrue: yes\nnull: z\n", `{"1":"one","null":"z","true":"yes"}`, nil},
		{"dates stay strings", "on: 2024-05-01\n", `{"on":"2024-05-01"}`, nil},
		{"merge key", "base: &b {x: 1, y: 2}\nitem:\n  <<: *b\n  y: 3\n", `{"base":{"x":1,"y":2},"item":{"x":1,"y":3}}`, nil},
		{"billion laughs", laughs, "", ErrAliases},
		{"a long string repeated", "a: &a " + strings.Repeat("x", MaxAliasExpansion/4+1) + "\nb: [*a, *a, *a, *a]\n", "", ErrAliases},
		{"aliases within the limit", "a: &a x\nb: [*a, *a, *a, *a, {c: *a}]\n", `{"a":"x","b":["x","x","x","x",{"c":"x"}]}`, nil},
		{"the limit holds over blocks", strings.Repeat("```yaml\n"+laughs+"```\n", 3) + "```yaml\na: 1\n```\n", "", ErrAliases},
		{"a key given twice", "a: 1\nb: 2\na: 3\n", "", ErrInvalidYAML},
		{"the last block tried", strings.Repeat("```\n[\n```\n", MaxBlocks-1) + "```\na: 1\n```\n", `{"a":1}`, nil},
		{"too many blocks", strings.Repeat("```\n[\n```\n", MaxBlocks) + "```\na: 1\n```\n", "", ErrInvalidYAML},
		{"an alias key given twice", "a: &k b\n*k : 1\nb: 2\n", "", ErrInvalidYAML},
		{"hex and big ints", "a: 0x1F\nb: 12345678901234567890\n", `{"a":31,"b":12345678901234567890}`, nil},
		{"anchors", "base: &b {x: 1}\ncopy: *b\n", `{"base":{"x":1},"copy":{"x":1}}`, nil},
		{"BOM and a second document", "\uFEFFa: 1\n---\nb: 2\n", `{"a":1}`, nil},
		{"prose is a string", "I cannot answer that.", `"I cannot answer that."`, nil},
		{"empty", "  \n", "", ErrNoYAML},
		{"bad indentation", "a:\n  b: 1\n c: 2\n", "", ErrInvalidYAML},
		{"infinity", "a: .inf\n", "", ErrInvalidYAML},
		{"collection key", "? [a]\n: 1\n", "", ErrInvalidYAML},
		{"too large", strings.Repeat("a", MaxCompletion+1), "", ErrTooLarge},
	}
	for _, tt := range tests {
		got, err := Extract(tt.completion)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("%s: Extract = %.80s, %v; want %v", tt.name, got, err, tt.err)
			}
			continue
		}
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: Extract = %.80s, %v; want %.80s", tt.name, got, err, tt.want)
		}
	}
}

func TestErrorMessages(t *testing.T) {
	for _, tt := range []struct{ completion, want string }{
		{laughs, "invalid YAML: aliases expand to more than 65536 bytes"},
		{"a: 1\nb: 2\na: 3\n", `invalid YAML: line 3: mapping key "a" already defined at line 1`},
		{"a: .inf\n", "invalid YAML: line 1: .inf is not a JSON number"},
		{strings.Repeat("```\n[\n```\n", 200), "invalid YAML: no YAML document in the first 100 fenced blocks"},
	} {
		if _, err := Extract(tt.completion); err == nil || err.Error() != tt.want {
			t.Errorf("Extract(%.30q) = %v, want %s", tt.completion, err, tt.want)
		}
	}
}

// TestCost checks that Extract costs time in proportion to the completion:
// many fences, alias bombs in many blocks, or large documents.
func TestCost(t *testing.T) {
	repeat := func(unit string) func(n int) string {
		return func(n int) string { return strings.Repeat(unit, n/len(unit)) }
	}
	for _, unit := range []string{"```\n", "```yaml\n[\n```\n", "```yaml\n" + laughs + "```\n", "- a: 1\n  b: [x, y]\n"} {
		costtest.Linear(t, "Extract of "+strconv.Quote(unit[:min(len(unit), 20)])+"...", MaxCompletion/32, repeat(unit), func(s string) {
			Extract(s)
		})
	}
}

// FuzzExtract checks that Extract never panics and fails only with its own
// errors.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{"a: 1\n", "```yaml\n- x\n```", "a: &x [*x]\n", "? [a]\n: 1\n", "a: .nan\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, completion string) {
		_, err := Extract(completion)
		if err != nil && !errors.Is(err, ErrNoYAML) && !errors.Is(err, ErrInvalidYAML) && !errors.Is(err, ErrTooLarge) {
			t.Fatalf("Extract(%q): %v", completion, err)
		}
	})
}
