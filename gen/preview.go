package gen

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/bind"
	"github.com/promptgen/promptgen/gen/internal/goemit"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/ttemit"
	"github.com/promptgen/promptgen/runtime"
)

// Preview is one prompt made ready to render from JSON data without
// compiling anything (promptgen render): the text/template translation that
// -renderer=text/template embeds, and a feed type built with reflect in the
// shape of the generated <Name>Feed (the same fields, json tags and
// pointers), so JSON decodes into it as into the generated struct.
type Preview struct {
	Key    string
	File   string       // the prompt file as generated code names it
	Source string       // text/template source, for runtime/ttfuncs
	Feed   reflect.Type // a struct type
	// Sections are the sections of a sectioned prompt, whose Source is
	// then its head; Tokenizer names the encoding of their budgets.
	Sections  []PreviewSection
	Tokenizer string
	Markers   bool
	ChatPreview
}

// ChatPreview is what rendering a chat template (`inputs: chat`) needs
// besides its templates, in a prompt file or a template set.
type ChatPreview struct {
	// Chat is set with `inputs: chat`: the data is a chat context, whose
	// keys the template does not read are ignored, and no string of which
	// may hold one of SpecialTokens (special_tokens).
	Chat          bool
	SpecialTokens []string
	// Tools are the declared tools, which a chat template gets when its
	// data has none.
	Tools []runtime.Tool
}

// previewGoFilters is why what (a prompt or a set) cannot be previewed
// when it has Go filters: the preview runs the translated template in
// promptgen's own process, which holds none of the user's functions.
// Running them would mean building a program against the user's module
// for each render (see docs/cli.md).
func previewGoFilters(what string, filters []*ir.GoFilter) error {
	if len(filters) == 0 {
		return nil
	}
	var fns []string
	for _, g := range filters {
		fns = append(fns, g.Name+" ("+g.Ref()+")")
	}
	return fmt.Errorf("%s has Go filters (%s), which promptgen render and test cannot call: they run templates inside promptgen, without your module's code; render it through the generated package instead (a Go test or program that calls Render)", what, strings.Join(fns, ", "))
}

// chatPreview returns the ChatPreview of a prompt or set.
func chatPreview(chat bool, specialTokens []string, tools []*ir.Tool) ChatPreview {
	c := ChatPreview{Chat: chat, SpecialTokens: specialTokens}
	for _, t := range tools {
		c.Tools = append(c.Tools, runtime.Tool{Name: t.Spec.Name, Description: t.Spec.Description, Parameters: t.Spec.Parameters.JSON, Strict: t.Spec.Strict})
	}
	return c
}

// PreviewSection is one section of a sectioned prompt, its templates
// translated as Preview.Source is.
type PreviewSection struct {
	Name, Title string
	// When renders "1" when the section is in; "" when it always is.
	When   string
	Source string
	Budget int
	// Truncate is items, text or error; Items marks the source that
	// records its loop's iterations (runtime/ttfuncs.ExecuteItems).
	Truncate string
	Items    bool
}

// LoadPreview loads the prompts of cfg.Dir and checks the one named key;
// errors in other prompts do not matter. The diagnostics are those of the
// prompt's file; err is non-nil when it has errors or key names no prompt.
func LoadPreview(cfg Config, key string) (*Preview, Diagnostics, error) {
	t, err := openTree(cfg.Dir)
	if err != nil {
		return nil, nil, err
	}
	prog, err := compile(request{tree: t, cfg: cfg, scope: onePrompt, key: key,
		packages: bind.PackagesLoader(context.Background()), packagesDir: cfg.previewPackagesDir()})
	if err != nil {
		return nil, nil, err
	}
	diags := prog.diags
	if diags.HasErrors() || len(prog.prompts) == 0 {
		return nil, diags, diags
	}
	irp := prog.prompts[0]
	if err := previewGoFilters(fmt.Sprintf("prompt %q", key), irp.Filters); err != nil {
		return nil, diags, err
	}
	if irp.IsMessages {
		return nil, diags, fmt.Errorf("%q is a messages prompt: render supports single-template prompts only", key)
	}
	pv := &Preview{Key: key, File: irp.File, Feed: goemit.ReflectType(irp.Feed), Tokenizer: irp.Tokenizer, Markers: irp.Markers,
		ChatPreview: chatPreview(irp.Chat, irp.SpecialTokens, irp.Tools)}
	if irp.Sections == nil {
		pv.Source = ttemit.Translate(irp)
		return pv, diags, nil
	}
	pv.Source = ttemit.Translate(irp.Head)
	for _, sec := range irp.Sections {
		ps := PreviewSection{Name: sec.Name, Title: sec.Title, Source: ttemit.Translate(sec.Body),
			Budget: sec.Budget, Truncate: sec.Truncate, Items: sec.Items != nil}
		if sec.When != nil {
			ps.When = ttemit.Translate(sec.When)
		}
		pv.Sections = append(pv.Sections, ps)
	}
	return pv, diags, nil
}
