package load

import (
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/schema"
	"gopkg.in/yaml.v3"
)

// This file reads tools: the `tools:` and `tool_choice:` keys of a prompt,
// and the shared tools of the tools/ folder, one YAML file each.

var (
	toolKeys = []string{"name", "description", "parameters", "strict"}
	// toolChoices are the values of tool_choice besides a tool's name.
	toolChoices = []string{"auto", "none", "required"}
	// toolName is what the providers take as a function name, starting
	// with a letter so that it makes a Go name.
	toolName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)
)

// Tools reads the shared tools of the tools/ folder at the root of fsys,
// by name, for Prompts and Sets; a tool whose file is in error is there as
// nil, so that a prompt naming it is told so rather than that it does not
// exist. A tools/ folder with a promptset.yaml is a template set, with no
// shared tools.
func Tools(fsys fs.FS, display string) (map[string]*ir.ToolSpec, diag.Diagnostics) {
	l := &loader{fsys: fsys, display: display}
	return l.sharedTools(), l.diags.List
}

func (l *loader) sharedTools() map[string]*ir.ToolSpec {
	tools := map[string]*ir.ToolSpec{}
	if _, err := fs.Stat(l.fsys, path.Join(ir.ToolsDir, ir.SetFile)); err == nil {
		return tools
	}
	entries, err := fs.ReadDir(l.fsys, ir.ToolsDir)
	if err != nil {
		return tools // no tools/ folder
	}
	for _, d := range entries {
		p := path.Join(ir.ToolsDir, d.Name())
		at := src.Pos{File: l.path(p), Line: 1, Col: 1}
		switch {
		case strings.HasPrefix(d.Name(), "."), kindOf(p) == ignoredFile:
		case l.badLink(p, d):
		case d.IsDir() || kindOf(p) != yamlPrompt:
			l.diags.Errorf(at, "%s/ holds one YAML file per tool (name.yaml), not %s", ir.ToolsDir, d.Name())
		default:
			stem, _, _ := strings.Cut(d.Name(), ".")
			tools[stem] = l.sharedTool(p) // nil when in error, reported
		}
	}
	return tools
}

// sharedTool reads one file of tools/: a tool named like the file.
func (l *loader) sharedTool(p string) *ir.ToolSpec {
	data, err := fs.ReadFile(l.fsys, p)
	if err != nil {
		l.ioError(err)
		return nil
	}
	file := l.path(p)
	f := &yamlFile{source: newSource(file, data), diags: &l.diags}
	doc, extra, err := parseYAML(data)
	switch {
	case err != nil:
		f.syntaxError(err)
		return nil
	case doc == nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode:
		f.diags.Errorf(src.Pos{File: file, Line: 1, Col: 1}, "a tool file holds a mapping with %s", strings.Join(toolKeys, ", "))
		return nil
	case extra != nil:
		f.errorf(extra, "a tool file holds one YAML document (remove the second)")
	}
	stem, _, _ := strings.Cut(path.Base(p), ".")
	t := f.tool(doc.Content[0], "", stem)
	if t == nil {
		return nil
	}
	t.Pos, t.Shared = src.Pos{File: file, Line: 1, Col: 1}, true
	if !toolName.MatchString(t.Name) {
		f.diags.Errorf(t.Pos, "tool name %q (the file's name) is not an identifier: letters, digits, _ and -, a letter first, at most 64", t.Name)
		return nil
	}
	return t
}

// tool reads a tool's mapping m; at is where it is in its file for
// schema messages ("tools[0]", or "" for a tool file), and name the name
// it must have ("" for an inline tool, whose name is required). It returns
// nil when its parameters are in error.
func (f *yamlFile) tool(m *yaml.Node, at, name string) *ir.ToolSpec {
	t := &ir.ToolSpec{Name: name, Pos: f.pos(m)}
	prefix := at
	if prefix != "" {
		prefix += "."
	}
	hasName := false
	var parameters *pair // read once strict is known
	for _, e := range f.entries(m, "key", false) {
		switch e.key {
		case schemaKey:
			f.str(e) // for editors
		case "name":
			hasName = true
			s, ok := f.str(e)
			switch {
			case !ok:
			case name != "" && s != name:
				f.errorf(e.v, "the tool in %s.yaml is named %q, not %q (a shared tool is named like its file)", name, name, s)
			default:
				t.Name, t.Pos = s, f.pos(e.v)
			}
		case "description":
			t.Description, _ = f.str(e)
		case "strict":
			t.Strict, _ = f.boolean(e)
		case "parameters":
			parameters = &e
		default:
			f.errorf(e.k, "unknown key %q of a tool%s", e.key, schema.DidYouMean(e.key, toolKeys))
		}
	}
	if name == "" && !hasName {
		f.errorf(m, "a tool needs a %q", "name")
	}
	if parameters == nil {
		// No arguments: the shorthand of none, an object without properties.
		parameters = &pair{key: "parameters", v: node(m, yaml.MappingNode)}
	}
	if t.Parameters = f.toolParameters(*parameters, prefix+"parameters", t.Strict); t.Parameters == nil {
		return nil // reported
	}
	return t
}

// toolParameters reads the JSON Schema of a tool's arguments, an object
// with properties, written as a schema or in the shorthand of inputs
// (parametersShorthand). A strict tool's schema must keep to strict mode.
func (f *yamlFile) toolParameters(e pair, at string, strict bool) *schema.Schema {
	n := e.v
	if n.Kind == yaml.MappingNode && !isParametersSchema(n) {
		if n = f.parametersShorthand(n, strict); n == nil {
			return nil
		}
	}
	s, diags := schema.Load(n, schema.Options{File: f.source.file, Path: at, Pos: f.schemaPos, Strict: strict})
	f.schemaDiags(diags)
	if s == nil {
		return nil
	}
	if s.Root.Type.Kind != schema.Object {
		f.errorf(e.v, "%s must be an object schema with properties (type: object): the arguments of a call are a JSON object", at)
		return nil
	}
	return s
}

// isParametersSchema tells a tool's parameters written as a JSON Schema
// from the shorthand: a schema has a type, properties or $ref, which no
// shorthand parameter is named.
func isParametersSchema(m *yaml.Node) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		switch m.Content[i].Value {
		case "type", "properties", "$ref":
			return true
		}
	}
	return false
}

// parametersShorthand returns the JSON Schema that the shorthand m of a
// tool's parameters stands for: as in inputs, names to types (string, int,
// number, bool, a [list], or a schema mapping), `?` or `optional: true`
// for one a call may leave out. For a strict tool such a parameter is
// required and nullable, and the object closed, as strict mode wants. The
// nodes made keep the positions of what they were written as, so that
// schema messages point into the file. It returns nil after reporting an
// error.
func (f *yamlFile) parametersShorthand(m *yaml.Node, strict bool) *yaml.Node {
	props, required := node(m, yaml.MappingNode), node(m, yaml.SequenceNode)
	ok := true
	for _, e := range f.entries(m, "parameter", true) {
		prop, optional := f.parameterShorthand(e.v)
		if prop == nil {
			ok = false
			continue
		}
		if optional && strict {
			prop = nullable(prop)
		}
		if !optional || strict {
			required.Content = append(required.Content, scalar(e.k, e.key))
		}
		props.Content = append(props.Content, e.k, prop)
	}
	if !ok {
		return nil
	}
	s := node(m, yaml.MappingNode)
	s.Content = append(s.Content, scalar(m, "type"), scalar(m, "object"), scalar(m, "properties"), props)
	if len(required.Content) > 0 {
		s.Content = append(s.Content, scalar(m, "required"), required)
	}
	if strict {
		s.Content = append(s.Content, scalar(m, "additionalProperties"), &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false", Line: m.Line, Column: m.Column})
	}
	return s
}

// parameterShorthand returns the schema of one shorthand parameter, and
// whether it is optional; nil after reporting an error.
func (f *yamlFile) parameterShorthand(n *yaml.Node) (*yaml.Node, bool) {
	switch {
	case isString(n):
		name, optional := strings.CutSuffix(n.Value, "?")
		jsonType, ok := parameterTypes[name]
		if !ok {
			hint := schema.DidYouMean(name, shorthandNames)
			switch name {
			case "object":
				hint = " (write an object parameter's schema: {type: object, properties: ...})"
			case "image":
				hint = " (a tool's arguments are JSON: images are inputs of prompts)"
			}
			f.errorf(n, "unknown parameter type %q%s", name, hint)
			return nil, false
		}
		s := node(n, yaml.MappingNode)
		s.Content = append(s.Content, scalar(n, "type"), scalar(n, jsonType))
		return s, optional
	case n.Kind == yaml.SequenceNode && len(n.Content) == 1:
		items, optional := f.parameterShorthand(n.Content[0])
		if optional {
			f.errorf(n.Content[0], "list elements cannot be optional")
			return nil, false
		}
		if items == nil {
			return nil, false
		}
		s := node(n, yaml.MappingNode)
		s.Content = append(s.Content, scalar(n, "type"), scalar(n, "array"), scalar(n, "items"), items)
		return s, false
	case n.Kind == yaml.SequenceNode:
		f.errorf(n, "a list type has exactly one element type, like [string]")
		return nil, false
	case n.Kind == yaml.MappingNode:
		s := node(n, yaml.MappingNode)
		optional := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Value == "optional" {
				optional, _ = f.boolean(pair{key: k.Value, k: k, v: n.Content[i+1]})
				continue
			}
			s.Content = append(s.Content, n.Content[i], n.Content[i+1])
		}
		return s, optional
	}
	f.wrongKind(n, "a parameter's type", `a name like "string", a list like [string] or a schema mapping`)
	return nil, false
}

// parameterTypes are the JSON types of the shorthand's type names.
var parameterTypes = map[string]string{
	"string": "string", "int": "integer", "integer": "integer", "number": "number", "float": "number",
	"bool": "boolean", "boolean": "boolean",
}

// nullable returns schema s also accepting null, as strict mode writes a
// parameter a call may leave out: null added to its type (and enum), or
// anyOf it and {type: "null"}. The file's own nodes are not changed.
func nullable(s *yaml.Node) *yaml.Node {
	out := node(s, yaml.MappingNode)
	typed := false
	for i := 0; i+1 < len(s.Content); i += 2 {
		k, v := s.Content[i], s.Content[i+1]
		switch {
		case k.Value == "type" && (v.Kind == yaml.ScalarNode || v.Kind == yaml.SequenceNode):
			typed = true
			v = withNull(v, scalar(v, "null"))
		case k.Value == "enum" && v.Kind == yaml.SequenceNode:
			v = withNull(v, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null", Line: v.Line, Column: v.Column})
		}
		out.Content = append(out.Content, k, v)
	}
	if typed {
		return out
	}
	null := node(s, yaml.MappingNode)
	null.Content = []*yaml.Node{scalar(s, "type"), scalar(s, "null")}
	branches := node(s, yaml.SequenceNode)
	branches.Content = []*yaml.Node{s, null}
	wrapped := node(s, yaml.MappingNode)
	wrapped.Content = []*yaml.Node{scalar(s, "anyOf"), branches}
	return wrapped
}

// withNull returns a list of v's items (or of v, a scalar) and null,
// unless they hold it.
func withNull(v, null *yaml.Node) *yaml.Node {
	list := node(v, yaml.SequenceNode)
	if v.Kind == yaml.SequenceNode {
		list.Content = append(list.Content, v.Content...)
	} else {
		list.Content = append(list.Content, v)
	}
	for _, item := range list.Content {
		if item.Tag == null.Tag && item.Value == null.Value {
			return list
		}
	}
	list.Content = append(list.Content, null)
	return list
}

// node returns an empty node of kind at the position of at.
func node(at *yaml.Node, kind yaml.Kind) *yaml.Node {
	n := &yaml.Node{Kind: kind, Line: at.Line, Column: at.Column}
	if kind == yaml.MappingNode {
		n.Tag = "!!map"
	} else {
		n.Tag = "!!seq"
	}
	return n
}

// scalar returns the string value at the position of at.
func scalar(at *yaml.Node, value string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value, Line: at.Line, Column: at.Column}
}

// tools reads a prompt's `tools:` list: inline tools (mappings) and names
// of shared tools, which Prompts resolves.
func (f *yamlFile) tools(e pair) []ir.ToolUse {
	if e.v.Kind != yaml.SequenceNode {
		f.wrongKind(e.v, `"tools"`, "a list of tools (mappings, or names of tools/ files)")
		return nil
	}
	var uses []ir.ToolUse
	for i, n := range e.v.Content {
		switch {
		case isString(n):
			uses = append(uses, ir.ToolUse{Name: n.Value, Pos: f.pos(n)})
		case n.Kind == yaml.MappingNode:
			t := f.tool(n, "tools["+strconv.Itoa(i)+"]", "")
			if t == nil || t.Name == "" {
				continue
			}
			if !toolName.MatchString(t.Name) {
				f.errorf(n, "tool name %q is not an identifier: letters, digits, _ and -, a letter first, at most 64", t.Name)
				continue
			}
			uses = append(uses, ir.ToolUse{Tool: t, Pos: t.Pos})
		default:
			f.wrongKind(n, "a tool", "a mapping, or the name of a tools/ file")
		}
	}
	return uses
}

// resolveTools resolves the names of shared tools in d, a prompt's or a
// set's, and checks that no tool is declared twice and that tool_choice
// names one.
func (l *loader) resolveTools(d *ir.ToolDecl, shared map[string]*ir.ToolSpec) {
	var sharedNames []string
	for name := range shared {
		sharedNames = append(sharedNames, name)
	}
	slices.Sort(sharedNames)
	seen := map[string]src.Pos{}
	var declared []string
	uses := d.Tools[:0]
	for _, u := range d.Tools {
		if u.Tool == nil {
			t, exists := shared[u.Name]
			switch {
			case !exists:
				l.diags.Errorf(u.Pos, "no tool %q in %s/%s", u.Name, ir.ToolsDir, schema.DidYouMean(u.Name, sharedNames))
				continue
			case t == nil:
				l.diags.Errorf(u.Pos, "tool %q: %s/%s.yaml has errors", u.Name, ir.ToolsDir, u.Name)
				declared = append(declared, u.Name)
				continue
			}
			u.Tool = t
		}
		name := u.Tool.Name
		if prev, dup := seen[name]; dup {
			l.diags.Errorf(prev, "tool %q is declared twice (also at %s)", name, src.ShortPos(u.Pos, prev))
			l.diags.Errorf(u.Pos, "tool %q is declared twice (also at %s)", name, src.ShortPos(prev, u.Pos))
			continue
		}
		seen[name] = u.Pos
		declared = append(declared, name)
		uses = append(uses, u)
	}
	d.Tools = uses
	if c := d.ToolChoice; c != "" && !slices.Contains(toolChoices, c) && !slices.Contains(declared, c) {
		switch {
		case len(declared) == 0:
			l.diags.Errorf(d.ToolChoicePos, "tool_choice %q: no tools are declared", c)
		default:
			l.diags.Errorf(d.ToolChoicePos, "tool_choice %q is neither auto, none, required nor a declared tool%s",
				c, schema.DidYouMean(c, append(slices.Clone(toolChoices), declared...)))
		}
		d.ToolChoice = ""
	}
}
