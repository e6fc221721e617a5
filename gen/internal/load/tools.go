package load

import (
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

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

// sharedTools reads the tools/ folder at the root, by name. A tools/
// folder with a promptset.yaml is a template set, with no shared tools.
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
			if t := l.sharedTool(p); t != nil {
				tools[t.Name] = t
			}
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
	hasName, hasParameters := false, false
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
			hasParameters = true
			t.Parameters = f.toolParameters(e, prefix+"parameters")
		default:
			f.errorf(e.k, "unknown key %q of a tool%s", e.key, schema.DidYouMean(e.key, toolKeys))
		}
	}
	if name == "" && !hasName {
		f.errorf(m, "a tool needs a %q", "name")
	}
	switch {
	case hasParameters && t.Parameters == nil:
		return nil // reported
	case !hasParameters:
		t.Parameters = f.noArguments()
	}
	return t
}

// noArguments is the parameters of a tool that declares none: an object
// without properties.
func (f *yamlFile) noArguments() *schema.Schema {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("{type: object, properties: {}}"), &n); err != nil {
		panic(err) // a constant
	}
	s, _ := schema.Load(n.Content[0], schema.Options{File: f.source.file, Path: "parameters"})
	return s
}

// toolParameters reads the JSON Schema of a tool's arguments: an object
// with properties.
func (f *yamlFile) toolParameters(e pair, at string) *schema.Schema {
	s, diags := schema.Load(e.v, schema.Options{File: f.source.file, Path: at, Pos: f.schemaPos})
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

// resolveTools resolves the names of shared tools in pr's `tools:`, and
// checks that no tool is declared twice and that tool_choice names one.
func (l *loader) resolveTools(pr *ir.PromptSpec, shared map[string]*ir.ToolSpec) {
	var sharedNames []string
	for name := range shared {
		sharedNames = append(sharedNames, name)
	}
	slices.Sort(sharedNames)
	seen := map[string]src.Pos{}
	var declared []string
	uses := pr.Tools[:0]
	for _, u := range pr.Tools {
		if u.Tool == nil {
			u.Tool = shared[u.Name]
			if u.Tool == nil {
				l.diags.Errorf(u.Pos, "no tool %q in %s/%s", u.Name, ir.ToolsDir, schema.DidYouMean(u.Name, sharedNames))
				continue
			}
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
	pr.Tools = uses
	if c := pr.ToolChoice; c != "" && !slices.Contains(toolChoices, c) && !slices.Contains(declared, c) {
		switch {
		case len(declared) == 0:
			l.diags.Errorf(pr.ToolChoicePos, "tool_choice %q: the prompt declares no tools", c)
		default:
			l.diags.Errorf(pr.ToolChoicePos, "tool_choice %q is neither auto, none, required nor a tool of the prompt%s",
				c, schema.DidYouMean(c, append(slices.Clone(toolChoices), declared...)))
		}
		pr.ToolChoice = ""
	}
}
