package gen

import "io/fs"

// GenerateFS runs the pipeline on the prompts in fsys, as Generate does on
// a directory: dir is the prompts directory as diagnostics and generated
// code name it. cfg.Pkg and cfg.ImportPath are final (nothing is learnt
// from a module) and cfg.Dir is not read; the only packages loaded from
// disk are those a goType or autobind names (from cfg.Out, or the working
// directory when it is empty). err is non-nil
// exactly when a diagnostic has error severity, or on an internal error.
// The differential fuzzer (internal/difffuzz) generates its random prompts
// in memory with it.
func GenerateFS(fsys fs.FS, dir string, cfg Config) (*Result, error) {
	return generate(fsys, dir, cfg)
}
