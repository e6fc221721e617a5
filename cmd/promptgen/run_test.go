package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/gen"
)

// runArgs calls run with buffers and returns the exit code and output.
func runArgs(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// runFake is runArgs with a stand-in for gen.Generate.
func runFake(generate func(context.Context, gen.Config) (*gen.Result, error), args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = newApp(&out, &errOut, generate).run(context.Background(), args)
	return code, out.String(), errOut.String()
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string // in stderr
	}{
		{nil, "Usage:"},
		{[]string{"genrate"}, `promptgen: unknown command "genrate" (did you mean "generate"?)`},
		{[]string{"dif"}, `promptgen: unknown command "dif" (did you mean "diff"?)`},
		{[]string{"rendr"}, `promptgen: unknown command "rendr" (did you mean "render"?)`},
		{[]string{"render"}, "promptgen: render: want one prompt key, got 0"},
		{[]string{"render", "a", "b"}, "promptgen: render: want one prompt key, got 2"},
		{[]string{"render", "a", "-bogus"}, "promptgen: render: flag provided but not defined: -bogus"},
		{[]string{"-v"}, "promptgen: flag -v must follow a command"},
		{[]string{"generate", "-bogus"}, "promptgen: generate: flag provided but not defined: -bogus"},
		{[]string{"diff", "-bogus"}, "promptgen: diff: flag provided but not defined: -bogus"},
		{[]string{"generate", "-renderer", "jinja"}, `promptgen: generate: invalid -renderer "jinja" (want go or text/template)`},
		{[]string{"generate", "-renderer="}, `promptgen: generate: invalid -renderer "" (want go or text/template)`},
		{[]string{"generate", "extra"}, `promptgen: generate: unexpected argument "extra"`},
		{[]string{"generate", "-in", ""}, "promptgen: generate: -in must not be empty"},
		{[]string{"generate", "-pkg", "my-pkg"}, `promptgen: generate: invalid -pkg "my-pkg": not a Go package name`},
		{[]string{"vet", "-bogus"}, "promptgen: vet: flag provided but not defined: -bogus"},
		{[]string{"version", "now"}, `promptgen: version: unexpected argument "now"`},
		{[]string{"help", "bogus"}, `promptgen: help: unknown command "bogus"`},
		{[]string{"help", "a", "b"}, "promptgen: help: too many arguments"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			called := false
			code, stdout, stderr := runFake(func(context.Context, gen.Config) (*gen.Result, error) {
				called = true
				return &gen.Result{}, nil
			}, tt.args...)
			if code != exitUsage {
				t.Errorf("exit code %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr:\n%s\nwant it to contain %q", stderr, tt.want)
			}
			if stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
			if called {
				t.Error("Generate was called")
			}
		})
	}
}

func TestHelp(t *testing.T) {
	code, stdout, stderr := runArgs("help")
	if code != exitOK || stderr != "" {
		t.Fatalf("help: exit %d, stderr %q", code, stderr)
	}
	for _, cmd := range []string{"generate", "diff", "render", "resolve", "vet", "version", "help"} {
		if !strings.Contains(stdout, "\t"+cmd+" ") {
			t.Errorf("help does not list %q:\n%s", cmd, stdout)
		}
	}

	code, stdout, _ = runArgs("help", "generate")
	if code != exitOK || !strings.Contains(stdout, "usage: promptgen generate") || !strings.Contains(stdout, "-renderer") {
		t.Errorf("help generate: exit %d, stdout:\n%s", code, stdout)
	}
	code, _, stderr = runArgs("diff", "-h")
	if code != exitOK || !strings.Contains(stderr, "usage: promptgen diff") {
		t.Errorf("diff -h: exit %d, stderr:\n%s", code, stderr)
	}
}

func TestVersion(t *testing.T) {
	code, stdout, stderr := runArgs("version")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.HasPrefix(stdout, "promptgen ") || !strings.HasSuffix(stdout, " "+runtime.Version()+"\n") {
		t.Errorf("stdout = %q, want \"promptgen <version> %s\\n\"", stdout, runtime.Version())
	}
}

func TestFlagsReachConfig(t *testing.T) {
	var got gen.Config
	fake := func(_ context.Context, cfg gen.Config) (*gen.Result, error) {
		got = cfg
		return &gen.Result{}, nil
	}
	out := t.TempDir()
	code, _, stderr := runFake(fake, "generate", "-in", "p", "-out", out, "-pkg", "prompts", "-renderer", "text/template", "-strict")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	want := gen.Config{Dir: "p", Out: out, Pkg: "prompts", Renderer: gen.RendererTextTemplate, Strict: true}
	if got != want {
		t.Errorf("Config = %+v, want %+v", got, want)
	}

	code, _, _ = runFake(fake, "diff", "-out", out)
	want = gen.Config{Dir: "prompts", Out: out, Renderer: gen.RendererGo}
	if code != exitOK || got != want {
		t.Errorf("diff defaults: exit %d, Config = %+v, want %+v", code, got, want)
	}
}

// TestGenerateFailureWritesNothing runs the real generator on a prompt
// that is not valid YAML: it must fail and leave the output untouched.
func TestGenerateFailureWritesNothing(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "prompts"), filepath.Join(dir, "generated")
	writeTree(t, in, map[string]string{"bad.yaml": "template: [\n"})
	before := map[string]string{
		"bad_prompt.go":   genHeader + "\n// previous output\n",
		"stale_prompt.go": genHeader + "\n// stale\n",
		"doc.go":          "package generated\n",
	}
	writeTree(t, out, before)

	for _, cmd := range []string{"generate", "diff"} {
		code, stdout, stderr := runArgs(cmd, "-in", in, "-out", out)
		if code != exitFail {
			t.Errorf("%s: exit %d, want %d", cmd, code, exitFail)
		}
		if stdout != "" {
			t.Errorf("%s: stdout = %q, want nothing", cmd, stdout)
		}
		if stderr == "" {
			t.Errorf("%s: no diagnostics on stderr", cmd)
		}
		sameTree(t, readTree(t, out), before)
	}
}

// generate and diff collect garbage at 5 times the live heap, unless GOGC
// says otherwise.
func TestGenerateGCPercent(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	ok := func(context.Context, gen.Config) (*gen.Result, error) { return &gen.Result{}, nil }
	for _, tt := range []struct {
		gogc string
		want int
	}{{"", 400}, {"50", 100}} {
		for _, cmd := range []string{"generate", "diff"} {
			t.Setenv("GOGC", tt.gogc)
			debug.SetGCPercent(100)
			runFake(ok, cmd, "-out", t.TempDir())
			if got := debug.SetGCPercent(100); got != tt.want {
				t.Errorf("GOGC=%q %s: GC percent %d, want %d", tt.gogc, cmd, got, tt.want)
			}
		}
	}
}

func TestGenerateDiagnostics(t *testing.T) {
	out := t.TempDir()
	diags := gen.Diagnostics{
		{Pos: gen.Pos{File: "prompts/a.yaml", Line: 3, Col: 7}, Severity: gen.SeverityError, Msg: `undefined variable "artcle" (did you mean "article"?)`},
		{Pos: gen.Pos{File: "prompts/b.yaml", Line: 1, Col: 1}, Severity: gen.SeverityWarning, Msg: "unused input \"x\""},
		{Severity: gen.SeverityError, Msg: "load: open prompts: no such file or directory"},
	}
	code, stdout, stderr := runFake(func(context.Context, gen.Config) (*gen.Result, error) {
		return &gen.Result{Files: []gen.File{genFile("a_prompt.go", "")}, Diagnostics: diags}, diags
	}, "generate", "-out", out)
	want := `prompts/a.yaml:3:7: undefined variable "artcle" (did you mean "article"?)
prompts/b.yaml:1:1: warning: unused input "x"
promptgen: load: open prompts: no such file or directory
`
	if code != exitFail || stdout != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 1, stderr:\n%s", code, stdout, stderr, want)
	}
	sameTree(t, readTree(t, out), map[string]string{})
}

func TestGenerateInternalError(t *testing.T) {
	code, _, stderr := runFake(func(context.Context, gen.Config) (*gen.Result, error) {
		return nil, errors.New("internal error: gofmt rejected the output")
	}, "generate", "-out", t.TempDir())
	if want := "promptgen: internal error: gofmt rejected the output\n"; code != exitFail || stderr != want {
		t.Errorf("exit %d, stderr %q; want 1, %q", code, stderr, want)
	}
}

func TestGenerateWarningsOnly(t *testing.T) {
	out := filepath.Join(t.TempDir(), "generated")
	files := []gen.File{genFile("a_prompt.go", ""), genFile("promptgen.go", "")}
	fake := func(context.Context, gen.Config) (*gen.Result, error) {
		return &gen.Result{Files: files, Diagnostics: gen.Diagnostics{
			{Pos: gen.Pos{File: "prompts/a.yaml", Line: 2, Col: 1}, Severity: gen.SeverityWarning, Msg: "deprecated key"},
		}}, nil
	}
	code, stdout, stderr := runFake(fake, "generate", "-out", out)
	if code != exitOK || stdout != "" || stderr != "prompts/a.yaml:2:1: warning: deprecated key\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	sameTree(t, readTree(t, out), map[string]string{
		"a_prompt.go":  string(files[0].Content),
		"promptgen.go": string(files[1].Content),
	})
}

func TestGenerateAndDiff(t *testing.T) {
	out := filepath.Join(t.TempDir(), "generated")
	files := []gen.File{genFile("a_prompt.go", "// a\n"), genFile("promptgen.go", "")}
	fake := func(context.Context, gen.Config) (*gen.Result, error) {
		return &gen.Result{Files: files}, nil
	}

	// Before generating, diff reports everything as added.
	code, stdout, stderr := runFake(fake, "diff", "-out", out)
	if code != exitFail || !strings.Contains(stdout, "+++ b/") || stderr != "" {
		t.Errorf("diff before generate: exit %d, stdout:\n%s\nstderr %q", code, stdout, stderr)
	}

	// Success is silent without -v.
	code, stdout, stderr = runFake(fake, "generate", "-out", out)
	if code != exitOK || stdout != "" || stderr != "" {
		t.Errorf("generate: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	code, stdout, stderr = runFake(fake, "diff", "-out", out)
	if code != exitOK || stdout != "" || stderr != "" {
		t.Errorf("diff after generate: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, _, stderr = runFake(fake, "diff", "-v", "-out", out)
	if want := "promptgen: " + out + " is up to date\n"; code != exitOK || stderr != want {
		t.Errorf("diff -v: exit %d, stderr %q, want %q", code, stderr, want)
	}

	// One file changes, one goes away.
	files = []gen.File{genFile("a_prompt.go", "// a, changed\n")}
	code, _, stderr = runFake(fake, "generate", "-v", "-out", out)
	want := "promptgen: removed stale " + filepath.ToSlash(filepath.Join(out, "promptgen.go")) + "\n" +
		"promptgen: wrote 1 file to " + out + "\n"
	if code != exitOK || stderr != want {
		t.Errorf("generate -v: exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}
	sameTree(t, readTree(t, out), map[string]string{"a_prompt.go": string(files[0].Content)})

	code, _, stderr = runFake(fake, "generate", "-v", "-out", out)
	if want := "promptgen: wrote 0 files to " + out + " (1 unchanged)\n"; code != exitOK || stderr != want {
		t.Errorf("generate -v again: exit %d, stderr %q, want %q", code, stderr, want)
	}
}

func TestWriteFailureExit1(t *testing.T) {
	out := t.TempDir()
	writeTree(t, out, map[string]string{"a_prompt.go/in_the_way": ""})
	code, _, stderr := runFake(func(context.Context, gen.Config) (*gen.Result, error) {
		return &gen.Result{Files: []gen.File{genFile("a_prompt.go", "")}}, nil
	}, "generate", "-out", out)
	if code != exitFail || !strings.HasPrefix(stderr, "promptgen: write: ") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// A prompts tree that links to a file outside it fails generate and diff
// without showing the file's content, and changes nothing.
func TestSymlinkOutsideTheTree(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"secret.txt": "TOP SECRET", "prompts/a.jinja": "A"})
	if err := os.Symlink(filepath.Join(dir, "secret.txt"), filepath.Join(dir, "prompts", "s.jinja")); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	out := filepath.Join(dir, "generated")
	writeTree(t, out, map[string]string{"a_prompt.go": genHeader + "\n"})
	for _, cmd := range []string{"generate", "diff"} {
		code, stdout, stderr := runArgs(cmd, "-in", filepath.Join(dir, "prompts"), "-out", out)
		want := filepath.ToSlash(filepath.Join(dir, "prompts", "s.jinja")) + ": symbolic link (promptgen follows no links)\n"
		if code != exitFail || stdout != "" || stderr != want {
			t.Errorf("%s: exit %d, stdout %q, stderr %q, want %q", cmd, code, stdout, stderr, want)
		}
	}
	sameTree(t, readTree(t, out), map[string]string{"a_prompt.go": genHeader + "\n"})
}

// An empty prompts directory is an error, not a package of nothing that
// deletes every generated file.
func TestEmptyPromptsDir(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"prompts/README.rst": "no prompts"})
	out := filepath.Join(dir, "generated")
	existing := map[string]string{"a_prompt.go": genHeader + "\n", "promptgen.go": genHeader + "\n"}
	writeTree(t, out, existing)
	for _, cmd := range []string{"generate", "diff"} {
		code, stdout, stderr := runArgs(cmd, "-in", filepath.Join(dir, "prompts"), "-out", out)
		if code != exitFail || stdout != "" || !strings.Contains(stderr, "prompts: no prompt files") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", cmd, code, stdout, stderr)
		}
	}
	sameTree(t, readTree(t, out), existing)
}

// TestReleaseVersion checks which module versions generated headers name:
// releases only, never a pseudo-version or a build from a checkout, so that
// generated/ does not change with the commit it is generated from.
func TestReleaseVersion(t *testing.T) {
	for v, want := range map[string]bool{
		"v1.2.3": true, "v0.4.0-rc.1": true, "v2.0.0-beta": true,
		"(devel)": false, "": false, "v0.0.0-20261125170000-abcdef123456": false,
		"v1.2.3+dirty": false, "v1.2.4-0.20261125170000-abcdef123456": false,
	} {
		if got := release.MatchString(v); got != want {
			t.Errorf("release.MatchString(%q) = %v, want %v", v, got, want)
		}
	}
	if v := releaseVersion(); v != "" {
		t.Errorf("a test binary names version %q in headers", v)
	}
}

// TestGoGeneratePaths runs generate as go generate does (in the package
// directory, with GOFILE set) and checks that diagnostics and the summary
// name files from the module root, as the generated code does, not from
// the package directory; outside go generate they stay as given.
func TestGoGeneratePaths(t *testing.T) {
	mod := t.TempDir()
	writeTestFile(t, filepath.Join(mod, "go.mod"), "module example.com/app\n\ngo 1.26\n")
	writeTestFile(t, filepath.Join(mod, "prompts", "bad.yaml"), "template: hi\nmodle: x\n")
	writeTestFile(t, filepath.Join(mod, "prompts", "ok.yaml"), "template: hi\n")
	pkg := filepath.Join(mod, "internal", "prompts")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(pkg)
	const want = `prompts/bad.yaml:2:1: unknown key "modle" (did you mean "model"?)`

	_, _, stderr := runArgs("generate", "-in", "../../prompts", "-out", ".", "-pkg", "prompts")
	if !strings.Contains(stderr, "../../"+want) {
		t.Errorf("outside go generate, want paths as given:\n%s", stderr)
	}

	t.Setenv("GOFILE", "doc.go")
	code, _, stderr := runArgs("generate", "-in", "../../prompts", "-out", ".", "-pkg", "prompts")
	if code != exitFail || !strings.HasPrefix(stderr, want+"\n") {
		t.Errorf("under go generate: exit %d, want %s first:\n%s", code, want, stderr)
	}
	if err := os.Remove(filepath.Join(mod, "prompts", "bad.yaml")); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runArgs("generate", "-in", "../../prompts", "-out", ".", "-pkg", "prompts", "-v"); code != exitOK || !strings.Contains(stderr, "to internal/prompts") {
		t.Errorf("under go generate: exit %d, want the output named from the module root:\n%s", code, stderr)
	}
}
