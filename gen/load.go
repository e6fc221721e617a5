package gen

import (
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

var templateExts = map[string]bool{".jinja": true, ".j2": true, ".md": true, ".txt": true}

var promptKeys = []string{"components", "description", "examples", "go_name", "inputs", "jinja", "messages",
	"model", "outputFormat", "outputSchema", "parameters", "sections", "template"}

// loadPrompts reads every standalone prompt below the root of fsys, sorted
// by path. display prefixes paths in diagnostics.
func loadPrompts(fsys fs.FS, display string) ([]*Prompt, Diagnostics) {
	var paths []string
	sets := map[string]bool{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if _, err := fs.Stat(fsys, path.Join(p, "promptset.yaml")); err == nil {
				sets[p] = true
				return fs.SkipDir
			}
			return nil
		}
		ext := path.Ext(p)
		if ext == ".yaml" || ext == ".yml" || templateExts[ext] {
			paths = append(paths, p)
		}
		return nil
	})
	s := &diagSink{}
	if err != nil {
		s.errorf(Pos{}, "load: %v", err)
		return nil, s.list
	}
	sort.Strings(paths)
	var prompts []*Prompt
	byKey := map[string]*Prompt{}
	for _, p := range paths {
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			s.errorf(Pos{}, "load: %v", err)
			continue
		}
		pr := &Prompt{Path: path.Join(display, p), Key: strings.TrimSuffix(p, path.Ext(p))}
		pr.Pos = Pos{File: pr.Path, Line: 1, Col: 1}
		if templateExts[path.Ext(p)] {
			pr.Template = string(src)
			pr.Map = plainMap(pr.Path, pr.Template, 1, 1)
		} else if !loadYAML(pr, src, s) {
			continue
		}
		if other := byKey[pr.Key]; other != nil {
			s.errorf(pr.Pos, "prompt %q is also defined by %s", pr.Key, other.Path)
			s.errorf(other.Pos, "prompt %q is also defined by %s", pr.Key, pr.Path)
			continue
		}
		byKey[pr.Key] = pr
		prompts = append(prompts, pr)
	}
	return prompts, s.list
}

// plainMap maps a template that starts at line:col of file and continues
// at column 1 of the following lines.
func plainMap(file, text string, line, col int) SourceMap {
	m := SourceMap{File: file, Lines: []LineStart{{Offset: 0, Line: line, Col: col}}}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			line++
			m.Lines = append(m.Lines, LineStart{Offset: i + 1, Line: line, Col: 1})
		}
	}
	return m
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

func loadYAML(pr *Prompt, src []byte, s *diagSink) bool {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		msg := err.Error()
		pos := Pos{File: pr.Path, Line: 1, Col: 1}
		if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
			pos.Line, _ = strconv.Atoi(m[1])
			msg = m[2]
			pos.Col = firstNonBlank(src, pos.Line)
		} else {
			msg = strings.TrimPrefix(msg, "yaml: ")
		}
		s.errorf(pos, "invalid YAML: %s%s", msg, dedentHint(src, pos.Line))
		return false
	}
	if len(doc.Content) == 0 {
		s.errorf(pr.Pos, "empty prompt file (it needs a template)")
		return false
	}
	root := doc.Content[0]
	at := func(n *yaml.Node) Pos { return Pos{File: pr.Path, Line: n.Line, Col: n.Column} }
	if root.Kind != yaml.MappingNode {
		s.errorf(at(root), "a prompt file must be a mapping of keys such as template and inputs")
		return false
	}
	before := len(s.list)
	seen := map[string]*yaml.Node{}
	var template *yaml.Node
	hasMessages := false
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if first := seen[k.Value]; first != nil {
			s.errorf(at(k), "duplicate key %q (first at line %d)", k.Value, first.Line)
			continue
		}
		seen[k.Value] = k
		switch k.Value {
		case "description":
			pr.Description = scalarString(v, "description", at, s)
		case "model":
			pr.Model = scalarString(v, "model", at, s)
		case "go_name":
			scalarString(v, "go_name", at, s)
			s.errorf(at(k), "go_name on a prompt is not supported yet")
		case "template":
			template = v
		case "parameters":
			if v.Kind != yaml.MappingNode {
				s.errorf(at(v), "parameters must be a mapping")
				continue
			}
			pr.Parameters = params(v, at)
		case "outputFormat":
			if f := scalarString(v, "outputFormat", at, s); f != "json" && f != "text" && f != "yaml" && f != "xml" {
				s.errorf(at(v), "outputFormat must be one of json, text, yaml, xml, not %q", f)
			}
		case "jinja":
			loadJinja(pr, v, at, s)
		case "inputs":
			pr.Inputs = loadInputs(v, at, s)
		case "messages", "sections":
			hasMessages = true
			s.errorf(at(k), "%q is not supported yet", k.Value)
		case "outputSchema", "examples", "components":
		default:
			s.errorf(at(k), "unknown key %q%s", k.Value, didYouMean(k.Value, promptKeys))
		}
	}
	switch {
	case template == nil && !hasMessages:
		s.errorf(at(root), "missing key \"template\"")
	case template != nil && (template.Kind != yaml.ScalarNode || template.Tag != "!!str"):
		s.errorf(at(template), "template must be a string")
	case template != nil:
		pr.Template = template.Value
		pr.Map = templateMap(pr.Path, src, template)
	}
	return len(s.list) == before
}

// firstNonBlank is the column of the first non-blank byte of a line.
func firstNonBlank(src []byte, line int) int {
	lines := strings.Split(string(src), "\n")
	if line < 1 || line > len(lines) {
		return 1
	}
	return len(lines[line-1]) - len(strings.TrimLeft(lines[line-1], " \t")) + 1
}

// dedentHint explains the usual cause of a YAML error in a prompt file: a
// template line indented less than its block scalar, which ends the block.
func dedentHint(src []byte, line int) string {
	lines := strings.Split(string(src), "\n")
	for i := min(line, len(lines)) - 1; i >= 0; i-- {
		l := lines[i]
		if strings.HasSuffix(strings.TrimRight(l, " "), ": |") || strings.HasSuffix(strings.TrimRight(l, " "), ": |-") {
			key := strings.TrimSpace(strings.SplitN(l, ":", 2)[0])
			return " (a line after the block scalar \"" + key + "\" at line " + strconv.Itoa(i+1) + " is indented less than the block, which ends it: indent every template line)"
		}
	}
	return ""
}

func scalarString(v *yaml.Node, key string, at func(*yaml.Node) Pos, s *diagSink) string {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
		s.errorf(at(v), "%s must be a string", key)
		return ""
	}
	return v.Value
}

func params(m *yaml.Node, at func(*yaml.Node) Pos) []Param {
	var out []Param
	for i := 0; i+1 < len(m.Content); i += 2 {
		out = append(out, Param{Key: m.Content[i].Value, Value: yamlValue(m.Content[i+1], at), Pos: at(m.Content[i])})
	}
	return out
}

func yamlValue(v *yaml.Node, at func(*yaml.Node) Pos) any {
	switch v.Kind {
	case yaml.MappingNode:
		return params(v, at)
	case yaml.SequenceNode:
		var out []any
		for _, x := range v.Content {
			out = append(out, yamlValue(x, at))
		}
		return out
	}
	switch v.Tag {
	case "!!int":
		if i, err := strconv.ParseInt(v.Value, 0, 64); err == nil {
			return i
		}
	case "!!float":
		if f, err := strconv.ParseFloat(v.Value, 64); err == nil {
			return f
		}
	case "!!bool":
		return v.Value == "true" || v.Value == "True" || v.Value == "TRUE"
	case "!!null":
		return nil
	}
	return v.Value
}

func loadJinja(pr *Prompt, v *yaml.Node, at func(*yaml.Node) Pos, s *diagSink) {
	if v.Kind != yaml.MappingNode {
		s.errorf(at(v), "jinja must be a mapping")
		return
	}
	opts := map[string]*bool{
		"trim_blocks":           &pr.Jinja.TrimBlocks,
		"lstrip_blocks":         &pr.Jinja.LstripBlocks,
		"keep_trailing_newline": &pr.Jinja.KeepTrailingNewline,
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		dst, ok := opts[k.Value]
		if !ok {
			s.errorf(at(k), "unknown jinja option %q%s", k.Value, didYouMean(k.Value, sortedKeys(opts)))
			continue
		}
		if val.Tag != "!!bool" {
			s.errorf(at(val), "jinja option %s must be true or false", k.Value)
			continue
		}
		*dst = val.Value == "true"
	}
}

// templateMap locates a template scalar's bytes in the file: exact for
// literal block scalars and single-line scalars, the scalar's start for
// the rest.
func templateMap(file string, src []byte, n *yaml.Node) SourceMap {
	switch n.Style {
	case yaml.LiteralStyle:
		lines := strings.Split(string(src), "\n")
		indent := 0
		for _, l := range lines[n.Line:] {
			if strings.TrimSpace(l) != "" {
				indent = len(l) - len(strings.TrimLeft(l, " "))
				break
			}
		}
		m := SourceMap{File: file}
		off := 0
		for i, l := range strings.SplitAfter(n.Value, "\n") {
			m.Lines = append(m.Lines, LineStart{Offset: off, Line: n.Line + 1 + i, Col: indent + 1})
			off += len(l)
		}
		return m
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		return plainMap(file, n.Value, n.Line, n.Column+1)
	case 0:
		return plainMap(file, n.Value, n.Line, n.Column)
	}
	return SourceMap{File: file, Lines: []LineStart{{Line: n.Line, Col: n.Column}}}
}
