package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/output.want.txt with the example's output")

const wantFile = "testdata/output.want.txt"

// TestOutput runs the example and compares what it prints with
// testdata/output.want.txt. That file mixes rendered prompts with the
// example's own text, so `go test ./example -update` may rewrite it; the
// prompts in it are held to Jinja2 by checkPrompts.
func TestOutput(t *testing.T) {
	var buf bytes.Buffer
	if err := run(&buf); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	checkPrompts(t, got)

	if *update {
		if err := os.MkdirAll(filepath.Dir(wantFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(wantFile, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(wantFile)
	if err != nil {
		t.Fatalf("%v (run go test ./example -update)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (-want +got):\n%s\nIf the change is intended, run go test ./example -update",
			wantFile, cmp.Diff(string(want), got))
	}
}

// header is the line that show prints before each prompt.
var header = regexp.MustCompile(`(?m)^=== (\S+) \(model .*\) ===\n`)

// checkPrompts checks that each prompt in the example's output is exactly
// what real Jinja2 renders for one of that prompt's fixtures in
// ../generated/testdata (the <scenario>.want.txt files of golden.py).
func checkPrompts(t *testing.T, out string) {
	t.Helper()
	heads := header.FindAllStringSubmatchIndex(out, -1)
	if len(heads) == 0 {
		t.Fatal("the example printed no prompts")
	}
	for _, h := range heads {
		key, rest := out[h[2]:h[3]], out[h[1]:]
		dir := filepath.Join("..", "generated", "testdata", filepath.FromSlash(key))
		wants, err := filepath.Glob(filepath.Join(dir, "*.want.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if len(wants) == 0 {
			t.Errorf("the example prints prompt %s, which has no fixtures in %s", key, dir)
			continue
		}
		matched := false
		var closest, closestDiff string
		for _, w := range wants {
			b, err := os.ReadFile(w)
			if err != nil {
				t.Fatal(err)
			}
			// show ends each prompt with a blank line.
			want := string(b)
			if strings.HasPrefix(rest, want+"\n\n") {
				matched = true
				break
			}
			got := firstLines(rest, strings.Count(want, "\n")+1)
			if d := cmp.Diff(want, got); closest == "" || len(d) < len(closestDiff) {
				closest, closestDiff = w, d
			}
		}
		if !matched {
			t.Errorf("the example's %s prompt is not the Jinja2 render of any fixture in %s: "+
				"add its feed there and run make golden. Closest is %s (-want +got):\n%s",
				key, dir, closest, closestDiff)
		}
	}
}

// firstLines returns the first n lines of s, without the last newline.
func firstLines(s string, n int) string {
	end := 0
	for ; n > 0; n-- {
		i := strings.IndexByte(s[end:], '\n')
		if i < 0 {
			return s
		}
		end += i + 1
	}
	return s[:max(end-1, 0)]
}

// TestOutputReadable checks what makes the example's output readable to a
// newcomer: its parts under headings, every deliberate error labelled as
// such, and each provider's request naming one of that provider's models.
func TestOutputReadable(t *testing.T) {
	var buf bytes.Buffer
	if err := run(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	var headings []string
	for _, m := range regexp.MustCompile(`(?m)^##### (.+) #####$`).FindAllStringSubmatch(out, -1) {
		headings = append(headings, m[1])
	}
	want := []string{"Prompts rendered from typed feeds", "An agent loop over the agent template set",
		"Parsing completions into the output types", "A sectioned prompt with token budgets", "One messages prompt, three destinations",
		"A prompt with an image", "A tool-using step"}
	if d := cmp.Diff(want, headings); d != "" {
		t.Errorf("headings (-want +got):\n%s", d)
	}
	// Every error printed is one the example makes on purpose, and says so.
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "required variable is not set") || strings.Contains(line, "holds a marker") || strings.HasPrefix(line, "a deliberately") {
			if !strings.Contains(line, "deliberate") {
				t.Errorf("an error not labelled as deliberate: %s", line)
			}
		}
	}
	anthropic := out[strings.Index(out, "as an Anthropic message request"):]
	if m := regexp.MustCompile(`"model": "([^"]+)"`).FindStringSubmatch(anthropic); m == nil || !strings.HasPrefix(m[1], "claude") {
		t.Errorf("the Anthropic request names model %v", m)
	}
}
