package models

import (
	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/chat"
	"github.com/promptgen/promptgen/runtime/chatformat"
)

// A Model is a model's compiled chat template and the special tokens that
// delimit its turns, which a message's text may not hold.
type Model struct {
	Name     string // the Hugging Face model whose template this is
	Template chatformat.Template
	Markers  []string
}

// FormatPrompt writes p as the model's chat template renders it with ctx
// (chatformat.FormatTemplate): tools, documents, add_generation_prompt
// and special tokens come from ctx, the messages from p.
func (m Model) FormatPrompt(p runtime.Prompt, ctx chat.Context) (string, error) {
	return chatformat.FormatTemplate(m.Template, p, ctx, m.Markers...)
}

// The shipped models.
var (
	Phi4    = Model{"microsoft/phi-4", Phi4Template, []string{"<|im_start|>", "<|im_sep|>", "<|im_end|>"}}
	Phi35   = Model{"microsoft/Phi-3.5-mini-instruct", Phi35Template, []string{"<|system|>", "<|user|>", "<|assistant|>", "<|end|>", "<|endoftext|>"}}
	SmolLM2 = Model{"HuggingFaceTB/SmolLM2-135M-Instruct", SmolLM2Template, []string{"<|im_start|>", "<|im_end|>"}}
	Qwen2   = Model{"Qwen/Qwen2-0.5B-Instruct", Qwen2Template, []string{"<|im_start|>", "<|im_end|>", "<|endoftext|>"}}
	OLMo2   = Model{"allenai/OLMo-2-1124-7B-Instruct", OLMo2Template, []string{"<|system|>", "<|user|>", "<|assistant|>", "<|endoftext|>"}}
	Qwen25  = Model{"Qwen/Qwen2.5-0.5B-Instruct", Qwen25Template, []string{"<|im_start|>", "<|im_end|>", "<|endoftext|>"}}
	Mistral = Model{"mistralai/Mistral-7B-Instruct", MistralTemplate, []string{"[INST]", "[/INST]", "<s>", "</s>"}}
	Mixtral = Model{"mistralai/Mixtral-8x7B-Instruct-v0.1", MixtralTemplate, []string{"[INST]", "[/INST]", "<s>", "</s>"}}
	// DeepSeekR1's markers are its turn tokens; its tool-call tokens are
	// as much the model's own, and rejected too.
	DeepSeekR1 = Model{"deepseek-ai/DeepSeek-R1-0528-Qwen3-8B", DeepSeekR1Template, []string{"<｜User｜>", "<｜Assistant｜>", "<｜end▁of▁sentence｜>",
		"<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>", "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>", "<｜tool▁sep｜>",
		"<｜tool▁outputs▁begin｜>", "<｜tool▁outputs▁end｜>", "<｜tool▁output▁begin｜>", "<｜tool▁output▁end｜>"}}
	Granite4   = Model{"ibm-granite/granite-4.0-h-micro", Granite4Template, []string{"<|start_of_role|>", "<|end_of_role|>", "<|end_of_text|>"}}
	Qwen3      = Model{"Qwen/Qwen3-0.6B", Qwen3Template, []string{"<|im_start|>", "<|im_end|>", "<|endoftext|>"}}
	Qwen3Coder = Model{"Qwen/Qwen3-Coder-30B-A3B-Instruct", Qwen3CoderTemplate, []string{"<|im_start|>", "<|im_end|>", "<|endoftext|>"}}
)
