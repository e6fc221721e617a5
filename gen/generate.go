// Package gen is promptgen's generator: it runs the stages of
// gen/internal (load, check, outschema, names, goemit) over a prompts
// directory and returns the files of a typed Go package and every
// diagnostic. It never prints and never exits. It owns the orchestration
// and the entry points of promptgen render and resolve, nothing else:
// stage logic belongs in the stage's package.
package gen

import (
	"bytes"
	"context"
	"fmt"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/promptgen/promptgen/gen/internal/bind"
	"github.com/promptgen/promptgen/gen/internal/check"
	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/goemit"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/load"
	"github.com/promptgen/promptgen/gen/internal/names"
	"github.com/promptgen/promptgen/gen/internal/outschema"
	"golang.org/x/tools/go/packages"
)

// Renderer names a backend for the generated renderers.
type Renderer string

const (
	RendererGo           Renderer = "go"
	RendererTextTemplate Renderer = "text/template"
)

// Config is the input of one generator run.
type Config struct {
	// Dir is the prompts directory, e.g. "prompts". Paths in diagnostics
	// are shown relative to it, prefixed with Dir as given.
	Dir string
	// Out is the output directory; its base name is the default package name.
	Out string
	// Pkg overrides the package name.
	Pkg string
	// ImportPath is the output package's import path; when empty it is
	// learnt with go/packages from the module that contains Out.
	ImportPath string
	// Renderer selects the backend; empty means RendererGo.
	Renderer Renderer
	// Strict requires every prompt to declare its inputs.
	Strict bool
}

// File is one generated file.
type File struct {
	Name    string // base name inside Out, e.g. "summarize_prompt.go"
	Content []byte
}

// Result is what a run produced: files in name order, and every
// diagnostic (warnings included) sorted by position.
type Result struct {
	Files       []File
	Diagnostics Diagnostics
}

// Generate runs the pipeline. err is non-nil exactly when a diagnostic has
// error severity (then it is the Diagnostics), or on an internal error.
func Generate(ctx context.Context, cfg Config) (*Result, error) {
	t, err := openTree(cfg.Dir)
	if err != nil {
		return nil, err
	}
	if cfg.Pkg == "" {
		out, err := filepath.Abs(cfg.Out)
		if err != nil {
			return nil, fmt.Errorf("load: %w", err)
		}
		cfg.Pkg = filepath.Base(out)
		if !token.IsIdentifier(cfg.Pkg) || cfg.Pkg == "_" {
			return nil, fmt.Errorf("load: %s is not a Go package name: name the package (-pkg)", cfg.Pkg)
		}
	}
	if cfg.ImportPath == "" {
		cfg.ImportPath = learnImportPath(ctx, cfg.Out)
	}
	res, err := generateWith(t.fsys, t.base, cfg, bind.PackagesLoader(ctx))
	t.show(res.Diagnostics)
	return res, err
}

// generate runs the pipeline on the prompts in fsys, shown as dir in
// diagnostics and generated code. cfg.Pkg and cfg.ImportPath are final.
func generate(fsys fs.FS, dir string, cfg Config) (*Result, error) {
	return generateWith(fsys, dir, cfg, bind.PackagesLoader(context.Background()))
}

// generateWith is generate with the loader of the Go packages that goType
// and autobind name.
func generateWith(fsys fs.FS, dir string, cfg Config, loadPackages bind.Loader) (*Result, error) {
	prompts, loadDiags := load.Prompts(fsys, dir)
	sets, setDiags := load.Sets(fsys, dir)
	sink := &diag.Sink{List: append(loadDiags, setDiags...)}
	if len(prompts) == 0 && len(sets) == 0 && !sink.List.HasErrors() {
		// Writing the package of no prompts would delete every generated file.
		sink.Errorf(Pos{File: dir}, "no prompt files (*.yaml, *.yml, *.jinja, *.j2, *.md, *.txt) and no template set (a directory with %s) to generate from (to remove the generated package, delete its directory)", ir.SetFile)
	}
	for _, s := range sets {
		prompts = append(prompts, s.Fragments...)
	}
	bind.Run(loadPackages, goPackagesDir(cfg.Out), prompts, sets, sink)
	checked := lowerPrompts(prompts, cfg.Strict, sink)
	checkedSets := check.Sets(sets, cfg.Strict, sink)
	names.Sets(names.Prompts(checked, sink, outschema.Name), checkedSets, dir, sink)
	for _, p := range checked {
		load.CheckExamples(p, sink)
	}
	names := nameFiles(checked, checkedSets, dir, sink)
	res := &Result{Diagnostics: sink.List.Sorted()}
	if res.Diagnostics.HasErrors() {
		return res, res.Diagnostics
	}
	var body goemit.Body
	switch cfg.Renderer {
	case "", RendererGo:
		body = goemit.GoBody
	case RendererTextTemplate:
		body = goemit.TextTemplateBody
	default:
		return res, fmt.Errorf("unknown renderer %q", cfg.Renderer)
	}
	hasExamples := false
	for _, p := range checked {
		hasExamples = hasExamples || p.ExampleName != ""
	}
	files := []*jen.File{goemit.PackageFile(cfg.ImportPath, cfg.Pkg, hasExamples)}
	for _, p := range checked {
		if p.Spec.Fragment {
			files = append(files, goemit.FragmentFile(cfg.ImportPath, cfg.Pkg, p, body))
			continue
		}
		files = append(files, goemit.PromptFile(cfg.ImportPath, cfg.Pkg, p, body))
	}
	for _, s := range checkedSets {
		files = append(files, goemit.SetFile(cfg.ImportPath, cfg.Pkg, s, cfg.Renderer == RendererTextTemplate))
	}
	for i, f := range files {
		var buf bytes.Buffer
		if err := f.Render(&buf); err != nil {
			return res, fmt.Errorf("internal error: %s: %w", names[i], err)
		}
		res.Files = append(res.Files, File{Name: names[i], Content: buf.Bytes()})
	}
	sort.Slice(res.Files, func(i, j int) bool { return res.Files[i].Name < res.Files[j].Name })
	return res, nil
}

// nameFiles returns the generated file names: promptgen.go, then one per
// prompt and one per set, in order. Two keys that make one file name
// (a/b and a_b) are an error at both.
func nameFiles(prompts []*ir.Prompt, sets []*ir.PromptSet, dir string, diags *diag.Sink) []string {
	fileNames := []string{"promptgen.go"}
	type owner struct {
		key string
		pos Pos
	}
	owners := map[string]owner{}
	add := func(name, key string, pos Pos) {
		fileNames = append(fileNames, name)
		if o, ok := owners[name]; ok {
			diags.Errorf(pos, "%q and %q (%s) would both be generated into %s: rename one", key, o.key, names.ShortPos(o.pos, pos), name)
			diags.Errorf(o.pos, "%q and %q (%s) would both be generated into %s: rename one", o.key, key, names.ShortPos(pos, o.pos), name)
			return
		}
		owners[name] = owner{key, pos}
	}
	for _, p := range prompts {
		if p.Spec.Fragment {
			// fragments/x is x_fragment.go, agent/fragments/x agent_x_fragment.go.
			stem := strings.Replace("/"+p.Spec.Key, "/"+load.FragmentsDir+"/", "/", 1)
			add(names.FileStem(stem[1:])+"_fragment.go", p.Spec.Key, p.Spec.Pos)
			continue
		}
		add(names.FileStem(p.Spec.Key)+"_prompt.go", p.Spec.Key, p.Spec.Pos)
	}
	for _, s := range sets {
		stem := names.FileStem(s.Spec.Key)
		if stem == "" { // the prompts directory is itself the set
			stem = names.FileStem(dir)
		}
		add(stem+"_set.go", s.Spec.Key, s.Spec.Pos)
	}
	return fileNames
}

// lowerPrompts checks the standalone prompts and lowers their outputs:
// the IR that emit writes, once named, when sink holds no error.
func lowerPrompts(prompts []*ir.PromptSpec, strict bool, sink *diag.Sink) []*ir.Prompt {
	var checked []*ir.Prompt
	for _, p := range prompts {
		if irp := check.Prompt(p, strict, sink); irp != nil {
			irp.Output = outschema.Lower(p, sink)
			checked = append(checked, irp)
		}
	}
	return checked
}

// learnImportPath asks go/packages for the import path of dir; "" when it
// is not inside a module (jennifer then only misses self-import checks).
func learnImportPath(ctx context.Context, dir string) string {
	pkgs, err := packages.Load(&packages.Config{Context: ctx, Mode: packages.NeedName, Dir: dir}, ".")
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		return ""
	}
	return pkgs[0].PkgPath
}
