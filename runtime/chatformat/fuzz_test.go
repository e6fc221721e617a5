package chatformat

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/promptgen/promptgen/runtime"
)

// addSeeds adds the texts of the golden cases, so that fuzzing starts from
// the interesting inputs.
func addSeeds(f *testing.F, path string, add func(string)) {
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	var cases []json.RawMessage
	if err := json.Unmarshal(data, &cases); err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		var s string
		var tc struct{ Text string }
		if json.Unmarshal(c, &s) != nil {
			json.Unmarshal(c, &tc)
			s = tc.Text
		}
		add(s)
	}
}

// FuzzParseTagged checks that Parse and Strip never panic and return only
// known roles, and that a value escaped with Escape reads back as itself
// inside a block, in a history and between blocks.
func FuzzParseTagged(f *testing.F) {
	addSeeds(f, "testdata/tagged/cases.json", func(s string) { f.Add(s, s) })
	for _, h := range hostile {
		f.Add("<question>"+h+"</question>", h)
	}
	tg := DefaultTagged()
	f.Fuzz(func(t *testing.T, text, value string) {
		p, err := tg.Parse(text)
		for _, m := range p {
			if m.Role != runtime.RoleSystem && m.Role != runtime.RoleUser && m.Role != runtime.RoleAssistant {
				t.Fatalf("Parse(%q): role %q", text, m.Role)
			}
		}
		if err == nil && len(p) == 0 && pyStrip(tg.Strip(text)) != "" && !strings.Contains(strings.ToLower(text), "history") {
			t.Fatalf("Parse(%q) lost the text %q", text, tg.Strip(text))
		}
		tg.Strip(text)

		esc := Escape(value)
		want := runtime.Prompt{{Role: runtime.RoleUser, Content: value}, {Role: runtime.RoleSystem, Content: value}}
		got, err := tg.Parse("<question>" + esc + "</question>" + esc)
		if value == "" {
			want = want[:1]
		}
		if err != nil || !cmp.Equal(got, want) {
			t.Fatalf("escaped %q: Parse gives %v, %v", value, got, err)
		}
		if back := tg.Strip("<question>" + esc + "</question>"); back != value {
			t.Fatalf("escaped %q: Strip gives %q", value, back)
		}
		if value == "" {
			return
		}
		msgs := []runtime.Message{{Role: runtime.RoleUser, Content: value}, {Role: runtime.RoleAssistant, Content: value}}
		hist, err := tg.History(msgs)
		if err != nil {
			t.Fatal(err)
		}
		got, err = tg.Parse("<history>" + hist + "</history>")
		if err != nil || !cmp.Equal(got, runtime.Prompt(msgs)) {
			t.Fatalf("history of %q: Parse(%q) gives %v, %v", value, hist, got, err)
		}
	})
}

// tagPattern is _strip_html's regular expression, which Go's regexp
// matches the same way (leftmost, no backtracking needed).
var tagPattern = regexp.MustCompile(`<[^>]+>`)

// FuzzStripHTML checks that StripHTML never panics, leaves no tag, and
// removes tags as the regular expression does when there is nothing to
// unescape.
func FuzzStripHTML(f *testing.F) {
	addSeeds(f, "testdata/html/cases.json", func(s string) { f.Add(s) })
	f.Fuzz(func(t *testing.T, s string) {
		out := StripHTML(s)
		for i := 0; i < len(out); i++ {
			if out[i] == '<' && i+1 < len(out) && out[i+1] != '>' && strings.IndexByte(out[i+1:], '>') >= 0 {
				t.Fatalf("StripHTML(%q) = %q keeps a tag at %d", s, out, i)
			}
		}
		if !strings.Contains(s, "&") {
			if want := tagPattern.ReplaceAllString(s, ""); out != want {
				t.Fatalf("StripHTML(%q) = %q, regexp gives %q", s, out, want)
			}
		}
	})
}

// FuzzFormat checks the injection policy with arbitrary contents: Format
// either rejects a content for a marker of the style, or the prompt reads
// back as its messages.
func FuzzFormat(f *testing.F) {
	for i, h := range hostile {
		f.Add(h, uint8(i))
	}
	f.Add("<|im_end", uint8(0))
	f.Add("[/INST", uint8(1))
	f.Add("<</SYS", uint8(2))
	f.Fuzz(func(t *testing.T, content string, choice uint8) {
		s := chatStyles[int(choice)%len(chatStyles)]
		var p runtime.Prompt
		switch pos := int(choice/4) % 4; {
		case s == Instruct:
			p = runtime.Prompt{user("q"), asst("a"), user("b")}
			p[pos%3].Content = content
		default:
			p = runtime.Prompt{sys("rules"), user("q"), asst("a"), user("b")}
			p[pos].Content = content
		}
		got, _, err := Format(s, p)
		if err != nil {
			if !ownMarker(s, content) {
				t.Fatalf("%v: Format(%q): %v", s, content, err)
			}
			return
		}
		back, err := parseFormatted(s, got)
		if err != nil {
			t.Fatalf("%v: reading back %q: %v", s, got, err)
		}
		if diff := cmp.Diff(asParsed(s, p), back); diff != "" {
			t.Fatalf("%v: %q reads back (-want +got):\n%s", s, got, diff)
		}
	})
}
