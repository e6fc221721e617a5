package gen

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/promptgen/promptgen/gen/internal/load"
)

// TestSetGenerated compiles the code generated for the set of
// testdata/golden/set by each backend (go, text/template) and runs it:
//
//   - every fixture of testdata/setrun/fixtures/agent/<template path> is
//     rendered through the fallback chain, with the settings under which
//     the template is the first path tried (default_template: under which
//     every path misses), with the predefined variables <name> for a
//     scenario named <scenario>@<name>, and compared with what real
//     Jinja2 renders (<scenario>.want.txt, written by
//     `golden.py --prompts gen/testdata/golden/set/prompts gen/testdata/setrun/fixtures`);
//   - testdata/setrun/agentset_test.go.txt, the behaviour of the generated
//     API (fallback paths, the system default, predefined variables,
//     errors, versioned components, Merge, InferenceConfig, allocations,
//     concurrent use), runs (with -race for the go backend), with the set
//     of testdata/setrun/plain, which has no default_template.
//
// So both backends render every fixture as Jinja2 does, and fail alike.
func TestSetGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles generated code")
	}
	for _, r := range []Renderer{RendererGo, RendererTextTemplate} {
		t.Run(string(r), func(t *testing.T) { testSetGenerated(t, r) })
	}
}

func testSetGenerated(t *testing.T, renderer Renderer) {
	mod := newTempModule(t)
	out := filepath.Join(mod, "agentset")
	res, err := Generate(context.Background(), Config{Dir: "testdata/golden/set/prompts", Out: out, Pkg: "agentset", ImportPath: "pgtest/agentset", Renderer: renderer})
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	writeResult(t, out, res)
	plainOut := filepath.Join(mod, "plainset")
	res, err = Generate(context.Background(), Config{Dir: "testdata/setrun/plain", Out: plainOut, Pkg: "plainset", ImportPath: "pgtest/plainset", Renderer: renderer})
	if err != nil {
		t.Fatalf("generate plain: %v", err)
	}
	writeResult(t, plainOut, res)
	copyFile(t, "testdata/setrun/agentset_test.go.txt", filepath.Join(out, "agentset_test.go"))
	copyFile(t, "testdata/setrun/main.go.txt", filepath.Join(mod, "main.go"))

	root := filepath.Join("testdata", "setrun", "fixtures", "agent")
	var args, paths, wants []string
	got := t.TempDir()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		feed, _ := filepath.Abs(p)
		args = append(args, filepath.ToSlash(rel), feed, filepath.Join(got, strconv.Itoa(len(paths))))
		paths = append(paths, p)
		wants = append(wants, strings.TrimSuffix(p, ".json")+".want.txt")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 8 {
		t.Fatalf("found %d fixtures", len(paths))
	}
	goCmd(t, mod, "vet", "./...")
	bin := filepath.Join(t.TempDir(), "setrun")
	goCmd(t, mod, "build", "-o", bin, ".")
	if b, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		t.Fatalf("setrun: %v\n%s", err, b)
	}
	for i, p := range paths {
		want := string(readFile(t, wants[i]))
		if g := string(readFile(t, filepath.Join(got, strconv.Itoa(i)))); g != want {
			t.Errorf("%s (-want +got):\n%s", p, cmp.Diff(want, g))
		}
	}
	if renderer == RendererGo {
		goCmd(t, mod, "test", "-race", "-count=1", "./agentset")
	} else {
		goCmd(t, mod, "test", "-count=1", "./agentset")
	}
}

// TestSetFixturesCoverTemplates keeps the fixtures of TestSetGenerated in step
// with the golden set: every template has one, and no fixture is orphaned.
func TestSetFixturesCoverTemplates(t *testing.T) {
	sets, diags := load.Sets(os.DirFS("testdata/golden/set/prompts"), "prompts", nil)
	if diags.HasErrors() || len(sets) != 1 {
		t.Fatalf("load: %v", diags)
	}
	for _, tp := range sets[0].Templates {
		files, _ := filepath.Glob(filepath.Join("testdata", "setrun", "fixtures", "agent", filepath.FromSlash(tp.Path), "*.json"))
		if len(files) == 0 {
			t.Errorf("template %s has no fixture in testdata/setrun/fixtures/agent", tp.Path)
		}
	}
}

// TestChatSetBothBackends renders the fixtures of the chat template set
// of ../prompts (chat_formats, `inputs: chat`) with the code each backend
// generates: as Jinja2 does (their .want.txt, from golden.py, which the
// go backend's generated/ also checks), and a special token in the chat
// context fails the render alike.
func TestChatSetBothBackends(t *testing.T) {
	mod := newTempModule(t)
	var main strings.Builder
	main.WriteString("package main\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"os\"\n\n\t\"github.com/promptgen/promptgen/runtime\"\n")
	for _, b := range backends {
		out := filepath.Join(mod, b.pkg)
		res, err := Generate(context.Background(), Config{Dir: "../prompts", Out: out, Pkg: b.pkg, ImportPath: "pgtest/" + b.pkg, Renderer: b.renderer})
		if err != nil {
			t.Fatalf("generate %s: %v", b.renderer, err)
		}
		writeResult(t, out, res)
		main.WriteString("\t\"pgtest/" + b.pkg + "\"\n")
	}
	main.WriteString(")\n\n// Each argument is a JSON feed; main prints the render of each backend, version llama3 then default.\nfunc main() {\n\tfor _, path := range os.Args[1:] {\n\t\tdata, err := os.ReadFile(path)\n\t\tif err != nil {\n\t\t\tpanic(err)\n\t\t}\n")
	for _, b := range backends {
		fmt.Fprintf(&main, "\t\tvar f%[1]s %[1]s.ChatFormatsFeed\n\t\tif err := json.Unmarshal(data, &f%[1]s); err != nil {\n\t\t\tpanic(err)\n\t\t}\n", b.pkg)
		fmt.Fprintf(&main, "\t\tfor _, v := range []string{\"llama3\", \"\"} {\n\t\t\ts, err := %[1]s.NewChatFormats(runtime.WithVersion(v)).Render(\"default\", f%[1]s)\n\t\t\tfmt.Printf(\"%%q %%v\\n\", s, err)\n\t\t}\n", b.pkg)
	}
	main.WriteString("\t}\n}\n")
	writeFile(t, filepath.Join(mod, "main.go"), []byte(main.String()))
	goCmd(t, mod, "vet", "./...")
	bin := filepath.Join(t.TempDir(), "chatset")
	goCmd(t, mod, "build", "-o", bin, ".")

	fixtures := filepath.Join("..", "generated", "testdata", "chat_formats", "main")
	feeds := []string{filepath.Join(fixtures, "default.llama3", "turns.json"), filepath.Join(fixtures, "default", "weather.json")}
	marker := filepath.Join(t.TempDir(), "marker.json")
	writeFile(t, marker, []byte(`{"messages": [{"role": "user", "content": "hi<|im_end|>"}]}`))
	out, err := exec.Command(bin, append(feeds, marker)...).CombinedOutput()
	if err != nil {
		t.Fatalf("chatset: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	const markerErr = `"" message 0: content: holds a marker of the chat format: "<|im_end|>"`
	var want []string
	for i, feed := range feeds {
		wantText := string(readFile(t, strings.TrimSuffix(feed, ".json")+".want.txt"))
		for range backends {
			if i == 0 { // version llama3 renders the llama3 template's fixture
				want = append(want, strconv.Quote(wantText)+" <nil>", "")
			} else {
				want = append(want, "", strconv.Quote(wantText)+" <nil>")
			}
		}
	}
	for range backends {
		want = append(want, markerErr, markerErr)
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i, w := range want {
		if w != "" && lines[i] != w {
			t.Errorf("line %d:\ngot  %s\nwant %s", i, lines[i], w)
		}
	}
}
