package chatformat

import (
	"strconv"
	"strings"

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
// tokens) the caller sets. As in Format, a text content holding one of
// markers, the special tokens that delimit the model's turns, is an
// ErrMarker error rather than a prompt with a different structure.
func FormatTemplate(t Template, p runtime.Prompt, ctx chat.Context, markers ...string) (string, error) {
	if len(p) == 0 {
		return "", &runtime.MessageError{Index: -1, Err: runtime.ErrNoMessages}
	}
	for i, m := range p {
		for _, mk := range markers {
			if strings.Contains(m.Content, mk) {
				return "", &runtime.MessageError{Index: i, Field: "content", Err: ErrMarker, Detail: strconv.Quote(mk)}
			}
		}
	}
	msgs, err := chat.FromPrompt(p)
	if err != nil {
		return "", err
	}
	ctx.Messages = msgs
	return t.Format(ctx)
}
