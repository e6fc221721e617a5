package load

import (
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/schema"
	"gopkg.in/yaml.v3"
)

// This file reads a sectioned prompt (the Think prompt of the spec): the
// `sections` list and the `tokenizer` and `markers` settings beside it.
// What a section's templates mean is the checker's; here are the keys.

var (
	sectionKeys   = []string{"name", "title", "when", "budget_tokens", "truncate", "template"}
	truncateModes = []string{ir.TruncateItems, ir.TruncateText, ir.TruncateError}
	tokenizers    = slices.Sorted(maps.Keys(ir.Tokenizers))
	// sectionName is what a marker line can hold and a log parser read back.
	sectionName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// DefaultTokenizer counts a sectioned prompt's tokens when it names no
// tokenizer: the encoding of OpenAI's current models.
const DefaultTokenizer = "o200k_base"

// maxBudget bounds budget_tokens: a budget past any model's context is a typo.
const maxBudget = 10_000_000

// tokenizer checks the `tokenizer` entry.
func (f *yamlFile) tokenizer(e pair) string {
	s, ok := f.str(e)
	if ok && !slices.Contains(tokenizers, s) {
		f.errorf(e.v, "unknown tokenizer %q (one of %s)%s", s, strings.Join(tokenizers, ", "), schema.DidYouMean(s, tokenizers))
		return ""
	}
	return s
}

// sections decodes `sections`: a list of named templates.
func (f *yamlFile) sections(e pair) []*ir.SectionSpec {
	if e.v.Kind != yaml.SequenceNode {
		f.wrongKind(e.v, strconv.Quote(e.key), "a list of {name, template} entries")
		return nil
	}
	if len(e.v.Content) == 0 {
		f.errorf(e.v, "%q has no entries", e.key)
	}
	var ss []*ir.SectionSpec
	names := map[string]*yaml.Node{}
	for _, n := range e.v.Content {
		if n.Kind != yaml.MappingNode {
			f.wrongKind(n, "a section", "a mapping with name and template")
			continue
		}
		s := f.section(n)
		if s == nil {
			continue
		}
		if prev, dup := names[s.Name]; dup {
			f.errorf(n, "duplicate section name %q (first at line %d)", s.Name, prev.Line)
			continue
		}
		names[s.Name] = n
		ss = append(ss, s)
	}
	return ss
}

// section decodes one entry of `sections`; nil when it has no usable name.
func (f *yamlFile) section(n *yaml.Node) *ir.SectionSpec {
	s := &ir.SectionSpec{Pos: f.pos(n)}
	var budgetNode, truncateNode *yaml.Node
	named := false
	for _, e := range f.entries(n, "key", false) {
		switch e.key {
		case "name":
			if v, ok := f.str(e); ok {
				named = true
				s.Name = v
				if !sectionName.MatchString(v) {
					f.errorf(e.v, "section name %q is not an identifier (letters, digits and _, not starting with a digit): it is written into marker lines", v)
				}
			}
		case "title":
			if v, ok := f.str(e); ok {
				s.Title = v
				if strings.ContainsAny(v, "\r\n") {
					f.errorf(e.v, "a section title is one line")
				}
			}
		case "when":
			s.When = f.tmplSpec(e)
		case "budget_tokens":
			budgetNode = e.v
			if e.v.Kind != yaml.ScalarNode || e.v.ShortTag() != "!!int" {
				f.wrongKind(e.v, strconv.Quote(e.key), "a positive integer")
				break
			}
			if v, ok := f.scalar(e.v).(int64); ok && (v <= 0 || v > maxBudget) {
				f.errorf(e.v, "budget_tokens must be between 1 and %d, not %d", maxBudget, v)
			} else if ok {
				s.Budget = int(v)
			}
		case "truncate":
			truncateNode = e.v
			s.TruncatePos = f.pos(e.v)
			if v, ok := f.str(e); ok {
				if !slices.Contains(truncateModes, v) {
					f.errorf(e.v, "unknown truncate mode %q (one of %s)%s", v, strings.Join(truncateModes, ", "), schema.DidYouMean(v, truncateModes))
				} else {
					s.Truncate = v
				}
			}
		case "template":
			s.Template = f.tmplSpec(e)
		default:
			f.errorf(e.k, "unknown section key %q%s", e.key, schema.DidYouMean(e.key, sectionKeys))
		}
	}
	switch {
	case !named:
		f.errorf(n, "section has no %q", "name")
		return nil
	case s.Template == nil:
		f.errorf(n, "section %q has no %q", s.Name, "template")
	}
	if truncateNode != nil && budgetNode == nil {
		f.errorf(truncateNode, "truncate needs budget_tokens: without a budget nothing is truncated")
	}
	if budgetNode != nil && s.Truncate == "" {
		s.Truncate = ir.TruncateError
	}
	return s
}

// sectionSettings reports `tokenizer` and `markers` written in a prompt
// without sections, and sets the defaults of one with sections.
func (f *yamlFile) sectionSettings(pr *ir.PromptSpec, tokenizerKey, markersKey *yaml.Node) {
	if pr.Sections == nil {
		for _, k := range []*yaml.Node{tokenizerKey, markersKey} {
			if k != nil {
				f.errorf(k, "%q is for sectioned prompts (a prompt with %q)", k.Value, "sections")
			}
		}
		return
	}
	if pr.Tokenizer == "" {
		pr.Tokenizer = DefaultTokenizer
	}
	if markersKey == nil {
		pr.Markers = true
	}
}

// sectionsWith reports keys that cannot stand beside `sections`.
func (f *yamlFile) sectionsWith(sectionsKey, messagesKey *yaml.Node) {
	if sectionsKey != nil && messagesKey != nil {
		f.errorf(sectionsKey, "a prompt has either %q or %q, not both", "messages", "sections")
	}
}
