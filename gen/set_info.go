package gen

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

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
	s, t, diags, err := loadSet(cfg, key)
	if err != nil {
		return nil, nil, err
	}
	if diags = t.show(diags); diags.HasErrors() {
		return nil, diags, diags
	}
	return setInfo(s), diags, nil
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

// loadSet loads the set in directory key of cfg.Dir and returns it with
// the tree it was loaded from and the sorted diagnostics of its files, not
// yet shown. s is nil when they have errors; err is non-nil when there is
// no tree or key names no set.
func loadSet(cfg Config, key string) (s *ir.SetSpec, t *tree, diags Diagnostics, err error) {
	if t, err = openTree(cfg.Dir); err != nil {
		return nil, nil, nil, err
	}
	key = strings.Trim(path.Clean("/"+filepath.ToSlash(key)), "/")
	sets, loadDiags := load.Sets(t.fsys, t.base)
	s, didYouMean := find(sets, func(s *ir.SetSpec) string { return s.Key }, key)
	// The set's files are those below its directory.
	diags = t.keep(loadDiags, func(rel string) bool { return key == "" || strings.HasPrefix(rel, key+"/") }).Sorted()
	if s == nil && !diags.HasErrors() {
		return nil, nil, nil, fmt.Errorf("no template set %q in %s%s", key, cfg.Dir, didYouMean)
	}
	if diags.HasErrors() {
		return nil, t, diags, nil
	}
	return s, t, diags, nil
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
