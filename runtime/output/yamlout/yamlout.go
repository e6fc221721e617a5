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

// Causes of extraction failures, for errors.Is.
var (
	ErrNoYAML      = errors.New("no YAML document in the completion")
	ErrInvalidYAML = errors.New("invalid YAML")
	ErrTooLarge    = fmt.Errorf("the completion is larger than %d bytes", MaxCompletion)
)

// Extract returns the YAML document of a completion converted to JSON: the
// body of the first fenced block tagged yaml or yml (in any case), or else
// untagged, that parses; or else the whole completion. Prose around an
// unfenced document cannot be told from YAML and is parsed with it.
// Mapping keys, timestamps and binary values keep the text they were
// written with; values that JSON cannot hold (.inf, .nan) are errors. Only
// the first document of a stream is read.
func Extract(completion string) ([]byte, error) {
	if len(completion) > MaxCompletion {
		return nil, ErrTooLarge
	}
	s := strings.TrimPrefix(completion, "\uFEFF")
	for f := range fence.All(s) {
		if f.Info != "" && !strings.EqualFold(f.Info, "yaml") && !strings.EqualFold(f.Info, "yml") {
			continue
		}
		if doc, err := toJSON(s[f.Start:f.End]); err == nil {
			return doc, nil
		}
	}
	return toJSON(s)
}

// toJSON parses one YAML document and encodes it as JSON.
func toJSON(text string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrInvalidYAML, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 {
		return nil, ErrNoYAML
	}
	budget := maxNodes
	v, err := jsonValue(doc.Content[0], &budget)
	if err != nil {
		return nil, fmt.Errorf("%w: %s", ErrInvalidYAML, err)
	}
	return json.Marshal(v)
}

// maxNodes bounds the nodes a document may expand to through aliases
// ("billion laughs").
const maxNodes = 1 << 20

// jsonValue converts a YAML node to the value encoding/json encodes the
// same way: scalars keep the text they were written with when they are
// strings, timestamps or binary, and mapping keys are their scalar text.
func jsonValue(n *yaml.Node, budget *int) (any, error) {
	if *budget--; *budget < 0 {
		return nil, errors.New("too many nodes through aliases")
	}
	switch n.Kind {
	case yaml.AliasNode:
		return jsonValue(n.Alias, budget)
	case yaml.SequenceNode:
		list := make([]any, len(n.Content))
		for i, c := range n.Content {
			var err error
			if list[i], err = jsonValue(c, budget); err != nil {
				return nil, err
			}
		}
		return list, nil
	case yaml.MappingNode:
		return mapping(n, budget)
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
func mapping(n *yaml.Node, budget *int) (map[string]any, error) {
	m := make(map[string]any, len(n.Content)/2)
	var merged []map[string]any
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		val, err := jsonValue(v, budget)
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
		if k.Kind == yaml.AliasNode {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("line %d: a mapping key is a collection", k.Line)
		}
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
