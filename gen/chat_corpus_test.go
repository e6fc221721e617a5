package gen_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/promptgen/promptgen/gen"
	"github.com/promptgen/promptgen/gen/internal/load"
	"github.com/promptgen/promptgen/internal/difffuzz"
	"github.com/promptgen/promptgen/internal/pyjinja"
	"gopkg.in/yaml.v3"
)

var chatCorpus = flag.Bool("chatcorpus", false, "record the measure of promptgen on the chat template corpus in testdata/chat/status.json and INVENTORY.md (make chatcorpus)")

// chatDir holds the corpus of published chat templates (see its README.md).
var chatDir = filepath.Join("testdata", "chat")

// chatCorpusFiles is the corpus: templates and conversations by name.
type chatCorpusFiles struct {
	templates, conversations []string // sorted names
	source, data             map[string][]byte
}

// chatStatus is status.json: what promptgen does with each template.
type chatStatus struct {
	How       string                        `json:"how"`
	Templates map[string]chatTemplateStatus `json:"templates"`
}

type chatTemplateStatus struct {
	Compiles bool `json:"compiles"`
	// Error is the first error of a template that does not compile, at
	// its line:col in the template.
	Error string `json:"error,omitempty"`
	// Conversations holds, for a template that compiles, "match" or what
	// went wrong, by conversation.
	Conversations map[string]string `json:"conversations,omitempty"`
}

const chatHow = "`go test ./gen -run '^TestChatCorpus$' -chatcorpus`: each template is a prompt file " +
	"with `inputs: chat` and `jinja: {profile: transformers}`, generated with both backends; " +
	"each conversation is its feed (runtime/chat.Context and the template's other variables), decoded ignoring keys the feed has no field for; " +
	"a rendering matches when both backends print Jinja2's output, or, where Jinja2 raises, both fail with the error its exception maps to " +
	"(raise_exception: its message; internal/pyjinja/errors.go)"

func loadChatCorpus(t *testing.T) chatCorpusFiles {
	t.Helper()
	c := chatCorpusFiles{source: map[string][]byte{}, data: map[string][]byte{}}
	read := func(dir, ext string, into map[string][]byte) []string {
		files, err := filepath.Glob(filepath.Join(chatDir, dir, "*"+ext))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ext)
			names = append(names, name)
			into[name] = gen.ReadFile(t, f)
		}
		if len(names) == 0 {
			t.Fatalf("no %s/*%s in %s", dir, ext, chatDir)
		}
		return names
	}
	c.templates = read("templates", ".jinja", c.source)
	c.conversations = read("conversations", ".json", c.data)
	return c
}

// TestChatCorpus checks that the chat template corpus is complete: every
// template has a source, every conversation is a chat context, every
// template × conversation has Jinja2's expected output, and status.json
// covers the corpus; and that promptgen compiles every template and
// matches Jinja2 on every conversation. With -chatcorpus it first
// rewrites status.json with the measure, from which render.py writes the
// promptgen part of INVENTORY.md.
func TestChatCorpus(t *testing.T) {
	c := loadChatCorpus(t)
	checkChatSources(t, c)
	for _, name := range c.conversations {
		var ctx struct {
			Messages []map[string]any `json:"messages"`
		}
		if err := json.Unmarshal(c.data[name], &ctx); err != nil || ctx.Messages == nil {
			t.Errorf("conversations/%s.json: want a JSON object with a messages list (%v)", name, err)
		}
	}
	checkChatWant(t, c)
	// Every run measures promptgen on the corpus (about 10 s): a template
	// that stops compiling or matching fails the build (checkChatAllMatch),
	// with -chatcorpus (make chatcorpus) too, which records the measure.
	status, fuzz := measureChatCorpus(t, c)
	checkChatFuzz(t, fuzz)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(status); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(chatDir, "status.json")
	if *chatCorpus {
		gen.WriteFile(t, file, b.Bytes())
		logChatStatus(t, c, status)
	} else if recorded := gen.ReadFile(t, file); !bytes.Equal(recorded, b.Bytes()) {
		t.Errorf("promptgen measures the chat corpus differently from %s (-recorded +measured):\n%s\nrun make chatcorpus and review the change",
			file, cmp.Diff(string(recorded), b.String()))
	}
	checkChatStatus(t, c)
	checkChatAllMatch(t, c, status)
}

// checkChatAllMatch fails unless every template compiles and matches
// Jinja2 on every conversation, as all do since issue 14: status.json
// records the measure, it does not excuse a regression.
func checkChatAllMatch(t *testing.T, c chatCorpusFiles, status chatStatus) {
	t.Helper()
	for _, tmpl := range c.templates {
		s := status.Templates[tmpl]
		if !s.Compiles {
			t.Errorf("templates/%s.jinja does not compile: %s", tmpl, s.Error)
			continue
		}
		for _, conv := range c.conversations {
			if o := s.Conversations[conv]; o != "match" {
				t.Errorf("templates/%s.jinja with conversations/%s.json: %s", tmpl, conv, o)
			}
		}
	}
}

// sourceRowRe matches a template's row in SOURCES.md, in either of its
// tables: its third column, the Ollama model or the repository, starts with
// a code span (in the table of templates left out, it is the licence).
var sourceRowRe = regexp.MustCompile(`(?m)^\| ([^ |]+) \| [^|]+ \| ` + "`")

// checkChatSources checks that SOURCES.md has one row for every template
// and none for a template that is not there.
func checkChatSources(t *testing.T, c chatCorpusFiles) {
	t.Helper()
	rows := map[string]int{}
	for _, m := range sourceRowRe.FindAllStringSubmatch(string(gen.ReadFile(t, filepath.Join(chatDir, "SOURCES.md"))), -1) {
		rows[m[1]]++
	}
	for _, name := range c.templates {
		if rows[name] != 1 {
			t.Errorf("SOURCES.md: %d rows for template %s, want 1", rows[name], name)
		}
		delete(rows, name)
	}
	for name := range rows {
		t.Errorf("SOURCES.md: a row for %s, which is not in templates/", name)
	}
}

// checkChatWant checks that want/ holds exactly one expected output, .txt
// or .raises, for each template × conversation.
func checkChatWant(t *testing.T, c chatCorpusFiles) {
	t.Helper()
	want := map[string]bool{}
	for _, tmpl := range c.templates {
		for _, conv := range c.conversations {
			want[tmpl+"/"+conv] = true
		}
	}
	seen := map[string]string{}
	root := filepath.Join(chatDir, "want")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
		ext := filepath.Ext(rel)
		key := strings.TrimSuffix(rel, ext)
		switch {
		case ext != ".txt" && ext != ".raises" || !want[key]:
			t.Errorf("want/%s: not the output of a template and a conversation", rel)
		case seen[key] != "":
			t.Errorf("want/%s: both %s and %s", key, seen[key], ext)
		default:
			seen[key] = ext
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for key := range want {
		if seen[key] == "" {
			t.Errorf("want/%s.txt or .raises is missing: run make golden", key)
		}
	}
}

// checkChatStatus checks that status.json measures exactly the corpus.
func checkChatStatus(t *testing.T, c chatCorpusFiles) {
	t.Helper()
	var status chatStatus
	if err := json.Unmarshal(gen.ReadFile(t, filepath.Join(chatDir, "status.json")), &status); err != nil {
		t.Fatalf("status.json: %v", err)
	}
	for _, tmpl := range c.templates {
		s, ok := status.Templates[tmpl]
		switch {
		case !ok:
			t.Errorf("status.json has no entry for template %s: run make chatcorpus", tmpl)
		case s.Compiles && !slices.Equal(slices.Sorted(maps.Keys(s.Conversations)), c.conversations):
			t.Errorf("status.json: template %s is measured on other conversations than conversations/ holds: run make chatcorpus", tmpl)
		case !s.Compiles && (s.Error == "" || len(s.Conversations) > 0):
			t.Errorf("status.json: template %s does not compile: want its error and no conversations", tmpl)
		}
		delete(status.Templates, tmpl)
	}
	for tmpl := range status.Templates {
		t.Errorf("status.json has an entry for %s, which is not in templates/", tmpl)
	}
}

// chatPromptHeader precedes the template in the prompt file that
// measures it; the template starts on line chatPromptLine, indented by
// two spaces, where it is a literal block.
const (
	chatPromptHeader = "inputs: chat\njinja: {profile: transformers}\n"
	chatPromptLine   = 4
	chatPromptIndent = 2
)

// chatPrompt returns the prompt file for a chat template, which holds the
// template byte for byte: as a YAML literal block, or, where a literal
// block cannot hold it (a carriage return: a literal block reads every
// line break as "\n"), as the double-quoted string yaml.v3 writes for it,
// which escapes it; quoted reports the second.
func chatPrompt(t *testing.T, name string, source []byte) (prompt []byte, quoted bool) {
	t.Helper()
	var b bytes.Buffer
	b.WriteString(chatPromptHeader + "template: |2")
	text := string(source)
	if strings.HasSuffix(text, "\n") {
		b.WriteString("+\n") // keep the trailing newlines
		text = strings.TrimSuffix(text, "\n")
	} else {
		b.WriteString("-\n") // strip the newline written after the last line
	}
	for line := range strings.SplitSeq(text, "\n") {
		if line != "" {
			b.WriteString(strings.Repeat(" ", chatPromptIndent))
		}
		b.WriteString(line + "\n")
	}
	var back struct{ Template string }
	if err := yaml.Unmarshal(b.Bytes(), &back); err != nil || back.Template != string(source) {
		quoted = true
		y, err := yaml.Marshal(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
			{Kind: yaml.ScalarNode, Value: "template"},
			{Kind: yaml.ScalarNode, Value: string(source), Style: yaml.DoubleQuotedStyle},
		}})
		if err != nil {
			t.Fatalf("templates/%s.jinja: %v", name, err)
		}
		b.Reset()
		b.WriteString(chatPromptHeader)
		b.Write(y)
		back.Template = ""
		if err := yaml.Unmarshal(b.Bytes(), &back); err != nil || back.Template != string(source) {
			t.Fatalf("templates/%s.jinja does not survive a YAML literal block or double-quoted string (%v)", name, err)
		}
	}
	return b.Bytes(), quoted
}

// chatPos names a position of the prompt file that chatPrompt wrote: the
// template's line:col where the template is a literal block, else the
// prompt file's (the double-quoted string is one line of escapes).
func chatPos(quoted bool, line, col int) string {
	if quoted {
		return fmt.Sprintf("prompt file %d:%d", line, col)
	}
	return fmt.Sprintf("%d:%d", line-chatPromptLine+1, col-chatPromptIndent)
}

// measureChatCorpus generates every template with both backends, renders
// every conversation with those that compile, and compares with want/. It
// also renders random contexts with them (chatFuzzRuns), in the same build,
// and returns those runs.
func measureChatCorpus(t *testing.T, c chatCorpusFiles) (chatStatus, []*difffuzz.Trial) {
	status := chatStatus{How: chatHow, Templates: map[string]chatTemplateStatus{}}
	type job struct {
		run        *difffuzz.Trial
		tmpl, conv string
		quoted     bool
	}
	var jobs []job
	var runs, fuzz []*difffuzz.Trial
	shared := map[string][]byte{}
	for i, tmpl := range c.templates {
		key := fmt.Sprintf("c%d", i)
		prompt, quoted := chatPrompt(t, tmpl, c.source[tmpl])
		run := difffuzz.NewTrial(&difffuzz.Case{Index: i, Key: key, File: key + ".yaml", Source: prompt})
		run.Lenient = true
		difffuzz.Generate(run, shared)
		switch {
		case run.Crash != "":
			status.Templates[tmpl] = chatTemplateStatus{Error: "crash: " + run.Crash}
			continue
		case run.Rejected != "":
			d := run.FirstErr
			msg := macroCallRe.ReplaceAllStringFunc(d.Msg, func(at string) string {
				m := macroCallRe.FindStringSubmatch(at)
				line, _ := strconv.Atoi(m[1]) // digits, by macroCallRe
				col, _ := strconv.Atoi(m[2])
				return " at " + chatPos(quoted, line, col) + ")"
			})
			status.Templates[tmpl] = chatTemplateStatus{Error: chatPos(quoted, d.Pos.Line, d.Pos.Col) + ": " + msg}
			continue
		}
		fuzz = append(fuzz, chatFuzzRuns(run, c.source[tmpl], i)...)
		for _, conv := range c.conversations {
			r := *run
			r.Data = c.data[conv]
			jobs = append(jobs, job{&r, tmpl, conv, quoted})
			runs = append(runs, &r)
		}
	}
	difffuzz.Render(t, append(runs, fuzz...), shared, &difffuzz.Summary{})
	lenient := map[string]int{}
	for _, j := range jobs {
		s := status.Templates[j.tmpl]
		if j.run.Crash != "" {
			status.Templates[j.tmpl] = chatTemplateStatus{Error: j.run.Crash}
			continue
		}
		s.Compiles = true
		if s.Conversations == nil {
			s.Conversations = map[string]string{}
		}
		s.Conversations[j.conv] = chatOutcome(t, j.tmpl, j.conv, j.quoted, j.run, lenient)
		status.Templates[j.tmpl] = s
	}
	pyjinja.LogLenient(t, "chat corpus", lenient)
	return status, fuzz
}

// renderPosRe is the start of a render error's message: the prompt
// file's position and the prompt's name, which are the measurement's.
// macroCallRe is the position of the call an error in a macro's body
// names, in the prompt file.
var macroCallRe = regexp.MustCompile(` at (\d+):(\d+)\)$`)

var renderPosRe = regexp.MustCompile(`^prompts/c\d+\.yaml:(\d+):(\d+): render c\d+: `)

// chatOutcome compares run's renderings with the expected output of tmpl
// with conv (pyjinja.Match), counting in lenient the pairs that match by a
// jinjaLenient reason; quoted is chatPrompt's.
func chatOutcome(t *testing.T, tmpl, conv string, quoted bool, run *difffuzz.Trial, lenient map[string]int) string {
	base := filepath.Join(chatDir, "want", tmpl, conv)
	want, err := os.ReadFile(base + ".txt")
	jinja := pyjinja.Outcome{Status: "ok", Text: string(want)}
	if os.IsNotExist(err) {
		raised := strings.TrimSuffix(string(gen.ReadFile(t, base+".raises")), "\n")
		typ, msg, ok := strings.Cut(raised, ": ")
		if !ok {
			t.Fatalf("%s.raises: want <ExceptionType>: <message>, got %q", base, raised)
		}
		jinja = pyjinja.Raised(typ, msg)
	} else if err != nil {
		t.Fatal(err)
	}
	got, tt := run.Out[0], run.Out[1]
	goOK, why := pyjinja.Match(jinja, got)
	ttOK, _ := pyjinja.Match(jinja, tt)
	switch {
	case goOK && ttOK:
		if why != "" {
			lenient[why]++
		}
		return "match"
	case goOK:
		return fmt.Sprintf("the backends differ: text/template %.200s where Jinja2 %.200s", tt, jinja)
	case ttOK:
		return fmt.Sprintf("the backends differ: go %.200s where Jinja2 %.200s", got, jinja)
	case got.Status == "ok" && jinja.Status == "error":
		return "renders where Jinja2 raises " + jinja.Text
	case got.Status == "ok":
		return "differs"
	case got.Status == "error":
		msg := got.Text
		if m := renderPosRe.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1]) // digits, by renderPosRe
			col, _ := strconv.Atoi(m[2])
			msg = chatPos(quoted, line, col) + ": " + msg[len(m[0]):]
		}
		if jinja.Status == "error" {
			return fmt.Sprintf("error (%s): %s where Jinja2 raises %s", got.Kind, msg, jinja.Text)
		}
		return "error: " + msg
	}
	// A decode error names the feed's types, whose C<n> prefix is the
	// measurement's name for the template.
	return got.Status + ": " + measureNameRe.ReplaceAllString(got.Text, "$1")
}

var measureNameRe = regexp.MustCompile(`\bC\d+([A-Z])`)

// logChatStatus prints the measurement's table.
func logChatStatus(t *testing.T, c chatCorpusFiles, status chatStatus) {
	var b strings.Builder
	compiled, allMatch, pairs := 0, 0, 0
	for _, tmpl := range c.templates {
		s := status.Templates[tmpl]
		n := 0
		for _, o := range s.Conversations {
			if o == "match" {
				n++
			}
		}
		pairs += n
		if s.Compiles {
			compiled++
			if n == len(c.conversations) {
				allMatch++
			}
			fmt.Fprintf(&b, "%-28s compiles, %2d/%d match\n", tmpl, n, len(c.conversations))
		} else {
			fmt.Fprintf(&b, "%-28s %s\n", tmpl, s.Error)
		}
	}
	fmt.Fprintf(&b, "%d templates: %d compile, %d compile and match every conversation; %d of %d renderings match\n",
		len(c.templates), compiled, allMatch, pairs, len(c.templates)*len(c.conversations))
	t.Log("\n" + b.String())
}

// TestChatPromptKeepsTemplate checks that promptgen reads the template of
// chatPrompt's prompt file byte for byte, line endings included, whether
// chatPrompt writes it as a literal block or as a double-quoted string.
func TestChatPromptKeepsTemplate(t *testing.T) {
	for _, tc := range []struct {
		name, source string
		quoted       bool
	}{
		{"lf", "{%- for m in messages %}\n  {{ m.content }}\n{% endfor %}\n\n", false},
		{"no-final-newline", "a\n\n  b", false},
		{"crlf", "{%- for m in messages %}\r\n  {{ m.content }}\r\n{% endfor %}\r\n", true},
		{"crlf-no-final-newline", "{{ '\\n' }}\r\n\r\n\t x\r\n  y", true},
		{"lone-cr", "a\rb\n c\r", true},
		{"quotes-and-escapes", "\"{{ 'it''s' }}\\\"\r\n\u00e9\u2581\ufeff", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prompt, quoted := chatPrompt(t, tc.name, []byte(tc.source))
			if quoted != tc.quoted {
				t.Errorf("quoted = %v, want %v:\n%s", quoted, tc.quoted, prompt)
			}
			prompts, diags := load.Prompts(fstest.MapFS{"c.yaml": {Data: prompt}}, "prompts", nil)
			if len(diags) > 0 || len(prompts) != 1 {
				t.Fatalf("load: %d prompts, %v", len(prompts), diags)
			}
			if got := prompts[0].Template; got != tc.source {
				t.Errorf("promptgen reads the template as %q, want %q:\n%s", got, tc.source, prompt)
			}
		})
	}
}
