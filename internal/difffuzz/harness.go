package difffuzz

// The harness: each case through the pipeline. Generate generates its
// prompt with both backends in memory, Render compiles the accepted ones
// into one program that renders each with its data, RenderJinja renders
// them with Jinja2, and Failed compares.

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/promptgen/promptgen/gen"
	"github.com/promptgen/promptgen/internal/pyjinja"
	"github.com/promptgen/promptgen/internal/testmod"
)

// casesPerPackage is how many cases go in one package of the program that
// renders them: the build compiles packages in parallel, and after a
// compile error only the failing cases' packages again.
const casesPerPackage = 100

// backends are the renderers compared with Jinja2: each case is generated
// into a package of each, named by its prefix and the case's chunk of
// casesPerPackage.
var backends = []struct {
	pkg      string
	renderer gen.Renderer
}{
	{"gorender", gen.RendererGo},
	{"ttrender", gen.RendererTextTemplate},
}

// Trial is one case through the pipeline.
type Trial struct {
	Case     *Case
	pkgs     [2]string      // its packages, per backend
	Rejected string         // the first error of a rejected case, normalized
	FirstErr gen.Diagnostic // and as the go backend reported it
	// Probe locates FirstErr in the template or include it lies in, for
	// Jinja2 to tell whether it runs that code (reach.go); nil elsewhere.
	Probe *pyjinja.Probe
	Crash string
	files [2][]byte // the prompt's generated file, per backend
	Data  []byte    // the feed, as JSON
	Jinja pyjinja.Outcome
	Out   [2]pyjinja.Outcome // per backend
	// Lenient runs decode their data ignoring keys the feed has no field
	// for, as a chat context is read (it carries more than a template reads).
	Lenient bool
}

// NewTrial makes a trial of case c, generated into the packages of its
// chunk.
func NewTrial(c *Case) *Trial {
	run := &Trial{Case: c}
	for bi, b := range backends {
		run.pkgs[bi] = fmt.Sprintf("%s%03d", b.pkg, c.Index/casesPerPackage)
	}
	return run
}

// Generate generates run's prompt with each backend, in memory: a
// rejection, a crash, or its generated files. shared receives the
// package file, which is the same for every prompt of a package.
func Generate(run *Trial, shared map[string][]byte) {
	msgs := [2]string{}
	for bi, b := range backends {
		if run.Crash != "" {
			break
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					run.Crash = fmt.Sprintf("generate %s: panic: %v", b.renderer, r)
				}
			}()
			pkg := run.pkgs[bi]
			res, err := generateCase(run.Case, run.Case.Source, pkg, b.renderer)
			switch {
			case err != nil && res.Diagnostics.HasErrors():
				for _, d := range res.Diagnostics {
					if d.Severity == gen.SeverityError {
						msgs[bi] = d.Msg
						if bi == 0 {
							run.FirstErr = d
						}
						break
					}
				}
				if strings.Contains(err.Error(), "internal error") {
					run.Crash = fmt.Sprintf("generate %s: %v", b.renderer, err)
				}
			case err != nil:
				run.Crash = fmt.Sprintf("generate %s: %v", b.renderer, err)
			default:
				for _, f := range res.Files {
					switch f.Name {
					case "promptgen.go":
						shared[pkg] = f.Content
					case run.Case.Key + "_prompt.go": // not the included files' prompts
						run.files[bi] = f.Content
					}
				}
			}
		}()
	}
	switch {
	case run.Crash != "":
	case msgs[0] != msgs[1]:
		run.Crash = fmt.Sprintf("the backends disagree: go: %q, text/template: %q", msgs[0], msgs[1])
	case msgs[0] != "":
		run.Rejected = normalizeMsg(msgs[0])
	}
}

// casesDir is the directory generateCase names the files in, which their
// diagnostics' positions start with.
const casesDir = "prompts"

// generateCase generates c with its prompt file's text source into
// package pkg.
func generateCase(c *Case, source []byte, pkg string, renderer gen.Renderer) (*gen.Result, error) {
	fsys := fstest.MapFS{c.File: {Data: source}}
	for name, src := range c.Includes {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	return gen.GenerateFS(fsys, casesDir, gen.Config{Pkg: pkg, ImportPath: "pgtest/" + pkg, Renderer: renderer})
}

var (
	quotedRe = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	numberRe = regexp.MustCompile(`\b\d+\b`)
)

// normalizeMsg turns a diagnostic into its kind: names and numbers go.
func normalizeMsg(msg string) string {
	return numberRe.ReplaceAllString(quotedRe.ReplaceAllString(msg, `"…"`), "N")
}

// Render compiles the accepted runs into one program and renders each
// with its data on both backends. Runs whose generated code does not
// compile become crashes; it returns the others.
func Render(t *testing.T, runs []*Trial, shared map[string][]byte, sum *Summary) []*Trial {
	if len(runs) == 0 {
		return nil
	}
	mod := newTempModule(t)
	for _, run := range runs {
		for bi, pkg := range run.pkgs {
			writeFile(t, filepath.Join(mod, pkg, "promptgen.go"), shared[pkg])
			writeFile(t, filepath.Join(mod, pkg, run.Case.Key+"_prompt.go"), run.files[bi])
		}
	}
	t0 := time.Now()
	defer func() { sum.render += time.Since(t0) }()
	bin := filepath.Join(t.TempDir(), "render")
	fileRe := regexp.MustCompile(`(?m)^(?:\./)?(?:gorender|ttrender)\d+/(c\d+)_prompt\.go:.*$`)
	for {
		writeFile(t, filepath.Join(mod, "main.go"), renderProgram(runs))
		t1 := time.Now()
		// Without optimization or debug information the build takes half
		// the time.
		out, err := goRun(mod, "build", "-gcflags=pgtest/...=-N -l", "-ldflags=-s -w", "-o", bin, ".")
		sum.build += time.Since(t1)
		t0 = t0.Add(time.Since(t1))
		if err == nil {
			break
		}
		// Take the cases the errors name out, and build again.
		bad := map[string]string{}
		for _, m := range fileRe.FindAllStringSubmatch(string(out), -1) {
			if _, ok := bad[m[1]]; !ok {
				bad[m[1]] = m[0]
			}
		}
		if len(bad) == 0 {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		var keep []*Trial
		for _, run := range runs {
			if msg, ok := bad[run.Case.Key]; ok {
				run.Crash = "generated Go does not compile: " + msg
				sum.failures = append(sum.failures, run)
				for _, pkg := range run.pkgs {
					os.Remove(filepath.Join(mod, pkg, run.Case.Key+"_prompt.go"))
				}
				continue
			}
			keep = append(keep, run)
		}
		runs = keep
	}
	var data bytes.Buffer
	data.WriteString("[")
	for i, run := range runs {
		if i > 0 {
			data.WriteString(",\n")
		}
		data.Write(run.Data)
	}
	data.WriteString("]")
	dataFile := filepath.Join(mod, "data.json")
	writeFile(t, dataFile, data.Bytes())
	cmd := exec.Command(bin, dataFile)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("render: %v\n%s", err, stderr.Bytes())
	}
	// Frames: "<case> <backend> <status> <kind> <length> <detail length>\n<text><detail>\n".
	rd := bufio.NewReader(bytes.NewReader(out))
	for range 2 * len(runs) {
		var i, bi, n, nd int
		var status, kind string
		if _, err := fmt.Fscanf(rd, "%d %d %s %s %d %d\n", &i, &bi, &status, &kind, &n, &nd); err != nil {
			t.Fatalf("render output: %v", err)
		}
		text := make([]byte, n+nd+1)
		if _, err := io.ReadFull(rd, text); err != nil {
			t.Fatalf("render output: %v", err)
		}
		o := pyjinja.Outcome{Status: status, Text: string(text[:n])}
		if status == "error" {
			o.Kind, o.Detail = kind, string(text[n:n+nd])
		}
		runs[i].Out[bi] = o
	}
	return runs
}

// renderProgram is the program that renders every run: it reads the feeds from
// the JSON array in its argument and writes each output in a frame.
func renderProgram(runs []*Trial) []byte {
	var b bytes.Buffer
	b.WriteString(`package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/promptgen/promptgen/runtime"
`)
	pkgs := map[string]bool{}
	for _, run := range runs {
		for _, pkg := range run.pkgs {
			if !pkgs[pkg] {
				pkgs[pkg] = true
				fmt.Fprintf(&b, "\t%q\n", "pgtest/"+pkg)
			}
		}
	}
	b.WriteString(`)

` + pyjinja.RenderAtSource + `
type decodeError struct{ error }

func decode(b []byte, v any, strict bool) error {
	d := json.NewDecoder(bytes.NewReader(b))
	if strict {
		d.DisallowUnknownFields()
	}
	if err := d.Decode(v); err != nil {
		return decodeError{err}
	}
	return nil
}

var kinds = []struct {
	name string
	err  error
}{` + kindsSource() + `}

func render(f func([]byte) (string, error), data []byte) (status, kind, detail, text string) {
	defer func() {
		if r := recover(); r != nil {
			status, kind, text = "panic", "-", fmt.Sprint(r)
		}
	}()
	s, err := f(data)
	switch err.(type) {
	case nil:
		return "ok", "-", "", s
	case decodeError:
		return "decode", "-", "", err.Error()
	}
	kind = "other"
	for _, k := range kinds {
		if errors.Is(err, k.err) {
			kind = k.name
			break
		}
	}
	var re *runtime.Error
	if errors.As(err, &re) {
		detail = re.Detail
	}
	return "error", kind, detail, err.Error()
}

var cases = [][2]func([]byte) (string, error){
`)
	for _, run := range runs {
		name := goName(run.Case.Key)
		b.WriteString("\t{")
		for _, pkg := range run.pkgs {
			fmt.Fprintf(&b, "func(b []byte) (string, error) { var f %[1]s.%[2]sFeed; if err := decode(b, &f, %[3]t); err != nil { return \"\", err }; return renderAt(%[1]s.%[2]s, f) }, ", pkg, name, !run.Lenient)
		}
		b.WriteString("},\n")
	}
	b.WriteString(`}

func main() {
	raw, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var data []json.RawMessage
	if err := json.Unmarshal(raw, &data); err != nil {
		panic(err)
	}
	w := bufio.NewWriter(os.Stdout)
	for i, c := range cases {
		for bi, f := range c {
			status, kind, detail, text := render(f, data[i])
			fmt.Fprintf(w, "%d %d %s %s %d %d\n%s%s\n", i, bi, status, kind, len(text), len(detail), text, detail)
		}
	}
	w.Flush()
}
`)
	return b.Bytes()
}

// RenderJinja renders every run with Jinja2, in one Python process.
func RenderJinja(t *testing.T, python string, runs []*Trial) {
	jobs := make([]pyjinja.Job, len(runs))
	for i, run := range runs {
		jobs[i] = pyjinja.Job{Template: run.Case.Template, Env: run.Case.Env, Data: run.Data, Includes: run.Case.Includes, Probe: run.Probe}
	}
	for i, o := range pyjinja.Render(t, python, jobs) {
		runs[i].Jinja = o
	}
}

// kindsSource is pyjinja.Kinds as the entries of the render program's
// kinds table.
func kindsSource() string {
	var b strings.Builder
	for _, k := range pyjinja.Kinds {
		fmt.Fprintf(&b, "{%q, runtime.%s}, ", k, k)
	}
	return b.String()
}

// Failed reports whether a rendered run is a failure: a crash, or
// output that differs from Jinja2's on either backend (pyjinja.Match); it
// counts in lenient the pairs that match only by jinjaLenient.
func Failed(run *Trial, lenient map[string]int) bool {
	for bi, o := range run.Out {
		switch {
		case o.Status == "panic" || o.Status == "error" && strings.Contains(o.Text, "internal error"):
			run.Crash = fmt.Sprintf("render %s: %s", backends[bi].renderer, o)
		case o.Status == "decode":
			run.Crash = fmt.Sprintf("difffuzz: the data does not decode into the feed (%s): %s", backends[bi].renderer, o.Text)
		}
	}
	if run.Crash != "" {
		return true
	}
	failed, lenientWhy := false, ""
	for _, o := range run.Out {
		ok, why := pyjinja.Match(run.Jinja, o)
		if !ok && beyond64Unprinted(run, o) {
			ok, why = true, intBeyond64Unprinted
		}
		failed = failed || !ok
		if why != "" {
			lenientWhy = why
		}
	}
	if !failed && lenientWhy != "" {
		lenient[lenientWhy]++
	}
	return failed
}

// intBeyond64Unprinted is the reason of a pair where Jinja2 prints and
// promptgen fails on an int beyond 64 bits that Jinja2 does not print (an
// intermediate result, one compared or stored): template-language.md's
// divergences.
const intBeyond64Unprinted = "an int beyond 64 bits that Jinja2 does not print (family int-limits): promptgen fails the render on purpose"

// beyond64Unprinted reports whether promptgen's outcome o is the failure
// on an int beyond 64 bits, in a case whose template or an included file
// holds one of limitInts, quoted, or a power ** 63 (the int-limits
// production), where Jinja2 renders, or raises for something it evaluates
// later (promptgen stops at the int first).
func beyond64Unprinted(run *Trial, o pyjinja.Outcome) bool {
	if o.Status != "error" || o.Kind != "ErrInvalid" || !strings.Contains(o.Text, "int beyond 64 bits") {
		return false
	}
	texts := append([]string{run.Case.Template}, slices.Collect(maps.Values(run.Case.Includes))...)
	for _, text := range texts {
		if strings.Contains(text, " ** 63") { // 2 ** 63, (-2) ** 63 - x (seed 219 case 405)
			return true
		}
	}
	for _, n := range limitInts {
		for _, text := range texts {
			if strings.Contains(text, "'"+n+"'") {
				return true
			}
		}
	}
	return false
}

func (run *Trial) String() string {
	var b strings.Builder
	kind := run.Crash
	switch {
	case kind != "":
	case run.Rejected != "":
		kind = "rejected: " + run.FirstErr.String()
	default:
		kind = "mismatch"
	}
	fmt.Fprintf(&b, "case %[1]d (make difffuzz SEED=%[2]d CASE=%[1]d): %[3]s\n", run.Case.Index, run.Case.seed, kind)
	fmt.Fprintf(&b, "--- %s\n%s", run.Case.File, run.Case.Source)
	if !bytes.HasSuffix(run.Case.Source, []byte("\n")) {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "--- template\n%q\n", run.Case.Template)
	for _, name := range slices.Sorted(maps.Keys(run.Case.Includes)) {
		fmt.Fprintf(&b, "--- %s\n%q\n", name, run.Case.Includes[name])
	}
	if run.Data != nil {
		fmt.Fprintf(&b, "--- data\n%s\n", run.Data)
	}
	if p := run.Probe; p != nil {
		text := run.Case.Template
		if p.Template != "" {
			text = run.Case.Includes[p.Template]
		}
		fmt.Fprintf(&b, "--- rejected construct: byte %d of %q, at %q\n", p.Offset, cmp.Or(p.Template, "the template"), text[p.Offset:min(len(text), p.Offset+40)])
	}
	if run.Jinja.Status != "" {
		fmt.Fprintf(&b, "--- jinja2\n%s\n", run.Jinja)
		if r := run.Jinja.Reached; r != nil {
			fmt.Fprintf(&b, "--- jinja2 runs the rejected construct: %t\n", *r)
		}
		for bi, be := range backends {
			fmt.Fprintf(&b, "--- %s\n%s\n", be.renderer, run.Out[bi])
		}
	}
	return b.String()
}

// goName is the Go name of a case's prompt: keys are "c" and digits, which
// the generator capitalises.
func goName(key string) string { return strings.ToUpper(key[:1]) + key[1:] }

// newTempModule makes a module that requires this checkout, for compiling
// generated code.
func newTempModule(t *testing.T) string { return testmod.New(t, "pgtest") }

var (
	goRun     = testmod.Go
	writeFile = testmod.WriteFile
	readFile  = testmod.ReadFile
)
