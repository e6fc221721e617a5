package gen

// TestDiffFuzz is the differential fuzzer: random prompts (difffuzz_gen_test.go)
// with random data, rendered by real Jinja2, by the generated go backend
// and by the generated text/template backend. An accepted template whose
// output differs from Jinja2's is a failure, and so is a crash: a panic,
// an internal error, or generated Go that does not compile. A rejection
// (a generate-time error) is fine; the summary counts them by message.
//
// make test runs it with a fixed seed; `make difffuzz N=20000 SEED=7`
// runs a long one.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/promptgen/promptgen/gen/internal/names"
)

var (
	fzN        = flag.Int("difffuzz.n", 1500, "number of differential fuzzer cases")
	fzSeed     = flag.Uint64("difffuzz.seed", 1, "differential fuzzer seed")
	fzBatch    = flag.Int("difffuzz.batch", 2500, "differential fuzzer cases compiled into one module")
	fzEnable   = flag.String("difffuzz.enable", "", "comma-separated excluded families to generate anyway")
	fzDisable  = flag.String("difffuzz.disable", "", "comma-separated families not to generate")
	fzDump     = flag.String("difffuzz.dump", "", "directory to write each failing case and an example of each rejection to")
	fzCaseN    = flag.Int("difffuzz.case", -1, "run only this case of the seed")
	fzDynShare = flag.Float64("difffuzz.dynshare", 0.2, "share of the cases that are chat cases (family dynamic)")
)

// fzOutcome is what one renderer made of a case.
type fzOutcome struct {
	status string // "ok", "error", or for promptgen "panic" and "decode"
	text   string // the output, or the error's message
	// kind and detail say which error: for Jinja2 the exception's type
	// and message, for promptgen the runtime sentinel its render error
	// wraps (errorKinds) and the runtime.Error's Detail.
	kind, detail string
}

func (o fzOutcome) String() string {
	switch {
	case o.status == "ok":
		return strconv.Quote(o.text)
	case o.kind != "" && !strings.HasPrefix(o.text, o.kind+":"):
		return fmt.Sprintf("%s (%s): %s", strings.ToUpper(o.status), o.kind, o.text)
	}
	return strings.ToUpper(o.status) + ": " + o.text
}

// fzChunk is how many cases go in one package of the program that
// renders them: the build compiles packages in parallel, and after a
// compile error only the failing cases' packages again.
const fzChunk = 100

// fzRun is one case through the pipeline.
type fzRun struct {
	c        *fzCase
	pkgs     [2]string  // its packages, per backend
	rejected string     // the first error of a rejected case, normalized
	firstErr Diagnostic // and as the go backend reported it
	crash    string
	files    [2][]byte // the prompt's generated file, per backend
	data     []byte    // the feed, as JSON
	jinja    fzOutcome
	out      [2]fzOutcome // per backend
	// lenient runs decode their data ignoring keys the feed has no field
	// for, as a chat context is read (it carries more than a template reads).
	lenient bool
}

// fzSummary accumulates a run's counts and failures.
type fzSummary struct {
	cases, accepted int
	rejected        map[string]int
	examples        map[string]*fzRun // the first case rejected with each message
	failures        []*fzRun
	// lenient counts the renderings that matched by a jinjaLenient reason.
	lenient map[string]int
	// Time spent generating, compiling, rendering with promptgen, and
	// rendering with Jinja2.
	generate, build, render, jinja time.Duration
}

func TestDiffFuzz(t *testing.T) {
	python := findJinja(t)
	off := fzOff(t)
	sum := &fzSummary{rejected: map[string]int{}, examples: map[string]*fzRun{}, lenient: map[string]int{}}
	shared := map[string][]byte{} // the package file of each package
	families := map[string]*fzFamilyCount{}
	for start := 0; start < *fzN; start += *fzBatch {
		var runs []*fzRun
		t0 := time.Now()
		for i := start; i < min(start+*fzBatch, *fzN); i++ {
			if *fzCaseN >= 0 && i != *fzCaseN {
				continue
			}
			g := &fzGen{r: rand.New(rand.NewPCG(*fzSeed, uint64(i))), off: off}
			run := &fzRun{c: g.newCase(i)}
			run.lenient = run.c.chat
			for bi, b := range backends {
				run.pkgs[bi] = fmt.Sprintf("%s%03d", b.pkg, i/fzChunk)
			}
			fzGenerate(run, shared)
			sum.cases++
			fzCountFamilies(families, run.c, run.crash == "" && run.rejected == "")
			switch {
			case run.crash != "":
				sum.failures = append(sum.failures, run)
			case run.rejected != "":
				sum.rejected[run.rejected]++
				if sum.examples[run.rejected] == nil {
					sum.examples[run.rejected] = run
				}
			default:
				run.data = fzData(t, run, rand.New(rand.NewPCG(*fzSeed, uint64(i)|1<<63)), off)
				runs = append(runs, run)
			}
		}
		sum.accepted += len(runs)
		sum.generate += time.Since(t0)
		runs = fzRender(t, runs, shared, sum)
		t0 = time.Now()
		fzJinja(t, python, runs)
		sum.jinja += time.Since(t0)
		for _, run := range runs {
			if fzFailed(run, sum.lenient) {
				sum.failures = append(sum.failures, run)
			}
		}
	}
	sum.report(t)
	checkFloors(t, families)
}

// findJinja returns a Python with Jinja2 3.1.
func findJinja(t *testing.T) string {
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		out, err := exec.Command(py, "-c", "import jinja2; print(jinja2.__version__)").Output()
		if err == nil && strings.HasPrefix(string(out), "3.1.") {
			return py
		}
	}
	t.Fatal("the differential fuzzer needs Python 3 with Jinja2 3.1: install python3-jinja2 (apt-get install python3-jinja2)")
	return ""
}

// fzOff is the set of families switched off: the excluded ones, less
// -difffuzz.enable, plus -difffuzz.disable.
func fzOff(t *testing.T) map[string]bool {
	known := map[string]bool{}
	for _, f := range slices.Concat(fzFamilies, fzExcluded) {
		known[f] = true
	}
	names := func(list string) []string {
		var out []string
		for _, f := range strings.Split(list, ",") {
			if f = strings.TrimSpace(f); f == "" {
				continue
			}
			if !known[f] {
				t.Fatalf("unknown difffuzz family %q", f)
			}
			out = append(out, f)
		}
		return out
	}
	off := map[string]bool{}
	for _, f := range fzExcluded {
		off[f] = true
	}
	for _, f := range names(*fzEnable) {
		delete(off, f)
	}
	for _, f := range names(*fzDisable) {
		off[f] = true
	}
	return off
}

// fzGenerate generates run's prompt with each backend, in memory: a
// rejection, a crash, or its generated files. shared receives the
// package file, which is the same for every prompt of a package.
func fzGenerate(run *fzRun, shared map[string][]byte) {
	msgs := [2]string{}
	for bi, b := range backends {
		if run.crash != "" {
			break
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					run.crash = fmt.Sprintf("generate %s: panic: %v", b.renderer, r)
				}
			}()
			pkg := run.pkgs[bi]
			res, err := generate(fstest.MapFS{run.c.file: {Data: run.c.source}}, "prompts",
				Config{Pkg: pkg, ImportPath: "pgtest/" + pkg, Renderer: b.renderer})
			switch {
			case err != nil && res.Diagnostics.HasErrors():
				for _, d := range res.Diagnostics {
					if d.Severity == SeverityError {
						msgs[bi] = d.Msg
						if bi == 0 {
							run.firstErr = d
						}
						break
					}
				}
				if strings.Contains(err.Error(), "internal error") {
					run.crash = fmt.Sprintf("generate %s: %v", b.renderer, err)
				}
			case err != nil:
				run.crash = fmt.Sprintf("generate %s: %v", b.renderer, err)
			default:
				for _, f := range res.Files {
					if f.Name == "promptgen.go" {
						shared[pkg] = f.Content
					} else {
						run.files[bi] = f.Content
					}
				}
			}
		}()
	}
	switch {
	case run.crash != "":
	case msgs[0] != msgs[1]:
		run.crash = fmt.Sprintf("the backends disagree: go: %q, text/template: %q", msgs[0], msgs[1])
	case msgs[0] != "":
		run.rejected = normalizeMsg(msgs[0])
	}
}

var (
	quotedRe = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	numberRe = regexp.MustCompile(`\b\d+\b`)
)

// normalizeMsg turns a diagnostic into its kind: names and numbers go.
func normalizeMsg(msg string) string {
	return numberRe.ReplaceAllString(quotedRe.ReplaceAllString(msg, `"…"`), "N")
}

// fzRender compiles the accepted runs into one program and renders each
// with its data on both backends. Runs whose generated code does not
// compile become crashes; it returns the others.
func fzRender(t *testing.T, runs []*fzRun, shared map[string][]byte, sum *fzSummary) []*fzRun {
	if len(runs) == 0 {
		return nil
	}
	mod := newTempModule(t)
	for _, run := range runs {
		for bi, pkg := range run.pkgs {
			writeFile(t, filepath.Join(mod, pkg, "promptgen.go"), shared[pkg])
			writeFile(t, filepath.Join(mod, pkg, run.c.key+"_prompt.go"), run.files[bi])
		}
	}
	t0 := time.Now()
	defer func() { sum.render += time.Since(t0) }()
	bin := filepath.Join(t.TempDir(), "render")
	fileRe := regexp.MustCompile(`(?m)^(?:\./)?(?:gorender|ttrender)\d+/(c\d+)_prompt\.go:.*$`)
	for {
		writeFile(t, filepath.Join(mod, "main.go"), fzMain(runs))
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
		var keep []*fzRun
		for _, run := range runs {
			if msg, ok := bad[run.c.key]; ok {
				run.crash = "generated Go does not compile: " + msg
				sum.failures = append(sum.failures, run)
				for _, pkg := range run.pkgs {
					os.Remove(filepath.Join(mod, pkg, run.c.key+"_prompt.go"))
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
		data.Write(run.data)
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
		o := fzOutcome{status: status, text: string(text[:n])}
		if status == "error" {
			o.kind, o.detail = kind, string(text[n:n+nd])
		}
		runs[i].out[bi] = o
	}
	return runs
}

// fzMain is the program that renders every run: it reads the feeds from
// the JSON array in its argument and writes each output in a frame.
func fzMain(runs []*fzRun) []byte {
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

` + renderAtSource + `
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
}{` + fzKindsSource() + `}

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
		name, _ := names.Exported(run.c.key)
		b.WriteString("\t{")
		for _, pkg := range run.pkgs {
			fmt.Fprintf(&b, "func(b []byte) (string, error) { var f %[1]s.%[2]sFeed; if err := decode(b, &f, %[3]t); err != nil { return \"\", err }; return renderAt(%[1]s.%[2]s, f) }, ", pkg, name, !run.lenient)
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

// fzJinja renders every run with Jinja2, in one Python process.
func fzJinja(t *testing.T, python string, runs []*fzRun) {
	if len(runs) == 0 {
		return
	}
	type job struct {
		Template string          `json:"template"`
		Options  fzOptions       `json:"options"`
		Data     json.RawMessage `json:"data"`
	}
	jobs := make([]job, len(runs))
	for i, run := range runs {
		jobs[i] = job{run.c.template, run.c.options, run.data}
	}
	in, err := json.Marshal(jobs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, filepath.Join("testdata", "difffuzz", "jinja_render.py"))
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
	}
	if err := json.Unmarshal(out, &results); err != nil || len(results) != len(runs) {
		t.Fatalf("jinja_render.py: %d results for %d cases: %v", len(results), len(runs), err)
	}
	for i, r := range results {
		if r.Out != nil {
			runs[i].jinja = fzOutcome{status: "ok", text: *r.Out}
		} else {
			runs[i].jinja = jinjaRaised(r.Type, r.Message)
		}
	}
}

// fzFailed reports whether a rendered run is a failure: a crash, or
// output that differs from Jinja2's on either backend (jinjaMatch); it
// counts in lenient the pairs that match only by jinjaLenient.
func fzFailed(run *fzRun, lenient map[string]int) bool {
	for bi, o := range run.out {
		switch {
		case o.status == "panic" || o.status == "error" && strings.Contains(o.text, "internal error"):
			run.crash = fmt.Sprintf("render %s: %s", backends[bi].renderer, o)
		case o.status == "decode":
			run.crash = fmt.Sprintf("difffuzz: the data does not decode into the feed (%s): %s", backends[bi].renderer, o.text)
		}
	}
	if run.crash != "" {
		return true
	}
	failed, lenientWhy := false, ""
	for _, o := range run.out {
		ok, why := jinjaMatch(run.jinja, o)
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

func (run *fzRun) String() string {
	var b strings.Builder
	kind := run.crash
	if kind == "" {
		kind = "mismatch"
	}
	fmt.Fprintf(&b, "case %[1]d (make difffuzz SEED=%[2]d CASE=%[1]d): %[3]s\n", run.c.index, *fzSeed, kind)
	fmt.Fprintf(&b, "--- %s\n%s", run.c.file, run.c.source)
	if !bytes.HasSuffix(run.c.source, []byte("\n")) {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "--- template\n%q\n", run.c.template)
	if run.data != nil {
		fmt.Fprintf(&b, "--- data\n%s\n", run.data)
	}
	if run.jinja.status != "" {
		fmt.Fprintf(&b, "--- jinja2\n%s\n", run.jinja)
		for bi, be := range backends {
			fmt.Fprintf(&b, "--- %s\n%s\n", be.renderer, run.out[bi])
		}
	}
	return b.String()
}

func (s *fzSummary) report(t *testing.T) {
	var crashes, rejected int
	for _, run := range s.failures {
		if run.crash != "" {
			crashes++
		}
	}
	msgs := make([]string, 0, len(s.rejected))
	for m, n := range s.rejected {
		msgs = append(msgs, m)
		rejected += n
	}
	sort.Slice(msgs, func(i, j int) bool {
		if s.rejected[msgs[i]] != s.rejected[msgs[j]] {
			return s.rejected[msgs[i]] > s.rejected[msgs[j]]
		}
		return msgs[i] < msgs[j]
	})
	var b strings.Builder
	fmt.Fprintf(&b, "difffuzz seed %d: %d cases, %d accepted, %d rejected, %d mismatches, %d crashes\n",
		*fzSeed, s.cases, s.accepted, rejected, len(s.failures)-crashes, crashes)
	fmt.Fprintf(&b, "time: generate %v, build %v, render %v, jinja2 %v\n", s.generate.Round(time.Millisecond),
		s.build.Round(time.Millisecond), s.render.Round(time.Millisecond), s.jinja.Round(time.Millisecond))
	b.WriteString("rejected, by message:\n")
	for i, m := range msgs {
		fmt.Fprintf(&b, "%6d  %s\n", s.rejected[m], m)
		if *fzDump != "" {
			run := s.examples[m]
			writeFile(t, filepath.Join(*fzDump, "rejected", fmt.Sprintf("%02d_%s", i, run.c.file)), run.c.source)
		}
	}
	t.Log(b.String())
	logLenient(t, fmt.Sprintf("difffuzz seed %d", *fzSeed), s.lenient)
	for i, run := range s.failures {
		if *fzDump != "" {
			dumpRun(t, run)
		}
		if i < 20 {
			t.Errorf("%s", run)
		}
	}
	if len(s.failures) > 20 {
		t.Errorf("and %d more failures", len(s.failures)-20)
	}
}

// dumpRun writes a failing case to its directory under -difffuzz.dump.
func dumpRun(t *testing.T, run *fzRun) {
	dir := filepath.Join(*fzDump, run.c.key)
	writeFile(t, filepath.Join(dir, run.c.file), run.c.source)
	writeFile(t, filepath.Join(dir, "report.txt"), []byte(run.String()))
	if run.data != nil {
		writeFile(t, filepath.Join(dir, "data.json"), run.data)
	}
}

// Data.

// fzFeedType is the type of a feed field, read from the generated Go.
type fzFeedType struct {
	kind   string // string, int, float64, bool, slice, map, struct or dynamic (a jinja.Value)
	elem   *fzFeedType
	fields []fzFeedField
}

type fzFeedField struct {
	key      string
	t        *fzFeedType
	optional bool // a pointer, or omitempty
}

// fzData makes random JSON data for run's feed type, as the go backend
// generated it: every value of the right type, optionals sometimes left
// out (never those the template needs set), required strings non-empty,
// numbers as floats, map keys sorted.
func fzData(t *testing.T, run *fzRun, r *rand.Rand, off map[string]bool) []byte {
	if run.c.chat {
		return fzChatData(r)
	}
	feed, err := feedType(run.files[0], run.c.key)
	if err != nil {
		t.Fatalf("%s: %v\n%s", run.c.key, err, run.files[0])
	}
	d := &fzDataGen{r: r, mustSet: run.c.mustSet, nulls: !off["json-null"], unicode: !off["unicode-case"], numbers: !off["number-data"]}
	var b bytes.Buffer
	d.value(&b, feed, "")
	return b.Bytes()
}

// feedType reads the feed struct of prompt key from its generated file.
func feedType(src []byte, key string) (*fzFeedType, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, 0)
	if err != nil {
		return nil, err
	}
	structs := map[string]*ast.StructType{}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, spec := range gd.Specs {
			if ts, ok := spec.(*ast.TypeSpec); ok {
				if st, ok := ts.Type.(*ast.StructType); ok {
					structs[ts.Name.Name] = st
				}
			}
		}
	}
	var typeOf func(e ast.Expr) (*fzFeedType, error)
	typeOf = func(e ast.Expr) (*fzFeedType, error) {
		switch e := e.(type) {
		case *ast.Ident:
			switch e.Name {
			case "string", "int", "float64", "bool":
				return &fzFeedType{kind: e.Name}, nil
			}
			st, ok := structs[e.Name]
			if !ok {
				return nil, fmt.Errorf("unknown feed type %s", e.Name)
			}
			out := &fzFeedType{kind: "struct"}
			for _, fld := range st.Fields.List {
				ft, err := typeOf(fld.Type)
				if err != nil {
					return nil, err
				}
				tag := reflect.StructTag(strings.Trim(fld.Tag.Value, "`")).Get("json")
				name, opts, _ := strings.Cut(tag, ",")
				_, ptr := fld.Type.(*ast.StarExpr)
				out.fields = append(out.fields, fzFeedField{key: name, t: ft, optional: ptr || opts == "omitempty"})
			}
			return out, nil
		case *ast.SelectorExpr:
			if x, ok := e.X.(*ast.Ident); ok && x.Name == "jinja" && e.Sel.Name == "Value" {
				return &fzFeedType{kind: "dynamic"}, nil // an input used with values of several types
			}
		case *ast.StarExpr:
			return typeOf(e.X)
		case *ast.ArrayType:
			elem, err := typeOf(e.Elt)
			return &fzFeedType{kind: "slice", elem: elem}, err
		case *ast.MapType:
			elem, err := typeOf(e.Value)
			return &fzFeedType{kind: "map", elem: elem}, err
		}
		return nil, fmt.Errorf("unknown feed type %T", e)
	}
	name, _ := names.Exported(key)
	return typeOf(ast.NewIdent(name + "Feed"))
}

type fzDataGen struct {
	r       *rand.Rand
	mustSet map[string]bool
	nulls   bool // write null for some unset optionals
	unicode bool // strings with characters whose case mapping is special
	numbers bool // strings of numbers, floats beyond 2^53 (number-data)
}

// needed reports whether the data at path must be set.
func (d *fzDataGen) needed(path string) bool {
	for m := range d.mustSet {
		if m == path || strings.HasPrefix(m, path+".") || strings.HasPrefix(m, path+"[]") {
			return true
		}
	}
	return false
}

var (
	fzStrings = []string{"a", "b", "Hello", "hello world", " ", "\n", "é", "'", "\"", "\\", "<i>", "&", "{{ x }}", "%",
		"\t", "x y", "A", "1", "3.5", "-2", "  pad  ", "Zed", "b,c", "a\nb", "ab"}
	fzUnicodeStrings = []string{"ß", "İ", "ǆ", "ﬁ", "Ω", "ΣΑΣ"}
	// Floats stay below 2**63: |int of a larger one overflows Go's int
	// (a documented divergence).
	fzFloats = []float64{0, 1, -2.5, 0.1, 3.14159, 1e-7, 1e16, 2.5, 0.5, 1.5, 123456.789, 0.30000000000000004, 7, -0.0}
	// fzNumberStrings are strings of numbers in the forms Python's int()
	// and float() read or reject, ints within 64 bits (family number-data;
	// beyond, int fails where Jinja2 prints the big int, on purpose).
	fzNumberStrings = []string{"9007199254740993", "-9007199254740995", " -1_000 ", "+42", "\t7\n", "0x1A", "0_0", "1e3", "12.9",
		"inf", "-Infinity", "nan", "1e400", "-1e-400", "1_000.5", " +.5 ", "1__2", "٣", "9.2e18"}
	// fzNumberFloats are floats beyond 2^53 (still below 2^63) and at the
	// small end of the range (family number-data).
	fzNumberFloats = []float64{9007199254740993, -12345678901234567, 4503599627370497.5, 5e-324, 2.2250738585072014e-308, 1e-300}
)

func (d *fzDataGen) value(b *bytes.Buffer, t *fzFeedType, path string) {
	switch t.kind {
	case "dynamic": // any JSON: a scalar of each kind, or a list of them
		kinds := []string{"string", "int", "float64", "bool"}
		if d.r.IntN(4) == 0 {
			d.value(b, &fzFeedType{kind: "slice", elem: &fzFeedType{kind: kinds[d.r.IntN(len(kinds))]}}, path)
			return
		}
		d.value(b, &fzFeedType{kind: kinds[d.r.IntN(len(kinds))]}, path)
	case "string":
		d.str(b, false)
	case "int":
		n := d.r.IntN(21) - 5
		if d.r.IntN(10) == 0 {
			n = d.r.IntN(601) - 300
		}
		b.WriteString(strconv.Itoa(n))
	case "float64":
		f := fzFloats[d.r.IntN(len(fzFloats))]
		switch n := d.r.IntN(12); {
		case n < 4:
			f = float64(d.r.IntN(2001)-1000) / 8
		case n == 4 && d.numbers:
			f = fzNumberFloats[d.r.IntN(len(fzNumberFloats))]
		}
		s := strconv.FormatFloat(f, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") { // JSON of a float, as Python reads it back
			s += ".0"
		}
		b.WriteString(s)
	case "bool":
		b.WriteString(strconv.FormatBool(d.r.IntN(2) == 0))
	case "slice":
		b.WriteString("[")
		for i := range d.r.IntN(5) {
			if i > 0 {
				b.WriteString(", ")
			}
			d.value(b, t.elem, path+"[]")
		}
		b.WriteString("]")
	case "map":
		keys := slices.Clone(fzMapKeys)
		d.r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		keys = keys[:d.r.IntN(4)]
		sort.Strings(keys)
		b.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, "%q: ", k)
			d.value(b, t.elem, path+"[]")
		}
		b.WriteString("}")
	case "struct":
		b.WriteString("{")
		first := true
		for _, f := range t.fields {
			p := f.key
			if path != "" {
				p = path + "." + f.key
			}
			null := false
			if f.optional && !d.needed(p) && d.r.IntN(3) == 0 {
				if !d.nulls || d.r.IntN(4) != 0 {
					continue
				}
				null = true
			}
			if !first {
				b.WriteString(", ")
			}
			first = false
			fmt.Fprintf(b, "%q: ", f.key)
			switch {
			case null:
				b.WriteString("null")
			case f.t.kind == "string" && !f.optional:
				d.str(b, true)
			default:
				d.value(b, f.t, p)
			}
		}
		b.WriteString("}")
	}
}

// str writes a random JSON string, non-empty when required.
func (d *fzDataGen) str(b *bytes.Buffer, required bool) {
	var s strings.Builder
	n := d.r.IntN(3)
	if required {
		n++
	}
	if d.numbers && d.r.IntN(10) == 0 { // alone: two would make one longer number
		n = 0
		s.WriteString(fzNumberStrings[d.r.IntN(len(fzNumberStrings))])
	}
	for range n {
		pool := fzStrings
		if d.unicode && d.r.IntN(8) == 0 {
			pool = fzUnicodeStrings
		}
		s.WriteString(pool[d.r.IntN(len(pool))])
	}
	j, err := json.Marshal(s.String())
	if err != nil {
		panic(err)
	}
	b.Write(j)
}
