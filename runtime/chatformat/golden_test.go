package chatformat

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/jinja"
)

// The expected outputs of these tests are written by testdata/golden.py
// (make golden) with real Jinja2 and Python; never edit them by hand.

var chatStyles = []Style{ChatML, Instruct, Llama2}

// chatCase is one case of testdata/chat/cases.json.
type chatCase struct {
	Name     string          `json:"name"`
	Messages json.RawMessage `json:"messages"`
	// Go says, per style, which error Format returns where it differs
	// from the published template on purpose.
	Go map[string]string `json:"go"`
}

// divergences names the errors of chatCase.Go.
var divergences = map[string]error{
	"empty":       runtime.ErrNoMessages,
	"unsupported": ErrUnsupported,
	"marker":      ErrMarker,
}

// templateErrors maps the exceptions the templates raise to Format's
// errors: where the template raises, Format fails the same way.
var templateErrors = map[string]error{
	"TemplateError: Conversation roles must alternate user/assistant/user/assistant/...\n": ErrAlternation,
	"TemplateError: Only user and assistant roles are supported!\n":                        ErrUnsupported,
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func TestFormatGolden(t *testing.T) {
	var cases []chatCase
	readJSON(t, "testdata/chat/cases.json", &cases)
	expected := map[string]bool{"cases.json": true}
	for _, c := range cases {
		var p runtime.Prompt
		if err := json.Unmarshal(c.Messages, &p); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		for _, s := range chatStyles {
			t.Run(c.Name+"/"+s.String(), func(t *testing.T) {
				base := filepath.Join("testdata/chat", c.Name+"."+s.String())
				want, wantErr := readWant(t, base, expected)
				got, endTag, err := Format(s, p)
				if d, ok := c.Go[s.String()]; ok {
					if !errors.Is(err, divergences[d]) {
						t.Fatalf("Format returns %v, want %q (%v)", err, d, divergences[d])
					}
					if wantErr == "" && d == "marker" {
						// The published template's output has lost the
						// structure that Format protects.
						if back, perr := parseFormatted(s, want); perr == nil && cmp.Equal(back, asParsed(s, p)) {
							t.Errorf("the template keeps the structure, so ErrMarker is not needed:\n%q", want)
						}
					}
					return
				}
				if wantErr != "" {
					kind, ok := templateErrors[wantErr]
					if !ok {
						t.Fatalf("the template fails with %q: mark the case in cases.json with what Format does", wantErr)
					}
					if !errors.Is(err, kind) {
						t.Fatalf("Format returns %v, want %v", err, kind)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("Format:\n%q\nJinja2:\n%q", got, want)
				}
				if wantEnd := map[Style]string{ChatML: "assistant", Instruct: "[/INST]", Llama2: "[/INST]"}[s]; endTag != wantEnd {
					t.Errorf("end tag %q, want %q", endTag, wantEnd)
				}
				// The output reads back as the messages it was made of.
				back, err := parseFormatted(s, got)
				if err != nil {
					t.Fatalf("reading back %q: %v", got, err)
				}
				if diff := cmp.Diff(asParsed(s, p), back); diff != "" {
					t.Errorf("read back (-want +got):\n%s", diff)
				}
			})
		}
	}
	// Every expected output belongs to a case (golden.py deletes the others).
	files, _ := filepath.Glob("testdata/chat/*")
	for _, f := range files {
		if !expected[filepath.Base(f)] {
			t.Errorf("%s belongs to no case: run make golden", f)
		}
	}
}

// readWant returns the expected output of base, or the template's error.
func readWant(t *testing.T, base string, seen map[string]bool) (out, errText string) {
	t.Helper()
	if data, err := os.ReadFile(base + ".txt"); err == nil {
		seen[filepath.Base(base)+".txt"] = true
		return string(data), ""
	}
	data, err := os.ReadFile(base + ".err")
	if err != nil {
		t.Fatalf("no %s.txt or .err: run make golden", base)
	}
	seen[filepath.Base(base)+".err"] = true
	return "", string(data)
}

// taggedWant is one case of testdata/tagged/want.json.
type taggedWant struct {
	Messages runtime.Prompt `json:"messages"`
	Error    string         `json:"error"`
	Strip    string         `json:"strip"`
	ChatML   string         `json:"chatml"`
}

func TestTaggedGolden(t *testing.T) {
	var cases []struct{ Name, Text string }
	readJSON(t, "testdata/tagged/cases.json", &cases)
	var want map[string]taggedWant
	readJSON(t, "testdata/tagged/want.json", &want)
	if len(want) != len(cases) {
		t.Fatalf("%d cases, %d results: run make golden", len(cases), len(want))
	}
	tg := DefaultTagged()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			w, ok := want[c.Name]
			if !ok {
				t.Fatal("no result: run make golden")
			}
			if got := tg.Strip(c.Text); got != w.Strip {
				t.Errorf("Strip:\n%q\nPython:\n%q", got, w.Strip)
			}
			p, err := tg.Parse(c.Text)
			if w.Error != "" {
				if !errors.Is(err, ErrHistoryLine) {
					t.Errorf("Parse returns %v, %v; Python fails with %s", p, err, w.Error)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if w.Messages == nil {
				w.Messages = runtime.Prompt{}
			}
			if diff := cmp.Diff(w.Messages, p); diff != "" {
				t.Errorf("Parse (-Python +Go):\n%s", diff)
			}
			got, end, err := tg.Format(ChatML, c.Text, false)
			if len(p) == 0 {
				if !errors.Is(err, runtime.ErrNoMessages) {
					t.Errorf("Format of no messages: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != w.ChatML || end != "assistant" {
				t.Errorf("Format(ChatML):\n%q %q\nJinja2:\n%q", got, end, w.ChatML)
			}
		})
	}
}

func TestStripHTMLGolden(t *testing.T) {
	var cases, want []string
	readJSON(t, "testdata/html/cases.json", &cases)
	readJSON(t, "testdata/html/want.json", &want)
	if len(cases) != len(want) {
		t.Fatalf("%d cases, %d results: run make golden", len(cases), len(want))
	}
	for i, c := range cases {
		if got := StripHTML(c); got != want[i] {
			t.Errorf("StripHTML(%q)\n = %q\nPython: %q", c, got, want[i])
		}
	}
}

// asParsed returns what reading back the output of Format(s, p) gives:
// Llama2 strips user and assistant contents, where the first user
// message comes after the system message.
func asParsed(s Style, p runtime.Prompt) []msg {
	out := make([]msg, len(p))
	for i, m := range p {
		out[i] = msg{string(m.Role), m.Content}
		switch {
		case s != Llama2 || m.Role == runtime.RoleSystem:
		case i == 1 && p[0].Role == runtime.RoleSystem:
			out[i].Content = jinja.StripSpace(m.Content, false, true)
		default:
			out[i].Content = pyStrip(m.Content)
		}
	}
	return out
}
