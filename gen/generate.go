// Package gen is promptgen's generator: it loads prompt files, parses and
// type-checks their templates and emits a typed Go package. It never prints
// and never exits; it returns files and diagnostics.
package gen

import (
	"context"
	"errors"
)

// Renderer names a backend for the generated renderers.
type Renderer string

const (
	RendererGo           Renderer = "go"
	RendererTextTemplate Renderer = "text/template"
)

// Config is the input of one generator run.
type Config struct {
	// Dir is the prompts directory, e.g. "prompts". Paths in diagnostics
	// are shown relative to it, prefixed with Dir as given.
	Dir string
	// Out is the output directory; its base name is the default package name.
	Out string
	// Pkg overrides the package name.
	Pkg string
	// ImportPath is the output package's import path; when empty it is
	// learnt with go/packages from the module that contains Out.
	ImportPath string
	// Renderer selects the backend; empty means RendererGo.
	Renderer Renderer
	// Strict requires every prompt to declare its inputs.
	Strict bool
}

// File is one generated file.
type File struct {
	Name    string // base name inside Out, e.g. "summarize_prompt.go"
	Content []byte
}

// Result is what a run produced: files in name order, and every
// diagnostic (warnings included) sorted by position.
type Result struct {
	Files       []File
	Diagnostics Diagnostics
}

// Generate runs the pipeline. err is non-nil exactly when a diagnostic has
// error severity (then it is the Diagnostics), or on an internal error.
func Generate(ctx context.Context, cfg Config) (*Result, error) {
	return nil, errors.New("not implemented")
}
