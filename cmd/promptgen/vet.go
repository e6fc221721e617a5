package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/vet"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// vetCommand is "promptgen vet", for the command list.
var vetCommand = command{
	name:     "vet",
	synopsis: "[packages]",
	summary:  "check the calls of generated code in Go packages",
	doc: `Vet loads the Go packages (go list patterns, default ".", test files included)
and reports, as file:line:col: message, the calls of promptgen-generated code
that compile but fail or misbehave at run time: feed literals that leave a
required field unset or set it to "" or nil; constant keys of a template set
that name no template (with the template they fall back to); constant
parameter overrides with an unknown name or a value out of range. It exits
with status 1 if it reports anything, or if a package does not load or
type-check. The same analyzer runs under go vet -vettool=$(which
promptgen-vet) and golangci-lint.`,
}

// vetLoadMode loads the named packages from source and their dependencies
// from export data, which is all the analyzer needs.
const vetLoadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
	packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax | packages.NeedTypesInfo

// runVet implements "promptgen vet".
func (a *app) runVet(ctx context.Context, args []string) int {
	flags := flag.NewFlagSet("vet", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			a.commandHelp(a.stderr, vetCommand)
			return exitOK
		}
		return a.usageError("vet", "%v", err)
	}
	patterns := flags.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	pkgs, err := packages.Load(&packages.Config{Context: ctx, Mode: vetLoadMode, Tests: true}, patterns...)
	if err != nil {
		a.log.Printf("vet: %v", err)
		return exitFail
	}
	// The test main packages hold no user code.
	pkgs = slices.DeleteFunc(pkgs, func(p *packages.Package) bool { return strings.HasSuffix(p.ID, ".test") })
	if a.printLoadErrors(pkgs) {
		return exitFail
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{vet.Analyzer}, pkgs, nil)
	if err != nil {
		a.log.Printf("vet: internal error: %v", err)
		return exitFail
	}
	var found []vetDiagnostic
	failed := false
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			a.log.Printf("vet: %s: %v", act.Package.PkgPath, act.Err)
			failed = true
			continue
		}
		for _, d := range act.Diagnostics {
			found = append(found, vetDiagnostic{act.Package.Fset.Position(d.Pos), d.Message})
		}
	}
	for _, d := range sortedVetDiagnostics(found) {
		fmt.Fprintf(a.stderr, "%s:%d:%d: %s\n", relPath(d.pos.Filename), d.pos.Line, d.pos.Column, d.msg)
	}
	if failed || len(found) > 0 {
		return exitFail
	}
	return exitOK
}

// printLoadErrors prints the errors of packages that did not load or
// type-check, and reports whether there were any. The go command's
// compiler output ("# pkg" and the type errors again, when it builds the
// export data of a test variant) is dropped when the type errors are there.
func (a *app) printLoadErrors(pkgs []*packages.Package) bool {
	var errs []packages.Error
	typeErrors := false
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e)
			typeErrors = typeErrors || e.Kind != packages.ListError
		}
	})
	var lines []string
	for _, e := range errs {
		switch {
		case typeErrors && e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# "):
		case e.Pos == "" || e.Pos == "-":
			lines = append(lines, "promptgen: vet: "+e.Msg)
		default:
			lines = append(lines, relPos(e.Pos)+": "+e.Msg)
		}
	}
	slices.Sort(lines)
	lines = slices.Compact(lines)
	for _, l := range lines {
		fmt.Fprintln(a.stderr, l)
	}
	return len(lines) > 0
}

type vetDiagnostic struct {
	pos token.Position
	msg string
}

// sortedVetDiagnostics sorts by file, line, column and message, and drops
// the copies that a file in both a package and its test variant gives.
func sortedVetDiagnostics(ds []vetDiagnostic) []vetDiagnostic {
	slices.SortFunc(ds, func(x, y vetDiagnostic) int {
		return cmp.Or(cmp.Compare(x.pos.Filename, y.pos.Filename), cmp.Compare(x.pos.Line, y.pos.Line),
			cmp.Compare(x.pos.Column, y.pos.Column), cmp.Compare(x.msg, y.msg))
	})
	return slices.CompactFunc(ds, func(x, y vetDiagnostic) bool {
		return x.pos.Filename == y.pos.Filename && x.pos.Line == y.pos.Line && x.pos.Column == y.pos.Column && x.msg == y.msg
	})
}

// relPath shows a file relative to the working directory, with forward
// slashes, when it is inside it.
func relPath(file string) string {
	wd, err := os.Getwd()
	if err != nil {
		return filepath.ToSlash(file)
	}
	if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(file)
}

// relPos applies relPath to the file of a "file:line:col" position.
func relPos(pos string) string {
	file, rest := pos, ""
	for range 2 {
		i := strings.LastIndexByte(file, ':')
		if i < 0 {
			break
		}
		file, rest = file[:i], file[i:]+rest
	}
	return relPath(file) + rest
}
