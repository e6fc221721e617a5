package gen

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/schema"
)

// SetInfo is a template set as `promptgen resolve` needs it: the settings
// that promptset.yaml gives a new manager, and every template's full path.
type SetInfo struct {
	Key         string   // the set's directory inside the prompts tree, e.g. "agent"
	DefaultType string   // the type of a new manager
	DefaultName string   // every namespace's fallback name
	Paths       []string // the templates' full paths, sorted: a path's index is its id
}

// LoadSet loads the template set in directory key of cfg.Dir, without
// checking its templates. The diagnostics are those of the set's files;
// err is non-nil when they have errors or key names no set.
func LoadSet(cfg Config, key string) (*SetInfo, Diagnostics, error) {
	s, _, diags, err := loadSet(cfg, key)
	if err != nil {
		return nil, diags, err
	}
	return setInfo(s), diags, nil
}

// setInfo is what resolving needs of s.
func setInfo(s *ir.SetSpec) *SetInfo {
	info := &SetInfo{Key: s.Key, DefaultType: s.DefaultType, DefaultName: s.DefaultName}
	for _, t := range s.Templates {
		info.Paths = append(info.Paths, t.Path)
	}
	return info
}

// loadSet loads the set in directory key of cfg.Dir, as LoadSet does,
// and returns it with the name of cfg.Dir that its positions start with.
func loadSet(cfg Config, key string) (*ir.SetSpec, string, Diagnostics, error) {
	abs, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil, "", nil, fmt.Errorf("load: %w", err)
	}
	base := filepath.Base(abs)
	key = strings.Trim(path.Clean("/"+filepath.ToSlash(key)), "/")
	sets, loadDiags := loadSets(promptsFS(cfg.Dir), base)
	var s *ir.SetSpec
	var keys []string
	for _, x := range sets {
		keys = append(keys, x.Key)
		if x.Key == key {
			s = x
		}
	}
	// The set's files are those below its directory.
	prefix := path.Join(base, key) + "/"
	sink := &diag.Sink{}
	for _, d := range loadDiags {
		if strings.HasPrefix(d.Pos.File, prefix) {
			sink.List = append(sink.List, d)
		}
	}
	diags := relDiags(sink.List.Sorted(), cfg.Dir, base)
	if s == nil && !diags.HasErrors() {
		return nil, "", nil, fmt.Errorf("no template set %q in %s%s", key, cfg.Dir, schema.DidYouMean(key, keys))
	}
	if diags.HasErrors() || s == nil {
		return nil, "", diags, diags
	}
	return s, base, diags, nil
}

// relDiags shows diagnostics in files below base (the name of dir) in dir.
func relDiags(diags Diagnostics, dir, base string) Diagnostics {
	for i, d := range diags {
		if rest, ok := strings.CutPrefix(d.Pos.File, base+"/"); ok {
			diags[i].Pos.File = path.Join(filepath.ToSlash(dir), rest)
		}
	}
	return diags
}

// SetOf returns the directory of the template set in cfg.Dir that holds
// the prompts-tree path p (or is p), and the rest of p inside it; set is
// "" when no set holds p.
func SetOf(cfg Config, p string) (set, rest string) {
	p = strings.Trim(path.Clean("/"+filepath.ToSlash(p)), "/")
	set = setHolding(cfg.Dir, p)
	switch set {
	case "":
		return "", ""
	case ".": // cfg.Dir is itself a set
		return set, p
	}
	return set, strings.TrimPrefix(strings.TrimPrefix(p, set), "/")
}

// setHolding returns the directory of the template set of dir that holds
// the prompts-tree path p (or is p), "" when none does.
func setHolding(dir, p string) string {
	for _, d := range findSets(promptsFS(dir)) {
		if d == "." || p == d || strings.HasPrefix(p, d+"/") {
			return d
		}
	}
	return ""
}
