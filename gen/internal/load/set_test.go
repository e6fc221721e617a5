package load

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
)

// dumpSets describes loaded sets, one line per set, template and component.
func dumpSets(sets []*ir.SetSpec) []string {
	var out []string
	for _, s := range sets {
		out = append(out, fmt.Sprintf("set %q %s type=%q name=%q model=%q", s.Key, s.Pos, s.DefaultType, s.DefaultName, s.Model))
		for _, t := range s.Templates {
			out = append(out, fmt.Sprintf("  T %s [%s|%s|%s] %s key=%s %q", t.Path, t.Namespace, t.Name, t.Version, t.Prompt.Pos, t.Prompt.Key, t.Prompt.Template))
		}
		for _, c := range s.Components {
			out = append(out, fmt.Sprintf("  C %s [%s|%s|%s] %s %q", c.Full(), c.Namespace, c.Name, c.Version, c.Prompt.Pos, c.Prompt.Template))
		}
	}
	return out
}

func TestLoadSets(t *testing.T) {
	fsys := mapFS(map[string]string{
		"standalone.yaml":                                   "template: not in a set\n",
		"agent/promptset.yaml":                              agentSetYAML,
		"agent/main/default.jinja":                          "{{ system_preamble }}\nUser: {{ user_input }}\n",
		"agent/main/BrowseLink.jinja":                       "Page: {{ context }}",
		"agent/main/BrowseLink.enterprise.jinja":            "Enterprise page: {{ context }}",
		"agent/main/Search.yaml":                            "model: m2\nparameters: {temperature: 0.5}\nextra_parameters: {service_tier: flex}\ntemplate: |\n  Results: {{ action_result }}\n",
		"agent/main/components/system_preamble.jinja":       "You are helpful.",
		"agent/main/components/system_preamble.legal.jinja": "Say nothing.",
		"agent/action_agent/main/default.md":                "Act: {{ user_input }}",
		"agent/.hidden/x.jinja":                             "skipped",
		"agent/README.md":                                   "not a template",
		"deep/er/set/promptset.yaml":                        "",
		"deep/er/set/default.txt":                           "plain",
	})
	sets, diags := Sets(fsys, "prompts", nil)
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", diags.Sorted())
	}
	want := []string{
		`set "agent" prompts/agent/promptset.yaml:1:1 type="main" name="default" model="m1"`,
		`  T action_agent/main/default [action_agent/main|default|] prompts/agent/action_agent/main/default.md:1:1 key=agent/action_agent/main/default "Act: {{ user_input }}"`,
		`  T main/BrowseLink [main|BrowseLink|] prompts/agent/main/BrowseLink.jinja:1:1 key=agent/main/BrowseLink "Page: {{ context }}"`,
		`  T main/BrowseLink.enterprise [main|BrowseLink|enterprise] prompts/agent/main/BrowseLink.enterprise.jinja:1:1 key=agent/main/BrowseLink.enterprise "Enterprise page: {{ context }}"`,
		`  T main/Search [main|Search|] prompts/agent/main/Search.yaml:1:1 key=agent/main/Search "Results: {{ action_result }}\n"`,
		`  T main/default [main|default|] prompts/agent/main/default.jinja:1:1 key=agent/main/default "{{ system_preamble }}\nUser: {{ user_input }}\n"`,
		`  T reflection/Review.v2 [reflection|Review|v2] prompts/agent/promptset.yaml:21:5 key=agent/reflection/Review.v2 "Review {{ action_result }}"`,
		`  T reflection/default [reflection|default|] prompts/agent/promptset.yaml:18:5 key=agent/reflection/default "Look back.\n{{ previous_states }}"`,
		`  C components/signature [|signature|] prompts/agent/promptset.yaml:8:3 "-- {{ agent_name }}"`,
		`  C main/components/response_instructions.structured [main|response_instructions|structured] prompts/agent/promptset.yaml:13:11 "Use XML tags."`,
		`  C main/components/response_instructions.freeform [main|response_instructions|freeform] prompts/agent/promptset.yaml:15:11 "Respond naturally."`,
		`  C main/components/system_preamble [main|system_preamble|] prompts/agent/main/components/system_preamble.jinja:1:1 "You are helpful."`,
		`  C main/components/system_preamble.legal [main|system_preamble|legal] prompts/agent/main/components/system_preamble.legal.jinja:1:1 "Say nothing."`,
		`set "deep/er/set" prompts/deep/er/set/promptset.yaml:1:1 type="main" name="default" model=""`,
		`  T default [|default|] prompts/deep/er/set/default.txt:1:1 key=deep/er/set/default "plain"`,
	}
	if diff := cmp.Diff(want, dumpSets(sets)); diff != "" {
		t.Errorf("sets (-want +got):\n%s", diff)
	}
	s := sets[0]
	if s.Description != "The agent's prompts." || s.Jinja != (tmpl.Options{TrimBlocks: true}) || s.Inputs == nil || len(s.Inputs.Fields) != 1 {
		t.Errorf("settings: %+v", s)
	}
	for _, tp := range s.Templates {
		if tp.Prompt.Jinja != s.Jinja {
			t.Errorf("%s: jinja options %+v, want the set's", tp.Path, tp.Prompt.Jinja)
		}
	}
	search := s.Templates[3]
	if search.Prompt.Model != "m2" || len(search.Prompt.Parameters) != 1 || len(search.Prompt.ExtraParameters) != 1 {
		t.Errorf("Search: %+v", search.Prompt)
	}
	wantExtra := []ir.Parameter{{Key: "thinking", Value: []ir.Parameter{{Key: "type", Value: "enabled", Pos: src.Pos{File: "prompts/agent/promptset.yaml", Line: 25, Col: 31}}},
		Pos: src.Pos{File: "prompts/agent/promptset.yaml", Line: 25, Col: 20}}}
	if diff := cmp.Diff(wantExtra, s.ExtraParameters); diff != "" {
		t.Errorf("the set's extra_parameters (-want +got):\n%s", diff)
	}
	// A template inside a YAML block scalar maps to its file position.
	review := s.Templates[5]
	if got := review.Prompt.Map.Pos(strings.Index(review.Prompt.Template, "action_result")); got.String() != "prompts/agent/promptset.yaml:24:19" {
		t.Errorf("reflection/Review.v2: action_result at %s", got)
	}

	// The walk of standalone prompts skips the sets.
	prompts, _ := Prompts(fsys, "prompts", nil)
	if len(prompts) != 1 || prompts[0].Key != "standalone" {
		t.Errorf("standalone prompts: %v", prompts)
	}
}

const agentSetYAML = `description: The agent's prompts.
model: m1
jinja:
  trim_blocks: true
inputs:
  user_input: string
components:
  signature: "-- {{ agent_name }}"
templates:
  main:
    components:
      response_instructions:
        - version: structured
          content: Use XML tags.
        - {version: freeform, content: "Respond naturally."}
  empty: {}
  reflection:
    default: |-
      Look back.
      {{ previous_states }}
    Review.v2:
      description: A second look.
      template: >-
        Review {{ action_result }}
extra_parameters: {thinking: {type: enabled}}
`

func TestLoadSetDiagnostics(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{
			name:  "empty promptset.yaml is a set of files",
			files: map[string]string{"s/promptset.yaml": "", "s/default.jinja": "hi"},
		},
		{
			name:  "no templates",
			files: map[string]string{"s/promptset.yaml": "description: nothing\n"},
			want:  `prompts/s/promptset.yaml:1:1: template set "s" has no templates`,
		},
		{
			name: "unknown keys",
			files: map[string]string{"s/promptset.yaml": "default_typ: main\ntemplate: x\ntemplates:\n  main:\n    default: hi\n",
				"s/main/x.yaml": "template: x\ntemperature: 1\ninputs: {a: string}\nmessages: []\n"},
			want: `prompts/s/main/x.yaml:2:1: unknown key "temperature"
prompts/s/main/x.yaml:3:1: "inputs" applies to the whole set: set it in promptset.yaml
prompts/s/main/x.yaml:4:1: "messages" is not supported in a template set yet
prompts/s/promptset.yaml:1:1: unknown key "default_typ" (did you mean "default_type"?)
prompts/s/promptset.yaml:2:1: unknown key "template" (did you mean "templates"?)`,
		},
		{
			name: "file and inline entry for one path",
			files: map[string]string{
				"s/promptset.yaml":       "templates:\n  main:\n    BrowseLink: inline\n",
				"s/main/BrowseLink.j2":   "file",
				"s/main/BrowseLink.yaml": "template: yaml\n",
				"s/main/default.jinja":   "ok",
			},
			want: `prompts/s/main/BrowseLink.j2:1:1: template "main/BrowseLink" is also defined at prompts/s/main/BrowseLink.yaml:1:1 and prompts/s/promptset.yaml:3:5
prompts/s/main/BrowseLink.yaml:1:1: template "main/BrowseLink" is also defined at prompts/s/main/BrowseLink.j2:1:1 and prompts/s/promptset.yaml:3:5
prompts/s/promptset.yaml:3:5: template "main/BrowseLink" is also defined at prompts/s/main/BrowseLink.j2:1:1 and prompts/s/main/BrowseLink.yaml:1:1`,
		},
		{
			name: "versioned duplicates and components",
			files: map[string]string{
				"s/promptset.yaml": "components:\n  pre:\n    - {version: v1, content: a}\n    - {version: v1, content: b}\n" +
					"templates:\n  x.v1: inline\n",
				"s/x.v1.jinja":           "file",
				"s/x.v2.jinja":           "other version",
				"s/components/pre.jinja": "unversioned is another version",
			},
			want: `prompts/s/promptset.yaml:3:7: component "components/pre.v1" is also defined at line 4
prompts/s/promptset.yaml:4:7: component "components/pre.v1" is also defined at line 3
prompts/s/promptset.yaml:6:3: template "x.v1" is also defined at prompts/s/x.v1.jinja:1:1
prompts/s/x.v1.jinja:1:1: template "x.v1" is also defined at prompts/s/promptset.yaml:6:3`,
		},
		{
			name: "duplicate inline keys",
			files: map[string]string{
				"s/promptset.yaml": "templates:\n  main:\n    a: x\n    a: y\n",
			},
			want: `prompts/s/promptset.yaml:3:5: duplicate template "a" (also at line 4)
prompts/s/promptset.yaml:4:5: duplicate template "a" (also at line 3)`,
		},
		{
			name: "bad names",
			files: map[string]string{
				"s/promptset.yaml": "default_name: a.b\ndefault_type: ../x\ncomponents:\n  a.b: x\n  ok: [3]\n  ok2:\n    - {content: x, colour: red}\n    - {version: v}\n" +
					"templates:\n  ns.x: {a: b}\n  x..y: t\n  ok: 4\n",
				"s/a..jinja":                "empty version",
				"s/components/deep/x.jinja": "nested",
			},
			want: `prompts/s/a..jinja:1:1: invalid template file name "a..jinja" (want name.ext or name.version.ext)
prompts/s/components/deep/x.jinja:1:1: components/ holds component files, not directories
prompts/s/promptset.yaml:1:1: template set "s" has no templates
prompts/s/promptset.yaml:1:15: invalid default_name "a.b" (a template name, without "/" or ".")
prompts/s/promptset.yaml:2:15: invalid default_type "../x" (a namespace: names separated by "/")
prompts/s/promptset.yaml:4:3: invalid component name "a.b" (a name, without "/" or "."; list versions under it)
prompts/s/promptset.yaml:5:8: a component version must be a mapping with "version" and "content", not an integer
prompts/s/promptset.yaml:7:20: unknown key "colour"
prompts/s/promptset.yaml:8:7: missing key "content"
prompts/s/promptset.yaml:10:3: invalid namespace "ns.x" (a name, without "/" or ".")
prompts/s/promptset.yaml:11:3: invalid template name "x..y" (want name or name.version)
prompts/s/promptset.yaml:12:7: "ok" must be a string, not an integer (quote the value)`,
		},
		{
			name: "component keys",
			files: map[string]string{
				"s/promptset.yaml":            "",
				"s/default.jinja":             "x",
				"s/components/c.yaml":         "model: m\ntemplate: t\n",
				"s/components/d.yaml":         "description: d\n",
				"s/main/inner/promptset.yaml": "",
			},
			want: `prompts/s/components/c.yaml:1:1: a component has no "model" (it renders inside templates)
prompts/s/components/d.yaml:1:1: missing key "template"
prompts/s/main/inner/promptset.yaml:1:1: template set "s/main/inner" is inside template set "s" (sets cannot nest)`,
		},
		{
			name: "parameters",
			files: map[string]string{
				"s/promptset.yaml": `parameters: {temprature: 0.2, top_p: 2}
extra_parameters: {top_k: 3, thinking: {type: enabled}}
templates:
  main:
    Inline: {template: x, parameters: {max_tokens: -1}, extra_parameters: {seed: 1}}
`,
				"s/default.jinja":     "x",
				"s/main/File.yaml":    "parameters: {stop: 4}\nextra_parameters: {service_tier: flex}\ntemplate: x\n",
				"s/components/c.yaml": "extra_parameters: {a: 1}\ntemplate: t\n",
			},
			want: `prompts/s/components/c.yaml:1:1: a component has no "extra_parameters" (it renders inside templates)
prompts/s/main/File.yaml:1:20: parameter "stop" must be a string or a list of strings, not 4
prompts/s/promptset.yaml:1:14: unknown parameter "temprature" (did you mean "temperature"?)
prompts/s/promptset.yaml:1:38: parameter "top_p" must be a number from 0 to 1, not 2
prompts/s/promptset.yaml:2:20: "top_k" is a known parameter: set it under parameters, where it is checked
prompts/s/promptset.yaml:5:52: parameter "max_tokens" must be an integer of at least 0, not -1
prompts/s/promptset.yaml:5:76: "seed" is a known parameter: set it under parameters, where it is checked`,
		},
		{
			name: "files that are no templates",
			files: map[string]string{"s/promptset.yaml": "", "s/default.jinja": "x", "s/main/Search.tmpl": "{{ .X }}",
				"s/main/components/c.gotmpl": "y", "s/notes.rst": "z", "s/main/LICENSE": "ignored", "s/components/README.md": "ignored"},
			want: `prompts/s/main/Search.tmpl:1:1: Go text/template files are not supported: rewrite it in Jinja2 as "Search.jinja" ({{ .name }} is {{ name }}, {{ if .x }}...{{ end }} is {% if x %}...{% endif %}); -renderer=text/template generates Go text/template from Jinja2 templates
prompts/s/main/components/c.gotmpl:1:1: Go text/template files are not supported: rewrite it in Jinja2 as "c.jinja" ({{ .name }} is {{ name }}, {{ if .x }}...{{ end }} is {% if x %}...{% endif %}); -renderer=text/template generates Go text/template from Jinja2 templates
prompts/s/notes.rst:1:1: "notes.rst" is not a prompt file: prompt files end in .yaml, .yml, .jinja, .j2, .md or .txt, and README, LICENSE, CHANGELOG, backups and hidden files are ignored (rename it, or move it out of the prompts tree)`,
		},
		{
			name:  "invalid YAML",
			files: map[string]string{"s/promptset.yaml": "templates: [\n"},
			want:  `prompts/s/promptset.yaml:1:12: invalid YAML: did not find expected node content`,
		},
		{
			name:  "not a mapping",
			files: map[string]string{"s/promptset.yaml": "- a\n"},
			want:  `prompts/s/promptset.yaml:1:1: promptset.yaml must be a mapping, not a sequence`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := Sets(mapFS(tt.files), "prompts", nil)
			got := diags.Sorted().Error()
			if got != tt.want {
				t.Errorf("diagnostics (-want +got):\n%s", cmp.Diff(tt.want, got))
			}
		})
	}
}
