package main

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSnapshotsOfTheRepository runs promptgen test over the fixtures of
// generated/testdata, whose snapshots real Jinja2 rendered (make golden):
// every prompt, sectioned prompt, fragment and set template renders them
// byte for byte. The messages prompts' fixtures are JSON message lists,
// which promptgen test does not render.
func TestSnapshotsOfTheRepository(t *testing.T) {
	messagesPrompts := []string{"support/classify_sentiment", "support/describe_screenshot"}
	dirs, err := filepath.Glob(filepath.Join("..", "..", "generated", "testdata", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"test", "-in", filepath.Join("..", "..", "prompts"), "-dir", filepath.Join("..", "..", "generated", "testdata"), "-v"}
	for _, d := range dirs {
		key := filepath.ToSlash(strings.TrimPrefix(d, filepath.Join("..", "..", "generated", "testdata")+string(filepath.Separator)))
		if !slices.Contains(messagesPrompts, key) {
			args = append(args, key)
		}
	}
	code, stdout, stderr := runArgs(args...)
	if code != exitOK || stdout != "" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	feeds := 0
	err = filepath.WalkDir(filepath.Join("..", "..", "generated", "testdata"), func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".json") && !slices.Contains(messagesPrompts, path.Dir(strings.TrimPrefix(filepath.ToSlash(p), "../../generated/testdata/"))) {
			feeds++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("promptgen: test: %d snapshots match", feeds); feeds < 36 || !strings.Contains(stderr, want) {
		t.Errorf("stderr:\n%s\nwant all %d snapshots checked", stderr, feeds)
	}
}

// TestSnapshots walks a user's workflow: new feeds, -update, a change
// shown as a diff, a selective update, and each kind of broken case.
func TestSnapshots(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeTestFile(t, "prompts/support/greet.yaml", "template: |\n  Hello {{ name }}.\n  {% if vip %}Thank you for being with us.{% endif %}\ninputs:\n  name: string\n  vip: bool?\n")
	writeTestFile(t, "prompts/agent/promptset.yaml", "inputs: {page: string}\n")
	writeTestFile(t, "prompts/agent/main/Browse.jinja", "{{ preamble }}\nPage: {{ page }}")
	writeTestFile(t, "prompts/agent/main/Browse.pro.jinja", "{{ preamble }}\nPro page: {{ page }}")
	writeTestFile(t, "prompts/agent/main/default.jinja", "{{ preamble }}")
	writeTestFile(t, "prompts/agent/main/components/preamble.jinja", "You browse.")
	writeTestFile(t, "prompts/agent/main/components/preamble.pro.jinja", "You browse for a pro.")
	writeTestFile(t, "prompts/think.yaml", "markers: false\ntemplate: Plan.\nsections:\n  - name: notes\n    when: notes\n    template: '{{ notes | join(\", \") }}'\ninputs:\n  notes: [string]\n")
	writeTestFile(t, "snap/support/greet/ada.json", `{"name": "Ada", "vip": true}`)
	writeTestFile(t, "snap/support/greet/grace.json", `{"name": "Grace"}`)
	writeTestFile(t, "snap/agent/main/Browse.pro/a.json", `{"page": "pricing"}`)
	writeTestFile(t, "snap/agent/main/Browse/a.json", `{"page": "home"}`)
	writeTestFile(t, "snap/think/some.json", `{"notes": ["a", "b"]}`)
	writeTestFile(t, "snap/think/none.json", `{"notes": []}`)
	testCmd := func(args ...string) (int, string, string) {
		return runArgs(append([]string{"test", "-in", "prompts", "-dir", "snap"}, args...)...)
	}

	code, stdout, stderr := testCmd()
	if code != exitFail || stdout != "" || strings.Count(stderr, "has no snapshot (run promptgen test -update to write it)") != 6 ||
		!strings.HasSuffix(stderr, "promptgen: test: 6 of 6 snapshots failed\n") {
		t.Fatalf("without snapshots: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	if code, _, stderr := testCmd("-update", "-v"); code != exitOK || !strings.Contains(stderr, "promptgen: test: wrote 6 of 6 snapshots") {
		t.Fatalf("-update: exit %d\n%s", code, stderr)
	}
	for file, want := range map[string]string{
		"snap/support/greet/ada.want.txt":       "Hello Ada.\nThank you for being with us.",
		"snap/support/greet/grace.want.txt":     "Hello Grace.\n",
		"snap/agent/main/Browse.pro/a.want.txt": "You browse for a pro.\nPro page: pricing",
		"snap/agent/main/Browse/a.want.txt":     "You browse.\nPage: home",
		"snap/think/some.want.txt":              "Plan.\n\na, b\n",
		"snap/think/none.want.txt":              "Plan.\n",
	} {
		if got := string(readFile(t, file)); got != want {
			t.Errorf("%s = %q, want %q", file, got, want)
		}
	}
	if code, stdout, stderr := testCmd(); code != exitOK || stdout != "" || stderr != "" {
		t.Fatalf("after -update: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	// A change to a prompt is a diff, and -update with a key updates that
	// prompt's snapshots only.
	writeTestFile(t, "prompts/support/greet.yaml", "template: |\n  Hi {{ name }}.\n  {% if vip %}Thank you for being with us.{% endif %}\ninputs:\n  name: string\n  vip: bool?\n")
	writeTestFile(t, "prompts/agent/main/components/preamble.pro.jinja", "You browse for a professional.")
	code, stdout, stderr = testCmd()
	wantDiff := `--- a/snap/agent/main/Browse.pro/a.want.txt
+++ b/snap/agent/main/Browse.pro/a.want.txt
@@ -1,2 +1,2 @@
-You browse for a pro.
+You browse for a professional.
 Pro page: pricing
\ No newline at end of file
--- a/snap/support/greet/ada.want.txt
+++ b/snap/support/greet/ada.want.txt
@@ -1,2 +1,2 @@
-Hello Ada.
+Hi Ada.
 Thank you for being with us.
\ No newline at end of file
--- a/snap/support/greet/grace.want.txt
+++ b/snap/support/greet/grace.want.txt
@@ -1 +1 @@
-Hello Grace.
+Hi Grace.
`
	if code != exitFail || stdout != wantDiff || stderr != "promptgen: test: 3 of 6 snapshots failed\n" {
		t.Fatalf("after a change: exit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", code, stdout, wantDiff, stderr)
	}
	if code, _, stderr := testCmd("-update", "support"); code != exitOK {
		t.Fatalf("-update support: exit %d\n%s", code, stderr)
	}
	if code, stdout, _ := testCmd(); code != exitFail || !strings.HasPrefix(stdout, "--- a/snap/agent/main/Browse.pro/a.want.txt") || strings.Contains(stdout, "greet") {
		t.Errorf("after -update support: exit %d\n%s", code, stdout)
	}
	if code, _, stderr := testCmd("-update"); code != exitOK {
		t.Fatalf("-update: exit %d\n%s", code, stderr)
	}

	// Broken cases.
	writeTestFile(t, "snap/support/greet/typo.json", `{"nme": "Alan"}`)
	writeTestFile(t, "snap/support/greet/gone.want.txt", "Hello Gone.\n")
	writeTestFile(t, "snap/support/old/a.json", `{}`)
	code, _, stderr = testCmd()
	for _, want := range []string{
		`promptgen: test: snap/support/greet/typo.json: unknown variable "nme" (did you mean "name"?)`,
		`promptgen: test: no prompt "support/old" in prompts`,
		"promptgen: test: snap/support/greet/gone.want.txt has no feed beside it (delete it, or run promptgen test -update)",
		"promptgen: test: 3 of 8 snapshots failed",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr:\n%s\nwant it to contain %q", stderr, want)
		}
	}
	if code != exitFail {
		t.Errorf("exit %d, want %d", code, exitFail)
	}
	if code, _, _ := testCmd("-update", "support/greet"); code != exitFail {
		t.Errorf("-update with a bad feed: exit %d, want %d", code, exitFail)
	}
	if _, err := os.Stat("snap/support/greet/gone.want.txt"); !os.IsNotExist(err) {
		t.Errorf("-update left the snapshot without a feed (%v)", err)
	}
	if code, _, stderr := testCmd("support/nope"); code != exitFail || !strings.Contains(stderr, `promptgen: test: no snapshots of "support/nope" in snap`) {
		t.Errorf("an unknown PROMPT: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runArgs("test", "-dir", "missing"); code != exitFail || !strings.Contains(stderr, "promptgen: test: lstat missing: no such file or directory") {
		t.Errorf("a missing -dir: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runArgs("test", "-bogus"); code != exitUsage || !strings.Contains(stderr, "promptgen: test: flag provided but not defined: -bogus") {
		t.Errorf("a bad flag: exit %d\n%s", code, stderr)
	}

	writeTestFile(t, "prompts/chat.yaml", "messages: [{role: user, template: hi}]\n")
	writeTestFile(t, "snap/chat/a.json", `{}`)
	if code, _, stderr := testCmd("chat"); code != exitFail || !strings.Contains(stderr, `"chat" is a messages prompt`) {
		t.Errorf("a messages prompt: exit %d\n%s", code, stderr)
	}
}
