package gen

import (
	"context"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// mapFS builds a file system from path → content.
func mapFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, data := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(data)}
	}
	return fsys
}

// An output directory whose name is no Go identifier needs Pkg; without it
// the generated code would not parse.
func TestGeneratePackageNameFromOut(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "p", "a.jinja"), []byte("A"))
	cfg := Config{Dir: filepath.Join(dir, "p"), Out: filepath.Join(dir, "gen-out"), ImportPath: "x/y"}
	res, err := Generate(context.Background(), cfg)
	if want := "load: gen-out is not a Go package name: name the package (-pkg)"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
	if res != nil {
		t.Errorf("result %+v, want none", res)
	}
	cfg.Pkg = "genout"
	if _, err := Generate(context.Background(), cfg); err != nil {
		t.Errorf("with Pkg: %v", err)
	}
}
