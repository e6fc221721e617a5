package load

import (
	"errors"
	"io/fs"

	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/internal/nolink"
)

// treeFS is the prompts directory as the loaders read it, through package
// nolink: a symbolic link anywhere (the directory itself, a directory in
// it, a file) is an error and nothing is read through one. ReadDir lists a
// link with type fs.ModeSymlink, and the walks report it at the link
// (badLink), so no content from elsewhere reaches generated code,
// diagnostics or diff output.
type treeFS struct {
	dir string // as given
}

// FS returns the prompts directory dir as the loaders read it.
func FS(dir string) fs.FS { return treeFS{dir: dir} }

// pathError is err of op on fs path name, naming name as fs.FS errors
// do rather than the OS path.
func pathError(op, name string, err error) error {
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.Is(err, nolink.ErrLink):
		err = nolink.ErrLink
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}

func (t treeFS) Open(name string) (fs.File, error) {
	f, err := nolink.Open(t.dir, name)
	if err != nil {
		return nil, pathError("open", name, err)
	}
	return f, nil
}

func (t treeFS) Stat(name string) (fs.FileInfo, error) {
	info, err := nolink.Lstat(t.dir, name)
	if err != nil {
		return nil, pathError("stat", name, err)
	}
	return info, nil
}

func (t treeFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := nolink.ReadDir(t.dir, name)
	if err != nil {
		return nil, pathError("readdir", name, err)
	}
	return entries, nil
}

// badLink reports, at the link, that the entry d at fs path p is a
// symbolic link, which the loaders do not follow, and whether it is one.
func (l *loader) badLink(p string, d fs.DirEntry) bool {
	if d.Type()&fs.ModeSymlink == 0 {
		return false
	}
	l.diags.Errorf(src.Pos{File: l.path(p)}, "%v", nolink.ErrLink)
	return true
}
