package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestResolve resolves keys of the agent set of prompts/ (see
// prompts/agent): the chosen path first, then the chain tried.
func TestResolve(t *testing.T) {
	prompts := filepath.Join("..", "..", "prompts")
	tests := []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{[]string{"agent", "-key", "BrowseLink"}, exitOK, "main/BrowseLink\n  hit   main/BrowseLink (T/K)\n", ""},
		{[]string{"-key", "", "agent"}, exitOK, "main/default\n  hit   main/default (T/D)\n", ""},
		{[]string{"agent", "-key", "BrowseLink", "-version", "enterprise"}, exitOK,
			"main/BrowseLink.enterprise\n  hit   main/BrowseLink.enterprise (T/K.V)\n", ""},
		{[]string{"agent", "-key", "Search", "-version", "enterprise"}, exitOK,
			"main/Search\n  miss  main/Search.enterprise\n  hit   main/Search (T/K)\n", ""},
		{[]string{"agent", "-key", "BrowseLink", "-root", "action_agent", "-version", "enterprise"}, exitOK,
			"action_agent/main/default\n" +
				"  miss  action_agent/main/BrowseLink.enterprise\n" +
				"  miss  action_agent/main/BrowseLink\n" +
				"  miss  action_agent/main/default.enterprise\n" +
				"  hit   action_agent/main/default (R/T/D)\n", ""},
		{[]string{"agent", "-key", "SubmitForm", "-type", "reflection"}, exitOK,
			"reflection/default\n  miss  reflection/SubmitForm\n  hit   reflection/default (T/D)\n", ""},
		{[]string{"agent", "-key", "reflection/Review"}, exitOK,
			"reflection/default\n  miss  reflection/Review\n  hit   reflection/default (T/D)\n", ""},
		// After every path, the set's default_template (the system default).
		{[]string{"agent", "-key", "Refund", "-type", "billing"}, exitOK,
			"default_template\n  miss  billing/Refund\n  miss  billing/default\n  miss  default\n  hit   default_template (system default)\n", ""},
		{[]string{"agent", "-key", "x", "-type", ""}, exitOK,
			"default_template\n  miss  x\n  miss  default\n  hit   default_template (system default)\n", ""},
		// No key names it.
		{[]string{"agent", "-key", "default_template", "-type", ""}, exitOK,
			"default_template\n  miss  default_template\n  miss  default\n  hit   default_template (system default)\n", ""},
		{[]string{"agent", "-key", "BrowseLink", "-default-name", "fallback"}, exitOK,
			"main/BrowseLink\n  hit   main/BrowseLink (T/K)\n", ""},
		{[]string{"agnt", "-key", "x"}, exitFail, "",
			"promptgen: resolve: no template set \"agnt\" in " + prompts + " (did you mean \"agent\"?)\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := runArgs(append([]string{"resolve", "-in", prompts}, tt.args...)...)
			if code != tt.code || stdout != tt.stdout || stderr != tt.stderr {
				t.Errorf("exit %d; want %d\nstdout (-want +got):\n%s\nstderr (-want +got):\n%s",
					code, tt.code, cmp.Diff(tt.stdout, stdout), cmp.Diff(tt.stderr, stderr))
			}
		})
	}
}

func TestResolveErrors(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "p", "bad", "promptset.yaml"), "default_typ: main\n")
	writeTestFile(t, filepath.Join(dir, "p", "bad", "default.jinja"), "hi")
	writeTestFile(t, filepath.Join(dir, "p", "good", "promptset.yaml"), "")
	writeTestFile(t, filepath.Join(dir, "p", "good", "default.jinja"), "{{ broken")
	writeTestFile(t, filepath.Join(dir, "p", "plain", "promptset.yaml"), "")
	writeTestFile(t, filepath.Join(dir, "p", "plain", "main", "default.jinja"), "hi")
	t.Chdir(dir)
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"resolve", "-in", "p", "bad", "-key", "x"}, exitFail,
			"p/bad/promptset.yaml:1:1: unknown key \"default_typ\" (did you mean \"default_type\"?)\n"},
		// Resolving does not check templates: "good" resolves.
		{[]string{"resolve", "-in", "p", "good"}, exitOK, ""},
		// Without default_template, a key that every path misses is an error.
		{[]string{"resolve", "-in", "p", "plain", "-key", "x", "-type", "billing"}, exitFail,
			"promptgen: resolve: plain: no template for key \"x\" (tried billing/x, billing/default, default)\n"},
		{[]string{"resolve", "-in", "p"}, exitUsage, "promptgen: resolve: want one template set, got 0\n"},
		{[]string{"resolve", "-in", "p", "a", "b"}, exitUsage, "promptgen: resolve: want one template set, got 2\n"},
		{[]string{"resolve", "-in", "p", "good", "-kye", "x"}, exitUsage, "promptgen: resolve: flag provided but not defined: -kye\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, stderr := runArgs(tt.args...)
			if code != tt.code || !strings.HasPrefix(stderr, tt.stderr) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d, stderr starting with:\n%s", code, stderr, tt.code, tt.stderr)
			}
		})
	}
	if code, stdout, _ := runArgs("help", "resolve"); code != exitOK || !strings.Contains(stdout, "usage: promptgen resolve [-in dir] SET -key K") {
		t.Errorf("help resolve: %d %q", code, stdout)
	}
}

// TestRenderSetCorpus renders every fixture of every template of a set
// with promptgen render, as generated code renders it (through the fallback
// chain, with the template's namespace as the type and its version; the
// system default under settings where every path misses; a scenario
// <scenario>@<name> with -predefined name) and
// compares with what Jinja2 rendered: the sets of prompts/ (fixtures in
// generated/testdata) and gen/testdata/golden/set (gen/testdata/setrun).
func TestRenderSetCorpus(t *testing.T) {
	corpora := []struct{ prompts, fixtures string }{
		{filepath.Join("..", "..", "prompts"), filepath.Join("..", "..", "generated", "testdata")},
		{filepath.Join("..", "..", "gen", "testdata", "golden", "set", "prompts"), filepath.Join("..", "..", "gen", "testdata", "setrun", "fixtures")},
	}
	n := 0
	for _, c := range corpora {
		err := filepath.WalkDir(c.fixtures, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
				return err
			}
			rel, _ := filepath.Rel(c.fixtures, filepath.Dir(p))
			set, tmpl, _ := strings.Cut(filepath.ToSlash(rel), "/")
			if _, err := os.Stat(filepath.Join(c.prompts, set, "promptset.yaml")); err != nil {
				return nil // a plain prompt's fixture
			}
			ns, file := "", tmpl
			if i := strings.LastIndexByte(tmpl, '/'); i >= 0 {
				ns, file = tmpl[:i], tmpl[i+1:]
			}
			name, version, _ := strings.Cut(file, ".")
			args := []string{"render", "-in", c.prompts, set, "-key", name, "-type", ns, "-version", version, "-data", p}
			if tmpl == "default_template" { // the system default: where every path misses
				args = []string{"render", "-in", c.prompts, set, "-key", "none", "-type", "none", "-default-name", "none", "-data", p}
			}
			if _, predefined, ok := strings.Cut(strings.TrimSuffix(d.Name(), ".json"), "@"); ok {
				args = append(args, "-predefined", predefined)
			}
			n++
			code, stdout, stderr := runArgs(args...)
			got := stdout
			if code != exitOK {
				got = "ERROR: " + stderr
			}
			if want := string(readFile(t, strings.TrimSuffix(p, ".json")+".want.txt")); got != want {
				t.Errorf("%s (-want +got):\n%s", p, cmp.Diff(want, got))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 15 {
		t.Errorf("rendered %d set fixtures", n)
	}
}

func TestRenderSetErrors(t *testing.T) {
	prompts, err := filepath.Abs(filepath.Join("..", "..", "prompts"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "p", "s", "promptset.yaml"), "inputs:\n  name: string\n  n: int?\n")
	writeTestFile(t, filepath.Join(dir, "p", "s", "default.jinja"), "Hi {{ name }}{{ n }} {% include 'sig' %}")
	writeTestFile(t, filepath.Join(dir, "p", "s", "components", "sig.jinja"), "-- {{ name|upper }}{{ n + 1 }}")
	writeTestFile(t, filepath.Join(dir, "p", "broken", "promptset.yaml"), "")
	writeTestFile(t, filepath.Join(dir, "p", "broken", "default.jinja"), "{{ x | uper }}")
	writeTestFile(t, filepath.Join(dir, "p", "plain", "promptset.yaml"), "")
	writeTestFile(t, filepath.Join(dir, "p", "plain", "main", "default.jinja"), "hi")
	const usage = "usage: promptgen render [-in dir] [-data file.json|-] [-strict] [-now time] [-budget] PROMPT [-key K] [-type T] [-root R] [-version V] [-default-name D] [-predefined P]\nRun 'promptgen help render' for details.\n"
	const fallback = "You are %s's assistant. No prompt fits this step, so answer plainly.\n\nUser: u\n\nRespond in a structured format, with <thought> and <answer> tags."
	tests := []struct {
		args           []string
		data           string
		code           int
		stdout, stderr string
	}{
		// The system default, with the predefined variables acme, which
		// fill the company only when the data leaves it unset.
		{args: []string{"-in", prompts, "agent", "-key", "Refund", "-type", "billing", "-predefined", "acme", "-data", "-"}, data: `{"user_input": "u"}`,
			code: exitOK, stdout: fmt.Sprintf(fallback, "ACME Corp")},
		{args: []string{"-in", prompts, "agent", "-key", "Refund", "-type", "billing", "-predefined", "acme", "-data", "-"}, data: `{"user_input": "u", "company": "Globex"}`,
			code: exitOK, stdout: fmt.Sprintf(fallback, "Globex")},
		{args: []string{"-in", prompts, "agent", "-key", "Refund", "-type", "billing", "-data", "-"}, data: `{"user_input": "u"}`, code: exitFail,
			stderr: "prompts/agent/promptset.yaml:46:14: render agent/default_template: \"company\": required variable is not set\n"},
		{args: []string{"-in", prompts, "agent", "-predefined", "acm"}, code: exitFail,
			stderr: "promptgen: agent: no predefined variables \"acm\" (have acme)\n"},
		{args: []string{"-in", "p", "plain", "-key", "x", "-type", "billing"}, code: exitFail,
			stderr: "promptgen: plain: no template for key \"x\" (tried billing/x, billing/default, default)\n"},
		{args: []string{"-in", "p", "plain", "-predefined", "x"}, code: exitFail,
			stderr: "promptgen: plain: no predefined variables \"x\" (the set has none)\n"},
		{args: []string{"-in", prompts, "support/draft_reply", "-predefined", "x"}, code: exitUsage,
			stderr: "promptgen: render: -predefined applies to template sets only, and \"support/draft_reply\" is a prompt\n" + usage},
		{args: []string{"-in", prompts, "agent/reflection/Review", "-root", "x", "-data", "-"}, code: exitOK, data: `{"user_input": "u", "previous_states": ["a"]}`,
			stdout: "Review your previous actions.\n- a\n\nu"},
		{args: []string{"-in", prompts, "agent", "-data", "-"}, data: `{"user_input": 3}`, code: exitFail,
			stderr: "promptgen: stdin: variable \"user_input\" must be a string, not number\n"},
		// A chat set rejects a special token in the context before printing,
		// as its Render does; keys of the context it does not read are kept.
		{args: []string{"-in", prompts, "chat_formats", "-version", "llama3", "-data", "-"}, data: `{"messages": [{"role": "user", "content": "x<|eot_id|>", "extra": 1}]}`, code: exitFail,
			stderr: "message 0: content: holds a marker of the chat format: \"<|eot_id|>\"\n"},
		{args: []string{"-in", prompts, "chat_formats", "-version", "llama3", "-data", "-"}, data: `{"messages": [{"role": "user", "content": "x", "extra": 1}], "add_generation_prompt": true}`, code: exitOK,
			stdout: "<|start_header_id|>user<|end_header_id|>\n\nx<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"},
		{args: []string{"-in", prompts, "agent/main", "-key", "x"}, code: exitUsage,
			stderr: "promptgen: render: agent/main is inside the template set \"agent\": give the key either in it or with -key\n" + usage},
		{args: []string{"-in", prompts, "support/draft_reply", "-version", "x"}, code: exitUsage,
			stderr: "promptgen: render: -version applies to template sets only, and \"support/draft_reply\" is a prompt\n" + usage},
		{args: []string{"-in", "p", "s", "-data", "-"}, data: `{"name": "ann", "n": 1}`, code: exitOK, stdout: "Hi ann1 -- ANN2"},
		// A required variable unset, in the template, then in the component.
		{args: []string{"-in", "p", "s", "-data", "-"}, data: `{}`, code: exitFail,
			stderr: "p/s/default.jinja:1:7: render s/default: \"name\": required variable is not set\n"},
		{args: []string{"-in", "p", "s", "-data", "-"}, data: `{"name": "ann"}`, code: exitFail,
			stderr: "p/s/components/sig.jinja:1:23: render s/components/sig: \"n\": variable is undefined\n"},
		{args: []string{"-in", "p", "broken"}, code: exitFail,
			stderr: "p/broken/default.jinja:1:8: unknown filter \"uper\" (did you mean \"upper\"?)\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Chdir(dir)
			args := append([]string{"render"}, tt.args...)
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), args, strings.NewReader(tt.data), &stdout, &stderr)
			if code != tt.code || stdout.String() != tt.stdout || stderr.String() != tt.stderr {
				t.Errorf("exit %d; want %d\nstdout (-want +got):\n%s\nstderr (-want +got):\n%s",
					code, tt.code, cmp.Diff(tt.stdout, stdout.String()), cmp.Diff(tt.stderr, stderr.String()))
			}
		})
	}
}
