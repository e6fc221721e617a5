package gen

import (
	"context"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/bind"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/load"
)

// SetInfo is a template set as `promptgen resolve` needs it: the settings
// that promptset.yaml gives a new manager, and every template's full path.
type SetInfo struct {
	Key         string   // the set's directory inside the prompts tree, e.g. "agent"
	DefaultType string   // the type of a new manager
	DefaultName string   // every namespace's fallback name
	Paths       []string // the templates' full paths, sorted: a path's index is its id
	// SystemDefault is the id of the set's default_template, which a
	// runtime.Manager's lookup returns for the empty Path; -1 when the set
	// has none.
	SystemDefault int
}

// LoadSet loads the template set in directory key of cfg.Dir, without
// checking its templates. The diagnostics are those of the set's files;
// err is non-nil when they have errors or key names no set.
func LoadSet(cfg Config, key string) (*SetInfo, Diagnostics, error) {
	prog, err := compileSet(cfg, key, true)
	if err != nil {
		return nil, nil, err
	}
	if prog.diags.HasErrors() {
		return nil, prog.diags, prog.diags
	}
	return setInfo(prog.setSpecs[0]), prog.diags, nil
}

// setInfo is what resolving needs of s.
func setInfo(s *ir.SetSpec) *SetInfo {
	info := &SetInfo{Key: s.Key, DefaultType: s.DefaultType, DefaultName: s.DefaultName, SystemDefault: -1}
	for id, t := range s.Templates {
		info.Paths = append(info.Paths, t.Path)
		if t.System {
			info.SystemDefault = id
		}
	}
	return info
}

// compileSet compiles the template set in directory key of cfg.Dir; with
// loadOnly it only loads it.
func compileSet(cfg Config, key string, loadOnly bool) (*program, error) {
	t, err := openTree(cfg.Dir)
	if err != nil {
		return nil, err
	}
	key = strings.Trim(path.Clean("/"+filepath.ToSlash(key)), "/")
	return compile(request{tree: t, cfg: cfg, scope: oneSet, key: key, loadOnly: loadOnly,
		packages: bind.PackagesLoader(context.Background()), packagesDir: cfg.previewPackagesDir()})
}

// SetOf returns the directory of the template set in cfg.Dir that holds
// the prompts-tree path p (or is p), and the rest of p inside it; set is
// "" when no set holds p.
func SetOf(cfg Config, p string) (set, rest string) {
	p = strings.Trim(path.Clean("/"+filepath.ToSlash(p)), "/")
	set = setHolding(load.FS(cfg.Dir), p)
	switch set {
	case "":
		return "", ""
	case ".": // cfg.Dir is itself a set
		return set, p
	}
	return set, strings.TrimPrefix(strings.TrimPrefix(p, set), "/")
}

// setHolding returns the directory of the template set in fsys that holds
// the prompts-tree path p (or is p), "" when none does.
func setHolding(fsys fs.FS, p string) string {
	for _, d := range load.FindSets(fsys) {
		if d == "." || p == d || strings.HasPrefix(p, d+"/") {
			return d
		}
	}
	return ""
}
