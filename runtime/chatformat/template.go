package chatformat

import (
	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/chat"
)

// A Template is a model's own chat template compiled by promptgen (a prompt
// file with `inputs: chat`, whose generated type has Format), such as those
// of package chatformat/models. It prints what transformers'
// apply_chat_template prints for ctx.
type Template interface {
	Format(ctx chat.Context) (string, error)
}

// FormatTemplate writes p with t: p's messages (chat.FromPrompt) in ctx,
// whose other fields (tools, documents, add_generation_prompt, the special
// tokens) the caller sets. As in Format, a string that reaches the
// template holding one of markers, the model's special tokens (or ctx's
// BosToken or EosToken), is an ErrMarker error rather than a prompt with a
// different structure: any field of any message (its role, text, name,
// tool call ids, names and arguments, structured content, at any depth and
// in keys too) and ctx's tools and documents (chat.Context.CheckMarkers).
// A compiled template checks its own special tokens again.
func FormatTemplate(t Template, p runtime.Prompt, ctx chat.Context, markers ...string) (string, error) {
	if len(p) == 0 {
		return "", &runtime.MessageError{Index: -1, Err: runtime.ErrNoMessages}
	}
	msgs, err := chat.FromPrompt(p)
	if err != nil {
		return "", err
	}
	ctx.Messages = msgs
	if err := ctx.CheckMarkers(markers...); err != nil {
		return "", err
	}
	return t.Format(ctx)
}
