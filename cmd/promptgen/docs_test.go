package main

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// The checks of TestDocsStandTrue.
var (
	mdLink       = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	repoPath     = regexp.MustCompile("`((?:prompts|generated|example|runtime|schema|vet|cmd|gen|docs|\\.ci)/[^` ]*)`")
	makeTarget   = regexp.MustCompile(`\bmake ([a-z][a-z-]*)\b`)
	subcommand   = regexp.MustCompile("(?m)(?:`promptgen |go tool promptgen |^\\$ promptgen |cmd/promptgen )([a-z]+)\\b")
	heading      = regexp.MustCompile(`(?m)^#+ (.+)$`)
	makefileRule = regexp.MustCompile(`(?m)^([a-z][a-z-]*):`)
)

// TestDocsStandTrue checks README.md and every file of docs/: they refer to
// nothing a user of the repository does not have (design notes or specs
// outside it), every relative link leads to a file (and heading) that
// exists, every repository path they name in code exists, every `make`
// target is one of the Makefile's and every promptgen command one of the
// command's. The README's walkthrough names files of the user's module, and
// TestReadmeWalkthrough runs it instead.
func TestDocsStandTrue(t *testing.T) {
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(files) < 10 {
		t.Fatalf("docs/ holds %d files (%v): the reference is missing", len(files), err)
	}
	files = append(files, "../../README.md")
	makefile := string(readFile(t, "../../Makefile"))
	targets := []string{}
	for _, m := range makefileRule.FindAllStringSubmatch(makefile, -1) {
		targets = append(targets, m[1])
	}
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	counts := map[string]int{}
	for _, file := range files {
		text := string(readFile(t, file))
		name := strings.TrimPrefix(file, "../../")
		if name == "README.md" {
			text = withoutSection(text, "## Use it in your own module")
		}
		for _, outside := range []string{"DESIGN", "shared/", "§"} {
			if i := strings.Index(text, outside); i >= 0 {
				t.Errorf("%s refers to %q, which is not in the repository: ...%s...", name, outside, text[max(i-40, 0):min(i+40, len(text))])
			}
		}
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") {
				continue
			}
			counts["link"]++
			file, anchor, _ := strings.Cut(target, "#")
			full := filepath.Join(filepath.Dir(filepathOf(name)), filepath.FromSlash(file))
			if file == "" {
				full = filepathOf(name)
			}
			if _, err := os.Stat(full); err != nil {
				t.Errorf("%s links to %s, which does not exist", name, target)
				continue
			}
			if anchor != "" && !slices.Contains(anchors(t, full), anchor) {
				t.Errorf("%s links to %s, but %s has no heading #%s", name, target, file, anchor)
			}
		}
		for _, m := range repoPath.FindAllStringSubmatch(text, -1) {
			p := m[1]
			if strings.ContainsAny(p, "<>*{") {
				continue // a pattern, not a path
			}
			counts["path"]++
			if dir, sel, ok := strings.Cut(path.Base(p), "."); ok && sel != "" && unicode.IsUpper(rune(sel[0])) {
				p = path.Join(path.Dir(p), dir) // a Go identifier: runtime/chat.Context
			}
			if _, err := os.Stat(filepath.Join("../..", filepath.FromSlash(p))); err != nil {
				t.Errorf("%s names %s, which does not exist", name, p)
			}
		}
		for _, m := range makeTarget.FindAllStringSubmatch(text, -1) {
			counts["make"]++
			if !slices.Contains(targets, m[1]) {
				t.Errorf("%s names `make %s`, which the Makefile does not have", name, m[1])
			}
		}
		for _, m := range subcommand.FindAllStringSubmatch(text, -1) {
			counts["command"]++
			if !slices.Contains(names, m[1]) && m[1] != "help" {
				t.Errorf("%s names `promptgen %s`, which is no command of promptgen", name, m[1])
			}
		}
	}
	t.Logf("checked %v", counts)
	for _, kind := range []string{"link", "path", "make", "command"} {
		if counts[kind] < 5 {
			t.Errorf("found only %d %ss in the docs: the pattern is broken", counts[kind], kind)
		}
	}
}

// filepathOf is the path of a repository file from this package.
func filepathOf(name string) string { return filepath.Join("../..", filepath.FromSlash(name)) }

// withoutSection returns text without the section that starts with the
// heading line head, up to the next heading of its level.
func withoutSection(text, head string) string {
	start := strings.Index(text, head+"\n")
	if start < 0 {
		return text
	}
	level := head[:strings.IndexByte(head, ' ')+1]
	rest := text[start+len(head):]
	end := strings.Index(rest, "\n"+level)
	if end < 0 {
		return text[:start]
	}
	return text[:start] + rest[end+1:]
}

// anchors returns the anchors GitHub makes of a Markdown file's headings.
func anchors(t *testing.T, file string) []string {
	var out []string
	for _, m := range heading.FindAllStringSubmatch(string(readFile(t, file)), -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		out = append(out, b.String())
	}
	return out
}

// TestPromptKeysDocumented checks that docs/prompt-files.md's table names
// every key of a prompt file, as the editor schema lists them.
func TestPromptKeysDocumented(t *testing.T) {
	var s struct{ Properties map[string]json.RawMessage }
	if err := json.Unmarshal(readFile(t, "../../schema/prompt.schema.json"), &s); err != nil {
		t.Fatal(err)
	}
	doc := string(readFile(t, "../../docs/prompt-files.md"))
	if len(s.Properties) < 10 {
		t.Fatalf("the schema lists %d keys", len(s.Properties))
	}
	for key := range s.Properties {
		if !strings.Contains(doc, "\n| `"+key+"` |") {
			t.Errorf("docs/prompt-files.md has no row for the key %q", key)
		}
	}
}
