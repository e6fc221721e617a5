package load

// This file loads template sets (DESIGN §1): a directory holding a
// promptset.yaml. Inside a set, directories are namespaces
// ([root_space/]type), a file's name up to its first dot is the template
// name and the rest before the extension its version
// (BrowseLink.enterprise.jinja), and the files of a components/ directory
// are the partials of the namespace that holds it. promptset.yaml holds
// the set's settings and may define templates and components inline:
//
//	$schema: ...              # the JSON Schema, for editors; ignored
//	description: ...          # doc comment of the generated type
//	go_name: Agent            # the set's Go name; default: from the directory
//	default_type: main        # the active type of a new manager
//	default_name: default     # every namespace's fallback template
//	model: ...                # defaults for templates that name none
//	parameters: {...}         # checked against runtime/params
//	extra_parameters: {...}   # a provider's own knobs, sent as they are
//	inputs: {...}             # the feed, declared (as in a prompt file)
//	jinja: {...}              # environment options of every template
//	variables: {allowed: [...], unknown: warn|error}  # of every template and component
//	components:               # partials of the set's root namespace
//	  preamble: "text"
//	  style:                  # versioned: the spec's list form
//	    - {version: concise, content: "..."}
//	templates:                # the spec's nested-dict form
//	  main:
//	    default: "..."
//	    BrowseLink.enterprise: "..."
//	    Search: {template: "...", model: ...}
//	    components: {...}
//	default_template: "..."   # the system fallback after every path, as a template under templates:
//	predefined_variables:     # the predefined_variables switch: named sets of feed values
//	  acme: {company: ACME Corp, tone: formal}
//
// In templates:, a mapping with a "template" key is one template (the
// keys of a prompt file that apply to one template of a set); any other
// mapping is a namespace.

import (
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/schema"
	"gopkg.in/yaml.v3"
)

// Read-only tables of the set format.
var (
	setKeys = []string{schemaKey, "description", "go_name", "default_type", "default_name", "model",
		"parameters", "extra_parameters", "inputs", "jinja", "components", "templates", "variables", "fragments",
		"autobind", "default_template", "predefined_variables", "tools", "tool_choice", "special_tokens", "filters"}
	setTemplateKeys  = []string{schemaKey, "description", "go_name", "model", "parameters", "extra_parameters", "template"}
	setComponentKeys = []string{schemaKey, "description", "template"}
	componentEntry   = []string{"version", "content"}
)

// Sets reads every template set below the root of fsys, sorted by key,
// resolving the names in their `tools:` in tools (Tools' result). display
// is the prefix of paths in diagnostics, as for Prompts.
func Sets(fsys fs.FS, display string, tools map[string]*ir.ToolSpec) ([]*ir.SetSpec, diag.Diagnostics) {
	l := &loader{fsys: fsys, display: display}
	var sets []*ir.SetSpec
	for _, dir := range FindSets(fsys) {
		if s := l.loadSet(dir); s != nil {
			l.resolveTools(&s.ToolDecl, tools)
			sets = append(sets, s)
		}
	}
	return sets, l.diags.List
}

// FindSets returns the directories holding a promptset.yaml, sorted; as
// Prompts' walk, it skips hidden directories, and it does not look
// inside a set (loadSet reports a set inside a set).
func FindSets(fsys fs.FS) []string {
	var dirs []string
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil: // Prompts reports it
		case !d.IsDir():
		case p != "." && strings.HasPrefix(d.Name(), "."):
			return fs.SkipDir
		case isSetDir(fsys, p):
			dirs = append(dirs, p)
			return fs.SkipDir
		}
		return nil
	})
	sort.Strings(dirs)
	return dirs
}

func isSetDir(fsys fs.FS, dir string) bool {
	_, err := fs.Stat(fsys, path.Join(dir, ir.SetFile))
	return err == nil
}

// setLoader is the state of loading one set.
type setLoader struct {
	*loader
	set *ir.SetSpec
	dir string // the set's directory in fsys
	// defs records where each template path and component version is
	// defined, to report duplicates at every definition.
	defs map[string][]src.Pos
}

// loadSet reads the set in directory dir. It returns nil when
// promptset.yaml cannot be read or is not valid YAML.
func (l *loader) loadSet(dir string) *ir.SetSpec {
	file := path.Join(dir, ir.SetFile)
	data, err := fs.ReadFile(l.fsys, file)
	if err != nil {
		l.ioError(err)
		return nil
	}
	s := &ir.SetSpec{Key: dir, Path: l.path(file), Pos: src.Pos{File: l.path(file), Line: 1, Col: 1},
		DefaultType: "main", DefaultName: defaultName}
	if dir == "." {
		s.Key = ""
	}
	sl := &setLoader{loader: l, set: s, dir: dir, defs: map[string][]src.Pos{}}
	f := &yamlFile{source: newSource(s.Path, data), diags: &l.diags}
	if !sl.settings(f) {
		return nil
	}
	sl.walk()
	sl.duplicates()
	for _, t := range s.Templates {
		t.Prompt.Jinja, t.Prompt.Chat, t.Prompt.Filters = s.Jinja, s.Chat, s.Filters
	}
	for _, c := range s.Components {
		c.Prompt.Jinja, c.Prompt.Chat, c.Prompt.Filters = s.Jinja, s.Chat, s.Filters
	}
	for _, fr := range s.Fragments {
		if fr.Path == s.Path { // inline: the set's options
			fr.Jinja = s.Jinja
		}
		fr.Filters = s.Filters
	}
	sort.SliceStable(s.Fragments, func(i, j int) bool { return s.Fragments[i].Key < s.Fragments[j].Key })
	sort.SliceStable(s.Templates, func(i, j int) bool { return s.Templates[i].Path < s.Templates[j].Path })
	sort.SliceStable(s.Components, func(i, j int) bool {
		a, b := s.Components[i], s.Components[j]
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Version == "" && b.Version != "" // unversioned first, else as declared
	})
	if len(s.Templates) == 0 {
		l.diags.Errorf(s.Pos, "template set %q has no templates", s.Key)
	}
	return s
}

// defaultName is the built-in fallback name of every namespace, as in runtime.
const defaultName = "default"

// settings decodes promptset.yaml. It reports false when the file is not a
// mapping (an empty file is a set with every default).
func (sl *setLoader) settings(f *yamlFile) bool {
	s := sl.set
	doc, extra, err := parseYAML(f.source.data)
	switch {
	case err != nil:
		f.syntaxError(err)
		return false
	case doc == nil || len(doc.Content) == 0:
		return true
	case extra != nil:
		f.errorf(extra, "%s holds one YAML document (remove the second)", ir.SetFile)
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		f.wrongKind(root, ir.SetFile, "a mapping")
		return false
	}
	var specialTokensKey *yaml.Node
	for _, e := range f.entries(root, "key", false) {
		switch e.key {
		case schemaKey:
			f.str(e)
		case "description":
			s.Description, _ = f.str(e)
		case "go_name":
			s.GoName, _ = f.str(e)
			s.GoNamePos = f.pos(e.v)
		case "default_type":
			if v, ok := f.str(e); ok {
				if v != "" && !validNamespace(v) {
					f.errorf(e.v, "invalid default_type %q (a namespace: names separated by \"/\")", v)
				}
				s.DefaultType = v
			}
		case "default_name":
			if v, ok := f.str(e); ok {
				if !validName(v) {
					f.errorf(e.v, "invalid default_name %q (a template name, without \"/\" or \".\")", v)
				}
				s.DefaultName = v
			}
		case "model":
			s.Model, _ = f.str(e)
		case "parameters":
			if f.isMapping(e) {
				s.Parameters = f.params(e.v)
			}
		case "extra_parameters":
			if f.isMapping(e) {
				s.ExtraParameters = f.extraParams(e.v)
			}
		case "inputs":
			if isString(e.v) && e.v.Value == "chat" {
				s.Chat = true // runtime/chat.Context and the variables the templates read
			} else if f.isMapping(e) {
				s.Inputs = f.inputs(e.v)
				f.noImageInputs(s.Inputs, "a template set")
			}
		case "jinja":
			if f.isMapping(e) {
				s.Jinja = f.jinja(e.v)
			}
		case "autobind":
			s.Autobind = f.autobind(e.v)
		case "filters":
			s.Filters = f.filters(e)
		case "variables":
			if f.isMapping(e) {
				s.Variables = f.variables(e.v)
			}
		case "fragments":
			if f.isMapping(e) {
				sl.inlineFragments(f, e.v)
			}
		case "components":
			if f.isMapping(e) {
				sl.inlineComponents(f, "", e.v)
			}
		case "templates":
			if f.isMapping(e) {
				sl.inlineNamespace(f, "", e.v)
			}
		case "default_template":
			sl.defaultTemplate(f, e)
		case "predefined_variables":
			if f.isMapping(e) {
				sl.predefined(f, e.v)
			}
		case "tools":
			s.Tools = f.tools(e)
		case "tool_choice":
			s.ToolChoice, _ = f.str(e)
			s.ToolChoicePos = f.pos(e.v)
		case "special_tokens":
			specialTokensKey = e.k
			s.SpecialTokens = f.specialTokens(e)
		default:
			hint := schema.DidYouMean(e.key, setKeys)
			if hint == "" && (e.key == "template" || e.key == "type" || e.key == "version") {
				hint = " (" + ir.SetFile + " holds the set's settings; templates go in files or under \"templates\")"
			}
			f.errorf(e.k, "unknown key %q%s", e.key, hint)
		}
	}
	if specialTokensKey != nil && !s.Chat {
		f.errorf(specialTokensKey, "%q is for chat templates (a set with %q)", "special_tokens", "inputs: chat")
		s.SpecialTokens = nil
	}
	return true
}

// validName reports whether s can name a template or component: not empty,
// no "/" (namespaces are directories) and no "." (it starts the version).
func validName(s string) bool {
	return s != "" && !strings.ContainsAny(s, "/.") && !strings.HasPrefix(s, "~")
}

// validNamespace reports whether s is names joined by "/".
func validNamespace(s string) bool {
	for _, seg := range strings.Split(s, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// splitVersion splits a file stem or inline key at its first dot into
// name and version.
func splitVersion(stem string) (name, version string, ok bool) {
	name, version, dotted := strings.Cut(stem, ".")
	validVersion := !dotted || version != "" && !strings.HasSuffix(version, ".") &&
		!strings.HasPrefix(version, ".") && !strings.Contains(version, "..")
	return name, version, name != "" && !strings.Contains(name, "/") && validVersion
}

// walk loads the set's files: templates, and the files of components/.
func (sl *setLoader) walk() {
	_ = fs.WalkDir(sl.fsys, sl.dir, func(p string, d fs.DirEntry, err error) error {
		rel := strings.TrimPrefix(strings.TrimPrefix(p, sl.dir), "/")
		if sl.dir == "." {
			rel = p
		}
		switch {
		case err != nil:
			sl.ioError(err)
		case p != sl.dir && strings.HasPrefix(d.Name(), "."):
			if d.IsDir() {
				return fs.SkipDir
			}
		case sl.badLink(p, d):
		case d.IsDir() && p != sl.dir && isSetDir(sl.fsys, p):
			sl.diags.Errorf(src.Pos{File: sl.path(path.Join(p, ir.SetFile)), Line: 1, Col: 1},
				"template set %q is inside template set %q (sets cannot nest)", p, sl.set.Key)
			return fs.SkipDir
		case d.IsDir():
		case rel == ir.SetFile || !sl.isPrompt(p):
		case strings.HasPrefix(rel, ir.FragmentsDir+"/"):
			if pr := sl.load(p, true); pr != nil {
				sl.set.Fragments = append(sl.set.Fragments, pr)
			}
		default:
			sl.file(p, rel)
		}
		return nil
	})
}

// file loads one template or component file; rel is its path in the set.
func (sl *setLoader) file(p, rel string) {
	file := sl.path(p)
	start := src.Pos{File: file, Line: 1, Col: 1}
	dir, base := path.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	stem := strings.TrimSuffix(base, path.Ext(base))
	name, version, ok := splitVersion(stem)
	if !ok {
		sl.diags.Errorf(start, "invalid template file name %q (want name.ext or name.version.ext)", base)
		return
	}
	component := false
	var segs []string
	if dir != "" {
		segs = strings.Split(dir, "/")
	}
	for i, seg := range segs {
		if seg != ir.ComponentsDir {
			continue
		}
		if i != len(segs)-1 {
			sl.diags.Errorf(start, "%s/ holds component files, not directories", ir.ComponentsDir)
			return
		}
		component, segs = true, segs[:i]
	}
	ns := strings.Join(segs, "/")
	data, err := fs.ReadFile(sl.fsys, p)
	if err != nil {
		sl.ioError(err)
		return
	}
	pr := &ir.PromptSpec{Path: file, Pos: start}
	source := newSource(file, data)
	if kindOf(p) == plainPrompt {
		pr.Template = string(data)
		pr.Map = src.SourceMap{File: file, Lines: source.literalLines(pr.Template, 0)}
	} else {
		f := &yamlFile{source: source, diags: &sl.diags}
		m := sl.yamlRoot(f)
		if m == nil {
			return
		}
		if !sl.spec(f, m, pr, component) {
			return
		}
	}
	if component {
		sl.addComponent(&ir.ComponentSpec{Namespace: ns, Name: name, Version: version, Prompt: pr})
	} else {
		sl.addTemplate(&ir.SetTemplateSpec{Namespace: ns, Name: name, Version: version, Prompt: pr,
			GoName: pr.GoName, GoNamePos: pr.GoNamePos})
	}
}

// yamlRoot returns the top-level mapping of a YAML template file, or nil
// after reporting why there is none.
func (sl *setLoader) yamlRoot(f *yamlFile) *yaml.Node {
	start := src.Pos{File: f.source.file, Line: 1, Col: 1}
	doc, extra, err := parseYAML(f.source.data)
	switch {
	case err != nil:
		f.syntaxError(err)
		return nil
	case doc == nil || len(doc.Content) == 0:
		f.diags.Errorf(start, "empty template file (want a mapping with a %q key)", "template")
		return nil
	case extra != nil:
		f.errorf(extra, "a template file holds one YAML document (remove the second)")
	}
	if doc.Content[0].Kind != yaml.MappingNode {
		f.wrongKind(doc.Content[0], "a template file", "a mapping")
		return nil
	}
	return doc.Content[0]
}

// spec decodes a template (or, with component set, a component) given as a
// mapping: in a YAML file of the set or inline under templates:. It
// reports false when there is no template.
func (sl *setLoader) spec(f *yamlFile, m *yaml.Node, pr *ir.PromptSpec, component bool) bool {
	allowed := setTemplateKeys
	if component {
		allowed = setComponentKeys
	}
	hasTemplate := false
	for _, e := range f.entries(m, "key", false) {
		known := false
		for _, k := range allowed {
			known = known || k == e.key
		}
		if !known {
			switch {
			case e.key == "inputs" || e.key == "jinja" || e.key == "tools" || e.key == "tool_choice":
				f.errorf(e.k, "%q applies to the whole set: set it in %s", e.key, ir.SetFile)
			case component && (e.key == "model" || e.key == "parameters" || e.key == "extra_parameters" || e.key == "go_name"):
				f.errorf(e.k, "a component has no %q (it renders inside templates)", e.key)
			case inList(e.key, topLevelKeys):
				f.errorf(e.k, "%q is not supported in a template set yet", e.key)
			default:
				f.errorf(e.k, "unknown key %q%s", e.key, schema.DidYouMean(e.key, allowed))
			}
			continue
		}
		if f.metadata(e, pr) {
			continue
		}
		if e.key == "template" {
			hasTemplate = true
			if s, ok := f.str(e); ok {
				pr.Template = s
				pr.Map = src.SourceMap{File: f.source.file, Lines: f.templateLines(e.v)}
			} else {
				return false
			}
		}
	}
	if !hasTemplate {
		f.errorf(m, "missing key %q", "template")
	}
	return hasTemplate
}

func inList(s string, list []string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// inlineNamespace loads the entries of a namespace under templates:.
func (sl *setLoader) inlineNamespace(f *yamlFile, ns string, m *yaml.Node) {
	for _, e := range f.entries(m, "template", true) {
		switch {
		case e.key == ir.ComponentsDir:
			if f.isMapping(e) {
				sl.inlineComponents(f, ns, e.v)
			}
		case e.v.Kind == yaml.MappingNode && !hasKey(e.v, "template"):
			if !validName(e.key) {
				f.errorf(e.k, "invalid namespace %q (a name, without \"/\" or \".\")", e.key)
				continue
			}
			sl.inlineNamespace(f, path.Join(ns, e.key), e.v)
		default:
			name, version, ok := splitVersion(e.key)
			if !ok {
				f.errorf(e.k, "invalid template name %q (want name or name.version)", e.key)
				continue
			}
			pr := &ir.PromptSpec{Path: f.source.file, Pos: f.pos(e.k)}
			if e.v.Kind == yaml.MappingNode {
				if !sl.spec(f, e.v, pr, false) {
					continue
				}
			} else {
				s, ok := f.str(e)
				if !ok {
					continue
				}
				pr.Template = s
				pr.Map = src.SourceMap{File: f.source.file, Lines: f.templateLines(e.v)}
			}
			sl.addTemplate(&ir.SetTemplateSpec{Namespace: ns, Name: name, Version: version, Prompt: pr,
				GoName: pr.GoName, GoNamePos: pr.GoNamePos})
		}
	}
}

// defaultTemplate loads default_template, the set's system default (the
// spec's TemplateManager(default_template=...)): a template string, or a
// mapping with the keys of a template under templates:. Its path is
// ir.DefaultTemplatePath, so a template of that name at the set's root
// is reported as a duplicate.
func (sl *setLoader) defaultTemplate(f *yamlFile, e pair) {
	pr := &ir.PromptSpec{Path: f.source.file, Pos: f.pos(e.k)}
	if e.v.Kind == yaml.MappingNode {
		if !sl.spec(f, e.v, pr, false) {
			return
		}
		if pr.GoName != "" {
			sl.diags.Errorf(pr.GoNamePos, "default_template has no key constant to name (remove go_name)")
		}
	} else {
		s, ok := f.str(e)
		if !ok {
			return
		}
		pr.Template = s
		pr.Map = src.SourceMap{File: f.source.file, Lines: f.templateLines(e.v)}
	}
	sl.addTemplate(&ir.SetTemplateSpec{Name: ir.DefaultTemplatePath, Prompt: pr, System: true})
}

// predefined loads predefined_variables: each name maps to values of feed
// fields, checked against the feed's types once it is known.
func (sl *setLoader) predefined(f *yamlFile, m *yaml.Node) {
	for _, e := range f.entries(m, "predefined variable set", true) {
		if e.key == "" {
			f.errorf(e.k, "a predefined variable set needs a name")
			continue
		}
		if !f.isMapping(e) {
			continue
		}
		p := &ir.PredefinedSpec{Name: e.key, Pos: f.pos(e.k)}
		for _, v := range f.entries(e.v, "variable", false) {
			p.Values = append(p.Values, ir.PredefinedValue{Key: v.key, Pos: f.pos(v.k), Value: f.literal(v.v, 0)})
		}
		sl.set.Predefined = append(sl.set.Predefined, p)
	}
}

// literal converts YAML value n; depth bounds the nesting of lists.
func (f *yamlFile) literal(n *yaml.Node, depth int) *ir.Literal {
	l := &ir.Literal{Pos: f.pos(n)}
	switch {
	case n.Kind == yaml.SequenceNode && depth < ir.MaxYAMLDepth:
		l.Kind = ir.LiteralList
		for _, c := range n.Content {
			l.Items = append(l.Items, f.literal(c, depth+1))
		}
	case n.Kind == yaml.MappingNode:
		l.Kind = ir.LiteralMapping
	case n.Kind == yaml.ScalarNode:
		l.Value = f.scalar(n)
	case n.Kind == yaml.AliasNode:
		l.Kind = ir.LiteralBad
		f.errorf(n, "aliases are not supported (write the value out)")
	default:
		l.Kind = ir.LiteralBad
		f.errorf(n, "lists nested more than %d levels deep", ir.MaxYAMLDepth)
	}
	return l
}

// hasKey reports whether mapping m has the key.
func hasKey(m *yaml.Node, key string) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Kind == yaml.ScalarNode && m.Content[i].Value == key {
			return true
		}
	}
	return false
}

// inlineComponents loads a components: mapping of namespace ns. A value is
// the component's template, or the spec's list of {version, content}.
func (sl *setLoader) inlineComponents(f *yamlFile, ns string, m *yaml.Node) {
	for _, e := range f.entries(m, "component", true) {
		if !validName(e.key) {
			f.errorf(e.k, "invalid component name %q (a name, without \"/\" or \".\"; list versions under it)", e.key)
			continue
		}
		if e.v.Kind != yaml.SequenceNode {
			s, ok := f.str(e)
			if !ok {
				continue
			}
			pr := &ir.PromptSpec{Path: f.source.file, Pos: f.pos(e.k), Template: s,
				Map: src.SourceMap{File: f.source.file, Lines: f.templateLines(e.v)}}
			sl.addComponent(&ir.ComponentSpec{Namespace: ns, Name: e.key, Prompt: pr})
			continue
		}
		for _, item := range e.v.Content {
			if item.Kind != yaml.MappingNode {
				f.wrongKind(item, "a component version", "a mapping with \"version\" and \"content\"")
				continue
			}
			pr := &ir.PromptSpec{Path: f.source.file, Pos: f.pos(item)}
			c := &ir.ComponentSpec{Namespace: ns, Name: e.key, Prompt: pr}
			hasContent := false
			for _, kv := range f.entries(item, "key", false) {
				switch kv.key {
				case "version":
					if v, ok := f.str(kv); ok {
						if v == "" || strings.ContainsAny(v, "/") {
							f.errorf(kv.v, "invalid version %q", v)
						}
						c.Version = v
					}
				case "content":
					hasContent = true
					if s, ok := f.str(kv); ok {
						pr.Template = s
						pr.Map = src.SourceMap{File: f.source.file, Lines: f.templateLines(kv.v)}
					}
				default:
					f.errorf(kv.k, "unknown key %q%s", kv.key, schema.DidYouMean(kv.key, componentEntry))
				}
			}
			if !hasContent {
				f.errorf(item, "missing key %q", "content")
				continue
			}
			sl.addComponent(c)
		}
	}
}

func (sl *setLoader) addTemplate(t *ir.SetTemplateSpec) {
	t.Path = path.Join(t.Namespace, t.Name)
	if t.Version != "" {
		t.Path += "." + t.Version
	}

	t.Prompt.Key = path.Join(sl.set.Key, t.Path)
	sl.defs["t:"+t.Path] = append(sl.defs["t:"+t.Path], t.Prompt.Pos)
	sl.set.Templates = append(sl.set.Templates, t)
}

func (sl *setLoader) addComponent(c *ir.ComponentSpec) {
	c.Prompt.Key = path.Join(sl.set.Key, c.Full())
	sl.defs["c:"+c.Full()] = append(sl.defs["c:"+c.Full()], c.Prompt.Pos)
	sl.set.Components = append(sl.set.Components, c)
}

// duplicates reports every template path and component version defined
// more than once, at each definition, and drops them all.
func (sl *setLoader) duplicates() {
	s := sl.set
	report := func(kind, name string, at src.Pos) bool {
		poss := sl.defs[kind[:1]+":"+name]
		if len(poss) < 2 {
			return false
		}
		var others []string
		for _, p := range sortedPos(poss) {
			if p != at {
				others = append(others, src.ShortPos(p, at))
			}
		}
		sl.diags.Errorf(at, "%s %q is also defined at %s", kind, name, strings.Join(others, " and "))
		return true
	}
	var ts []*ir.SetTemplateSpec
	for _, t := range s.Templates {
		if !report("template", t.Path, t.Prompt.Pos) {
			ts = append(ts, t)
		}
	}
	var cs []*ir.ComponentSpec
	for _, c := range s.Components {
		if !report("component", c.Full(), c.Prompt.Pos) {
			cs = append(cs, c)
		}
	}
	s.Templates, s.Components = ts, cs
}

// sortedPos returns ps sorted by file, line and column.
func sortedPos(ps []src.Pos) []src.Pos {
	out := append([]src.Pos(nil), ps...)
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return out
}

// inlineFragments loads the `fragments:` map of promptset.yaml: each entry
// is a template string or a mapping with the keys of a fragment file.
func (sl *setLoader) inlineFragments(f *yamlFile, m *yaml.Node) {
	for _, e := range f.entries(m, "fragment name", false) {
		if !validName(e.key) {
			f.errorf(e.k, "invalid fragment name %q (without \"/\" or \".\")", e.key)
			continue
		}
		key := path.Join(sl.set.Key, ir.FragmentsDir, e.key)
		pr := &ir.PromptSpec{Path: f.source.file, Key: key, Pos: f.pos(e.k), Fragment: true}
		switch {
		case e.v.Kind == yaml.MappingNode:
			f.prompt(e.v, pr)
			f.fragmentKeys(e.v)
		default:
			s, ok := f.str(e)
			if !ok {
				continue
			}
			pr.Template = s
			pr.Map = src.SourceMap{File: f.source.file, Lines: f.templateLines(e.v)}
		}
		sl.set.Fragments = append(sl.set.Fragments, pr)
	}
}
