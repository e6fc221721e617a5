package gen

import (
	"os"
	"path/filepath"
	"reflect"

	"github.com/promptgen/promptgen/gen/internal/ir"
)

// goPackagesDir is the directory whose module resolves the packages of
// goType and autobind: dir (the output directory), or its nearest parent
// that exists, since the first generate creates it.
func goPackagesDir(dir string) string {
	if dir == "" {
		dir = "."
	}
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}

// previewPackagesDir is where promptgen render loads the packages of
// goType and autobind: the output directory when given, else the prompts
// directory, which is in the same module as a rule.
func (cfg Config) previewPackagesDir() string {
	if cfg.Out != "" {
		return goPackagesDir(cfg.Out)
	}
	return goPackagesDir(cfg.Dir)
}

// unreadableFields are the fields of a bound Go type t that promptgen
// cannot read, as fields of the preview's feed: JSON may hold them (as any),
// and they count among the value's keys, as in the Go type.
func unreadableFields(t *ir.Type) []reflect.StructField {
	if t.Go == nil {
		return nil
	}
	var fields []reflect.StructField
	for _, u := range t.Go.Unreadable {
		tag := u.Key
		if u.Optional {
			tag += ",omitempty"
		}
		fields = append(fields, reflect.StructField{Name: u.GoName, Type: reflect.TypeFor[any](), Tag: reflect.StructTag(`json:"` + tag + `"`)})
	}
	return fields
}
