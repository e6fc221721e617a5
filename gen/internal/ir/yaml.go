package ir

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// MaxYAMLDepth bounds the nesting of a YAML value that becomes data (an
// example, a predefined variable), so that aliases cannot expand it
// without bound.
const MaxYAMLDepth = 100

// YAMLKind describes the kind of a YAML node for messages ("a mapping",
// "an integer"), as load and the example checks word them.
func YAMLKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a sequence"
	case yaml.AliasNode:
		return "an alias"
	}
	switch tag := n.ShortTag(); tag {
	case "!!str":
		return "a string"
	case "!!int":
		return "an integer"
	case "!!float":
		return "a number"
	case "!!bool":
		return "a bool"
	case "!!null":
		return "null"
	default:
		return fmt.Sprintf("a %q value", tag)
	}
}
