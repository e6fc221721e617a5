package gen

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/load"
	"github.com/promptgen/promptgen/internal/nolink"
	"github.com/promptgen/promptgen/schema"
)

// tree is the prompts directory of one run. Positions and generated code
// name it by its base name, so output is the same whatever the working
// directory; diagnostics are shown with the directory as the user gave it.
type tree struct {
	dir  string // as given in Config.Dir
	base string // the name that positions start with
	fsys fs.FS
}

// openTree opens the prompts directory dir. A symbolic link there (dir,
// or a directory of a relative dir) is an error of the whole run: the
// loaders would report it on every path they read.
func openTree(dir string) (*tree, error) {
	if _, err := nolink.Lstat(dir, "."); errors.Is(err, nolink.ErrLink) {
		return nil, fmt.Errorf("load: %w", err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	return &tree{dir: dir, base: filepath.Base(abs), fsys: load.FS(dir)}, nil
}

// show names the files of diags as the user gave the directory, for
// editors. It rewrites diags in place, so an error holding them changes too.
func (t *tree) show(diags Diagnostics) Diagnostics {
	for i, d := range diags {
		if rest, ok := strings.CutPrefix(d.Pos.File, t.base+"/"); ok {
			diags[i].Pos.File = path.Join(filepath.ToSlash(t.dir), rest)
		} else if d.Pos.File == t.base {
			diags[i].Pos.File = filepath.ToSlash(t.dir)
		}
	}
	return diags
}

// keep returns the diagnostics of the files whose path inside the tree
// satisfies in: those of the one prompt or set a command looks at.
func (t *tree) keep(diags Diagnostics, in func(rel string) bool) Diagnostics {
	var kept Diagnostics
	for _, d := range diags {
		if rel, ok := strings.CutPrefix(d.Pos.File, t.base+"/"); ok && in(rel) {
			kept = append(kept, d)
		}
	}
	return kept
}

// find returns the item whose key is key, or nil and the did-you-mean
// suffix for an error that names the key.
func find[T any](items []*T, keyOf func(*T) string, key string) (*T, string) {
	var keys []string
	for _, x := range items {
		if keyOf(x) == key {
			return x, ""
		}
		keys = append(keys, keyOf(x))
	}
	return nil, schema.DidYouMean(key, keys)
}
