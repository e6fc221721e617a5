package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/promptgen/promptgen/gen"
	"github.com/promptgen/promptgen/internal/nolink"
)

// debounce is how long watch waits after the last change before it
// rebuilds: an editor's save (write, rename, chmod) or a checkout is a
// burst of events that should make one rebuild.
const debounce = 100 * time.Millisecond

var watchCommand = command{
	name:     "watch",
	synopsis: "[-in dir] [-out dir] [-pkg name] [-renderer go|text/template] [-strict] [-v]",
	summary:  "generate, then regenerate on every change under -in",
	doc: `Watch generates as generate does, then watches -in (every directory below it,
new ones included) and generates again after each change, once the changes
stop for 100ms. Each run prints its diagnostics and a one-line summary: the
files written and removed, or the number of errors (-out is then left as it
was). Only changed files are written, as one transaction, so -out never holds
half a package. Interrupt (Ctrl-C) ends watch with status 0.`,
	flags: true,
}

// runWatch implements "promptgen watch".
func (a *app) runWatch(ctx context.Context, args []string) int {
	cfg, verbose, code, ok := a.parseGenFlags("watch", args)
	if !ok {
		return code
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	var changed []string // none for the first build
	for {
		if err := a.watch(ctx, cfg, verbose, changed); err != nil {
			a.log.Printf("watch: %v", err)
			return exitFail
		}
		if ctx.Err() != nil {
			return exitOK
		}
		// -in was removed or moved away (a branch switch does both), and
		// perhaps put back already: its watch is gone.
		if _, err := nolink.Lstat(cfg.Dir, "."); errors.Is(err, fs.ErrNotExist) {
			a.log.Printf("%s is gone; waiting for it to come back (%s left as it was)", cfg.Dir, cfg.Out)
			if !waitForDir(ctx, cfg.Dir) {
				return exitOK
			}
		}
		changed = []string{filepath.ToSlash(cfg.Dir)}
	}
}

// watch watches -in and generates, first and then after each burst of
// changes, until ctx is done (it returns nil) or -in itself is removed or
// moved (nil too: the caller waits for it and calls watch again).
// changedBefore names what its first build is for: nil when watch starts,
// and then a missing -in is an error (later it is gone again: nil). An -in
// that is not a directory, or is a symbolic link, is always an error.
func (a *app) watch(ctx context.Context, cfg gen.Config, verbose bool, changedBefore []string) error {
	first := changedBefore == nil
	if info, err := nolink.Lstat(cfg.Dir, "."); err != nil {
		if !first && errors.Is(err, fs.ErrNotExist) {
			return nil // gone again
		}
		return err
	} else if !info.IsDir() {
		return fmt.Errorf("%s: not a directory", cfg.Dir)
	}
	root := filepath.Clean(cfg.Dir)
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	// Watch before the first build, so that no change after it is missed.
	if err := watchTree(w, root); err != nil {
		if !first && errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	a.rebuild(ctx, cfg, verbose, changedBefore)

	changed := map[string]bool{} // display paths since the last build
	rootGone := false            // -in was removed or moved: its watch is gone
	timer := time.NewTimer(debounce)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-w.Errors:
			a.log.Printf("watch: %v", err)
		case ev := <-w.Events:
			if ev.Op == fsnotify.Chmod || ignoredChange(ev.Name) {
				continue
			}
			if filepath.Clean(ev.Name) == root && ev.Has(fsnotify.Remove|fsnotify.Rename) {
				rootGone = true
			}
			if ev.Has(fsnotify.Create) {
				if info, err := os.Lstat(ev.Name); err == nil && info.IsDir() {
					if err := watchTree(w, ev.Name); err != nil {
						a.log.Printf("watch: %v", err)
					}
				}
			}
			if rel, err := filepath.Rel(root, ev.Name); err == nil {
				changed[filepath.ToSlash(filepath.Join(cfg.Dir, rel))] = true
			}
			timer.Reset(debounce)
		case <-timer.C:
			if rootGone {
				return nil
			}
			paths := slices.Sorted(maps.Keys(changed))
			clear(changed)
			a.rebuild(ctx, cfg, verbose, paths)
		}
	}
}

// pollGone is how often watch looks for -in while it is gone: its parent
// may be gone too, so there may be nothing to watch.
const pollGone = 200 * time.Millisecond

// waitForDir waits until dir exists again, and reports whether it does
// (false when ctx is done first).
func waitForDir(ctx context.Context, dir string) bool {
	tick := time.NewTicker(pollGone)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
			if _, err := nolink.Lstat(dir, "."); !errors.Is(err, fs.ErrNotExist) {
				return true
			}
		}
	}
}

// watchTree watches dir and every directory below it, skipping hidden
// ones as the prompts tree does.
func watchTree(w *fsnotify.Watcher, dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case !d.IsDir():
			return nil
		case p != dir && strings.HasPrefix(d.Name(), "."):
			return fs.SkipDir
		}
		return w.Add(p)
	})
}

// ignoredChange reports whether a change to path cannot change the
// package: hidden files (editor swap files, .git) and backups.
func ignoredChange(path string) bool {
	base := filepath.Base(path)
	return strings.HasPrefix(base, ".") || strings.HasSuffix(base, "~") ||
		strings.HasSuffix(base, ".orig") || strings.HasSuffix(base, ".bak")
}

// rebuild generates once and prints its summary line, naming the changed
// paths that caused it (none for the first build).
func (a *app) rebuild(ctx context.Context, cfg gen.Config, verbose bool, changed []string) {
	b := a.build(ctx, cfg)
	if ctx.Err() != nil {
		return
	}
	var msg string
	switch {
	case b.report == nil && b.errors > 0:
		msg = fmt.Sprintf("%d %s; %s left as it was", b.errors, plural(b.errors, "error"), cfg.Out)
	case b.report == nil:
		msg = fmt.Sprintf("failed; %s left as it was", cfg.Out)
	default:
		if verbose {
			for _, name := range b.report.Removed {
				a.log.Printf("removed stale %s", filepath.ToSlash(filepath.Join(cfg.Out, name)))
			}
		}
		msg = summary(cfg.Out, b.report)
	}
	switch len(changed) {
	case 0:
	case 1:
		msg = changed[0] + " changed: " + msg
	default:
		n := len(changed) - 1
		msg = fmt.Sprintf("%s and %d other %s changed: %s", changed[0], n, plural(n, "file"), msg)
	}
	a.log.Print(msg)
}

// summary describes a write in one line: "wrote 1 file to out (2
// unchanged)", "removed 1 stale file from out", "out is up to date".
func summary(out string, r *writeReport) string {
	written, removed := len(r.Written), len(r.Removed)
	var msg string
	switch {
	case written > 0:
		msg = fmt.Sprintf("wrote %d %s to %s", written, plural(written, "file"), out)
		if removed > 0 {
			msg += fmt.Sprintf(", removed %d stale %s", removed, plural(removed, "file"))
		}
	case removed > 0:
		msg = fmt.Sprintf("removed %d stale %s from %s", removed, plural(removed, "file"), out)
	default:
		return fmt.Sprintf("%s is up to date (%d %s)", out, len(r.Unchanged), plural(len(r.Unchanged), "file"))
	}
	if n := len(r.Unchanged); n > 0 {
		msg += fmt.Sprintf(" (%d unchanged)", n)
	}
	return msg
}
