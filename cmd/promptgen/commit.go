package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/promptgen/promptgen/internal/nolink"
	"github.com/promptgen/promptgen/internal/par"
)

// A write to the output directory is a small transaction, so that a run
// killed at any point leaves a state the next run completes:
//
//  1. Stage: write the new content of every changed file to
//     .promptgen-staging/new/S/NAME, link every replaced one as old/S/NAME
//     (or copy it), and last a journal naming the files to replace, those
//     that are created, and the stale files to delete. The files are
//     spread over the subdirectories S, one per CPU, and written at the
//     same time: a file system creates the files of one directory one at
//     a time.
//  2. Commit: rename .promptgen-staging to .promptgen-commit (atomic).
//  3. Apply: rename each new/S/NAME into place, then delete the stale files.
//     If a rename fails, create the file "rollback" and move the old/
//     files back (deleting created files) instead.
//  4. Delete the journal, then the directory.
//
// repairOut, which every generate runs first, deletes a staging directory
// (the output directory was never touched) and finishes a commit directory
// that holds a journal: forward, or back when "rollback" exists. Both
// directions skip what is done, so a repair can itself be interrupted.
// Go ignores directories whose name starts with ".", so a leftover never
// reaches the build.
const (
	stagingDir   = ".promptgen-staging"
	commitDir    = ".promptgen-commit"
	journalFile  = "journal.json"
	rollbackFile = "rollback"
)

// journal lists the changes of one write, by file name in the output
// directory.
type journal struct {
	Write   []string `json:"write"`   // files in new/ to rename into place
	Created []string `json:"created"` // those of Write that did not exist; the rest are in old/ too
	Remove  []string `json:"remove"`  // stale generated files to delete
	// Shards is the number of subdirectories of new/ and old/ that the
	// files of Write are spread over: Write[i] is in new/S and old/S for
	// S = i % Shards. 0 (journals before them) puts them in new/ and old/.
	Shards int `json:"shards,omitempty"`
}

// staged returns the path, in the staging or commit directory dir, of the
// new or old content (side "new" or "old") of j.Write[i].
func (j *journal) staged(dir, side string, i int) string {
	if j.Shards == 0 {
		return filepath.Join(dir, side, j.Write[i])
	}
	return filepath.Join(dir, side, strconv.Itoa(i%j.Shards), j.Write[i])
}

// afterChange runs after each change to the disk a write makes; tests
// replace it to stop the process at that point, as a crash would. noteChange
// calls it, one call at a time: the staged files are written at the same
// time.
var afterChange = func() {}

var changeMu sync.Mutex

// noteChange calls afterChange after a change to the disk.
func noteChange() {
	changeMu.Lock()
	defer changeMu.Unlock()
	afterChange()
}

// stage writes the staging directory for changed (targets whose content
// changes) and stale, and commits it: from then on the next run completes
// the write. It returns the journal. On an error it removes what it
// staged: the commit is its last step.
func stage(outDir string, changed []*target, stale []string) (_ *journal, err error) {
	dir := filepath.Join(outDir, stagingDir)
	if err := os.Mkdir(dir, 0o777); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	j := journal{Write: []string{}, Created: []string{}, Remove: stale, Shards: min(runtime.GOMAXPROCS(0), len(changed))}
	if j.Remove == nil {
		j.Remove = []string{}
	}
	for _, t := range changed {
		j.Write = append(j.Write, t.file.Name)
		if !t.exists {
			j.Created = append(j.Created, t.file.Name)
		}
	}
	for _, side := range []string{"new", "old"} {
		if err := os.Mkdir(filepath.Join(dir, side), 0o777); err != nil {
			return nil, err
		}
		for s := range j.Shards {
			if err := os.Mkdir(filepath.Join(dir, side, strconv.Itoa(s)), 0o777); err != nil {
				return nil, err
			}
		}
	}
	errs := make([]error, len(changed))
	par.Each(len(changed), func(i int) {
		t := changed[i]
		errs[i] = writeFile(j.staged(dir, "new", i), t.file.Content, t.mode)
		if errs[i] == nil && t.exists {
			errs[i] = keepOld(t, j.staged(dir, "old", i))
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	data, err := json.MarshalIndent(j, "", "\t")
	if err != nil {
		return nil, err
	}
	if err := writeFile(filepath.Join(dir, journalFile), append(data, '\n'), 0o644); err != nil {
		return nil, err
	}
	if err := os.Rename(dir, filepath.Join(outDir, commitDir)); err != nil {
		return nil, err
	}
	noteChange()
	return &j, nil
}

// keepOld stages the old content of t as the file name: a hard link to
// t's file, which adds a name where a copy creates a file, or else (where
// the file system has no hard links) a copy.
func keepOld(t *target, name string) error {
	if err := os.Link(t.path, name); err != nil {
		return writeFile(name, t.old, t.mode)
	}
	noteChange()
	return nil
}

// writeFile writes content to a new file name with mode perm.
func writeFile(name string, content []byte, perm fs.FileMode) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(content)
	if err == nil {
		err = f.Chmod(perm) // not narrowed by the umask: the old file's mode
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	noteChange()
	return err
}

// repair says what repairOut did.
type repair struct {
	discarded  bool     // a staged, uncommitted write was deleted
	finished   *journal // a committed write was completed...
	rolledBack bool     // ...by undoing it
	leftovers  []string // temporary files of older promptgen versions, deleted
}

func (r repair) String() string {
	var parts []string
	if r.discarded {
		parts = append(parts, "deleted the files staged by an interrupted generate")
	}
	if r.finished != nil && r.rolledBack {
		parts = append(parts, "undid the interrupted write of "+countFiles(r.finished))
	} else if r.finished != nil {
		parts = append(parts, "finished the interrupted write of "+countFiles(r.finished))
	}
	if n := len(r.leftovers); n > 0 {
		parts = append(parts, fmt.Sprintf("deleted %d leftover temporary %s", n, plural(n, "file")))
	}
	return strings.Join(parts, "; ")
}

func countFiles(j *journal) string {
	n := len(j.Write) + len(j.Remove)
	return fmt.Sprintf("%d %s", n, plural(n, "file"))
}

// repairOut completes or cleans up what an interrupted write left in
// outDir (see above). A missing outDir needs nothing.
func repairOut(outDir string) (repair, error) {
	var r repair
	staging := filepath.Join(outDir, stagingDir)
	switch info, err := nolink.Lstat(outDir, stagingDir); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return r, err
	case !info.IsDir():
		return r, fmt.Errorf("%s: not a directory (promptgen's staging directory; remove it)", staging)
	default:
		if err := os.RemoveAll(staging); err != nil {
			return r, err
		}
		noteChange()
		r.discarded = true
	}
	j, err := pending(outDir)
	if err != nil {
		return r, err
	}
	if j != nil {
		r.finished = j
		r.rolledBack, err = apply(outDir, j)
		if err != nil {
			return r, err
		}
	} else if err := os.RemoveAll(filepath.Join(outDir, commitDir)); err != nil {
		return r, err // a commit directory whose write was finished
	}
	r.leftovers, err = removeLeftovers(outDir)
	return r, err
}

// pending returns the journal of the committed write in outDir that is not
// finished, or nil when there is none.
func pending(outDir string) (*journal, error) {
	dir := filepath.Join(outDir, commitDir)
	switch info, err := nolink.Lstat(outDir, commitDir); {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	case !info.IsDir():
		return nil, fmt.Errorf("%s: not a directory (promptgen's commit directory; remove it)", dir)
	}
	data, err := nolink.ReadFile(outDir, commitDir+"/"+journalFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // deleted first when the write was finished
	}
	if err != nil {
		return nil, err
	}
	j := &journal{}
	if err := json.Unmarshal(data, j); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, journalFile), err)
	}
	if j.Shards < 0 {
		return nil, fmt.Errorf("%s: invalid shards %d", filepath.Join(dir, journalFile), j.Shards)
	}
	for _, names := range [][]string{j.Write, j.Created, j.Remove} {
		for _, name := range names {
			if !validName(name) {
				return nil, fmt.Errorf("%s: invalid file name %q", filepath.Join(dir, journalFile), name)
			}
		}
	}
	return j, nil
}

// apply completes the committed write j in outDir, forward unless it was
// being undone, and reports whether it was undone. When a rename fails it
// undoes the write and returns the error; when the undo fails too, the
// commit directory stays for the next run.
func apply(outDir string, j *journal) (rolledBack bool, err error) {
	dir := filepath.Join(outDir, commitDir)
	marker := filepath.Join(dir, rollbackFile)
	_, err = os.Lstat(marker)
	rolledBack = err == nil
	var forwardErr error
	if !rolledBack {
		forwardErr = forward(outDir, dir, j)
		if forwardErr != nil {
			if err := writeFile(marker, nil, 0o644); err != nil {
				return false, fmt.Errorf("%w (and marking the write for undoing: %v; the next generate finishes it)", forwardErr, err)
			}
			rolledBack = true
		}
	}
	var removeErrs []error
	if rolledBack {
		if err := back(outDir, dir, j); err != nil {
			if forwardErr != nil {
				err = fmt.Errorf("%w (and undoing the write: %v; the next generate undoes the rest)", forwardErr, err)
			}
			return true, err
		}
	} else {
		removeErrs = removeStale(outDir, j.Remove)
	}
	if err := os.Remove(filepath.Join(dir, journalFile)); err != nil {
		return rolledBack, err
	}
	noteChange()
	if err := os.RemoveAll(dir); err != nil {
		return rolledBack, err
	}
	noteChange()
	return rolledBack, errors.Join(append([]error{forwardErr}, removeErrs...)...)
}

// forward renames the new files of j that are still in dir into place.
func forward(outDir, dir string, j *journal) error {
	for i, name := range j.Write {
		src := j.staged(dir, "new", i)
		if _, err := os.Lstat(src); errors.Is(err, fs.ErrNotExist) {
			continue // done
		}
		if err := os.Rename(src, filepath.Join(outDir, name)); err != nil {
			return err
		}
		noteChange()
	}
	return nil
}

// back undoes the renames forward made: a file whose new content was moved
// into place gets its old content back, or is deleted if it was created.
func back(outDir, dir string, j *journal) error {
	for i, name := range j.Write {
		if _, err := os.Lstat(j.staged(dir, "new", i)); err == nil {
			continue // never moved
		}
		target := filepath.Join(outDir, name)
		old := j.staged(dir, "old", i)
		var err error
		switch _, serr := os.Lstat(old); {
		case serr == nil:
			err = os.Rename(old, target)
		case slices.Contains(j.Created, name):
			err = os.Remove(target)
			if errors.Is(err, fs.ErrNotExist) {
				continue // done
			}
		default:
			continue // done
		}
		if err != nil {
			return err
		}
		noteChange()
	}
	return nil
}

// removeStale deletes the files of names in outDir that still carry
// promptgen's header.
func removeStale(outDir string, names []string) []error {
	var errs []error
	for _, name := range names {
		info, err := nolink.Lstat(outDir, name)
		if errors.Is(err, fs.ErrNotExist) {
			continue // done
		}
		if err == nil && info.Mode().IsRegular() {
			var ok bool
			if ok, err = hasHeader(outDir, name); err == nil && ok {
				if err = os.Remove(filepath.Join(outDir, name)); err == nil {
					noteChange()
				}
			}
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// removeLeftovers deletes the temporary files that promptgen versions
// before the journal left when killed (".NAME.go.tmp123"), if they carry
// its header, and returns their names.
func removeLeftovers(outDir string) ([]string, error) {
	entries, err := nolink.ReadDir(outDir, ".")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(name, ".") || !strings.Contains(name, ".go.tmp") {
			continue
		}
		if ok, err := hasHeader(outDir, name); err != nil || !ok {
			continue
		}
		if err := os.Remove(filepath.Join(outDir, name)); err != nil {
			return removed, err
		}
		noteChange()
		removed = append(removed, name)
	}
	return removed, nil
}
