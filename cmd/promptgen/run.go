package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/promptgen/promptgen/gen"
	"github.com/promptgen/promptgen/schema"
)

// Exit codes.
const (
	exitOK    = 0 // success, or no difference for diff
	exitFail  = 1 // diagnostics with errors, a difference found, or an I/O failure
	exitUsage = 2 // bad command line
)

// command is one subcommand.
type command struct {
	name     string
	synopsis string // arguments after the command name
	summary  string // one line for the command list
	doc      string // paragraph(s) for "promptgen help <name>"
	flags    bool   // takes the generator flags
}

var commands = []command{
	{
		name:     "generate",
		synopsis: "[-in dir] [-out dir] [-pkg name] [-renderer go|text/template] [-strict] [-v]",
		summary:  "generate the Go package for a prompts directory",
		doc: `Generate reads the prompt files in -in and writes a typed Go package to -out.
Diagnostics are printed to stderr as file:line:col: message. When there is an
error nothing is written; otherwise only changed files are rewritten and
stale files carrying promptgen's header are removed, as one transaction: a run
that is killed leaves a journal, and the next generate finishes (or undoes)
its write before doing anything else. When nothing in -in, the flags, the
go.mod or promptgen itself changed since a generate left -out's Go files as
they are, generate writes nothing and only prints that run's warnings again
(it keeps a stamp per output directory in the user's cache directory; a
tree that names goType, autobind or filters is always generated).`,
		flags: true,
	},
	{
		name:     "diff",
		synopsis: "[-in dir] [-out dir] [-pkg name] [-renderer go|text/template] [-strict] [-v]",
		summary:  "print a unified diff of stale generated code; exit 1 if any",
		doc: `Diff generates in memory, as generate does, and prints to stdout a unified
diff from the files in -out to what generate would write. It exits with status
1 if there is any difference and changes nothing on disk.`,
		flags: true,
	},
	{
		name:     "render",
		synopsis: "[-in dir] [-data file.json|-] [-strict] [-now time] [-budget] PROMPT [-key K] [-type T] [-root R] [-version V] [-default-name D] [-predefined P]",
		summary:  "print a prompt rendered with JSON data, without compiling",
		doc: `Render prints PROMPT (a prompt key such as support/draft_reply) rendered with
the variables in the JSON object of -data ("-" for standard input; none means
{}), exactly and with no newline added. It runs the translation that
-renderer=text/template generates, on the same feed types, so it renders what
the generated code renders. A value of the wrong type or a required variable
left unset is an error naming the variable (exit 1); a key the prompt does not
read, at any depth, is a warning with a did-you-mean (an error with -strict).
strftime_now (jinja: {profile: transformers}) formats the current time, or
the RFC 3339 time of -now, as the generated Render does under
runtime.WithNow, so that the output is reproducible.

PROMPT may be a template set (such as agent): then key K (-key, or the rest of
PROMPT, as in agent/reflection/Review) is resolved as promptgen resolve does,
with -type, -root, -version and -default-name, and the template it resolves to
(the set's default_template when no path matches) is rendered with its
components, in the versions that the set's Render would choose. -predefined P
fills the variables that the data leaves unset (or sets to a zero value) from
the set's predefined_variables P, as the set's Render does under
runtime.WithPredefined(P). In a set without default_template, a key that
resolves to no template is an error naming every path tried.

A sectioned prompt renders as its generated Render does: the head, then each
section within its budget. -budget also prints, to standard error, the
section budget report: each section's tokens, budget, the loop items it
dropped and whether it was cut, and the tokens of the whole prompt. A section
over a budget that truncate: error keeps is an error (exit 1).`,
	},
	resolveCommand,
	testCommand,
	vetCommand,
	watchCommand,
	{
		name:    "version",
		summary: "print the promptgen and Go versions",
		doc:     `Version prints promptgen's module version and the Go version it was built with.`,
	},
	{
		name:     "help",
		synopsis: "[command]",
		summary:  "show help for a command",
		doc:      `Help describes promptgen or one of its commands.`,
	},
}

// app is one invocation of the command line.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	log            *log.Logger
	generate       func(context.Context, gen.Config) (*gen.Result, error)
	// modRoot is the module root when promptgen runs under go generate:
	// paths are then shown from it, not from the package directory that go
	// generate runs in (the user ran it from elsewhere).
	modRoot string
	// stamps: generate skips a tree whose stamp shows it unchanged (see
	// stamp); only with the real generator, which the stamp hashes.
	stamps bool
}

// run runs promptgen with the arguments after the program name and returns
// the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := newApp(stdout, stderr, gen.Generate)
	a.stdin, a.stamps = stdin, true
	return a.run(ctx, args)
}

func newApp(stdout, stderr io.Writer, generate func(context.Context, gen.Config) (*gen.Result, error)) *app {
	return &app{
		stdin:    strings.NewReader(""),
		stdout:   stdout,
		stderr:   stderr,
		log:      log.New(stderr, "promptgen: ", 0),
		generate: generate,
		modRoot:  goGenerateRoot(),
	}
}

// goGenerateRoot returns the root of the module in the working directory
// when promptgen runs under go generate (which sets GOFILE), else "".
func goGenerateRoot() string {
	if os.Getenv("GOFILE") == "" {
		return ""
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// userPath is how promptgen names path, relative to the working directory,
// to the user: under go generate, from the module root (the form the
// generated files' source lines use), so that it can be followed from the
// module root, where go generate ./... is run.
func (a *app) userPath(path string) string {
	if a.modRoot == "" || path == "" {
		return filepath.ToSlash(path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	rel, err := filepath.Rel(a.modRoot, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}

func (a *app) run(ctx context.Context, args []string) int {
	if len(args) == 0 {
		a.usage(a.stderr)
		return exitUsage
	}
	name, args := args[0], args[1:]
	switch name {
	case "generate", "diff":
		return a.runGenerate(ctx, name, args)
	case "render":
		return a.runRender(args)
	case "resolve":
		return a.runResolve(args)
	case "vet":
		return a.runVet(ctx, args)
	case "test":
		return a.runTest(args)
	case "watch":
		return a.runWatch(ctx, args)
	case "version":
		if len(args) > 0 {
			return a.usageError("version", "unexpected argument %q", args[0])
		}
		fmt.Fprintln(a.stdout, versionLine())
		return exitOK
	case "help", "-h", "-help", "--help":
		return a.help(args)
	}
	if strings.HasPrefix(name, "-") {
		a.log.Printf("flag %s must follow a command", name)
	} else {
		a.log.Printf("unknown command %q%s", name, suggest(name))
	}
	fmt.Fprintln(a.stderr, "Run 'promptgen help' for usage.")
	return exitUsage
}

// usage prints the overview of promptgen and its commands to w.
func (a *app) usage(w io.Writer) {
	fmt.Fprint(w, "promptgen generates a typed Go package from prompt files.\n\nUsage:\n\n\tpromptgen <command> [arguments]\n\nCommands:\n\n")
	for _, c := range commands {
		fmt.Fprintf(w, "\t%-9s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nRun 'promptgen help <command>' for a command's flags.\n")
}

// help implements "promptgen help [command]".
func (a *app) help(args []string) int {
	switch len(args) {
	case 0:
		a.usage(a.stdout)
		return exitOK
	case 1:
		c, ok := lookup(args[0])
		if !ok {
			a.log.Printf("help: unknown command %q%s", args[0], suggest(args[0]))
			fmt.Fprintln(a.stderr, "Run 'promptgen help' for usage.")
			return exitUsage
		}
		a.commandHelp(a.stdout, c)
		return exitOK
	default:
		return a.usageError("help", "too many arguments")
	}
}

// commandHelp prints the synopsis, description and flags of c to w.
func (a *app) commandHelp(w io.Writer, c command) {
	fmt.Fprintf(w, "usage: %s\n\n%s\n", synopsis(c), c.doc)
	if c.flags {
		flags, _ := newFlagSet(c.name)
		flags.SetOutput(w)
		fmt.Fprint(w, "\nFlags:\n")
		flags.PrintDefaults()
	}
}

// usageError reports a bad command line for cmd and returns exitUsage.
func (a *app) usageError(cmd, format string, args ...any) int {
	a.log.Printf(cmd+": "+format, args...)
	if c, ok := lookup(cmd); ok {
		fmt.Fprintf(a.stderr, "usage: %s\nRun 'promptgen help %s' for details.\n", synopsis(c), cmd)
	}
	return exitUsage
}

func synopsis(c command) string {
	return strings.TrimSpace("promptgen " + c.name + " " + c.synopsis)
}

func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// genFlags are the flags of generate and diff.
type genFlags struct {
	in, out, pkg, renderer string
	strict, verbose        bool
}

func newFlagSet(name string) (*flag.FlagSet, *genFlags) {
	f := &genFlags{}
	flags := flag.NewFlagSet(name, flag.ContinueOnError)
	flags.StringVar(&f.in, "in", "prompts", "read prompt files from `dir`")
	flags.StringVar(&f.out, "out", "generated", "write the Go package to `dir`")
	flags.StringVar(&f.pkg, "pkg", "", "package `name` (default: the base name of -out)")
	flags.StringVar(&f.renderer, "renderer", string(gen.RendererGo), "`backend` of the generated renderers: go or text/template")
	flags.BoolVar(&f.strict, "strict", false, "require every prompt to declare its inputs")
	flags.BoolVar(&f.verbose, "v", false, "report what was done")
	return flags, f
}

// parseGenFlags parses the flags of generate or diff. When ok is false the
// command stops with exit code code: exitOK after -h, exitUsage on a bad
// command line (already reported).
func (a *app) parseGenFlags(name string, args []string) (cfg gen.Config, verbose bool, code int, ok bool) {
	flags, f := newFlagSet(name)
	flags.SetOutput(io.Discard)
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			c, _ := lookup(name)
			a.commandHelp(a.stderr, c)
			return cfg, false, exitOK, false
		}
		return cfg, false, a.usageError(name, "%v", err), false
	}
	switch {
	case flags.NArg() > 0:
		return cfg, false, a.usageError(name, "unexpected argument %q", flags.Arg(0)), false
	case f.in == "":
		return cfg, false, a.usageError(name, "-in must not be empty"), false
	case f.out == "":
		return cfg, false, a.usageError(name, "-out must not be empty"), false
	case f.pkg != "" && (!token.IsIdentifier(f.pkg) || f.pkg == "_"):
		return cfg, false, a.usageError(name, "invalid -pkg %q: not a Go package name", f.pkg), false
	}
	r := gen.Renderer(f.renderer)
	if r != gen.RendererGo && r != gen.RendererTextTemplate {
		return cfg, false, a.usageError(name, "invalid -renderer %q (want %s or %s)", f.renderer, gen.RendererGo, gen.RendererTextTemplate), false
	}
	cfg = gen.Config{Dir: f.in, Out: f.out, Pkg: f.pkg, Renderer: r, Strict: f.strict, Version: releaseVersion()}
	return cfg, f.verbose, exitOK, true
}

// runGenerate implements generate and diff.
func (a *app) runGenerate(ctx context.Context, name string, args []string) int {
	cfg, verbose, code, ok := a.parseGenFlags(name, args)
	if !ok {
		return code
	}
	// A run is short and most of what it allocates is soon garbage: a
	// heap goal of 5 times the live heap, not 2, cuts the collector's
	// share of its time (issue 28), unless the user set GOGC.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if name == "diff" {
		return a.diff(ctx, cfg, verbose)
	}
	b := a.build(ctx, cfg)
	if b.report == nil {
		return exitFail
	}
	switch {
	case verbose && b.upToDate:
		a.log.Printf("%s is up to date (nothing in %s, the flags or promptgen changed)", a.userPath(cfg.Out), a.userPath(cfg.Dir))
	case verbose:
		a.logReport(cfg.Out, b.report)
	}
	return exitOK
}

// buildResult says how one generate went.
type buildResult struct {
	report *writeReport // nil when nothing was written: errors, or a failed write
	errors int          // the diagnostics with errors
	// upToDate: the stamp showed the inputs and outputs unchanged since a
	// generate, which did not run again.
	upToDate bool
}

// build is one generate: it finishes what an interrupted write left in
// cfg.Out, generates, prints the diagnostics, and writes the changed files
// as one transaction, unless there is an error or ctx is done.
func (a *app) build(ctx context.Context, cfg gen.Config) buildResult {
	// Whatever this run does, the output directory must not stay half
	// written by an earlier one.
	r, err := repairOut(cfg.Out)
	if msg := r.String(); msg != "" {
		a.log.Printf("%s: %s", cfg.Out, msg)
	}
	if err != nil {
		a.log.Printf("write: %v", err)
		return buildResult{}
	}
	var st stamp
	if a.stamps {
		st = newStamp(cfg)
	}
	if warns, ok := st.upToDate(cfg.Out); ok {
		a.printDiagnostics(warns)
		return buildResult{report: &writeReport{}, upToDate: true}
	}
	res, errs := a.generateChecked(ctx, cfg)
	if res == nil || ctx.Err() != nil {
		return buildResult{errors: errs}
	}
	report, err := writeFiles(cfg.Out, res.Files)
	if err != nil {
		a.log.Printf("write: %v", err)
		return buildResult{}
	}
	st.record(cfg.Out, res.Diagnostics)
	return buildResult{report: report}
}

// generateChecked generates and prints the diagnostics. It returns the
// result, or nil and the number of errors (0 for an error without
// diagnostics, which it logs).
func (a *app) generateChecked(ctx context.Context, cfg gen.Config) (*gen.Result, int) {
	res, err := a.generate(ctx, cfg)
	var diags gen.Diagnostics
	if res != nil {
		diags = res.Diagnostics
	}
	var errDiags gen.Diagnostics
	isDiags := errors.As(err, &errDiags)
	if len(diags) == 0 && isDiags {
		diags = errDiags
	}
	a.printDiagnostics(diags)
	if err != nil || diags.HasErrors() || res == nil {
		if err != nil && !isDiags {
			a.log.Print(err)
		}
		if err == nil && res == nil {
			a.log.Print("internal error: no result")
		}
		n := 0
		for _, d := range diags {
			if d.Severity == gen.SeverityError {
				n++
			}
		}
		return nil, n
	}
	return res, 0
}

// diff implements diff: generate in memory and print how -out differs.
func (a *app) diff(ctx context.Context, cfg gen.Config, verbose bool) int {
	res, _ := a.generateChecked(ctx, cfg)
	if res == nil {
		return exitFail
	}
	if j, err := pending(cfg.Out); err != nil || j != nil {
		if err == nil {
			err = fmt.Errorf("%s holds the unfinished write of an interrupted generate (run promptgen generate to finish it)", cfg.Out)
		}
		a.log.Printf("diff: %v", err)
		return exitFail
	}
	differ, err := diffFiles(cfg.Out, res.Files, a.stdout)
	if err != nil {
		a.log.Printf("diff: %v", err)
		return exitFail
	}
	if differ {
		return exitFail
	}
	if verbose {
		a.log.Printf("%s is up to date", cfg.Out)
	}
	return exitOK
}

// printDiagnostics prints one line per diagnostic to stderr. Diagnostics
// without a file get the log prefix, like other errors without a position.
func (a *app) printDiagnostics(ds gen.Diagnostics) {
	for _, d := range ds {
		d.Pos.File = a.userPath(d.Pos.File)
		if d.Pos.File == "" {
			a.log.Print(d.String())
		} else {
			fmt.Fprintln(a.stderr, d.String())
		}
	}
}

func (a *app) logReport(out string, r *writeReport) {
	for _, name := range r.Removed {
		a.log.Printf("removed stale %s", a.userPath(filepath.Join(out, name)))
	}
	msg := fmt.Sprintf("wrote %d %s to %s", len(r.Written), plural(len(r.Written), "file"), a.userPath(out))
	if n := len(r.Unchanged); n > 0 {
		msg += fmt.Sprintf(" (%d unchanged)", n)
	}
	a.log.Print(msg)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// versionLine returns "promptgen <module version> <go version>".
func versionLine() string {
	version, goVersion := "(devel)", runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		if bi.GoVersion != "" {
			goVersion = bi.GoVersion
		}
	}
	return fmt.Sprintf("promptgen %s %s", version, goVersion)
}

// release matches a released module version, not a pseudo-version or a
// build from a work tree.
var release = regexp.MustCompile(`^v\d+\.\d+\.\d+(-(alpha|beta|rc)(\.\d+)?)?$`)

// releaseVersion returns the module version of this binary when it is a
// release (installed with go install ...@v1.2.3), else "": generated
// headers name only released versions, so that a build from a checkout
// (go run, tests) generates the same bytes whatever the commit.
func releaseVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && release.MatchString(bi.Main.Version) {
		return bi.Main.Version
	}
	return ""
}

// suggest returns ` (did you mean "x"?)` for the command closest to name,
// or "" when none is a likely typo or prefix of it.
func suggest(name string) string {
	best, bestDist := "", 0
	for _, c := range commands {
		d := schema.EditDistance(name, c.name)
		if strings.HasPrefix(c.name, name) && len(name) >= 2 {
			d = 1
		}
		if best == "" || d < bestDist {
			best, bestDist = c.name, d
		}
	}
	if bestDist > max(1, len(name)/3) {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}
