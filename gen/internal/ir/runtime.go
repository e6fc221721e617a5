package ir

// Import paths of the runtime packages that generated code calls.
const (
	RuntimePath = "github.com/promptgen/promptgen/runtime"
	JinjaPath   = "github.com/promptgen/promptgen/runtime/jinja"
	TTFuncsPath = "github.com/promptgen/promptgen/runtime/ttfuncs"
	ChatPath    = "github.com/promptgen/promptgen/runtime/chat"
	OutputPath  = "github.com/promptgen/promptgen/runtime/output"
	YAMLOutPath = "github.com/promptgen/promptgen/runtime/output/yamlout"
	ParamsPath  = "github.com/promptgen/promptgen/runtime/params"
)

// TiktokenPath is the package of the OpenAI encodings that count the tokens
// of a sectioned prompt; Tokenizers names its constructor of each encoding
// a prompt file's `tokenizer` may name.
const TiktokenPath = "github.com/promptgen/promptgen/runtime/tiktoken"

var Tokenizers = map[string]string{
	"o200k_base":  "O200kBase",
	"cl100k_base": "Cl100kBase",
}
