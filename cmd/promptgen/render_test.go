package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/promptgen/promptgen/internal/testmod"
)

// TestRenderCorpus renders every golden case of gen/testdata/render with
// promptgen render and compares with what Jinja2 printed (or, for the
// deliberate divergences, with what promptgen prints on purpose): the
// third leg of the differential test, next to the two generated backends.
func TestRenderCorpus(t *testing.T) {
	root := filepath.Join("..", "..", "gen", "testdata", "render")
	prompts := filepath.Join(t.TempDir(), "prompts")
	type job struct{ key, feed, want string }
	var jobs []job
	for kind, ext := range map[string]string{"cases": ".want", "divergences": ".promptgen"} {
		dirs, err := filepath.Glob(filepath.Join(root, kind, "*"))
		if err != nil || len(dirs) == 0 {
			t.Fatalf("no %s: %v", kind, err)
		}
		for _, dir := range dirs {
			key := filepath.Base(dir)
			copyFile(t, filepath.Join(dir, "prompt.yaml"), filepath.Join(prompts, key+".yaml"))
			// The template files it includes, beside it.
			for _, ext := range []string{".jinja", ".j2", ".md", ".txt"} {
				files, _ := filepath.Glob(filepath.Join(dir, "*"+ext))
				for _, f := range files {
					copyFile(t, f, filepath.Join(prompts, filepath.Base(f)))
				}
			}
			feeds, _ := filepath.Glob(filepath.Join(dir, "*.json"))
			for _, f := range feeds {
				jobs = append(jobs, job{key, f, strings.TrimSuffix(f, ".json") + ext})
			}
		}
	}
	for _, j := range jobs {
		// The clock of gen/testdata/chat/render.py, for strftime_now.
		code, stdout, stderr := runArgs("render", "-in", prompts, j.key, "-data", j.feed, "-now", "2026-01-08T09:30:00Z")
		got := stdout
		if code != exitOK {
			got = "ERROR: " + strings.TrimSuffix(stderr, "\n")
		}
		want := string(readFile(t, j.want))
		if got != want {
			t.Errorf("%s (-want +got):\n%s", j.feed, cmp.Diff(want, got))
		}
	}
	t.Logf("%d scenarios", len(jobs))
}

func TestRenderErrors(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "p", "greet.yaml"), "inputs:\n  name: string\n  age: int?\n  tags: {type: array, items: {type: string}, optional: true}\n  owner: {type: object, properties: {email: {type: string}}, required: [email]}\ntemplate: \"Hi {{ name }} {{ age }} {{ owner.email }}{{ tags|join(',') }}\"\n")
	writeTestFile(t, filepath.Join(dir, "p", "broken.yaml"), "template: \"{{ x | uper }}\"\n")
	writeTestFile(t, filepath.Join(dir, "p", "team.yaml"), "inputs:\n  members: [{type: object, properties: {name: {type: string}}, required: [name]}]\n  scores: {type: object, additionalProperties: {type: object, properties: {n: {type: integer}}}}\ntemplate: \"{% for m in members %}{{ m.name }}{% endfor %}{{ scores | length }}\"\n")
	writeTestFile(t, filepath.Join(dir, "p", "bad_yaml.yaml"), "template: [\n")
	writeTestFile(t, filepath.Join(dir, "p", "chat.yaml"), "inputs: chat\nspecial_tokens: [\"<|im_end|>\"]\ntemplate: \"{% for m in messages %}{{ m.content }}{% endfor %}\"\n")
	writeTestFile(t, filepath.Join(dir, "p", "tooled.yaml"), "tools: [{name: f, description: d}]\ntemplate: \"[{{ tools }}]\"\n")
	writeTestFile(t, filepath.Join(dir, "p", "msgs.yaml"), "inputs:\n  a: string\n  b: string\nmessages:\n  - role: user\n    template: \"{{ a }}\"\n")
	tests := []struct {
		name, data string
		key        string // default greet
		strict     bool   // -strict
		stdout     string
		stderr     string // an error: exit 1
		warn       string // warnings: exit 0
	}{
		{name: "ok from stdin", data: `{"name": "Ann", "age": 3, "owner": {"email": "a@x"}}`, stdout: "Hi Ann 3 a@x"},
		{name: "missing required", data: `{"owner": {"email": "a@x"}}`, stderr: `p/greet.yaml:6:18: render greet: "name": required variable is not set`},
		{name: "missing nested", data: `{"name": "Ann", "owner": {}}`, stderr: `p/greet.yaml:6:39: render greet: "owner.email": required variable is not set`},
		{name: "wrong type", data: `{"name": 7}`, stderr: `promptgen: stdin: variable "name" must be a string, not number`},
		{name: "wrong nested type", data: `{"name": "Ann", "owner": {"email": ["a"]}}`, stderr: `promptgen: stdin: variable "owner.email" must be a string, not array`},
		{name: "wrong list", data: `{"name": "Ann", "tags": "x"}`, stderr: `promptgen: stdin: variable "tags" must be a list, not string`},
		{name: "int as float", data: `{"name": "Ann", "age": 1.5}`, stderr: `promptgen: stdin: variable "age" must be an int, not number 1.5`},
		{name: "keys the prompt does not read", data: `{"name": "Ann", "nam": 1, "owner": {"email": "a@x", "emial": "b", "address": {"city": "x"}}}`,
			stdout: "Hi Ann  a@x", warn: `promptgen: stdin: warning: the prompt reads no key "nam" (did you mean "name"?)
promptgen: stdin: warning: the prompt reads no key "owner.address"
promptgen: stdin: warning: the prompt reads no key "owner.emial" (did you mean "email"?)`},
		{name: "keys the prompt does not read, -strict", strict: true, data: `{"name": "Ann", "nam": 1}`,
			stderr: `promptgen: stdin: the prompt reads no key "nam" (did you mean "name"?)`},
		{name: "keys in lists and maps", key: "team", data: `{"members": [{"name": "a"}, {"name": "b", "nmae": "c"}], "scores": {"x": {"n": 1, "m": 2}}}`,
			stdout: "ab1", warn: `promptgen: stdin: warning: the prompt reads no key "members[1].nmae" (did you mean "name"?)
promptgen: stdin: warning: the prompt reads no key "scores.x.m" (did you mean "n"?)`},
		{name: "a key in another case is read", data: `{"Name": "Ann", "owner": {"EMAIL": "a@x"}}`, stdout: "Hi Ann  a@x"},
		{name: "not an object", data: `["Ann"]`, stderr: `promptgen: stdin: the data must be a JSON object, not array`},
		{name: "bad JSON", data: "{\n  \"name\": 'Ann'\n}", stderr: `promptgen: stdin: 2:11: invalid JSON: invalid character '\'' looking for beginning of value`},
		{name: "truncated JSON", data: `{"name": "Ann"`, stderr: `promptgen: stdin: invalid JSON: unexpected end of data`},
		{name: "two objects", data: `{"name": "Ann"} {}`, stderr: `promptgen: stdin: data after the JSON object`},
		{name: "chat", key: "chat", data: `{"messages": [{"role": "user", "content": "hi"}]}`, stdout: "hi"},
		// The declared tools fill a chat context only, not a variable of
		// another prompt named tools (they panicked, setting a string).
		{name: "tools variable", key: "tooled", data: `{"tools": "x"}`, stdout: "[x]"},
		{name: "tools variable unset", key: "tooled", data: `{"tools": ""}`, stderr: `p/tooled.yaml:2:16: render tooled: "tools": required variable is not set`},
		{name: "special token", key: "chat", data: `{"messages": [{"role": "user", "content": "hi"}, {"role": "tool", "content": "<|im_end|>"}]}`,
			stderr: `message 1: content: holds a marker of the chat format: "<|im_end|>"`},
		{name: "bos_token", key: "chat", data: `{"messages": [{"role": "user", "content": "hi", "name": "<s>"}], "bos_token": "<s>"}`,
			stderr: `message 0: name: holds a marker of the chat format: "<s>"`},
		// A prompt render cannot take is an error also after warnings
		// (it exited 1 printing only the warning).
		{name: "warning and an error", key: "msgs", data: `{"a": "x", "b": "y"}`, stderr: `p/msgs.yaml:3:3: warning: input "b" is declared but not used by the template
promptgen: "msgs" is a messages prompt: render supports single-template prompts only`},
		{name: "unknown prompt", key: "gret", stderr: `promptgen: no prompt "gret" in p (did you mean "greet"?)`},
		{name: "broken prompt", key: "broken", stderr: `p/broken.yaml:1:19: unknown filter "uper" (did you mean "upper"?)`},
		{name: "prompt file that does not load", key: "bad_yaml", stderr: `p/bad_yaml.yaml:1:11: invalid YAML: did not find expected node content`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(dir)
			key := tt.key
			if key == "" {
				key = "greet"
			}
			args := []string{"render", "-in", "p", "-data", "-", key}
			if tt.strict {
				args = append(args, "-strict")
			}
			var out, errOut bytes.Buffer
			code := run(context.Background(), args, strings.NewReader(tt.data), &out, &errOut)
			wantCode := exitOK
			if tt.stderr != "" {
				wantCode = exitFail
			}
			if code != wantCode || out.String() != tt.stdout || strings.TrimSuffix(errOut.String(), "\n") != tt.stderr+tt.warn {
				t.Errorf("exit %d, stdout %q, stderr %q\nwant exit %d, stdout %q, stderr %q", code, out.String(), errOut.String(), wantCode, tt.stdout, tt.stderr+tt.warn)
			}
		})
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	writeTestFile(t, to, string(readFile(t, from)))
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRenderNow: -now is the clock of strftime_now, and must be an RFC 3339
// time.
func TestRenderNow(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "p", "today.yaml"), "jinja: {profile: transformers}\ntemplate: \"{{ strftime_now('%A %d %B %Y %H:%M') }}\"\n")
	t.Chdir(dir)
	code, stdout, stderr := runArgs("render", "-in", "p", "today", "-now", "2025-12-31T23:59:00+01:00")
	if code != exitOK || stdout != "Wednesday 31 December 2025 23:59" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, _, stderr = runArgs("render", "-in", "p", "today", "-now", "2025-12-31")
	if code != exitUsage || !strings.Contains(stderr, "promptgen: render: -now wants an RFC 3339 time") {
		t.Errorf("bad -now: exit %d, stderr %q", code, stderr)
	}
}

// TestRenderGoFilters: render and test refuse a prompt or set with Go
// filters (filters:), whose functions they cannot call, and say why.
func TestRenderGoFilters(t *testing.T) {
	mod := testmod.New(t, "pgtest")
	t.Chdir(mod)
	writeTestFile(t, "textutil/textutil.go", "package textutil\n\nimport \"strings\"\n\nfunc Shout(s string) string { return strings.ToUpper(s) }\n")
	writeTestFile(t, "prompts/p.yaml", "filters:\n  shout: pgtest/textutil.Shout\ntemplate: \"{{ name | shout }}\"\n")
	writeTestFile(t, "prompts/agent/promptset.yaml", "filters:\n  shout: pgtest/textutil.Shout\ntemplates:\n  main:\n    default: \"{{ name | shout }}\"\n")
	writeTestFile(t, "snap/p/a.json", `{"name": "ada"}`)
	why := "which promptgen render and test cannot call: they run templates inside promptgen, without your module's code; render it through the generated package instead (a Go test or program that calls Render)\n"
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"render", "-in", "prompts", "p"}, `promptgen: prompt "p" has Go filters (shout (pgtest/textutil.Shout)), ` + why},
		{[]string{"render", "-in", "prompts", "agent", "-key", "default"}, `promptgen: template set "agent" has Go filters (shout (pgtest/textutil.Shout)), ` + why},
		{[]string{"test", "-in", "prompts", "-dir", "snap"}, `promptgen: test: prompt "p" has Go filters (shout (pgtest/textutil.Shout)), ` + why},
	} {
		if code, _, stderr := runArgs(tt.args...); code != exitFail || !strings.HasPrefix(stderr, tt.want) {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant exit %d, stderr starting:\n%s", strings.Join(tt.args, " "), code, stderr, exitFail, tt.want)
		}
	}
}
