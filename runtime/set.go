package runtime

// Template sets: run-time resolution of a template key.
//
// # Design note for the generator
//
// A template set (a directory with a promptset.yaml, DESIGN §1) compiles into
// one type per set. The generated code owns the list of templates and how to
// render each; this file owns everything that happens at run time between a
// key and a template: the settings (type, root space, version, default name),
// the options that change them, the fallback chain of DESIGN §4 and the
// error that lists every path tried. Generated code for a set "agent" is
// expected to look like this (one id per template, ids are indexes into a
// sorted path table):
//
//	// _agentPaths holds every template's full path; the index is its id.
//	var _agentPaths = [...]string{"default", "main/BrowseLink", "main/BrowseLink.enterprise", "main/default", "reflection/default"}
//
//	// _agentTable is the set's paths and resolver: a candidate path's
//	// directory (up to its last '/'), a switch over lengths and Path.Is for
//	// each string of that length, then its name in that directory, a
//	// switch on the name.
//	var _agentTable = runtime.Table{Set: "agent", Paths: _agentPaths[:], Dir: _agentDir, Name: _agentName}
//
//	func _agentDir(p runtime.Path) int {
//		switch p.Len() {
//		case 0:
//			return 0 // "", the set's root level
//		case 5:
//			if p.Is("main/") {
//				return 1
//			}
//		case 11:
//			if p.Is("reflection/") {
//				return 2
//			}
//		}
//		return -1
//	}
//
//	func _agentName(dir int, name, version string) (int, bool) {
//		if version != "" { // name.version: each name with a '.' split at its dots
//			switch name {
//			case "BrowseLink":
//				if dir == 1 && version == "enterprise" {
//					return 2, true
//				}
//			}
//			return 0, false
//		}
//		switch name {
//		case "default":
//			switch dir {
//			case 0:
//				return 0, true
//			case 1:
//				return 3, true
//			case 2:
//				return 4, true
//			}
//		case "BrowseLink":
//			if dir == 1 {
//				return 1, true
//			}
//		case "BrowseLink.enterprise":
//			if dir == 1 {
//				return 2, true
//			}
//		}
//		return 0, false
//	}
//
//	type Agent struct{ m runtime.Manager }
//
//	func NewAgent(opts ...runtime.Option) *Agent {
//		return &Agent{m: runtime.NewManager(&_agentTable,
//			runtime.Settings{Type: "main", DefaultName: "default"}, opts...)} // promptset.yaml's values
//	}
//	func (a *Agent) Resolve(key string, opts ...runtime.Option) runtime.Resolution { return a.m.Resolve(key, opts...) }
//	func (a *Agent) Switch(opts ...runtime.Option) *Agent { return &Agent{m: a.m.Switch(opts...)} }
//	func (a *Agent) Render(key string, f AgentFeed, opts ...runtime.Option) (string, error) {
//		r := a.m.Resolve(key, opts...)
//		if r.Err != nil {
//			return "", r.Err
//		}
//		if err := _agentPredefine(&f, r.Settings.Predefined); err != nil { // f.Merge(values, AttributeOnly)
//			return "", err
//		}
//		c := &_agentComponents[r.ID] // the versioned components template r.ID includes
//		return _agentRender(r.ID, &f, runtime.VariantFor(c.names, c.versions, r.Settings.Version))
//	}
//
// Every candidate of one resolution lies in one of three directories, its
// prefixes R/T/, T/ and the root level (unless the default name or the
// version holds a '/'), so Resolve looks each directory up once at most,
// and skips the steps of a directory the set lacks without a lookup; a
// Manager keeps the directories of its own settings. Len and Is compare
// a directory's parts with a string without joining them, and the name
// switch compares the name and the version apart, so a lookup allocates
// nothing; Path's strings point into the key and the settings, so a whole
// resolution allocates nothing. Under settings with no root space and no
// version, Resolve tries a key's first step, T/K, as one call of Name with
// the key, before it builds the chain. Any lookup that gives the same ids
// is equally valid (MapTable uses maps).
//
// _agentComponents[id] lists the versioned components template id
// includes, directly or through other components, by name, each with its
// versions ("" for unversioned content, first); listing only those keeps
// every Variant a distinct prompt. The renderer picks a component's text
// with a switch on v.Versions[i]. Variants(key, feed) resolves once, then
// renders once per Variant of Product(c.names, c.versions); Variant.Err
// carries a render error (or the ResolveError, in a single Variant)
// because iter.Seq2[Variant, string] has no error of its own. Likewise
// Resolution.Err carries the ResolveError, since DESIGN §4 gives Resolve
// the single result runtime.Resolution. Merge methods call MergeString,
// MergeSlice, MergeValue or MergeMap once per feed field.
// InferenceConfig(key) resolves the key and fills InferenceConfig from
// Resolution.Settings.RootSpace, the key and the template's model,
// parameters and extra parameters. Typed key constants (AgentKeyBrowseLink = "BrowseLink") are
// plain string constants; a template of another type than the default one
// is named by a namespaced key ("reflection/Review"). The file
// variant_test.go holds a complete hand-written example of a set type.
//
// Options are values, not closures, so that per-call overrides allocate
// nothing either.
//
// # Fallback chain
//
// With root space R, type T, version V, default name D (default "default")
// and key K, Resolve tries, in this order (DESIGN §4):
//
//	R/T/K.V, R/T/K, R/T/D.V, R/T/D, T/K.V, T/K, T/D.V, T/D, D.V, D
//
// and then, last, the set's system default template when it has one
// (promptset.yaml's default_template).
//
// R steps are skipped when there is no root space and .V steps when there
// is no version. The spec's chains (template-manager.md §3.2: "main/
// BrowseLink", "main/default", "default"; with a root space
// "action_agent/main/BrowseLink", "action_agent/main/default",
// "main/BrowseLink", "main/default", "default") are this chain without
// versions. Decisions where the spec and DESIGN leave room:
//
//   - The spec ends its chain with "self.default_template (system
//     fallback)": a set's default_template, a template with no path of
//     the chain, used when no path matched (LevelSystemDefault). The
//     generated lookup finds it at the empty name in directory "", which
//     no step builds, so no key can reach it by name; paths[id] names it
//     ("default_template"). A set without one keeps DESIGN's rule: a key
//     that matches nothing gives a *ResolveError naming every path tried.
//   - An empty key is the spec's None key ("no prior action: resolves None →
//     uses main/default", §3.3): the K steps are skipped. A key equal to the
//     default name is treated the same way, so no path is tried twice.
//   - A key with its own namespace ("reflection/Review") is split at its
//     last '/': the part before replaces the type for that key, the rest is
//     the name (the spec's "Parse key → (space, name)"; its "Build
//     3-component key: root_space / space / type / name" lists four parts
//     for three, and in DESIGN's tree "[root_space/]type/name" a namespace
//     inside a set can only be a type, as "reflection" is). The root
//     space and the version still apply: R/reflection/Review.V, ...,
//     reflection/default, D.V, D. The active type is not consulted; the
//     chain goes from the key's namespace straight to the global default, as
//     the spec's "parent namespace" step does. A namespace of several
//     segments ("action_agent/main/BrowseLink") stands in the type's place
//     as a whole, so without a root space a fully qualified key finds its
//     template exactly. An empty namespace ("/Review") means the active type.
//   - A key is never split at '.': "BrowseLink.enterprise" is a name, and
//     the version comes from the settings only.
//   - An empty type (WithType("")) means the set's root level: the T steps
//     become R/K.V, R/K, R/D.V, R/D, K.V, K and the global D.V, D. A type
//     that the set does not have is not an error: its steps find nothing
//     and the chain goes on to the global default.
//   - An empty default name means the built-in "default".
//   - The spec's predefined_variables switch dimension is
//     Settings.Predefined, the name of one of the set's
//     predefined_variables (typed feed values in promptset.yaml; the
//     generated set has a constant per name). The Manager only carries
//     it: the generated Render merges that set into the feed as
//     Merge(p, AttributeOnly) does, so a field the caller set wins, and
//     returns a *PredefinedError for a name the set does not have.

import (
	"math/bits"
	"strconv"
	"strings"
)

// Settings are the switchable settings of a template set's manager
// (template-manager.md §4.2). The zero value means no root space, no
// type, no version and the default name "default".
type Settings struct {
	RootSpace   string // prefix namespace; "" for none (R steps skipped)
	Type        string // active type namespace, "main" unless the set says otherwise
	Version     string // deployment version suffix; "" for none (.V steps skipped)
	DefaultName string // each namespace's fallback name; "" means "default"
	Predefined  string // the predefined variable set Render fills the feed from; "" for none
}

// defaultName is the built-in fallback name of every namespace.
const defaultName = "default"

// Option changes one setting of a Manager: at construction, in Switch, or
// for a single Resolve or Render call. Options are plain values, not
// closures, so passing them allocates nothing.
type Option struct {
	field settingField
	value string
}

type settingField uint8

const (
	fieldType settingField = iota + 1
	fieldRootSpace
	fieldVersion
	fieldDefaultName
	fieldPredefined
)

// WithType selects the type namespace (the spec's active_template_type);
// "" selects the set's root level.
func WithType(typ string) Option { return Option{fieldType, typ} }

// WithRootSpace selects the root space (active_template_root_space); ""
// removes it.
func WithRootSpace(root string) Option { return Option{fieldRootSpace, root} }

// WithVersion selects the version suffix (template_version); "" removes it.
func WithVersion(version string) Option { return Option{fieldVersion, version} }

// WithDefaultName sets the fallback name of every namespace
// (default_template_name); "" restores "default".
func WithDefaultName(name string) Option { return Option{fieldDefaultName, name} }

// WithPredefined selects the set of predefined variables that Render
// fills the feed's unset fields from (predefined_variables): one of the
// names under predefined_variables in promptset.yaml; "" selects none.
func WithPredefined(name string) Option { return Option{fieldPredefined, name} }

// apply applies opts to s in order, and reports which fields they set
// (bit 1<<field). It works in place so that Resolve copies the settings
// only into its result.
func (s *Settings) apply(opts []Option) (set uint8) {
	for _, o := range opts {
		switch o.field {
		case fieldType:
			s.Type = o.value
		case fieldRootSpace:
			s.RootSpace = o.value
		case fieldVersion:
			s.Version = o.value
		case fieldDefaultName:
			s.DefaultName = o.value
		case fieldPredefined:
			s.Predefined = o.value
		}
		set |= 1 << (o.field & 7) // the mask spares the compiler's check of the shift
	}
	if s.DefaultName == "" {
		s.DefaultName = defaultName
	}
	return set
}

// Path is a candidate template path in parts, as the fallback chain builds
// it: "Root/Type/Name.Version", where empty parts and their separators are
// left out. A set's generated lookup receives a Path; the strings point
// into the key and the settings, so building one allocates nothing.
type Path struct {
	Root, Type, Name, Version string
}

// Len returns the length of the joined path.
func (p Path) Len() int {
	n := len(p.Name)
	if p.Root != "" {
		n += len(p.Root) + 1
	}
	if p.Type != "" {
		n += len(p.Type) + 1
	}
	if p.Version != "" {
		n += len(p.Version) + 1
	}
	return n
}

// AppendTo appends the joined path to b. Given a buffer of at least Len
// bytes, it does not allocate.
func (p Path) AppendTo(b []byte) []byte {
	if p.Root != "" {
		b = append(b, p.Root...)
		b = append(b, '/')
	}
	if p.Type != "" {
		b = append(b, p.Type...)
		b = append(b, '/')
	}
	b = append(b, p.Name...)
	if p.Version != "" {
		b = append(b, '.')
		b = append(b, p.Version...)
	}
	return b
}

// Is reports whether the joined path is s, without joining it. A
// generated lookup switches on Len and then calls Is for the few
// directories or names of that length.
func (p Path) Is(s string) bool {
	if p.Root != "" {
		if !hasPart(s, p.Root, '/') {
			return false
		}
		s = s[len(p.Root)+1:]
	}
	if p.Type != "" {
		if !hasPart(s, p.Type, '/') {
			return false
		}
		s = s[len(p.Type)+1:]
	}
	if p.Version == "" {
		return s == p.Name
	}
	return hasPart(s, p.Name, '.') && s[len(p.Name)+1:] == p.Version
}

// hasPart reports whether s begins with part followed by sep.
func hasPart(s, part string, sep byte) bool {
	return len(s) > len(part) && s[len(part)] == sep && s[:len(part)] == part
}

// String returns the joined path.
func (p Path) String() string { return string(p.AppendTo(make([]byte, 0, p.Len()))) }

// Level is the step of the fallback chain at which a key resolved, in the
// order the steps are tried; R is the root space, T the type, K the key's
// name, V the version and D the default name.
type Level uint8

// The steps of the fallback chain, in order.
const (
	LevelRootKeyVersion     Level = iota // R/T/K.V: the exact template
	LevelRootKey                         // R/T/K
	LevelRootDefaultVersion              // R/T/D.V
	LevelRootDefault                     // R/T/D
	LevelKeyVersion                      // T/K.V (the exact template when there is no root space)
	LevelKey                             // T/K
	LevelDefaultVersion                  // T/D.V
	LevelDefault                         // T/D
	LevelGlobalVersion                   // D.V
	LevelGlobal                          // D
	numLevels                            // the steps that try a path
	// LevelSystemDefault is the step after every path: the set's
	// default_template (the spec's "self.default_template (system
	// fallback)"), in the sets that have one.
	LevelSystemDefault = numLevels
)

var levelNames = [numLevels + 1]string{"R/T/K.V", "R/T/K", "R/T/D.V", "R/T/D", "T/K.V", "T/K", "T/D.V", "T/D", "D.V", "D", "system default"}

// String returns the step's pattern, such as "R/T/D.V", or "system
// default".
func (l Level) String() string {
	if int(l) < len(levelNames) {
		return levelNames[l]
	}
	return "Level(" + strconv.Itoa(int(l)) + ")"
}

// Versioned reports whether the step carries the version suffix.
func (l Level) Versioned() bool { return l < numLevels && l%2 == 0 }

// chain is one resolution's fallback chain: the effective settings, the
// key split into type and name, and the steps that apply.
type chain struct {
	// The settings' parts that paths need, not a *Settings: a pointer
	// next to the strings handed to the lookup would make escape
	// analysis move the settings to the heap.
	root, version, def string
	typ                string // the key's namespace, else s.Type
	name               string // the key's name; "" when the key names the default
	steps              uint16 // bit l is set when step l is tried
	namespaced         bool   // typ is the key's namespace, not s.Type
}

// Steps by what they need.
const (
	rootSteps        = 1<<LevelRootKeyVersion | 1<<LevelRootKey | 1<<LevelRootDefaultVersion | 1<<LevelRootDefault
	keySteps         = 1<<LevelRootKeyVersion | 1<<LevelRootKey | 1<<LevelKeyVersion | 1<<LevelKey
	versionSteps     = 1<<LevelRootKeyVersion | 1<<LevelRootDefaultVersion | 1<<LevelKeyVersion | 1<<LevelDefaultVersion | 1<<LevelGlobalVersion
	typeDefaultSteps = 1<<LevelDefaultVersion | 1<<LevelDefault
	allSteps         = 1<<numLevels - 1
)

// init sets c, which is zero, to the chain of key under s. (Filling c in
// place, rather than returning a chain, saves Resolve a copy, and field by
// field, rather than from a composite literal, saves another.)
func (c *chain) init(s *Settings, key string) {
	c.root, c.version, c.def, c.typ, c.name, c.steps = s.RootSpace, s.Version, s.DefaultName, s.Type, key, allSteps
	if strings.IndexByte(key, '/') >= 0 { // faster than LastIndexByte where there is none
		i := strings.LastIndexByte(key, '/')
		if i > 0 && key[:i] != s.Type {
			c.typ = key[:i]
			c.namespaced = true
		}
		c.name = key[i+1:]
	}
	if c.name == c.def {
		c.name = ""
	}
	if s.RootSpace == "" {
		c.steps &^= rootSteps
	}
	if c.name == "" {
		c.steps &^= keySteps
	}
	if s.Version == "" {
		c.steps &^= versionSteps
	}
	if c.typ == "" {
		c.steps &^= typeDefaultSteps // T/D is D: tried as the global step
	}
}

// The directories that the steps share, as prefixes of their paths: the
// steps of prefix p are 4p to 4p+3.
const (
	prefixRoot   = iota // R/T/: the R steps
	prefixType          // T/: the T steps
	prefixGlobal        // the set's root level: D.V and D
	numPrefixes
	unknownDir = -2 // a directory not looked up yet
)

// prefix returns the directory of the steps of prefix pre.
func (c *chain) prefix(pre int) Path { return prefixDir(pre, c.root, c.typ) }

// prefixDir returns the directory of the steps of prefix pre under root
// space root and type typ.
func prefixDir(pre int, root, typ string) Path {
	// One literal, not one per prefix: the compiler then builds the Path
	// in the registers of the call rather than in memory.
	if pre != prefixRoot {
		root = ""
		if pre != prefixType {
			typ = ""
		}
	}
	return Path{Root: root, Type: typ}
}

// hasSlash reports whether s, the default name or the version, holds a
// '/', which moves the candidates' last '/' out of their prefix.
func hasSlash(s string) bool { return strings.IndexByte(s, '/') >= 0 }

// leaf returns the rest of step l's candidate after its prefix: the key's
// name or the default name, and the version ("" for none).
func (c *chain) leaf(l Level) (name, version string) {
	name = c.def
	if l < LevelGlobalVersion && l%4 < 2 {
		name = c.name
	}
	if l%2 == 0 {
		version = c.version
	}
	return name, version
}

// path returns the candidate of step l.
func (c *chain) path(l Level) Path {
	p := c.prefix(int(l / 4))
	p.Name, p.Version = c.leaf(l)
	return p
}

// split returns the candidate of step l split at its last '/' into its
// directory and its name and version, when the default name or the
// version holds a '/', so that the prefix is not the directory.
func (c *chain) split(l Level) (dir Path, name, version string) {
	p := c.path(l)
	if i := strings.LastIndexByte(p.Version, '/'); i >= 0 {
		return Path{Root: p.Root, Type: p.Type, Name: p.Name, Version: p.Version[:i+1]}, p.Version[i+1:], ""
	}
	if i := strings.LastIndexByte(p.Name, '/'); i >= 0 {
		return Path{Root: p.Root, Type: p.Type, Name: p.Name[:i+1]}, p.Name[i+1:], p.Version
	}
	return Path{Root: p.Root, Type: p.Type}, p.Name, p.Version
}

// tried returns the paths of the steps before last, and of last itself when
// through is set.
func (c *chain) tried(last Level, through bool) []string {
	var out []string
	for l := Level(0); l < last || (through && l == last); l++ {
		if c.steps&(1<<l) != 0 {
			out = append(out, c.path(l).String())
		}
	}
	return out
}

// Resolution reports how a key resolved: the template chosen and the step
// of the fallback chain that found it (LevelSystemDefault for the set's
// default_template), or Err when none did.
type Resolution struct {
	Key      string   // the key asked for
	Path     string   // the chosen template's full path, such as "main/BrowseLink.enterprise"
	ID       int      // the chosen template's id in the generated set
	Level    Level    // the step of the fallback chain that matched
	Settings Settings // the settings used: the manager's, with the call's options applied
	Err      error    // a *ResolveError when no path matched; Path is then "", ID -1 and Level meaningless
}

// Tried returns the paths tried in order, ending with the chosen one (or
// with the last one tried, when Err is set); after every path, the system
// default ends with its Path. It allocates; Resolve does not.
func (r Resolution) Tried() []string {
	var c chain
	c.init(&r.Settings, r.Key)
	switch {
	case r.Err != nil:
		return c.tried(numLevels, false)
	case r.Level == LevelSystemDefault:
		return append(c.tried(numLevels, false), r.Path)
	}
	return c.tried(r.Level, true)
}

// ResolveError is the error of a key that resolves to no template.
type ResolveError struct {
	Set   string   // the set's name
	Key   string   // the key asked for
	Tried []string // every path tried, in order
}

func (e *ResolveError) Error() string {
	return e.Set + ": no template for key " + strconv.Quote(e.Key) + " (tried " + strings.Join(e.Tried, ", ") + ")"
}

// Table is what a template set's generated code gives its Manager: the
// set's name, its template paths and its resolver, in two switches. A
// candidate path of the chain splits at its last '/' into a directory
// ("main/", "action_agent/main/", or "" at the set's root level) and a
// name ("BrowseLink.enterprise"). Dir finds the directory, which the
// steps of one resolution share (R/T/, T/ and the root level), and Name
// the template within it, so that a step whose directory the set lacks
// costs nothing. Neither may retain p or allocate. A Manager shares its
// Table and never modifies it.
type Table struct {
	Set string // the set's name
	// Paths[id] is the full path of template id (the system default's is
	// a name no key reaches).
	Paths []string
	// Dir returns the id of directory p, the joined path up to and
	// including its last '/', or -1 when no template path begins with it
	// and has no '/' after it.
	Dir func(p Path) int
	// Name returns the template whose path is directory dir followed by
	// name, and by '.' and version when version is not "". No template's
	// name holds a '/', so a name with one finds nothing. At directory ""
	// and the empty name, which no step of the chain builds, it returns
	// the set's system default template, if the set has one.
	Name func(dir int, name, version string) (id int, ok bool)
}

// MapTable returns the Table of set with the template paths paths, in
// which systemDefault (-1 for none) is the id of the system default
// template. It looks paths up in maps, without allocating for paths of up
// to 64 bytes: generated sets switch instead, and tools that read a set's
// paths at run time use this.
func MapTable(set string, paths []string, systemDefault int) *Table {
	dirs := map[string]int{}
	names := map[dirName]int{}
	add := func(p string, id int) {
		i := strings.LastIndexByte(p, '/') + 1
		d, ok := dirs[p[:i]]
		if !ok {
			d = len(dirs)
			dirs[p[:i]] = d
		}
		names[dirName{d, p[i:]}] = id
	}
	for id, p := range paths {
		if id != systemDefault {
			add(p, id)
		}
	}
	if systemDefault >= 0 {
		add("", systemDefault)
	}
	return &Table{
		Set:   set,
		Paths: paths,
		Dir: func(p Path) int {
			var buf [64]byte
			if d, ok := dirs[string(p.AppendTo(buf[:0]))]; ok {
				return d
			}
			return -1
		},
		Name: func(dir int, name, version string) (int, bool) {
			var buf [64]byte
			id, ok := names[dirName{dir, string(Path{Name: name, Version: version}.AppendTo(buf[:0]))}]
			return id, ok
		},
	}
}

type dirName struct {
	dir  int
	name string
}

// Manager resolves the keys of one template set. It is immutable: Switch
// and per-call options work on copies, so a Manager is safe for
// concurrent use and cheap to copy. Generated set types embed one.
type Manager struct {
	table    *Table
	settings Settings
	// What every Resolve would find again from the settings alone: the
	// directory ids of the prefixes of a key without a namespace, and
	// whether the default name and the version hold a '/' (hasSlash).
	dirs                       [numPrefixes]int32 // ids of directories, which a set has fewer of than templates
	defaultSlash, versionSlash bool
	// keyFirst: the chain of a key other than "" and the default name
	// starts at T/K (no root space, no version), which Resolve tries
	// first, the key as a name in T's directory, without building the
	// chain. A key with a '/' finds nothing there, since no name holds
	// one, and goes on to the walk.
	keyFirst bool
}

// NewManager returns a Manager for the set of t. defaults are the set's
// settings (promptset.yaml), and opts override them.
func NewManager(t *Table, defaults Settings, opts ...Option) Manager {
	m := Manager{table: t, settings: defaults}
	m.settings.apply(opts)
	m.derive()
	return m
}

// derive sets what m keeps from its settings.
func (m *Manager) derive() {
	for pre := range m.dirs {
		m.dirs[pre] = int32(m.table.Dir(prefixDir(pre, m.settings.RootSpace, m.settings.Type)))
	}
	m.defaultSlash, m.versionSlash = hasSlash(m.settings.DefaultName), hasSlash(m.settings.Version)
	m.keyFirst = m.settings.RootSpace == "" && m.settings.Version == ""
}

// Settings returns the manager's settings.
func (m *Manager) Settings() Settings { return m.settings }

// Switch returns a copy of m with opts applied; m is unchanged
// (template-manager.md §4.2).
func (m *Manager) Switch(opts ...Option) Manager {
	n := *m
	n.settings.apply(opts)
	n.derive()
	return n
}

// Resolve walks the fallback chain for key with opts applied for this call
// only (template-manager.md §4.3), ending at the set's system default
// template when it has one. It does not allocate unless the key resolves
// nowhere.
func (m *Manager) Resolve(key string, opts ...Option) (r Resolution) {
	if len(opts) == 0 && m.keyFirst && key != "" && key != m.settings.DefaultName {
		if d := int(m.dirs[prefixType]); d >= 0 {
			if id, ok := m.table.Name(d, key, ""); ok {
				// Field by field: a composite literal, or a tuple
				// assignment, is built apart and copied.
				r.Key, r.Path, r.ID, r.Level = key, m.table.Paths[id], id, LevelKey
				r.Settings = m.settings
				return r
			}
		}
	}
	m.walk(&r, key, opts)
	return r
}

// walk is Resolve past its first step: it builds the chain and tries every
// step, and sets *r, which is zero, to the resolution. (Filling *r in
// place, rather than returning a Resolution, saves Resolve a copy.)
func (m *Manager) walk(r *Resolution, key string, opts []Option) {
	s := m.settings
	dirs, defaultSlash, versionSlash := m.dirs, m.defaultSlash, m.versionSlash
	if len(opts) > 0 {
		set := s.apply(opts)
		if set&(1<<fieldRootSpace|1<<fieldType) != 0 {
			dirs[prefixRoot], dirs[prefixType] = unknownDir, unknownDir
		}
		if set&(1<<fieldDefaultName) != 0 {
			defaultSlash = hasSlash(s.DefaultName)
		}
		if set&(1<<fieldVersion) != 0 {
			versionSlash = hasSlash(s.Version)
		}
	}
	slashes := defaultSlash || versionSlash
	var c chain
	c.init(&s, key)
	if c.namespaced {
		dirs[prefixRoot], dirs[prefixType] = unknownDir, unknownDir
	}
	// Each prefix's directory is looked up once at most, and the steps of
	// a directory that the set lacks are skipped together.
	for steps := c.steps; steps != 0; {
		l := Level(bits.TrailingZeros16(steps))
		steps &= steps - 1
		var d int
		var name, version string
		if slashes {
			var dir Path
			dir, name, version = c.split(l)
			if d = m.table.Dir(dir); d < 0 {
				continue
			}
		} else {
			pre := int(l / 4)
			if dirs[pre] == unknownDir {
				dirs[pre] = int32(m.table.Dir(c.prefix(pre)))
			}
			if d = int(dirs[pre]); d < 0 {
				steps &^= 0xf << (4 * pre)
				continue
			}
			name, version = c.leaf(l)
		}
		if id, ok := m.table.Name(d, name, version); ok {
			r.Path, r.ID, r.Level = m.table.Paths[id], id, l
			r.Key = key
			r.Settings = s // apart: a tuple assignment copies s twice
			return
		}
	}
	r.Key = key
	r.Settings = s
	if d := int(dirs[prefixGlobal]); d >= 0 { // the root level, which no option moves
		if id, ok := m.table.Name(d, "", ""); ok {
			r.Path, r.ID, r.Level = m.table.Paths[id], id, LevelSystemDefault
			return
		}
	}
	r.ID, r.Err = -1, &ResolveError{Set: m.table.Set, Key: key, Tried: c.tried(numLevels, false)}
}

// PredefinedError is the error of rendering with a predefined variable set
// (WithPredefined) that the template set does not have.
type PredefinedError struct {
	Set   string   // the set's name
	Name  string   // the name asked for
	Known []string // the set's predefined variable sets, sorted
}

func (e *PredefinedError) Error() string {
	have := "the set has none"
	if len(e.Known) > 0 {
		have = "have " + strings.Join(e.Known, ", ")
	}
	return e.Set + ": no predefined variables " + strconv.Quote(e.Name) + " (" + have + ")"
}

// InferenceConfig tells an LLM inferencer which template a prompt came from
// (template-manager.md, Stage 5), so that it can adapt to it.
type InferenceConfig struct {
	RootSpace   string         // the active root space; "" for none
	TemplateKey string         // the key asked for; "" when there was none (no anchor action yet)
	Model       string         // the resolved template's model; "" when it names none
	Parameters  map[string]any // the resolved template's default parameters; a new map, nil when none
	// ExtraParameters are the resolved template's extra_parameters (sent
	// unchecked by the adapters); a new map, nil when none.
	ExtraParameters map[string]any
	// Tools and ToolChoice are the set's tools and tool_choice (promptset.yaml),
	// for runtime.Request; nil and "" when it declares none.
	Tools      []Tool
	ToolChoice string
}
