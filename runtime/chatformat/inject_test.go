package chatformat

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/internal/injection"
)

// hostile are contents that carry role markers and special tokens.
var hostile = injection.Payloads

// TestInjection checks, for every hostile content in every position, that
// formatting cannot add, close or reorder a message: either the prompt is
// rejected (ChatML, Instruct and Llama2, for their own markers only), or
// it reads back as exactly its messages.
func TestInjection(t *testing.T) {
	// The prompts, with the hostile content at each position that a style
	// has: the content of a system, user and assistant message.
	prompts := map[Style]func(h string) []runtime.Prompt{
		ChatML: func(h string) []runtime.Prompt {
			return []runtime.Prompt{
				{sys(h), user("q"), asst("a"), user("b")},
				{sys("rules"), user(h), asst("a"), user("b")},
				{sys("rules"), user("q"), asst(h), user("b")},
				{sys("rules"), user("q"), asst("a"), user(h)},
			}
		},
		Instruct: func(h string) []runtime.Prompt {
			return []runtime.Prompt{
				{user(h), asst("a"), user("b")},
				{user("q"), asst(h), user("b")},
				{user("q"), asst("a"), user(h)},
			}
		},
		Llama2: func(h string) []runtime.Prompt {
			return []runtime.Prompt{
				{sys(h), user("q"), asst("a"), user("b")},
				{sys("rules"), user(h), asst("a"), user("b")},
				{user(h), asst("a"), user("b")},
				{sys("rules"), user("q"), asst(h), user("b")},
				{sys("rules"), user("q"), asst("a"), user(h)},
			}
		},
	}
	var rejected, kept int
	for _, s := range chatStyles {
		for _, h := range hostile {
			own := ownMarker(s, h)
			for _, p := range prompts[s](h) {
				got, _, err := Format(s, p)
				if own {
					if !errors.Is(err, ErrMarker) {
						t.Errorf("%v, %q: Format returns %q, %v; want ErrMarker", s, h, got, err)
					}
					rejected++
					continue
				}
				if err != nil {
					t.Errorf("%v, %q: %v", s, h, err)
					continue
				}
				back, err := parseFormatted(s, got)
				if err != nil {
					t.Errorf("%v, %q: reading back %q: %v", s, h, got, err)
					continue
				}
				if diff := cmp.Diff(asParsed(s, p), back); diff != "" {
					t.Errorf("%v, %q: read back (-want +got):\n%s", s, h, diff)
				}
				kept++
			}
		}
	}
	if rejected == 0 || kept == 0 {
		t.Errorf("%d rejected, %d kept: the table tests only one side", rejected, kept)
	}
	t.Logf("%d prompts rejected for a marker, %d read back unchanged", rejected, kept)
}

// ownMarker reports whether h holds a marker of style s.
func ownMarker(s Style, h string) bool {
	for _, m := range markers[s] {
		if strings.Contains(h, m) {
			return true
		}
	}
	return false
}

// TestInjectionTagged checks that an escaped value, wherever it is put in
// a tagged prompt, reads back as itself: tagged prompts never reject.
func TestInjectionTagged(t *testing.T) {
	def := DefaultTagged()
	// A tag set in which </user> and <system> are tags too.
	roles := &Tagged{
		Tags:     []string{"system", "user", "assistant", "history"},
		Roles:    map[string]runtime.Role{"system": runtime.RoleSystem, "user": runtime.RoleUser, "assistant": runtime.RoleAssistant},
		Speakers: []Speaker{{"user", runtime.RoleUser}, {"system", runtime.RoleSystem}, {"AI", runtime.RoleAssistant}},
	}
	for _, h := range hostile {
		for _, tc := range []struct {
			name string
			tg   *Tagged
			text func(history string) string
			want runtime.Prompt
		}{
			{"question", def, func(hist string) string {
				return "Answer from the documents.\n<history>\n" + hist + "</history>\n<documents>" + Escape(h) + "</documents>\n<question>" + Escape(h) + "</question>\n" + Escape(h)
			}, runtime.Prompt{
				sys("Answer from the documents."), user("before"), asst(h), user(h), asst(h), user(h), sys(h),
			}},
			{"role tags", roles, func(hist string) string {
				return "<system>" + Escape(h) + "</system><history>" + hist + "</history><user>" + Escape(h) + "</user>"
			}, runtime.Prompt{
				sys(h), user("before"), asst(h), user(h), user(h),
			}},
		} {
			hist, err := tc.tg.History([]runtime.Message{user("before"), asst(h), user(h)})
			if err != nil {
				t.Fatal(err)
			}
			text := tc.text(hist)
			got, err := tc.tg.Parse(text)
			if err != nil {
				t.Errorf("%s, %q: Parse(%q): %v", tc.name, h, text, err)
				continue
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s, %q: Parse(%q) (-want +got):\n%s", tc.name, h, text, diff)
			}
		}
	}
}
