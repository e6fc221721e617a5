package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/promptgen/promptgen/gen"
	pgruntime "github.com/promptgen/promptgen/runtime"
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
T/D, D.V, D, and last the set's default_template (promptset.yaml), shown as
"hit   default_template (system default)". -type, -root, -version and
-default-name change the settings of the set's new manager (promptset.yaml's
default_type and default_name, no root space, no version); an empty -key is
the key of no anchor action, which goes to the default templates. In a set
without default_template, a key that resolves to no template is an error
(exit 1), after the chain of misses.`,
}

// runResolve implements "promptgen resolve".
func (a *app) runResolve(args []string) int {
	flags := flag.NewFlagSet("resolve", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	in := flags.String("in", "prompts", "read prompt files from `dir`")
	var sf setFlags
	sf.define(flags)
	// Flags may also follow the set.
	var sets []string
	for {
		if err := flags.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				a.commandHelp(a.stderr, resolveCommand)
				return exitOK
			}
			return a.usageError("resolve", "%v", err)
		}
		if flags.NArg() == 0 {
			break
		}
		sets = append(sets, flags.Arg(0))
		args = flags.Args()[1:]
	}
	if len(sets) != 1 {
		return a.usageError("resolve", "want one template set, got %d", len(sets))
	}
	sf.visit(flags)

	info, diags, err := gen.LoadSet(gen.Config{Dir: *in}, sets[0])
	a.printDiagnostics(diags)
	if err != nil {
		if !diags.HasErrors() { // else err is diags
			a.log.Printf("resolve: %v", err)
		}
		return exitFail
	}
	r := sf.manager(info).Resolve(*sf.key)
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

// setFlags are the flags that choose a set's template: the key and the
// manager's settings.
type setFlags struct {
	key, typ, root, version, defName *string
	set                              map[string]bool // the flags given
}

// setFlagNames are the names of setFlags' flags.
var setFlagNames = []string{"key", "type", "root", "version", "default-name"}

func (sf *setFlags) define(flags *flag.FlagSet) {
	sf.key = flags.String("key", "", "the template `key`, such as BrowseLink or reflection/Review")
	sf.typ = flags.String("type", "", "the active `type` (default: the set's default_type; \"\" is the set's root)")
	sf.root = flags.String("root", "", "the root `space`")
	sf.version = flags.String("version", "", "the `version` suffix")
	sf.defName = flags.String("default-name", "", "the fallback `name` of every namespace (default: the set's default_name)")
}

// visit records which of the set flags the command line gave.
func (sf *setFlags) visit(flags *flag.FlagSet) {
	sf.set = map[string]bool{}
	flags.Visit(func(f *flag.Flag) { sf.set[f.Name] = true })
}

// manager is the resolver of set info under the settings of the flags.
func (sf *setFlags) manager(info *gen.SetInfo) *pgruntime.Manager {
	var opts []pgruntime.Option
	if sf.set["type"] {
		opts = append(opts, pgruntime.WithType(*sf.typ))
	}
	if sf.set["default-name"] {
		opts = append(opts, pgruntime.WithDefaultName(*sf.defName))
	}
	opts = append(opts, pgruntime.WithRootSpace(*sf.root), pgruntime.WithVersion(*sf.version))
	m := pgruntime.NewManager(pgruntime.MapTable(info.Key, info.Paths, info.SystemDefault),
		pgruntime.Settings{Type: info.DefaultType, DefaultName: info.DefaultName}, opts...)
	return &m
}
