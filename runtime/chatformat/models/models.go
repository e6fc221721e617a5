package models

import (
	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/chat"
	"github.com/promptgen/promptgen/runtime/chatformat"
)

// A Model is a model's compiled chat template and the model's special
// tokens (its turn delimiters, bos and eos, its tool-call and tool-response
// tags: the special_tokens of its file in templates/), which no string of a
// conversation may hold.
type Model struct {
	Name     string // the Hugging Face model whose template this is
	Template chatformat.Template
	Markers  []string
}

// FormatPrompt writes p as the model's chat template renders it with ctx
// (chatformat.FormatTemplate): tools, documents, add_generation_prompt
// and special tokens come from ctx, the messages from p. A string of p or
// ctx that holds one of m.Markers is a chatformat.ErrMarker error.
func (m Model) FormatPrompt(p runtime.Prompt, ctx chat.Context) (string, error) {
	return chatformat.FormatTemplate(m.Template, p, ctx, m.Markers...)
}

// The shipped models.
var (
	Phi4        = Model{"microsoft/phi-4", Phi4Template, Phi4Template.SpecialTokens()}
	Phi35       = Model{"microsoft/Phi-3.5-mini-instruct", Phi35Template, Phi35Template.SpecialTokens()}
	SmolLM2     = Model{"HuggingFaceTB/SmolLM2-135M-Instruct", SmolLM2Template, SmolLM2Template.SpecialTokens()}
	Qwen2       = Model{"Qwen/Qwen2-0.5B-Instruct", Qwen2Template, Qwen2Template.SpecialTokens()}
	OLMo2       = Model{"allenai/OLMo-2-1124-7B-Instruct", OLMo2Template, OLMo2Template.SpecialTokens()}
	Qwen25      = Model{"Qwen/Qwen2.5-0.5B-Instruct", Qwen25Template, Qwen25Template.SpecialTokens()}
	Mistral     = Model{"mistralai/Mistral-7B-Instruct", MistralTemplate, MistralTemplate.SpecialTokens()}
	Mixtral     = Model{"mistralai/Mixtral-8x7B-Instruct-v0.1", MixtralTemplate, MixtralTemplate.SpecialTokens()}
	DeepSeekR1  = Model{"deepseek-ai/DeepSeek-R1-0528-Qwen3-8B", DeepSeekR1Template, DeepSeekR1Template.SpecialTokens()}
	Granite4    = Model{"ibm-granite/granite-4.0-h-micro", Granite4Template, Granite4Template.SpecialTokens()}
	Qwen3       = Model{"Qwen/Qwen3-0.6B", Qwen3Template, Qwen3Template.SpecialTokens()}
	Qwen3Coder  = Model{"Qwen/Qwen3-Coder-30B-A3B-Instruct", Qwen3CoderTemplate, Qwen3CoderTemplate.SpecialTokens()}
	MistralNemo = Model{"mistralai/Mistral-Nemo-Instruct-2407", MistralNemoTemplate, MistralNemoTemplate.SpecialTokens()}
)
