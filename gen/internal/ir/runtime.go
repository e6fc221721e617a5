package ir

// Import paths of the runtime packages that generated code calls.
const (
	RuntimePath = "github.com/promptgen/promptgen/runtime"
	JinjaPath   = "github.com/promptgen/promptgen/runtime/jinja"
	TTFuncsPath = "github.com/promptgen/promptgen/runtime/ttfuncs"
	OutputPath  = "github.com/promptgen/promptgen/runtime/output"
	YAMLOutPath = "github.com/promptgen/promptgen/runtime/output/yamlout"
)
