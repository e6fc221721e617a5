package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/internal/par"
	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/params"
	"github.com/promptgen/promptgen/schema"
	"gopkg.in/yaml.v3"
)

// Prompts reads every standalone prompt below the root of fsys, sorted by
// path, resolving the names in their `tools:` in tools (Tools' result).
// display is the prefix used for paths in diagnostics and Prompt.Path (e.g. "prompts").
func Prompts(fsys fs.FS, display string, tools map[string]*ir.ToolSpec) ([]*ir.PromptSpec, diag.Diagnostics) {
	l := &loader{fsys: fsys, display: display}
	paths := l.walk()
	l.checkKeys(paths)
	// The files load on every CPU, each into its own sink.
	loaded := make([]*ir.PromptSpec, len(paths))
	sinks := make([]diag.Sink, len(paths))
	par.Each(len(paths), func(i int) {
		own := &loader{fsys: l.fsys, display: l.display}
		loaded[i] = own.load(paths[i], strings.HasPrefix(paths[i], ir.FragmentsDir+"/"))
		sinks[i] = own.diags
	})
	var prompts []*ir.PromptSpec
	includable := map[string]*ir.PromptSpec{}
	for i, p := range paths {
		l.diags.List = append(l.diags.List, sinks[i].List...)
		if pr := loaded[i]; pr != nil {
			l.resolveTools(&pr.ToolDecl, tools)
			prompts = append(prompts, pr)
			if kindOf(p) == plainPrompt {
				includable[p] = pr
			}
		}
	}
	for _, pr := range prompts {
		pr.Includable = includable
	}
	return prompts, l.diags.List
}

// loader is the state of one Prompts call.
type loader struct {
	fsys    fs.FS
	display string
	diags   diag.Sink
}

// Read-only tables of the file format, used for checks and did-you-mean.
var (
	topLevelKeys = []string{schemaKey, "description", "model", "parameters", "extra_parameters", "template", "inputs",
		"outputFormat", "outputParsing", "outputSchema", "examples", "messages", "sections", "components",
		"jinja", "go_name", "system", "variables", "tokenizer", "markers", "special_tokens", "tools", "tool_choice", "filters"}
	messageKeys     = []string{"role", "template", "content", "name", "tool_call_id", "tool_calls", "data"}
	partKeys        = []string{"text", "image"}
	imageDetails    = []string{"auto", "low", "high"}
	toolCallKeys    = []string{"id", "name", "arguments"}
	messageRoles    = []string{"system", "user", "assistant", "tool_request", "tool_result"}
	variablesKeys   = []string{"allowed", "unknown"}
	unknownPolicies = []string{"warn", "error"}
	jinjaOptions    = []string{"trim_blocks", "lstrip_blocks", "keep_trailing_newline", "profile"}
	// jinjaProfiles are the environments `profile` selects.
	jinjaProfiles  = []string{"transformers"}
	exampleKeys    = []string{"input_vars", "expected_output"}
	outputFormats  = []string{"json", "text", "yaml", "xml"}
	outputParsings = []string{"lenient", "strict"}
	shorthandNames = []string{"string", "int", "integer", "number", "float", "bool", "boolean", "object", "image"}
	schemaTypes    = []string{"string", "integer", "number", "boolean", "object", "array"}
	// schemaKeywords are the JSON Schema keywords that shape the feed type.
	schemaKeywords = []string{"type", "properties", "required", "items",
		"additionalProperties", "enum", "description"}
	// ignoredKeywords constrain values but not their Go type.
	ignoredKeywords = []string{"title", "examples", "default", "minLength", "maxLength",
		"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
		"pattern", "format", "minItems", "maxItems", "uniqueItems", "minProperties",
		"maxProperties", "const", "$schema", "$id", "$comment"}
	// unsupportedKeywords are valid JSON Schema that promptgen cannot type (yet).
	unsupportedKeywords = []string{"allOf", "anyOf", "oneOf", "not", "$ref", "$defs",
		"definitions", "patternProperties", "prefixItems", "if", "then", "else",
		"dependentRequired", "dependentSchemas", "propertyNames", "contains"}
)

// schemaKey names a file's JSON Schema for editors (schema/*.schema.json);
// every YAML file may have it, and promptgen ignores it.
const schemaKey = "$schema"

// braceHint explains the YAML errors caused by an unquoted value that
// starts with a Jinja delimiter.
const braceHint = ` (quote the value or use a block scalar "|": YAML reads "{" as the start of a mapping)`

// fileKind says how a file of the prompts tree is read.
type fileKind uint8

const (
	ignoredFile fileKind = iota // documentation (README, LICENSE, ...) and backups
	yamlPrompt                  // the YAML prompt format
	plainPrompt                 // the whole file is the template
	goTemplate                  // Go text/template: an error
	otherFile                   // anything else: an error
)

// docNames are the names (before the first dot, in any case) of the
// documentation files that the tree may hold beside its prompts.
var docNames = []string{"README", "LICENSE", "LICENCE", "COPYING", "CHANGELOG", "CONTRIBUTING", "CODEOWNERS"}

// backupSuffixes end the names of the copies that editors and merge tools
// leave beside a file.
var backupSuffixes = []string{"~", ".orig", ".bak"}

// kindOf classifies a file of the tree by its name. Hidden files are
// skipped before.
func kindOf(name string) fileKind {
	base := path.Base(name)
	stem, _, _ := strings.Cut(base, ".")
	for _, suffix := range backupSuffixes {
		if strings.HasSuffix(base, suffix) {
			return ignoredFile
		}
	}
	switch path.Ext(base) {
	case ".yaml", ".yml":
		return yamlPrompt
	case ".jinja", ".j2", ".md", ".txt":
		if slices.Contains(docNames, strings.ToUpper(stem)) {
			return ignoredFile
		}
		return plainPrompt
	case ".tmpl", ".gotmpl":
		return goTemplate
	}
	if slices.Contains(docNames, strings.ToUpper(stem)) {
		return ignoredFile
	}
	return otherFile
}

// isPrompt reports whether the file at p is a prompt or template file,
// and reports the files that are neither nor ignored.
func (l *loader) isPrompt(p string) bool {
	at := src.Pos{File: l.path(p), Line: 1, Col: 1}
	switch kindOf(p) {
	case yamlPrompt, plainPrompt:
		return true
	case goTemplate:
		// Compiling text/template against a typed feed would be a second
		// template compiler; Jinja2 already reaches both backends.
		l.diags.Errorf(at, "Go text/template files are not supported: rewrite it in Jinja2 as %q "+
			"({{ .name }} is {{ name }}, {{ if .x }}...{{ end }} is {%% if x %%}...{%% endif %%}); "+
			"-renderer=text/template generates Go text/template from Jinja2 templates",
			strings.TrimSuffix(path.Base(p), path.Ext(p))+".jinja")
	case otherFile:
		l.diags.Errorf(at, "%q is not a prompt file: prompt files end in .yaml, .yml, .jinja, .j2, .md or .txt, "+
			"and README, LICENSE, CHANGELOG, backups and hidden files are ignored (rename it, or move it out of the prompts tree)", path.Base(p))
	}
	return false
}

// PromptKey is a prompt's address: its path without extension.
func PromptKey(p string) string { return strings.TrimSuffix(p, path.Ext(p)) }

// path returns the display path of fsys path p.
func (l *loader) path(p string) string { return path.Join(l.display, p) }

// walk returns the sorted paths of the prompt files. Hidden files and
// directories are skipped, and so are template sets (directories with a
// promptset.yaml), which are loaded separately, and the tools/ folder. A symbolic link is an
// error, whatever its name.
func (l *loader) walk() []string {
	var paths []string
	// The callback reports every error itself, so WalkDir returns nil.
	_ = fs.WalkDir(l.fsys, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			l.ioError(err)
		case p != "." && strings.HasPrefix(d.Name(), "."):
			if d.IsDir() {
				return fs.SkipDir
			}
		case l.badLink(p, d):
		case d.IsDir():
			if _, err := fs.Stat(l.fsys, path.Join(p, "promptset.yaml")); err == nil || p == ir.ToolsDir {
				return fs.SkipDir // a set, or the shared tools, which sharedTools reads
			}
		case l.isPrompt(p):
			paths = append(paths, p)
		}
		return nil
	})
	sort.Strings(paths)
	return paths
}

// ioError reports an error reading the tree; it has no position.
func (l *loader) ioError(err error) {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		l.diags.Errorf(src.Pos{}, "load: %s %s: %v", pe.Op, l.path(pe.Path), pe.Err)
		return
	}
	l.diags.Errorf(src.Pos{}, "load: %v", err)
}

// checkKeys reports files that share a prompt key, like a.yaml and a.jinja,
// at each of them.
func (l *loader) checkKeys(paths []string) {
	byKey := map[string][]string{}
	for _, p := range paths {
		k := PromptKey(p)
		byKey[k] = append(byKey[k], p)
	}
	for _, p := range paths {
		var others []string
		for _, q := range byKey[PromptKey(p)] {
			if q != p {
				others = append(others, strconv.Quote(l.path(q)))
			}
		}
		if len(others) > 0 {
			l.diags.Errorf(src.Pos{File: l.path(p), Line: 1, Col: 1},
				"prompt %q is also defined by %s (a prompt's name is its path without extension)",
				PromptKey(p), strings.Join(others, " and "))
		}
	}
}

// load reads one prompt file (a fragment's when fragment is set). It returns nil when the file cannot be read
// or is not valid YAML.
func (l *loader) load(p string, fragment bool) *ir.PromptSpec {
	data, err := fs.ReadFile(l.fsys, p)
	if err != nil {
		l.ioError(err)
		return nil
	}
	file := l.path(p)
	pr := &ir.PromptSpec{Path: file, Key: PromptKey(p), Pos: src.Pos{File: file, Line: 1, Col: 1}}
	pr.Fragment = fragment
	source := newSource(file, data)
	if kindOf(p) == plainPrompt {
		pr.Template = string(data)
		pr.Map = src.SourceMap{File: file, Lines: source.literalLines(pr.Template, 0)}
		return pr
	}
	f := &yamlFile{source: source, diags: &l.diags}
	if !f.decode(pr) {
		return nil
	}
	return pr
}

// source is one file's bytes with the line tables that turn yaml.v3
// positions and byte offsets into diagnostic positions.
type source struct {
	file string
	data []byte
	// lines holds the offset of each line start, lines ending at '\n' as
	// editors count them.
	lines []int
	// yamlLines holds the offset of each line start as yaml.v3 counts
	// lines: any YAML line break ends one, and a leading BOM is skipped.
	yamlLines []int
}

func newSource(file string, data []byte) *source {
	s := &source{file: file, data: data, lines: []int{0}}
	for i, b := range data {
		if b == '\n' {
			s.lines = append(s.lines, i+1)
		}
	}
	start := 0
	if bytes.HasPrefix(data, []byte("\uFEFF")) {
		start = 3
	}
	s.yamlLines = []int{start}
	for i := start; i < len(data); {
		if n := yamlBreak(data[i:]); n > 0 {
			i += n
			s.yamlLines = append(s.yamlLines, i)
			continue
		}
		i++
	}
	return s
}

// yamlBreak returns the length of the YAML line break at the start of b, or 0.
func yamlBreak(b []byte) int {
	switch {
	case bytes.HasPrefix(b, []byte("\r\n")):
		return 2
	case b[0] == '\r' || b[0] == '\n':
		return 1
	case bytes.HasPrefix(b, []byte("\u0085")):
		return 2
	case bytes.HasPrefix(b, []byte("\u2028")), bytes.HasPrefix(b, []byte("\u2029")):
		return 3
	}
	return 0
}

// offset returns the byte offset of a yaml.v3 position: a 1-based line and
// a 1-based column counted in characters.
func (s *source) offset(line, col int) int {
	if line > len(s.yamlLines) {
		return len(s.data)
	}
	off := s.yamlLines[max(line, 1)-1]
	for ; col > 1 && off < len(s.data); col-- {
		_, size := utf8.DecodeRune(s.data[off:])
		off += size
	}
	return off
}

// pos returns the position of byte offset off.
func (s *source) pos(off int) src.Pos {
	i := sort.SearchInts(s.lines, off+1) - 1
	return src.Pos{File: s.file, Line: i + 1, Col: off - s.lines[i] + 1}
}

// lineText returns line i (0-based) without its line break.
func (s *source) lineText(i int) string {
	end := len(s.data)
	if i+1 < len(s.lines) {
		end = s.lines[i+1] - 1
	}
	return strings.TrimSuffix(string(s.data[s.lines[i]:end]), "\r")
}

// nextLine returns the offset of the line after the one holding off.
func (s *source) nextLine(off int) int {
	if i := bytes.IndexByte(s.data[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(s.data)
}

// literalLines maps a template whose lines are file lines from offset
// first on, each after some indentation: a literal block scalar, or a whole
// plain file.
func (s *source) literalLines(value string, first int) []src.LineStart {
	fileLine := sort.SearchInts(s.lines, first+1) - 1
	var ls []src.LineStart
	for off := 0; ; fileLine++ {
		seg, rest, more := strings.Cut(value[off:], "\n")
		seg = strings.TrimSuffix(seg, "\r") // kept in plain files, like lineText drops it
		line := min(fileLine, len(s.lines)-1)
		text := s.lineText(line)
		col := len(text) - len(seg) + 1
		if col < 1 || !strings.HasSuffix(text, seg) {
			col = 1 // the file does not hold the line as YAML should have read it
		}
		ls = append(ls, src.LineStart{Offset: off, Line: line + 1, Col: col})
		// A final line break ends the last line; it does not start one.
		if !more || rest == "" {
			return ls
		}
		off = len(value) - len(rest)
	}
}

// maxEscape is the length of the longest escape sequence of a
// double-quoted YAML scalar (\UXXXXXXXX).
const maxEscape = 10

// alignLines maps a template that YAML rewrote from the file bytes starting
// at offset start (quoted, folded and multi-line plain scalars): template
// and file are walked together, matching equal bytes and skipping what YAML
// dropped (indentation, folded line breaks, quotes, escapes). The result is
// exact for single-line scalars without escapes and close elsewhere.
func (s *source) alignLines(value string, start int) []src.LineStart {
	var ls []src.LineStart
	emit := func(i, j int) {
		p := s.pos(j)
		n := len(ls)
		switch {
		case n > 0 && ls[n-1].Line == p.Line && ls[n-1].Col+i-ls[n-1].Offset == p.Col:
			return // already mapped there
		case n > 0 && ls[n-1].Offset == i:
			ls = ls[:n-1] // the start, before skipping indentation
		}
		ls = append(ls, src.LineStart{Offset: i, Line: p.Line, Col: p.Col})
	}
	emit(0, start)
	for i, j := 0, start; i < len(value); {
		if j >= len(s.data) {
			emit(i, len(s.data))
			break
		}
		t, c := value[i], s.data[j]
		switch {
		case t == c || isSpace(t) && isSpace(c):
			emit(i, j)
			i, j = i+1, j+1
		case isSpace(c): // indentation, or a line break YAML folded
			j++
		case isSpace(t): // a break or space YAML made from an escape or a fold
			emit(i, j)
			i++
		default: // an escape or a doubled quote
			if k := bytes.IndexByte(s.data[j:min(j+maxEscape, len(s.data))], t); k > 0 {
				j += k
				continue
			}
			emit(i, j)
			i++
		}
	}
	return ls
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// skipProps skips the anchor and tag that yaml.v3 includes in a node's
// position, and the space after them, up to the node's content.
func (s *source) skipProps(off int) int {
	if off >= len(s.data) || s.data[off] != '!' && s.data[off] != '&' {
		return off
	}
	for off < len(s.data) {
		switch c := s.data[off]; {
		case c == '!' || c == '&':
			for off < len(s.data) && !isSpace(s.data[off]) {
				off++
			}
		case c == '#':
			off = s.nextLine(off)
		case isSpace(c):
			off++
		default:
			return off
		}
	}
	return off
}

// yamlFile decodes one YAML prompt file.
type yamlFile struct {
	source *source
	diags  *diag.Sink
}

func (f *yamlFile) pos(n *yaml.Node) src.Pos { return f.source.pos(f.offset(n)) }

func (f *yamlFile) offset(n *yaml.Node) int { return f.source.offset(n.Line, n.Column) }

func (f *yamlFile) errorf(n *yaml.Node, format string, args ...any) {
	f.diags.Errorf(f.pos(n), format, args...)
}

// decode fills pr from the file. It reports false when the file is not a
// YAML mapping, so there is no prompt to return.
func (f *yamlFile) decode(pr *ir.PromptSpec) bool {
	data := f.source.data
	start := src.Pos{File: f.source.file, Line: 1, Col: 1}
	if bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) {
		f.diags.Errorf(start, "prompt files must be UTF-8, not UTF-16")
		return false
	}
	doc, extra, err := parseYAML(data)
	switch {
	case err != nil:
		f.syntaxError(err)
		return false
	case doc == nil || len(doc.Content) == 0:
		f.diags.Errorf(start, "empty prompt file (want a mapping with a %q key)", "template")
		return false
	case extra != nil:
		f.errorf(extra, "a prompt file holds one YAML document (remove the second)")
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		f.wrongKind(root, "a prompt file", "a mapping")
		return false
	}
	f.prompt(root, pr)
	if pr.Fragment {
		f.fragmentKeys(root)
	}
	return true
}

// fragmentFileKeys are the keys a fragment file may have: a fragment is a
// template with its own inputs, without a model or messages.
var fragmentFileKeys = []string{"description", "go_name", "template", "inputs", "jinja", "variables"}

// fragmentKeys reports the prompt keys that a fragment cannot have.
func (f *yamlFile) fragmentKeys(m *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if k.Value != schemaKey && slices.Contains(topLevelKeys, k.Value) && !slices.Contains(fragmentFileKeys, k.Value) {
			f.errorf(k, "a fragment has no %q (a fragment is a template with its inputs: %s)", k.Value, strings.Join(fragmentFileKeys, ", "))
		}
	}
}

// parseYAML parses a prompt file. It returns its first document and, when
// there is one, its second.
func parseYAML(data []byte) (doc, extra *yaml.Node, err error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var first, second yaml.Node
	if err := dec.Decode(&first); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	if err := dec.Decode(&second); err != nil {
		if errors.Is(err, io.EOF) {
			return &first, nil, nil
		}
		return nil, nil, err
	}
	return &first, &second, nil
}

// syntaxError reports a YAML syntax error at the best position found, with
// a hint for the common prompt-file mistakes.
func (f *yamlFile) syntaxError(err error) {
	data := f.source.data
	off := failOffset(data, err)
	hint := dedentHint(data, off)
	switch {
	case hint != "":
	case yamlMessage(err) == eosMessage:
		hint = " (the quoted string is not closed)"
	case lineHasJinja(data, off):
		hint = braceHint
	}
	f.diags.Errorf(f.source.pos(off), "invalid YAML: %s%s", yamlMessage(err), hint)
}

// failOffset returns the offset of the byte where parsing data fails with
// err. yaml.v3 reports only a line, and for parser errors the line of the
// enclosing collection, so this finds the shortest prefix of data that fails
// the same way: its last byte is where the parser gave up.
func failOffset(data []byte, err error) int {
	msg := err.Error()
	// An unclosed quote fails at the end of any prefix that opens it, with
	// the line of that end: the opening quote is the place to show.
	eos := yamlMessage(err) == eosMessage
	fails := func(prefix []byte) bool {
		_, _, err := parseYAML(prefix)
		return err != nil && (err.Error() == msg || eos && yamlMessage(err) == eosMessage)
	}
	lo, hi := 0, len(data) // the prefix of length hi fails
	for lo < hi {
		if mid := lo + (hi-lo)/2; fails(data[:mid]) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	off := max(hi-1, 0)
	for off > 0 && !utf8.RuneStart(data[off]) {
		off--
	}
	return off
}

// eosMessage is yaml.v3's error for a quoted scalar that is not closed.
const eosMessage = "found unexpected end of stream"

// yamlMessage strips yaml.v3's "yaml: line N: " prefix from err.
func yamlMessage(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, after, ok := strings.Cut(rest, ": "); ok {
			if _, err := strconv.Atoi(n); err == nil {
				return after
			}
		}
	}
	return msg
}

// lineHasJinja reports whether the line holding off has a Jinja delimiter.
func lineHasJinja(data []byte, off int) bool {
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	end := len(data)
	if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
		end = off + i
	}
	line := data[start:end]
	return bytes.Contains(line, []byte("{{")) || bytes.Contains(line, []byte("{%"))
}

// blockHeader matches a line that starts a block scalar, like `key: |`
// or `- key: >-`; it captures the key's column, the key and the indicators.
var blockHeader = regexp.MustCompile(`^((?: *- +)* *)("[^"]*"|'[^']*'|[^\s#'"?:-][^#]*?) *: +(?:[!&]\S* +)*[|>]([-+1-9]{0,2}) *(?:#.*)?\r?$`)

// siblingKey matches a line holding a mapping key like `outputFormat:`.
var siblingKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*:(?:\s|$)`)

// dedentHint recognises the most common prompt-file mistake: template lines
// indented less than their block scalar, so that YAML ends the scalar
// early and reads the rest of the template as YAML. It returns a hint when
// the error at errOff is in such lines and indenting them (up to the next
// key) makes it go away.
func dedentHint(data []byte, errOff int) string {
	lines := strings.Split(string(data), "\n")
	errLine := bytes.Count(data[:errOff], []byte("\n"))
	h := errLine
	var m []string
	for ; h >= 0; h-- {
		if m = blockHeader.FindStringSubmatch(lines[h]); m != nil {
			break
		}
	}
	if h < 0 {
		return ""
	}
	keyCol, key := len(m[1]), strings.Trim(m[2], `"'`)
	indent := blockIndent(lines[h+1:], keyCol, m[3])
	if indent <= keyCol {
		return ""
	}
	end := h + 1 // the first line YAML does not read as part of the block
	for end < len(lines) && (isBlank(lines[end]) || indentOf(lines[end]) >= indent) {
		end++
	}
	if end > errLine || endsBlock(lines[end], keyCol) {
		return ""
	}
	next := end + 1 // the next key of the enclosing mapping
	for next < len(lines) && !endsBlock(lines[next], keyCol) {
		next++
	}
	if errLine >= next {
		return ""
	}
	fixed := make([]string, len(lines))
	for i, line := range lines {
		if i >= end && i < next && !isBlank(line) {
			line = strings.Repeat(" ", indent) + line
		}
		fixed[i] = line
	}
	patched := []byte(strings.Join(fixed, "\n"))
	if _, _, err := parseYAML(patched); err != nil {
		if bytes.Count(patched[:failOffset(patched, err)], []byte("\n")) < next {
			return ""
		}
	}
	return fmt.Sprintf(" (line %d is indented less than the block scalar %q that starts at line %d: indent all of its lines)",
		end+1, key, h+1)
}

// blockIndent returns the content indentation of a block scalar whose key
// is at column keyCol (0-based), given its indicators and the lines after
// its header.
func blockIndent(lines []string, keyCol int, indicators string) int {
	if i := strings.IndexAny(indicators, "123456789"); i >= 0 {
		return keyCol + int(indicators[i]-'0')
	}
	for _, line := range lines {
		if !isBlank(line) {
			return indentOf(line)
		}
	}
	return 0
}

// endsBlock reports whether line belongs to the structure around a block
// scalar whose key is at column keyCol: a less indented line, a sibling
// key or a document marker.
func endsBlock(line string, keyCol int) bool {
	if isBlank(line) {
		return false
	}
	n := indentOf(line)
	return n < keyCol || n == keyCol && siblingKey.MatchString(line[n:]) ||
		strings.HasPrefix(line, "---") || strings.HasPrefix(line, "...")
}

func isBlank(line string) bool { return strings.TrimSpace(line) == "" }

func indentOf(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

// pair is one key/value entry of a YAML mapping.
type pair struct {
	key  string
	k, v *yaml.Node
}

// entries returns the entries of mapping m, without duplicates. A duplicate
// is reported at the later key, or with both at each copy, for names the
// user declares (either copy may be the mistake).
func (f *yamlFile) entries(m *yaml.Node, noun string, both bool) []pair {
	var ps []pair
	first := map[string]*yaml.Node{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			f.wrongKind(k, "a key", "a string")
			continue
		}
		if prev, dup := first[k.Value]; dup {
			if both {
				f.errorf(prev, "duplicate %s %q (also at line %d)", noun, k.Value, f.pos(k).Line)
				f.errorf(k, "duplicate %s %q (also at line %d)", noun, k.Value, f.pos(prev).Line)
			} else {
				f.errorf(k, "duplicate %s %q (first at line %d)", noun, k.Value, f.pos(prev).Line)
			}
			continue
		}
		first[k.Value] = k
		ps = append(ps, pair{key: k.Value, k: k, v: v})
	}
	return ps
}

// metadata fills pr's description, model, go_name, parameters or
// extra_parameters from e, and reports whether e is one of them or
// $schema; prompts and set templates share it.
func (f *yamlFile) metadata(e pair, pr *ir.PromptSpec) bool {
	switch e.key {
	case schemaKey:
		f.str(e)
	case "description":
		pr.Description, _ = f.str(e)
	case "model":
		pr.Model, _ = f.str(e)
	case "go_name":
		pr.GoName, _ = f.str(e)
		pr.GoNamePos = f.pos(e.v)
	case "parameters":
		if f.isMapping(e) {
			pr.Parameters = f.params(e.v)
		}
	case "extra_parameters":
		if f.isMapping(e) {
			pr.ExtraParameters = f.extraParams(e.v)
		}
	default:
		return false
	}
	return true
}

// prompt fills pr from the file's top-level mapping.
func (f *yamlFile) prompt(m *yaml.Node, pr *ir.PromptSpec) {
	// Without a template key (messages or sections only), the template is
	// empty but its file is still where the prompt's positions are.
	pr.Map = src.SourceMap{File: f.source.file}
	hasBody := false // template, messages or sections
	var templateKey, messagesKey, systemKey, sectionsKey, tokenizerKey, markersKey, specialTokensKey *yaml.Node
	for _, e := range f.entries(m, "key", false) {
		if f.metadata(e, pr) {
			continue
		}
		switch e.key {
		case "template":
			hasBody = true
			templateKey = e.k
			if s, ok := f.str(e); ok {
				pr.Template = s
				pr.Map = src.SourceMap{File: f.source.file, Lines: f.templateLines(e.v)}
			}
		case "inputs":
			if isString(e.v) && e.v.Value == "chat" {
				pr.Chat = true // runtime/chat.Context and the variables the template reads
			} else if f.isMapping(e) {
				pr.Inputs = f.inputs(e.v)
			}
		case "outputFormat":
			pr.OutputFormat = f.oneOf(e, "outputFormat", outputFormats)
		case "outputParsing":
			pr.OutputParsing = f.oneOf(e, "outputParsing", outputParsings)
			pr.OutputParsingPos = f.pos(e.k)
		case "jinja":
			if f.isMapping(e) {
				pr.Jinja = f.jinja(e.v)
			}
		case "outputSchema":
			pr.OutputSchemaPos = f.pos(e.k)
			pr.OutputSchema = f.outputSchema(e.v)
		case "examples":
			pr.Examples = f.examples(e.v)
		case "tools":
			pr.Tools = f.tools(e)
		case "filters":
			pr.Filters = f.filters(e)
		case "tool_choice":
			pr.ToolChoice, _ = f.str(e)
			pr.ToolChoicePos = f.pos(e.v)
		case "components":
			// Components are resolved through a set's namespaces; a
			// standalone prompt has none.
			f.errorf(e.k, "%q belong to template sets: a prompt file cannot have them "+
				"(put the prompt in a directory with a %s, where components/ and components: hold partials)", e.key, ir.SetFile)
		case "messages":
			hasBody = true
			pr.Messages = f.messages(e)
			messagesKey = e.k
		case "system":
			if s, ok := f.str(e); ok {
				pr.System = &ir.TemplateSpec{Text: s, Map: src.SourceMap{File: f.source.file, Lines: f.templateLines(e.v)}, Pos: f.pos(e.k)}
			}
			systemKey = e.k
		case "variables":
			if f.isMapping(e) {
				pr.Variables = f.variables(e.v)
			}
		case "sections":
			hasBody = true
			sectionsKey = e.k
			pr.Sections = f.sections(e)
		case "tokenizer":
			tokenizerKey = e.k
			pr.Tokenizer = f.tokenizer(e)
		case "markers":
			markersKey = e.k
			pr.Markers, _ = f.boolean(e)
		case "special_tokens":
			specialTokensKey = e.k
			pr.SpecialTokens = f.specialTokens(e)
		default:
			hint := schema.DidYouMean(e.key, topLevelKeys)
			f.errorf(e.k, "unknown key %q%s", e.key, hint)
			// A misspelt template is not also missing.
			hasBody = hasBody || hint == fmt.Sprintf(" (did you mean %q?)", "template")
		}
	}
	if !hasBody {
		f.errorf(m, "missing key %q", "template")
	}
	if messagesKey != nil && templateKey != nil {
		f.errorf(templateKey, "a prompt has either %q or %q, not both", "template", "messages")
	}
	f.sectionsWith(sectionsKey, messagesKey)
	f.sectionSettings(pr, tokenizerKey, markersKey)
	if specialTokensKey != nil && !pr.Chat {
		f.errorf(specialTokensKey, "%q is for chat templates (a prompt with %q)", "special_tokens", "inputs: chat")
		pr.SpecialTokens = nil
	}
	if messagesKey == nil {
		f.noImageInputs(pr.Inputs, "a prompt without messages")
	}
	if messagesKey != nil && systemKey != nil {
		f.errorf(systemKey, "%q is for single-template prompts (make it the first entry of %q)", "system", "messages")
		pr.System = nil
	}
}

// noImageInputs reports the image inputs of feed, which only an image
// part of a message's content can use, in where, which has none.
func (f *yamlFile) noImageInputs(feed *ir.Type, where string) {
	if feed == nil {
		return
	}
	for _, fld := range feed.Fields {
		if ir.IsImage(fld.Type) {
			f.diags.Errorf(fld.Pos, "%q is an image input, which only an image part of a message's content uses; %s has none", fld.Key, where)
		}
	}
}

// tmplSpec returns the template string of entry e.
func (f *yamlFile) tmplSpec(e pair) *ir.TemplateSpec {
	s, ok := f.str(e)
	if !ok {
		return nil
	}
	return &ir.TemplateSpec{Text: s, Map: src.SourceMap{File: f.source.file, Lines: f.templateLines(e.v)}, Pos: f.pos(e.k)}
}

// messages decodes `messages`: a list of {role, template} entries, with
// name, tool_call_id (tool_result), tool_calls (tool_request, assistant)
// and content in place of template (user).
func (f *yamlFile) messages(e pair) []*ir.MessageSpec {
	if e.v.Kind != yaml.SequenceNode {
		f.wrongKind(e.v, strconv.Quote(e.key), "a list of {role, template} entries")
		return nil
	}
	if len(e.v.Content) == 0 {
		f.errorf(e.v, "%q has no entries", e.key)
	}
	var ms []*ir.MessageSpec
	for i, n := range e.v.Content {
		if n.Kind != yaml.MappingNode {
			f.wrongKind(n, "a message", "a mapping with role and template")
			continue
		}
		m := &ir.MessageSpec{Pos: f.pos(n)}
		var roleNode, contentKey *yaml.Node
		for _, me := range f.entries(n, "key", false) {
			switch me.key {
			case "role":
				if s, ok := f.str(me); ok {
					roleNode = me.v
					if !slices.Contains(messageRoles, s) {
						f.errorf(me.v, "unknown role %q%s", s, schema.DidYouMean(s, messageRoles))
					}
					m.Role = s
				}
			case "template":
				m.Content = f.tmplSpec(me)
			case "name":
				m.Name = f.tmplSpec(me)
			case "tool_call_id":
				m.ToolCallID = f.tmplSpec(me)
			case "tool_calls":
				m.ToolCalls = f.toolCalls(me)
			case "data":
				m.Data = f.tmplSpec(me)
			case "content":
				contentKey = me.k
				m.Parts = f.contentParts(me)
			default:
				f.errorf(me.k, "unknown message key %q%s", me.key, schema.DidYouMean(me.key, messageKeys))
			}
		}
		switch {
		case roleNode == nil && m.Role == "":
			f.errorf(n, "message has no %q", "role")
			continue
		case m.Role == "system" && i > 0:
			f.errorf(roleNode, "a system message must be the first message")
		}
		switch m.Role {
		case "tool_request":
			if len(m.ToolCalls) == 0 {
				f.errorf(n, "a tool_request message needs %q", "tool_calls")
			}
		case "assistant":
			if m.Content == nil && len(m.ToolCalls) == 0 {
				f.errorf(n, "message has no %q", "template")
			}
		case "system", "user", "tool_result":
			if m.Content == nil && (m.Data == nil || m.Role != "tool_result") && (contentKey == nil || m.Role == "system") {
				f.errorf(n, "message has no %q", "template")
			}
			if len(m.ToolCalls) > 0 {
				f.errorf(n, "only assistant and tool_request messages have %q", "tool_calls")
			}
		}
		if m.Role == "tool_result" && m.ToolCallID == nil {
			f.errorf(n, "a tool_result message needs %q", "tool_call_id")
		}
		if m.Role != "tool_result" && m.ToolCallID != nil {
			f.errorf(n, "only tool_result messages have %q", "tool_call_id")
		}
		if m.Role != "tool_result" && m.Data != nil {
			f.errorf(n, "only tool_result messages have %q", "data")
		}
		if m.Content != nil && m.Data != nil {
			f.errorf(n, "a message has %q or %q, not both", "template", "data")
		}
		if contentKey != nil && m.Role != "user" && m.Role != "tool_result" && m.Role != "" {
			f.errorf(contentKey, "only user and tool_result messages have %q (text and image parts)", "content")
		}
		if contentKey != nil && m.Content != nil {
			f.errorf(contentKey, "a message has %q or %q, not both", "template", "content")
		}
		if contentKey != nil && m.Data != nil {
			f.errorf(contentKey, "a message has %q or %q, not both", "data", "content")
		}
		ms = append(ms, m)
	}
	return ms
}

// contentParts decodes a user message's `content`: a list of parts, each
// a mapping with one of the keys `text` (a template) and `image` (a
// template that renders the image's https URL or a base64 data URL), and
// for an image an optional `detail`, fixed in the file.
func (f *yamlFile) contentParts(e pair) []*ir.PartSpec {
	if e.v.Kind != yaml.SequenceNode {
		f.wrongKind(e.v, strconv.Quote(e.key), "a list of text and image parts")
		return nil
	}
	if len(e.v.Content) == 0 {
		f.errorf(e.v, "%q has no parts", e.key)
	}
	var parts []*ir.PartSpec
	for _, n := range e.v.Content {
		if n.Kind != yaml.MappingNode {
			f.wrongKind(n, "a content part", "a mapping with text or image")
			continue
		}
		var kinds []pair
		var detail *pair
		unknown := false
		for _, pe := range f.entries(n, "key", false) {
			switch {
			case slices.Contains(partKeys, pe.key):
				kinds = append(kinds, pe)
			case pe.key == "detail":
				detail = &pe
			default:
				f.errorf(pe.k, "unknown content part key %q%s", pe.key, schema.DidYouMean(pe.key, append(slices.Clone(partKeys), "detail")))
				unknown = true
			}
		}
		if len(kinds) != 1 {
			if len(kinds) > 1 || !unknown {
				f.errorf(n, "a content part has one of the keys %q and %q", "text", "image")
			}
			continue
		}
		pe := kinds[0]
		ps := &ir.PartSpec{Pos: f.pos(n), Image: pe.key == "image"}
		if detail != nil && !ps.Image {
			f.errorf(detail.k, "only image parts have %q", "detail")
		} else if detail != nil {
			ps.Detail = f.oneOf(*detail, "image detail", imageDetails)
		}
		if ps.Template = f.tmplSpec(pe); ps.Template != nil {
			parts = append(parts, ps)
			if ps.Image {
				f.checkStaticImage(pe.v, ps.Template.Text)
			}
		}
	}
	return parts
}

// checkStaticImage reports at n an image template without template syntax
// whose URL runtime.Prompt.Validate rejects, as it would in every
// rendering.
func (f *yamlFile) checkStaticImage(n *yaml.Node, text string) {
	if strings.Contains(text, "{{") || strings.Contains(text, "{%") || strings.Contains(text, "{#") {
		return
	}
	var errs runtime.MessageErrors
	if !errors.As(runtime.ImageFromURL(text).Validate(), &errs) {
		return
	}
	for _, e := range errs {
		e.Field = strings.TrimSpace("image " + e.Field)
		f.errorf(n, "%s", e)
	}
}

// toolCalls decodes a message's `tool_calls`: {id, name, arguments}
// templates, arguments rendering the text of a JSON object.
func (f *yamlFile) toolCalls(e pair) []*ir.ToolCallSpec {
	if e.v.Kind != yaml.SequenceNode {
		f.wrongKind(e.v, strconv.Quote(e.key), "a list of {id, name, arguments} entries")
		return nil
	}
	var cs []*ir.ToolCallSpec
	for _, n := range e.v.Content {
		if n.Kind != yaml.MappingNode {
			f.wrongKind(n, "a tool call", "a mapping with id, name and arguments")
			continue
		}
		c := &ir.ToolCallSpec{Pos: f.pos(n)}
		for _, ce := range f.entries(n, "key", false) {
			switch ce.key {
			case "id":
				c.ID = f.tmplSpec(ce)
			case "name":
				c.Name = f.tmplSpec(ce)
			case "arguments":
				c.Arguments = f.tmplSpec(ce)
			default:
				f.errorf(ce.k, "unknown tool call key %q%s", ce.key, schema.DidYouMean(ce.key, toolCallKeys))
			}
		}
		if c.ID == nil || c.Name == nil || c.Arguments == nil {
			f.errorf(n, "a tool call needs %q, %q and %q", "id", "name", "arguments")
			continue
		}
		cs = append(cs, c)
	}
	return cs
}

// variables decodes `variables: {allowed: [...], unknown: warn|error}`.
func (f *yamlFile) variables(m *yaml.Node) *ir.VariablesSpec {
	v := &ir.VariablesSpec{}
	for _, e := range f.entries(m, "key", false) {
		switch e.key {
		case "allowed":
			if e.v.Kind != yaml.SequenceNode {
				f.wrongKind(e.v, `"allowed"`, "a list of variable names")
				continue
			}
			v.AllowedPos = f.pos(e.k)
			v.Allowed = []string{}
			for _, n := range e.v.Content {
				if isString(n) {
					v.Allowed = append(v.Allowed, n.Value)
				} else {
					f.wrongKind(n, "a variable name", "a string")
				}
			}
		case "unknown":
			if s, ok := f.str(e); ok {
				if !slices.Contains(unknownPolicies, s) {
					f.errorf(e.v, "\"unknown\" must be warn or error, not %q%s", s, schema.DidYouMean(s, unknownPolicies))
				}
				v.Error = s == "error"
			}
		default:
			f.errorf(e.k, "unknown variables key %q%s", e.key, schema.DidYouMean(e.key, variablesKeys))
		}
	}
	if v.Allowed == nil {
		f.errorf(m, "variables has no %q list", "allowed")
		return nil
	}
	return v
}

// templateLines locates the bytes of a template scalar in the file.
func (f *yamlFile) templateLines(n *yaml.Node) []src.LineStart {
	start := f.source.skipProps(f.offset(n))
	switch {
	case n.Style&yaml.LiteralStyle != 0:
		return f.source.literalLines(n.Value, f.source.nextLine(start))
	case n.Style&yaml.FoldedStyle != 0:
		return f.source.alignLines(n.Value, f.source.nextLine(start))
	case n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0:
		return f.source.alignLines(n.Value, min(start+1, len(f.source.data)))
	}
	return f.source.alignLines(n.Value, start)
}

// wrongKind reports that node n, described by subject, is not what was wanted.
func (f *yamlFile) wrongKind(n *yaml.Node, subject, want string) {
	hint := ""
	switch {
	case n.Kind == yaml.AliasNode:
		hint = " (aliases are not supported)"
	case n.Kind == yaml.MappingNode && n.Style&yaml.FlowStyle != 0 &&
		bytes.HasPrefix(f.source.data[f.offset(n):], []byte("{{")):
		hint = braceHint
	case n.Kind == yaml.ScalarNode && want == "a string" && n.ShortTag() != "!!null":
		hint = " (quote the value)"
	}
	f.errorf(n, "%s must be %s, not %s%s", subject, want, ir.YAMLKind(n), hint)
}

func isString(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" }

// str returns the string value of entry e.
func (f *yamlFile) str(e pair) (string, bool) {
	if isString(e.v) {
		return e.v.Value, true
	}
	f.wrongKind(e.v, strconv.Quote(e.key), "a string")
	return "", false
}

// boolean returns the bool value of entry e.
func (f *yamlFile) boolean(e pair) (bool, bool) {
	var b bool
	if e.v.Kind == yaml.ScalarNode && e.v.ShortTag() == "!!bool" && e.v.Decode(&b) == nil {
		return b, true
	}
	f.wrongKind(e.v, strconv.Quote(e.key), "true or false")
	return false, false
}

// isMapping reports whether the value of e is a mapping, and reports it if not.
func (f *yamlFile) isMapping(e pair) bool {
	if e.v.Kind == yaml.MappingNode {
		return true
	}
	f.wrongKind(e.v, strconv.Quote(e.key), "a mapping")
	return false
}

// params decodes a `parameters` mapping, in file order, checking each
// entry against the known parameters: its name, its type and its range.
func (f *yamlFile) params(m *yaml.Node) []ir.Parameter { return f.mapping(m, f.checkParam) }

// extraParams decodes an `extra_parameters` mapping, which is sent as it
// is: only names that have a checked place elsewhere are errors.
func (f *yamlFile) extraParams(m *yaml.Node) []ir.Parameter { return f.mapping(m, f.checkExtra) }

// mapping decodes a mapping of parameter values, in file order, calling
// check, if not nil, with each entry and its value.
func (f *yamlFile) mapping(m *yaml.Node, check func(pair, any)) []ir.Parameter {
	var ps []ir.Parameter
	for _, e := range f.entries(m, "key", false) {
		v := f.value(e.v)
		if check != nil {
			check(e, v)
		}
		ps = append(ps, ir.Parameter{Key: e.key, Value: v, Pos: f.pos(e.k)})
	}
	return ps
}

// checkParam reports an unknown parameter at its name, with a
// did-you-mean or the way to pass a provider's own, and a value of the
// wrong type or out of range at the value.
func (f *yamlFile) checkParam(e pair, v any) {
	p, ok := params.Lookup(e.key)
	if !ok {
		if where, misplaced := params.Misplaced(e.key); misplaced {
			f.errorf(e.k, "%q is not a parameter: %s", e.key, where)
			return
		}
		hint := schema.DidYouMean(e.key, params.Names())
		if hint == "" {
			hint = " (put a provider's own parameters under extra_parameters, which are sent unchecked)"
		}
		f.errorf(e.k, "unknown parameter %q%s", e.key, hint)
		return
	}
	if v == nil && !isNull(e.v) {
		return // f.value reported why there is no value
	}
	if err := p.Check(plainValue(v)); err != nil {
		hint := ""
		if s, isString := v.(string); isString && p.Kind == params.Enum {
			hint = schema.DidYouMean(s, p.Values)
		}
		f.errorf(e.v, "%v%s", err, hint)
	}
}

// checkExtra reports an extra parameter whose name has a checked place.
func (f *yamlFile) checkExtra(e pair, _ any) {
	if _, known := params.Lookup(e.key); known {
		f.errorf(e.k, "%q is a known parameter: set it under parameters, where it is checked", e.key)
	} else if where, misplaced := params.Misplaced(e.key); misplaced {
		f.errorf(e.k, "%q is not a parameter: %s", e.key, where)
	}
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

// plainValue turns the nested mappings of a parameter value into
// map[string]any, the form runtime/params checks.
func plainValue(v any) any {
	switch v := v.(type) {
	case []ir.Parameter:
		m := make(map[string]any, len(v))
		for _, p := range v {
			m[p.Key] = plainValue(p.Value)
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = plainValue(x)
		}
		return out
	}
	return v
}

// value decodes a parameter value: string, int64, float64, bool, nil,
// []any or []Param.
func (f *yamlFile) value(n *yaml.Node) any {
	switch n.Kind {
	case yaml.MappingNode:
		return f.mapping(n, nil)
	case yaml.SequenceNode:
		vs := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			vs = append(vs, f.value(c))
		}
		return vs
	case yaml.ScalarNode:
		return f.scalar(n)
	}
	// Aliases are not followed: they can nest without bound.
	f.errorf(n, "aliases are not supported (write the value out)")
	return nil
}

// scalar decodes a scalar by its YAML tag; unknown tags give the text.
func (f *yamlFile) scalar(n *yaml.Node) any {
	var (
		v    any
		err  error
		what string
	)
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		err, what = n.Decode(&b), "bool"
		v = b
	case "!!int":
		var i int64
		err, what = n.Decode(&i), "integer"
		v = i
	case "!!float":
		var x float64
		err, what = n.Decode(&x), "number"
		v = x
	default:
		return n.Value
	}
	if err != nil {
		f.errorf(n, "invalid %s %q", what, n.Value)
		return nil
	}
	return v
}

// specialTokens decodes `special_tokens`: the model's special tokens, a
// list of non-empty strings, which no string of the chat context may hold.
func (f *yamlFile) specialTokens(e pair) []string {
	if e.v.Kind != yaml.SequenceNode {
		f.wrongKind(e.v, strconv.Quote(e.key), "a list of strings")
		return nil
	}
	tokens := []string{}
	for _, n := range e.v.Content {
		switch {
		case !isString(n):
			f.wrongKind(n, "a special token", "a string")
		case n.Value == "":
			f.errorf(n, "a special token cannot be empty")
		default:
			tokens = append(tokens, n.Value)
		}
	}
	return tokens
}

// oneOf checks an entry whose value is one of values.
func (f *yamlFile) oneOf(e pair, key string, values []string) string {
	s, ok := f.str(e)
	if !ok {
		return ""
	}
	if slices.Contains(values, s) {
		return s
	}
	hint := schema.DidYouMean(s, values)
	if hint == "" {
		hint = " (want " + strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1] + ")"
	}
	f.errorf(e.v, "unknown %s %q%s", key, s, hint)
	return ""
}

// jinja decodes the `jinja` environment options. The transformers profile
// turns trim_blocks and lstrip_blocks on, as transformers does; an option
// given with it still wins.
func (f *yamlFile) jinja(m *yaml.Node) tmpl.Options {
	var o tmpl.Options
	given := map[string]bool{}
	for _, e := range f.entries(m, "key", false) {
		var dst *bool
		given[e.key] = true
		switch e.key {
		case "profile":
			s, ok := f.str(e)
			switch {
			case !ok:
			case s == "transformers":
				o.Transformers = true
			default:
				hint := schema.DidYouMean(s, jinjaProfiles)
				if hint == "" {
					hint = " (want transformers)"
				}
				f.errorf(e.v, "unknown jinja profile %q%s", s, hint)
			}
			continue
		case "trim_blocks":
			dst = &o.TrimBlocks
		case "lstrip_blocks":
			dst = &o.LstripBlocks
		case "keep_trailing_newline":
			dst = &o.KeepTrailingNewline
		default:
			f.errorf(e.k, "unknown jinja option %q%s", e.key, schema.DidYouMean(e.key, jinjaOptions))
			continue
		}
		*dst, _ = f.boolean(e)
	}
	if o.Transformers {
		o.TrimBlocks = o.TrimBlocks || !given["trim_blocks"]
		o.LstripBlocks = o.LstripBlocks || !given["lstrip_blocks"]
	}
	return o
}

// inputs builds the feed type from `inputs`: a JSON Schema of type object,
// or the shorthand mapping of variable names to types.
func (f *yamlFile) inputs(m *yaml.Node) *ir.Type {
	if isObjectSchema(m) {
		t := f.schema(m, rootSchema).Type
		if t.Kind != ir.KindStruct {
			f.errorf(m, "%q must be an object with %q, not a map", "inputs", "properties")
		}
		t.Declared = true
		return t
	}
	t := &ir.Type{Kind: ir.KindStruct, Declared: true}
	for _, e := range f.entries(m, "variable", true) {
		if !isIdent(e.key) {
			f.errorf(e.k, "invalid variable name %q (use letters, digits and underscores)", e.key)
		}
		var fld *ir.Field
		if e.v.Kind == yaml.MappingNode {
			fld = f.schema(e.v, varSchema)
		} else {
			fld = &ir.Field{}
			fld.Type, fld.Optional = f.typeSpec(e.v)
		}
		fld.Key, fld.Pos = e.key, f.pos(e.k)
		t.Fields = append(t.Fields, fld)
	}
	return t
}

// isObjectSchema tells a JSON Schema (`type: object`) from shorthand, where
// "type" would be a variable's name.
func isObjectSchema(m *yaml.Node) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Value == "type" && isString(v) && v.Value == "object" {
			return true
		}
	}
	return false
}

// isIdent reports whether s can name a variable in a template.
func isIdent(s string) bool {
	for i, r := range s {
		if !(unicode.IsLetter(r) || r == '_' || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return s != ""
}

func unknownType() *ir.Type { return &ir.Type{Kind: ir.KindUnknown} }

// typeSpec reads a shorthand type: a name like "string" or "int?", or a
// list of one element type like [string]. It reports whether the name
// ends in "?" (optional).
func (f *yamlFile) typeSpec(n *yaml.Node) (*ir.Type, bool) {
	switch {
	case isString(n):
		name, optional := strings.CutSuffix(n.Value, "?")
		return f.shorthandType(n, name), optional
	case n.Kind == yaml.SequenceNode && len(n.Content) == 1:
		elem := f.elemSpec(n.Content[0])
		if elem.Kind == ir.KindList && ir.IsImage(elem) {
			f.errorf(n.Content[0], "a list of images is [image]; its elements cannot be lists")
		}
		return &ir.Type{Kind: ir.KindList, Elem: elem}, false
	case n.Kind == yaml.SequenceNode:
		f.errorf(n, "a list type has exactly one element type, like [string]")
		return unknownType(), false
	}
	f.wrongKind(n, "a type", `a name like "string", a list like [string] or a schema mapping`)
	return unknownType(), false
}

// elemSpec reads the element type of a shorthand list.
func (f *yamlFile) elemSpec(n *yaml.Node) *ir.Type {
	if n.Kind == yaml.MappingNode {
		return f.schema(n, itemSchema).Type
	}
	t, optional := f.typeSpec(n)
	if optional {
		f.errorf(n, "list elements cannot be optional")
	}
	return t
}

// shorthandType returns the type named by a shorthand type name.
func (f *yamlFile) shorthandType(n *yaml.Node, name string) *ir.Type {
	switch name {
	case "string":
		return &ir.Type{Kind: ir.KindString}
	case "int", "integer":
		return &ir.Type{Kind: ir.KindInt}
	case "number", "float":
		return &ir.Type{Kind: ir.KindFloat}
	case "bool", "boolean":
		return &ir.Type{Kind: ir.KindBool}
	case "object":
		return &ir.Type{Kind: ir.KindStruct} // fields are inferred from the template
	case "image":
		return &ir.Type{Kind: ir.KindImage}
	}
	hint := schema.DidYouMean(name, shorthandNames)
	switch {
	case name == "array" || name == "list":
		hint = " (write a list type as [string])"
	case strings.HasPrefix(name, "[") && strings.HasSuffix(name, "]"):
		hint = fmt.Sprintf(" (a list type is a YAML list: write %s without quotes)", name)
	}
	f.errorf(n, "unknown type %q%s", name, hint)
	return unknownType()
}

// schemaLevel is where a JSON Schema appears in `inputs`; it decides the
// extra keys allowed.
type schemaLevel uint8

const (
	rootSchema schemaLevel = iota // all of `inputs`
	varSchema                     // one shorthand variable: also optional and go_name
	propSchema                    // a property: also go_name
	itemSchema                    // items or additionalProperties
)

// schemaTypeOf names the type that a keyword applies to.
func schemaTypeOf(keyword string) string {
	switch keyword {
	case "properties", "required", "additionalProperties":
		return "object"
	case "items":
		return "array"
	}
	return ""
}

// schema reads a JSON Schema into a field (without Key and Pos): its type,
// whether it is optional, its description and go_name.
func (f *yamlFile) schema(m *yaml.Node, at schemaLevel) *ir.Field {
	fld := &ir.Field{}
	kw := map[string]pair{} // the keywords that shape the type
	var goType *pair
	for _, e := range f.entries(m, "key", false) {
		switch e.key {
		case "type", "properties", "required", "items", "additionalProperties", "enum":
			kw[e.key] = e
		case goTypeKey:
			if at == rootSchema {
				f.unknownKeyword(e, at)
				break
			}
			goType = &e
		case "description":
			fld.Description, _ = f.str(e)
		case "optional":
			if at != varSchema {
				f.unknownKeyword(e, at)
				break
			}
			fld.Optional, _ = f.boolean(e)
		case "go_name":
			if at != varSchema && at != propSchema {
				f.unknownKeyword(e, at)
				break
			}
			fld.GoNameOverride, _ = f.str(e)
			fld.GoNamePos = f.pos(e.v)
		default:
			f.unknownKeyword(e, at)
		}
	}
	if goType != nil {
		fld.Type = f.goType(*goType, kw)
		return fld
	}
	name, nullable, ok := f.schemaType(m, kw)
	fld.Optional = fld.Optional || nullable
	if !ok {
		fld.Type = unknownType()
		return fld
	}
	for _, k := range []string{"properties", "required", "additionalProperties", "items"} {
		if e, ok := kw[k]; ok && schemaTypeOf(k) != name {
			f.errorf(e.k, "%q applies only to type %q", k, schemaTypeOf(k))
		}
	}
	switch name {
	case "object":
		fld.Type = f.objectType(kw, at)
	case "array":
		fld.Type = f.listType(kw)
	case "string":
		fld.Type = &ir.Type{Kind: ir.KindString}
	case "integer":
		fld.Type = &ir.Type{Kind: ir.KindInt}
	case "number":
		fld.Type = &ir.Type{Kind: ir.KindFloat}
	case "boolean":
		fld.Type = &ir.Type{Kind: ir.KindBool}
	}
	return fld
}

// unknownKeyword reports a key that is not allowed in a schema at level at,
// unless it is a keyword that does not change the Go type.
func (f *yamlFile) unknownKeyword(e pair, at schemaLevel) {
	for _, k := range ignoredKeywords {
		if e.key == k {
			return
		}
	}
	for _, k := range unsupportedKeywords {
		if e.key == k {
			f.errorf(e.k, "schema keyword %q is not supported", e.key)
			return
		}
	}
	known := append(append([]string(nil), schemaKeywords...), ignoredKeywords...)
	switch at {
	case varSchema:
		known = append(known, "optional", "go_name", goTypeKey)
	case propSchema:
		known = append(known, "go_name", goTypeKey)
	case itemSchema:
		known = append(known, goTypeKey)
	}
	hint := schema.DidYouMean(e.key, known)
	if hint == "" && isString(e.v) && at == varSchema {
		hint = ` (nested variables go under "properties")`
	}
	f.errorf(e.k, "unknown schema keyword %q%s", e.key, hint)
}

// schemaType returns the JSON Schema type name of a schema, inferred from
// its keywords when `type` is absent, and whether it admits null. ok is
// false after an error.
func (f *yamlFile) schemaType(m *yaml.Node, kw map[string]pair) (name string, nullable, ok bool) {
	t, has := kw["type"]
	if !has {
		name = inferSchemaType(kw)
		if name == "" {
			f.errorf(m, "missing key %q", "type")
		}
		return name, false, name != ""
	}
	if t.v.Kind != yaml.SequenceNode {
		name = f.schemaTypeName(t.v)
		return name, false, name != ""
	}
	for _, c := range t.v.Content {
		switch {
		case c.Kind == yaml.ScalarNode && (c.Value == "null" || c.ShortTag() == "!!null"):
			nullable = true
		case name != "":
			f.errorf(t.v, "union types are not supported (use one type, and \"null\" if it is optional)")
			return "", nullable, false
		default:
			if name = f.schemaTypeName(c); name == "" {
				return "", nullable, false
			}
		}
	}
	if name == "" {
		f.errorf(t.v, "%q needs a type besides \"null\"", "type")
	}
	return name, nullable, name != ""
}

// inferSchemaType returns the type implied by a schema's keywords, or "".
func inferSchemaType(kw map[string]pair) string {
	_, props := kw["properties"]
	_, addl := kw["additionalProperties"]
	_, items := kw["items"]
	enum, hasEnum := kw["enum"]
	switch {
	case props || addl:
		return "object"
	case items:
		return "array"
	case hasEnum && enum.v.Kind == yaml.SequenceNode && len(enum.v.Content) > 0:
		for _, c := range enum.v.Content {
			if !isString(c) {
				return ""
			}
		}
		return "string"
	}
	return ""
}

// schemaTypeName checks one JSON Schema type name.
func (f *yamlFile) schemaTypeName(n *yaml.Node) string {
	if !isString(n) {
		f.wrongKind(n, `"type"`, "a type name")
		return ""
	}
	for _, t := range schemaTypes {
		if n.Value == t {
			return t
		}
	}
	hint := schema.DidYouMean(n.Value, schemaTypes)
	switch n.Value { // shorthand names, which JSON Schema spells out
	case "int":
		hint = ` (did you mean "integer"?)`
	case "float":
		hint = ` (did you mean "number"?)`
	case "bool":
		hint = ` (did you mean "boolean"?)`
	}
	f.errorf(n, "unknown type %q%s", n.Value, hint)
	return ""
}

// objectType builds an object schema's type: a struct with the declared
// properties, a map (additionalProperties without properties), or a struct
// whose fields are inferred (neither).
func (f *yamlFile) objectType(kw map[string]pair, at schemaLevel) *ir.Type {
	props, hasProps := kw["properties"]
	if addl, ok := kw["additionalProperties"]; ok {
		switch {
		case addl.v.Kind == yaml.MappingNode && hasProps:
			f.errorf(addl.k, "%q with %q is not supported", "additionalProperties", "properties")
		case addl.v.Kind == yaml.MappingNode:
			return &ir.Type{Kind: ir.KindMap, Elem: f.schema(addl.v, itemSchema).Type}
		case addl.v.ShortTag() != "!!bool":
			f.wrongKind(addl.v, `"additionalProperties"`, "a schema or a bool")
		}
	}
	t := &ir.Type{Kind: ir.KindStruct, Declared: hasProps || at == rootSchema}
	if hasProps && f.isMapping(props) {
		for _, e := range f.entries(props.v, "property", true) {
			var fld *ir.Field
			if e.v.Kind == yaml.MappingNode {
				fld = f.schema(e.v, propSchema)
			} else {
				f.wrongKind(e.v, fmt.Sprintf("property %q", e.key), "a schema mapping")
				fld = &ir.Field{Type: unknownType()}
			}
			fld.Key, fld.Pos = e.key, f.pos(e.k)
			t.Fields = append(t.Fields, fld)
		}
	}
	required := f.required(kw, t)
	if hasProps {
		for _, fld := range t.Fields {
			fld.Optional = fld.Optional || !required[fld.Key]
		}
	}
	return t
}

// required returns the property names listed in `required`, reporting
// those that t does not declare.
func (f *yamlFile) required(kw map[string]pair, t *ir.Type) map[string]bool {
	names := map[string]bool{}
	e, ok := kw["required"]
	if !ok {
		return names
	}
	if e.v.Kind != yaml.SequenceNode {
		f.wrongKind(e.v, `"required"`, "a list of property names")
		return names
	}
	var declared []string
	for _, fld := range t.Fields {
		declared = append(declared, fld.Key)
	}
	for _, c := range e.v.Content {
		switch {
		case !isString(c):
			f.wrongKind(c, "a required property", "a string")
		case t.Field(c.Value) == nil:
			f.errorf(c, "required property %q is not defined%s", c.Value, schema.DidYouMean(c.Value, declared))
		default:
			names[c.Value] = true
		}
	}
	return names
}

// listType builds an array schema's type.
func (f *yamlFile) listType(kw map[string]pair) *ir.Type {
	items, ok := kw["items"]
	switch {
	case !ok:
		return &ir.Type{Kind: ir.KindList, Elem: unknownType()} // inferred from use
	case f.isMapping(items):
		return &ir.Type{Kind: ir.KindList, Elem: f.schema(items.v, itemSchema).Type}
	}
	return &ir.Type{Kind: ir.KindList, Elem: unknownType()}
}

// outputSchema loads the `outputSchema` JSON Schema. Its diagnostics name
// the schema path: "outputSchema.properties.sentiment: ...".
func (f *yamlFile) outputSchema(n *yaml.Node) *schema.Schema {
	s, diags := schema.Load(n, schema.Options{File: f.source.file, Path: "outputSchema", Pos: f.schemaPos})
	f.schemaDiags(diags)
	return s
}

// schemaPos is f.pos for the schema package.
func (f *yamlFile) schemaPos(n *yaml.Node) schema.Pos {
	p := f.pos(n)
	return schema.Pos{File: p.File, Line: p.Line, Col: p.Col}
}

// schemaDiags reports the diagnostics of the schema package.
func (f *yamlFile) schemaDiags(ds schema.Diagnostics) {
	for _, d := range ds {
		pos := src.Pos{File: d.Pos.File, Line: d.Pos.Line, Col: d.Pos.Col}
		if d.Warning {
			f.diags.Warnf(pos, "%s: %s", d.Path, d.Msg)
		} else {
			f.diags.Errorf(pos, "%s: %s", d.Path, d.Msg)
		}
	}
}

// examples reads the `examples` list: mappings with input_vars and
// expected_output, whose values are checked once the types are known.
func (f *yamlFile) examples(n *yaml.Node) []*ir.ExampleSpec {
	if n.Kind != yaml.SequenceNode {
		f.wrongKind(n, `"examples"`, "a list of {input_vars, expected_output}")
		return nil
	}
	var exs []*ir.ExampleSpec
	for i, item := range n.Content {
		if item.Kind != yaml.MappingNode {
			f.wrongKind(item, fmt.Sprintf("examples[%d]", i), "a mapping with input_vars and expected_output")
			continue
		}
		ex := &ir.ExampleSpec{Pos: f.pos(item), PosOf: f.pos}
		for _, e := range f.entries(item, "key", false) {
			switch e.key {
			case "input_vars":
				if e.v.Kind != yaml.MappingNode && e.v.ShortTag() != "!!null" {
					f.wrongKind(e.v, fmt.Sprintf("examples[%d].input_vars", i), "a mapping of variables")
					continue
				}
				ex.Input, ex.InputPos = e.v, f.pos(e.k)
			case "expected_output":
				if e.v.Kind == yaml.AliasNode {
					f.errorf(e.v, "examples[%d].expected_output: aliases are not supported (write the value out)", i)
					continue
				}
				ex.Output, ex.OutputPos = e.v, f.pos(e.k)
			default:
				f.errorf(e.k, "unknown example key %q%s", e.key, schema.DidYouMean(e.key, exampleKeys))
			}
		}
		if ex.Output == nil {
			f.errorf(item, "examples[%d]: missing key %q", i, "expected_output")
		}
		exs = append(exs, ex)
	}
	return exs
}
