// Package nolink reads and writes files without going through symbolic
// links. promptgen works in directories that hold files from others (the
// prompts, snapshots and generated code of a pull request): a link there
// could make it read a file from anywhere into its output (generated code,
// a diff, a CI log) or overwrite one. So every path it opens is checked
// here, and a link is refused wherever it is:
//
//   - the root, the directory or file a flag names: every element of a
//     relative root (they are in the working directory: the checkout), and
//     an absolute root itself (the directories above it are the machine's,
//     such as /tmp on macOS);
//   - every directory below the root on the way to the file, and the file.
//
// The file is opened with O_NOFOLLOW where the system has it, so that a
// link put there after the check is refused too; a directory swapped for a
// link between the check and the open is not (races are out of scope).
//
// The package depends on the standard library only: runtime/snapshot,
// which users' tests import, uses it, as do gen/internal/load and
// cmd/promptgen. It sits in the module's internal directory, the one place
// all three may import and users may not.
package nolink

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ErrLink is the error of a path that is, or passes through, a symbolic
// link; the error returned names the link.
var ErrLink = errors.New("symbolic link (promptgen follows no links)")

// linkError is the error for the symbolic link at path p.
func linkError(p string) error { return fmt.Errorf("%s: %w", p, ErrLink) }

// Lstat returns the FileInfo of name, a slash-separated path below root
// ("." for root itself), after checking root and every element of name:
// none may be a symbolic link. A missing element is the os error.
func Lstat(root, name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrInvalid}
	}
	var info fs.FileInfo
	for _, p := range checked(root, name) {
		var err error
		if info, err = os.Lstat(p); err != nil {
			return nil, err
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return nil, linkError(p)
		}
	}
	return info, nil
}

// checked returns the paths that Lstat checks, in order: each element of
// a relative root or an absolute root itself, then each element of name.
func checked(root, name string) []string {
	root = filepath.Clean(root)
	var paths []string
	if filepath.IsAbs(root) {
		paths = append(paths, root)
	} else {
		p := ""
		for _, elem := range strings.Split(filepath.ToSlash(root), "/") {
			p = filepath.Join(p, elem)
			paths = append(paths, p)
		}
	}
	if name == "." {
		return paths
	}
	p := root
	for _, elem := range strings.Split(name, "/") {
		p = filepath.Join(p, elem)
		paths = append(paths, p)
	}
	return paths
}

// Open opens name below root for reading, refusing links as Lstat does.
func Open(root, name string) (*os.File, error) {
	if _, err := Lstat(root, name); err != nil {
		return nil, err
	}
	return os.OpenFile(filepath.Join(root, filepath.FromSlash(name)), os.O_RDONLY|noFollow, 0)
}

// ReadFile returns the content of name below root, refusing links as Lstat
// does.
func ReadFile(root, name string) ([]byte, error) {
	f, err := Open(root, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// ReadDir returns the entries of directory name below root, sorted by
// name, refusing links as Lstat does. A link in the directory is listed,
// with type fs.ModeSymlink, not followed.
func ReadDir(root, name string) ([]fs.DirEntry, error) {
	f, err := Open(root, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// WriteFile writes data to name below root, creating it with perm if
// needed, refusing links as Lstat does: a link at name is not replaced,
// and nothing is written through it.
func WriteFile(root, name string, data []byte, perm fs.FileMode) error {
	if _, err := Lstat(root, name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := os.OpenFile(filepath.Join(root, filepath.FromSlash(name)), os.O_WRONLY|os.O_CREATE|os.O_TRUNC|noFollow, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// MkdirAll makes directory dir and the missing ones above it, as
// os.MkdirAll does, after checking dir as a root: an element that exists
// may not be a link.
func MkdirAll(dir string, perm fs.FileMode) error {
	info, err := Lstat(dir, ".")
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(dir, perm); err == nil {
			info, err = Lstat(dir, ".")
		}
	}
	if err == nil && !info.IsDir() {
		err = fmt.Errorf("%s: not a directory", dir)
	}
	return err
}

// WalkDir walks the tree at root as filepath.WalkDir does, after checking
// root; a symbolic link in it is never followed, and is passed to fn as an
// error naming it (with its entry).
func WalkDir(root string, fn fs.WalkDirFunc) error {
	if _, err := Lstat(root, "."); err != nil {
		return fn(root, nil, err)
	}
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type()&fs.ModeSymlink != 0 {
			err = linkError(p)
		}
		return fn(p, d, err)
	})
}
