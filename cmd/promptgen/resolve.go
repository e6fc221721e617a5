package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/promptgen/promptgen/gen"
	"github.com/promptgen/promptgen/runtime"
)

// resolveCommand is "promptgen resolve", for the command list.
var resolveCommand = command{
	name:     "resolve",
	synopsis: "[-in dir] SET -key K [-type T] [-root R] [-version V] [-default-name D]",
	summary:  "show which template of a set a key resolves to",
	doc: `Resolve prints the full path of the template that key K resolves to in the
template set SET (its directory in -in, such as agent) on the first line, then
every path of the fallback chain that was tried, each with "miss" or "hit", as
generated code resolves it: R/T/K.V, R/T/K, R/T/D.V, R/T/D, T/K.V, T/K, T/D.V,
T/D, D.V, D. -type, -root, -version and -default-name change the settings of
the set's new manager (promptset.yaml's default_type and default_name, no root
space, no version); an empty -key is the key of no anchor action, which goes
to the default templates. A key that resolves to no template is an error
(exit 1), after the chain of misses.`,
}

// runResolve implements "promptgen resolve".
func (a *app) runResolve(args []string) int {
	fs := flag.NewFlagSet("resolve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	in := fs.String("in", "prompts", "read prompt files from `dir`")
	key := fs.String("key", "", "the template `key`, such as BrowseLink or reflection/Review")
	typ := fs.String("type", "", "the active `type` (default: the set's default_type; \"\" is the set's root)")
	root := fs.String("root", "", "the root `space`")
	version := fs.String("version", "", "the `version` suffix")
	defName := fs.String("default-name", "", "the fallback `name` of every namespace (default: the set's default_name)")
	// Flags may also follow the set.
	var sets []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				a.commandHelp(a.stderr, resolveCommand)
				return exitOK
			}
			return a.usageError("resolve", "%v", err)
		}
		if fs.NArg() == 0 {
			break
		}
		sets = append(sets, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(sets) != 1 {
		return a.usageError("resolve", "want one template set, got %d", len(sets))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	info, diags, err := gen.LoadSet(gen.Config{Dir: *in}, sets[0])
	a.printDiagnostics(diags)
	if err != nil {
		if len(diags) == 0 {
			a.log.Printf("resolve: %v", err)
		}
		return exitFail
	}
	var opts []runtime.Option
	if set["type"] {
		opts = append(opts, runtime.WithType(*typ))
	}
	if set["default-name"] {
		opts = append(opts, runtime.WithDefaultName(*defName))
	}
	opts = append(opts, runtime.WithRootSpace(*root), runtime.WithVersion(*version))
	ids := make(map[string]int, len(info.Paths))
	for id, p := range info.Paths {
		ids[p] = id
	}
	lookup := func(p runtime.Path) (int, bool) {
		id, ok := ids[p.String()]
		return id, ok
	}
	m := runtime.NewManager(info.Key, lookup, info.Paths,
		runtime.Settings{Type: info.DefaultType, DefaultName: info.DefaultName}, opts...)
	r := m.Resolve(*key)
	if r.Err == nil {
		fmt.Fprintln(a.stdout, r.Path)
	}
	tried := r.Tried()
	for i, p := range tried {
		if r.Err == nil && i == len(tried)-1 {
			fmt.Fprintf(a.stdout, "  hit   %s (%s)\n", p, r.Level)
		} else {
			fmt.Fprintf(a.stdout, "  miss  %s\n", p)
		}
	}
	if r.Err != nil {
		a.log.Printf("resolve: %v", r.Err)
		return exitFail
	}
	return exitOK
}
