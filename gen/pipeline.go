package gen

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/bind"
	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/load"
	"github.com/promptgen/promptgen/gen/internal/names"
	"github.com/promptgen/promptgen/gen/internal/outschema"
	"github.com/promptgen/promptgen/gen/internal/promptcheck"
	"github.com/promptgen/promptgen/gen/internal/setcheck"
	"github.com/promptgen/promptgen/internal/par"
)

// This file holds the one place where the stages run, in their order:
// load → bind → check (promptcheck around a prompt file's templates,
// setcheck around a set's bodies) → outschema → names. The emitters (emit
// with goemit or ttemit) read what compile returns; Generate writes files
// from it and the previews translate it.

// scope is the part of the prompts tree a command compiles.
type scope uint8

const (
	wholeTree scope = iota // promptgen generate
	onePrompt              // a standalone prompt, by key: promptgen render
	oneSet                 // a template set, by directory: render, resolve
)

// request says what compile runs over.
type request struct {
	tree  *tree
	cfg   Config
	scope scope
	key   string // the prompt or set of onePrompt and oneSet
	// loadOnly stops after load: promptgen resolve reads a set's settings
	// and paths, not its templates.
	loadOnly bool
	// packages loads the Go packages of goType and autobind, from the
	// module of packagesDir.
	packages    bind.Loader
	packagesDir string
}

// program is the compiled part of the tree: the specs as loaded and, unless
// the request stopped after load, the IR the emitters read, named.
type program struct {
	promptSpecs []*ir.PromptSpec // standalone prompts and sets' fragments
	setSpecs    []*ir.SetSpec
	prompts     []*ir.Prompt
	sets        []*ir.PromptSet
	// files are the generated file names: promptgen.go, then one per
	// prompt and one per set, in order.
	files []string
	diags Diagnostics // sorted, with the tree's paths as Config.Dir names them
}

// compile runs the stages over the part of the tree that r names. Every
// stage runs over what the one before it produced, errors or not, so that
// one run reports every error. err is non-nil only when the scope's key
// names nothing (with a did-you-mean); errors in the prompts are in the
// program's diagnostics.
func compile(r request) (*program, error) {
	prog := &program{}
	sink := &diag.Sink{}
	if err := r.load(prog, sink); err != nil {
		return nil, err
	}
	if !r.loadOnly {
		bind.Run(r.packages, r.packagesDir, prog.promptSpecs, prog.setSpecs, sink)
		tools := map[*ir.ToolSpec]*ir.Tool{} // a shared tool is lowered once
		lowerTools := func(d ir.ToolDecl) (lowered []*ir.Tool) {
			for _, u := range d.Tools {
				if tools[u.Tool] == nil {
					tools[u.Tool] = outschema.LowerTool(u.Tool, sink)
				}
				lowered = append(lowered, tools[u.Tool])
			}
			return lowered
		}
		// Each prompt is checked on its own, on every CPU, into its own
		// sink; the shared tools are lowered after, in order. Prompts
		// that bind Go types share them, and are checked one at a time.
		checked := make([]*ir.Prompt, len(prog.promptSpecs))
		sinks := make([]diag.Sink, len(prog.promptSpecs))
		check := func(i int) {
			p, sink := prog.promptSpecs[i], &sinks[i]
			if irp := promptcheck.Prompt(p, r.cfg.Strict, sink); irp != nil {
				irp.Output = outschema.Lower(p, sink)
				outschema.CheckExamples(p, irp, sink)
				checked[i] = irp
			}
		}
		if slices.ContainsFunc(prog.promptSpecs, bind.Binds) {
			for i := range prog.promptSpecs {
				check(i)
			}
		} else {
			par.Each(len(prog.promptSpecs), check)
		}
		for i, p := range prog.promptSpecs {
			sink.List = append(sink.List, sinks[i].List...)
			if irp := checked[i]; irp != nil {
				irp.Tools = lowerTools(p.ToolDecl)
				prog.prompts = append(prog.prompts, irp)
			}
		}
		prog.sets = setcheck.Sets(prog.setSpecs, r.cfg.Strict, sink)
		specs := map[string]*ir.SetSpec{}
		for _, sp := range prog.setSpecs {
			specs[sp.Key] = sp
		}
		for _, s := range prog.sets {
			s.Tools = lowerTools(specs[s.Key].ToolDecl)
		}
		names.Sets(names.Prompts(prog.prompts, sink), prog.sets, r.tree.base, sink)
		prog.files = names.Files(prog.prompts, prog.sets, r.tree.base, sink)
	}
	prog.diags = r.tree.show(sink.List.Sorted())
	return prog, nil
}

// load reads the prompts and sets of r's scope into prog, and their files'
// diagnostics into sink.
func (r request) load(prog *program, sink *diag.Sink) error {
	t := r.tree
	switch r.scope {
	case wholeTree:
		tools, toolDiags := load.Tools(t.fsys, t.base)
		prompts, promptDiags := load.Prompts(t.fsys, t.base, tools)
		sets, setDiags := load.Sets(t.fsys, t.base, tools)
		sink.List = append(append(toolDiags, promptDiags...), setDiags...)
		if len(prompts) == 0 && len(sets) == 0 && !sink.List.HasErrors() {
			// Writing the package of no prompts would delete every generated file.
			sink.Errorf(Pos{File: t.base}, "no prompt files (*.yaml, *.yml, *.jinja, *.j2, *.md, *.txt) and no template set (a directory with %s) to generate from (to remove the generated package, delete its directory)", ir.SetFile)
		}
		prog.promptSpecs, prog.setSpecs = prompts, sets
	case onePrompt:
		tools, _ := load.Tools(t.fsys, t.base) // a tool in error is reported where the prompt names it
		prompts, loadDiags := load.Prompts(t.fsys, t.base, tools)
		p, didYouMean := find(prompts, func(p *ir.PromptSpec) string { return p.Key }, r.key)
		// The prompt's file, by its key, also when it failed to load.
		sink.List = t.keep(loadDiags, func(rel string) bool { return load.PromptKey(rel) == r.key })
		if p == nil && !sink.List.HasErrors() {
			if set := setHolding(t.fsys, r.key); set != "" {
				return fmt.Errorf("%q is in the template set %q (LoadSetPreview loads sets)", r.key, set)
			}
			return fmt.Errorf("no prompt %q in %s%s", r.key, r.cfg.Dir, didYouMean)
		}
		if p != nil {
			prog.promptSpecs = []*ir.PromptSpec{p}
		}
	case oneSet:
		tools, _ := load.Tools(t.fsys, t.base) // a tool in error is reported where the set names it
		sets, loadDiags := load.Sets(t.fsys, t.base, tools)
		s, didYouMean := find(sets, func(s *ir.SetSpec) string { return s.Key }, r.key)
		// The set's files are those below its directory.
		sink.List = t.keep(loadDiags, func(rel string) bool { return r.key == "" || strings.HasPrefix(rel, r.key+"/") })
		if s == nil && !sink.List.HasErrors() {
			return fmt.Errorf("no template set %q in %s%s", r.key, r.cfg.Dir, didYouMean)
		}
		if s != nil {
			prog.setSpecs = []*ir.SetSpec{s}
		}
	}
	for _, s := range prog.setSpecs {
		prog.promptSpecs = append(prog.promptSpecs, s.Fragments...)
	}
	return nil
}

// goPackagesDir is the directory whose module resolves the packages of
// goType and autobind: dir (the output directory), or its nearest parent
// that exists, since the first generate creates it.
func goPackagesDir(dir string) string {
	if dir == "" {
		dir = "."
	}
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}

// previewPackagesDir is where promptgen render loads the packages of
// goType and autobind: the output directory when given, else the prompts
// directory, which is in the same module as a rule.
func (cfg Config) previewPackagesDir() string {
	if cfg.Out != "" {
		return goPackagesDir(cfg.Out)
	}
	return goPackagesDir(cfg.Dir)
}
