package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen"
	"github.com/promptgen/promptgen/runtime/snapshot"
)

var testCommand = command{
	name:     "test",
	synopsis: "[-in dir] [-dir dir] [-update] [-v] [PROMPT...]",
	summary:  "check the text prompts render against their snapshots",
	doc: `Test renders every snapshot case in -dir and compares the text with its
snapshot, byte for byte. The layout (package runtime/snapshot):

	<dir>/<prompt key>/<name>.json       a feed, as JSON
	<dir>/<prompt key>/<name>.want.txt   the text the prompt renders for it

where a template of a template set is under the set's key and the template's
path (agent/main/BrowseLink.enterprise). A snapshot that differs is printed
as a unified diff to stdout (git apply takes it); a failed render, a feed
without a snapshot, a snapshot without a feed and a directory that names no
prompt are errors. Test exits with status 1 if any case fails.

With -update, test writes the snapshots that differ or are missing instead,
and deletes those without a feed: review the change with git diff. PROMPT
arguments (keys, or directories of keys such as support) limit the cases.

Prompts render as promptgen render renders them, which is what the generated
code renders; in go test, runtime/snapshot.Test checks the same files with
the generated code itself. Messages prompts have no single text and are not
supported.`,
}

// runTest implements "promptgen test".
func (a *app) runTest(args []string) int {
	flags := flag.NewFlagSet("test", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	in := flags.String("in", "prompts", "read prompt files from `dir`")
	dir := flags.String("dir", "generated/testdata", "read the snapshots from `dir`")
	update := flags.Bool("update", false, "write the snapshots that differ or are missing, delete those without a feed")
	verbose := flags.Bool("v", false, "report every snapshot written or checked")
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			a.commandHelp(a.stderr, testCommand)
			return exitOK
		}
		return a.usageError("test", "%v", err)
	}
	cases, orphans, err := snapshot.Find(*dir)
	if err != nil {
		a.log.Printf("test: %v", err)
		return exitFail
	}
	keys := flags.Args()
	for _, k := range keys {
		if !slices.ContainsFunc(cases, func(c snapshot.Case) bool { return selects(k, c.Key) }) {
			a.log.Printf("test: no snapshots of %q in %s", k, *dir)
			return exitFail
		}
	}
	selected := func(key string) bool {
		return len(keys) == 0 || slices.ContainsFunc(keys, func(k string) bool { return selects(k, key) })
	}

	t := &snapshotRun{app: a, cfg: gen.Config{Dir: *in}, update: *update, verbose: *verbose,
		prompts: map[string]*snapshotPrompt{}, sets: map[string]*gen.SetPreview{}}
	checked := 0
	for _, c := range cases {
		if selected(c.Key) {
			t.check(c)
			checked++
		}
	}
	for _, o := range orphans {
		if rel, err := filepath.Rel(*dir, filepath.Dir(o)); err != nil || !selected(filepath.ToSlash(rel)) {
			continue
		}
		if *update {
			if err := os.Remove(o); err != nil {
				a.log.Printf("test: %v", err)
				t.failed++
			} else if *verbose {
				a.log.Printf("test: deleted %s: it has no feed", o)
			}
			continue
		}
		a.log.Printf("test: %s has no feed beside it (delete it, or run promptgen test -update)", o)
		t.failed++
	}
	switch {
	case t.failed > 0:
		a.log.Printf("test: %d of %d %s failed", t.failed, checked, plural(checked, "snapshot"))
		return exitFail
	case *verbose && *update:
		a.log.Printf("test: wrote %d of %d %s", t.written, checked, plural(checked, "snapshot"))
	case *verbose:
		a.log.Printf("test: %d %s match", checked, plural(checked, "snapshot"))
	}
	return exitOK
}

// selects reports whether the PROMPT argument arg selects the cases of key.
func selects(arg, key string) bool {
	arg = strings.Trim(path.Clean("/"+filepath.ToSlash(arg)), "/")
	return arg == "" || key == arg || strings.HasPrefix(key, arg+"/")
}

// snapshotRun is the state of one promptgen test.
type snapshotRun struct {
	*app
	cfg             gen.Config
	update, verbose bool
	prompts         map[string]*snapshotPrompt // by case key
	sets            map[string]*gen.SetPreview // by set key; nil after an error
	failed, written int
}

// snapshotPrompt is a loaded prompt or set template, ready to render a
// feed; nil render after an error.
type snapshotPrompt struct {
	feed   reflect.Type
	render func(feed any) ([]byte, error)
	set    *gen.SetPreview // the set of a set template, for predefined variables
	// chat is the chat template's (inputs: chat), whose feeds may hold keys
	// the template does not read.
	chat gen.ChatPreview
}

// prompt loads the prompt or set template of key once, printing its
// diagnostics and errors.
func (t *snapshotRun) prompt(key string) *snapshotPrompt {
	if p, ok := t.prompts[key]; ok {
		return p
	}
	p := &snapshotPrompt{}
	t.prompts[key] = p
	if set, rest := gen.SetOf(t.cfg, key); set != "" {
		sp, ok := t.sets[set]
		if !ok {
			var diags gen.Diagnostics
			var err error
			sp, diags, err = gen.LoadSetPreview(t.cfg, set)
			t.printDiagnostics(diags)
			if err != nil && !diags.HasErrors() { // else err is diags
				t.log.Printf("test: %v", err)
			}
			t.sets[set] = sp
		}
		if sp == nil {
			return p
		}
		id := slices.Index(sp.Paths, rest)
		if id < 0 {
			t.log.Printf("test: %s: the set %q has no template %q (it has %s)", path.Join(t.cfg.Dir, set), set, rest, strings.Join(sp.Paths, ", "))
			return p
		}
		_, version, _ := strings.Cut(path.Base(rest), ".")
		p.feed, p.set, p.chat = sp.Feed, sp, sp.ChatPreview
		p.render = func(feed any) ([]byte, error) { return renderSetTemplate(sp, id, version, feed) }
		return p
	}
	pv, diags, err := gen.LoadPreview(t.cfg, key)
	t.printDiagnostics(diags)
	if err != nil {
		if !diags.HasErrors() { // else err is diags
			t.log.Printf("test: %v", err)
		}
		return p
	}
	p.feed, p.chat = pv.Feed, pv.ChatPreview
	p.render = func(feed any) ([]byte, error) {
		r, err := renderPreview(pv, feed, nil)
		return r.out, err
	}
	return p
}

// check renders case c and compares the text with its snapshot, or
// writes it with -update.
func (t *snapshotRun) check(c snapshot.Case) {
	p := t.prompt(c.Key)
	if p.render == nil {
		t.failed++
		return
	}
	src, err := c.ReadFeed()
	if err != nil {
		t.log.Printf("test: %v", err)
		t.failed++
		return
	}
	feed, err := decodeFeed(src, p.feed, p.chat.Chat)
	if err != nil {
		t.log.Printf("test: %s: %v", c.FeedFile(), err)
		t.failed++
		return
	}
	// A set template's <name>@<N> renders with the predefined variables N.
	if _, predefined, ok := strings.Cut(c.Name, "@"); ok && p.set != nil && !t.predefine(p.set, predefined, feed) {
		t.failed++
		return
	}
	err = chatReady(feed, p.chat)
	var out []byte
	if err == nil {
		out, err = p.render(feed.Interface())
	}
	if err != nil {
		t.log.Printf("test: %s: %v", c.FeedFile(), err)
		t.failed++
		return
	}
	if t.update {
		wrote, err := c.Update(string(out))
		switch {
		case err != nil:
			t.log.Printf("test: %v", err)
			t.failed++
		case wrote:
			t.written++
			if t.verbose {
				t.log.Printf("test: wrote %s", c.WantFile())
			}
		}
		return
	}
	diff, err := c.Compare(string(out))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		t.log.Printf("test: %s has no snapshot (run promptgen test -update to write it)", c.FeedFile())
	case err != nil:
		t.log.Printf("test: %v", err)
	case diff != "":
		fmt.Fprint(t.stdout, diff)
	default:
		return
	}
	t.failed++
}
