// Package pyjinja renders templates with real Jinja2 3.1, the reference
// promptgen is held to, and says whether promptgen's outcome matches:
// the same output, or, where Jinja2 raises, an error of the kind its
// exception maps to. The differential fuzzer (internal/difffuzz), the chat
// template corpus and gen's long-chain test use it. It imports nothing of
// promptgen, so that gen's own tests may import it.
package pyjinja

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// Outcome is what one renderer made of a template and its data.
type Outcome struct {
	Status string // "ok", "error", or for promptgen "panic" and "decode"
	Text   string // the output, or the error's message
	// Kind and Detail say which error: for Jinja2 the exception's type
	// and message, for promptgen the runtime sentinel its render error
	// wraps (Kinds) and the runtime.Error's Detail.
	Kind, Detail string
	// Partial is, where Jinja2 raises, what it printed before: a method's
	// address printed there still explains promptgen failing on it.
	Partial string
	// PrintedOpaque, for Jinja2, says that a {{ }} printed a generator,
	// an iterator or a method (its text holds its address), also where
	// that text did not reach the output (a block set never printed, a
	// filter block that cut it), or that a filter, ~, % or a call made a
	// string holding its text that no {{ }} printed (g|string|length).
	PrintedOpaque bool
	// Reached, for a Job with a Probe that Jinja2 renders, says whether
	// Jinja2 ran the probed construct with the job's data; nil where no
	// construct holds the probe's offset.
	Reached *bool
}

func (o Outcome) String() string {
	switch {
	case o.Status == "ok":
		return strconv.Quote(o.Text)
	case o.Kind != "" && !strings.HasPrefix(o.Text, o.Kind+":"):
		return fmt.Sprintf("%s (%s): %s", strings.ToUpper(o.Status), o.Kind, o.Text)
	}
	return strings.ToUpper(o.Status) + ": " + o.Text
}

// Env is the Jinja2 environment a template renders in.
type Env struct {
	TrimBlocks          bool `json:"trim_blocks"`
	LstripBlocks        bool `json:"lstrip_blocks"`
	KeepTrailingNewline bool `json:"keep_trailing_newline"`
	// Profile is jinja: {profile: transformers}, which turns trim_blocks
	// and lstrip_blocks on.
	Profile bool `json:"profile"`
}

// Job is a template to render with its data.
type Job struct {
	Template string          `json:"template"`
	Env      Env             `json:"options"`
	Data     json.RawMessage `json:"data"`
	// Includes are the template files {% include %} finds, by name.
	Includes map[string]string `json:"includes,omitempty"`
	// Probe, if set, asks whether Jinja2 runs a construct.
	Probe *Probe `json:"probe,omitempty"`
}

// Probe names the innermost construct (expression, else statement) that
// holds a byte of a Job's template: jinja_render.py renders the template
// again with a call that records it ran wrapped around it or put before it.
type Probe struct {
	Template string `json:"template"` // "" for Job.Template, else the name of one of its Includes
	Offset   int    `json:"offset"`   // in bytes
}

// Find returns a Python with Jinja2 3.1.
func Find(t testing.TB) string {
	t.Helper()
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		out, err := exec.Command(py, "-c", "import jinja2; print(jinja2.__version__)").Output()
		if err == nil && strings.HasPrefix(string(out), "3.1.") {
			return py
		}
	}
	t.Fatal("the differential fuzzer needs Python 3 with Jinja2 3.1: install python3-jinja2 (apt-get install python3-jinja2)")
	return ""
}

// script is testdata/jinja_render.py, found from this file wherever the
// test runs.
func script() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata", "jinja_render.py")
}

// Render renders every job with Jinja2, in one Python process.
func Render(t testing.TB, python string, jobs []Job) []Outcome {
	t.Helper()
	if len(jobs) == 0 {
		return nil
	}
	in, err := json.Marshal(jobs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, script())
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("jinja_render.py: %v\n%s", err, stderr.Bytes())
	}
	var results []struct {
		Out     *string `json:"out"`
		Type    string  `json:"type"`
		Message string  `json:"message"`
		Partial string  `json:"partial"`
		Reached *bool   `json:"reached"`
		Opaque  bool    `json:"opaque"`
	}
	if err := json.Unmarshal(out, &results); err != nil || len(results) != len(jobs) {
		t.Fatalf("jinja_render.py: %d results for %d cases: %v", len(results), len(jobs), err)
	}
	outcomes := make([]Outcome, len(results))
	for i, r := range results {
		if r.Out != nil {
			outcomes[i] = Outcome{Status: "ok", Text: *r.Out, Reached: r.Reached}
		} else {
			outcomes[i] = Raised(r.Type, r.Message)
			outcomes[i].Partial = r.Partial
		}
		outcomes[i].PrintedOpaque = r.Opaque
	}
	return outcomes
}

// RenderAtSource is the function through which the programs that render
// generated prompts call Render: it gives a prompt that reads the clock the
// time that gen/testdata/chat/render.py fixes for Jinja2, 2026-01-08T09:30.
// A messages prompt renders its messages as JSON.
const RenderAtSource = `func renderAt[F any](p any, f F) (string, error) {
	switch p := p.(type) {
	case interface{ Render(F, ...runtime.RenderOption) (string, error) }:
		return p.Render(f, runtime.WithNow(time.Date(2026, 1, 8, 9, 30, 0, 0, time.UTC)))
	case interface{ Render(F) (string, error) }:
		return p.Render(f)
	case interface{ Messages(F) (runtime.Prompt, error) }:
		m, err := p.Messages(f)
		if err != nil {
			return "", err
		}
		b, err := json.Marshal(m)
		return string(b), err
	}
	panic(fmt.Sprintf("%T has no Render", p))
}
`
