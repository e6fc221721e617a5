// Package vet is promptgen vet: a golang.org/x/tools/go/analysis analyzer
// for the code that calls a promptgen-generated package. It reports what
// compiles but fails, or silently does something else, at run time:
//
//   - a composite literal of a prompt's feed (or fragment params, or a type
//     nested in them) that leaves a required field out, or sets a required
//     string, list or map to "" or nil, which Render reports as missing;
//   - a constant key, passed to a template set's Render, AppendRender,
//     Resolve, Variants or InferenceConfig, that names no template of the
//     set, with the template it falls back to and a did-you-mean;
//   - a constant parameter override (runtime.WithParameter,
//     runtime.Temperature, runtime.TopP, runtime.MaxTokens) with an unknown
//     name or a value out of range, checked against runtime/params.
//
// It reads everything from the types of the generated package, never from
// its source, so it works from export data as go vet, gopls-based drivers
// and golangci-lint load it. The generated code carries two struct tags:
//
//   - promptgen:"required" on every field that its prompt requires;
//   - on the runtime.Manager field of a set type, promptgen:"{...}" holding
//     the set's name, default type and default name and its template paths
//     as JSON: {"set":"agent","type":"main","defaultName":"default","paths":[...]}.
//
// Keys resolve through runtime.Manager itself, so the fallback reported is
// the one Render takes. The analyzer has no facts and needs no syntax of
// dependencies.
package vet

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// Analyzer reports mistakes in calls to promptgen-generated code.
var Analyzer = &analysis.Analyzer{
	Name:     "promptgen",
	Doc:      "report feed literals missing required fields, set keys that name no template and bad parameter overrides in calls to promptgen-generated code",
	URL:      "https://github.com/promptgen/promptgen#promptgen-vet",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      run,
}

// runtimePath is the import path of the package generated code imports.
const runtimePath = "github.com/promptgen/promptgen/runtime"

func run(pass *analysis.Pass) (any, error) {
	c := &checker{pass: pass, sets: map[*types.Named]*setTable{}}
	root := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector).Root()
	for cur := range root.Preorder((*ast.CompositeLit)(nil), (*ast.CallExpr)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.CompositeLit:
			c.literal(cur, n)
		case *ast.CallExpr:
			c.setKey(n)
			c.parameter(n)
		}
	}
	return nil, nil
}

// checker holds one pass and what it learnt about the types it met.
type checker struct {
	pass *analysis.Pass
	sets map[*types.Named]*setTable // nil for a named type that is no set
}

// typeString names t as the user's code does: qualified by package name
// outside its own package.
func (c *checker) typeString(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == c.pass.Pkg {
			return ""
		}
		return p.Name()
	})
}
