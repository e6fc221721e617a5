package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRenderSections renders every fixture of the sectioned Think prompt
// with promptgen render, as the generated Render does, and compares with
// what Jinja2 rendered (golden.py assembles the sections).
func TestRenderSections(t *testing.T) {
	prompts := filepath.Join("..", "..", "prompts")
	feeds, err := filepath.Glob(filepath.Join("..", "..", "generated", "testdata", "kitchen", "think", "*.json"))
	if err != nil || len(feeds) < 3 {
		t.Fatalf("fixtures of kitchen/think: %v, %v", feeds, err)
	}
	for _, feed := range feeds {
		code, stdout, stderr := runArgs("render", "-in", prompts, "-data", feed, "kitchen/think")
		if code != exitOK {
			t.Errorf("%s: exit %d: %s", feed, code, stderr)
			continue
		}
		if want := string(readFile(t, strings.TrimSuffix(feed, ".json")+".want.txt")); stdout != want {
			t.Errorf("%s (-want +got):\n%s", feed, cmp.Diff(want, stdout))
		}
	}
}

// TestRenderBudget checks the budget report of render -budget: a line per
// section rendered, with its budget and dropped items, and the prompt's
// total; and that -budget is refused for a prompt without sections.
func TestRenderBudget(t *testing.T) {
	prompts := filepath.Join("..", "..", "prompts")
	feed := filepath.Join("..", "..", "generated", "testdata", "kitchen", "think", "first_turn.json")
	code, stdout, stderr := runArgs("render", "-in", prompts, "-data", feed, "-budget", "kitchen/think")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if want := string(readFile(t, strings.TrimSuffix(feed, ".json")+".want.txt")); stdout != want {
		t.Errorf("-budget changed the prompt printed (-want +got):\n%s", cmp.Diff(want, stdout))
	}
	// first_turn has no registry and no conversation: those sections are out.
	rows := regexp.MustCompile(`(?m)^(\S+) +(\d+) +(\S+) +(\S+) +(\S+) *$`).FindAllStringSubmatch(stderr, -1)
	var got []string
	for _, r := range rows {
		got = append(got, r[1]+" "+r[3]+" "+r[4])
	}
	want := []string{"(head) - -", "user_profile 60 -", "kitchen_dashboard 80 -", "task 100 -", "your_decision - -"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("budget report rows (-want +got):\n%s\nreport:\n%s", d, stderr)
	}
	if !regexp.MustCompile(`(?m)^prompt +\d+ *$`).MatchString(stderr) || !strings.Contains(stderr, "tokens counted with o200k_base") {
		t.Errorf("the report has no prompt total or tokenizer:\n%s", stderr)
	}

	code, _, stderr = runArgs("render", "-in", prompts, "-budget", "support/draft_reply")
	if code != exitUsage || !strings.Contains(stderr, `-budget applies to sectioned prompts only, and "support/draft_reply" has no sections`) {
		t.Errorf("-budget on a plain prompt: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestHeadlessSections renders the sectioned prompt of
// gen/testdata/headless, which has no template key (its head is
// optional), with promptgen render and promptgen test, and compares with
// Jinja2's output (golden.py --prompts). Both panicked: the positions of
// its sections were "not in" the file of the absent template.
func TestHeadlessSections(t *testing.T) {
	dir := filepath.Join("..", "..", "gen", "testdata", "headless")
	prompts, fixtures := filepath.Join(dir, "prompts"), filepath.Join(dir, "fixtures")
	feeds, err := filepath.Glob(filepath.Join(fixtures, "sections", "*.json"))
	if err != nil || len(feeds) < 2 {
		t.Fatalf("fixtures of sections: %v, %v", feeds, err)
	}
	for _, feed := range feeds {
		code, stdout, stderr := runArgs("render", "-in", prompts, "-data", feed, "sections")
		if code != exitOK {
			t.Errorf("render %s: exit %d: %s", feed, code, stderr)
			continue
		}
		if want := string(readFile(t, strings.TrimSuffix(feed, ".json")+".want.txt")); stdout != want {
			t.Errorf("render %s (-want +got):\n%s", feed, cmp.Diff(want, stdout))
		}
	}
	code, stdout, stderr := runArgs("test", "-in", prompts, "-dir", fixtures, "-v", "sections")
	if want := fmt.Sprintf("promptgen: test: %d snapshots match", len(feeds)); code != exitOK || stdout != "" || !strings.Contains(stderr, want) {
		t.Errorf("test: exit %d\nstdout:\n%s\nstderr:\n%s\nwant %q", code, stdout, stderr, want)
	}
}
