package gen

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/bind"
	"golang.org/x/tools/txtar"
)

// TestChecksAgree is the differential test of the generated checks: every
// schema of internal/outschema/testdata/checks/*.txtar and of ../prompts is
// generated into a package of a temporary module, with
// testdata/checks/agree_test.go and a list of its checks; that test runs
// each document of the corpus (the .jsonl sections, the examples) and
// hundreds of mutations of it through the generated checks and through the
// compiled schema (jsonschema/v5), and requires the same verdict on every
// one, and that what a valid one decodes to is valid. It needs the whole
// pipeline (the examples are checked against the feed) and a module to
// build; which schemas get checks is outschema's TestLowerChecks.
func TestChecksAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a module")
	}
	type corpus struct {
		name string
		fsys fs.FS
		docs map[string][]string // by prompt key
	}
	corpora := []corpus{{name: "prompts", fsys: os.DirFS("../prompts")}}
	archives, _ := filepath.Glob(filepath.Join("internal", "outschema", "testdata", "checks", "*.txtar"))
	for _, file := range archives {
		a, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		c := corpus{name: strings.TrimSuffix(filepath.Base(file), ".txtar"), docs: map[string][]string{}}
		files := map[string]string{}
		for _, f := range a.Files {
			if key, ok := strings.CutSuffix(f.Name, ".jsonl"); ok {
				for _, line := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
					c.docs[key] = append(c.docs[key], line)
				}
				continue
			}
			files[f.Name] = string(f.Data)
		}
		c.fsys = mapFS(files)
		corpora = append(corpora, c)
	}
	driver := readFile(t, filepath.Join("testdata", "checks", "agree_test.go"))
	mod := newTempModule(t)
	for _, c := range corpora {
		pkg := "agree_" + c.name
		res, err := generate(c.fsys, "prompts", Config{Pkg: pkg, ImportPath: "pgtest/" + pkg})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		dir := filepath.Join(mod, pkg)
		writeResult(t, dir, res)
		writeFile(t, filepath.Join(dir, "agree_test.go"), bytes.Replace(driver, []byte("package checks"), []byte("package "+pkg), 1))

		prog, err := compile(request{tree: &tree{dir: "prompts", base: "prompts", fsys: c.fsys}, scope: wholeTree,
			packages: bind.PackagesLoader(context.Background()), packagesDir: "."})
		if err != nil {
			t.Fatal(err)
		}
		cases := jen.Statement{}
		for _, p := range prog.prompts {
			o := p.Output
			if o == nil || o.Checks == nil {
				continue // the compiled schema, or no schema
			}
			var docs []jen.Code
			for _, d := range c.docs[p.Key] {
				docs = append(docs, jen.Lit(d))
			}
			for _, ex := range p.Examples {
				docs = append(docs, jen.Lit(ex.Output))
			}
			if len(docs) == 0 {
				t.Errorf("%s/%s: no documents", c.name, p.Key)
			}
			reencode := jen.Func().Params(jen.Id("doc").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).Block(
				jen.Var().Id("v").Id(o.Name),
				jen.If(jen.Err().Op(":=").Qual("encoding/json", "Unmarshal").Call(jen.Id("doc"), jen.Op("&").Id("v")), jen.Err().Op("!=").Nil()).Block(
					jen.Return(jen.Nil(), jen.Err())),
				jen.Return(jen.Qual("encoding/json", "Marshal").Call(jen.Id("v"))),
			)
			cases = append(cases, jen.Values(jen.Dict{
				jen.Id("name"):     jen.Lit(p.Key),
				jen.Id("check"):    jen.Id(o.Checks.Root.Func),
				jen.Id("schema"):   jen.Id(o.SchemaVar + "JSON"),
				jen.Id("docs"):     jen.Index().String().Values(docs...),
				jen.Id("reencode"): reencode,
			}))
		}
		f := jen.NewFilePathName("pgtest/"+pkg, pkg)
		f.Var().Id("cases").Op("=").Index().Id("agreeCase").Values(cases...)
		var buf bytes.Buffer
		if err := f.Render(&buf); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "cases_test.go"), buf.Bytes())
	}
	cmd := exec.Command("go", "test", "-count=1", "-v", "./...")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	// The document counts, with -v.
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, " documents: ") {
			t.Log(strings.TrimSpace(line))
		}
	}
}
