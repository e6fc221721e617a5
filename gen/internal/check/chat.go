package check

import "github.com/promptgen/promptgen/gen/internal/ir"

// ChatFeed returns the feed of a prompt or template set with `inputs: chat`: the fields of
// runtime/chat.Context, fixed, and whatever else the template reads,
// inferred (and optional, see ChatOptional).
func ChatFeed() *ir.Type {
	field := func(key string, t *ir.Type, optional bool) *ir.Field {
		t.Declared = true
		return &ir.Field{Key: key, Type: t, Optional: optional, Chat: true}
	}
	messages := &ir.Type{Kind: ir.KindList, Elem: ir.DynamicType()}
	messages.Elem.Declared = true
	tools, documents := field("tools", ir.DynamicType(), false), field("documents", ir.DynamicType(), false)
	tools.NoneIfUnset, documents.NoneIfUnset = true, true
	return &ir.Type{Kind: ir.KindStruct, Fields: []*ir.Field{
		field("messages", messages, false),
		tools,
		documents,
		field("add_generation_prompt", &ir.Type{Kind: ir.KindBool}, false),
		field("bos_token", &ir.Type{Kind: ir.KindString}, true),
		field("eos_token", &ir.Type{Kind: ir.KindString}, true),
	}}
}

// ChatOptional makes the inferred variables of a chat feed optional: the
// caller passes only those its conversation has, as apply_chat_template's
// keyword arguments.
func ChatOptional(feed *ir.Type) {
	for _, f := range feed.Fields {
		if !f.Chat {
			f.Optional = true
		}
	}
}

// ClearDynamicUndefined drops the undefined flag of the dynamic locals of
// p's body and functions: a dynamic value holds undefined itself.
func ClearDynamicUndefined(p *ir.Prompt) {
	clear := func(l *ir.Local) {
		if l != nil && l.T.Resolve().Kind == ir.KindDynamic {
			l.MaybeUndefined = false
		}
	}
	for _, l := range p.AllLocals() {
		clear(l)
	}
	ir.WalkTargets(p.Body, clear)
	for _, f := range p.Funcs {
		ir.WalkTargets(f.Body, clear)
	}
	ir.WalkFuncs(p, func(x ir.Expr) {
		if call, ok := x.(*ir.Capture); ok {
			for _, l := range call.Locals {
				clear(l)
			}
			ir.WalkTargets(call.Body, clear)
		}
	})
}
