package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// cloneLine is the walkthrough's clone of promptgen; the test links the
// checkout in its place, so that it tests this tree and needs no network.
const cloneLine = "git clone https://github.com/promptgen/promptgen.git"

// TestReadmeWalkthrough runs the README's "Use it in your own module" in an
// empty directory exactly as written: every sh block's commands in order,
// every file the text names before a code block written as shown, and the
// output it shows for a command compared byte for byte.
func TestReadmeWalkthrough(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("the walkthrough needs the go command on PATH")
	}
	steps := walkthrough(t, "../../README.md")
	checkout, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var script strings.Builder
	script.WriteString("set -eu\n")
	expected := map[string]string{} // output file -> text
	for i, s := range steps {
		switch {
		case s.file != "":
			quoted := shellQuote(s.file)
			script.WriteString("mkdir -p \"$(dirname " + quoted + ")\"\ncat > " + quoted + " <<'WALKTHROUGH_EOF'\n" + s.body + "WALKTHROUGH_EOF\n")
		case s.command == cloneLine:
			script.WriteString("ln -s " + shellQuote(checkout) + " promptgen\n")
		case s.output != "":
			out := filepath.Join(dir, "output", strings.Repeat("x", i+1))
			expected[out] = s.output
			script.WriteString(s.command + " > " + shellQuote(out) + "\n")
		default:
			script.WriteString(s.command + "\n")
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "output"), 0o755); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-c", script.String())
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the walkthrough failed: %v\n%s\nscript:\n%s", err, out, script.String())
	}
	if len(expected) == 0 {
		t.Fatal("the walkthrough shows no output to compare: the README's layout changed")
	}
	for file, want := range expected {
		got, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("the walkthrough printed\n%s\nthe README shows\n%s", got, want)
		}
	}
}

// A step of the walkthrough: a command (with the output the README shows
// for it, if any), or a file to write.
type step struct {
	command, output string
	file, body      string
}

var (
	fileIntro   = regexp.MustCompile("`([^` ]+\\.[a-z]+)`:$")          // "... `path/to/file.go`:" before a block
	outputIntro = regexp.MustCompile("^`([^`]+)` prints:$")            // "`go run .` prints:" before a block
	fence       = regexp.MustCompile("^```([a-z]*)$")                  // a code block's opening or closing line
	section     = regexp.MustCompile("^## Use it in your own module$") // the walkthrough's heading
)

// walkthrough reads the steps of the README's walkthrough section.
func walkthrough(t *testing.T, readme string) []step {
	f, err := os.Open(readme)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var steps []step
	in, inBlock := false, false
	var lang, intro string
	var body strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !in:
			in = section.MatchString(line)
		case inBlock && line == "```":
			inBlock = false
			steps = append(steps, blockSteps(t, lang, intro, body.String(), steps)...)
			intro = ""
		case inBlock:
			body.WriteString(line + "\n")
		case strings.HasPrefix(line, "## "):
			in = false
		default:
			if m := fence.FindStringSubmatch(line); m != nil {
				inBlock, lang = true, m[1]
				body.Reset()
			} else if line != "" {
				intro = line
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(steps) == 0 {
		t.Fatal("found no walkthrough in the README")
	}
	return steps
}

// blockSteps turns one code block into steps: an sh block into commands, a
// block after "`file`:" into a file, and a block after "`cmd` prints:" into
// the output of the last step that ran cmd.
func blockSteps(t *testing.T, lang, intro, body string, before []step) []step {
	switch {
	case lang == "sh":
		var steps []step
		for _, c := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
			steps = append(steps, step{command: c})
		}
		return steps
	case outputIntro.MatchString(intro):
		cmd := outputIntro.FindStringSubmatch(intro)[1]
		for i := len(before) - 1; i >= 0; i-- {
			if before[i].command == cmd {
				before[i].output = body
				return nil
			}
		}
		t.Fatalf("the README shows the output of %q, which the walkthrough does not run before", cmd)
	case fileIntro.MatchString(intro):
		return []step{{file: fileIntro.FindStringSubmatch(intro)[1], body: body}}
	}
	return nil // an illustration, such as the published go get line
}

// shellQuote quotes s for bash.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
