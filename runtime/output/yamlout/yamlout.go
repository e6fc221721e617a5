// Package yamlout extracts the YAML answer of an LLM completion as JSON, for
// prompts whose outputFormat is yaml: output.Decode then decodes and
// validates it as it does a JSON answer. It is apart from package output so
// that only the prompts that need a YAML parser link one.
package yamlout

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/promptgen/promptgen/runtime/internal/fence"
)

// MaxCompletion bounds the completions Extract parses, as in package output.
const MaxCompletion = 1 << 20

// MaxAliasExpansion bounds what aliases may add to the answer of one
// completion, over all the blocks Extract tries: each node that an alias
// brings in counts the length of its text, and at least 1. Without it, a
// few lines of nested aliases ("billion laughs") would expand to
// gigabytes.
const MaxAliasExpansion = 1 << 16

// MaxBlocks bounds the fenced blocks Extract parses in one completion:
// parsing even an empty block has a cost, which a completion of a million
// backticks would otherwise multiply.
const MaxBlocks = 100

// Causes of extraction failures, for errors.Is.
var (
	ErrNoYAML      = errors.New("no YAML document in the completion")
	ErrInvalidYAML = errors.New("invalid YAML")
	ErrTooLarge    = fmt.Errorf("the completion is larger than %d bytes", MaxCompletion)
	// ErrAliases wraps ErrInvalidYAML.
	ErrAliases = fmt.Errorf("%w: aliases expand to more than %d bytes", ErrInvalidYAML, MaxAliasExpansion)
)

// Extract returns the YAML document of a completion converted to JSON: the
// body of the first fenced block tagged yaml or yml (in any case), or else
// untagged, that parses; or else the whole completion. Prose around an
// unfenced document cannot be told from YAML and is parsed with it.
// Mapping keys, timestamps and binary values keep the text they were
// written with; values that JSON cannot hold (.inf, .nan) and keys given
// twice in a mapping are errors. Only the first document of a stream is
// read. Extract fails with ErrAliases as soon as aliases expand to more
// than MaxAliasExpansion, and when the first MaxBlocks blocks it parses
// hold no YAML document.
func Extract(completion string) ([]byte, error) {
	if len(completion) > MaxCompletion {
		return nil, ErrTooLarge
	}
	s := strings.TrimPrefix(completion, "\uFEFF")
	budget, blocks := MaxAliasExpansion, 0
	for f := range fence.All(s) {
		if f.Info != "" && !strings.EqualFold(f.Info, "yaml") && !strings.EqualFold(f.Info, "yml") {
			continue
		}
		if blocks++; blocks > MaxBlocks {
			return nil, fmt.Errorf("%w: no YAML document in the first %d fenced blocks", ErrInvalidYAML, MaxBlocks)
		}
		doc, err := toJSON(s[f.Start:f.End], &budget)
		if err == nil || errors.Is(err, ErrAliases) {
			return doc, err
		}
	}
	return toJSON(s, &budget)
}

// toJSON parses one YAML document and encodes it as JSON, spending the
// alias budget.
func toJSON(text string, budget *int) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrInvalidYAML, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 {
		return nil, ErrNoYAML
	}
	c := converter{budget: budget}
	v, err := c.value(doc.Content[0])
	if errors.Is(err, ErrAliases) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s", ErrInvalidYAML, err)
	}
	return json.Marshal(v)
}

// converter converts YAML nodes to the values encoding/json encodes the
// same way.
type converter struct {
	budget  *int
	aliased int // the depth of aliases the current node is reached through
}

// value converts a node: scalars keep the text they were written with
// when they are strings, timestamps or binary, and mapping keys are their
// scalar text.
func (c *converter) value(n *yaml.Node) (any, error) {
	if c.aliased > 0 {
		if *c.budget -= max(len(n.Value), 1); *c.budget < 0 {
			return nil, ErrAliases
		}
	}
	switch n.Kind {
	case yaml.AliasNode:
		c.aliased++
		defer func() { c.aliased-- }()
		return c.value(n.Alias)
	case yaml.SequenceNode:
		list := make([]any, len(n.Content))
		for i, e := range n.Content {
			var err error
			if list[i], err = c.value(e); err != nil {
				return nil, err
			}
		}
		return list, nil
	case yaml.MappingNode:
		return c.mapping(n)
	}
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool", "!!int":
		var v any
		err := n.Decode(&v)
		return v, err
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, err
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("line %d: %s is not a JSON number", n.Line, n.Value)
		}
		return f, nil
	}
	return n.Value, nil
}

// mapping converts a mapping node. Merge keys ("<<: *base") bring in the
// entries of other mappings that the mapping does not set itself.
func (c *converter) mapping(n *yaml.Node) (map[string]any, error) {
	m := make(map[string]any, len(n.Content)/2)
	lines := make(map[string]int, len(n.Content)/2) // where each key is, for duplicates
	var merged []map[string]any
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		val, err := c.value(v)
		if err != nil {
			return nil, err
		}
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			sources, ok := val.([]any)
			if !ok {
				sources = []any{val}
			}
			for _, src := range sources {
				sm, ok := src.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("line %d: a merge key needs mappings", k.Line)
				}
				merged = append(merged, sm)
			}
			continue
		}
		line := k.Line
		if k.Kind == yaml.AliasNode {
			if _, err := c.value(k); err != nil { // spends the budget
				return nil, err
			}
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("line %d: a mapping key is a collection", k.Line)
		}
		if first, ok := lines[k.Value]; ok {
			return nil, fmt.Errorf("line %d: mapping key %q already defined at line %d", line, k.Value, first)
		}
		lines[k.Value] = line
		m[k.Value] = val
	}
	for _, sm := range merged {
		for k, v := range sm {
			if _, ok := m[k]; !ok {
				m[k] = v
			}
		}
	}
	return m, nil
}
