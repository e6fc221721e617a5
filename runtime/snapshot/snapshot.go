// Package snapshot keeps the exact text that prompts render, so that a
// change to a prompt shows in review and in tests as a diff. A directory
// (the generated package's testdata, say) holds, for each prompt key,
// feeds and what the prompt renders for each:
//
//	<dir>/<prompt key>/<name>.json       a feed, as JSON
//	<dir>/<prompt key>/<name>.want.txt   the text rendered for it, byte for byte
//
// The key of a template of a template set is the set's key and the
// template's path: agent/main/BrowseLink.enterprise. `promptgen test`
// checks the snapshots against the prompt files (-update writes them);
// Test checks them in go test, rendering with the generated code. Both
// report a change as a unified diff from the snapshot to the new text.
//
// Symbolic links are refused, with an error naming the link: the
// directory, a directory in it or a file being one. Nothing is read or
// written through a link, so a link committed among the snapshots cannot
// show a file from elsewhere in a diff or have -update overwrite it.
//
// The package depends on the standard library, runtime and the module's
// internal/nolink (standard library only).
package snapshot

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/internal/nolink"
)

// The suffixes of a feed file and of its snapshot.
const (
	FeedSuffix = ".json"
	WantSuffix = ".want.txt"
)

// Case is one snapshot: a feed and the text expected for it.
type Case struct {
	Dir  string // the snapshot directory
	Key  string // the prompt key: the case's directory below Dir, slash-separated
	Name string // the feed's file name without FeedSuffix
}

// String is the case's key and name: support/draft_reply/refund.
func (c Case) String() string { return path.Join(c.Key, c.Name) }

// FeedFile is the path of the case's feed.
func (c Case) FeedFile() string {
	return filepath.Join(c.Dir, filepath.FromSlash(c.Key), c.Name+FeedSuffix)
}

// WantFile is the path of the case's snapshot.
func (c Case) WantFile() string {
	return filepath.Join(c.Dir, filepath.FromSlash(c.Key), c.Name+WantSuffix)
}

// file is the slash path below Dir of the case's file with suffix.
func (c Case) file(suffix string) string { return path.Join(c.Key, c.Name+suffix) }

// ReadFeed returns the content of the case's feed.
func (c Case) ReadFeed() ([]byte, error) { return nolink.ReadFile(c.Dir, c.file(FeedSuffix)) }

// Find returns the cases in dir, sorted by key and name, and the snapshot
// files that have no feed beside them (left by a feed deleted or renamed).
// Files directly in dir belong to no prompt and are skipped, and so are
// hidden files and directories. A symbolic link is an error.
func Find(dir string) (cases []Case, orphans []string, err error) {
	err = nolink.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case p != dir && d != nil && strings.HasPrefix(d.Name(), "."):
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		case err != nil:
			return err
		case d.IsDir() || filepath.Dir(p) == filepath.Clean(dir):
			return nil
		}
		rel, err := filepath.Rel(dir, filepath.Dir(p))
		if err != nil {
			return err
		}
		if name, ok := strings.CutSuffix(d.Name(), FeedSuffix); ok {
			cases = append(cases, Case{Dir: dir, Key: filepath.ToSlash(rel), Name: name})
			return nil
		}
		if !strings.HasSuffix(d.Name(), WantSuffix) {
			return nil
		}
		feed := path.Join(filepath.ToSlash(rel), strings.TrimSuffix(d.Name(), WantSuffix)+FeedSuffix)
		switch _, err := nolink.Lstat(dir, feed); {
		case errors.Is(err, fs.ErrNotExist):
			orphans = append(orphans, p)
		case err != nil:
			return err
		}
		return nil
	})
	slices.SortFunc(cases, func(a, b Case) int {
		if c := strings.Compare(a.Key, b.Key); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return cases, orphans, err
}

// Compare compares got with the case's snapshot. It returns "" when they
// are equal and otherwise a unified diff from the snapshot to got, labelled
// a/ and b/ with the snapshot's path (so that git apply takes it). A
// missing snapshot is an error satisfying errors.Is(err, fs.ErrNotExist).
func (c Case) Compare(got string) (string, error) {
	want, err := nolink.ReadFile(c.Dir, c.file(WantSuffix))
	if err != nil {
		return "", err
	}
	label := strings.TrimLeft(path.Clean(filepath.ToSlash(c.WantFile())), "/")
	return Diff("a/"+label, "b/"+label, string(want), got), nil
}

// Update writes got as the case's snapshot unless it holds got already,
// and reports whether it wrote.
func (c Case) Update(got string) (bool, error) {
	if old, err := nolink.ReadFile(c.Dir, c.file(WantSuffix)); err == nil && string(old) == got {
		return false, nil
	}
	return true, nolink.WriteFile(c.Dir, c.file(WantSuffix), []byte(got), 0o666)
}
