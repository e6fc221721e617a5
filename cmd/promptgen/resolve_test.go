package main

import (
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
		{[]string{"agent", "-key", "Refund", "-type", "billing"}, exitFail,
			"  miss  billing/Refund\n  miss  billing/default\n  miss  default\n",
			"promptgen: resolve: agent: no template for key \"Refund\" (tried billing/Refund, billing/default, default)\n"},
		{[]string{"agent", "-key", "x", "-type", ""}, exitFail,
			"  miss  x\n  miss  default\n",
			"promptgen: resolve: agent: no template for key \"x\" (tried x, default)\n"},
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

// TestRenderSetTemplate: render does not render set templates yet, and says so.
func TestRenderSetTemplate(t *testing.T) {
	code, stdout, stderr := runArgs("render", "-in", filepath.Join("..", "..", "prompts"), "agent/main/BrowseLink")
	want := `promptgen: "agent/main/BrowseLink" is in the template set "agent": render does not support template sets yet (promptgen resolve shows the template a key selects)` + "\n"
	if code != exitFail || stdout != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and %q", code, stdout, stderr, want)
	}
}
