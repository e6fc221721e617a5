package load

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/ir"
)

// treeFS is the prompts directory as the loaders read it. A symbolic link
// is followed only when it resolves inside the tree (to a file, or to a
// directory that is not on the link's own path); ReadDir lists a link it
// follows with its target's type, and any other link with type
// fs.ModeSymlink and the reason in Info's error. Open refuses every path
// that resolves outside the tree, so a link can never bring a file from
// elsewhere into generated code.
type treeFS struct {
	dir   string            // the directory as given
	real  string            // its absolute path with links resolved; "" when that failed
	reals map[string]string // resolved paths of directories, by fs path
}

// Errors of the links treeFS does not follow.
var (
	errLinkOutside = errors.New("symbolic link to outside the prompts tree")
	errLinkBroken  = errors.New("broken symbolic link (its target does not exist)")
	errLinkLoop    = errors.New("symbolic link loop (it leads back to a directory on its own path)")
)

// FS returns the prompts directory dir as the loaders read it.
func FS(dir string) fs.FS {
	t := &treeFS{dir: dir, reals: map[string]string{}}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		t.real, _ = filepath.Abs(real)
	}
	return t
}

// resolve returns the resolved absolute path of fs path name, or an error
// when it does not exist or resolves outside the tree.
func (t *treeFS) resolve(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if r, ok := t.reals[name]; ok {
		return r, nil
	}
	full := filepath.Join(t.dir, filepath.FromSlash(name))
	if t.real == "" { // the directory itself is missing or unreadable: let os say why
		_, err := os.Stat(full)
		if err == nil {
			err = fs.ErrNotExist
		}
		return "", &fs.PathError{Op: op, Path: name, Err: underlying(err)}
	}
	real, err := filepath.EvalSymlinks(full)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		if _, serr := os.Lstat(full); serr != nil {
			err = serr // a missing file, not a link problem
		} else if _, serr := os.Stat(full); errors.Is(serr, fs.ErrNotExist) {
			err = errLinkBroken
		} else if serr != nil {
			err = serr // such as "too many levels of symbolic links"
		}
		return "", &fs.PathError{Op: op, Path: name, Err: underlying(err)}
	}
	if !inside(t.real, real) {
		return "", &fs.PathError{Op: op, Path: name, Err: errLinkOutside}
	}
	return real, nil
}

// underlying drops the *PathError wrapper of an os error, whose path is
// the OS path rather than the fs path.
func underlying(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// inside reports whether path p is dir or below it; both are clean and
// absolute.
func inside(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func (t *treeFS) Open(name string) (fs.File, error) {
	real, err := t.resolve("open", name)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(real)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: underlying(err)}
	}
	return f, nil
}

func (t *treeFS) Stat(name string) (fs.FileInfo, error) {
	real, err := t.resolve("stat", name)
	if err != nil {
		return nil, err
	}
	info, err := os.Stat(real)
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: underlying(err)}
	}
	return info, nil
}

func (t *treeFS) ReadDir(name string) ([]fs.DirEntry, error) {
	real, err := t.resolve("readdir", name)
	if err != nil {
		return nil, err
	}
	t.reals[name] = real
	entries, err := os.ReadDir(real)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: underlying(err)}
	}
	for i, e := range entries {
		if e.Type()&fs.ModeSymlink != 0 {
			entries[i] = t.link(name, e.Name())
		}
	}
	return entries, nil
}

// link returns the entry for the symbolic link named name in directory dir.
func (t *treeFS) link(dir, name string) fs.DirEntry {
	p := path.Join(dir, name)
	real, err := t.resolve("open", p)
	if err != nil {
		return &linkEntry{name: name, err: underlying(err)}
	}
	info, err := os.Stat(real)
	if err != nil {
		return &linkEntry{name: name, err: underlying(err)}
	}
	if info.IsDir() {
		// Walking a directory that holds the link, or that one of the
		// directories on the link's path was reached from, never ends.
		for q := dir; ; q = path.Dir(q) {
			r, err := t.resolve("open", q)
			if err == nil && inside(real, r) {
				return &linkEntry{name: name, err: errLinkLoop}
			}
			if q == "." {
				break
			}
		}
	}
	return &linkEntry{name: name, info: info}
}

// linkEntry is the directory entry of a symbolic link: its target's type
// under the link's name, or, when the link is not followed, fs.ModeSymlink
// and the reason.
type linkEntry struct {
	name string
	info fs.FileInfo // the target's; nil when err is set
	err  error
}

func (e *linkEntry) Name() string { return e.name }

func (e *linkEntry) IsDir() bool { return e.info != nil && e.info.IsDir() }

func (e *linkEntry) Type() fs.FileMode {
	if e.info == nil {
		return fs.ModeSymlink
	}
	return e.info.Mode().Type()
}

func (e *linkEntry) Info() (fs.FileInfo, error) {
	if e.err != nil {
		return nil, e.err
	}
	return e.info, nil
}

// badLink reports, at the link, why the entry d at fs path p is a symbolic
// link that the loaders do not follow, and whether it is one.
func (l *loader) badLink(p string, d fs.DirEntry) bool {
	if d.Type()&fs.ModeSymlink == 0 {
		return false
	}
	_, err := d.Info()
	if err == nil { // another fs.FS, which lists links without following them
		err = errors.New("symbolic link (not followed)")
	}
	l.diags.Errorf(ir.Pos{File: l.path(p)}, "%v", err)
	return true
}
