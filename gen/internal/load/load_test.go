package load

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"gopkg.in/yaml.v3"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
)

// mapFS builds a file system from path → content.
func mapFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, data := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(data)}
	}
	return fsys
}

// loadDiags loads files and returns the sorted diagnostics, one a line.
func loadDiags(t *testing.T, files map[string]string) string {
	t.Helper()
	_, diags := Prompts(mapFS(files), "prompts", nil)
	return diags.Sorted().Error()
}

func TestLoadDiagnostics(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{
			name:  "valid",
			files: map[string]string{"a.yaml": "description: d\nmodel: m\ntemplate: hi\noutputFormat: json\ngo_name: A\n"},
		},
		{
			name:  "unknown key",
			files: map[string]string{"a.yaml": "temlate: hi\n"},
			want:  `prompts/a.yaml:1:1: unknown key "temlate" (did you mean "template"?)`,
		},
		{
			name:  "unknown key without suggestion",
			files: map[string]string{"a.yaml": "template: hi\nbanana: 1\n"},
			want:  `prompts/a.yaml:2:1: unknown key "banana"`,
		},
		{
			name:  "unknown jinja option",
			files: map[string]string{"a.yaml": "template: hi\njinja:\n  trim_block: true\n  lstrip_blocks: true\n"},
			want:  `prompts/a.yaml:3:3: unknown jinja option "trim_block" (did you mean "trim_blocks"?)`,
		},
		{
			name: "wrong value types",
			files: map[string]string{"a.yaml": `description: [a]
model: 4
parameters: 3
template: {{ name }}
jinja:
  trim_blocks: yes
go_name: null
inputs: [string]
`},
			want: `prompts/a.yaml:1:14: "description" must be a string, not a sequence
prompts/a.yaml:2:8: "model" must be a string, not an integer (quote the value)
prompts/a.yaml:3:13: "parameters" must be a mapping, not an integer
prompts/a.yaml:4:11: "template" must be a string, not a mapping (quote the value or use a block scalar "|": YAML reads "{" as the start of a mapping)
prompts/a.yaml:6:16: "trim_blocks" must be true or false, not a string
prompts/a.yaml:7:10: "go_name" must be a string, not null
prompts/a.yaml:8:9: "inputs" must be a mapping, not a sequence`,
		},
		{
			name:  "jinja not a mapping",
			files: map[string]string{"a.yaml": "template: hi\njinja: true\n"},
			want:  `prompts/a.yaml:2:8: "jinja" must be a mapping, not a bool`,
		},
		{
			name:  "missing template",
			files: map[string]string{"a.yaml": "# a prompt\ndescription: x\n"},
			want:  `prompts/a.yaml:2:1: missing key "template"`,
		},
		{
			name:  "empty template value",
			files: map[string]string{"a.yaml": "template:\n"},
			want:  `prompts/a.yaml:1:10: "template" must be a string, not null`,
		},
		{
			name:  "bad outputFormat",
			files: map[string]string{"a.yaml": "template: hi\noutputFormat: jsn\n", "b.yaml": "template: hi\noutputFormat: csv\n"},
			want: `prompts/a.yaml:2:15: unknown outputFormat "jsn" (did you mean "json"?)
prompts/b.yaml:2:15: unknown outputFormat "csv" (want json, text, yaml or xml)`,
		},
		{
			name:  "duplicate key",
			files: map[string]string{"a.yaml": "model: a\ntemplate: hi\nmodel: b\n"},
			want:  `prompts/a.yaml:3:1: duplicate key "model" (first at line 1)`,
		},
		{
			name:  "duplicate prompt key across files",
			files: map[string]string{"a.yaml": "template: hi\n", "a.jinja": "hi", "sub/a.md": "hi"},
			want: `prompts/a.jinja:1:1: prompt "a" is also defined by "prompts/a.yaml" (a prompt's name is its path without extension)
prompts/a.yaml:1:1: prompt "a" is also defined by "prompts/a.jinja" (a prompt's name is its path without extension)`,
		},
		{
			name:  "messages and sections",
			files: map[string]string{"a.yaml": "messages:\n  - role: user\n    template: hi\nsections: []\n"},
			want: `prompts/a.yaml:4:1: a prompt has either "messages" or "sections", not both
prompts/a.yaml:4:11: "sections" has no entries`,
		},
		{
			name: "section keys",
			files: map[string]string{"a.yaml": `sections:
  - name: task
    titl: Task
    template: hi
  - name: task
    template: again
  - name: 2nd
    template: x
  - title: no name
    template: x
  - name: empty
  - name: t
    title: "two\nlines"
    template: x
`},
			want: `prompts/a.yaml:3:5: unknown section key "titl" (did you mean "title"?)
prompts/a.yaml:5:5: duplicate section name "task" (first at line 2)
prompts/a.yaml:7:11: section name "2nd" is not an identifier (letters, digits and _, not starting with a digit): it is written into marker lines
prompts/a.yaml:9:5: section has no "name"
prompts/a.yaml:11:5: section "empty" has no "template"
prompts/a.yaml:13:12: a section title is one line`,
		},
		{
			name: "section budgets",
			files: map[string]string{"a.yaml": `sections:
  - name: a
    budget_tokens: 0
    template: x
  - name: b
    budget_tokens: many
    template: x
  - name: c
    truncate: text
    template: x
  - name: d
    budget_tokens: 10
    truncate: item
    template: x
  - name: e
    budget_tokens: 10000001
    template: x
`},
			want: `prompts/a.yaml:3:20: budget_tokens must be between 1 and 10000000, not 0
prompts/a.yaml:6:20: "budget_tokens" must be a positive integer, not a string
prompts/a.yaml:9:15: truncate needs budget_tokens: without a budget nothing is truncated
prompts/a.yaml:13:15: unknown truncate mode "item" (one of items, text, error) (did you mean "items"?)
prompts/a.yaml:16:20: budget_tokens must be between 1 and 10000000, not 10000001`,
		},
		{
			name:  "section settings without sections",
			files: map[string]string{"a.yaml": "template: hi\ntokenizer: o200k_base\nmarkers: false\n"},
			want: `prompts/a.yaml:2:1: "tokenizer" is for sectioned prompts (a prompt with "sections")
prompts/a.yaml:3:1: "markers" is for sectioned prompts (a prompt with "sections")`,
		},
		{
			name:  "unknown tokenizer",
			files: map[string]string{"a.yaml": "tokenizer: o200k_bse\nsections:\n  - name: a\n    template: x\n"},
			want:  `prompts/a.yaml:1:12: unknown tokenizer "o200k_bse" (one of cl100k_base, o200k_base) (did you mean "o200k_base"?)`,
		},
		{
			name:  "messages unknown role",
			files: map[string]string{"a.yaml": "messages:\n  - role: usr\n    template: hi\n"},
			want:  `prompts/a.yaml:2:11: unknown role "usr" (did you mean "user"?)`,
		},
		{
			name:  "messages missing template and role",
			files: map[string]string{"a.yaml": "messages:\n  - role: user\n  - template: hi\n"},
			want: `prompts/a.yaml:2:5: message has no "template"
prompts/a.yaml:3:5: message has no "role"`,
		},
		{
			name:  "messages system not first",
			files: map[string]string{"a.yaml": "messages:\n  - {role: user, template: hi}\n  - {role: system, template: be brief}\n"},
			want:  `prompts/a.yaml:3:12: a system message must be the first message`,
		},
		{
			name: "messages tool entries",
			files: map[string]string{"a.yaml": "messages:\n  - {role: user, template: hi, tool_call_id: x}\n" +
				"  - {role: tool_request}\n  - {role: tool_result, template: r}\n" +
				"  - {role: assistant, tool_calls: [{id: a, name: b}], tmplate: x}\n"},
			want: `prompts/a.yaml:2:5: only tool_result messages have "tool_call_id"
prompts/a.yaml:3:5: a tool_request message needs "tool_calls"
prompts/a.yaml:4:5: a tool_result message needs "tool_call_id"
prompts/a.yaml:5:5: message has no "template"
prompts/a.yaml:5:36: a tool call needs "id", "name" and "arguments"
prompts/a.yaml:5:55: unknown message key "tmplate" (did you mean "template"?)`,
		},
		{
			name:  "messages with template and system",
			files: map[string]string{"a.yaml": "template: x\nsystem: y\nmessages: [{role: user, template: hi}]\n"},
			want: `prompts/a.yaml:1:1: a prompt has either "template" or "messages", not both
prompts/a.yaml:2:1: "system" is for single-template prompts (make it the first entry of "messages")`,
		},
		{
			name:  "messages not a list",
			files: map[string]string{"a.yaml": "messages: hi\n"},
			want:  `prompts/a.yaml:1:11: "messages" must be a list of {role, template} entries, not a string`,
		},
		{
			name:  "variables setting",
			files: map[string]string{"a.yaml": "template: hi\nvariables: {allowed: [a], unknown: warning, extra: 1}\n"},
			want: `prompts/a.yaml:2:36: "unknown" must be warn or error, not "warning"
prompts/a.yaml:2:45: unknown variables key "extra"`,
		},
		{
			name: "outputSchema and examples are read",
			files: map[string]string{"a.yaml": "template: hi\noutputSchema: {type: object}\nexamples: [1, {a: b}]\n",
				"b.yaml": "template: hi\noutputSchema: {type: object}\n"},
			want: `prompts/a.yaml:3:12: examples[0] must be a mapping with input_vars and expected_output, not an integer
prompts/a.yaml:3:15: examples[1]: missing key "expected_output"
prompts/a.yaml:3:16: unknown example key "a"
prompts/b.yaml:2:16: warning: outputSchema: an object without properties is kept as raw JSON (declare properties, or additionalProperties for a map)`,
		},
		{
			name:  "not a mapping",
			files: map[string]string{"a.yaml": "- template: hi\n"},
			want:  `prompts/a.yaml:1:1: a prompt file must be a mapping, not a sequence`,
		},
		{
			name:  "empty file",
			files: map[string]string{"a.yaml": "# nothing yet\n"},
			want:  `prompts/a.yaml:1:1: empty prompt file (want a mapping with a "template" key)`,
		},
		{
			name:  "two documents",
			files: map[string]string{"a.yaml": "template: hi\n---\ntemplate: ho\n"},
			want:  `prompts/a.yaml:2:1: a prompt file holds one YAML document (remove the second)`,
		},
		{
			name:  "utf-16",
			files: map[string]string{"a.yaml": "\xff\xfet\x00:\x00"},
			want:  `prompts/a.yaml:1:1: prompt files must be UTF-8, not UTF-16`,
		},
		{
			name: "parameter values",
			files: map[string]string{"a.yaml": `base: &a 1
template: hi
extra_parameters:
  count: !!int x
  big: 9223372036854775808
  ok: [1, *a]
  nested: {k: 1, k: 2}
`},
			want: `prompts/a.yaml:1:1: unknown key "base"
prompts/a.yaml:4:10: invalid integer "x"
prompts/a.yaml:5:8: invalid integer "9223372036854775808"
prompts/a.yaml:6:11: aliases are not supported (write the value out)
prompts/a.yaml:7:18: duplicate key "k" (first at line 7)`,
		},
		{
			name: "unknown parameters",
			files: map[string]string{"a.yaml": `template: hi
parameters:
  temprature: 0.2
  thinking: {type: enabled}
  max_token: 100
  top_p: 0.5
`},
			want: `prompts/a.yaml:3:3: unknown parameter "temprature" (did you mean "temperature"?)
prompts/a.yaml:4:3: unknown parameter "thinking" (put a provider's own parameters under extra_parameters, which are sent unchecked)
prompts/a.yaml:5:3: unknown parameter "max_token" (did you mean "max_tokens"?)`,
		},
		{
			name: "misplaced parameters",
			files: map[string]string{"a.yaml": `template: hi
parameters:
  model: gpt-4o
  response_format: {type: json_object}
  stream: true
`},
			want: `prompts/a.yaml:3:3: "model" is not a parameter: model is a key of the prompt, beside parameters
prompts/a.yaml:4:3: "response_format" is not a parameter: set outputFormat or outputSchema: the adapters build the response format from them
prompts/a.yaml:5:3: "stream" is not a parameter: streaming is chosen by the client call (NewStreaming), not the prompt`,
		},
		{
			name: "parameter types and ranges",
			files: map[string]string{"a.yaml": `template: hi
parameters:
  temperature: 2.5
  top_p: "0.9"
  max_tokens: 10.5
  n: 0
  stop: [END, 3]
  seed: null
  logprobs: yes
  reasoning_effort: hgih
  logit_bias: {"50256": -101}
  frequency_penalty: -2
  presence_penalty: 2
  top_k: 40
  stop_sequences: END
  tool_choice: auto
  verbosity: low
  max_completion_tokens: 1
  top_logprobs: 20
`},
			want: `prompts/a.yaml:3:16: parameter "temperature" must be a number from 0 to 2, not 2.5
prompts/a.yaml:4:10: parameter "top_p" must be a number from 0 to 1, not "0.9"
prompts/a.yaml:5:15: parameter "max_tokens" must be an integer of at least 0, not 10.5
prompts/a.yaml:6:6: parameter "n" must be an integer from 1 to 128, not 0
prompts/a.yaml:7:9: parameter "stop" must be a string or a list of strings, not a list holding 3
prompts/a.yaml:8:9: parameter "seed" must be an integer, not null
prompts/a.yaml:9:13: parameter "logprobs" must be true or false, not "yes"
prompts/a.yaml:10:21: parameter "reasoning_effort" must be one of "none", "minimal", "low", "medium", "high", "xhigh", "max", not "hgih" (did you mean "high"?)
prompts/a.yaml:11:15: parameter "logit_bias" must be a mapping from token IDs to integers from -100 to 100, not -101 for "50256"`,
		},
		{
			name: "extra parameters",
			files: map[string]string{"a.yaml": `template: hi
parameters: {temperature: 0.5}
extra_parameters:
  thinking: {type: enabled, budget_tokens: 2048}
  service_tier: flex
  temperature: 0.7
  top_k: 5
  messages: []
  extra_parameters: 1
extra_parameter: 1
`},
			want: `prompts/a.yaml:6:3: "temperature" is a known parameter: set it under parameters, where it is checked
prompts/a.yaml:7:3: "top_k" is a known parameter: set it under parameters, where it is checked
prompts/a.yaml:8:3: "messages" is not a parameter: messages is a key of the prompt, beside parameters
prompts/a.yaml:10:1: unknown key "extra_parameter" (did you mean "extra_parameters"?)`,
		},
		{
			name:  "extra parameters not a mapping",
			files: map[string]string{"a.yaml": "template: hi\nextra_parameters: [a]\n"},
			want:  `prompts/a.yaml:2:19: "extra_parameters" must be a mapping, not a sequence`,
		},
		{
			name:  "no parameters in a fragment",
			files: map[string]string{"fragments/f.yaml": "template: hi\nextra_parameters: {a: 1}\n"},
			want:  `prompts/fragments/f.yaml:2:1: a fragment has no "extra_parameters" (a fragment is a template with its inputs: description, go_name, template, inputs, jinja, variables)`,
		},
		{
			name:  "alias as a string",
			files: map[string]string{"a.yaml": "description: &d hello\ntemplate: *d\n"},
			want:  `prompts/a.yaml:2:11: "template" must be a string, not an alias (aliases are not supported)`,
		},
		{
			name:  "non-string key",
			files: map[string]string{"a.yaml": "template: hi\n[a]: 1\n"},
			want:  `prompts/a.yaml:2:1: a key must be a string, not a sequence`,
		},
		{
			// yaml.v3 counts columns in characters; diagnostics in bytes.
			name:  "byte columns",
			files: map[string]string{"a.yaml": "{description: \"ééé\", temlate: x}\n"},
			want:  `prompts/a.yaml:1:25: unknown key "temlate" (did you mean "template"?)`,
		},
		{
			name:  "crlf",
			files: map[string]string{"a.yaml": "template: hi\r\nmodl: x\r\n"},
			want:  `prompts/a.yaml:2:1: unknown key "modl" (did you mean "model"?)`,
		},
		{
			// A lone CR ends a line for YAML but not for editors.
			name:  "cr",
			files: map[string]string{"a.yaml": "template: hi\rmodl: x\r"},
			want:  `prompts/a.yaml:1:14: unknown key "modl" (did you mean "model"?)`,
		},
		{
			name:  "unknown input type",
			files: map[string]string{"a.yaml": "template: hi\ninputs:\n  name: strng\n  age: integr?\n  tags: [array]\n  n: 5\n  ids: \"[string]\"\n"},
			want: `prompts/a.yaml:3:9: unknown type "strng" (did you mean "string"?)
prompts/a.yaml:4:8: unknown type "integr" (did you mean "integer"?)
prompts/a.yaml:5:10: unknown type "array" (write a list type as [string])
prompts/a.yaml:6:6: a type must be a name like "string", a list like [string] or a schema mapping, not an integer
prompts/a.yaml:7:8: unknown type "[string]" (a list type is a YAML list: write [string] without quotes)`,
		},
		{
			name: "shorthand errors",
			files: map[string]string{"a.yaml": `template: hi
inputs:
  a: [string, int]
  b:
    - string?
  my-var: string
  a: int
  c: {type: string, optional: maybe, go_name: 3}
  d: {name: string}
`},
			want: `prompts/a.yaml:3:3: duplicate variable "a" (also at line 7)
prompts/a.yaml:3:6: a list type has exactly one element type, like [string]
prompts/a.yaml:5:7: list elements cannot be optional
prompts/a.yaml:6:3: invalid variable name "my-var" (use letters, digits and underscores)
prompts/a.yaml:7:3: duplicate variable "a" (also at line 3)
prompts/a.yaml:8:31: "optional" must be true or false, not a string
prompts/a.yaml:8:47: "go_name" must be a string, not an integer (quote the value)
prompts/a.yaml:9:6: missing key "type"
prompts/a.yaml:9:7: unknown schema keyword "name" (nested variables go under "properties")`,
		},
		{
			name: "schema type errors",
			files: map[string]string{"a.yaml": `template: hi
inputs:
  type: object
  porperties: {}
  properties:
    a: {type: strin}
    b: {type: int}
    c: {type: [string, integer]}
    d: {type: [null]}
    e: {oneOf: []}
`},
			want: `prompts/a.yaml:4:3: unknown schema keyword "porperties" (did you mean "properties"?)
prompts/a.yaml:6:15: unknown type "strin" (did you mean "string"?)
prompts/a.yaml:7:15: unknown type "int" (did you mean "integer"?)
prompts/a.yaml:8:15: union types are not supported (use one type, and "null" if it is optional)
prompts/a.yaml:9:15: "type" needs a type besides "null"
prompts/a.yaml:10:8: missing key "type"
prompts/a.yaml:10:9: schema keyword "oneOf" is not supported`,
		},
		{
			name: "schema structure errors",
			files: map[string]string{"a.yaml": `template: hi
inputs:
  type: object
  properties:
    d: {type: string, items: {type: string}}
    g: string
    h: {type: array, items: string}
    i: {type: object, additionalProperties: {type: string}, properties: {}}
    j: {type: string, optional: true}
    j: {type: string}
  required: [d, missing, {x: 1}]
`},
			want: `prompts/a.yaml:5:23: "items" applies only to type "array"
prompts/a.yaml:6:8: property "g" must be a schema mapping, not a string
prompts/a.yaml:7:29: "items" must be a mapping, not a string
prompts/a.yaml:8:23: "additionalProperties" with "properties" is not supported
prompts/a.yaml:9:5: duplicate property "j" (also at line 10)
prompts/a.yaml:9:23: unknown schema keyword "optional"
prompts/a.yaml:10:5: duplicate property "j" (also at line 9)
prompts/a.yaml:11:17: required property "missing" is not defined
prompts/a.yaml:11:26: a required property must be a string, not a mapping`,
		},
		{
			name:  "inputs as a map",
			files: map[string]string{"a.yaml": "template: hi\ninputs:\n  type: object\n  additionalProperties: {type: string}\n"},
			want:  `prompts/a.yaml:3:3: "inputs" must be an object with "properties", not a map`,
		},
		{
			name:  "jinja tag in a plain value",
			files: map[string]string{"a.yaml": "template: {% if x %}hi{% endif %}\n"},
			want:  `prompts/a.yaml:1:12: invalid YAML: found character that cannot start any token (quote the value or use a block scalar "|": YAML reads "{" as the start of a mapping)`,
		},
		{
			name:  "unclosed quote",
			files: map[string]string{"a.yaml": "description: x\ntemplate: \"Hello\n  {{ name }}\n"},
			want:  `prompts/a.yaml:2:11: invalid YAML: found unexpected end of stream (the quoted string is not closed)`,
		},
		{
			// yaml.v3 reports line 2, the line of the enclosing mapping.
			name:  "parser error column",
			files: map[string]string{"a.yaml": "inputs:\n  a: string\n b: string\ntemplate: hi\n"},
			want:  `prompts/a.yaml:3:2: invalid YAML: did not find expected key`,
		},
		{
			name:  "dedented template lines",
			files: map[string]string{"a.yaml": "template: |\n  Hello\n{% if x %}\n  hi\n{% endif %}\nmodel: m\n"},
			want:  `prompts/a.yaml:3:2: invalid YAML: found character that cannot start any token (line 3 is indented less than the block scalar "template" that starts at line 1: indent all of its lines)`,
		},
		{
			name:  "dedented template lines in a list",
			files: map[string]string{"a.yaml": "messages:\n  - role: user\n    template: |\n      hello\n    {% if x %}\n  - role: system\n"},
			want:  `prompts/a.yaml:5:6: invalid YAML: found character that cannot start any token (line 5 is indented less than the block scalar "template" that starts at line 3: indent all of its lines)`,
		},
		{
			// The dedented line is a key: the author may have meant it as one.
			name:  "no dedent hint for a key",
			files: map[string]string{"a.yaml": "template: |\n  Hello\nmodel: {{ name }}\n  x\n"},
			want:  `prompts/a.yaml:4:3: invalid YAML: did not find expected key`,
		},
		{
			name:  "go templates",
			files: map[string]string{"a.tmpl": "{{ .Name }}", "sub/b.gotmpl": "{{ if .X }}x{{ end }}", "c.jinja": "{{ x }}"},
			want: `prompts/a.tmpl:1:1: Go text/template files are not supported: rewrite it in Jinja2 as "a.jinja" ({{ .name }} is {{ name }}, {{ if .x }}...{{ end }} is {% if x %}...{% endif %}); -renderer=text/template generates Go text/template from Jinja2 templates
prompts/sub/b.gotmpl:1:1: Go text/template files are not supported: rewrite it in Jinja2 as "b.jinja" ({{ .name }} is {{ name }}, {{ if .x }}...{{ end }} is {% if x %}...{% endif %}); -renderer=text/template generates Go text/template from Jinja2 templates`,
		},
		{
			name: "files that are no prompts",
			files: map[string]string{"notes.rst": "x", "data/example.json": "{}", "Makefile": "all:", "summary.jinja2": "{{ x }}",
				"README.md": "ignored", ".env": "hidden", "ok.md": "a prompt"},
			want: `prompts/Makefile:1:1: "Makefile" is not a prompt file: prompt files end in .yaml, .yml, .jinja, .j2, .md or .txt, and README, LICENSE, CHANGELOG, backups and hidden files are ignored (rename it, or move it out of the prompts tree)
prompts/data/example.json:1:1: "example.json" is not a prompt file: prompt files end in .yaml, .yml, .jinja, .j2, .md or .txt, and README, LICENSE, CHANGELOG, backups and hidden files are ignored (rename it, or move it out of the prompts tree)
prompts/notes.rst:1:1: "notes.rst" is not a prompt file: prompt files end in .yaml, .yml, .jinja, .j2, .md or .txt, and README, LICENSE, CHANGELOG, backups and hidden files are ignored (rename it, or move it out of the prompts tree)
prompts/summary.jinja2:1:1: "summary.jinja2" is not a prompt file: prompt files end in .yaml, .yml, .jinja, .j2, .md or .txt, and README, LICENSE, CHANGELOG, backups and hidden files are ignored (rename it, or move it out of the prompts tree)`,
		},
		{
			name:  "components in a standalone prompt",
			files: map[string]string{"a.yaml": "template: \"{{ preamble }}\"\ncomponents:\n  preamble: Be brief.\n"},
			want:  `prompts/a.yaml:2:1: "components" belong to template sets: a prompt file cannot have them (put the prompt in a directory with a promptset.yaml, where components/ and components: hold partials)`,
		},
		{
			name:  "one bad file does not stop the others",
			files: map[string]string{"a.yaml": "template: [\n", "b.yaml": "tmplate: x\n", "c.jinja": "{{ x }}"},
			want: `prompts/a.yaml:1:11: invalid YAML: did not find expected node content
prompts/b.yaml:1:1: unknown key "tmplate" (did you mean "template"?)`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := loadDiags(t, tt.files); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestLoadSpecExample loads the example of shared/spec/yaml-prompt-format.md
// §8.1.2 verbatim, where the template's Jinja lines are dedented out of the
// block scalar, and its fixed version.
func TestLoadSpecExample(t *testing.T) {
	prompts, diags := Prompts(os.DirFS("testdata/load"), "testdata/load", nil)
	want := `testdata/load/spec_example_invalid.yaml:31:2: invalid YAML: found character that cannot start any token (line 28 is indented less than the block scalar "template" that starts at line 20: indent all of its lines)`
	if got := diags.Sorted().Error(); got != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want)
	}
	if len(prompts) != 1 {
		t.Fatalf("got %d prompts, want 1", len(prompts))
	}
	p := prompts[0]
	if p.Key != "summarize_customer_interaction" || p.Path != "testdata/load/summarize_customer_interaction.yaml" {
		t.Errorf("key %q path %q", p.Key, p.Path)
	}
	if p.Model != "claude-3-haiku" || p.OutputFormat != "json" || !strings.HasPrefix(p.Description, "Summarizes a customer") {
		t.Errorf("model %q, outputFormat %q, description %q", p.Model, p.OutputFormat, p.Description)
	}
	file := filepath.Join("testdata", "load", "summarize_customer_interaction.yaml")
	params := []ir.Parameter{
		{Key: "temperature", Value: 0.6, Pos: src.Pos{File: p.Path, Line: 15, Col: 3}},
		{Key: "max_tokens", Value: int64(500), Pos: src.Pos{File: p.Path, Line: 16, Col: 3}},
	}
	if diff := cmp.Diff(params, p.Parameters); diff != "" {
		t.Errorf("parameters (-want +got):\n%s", diff)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Template, "\n{% if customer_history %}\nAdditional Customer History Context:\n") ||
		!strings.HasSuffix(p.Template, `"action_items", and "summary".`+"\n") {
		t.Errorf("template:\n%s", p.Template)
	}
	checkCopy(t, data, p)
}

// checkCopy checks that every template byte maps to the same byte in the
// file, as it must for plain files and literal block scalars. The final
// line break may map past the end of a file that lacks it.
func checkCopy(t *testing.T, data []byte, p *ir.PromptSpec) {
	t.Helper()
	source := newSource(p.Path, data)
	for k := 0; k < len(p.Template); k++ {
		pos := p.Map.Pos(k)
		off := source.lines[pos.Line-1] + pos.Col - 1
		if off == len(data) && p.Template[k] == '\n' {
			continue
		}
		if off >= len(data) || data[off] != p.Template[k] && !(p.Template[k] == '\n' && data[off] == '\r') {
			t.Fatalf("template byte %d (%q) maps to %s, which is not that byte", k, p.Template[k], pos)
		}
	}
}

func TestLoadWalk(t *testing.T) {
	fsys := mapFS(map[string]string{
		"b.jinja":                   "B {{ x }}\n",
		"a.yaml":                    "template: A\n",
		"a/z.txt":                   "Z",
		"a/c.j2":                    "C",
		"a/d.md":                    "D",
		"a.b/e.yml":                 "template: E\n",
		"README.md":                 "# The prompts",
		"docs/readme.txt":           "ignored",
		"LICENSE":                   "ignored",
		"legal/Licence.md":          "ignored",
		"CHANGELOG.md":              "ignored",
		"a.yaml~":                   "a backup",
		"a/c.j2.orig":               "a merge's backup",
		"b.jinja.bak":               "a backup",
		".hidden.yaml":              "nonsense: [",
		".git/x.yaml":               "nonsense: [",
		"sub/.cache/y.jinja":        "hidden",
		"agent/promptset.yaml":      "x: [",
		"agent/main/default.jinja":  "set member",
		"agent/other.yaml":          "nonsense: [",
		"deep/set/promptset.yaml":   "",
		"deep/set/BrowseLink.jinja": "set member",
		"deep/ok.txt":               "ok",
	})
	prompts, diags := Prompts(fsys, "prompts", nil)
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", diags.Sorted())
	}
	var got []string
	for _, p := range prompts {
		got = append(got, p.Key+" "+p.Path+" "+p.Template)
	}
	want := []string{
		"a.b/e prompts/a.b/e.yml E",
		"a prompts/a.yaml A",
		"a/c prompts/a/c.j2 C",
		"a/d prompts/a/d.md D",
		"a/z prompts/a/z.txt Z",
		"b prompts/b.jinja B {{ x }}\n",
		"deep/ok prompts/deep/ok.txt ok",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("prompts (-want +got):\n%s", diff)
	}
	plain := prompts[5]
	if plain.Inputs != nil || plain.Jinja != (tmpl.Options{}) || plain.Pos != (src.Pos{File: "prompts/b.jinja", Line: 1, Col: 1}) {
		t.Errorf("plain prompt: %+v", plain)
	}
}

func TestLoadMissingDir(t *testing.T) {
	_, diags := Prompts(os.DirFS("testdata/no-such-dir"), "testdata/no-such-dir", nil)
	want := "load: stat testdata/no-such-dir: no such file or directory"
	if got := diags.Sorted().Error(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestLoadFields(t *testing.T) {
	prompts, diags := Prompts(mapFS(map[string]string{"p/x.yaml": `description: Says hi.
model: gpt-4o
go_name: Greeter
template: "Hi"
outputFormat: text
jinja: {trim_blocks: true, keep_trailing_newline: true}
parameters:
  temperature: 0.5
  max_tokens: 10
  stop: ["\n"]
extra_parameters:
  stream_usage: false
  list: ["\n", 3]
  meta: {a: ~, b: {c: text}}
`}), "", nil)
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", diags.Sorted())
	}
	pos := func(line, col int) src.Pos { return src.Pos{File: "p/x.yaml", Line: line, Col: col} }
	want := &ir.PromptSpec{
		Path: "p/x.yaml", Key: "p/x", Pos: pos(1, 1),
		Description: "Says hi.", Model: "gpt-4o", GoName: "Greeter", GoNamePos: pos(3, 10),
		Template: "Hi", Map: src.SourceMap{File: "p/x.yaml", Lines: []src.LineStart{{Offset: 0, Line: 4, Col: 12}}},
		OutputFormat: "text",
		Jinja:        tmpl.Options{TrimBlocks: true, KeepTrailingNewline: true},
		Parameters: []ir.Parameter{
			{Key: "temperature", Value: 0.5, Pos: pos(8, 3)},
			{Key: "max_tokens", Value: int64(10), Pos: pos(9, 3)},
			{Key: "stop", Value: []any{"\n"}, Pos: pos(10, 3)},
		},
		ExtraParameters: []ir.Parameter{
			{Key: "stream_usage", Value: false, Pos: pos(12, 3)},
			{Key: "list", Value: []any{"\n", int64(3)}, Pos: pos(13, 3)},
			{Key: "meta", Value: []ir.Parameter{
				{Key: "a", Value: nil, Pos: pos(14, 10)},
				{Key: "b", Value: []ir.Parameter{{Key: "c", Value: "text", Pos: pos(14, 20)}}, Pos: pos(14, 16)},
			}, Pos: pos(14, 3)},
		},
		Includable: map[string]*ir.PromptSpec{},
	}
	if diff := cmp.Diff([]*ir.PromptSpec{want}, prompts); diff != "" {
		t.Errorf("prompt (-want +got):\n%s", diff)
	}
}

// TestIncludable: every prompt of a load sees the plain template files of
// the tree (not a set's) by their path in it, which include looks up.
func TestIncludable(t *testing.T) {
	prompts, diags := Prompts(mapFS(map[string]string{"a.yaml": "template: x", "b.j2": "B", "sub/c.txt": "C", "set/promptset.yaml": "", "set/main/default.j2": "D"}), "p", nil)
	if len(diags) > 0 || len(prompts) != 3 {
		t.Fatal(len(prompts), diags)
	}
	for _, p := range prompts {
		var got []string
		for rel, spec := range p.Includable {
			got = append(got, rel+" "+spec.Template)
		}
		slices.Sort(got)
		if diff := cmp.Diff([]string{"b.j2 B", "sub/c.txt C"}, got); diff != "" {
			t.Errorf("%s: includable (-want +got):\n%s", p.Key, diff)
		}
	}
}

// TestLoadJinjaProfile: the transformers profile turns on trim_blocks and
// lstrip_blocks unless the file sets them.
func TestLoadJinjaProfile(t *testing.T) {
	tests := []struct {
		jinja string
		want  tmpl.Options
	}{
		{"{profile: transformers}", tmpl.Options{Transformers: true, TrimBlocks: true, LstripBlocks: true}},
		{"{lstrip_blocks: false, profile: transformers}", tmpl.Options{Transformers: true, TrimBlocks: true}},
		{"{profile: transformers, keep_trailing_newline: true}", tmpl.Options{Transformers: true, TrimBlocks: true, LstripBlocks: true, KeepTrailingNewline: true}},
	}
	for _, tt := range tests {
		prompts, diags := Prompts(mapFS(map[string]string{"a.yaml": "jinja: " + tt.jinja + "\ntemplate: hi\n"}), "", nil)
		if len(diags) > 0 || len(prompts) != 1 {
			t.Fatalf("jinja: %s: diagnostics:\n%s", tt.jinja, diags.Sorted())
		}
		if prompts[0].Jinja != tt.want {
			t.Errorf("jinja: %s: options %+v, want %+v", tt.jinja, prompts[0].Jinja, tt.want)
		}
	}
	got := loadDiags(t, map[string]string{"a.yaml": "jinja: {profile: transformer}\ntemplate: hi\n", "b.yaml": "jinja: {profile: vllm}\ntemplate: hi\n", "c.yaml": "jinja: {profile: true}\ntemplate: hi\n"})
	want := `prompts/a.yaml:1:18: unknown jinja profile "transformer" (did you mean "transformers"?)
prompts/b.yaml:1:18: unknown jinja profile "vllm" (want transformers)
prompts/c.yaml:1:18: "profile" must be a string, not a bool (quote the value)`
	if got != want {
		t.Errorf("errors:\n%s\nwant:\n%s", got, want)
	}
}

func TestLoadInputs(t *testing.T) {
	str := &ir.Type{Kind: ir.KindString}
	tests := []struct {
		name   string
		inputs string
		want   *ir.Type
	}{
		{
			name: "shorthand",
			inputs: `
  name: string
  nick: string?
  age: int
  n: integer?
  score: number
  ratio: float
  ok: bool
  yes: boolean
  user: object
  tags: [string]
  grid: [[int]]
  people: [object]
`,
			want: &ir.Type{Kind: ir.KindStruct, Declared: true, Fields: []*ir.Field{
				{Key: "name", Type: str},
				{Key: "nick", Type: str, Optional: true},
				{Key: "age", Type: &ir.Type{Kind: ir.KindInt}},
				{Key: "n", Type: &ir.Type{Kind: ir.KindInt}, Optional: true},
				{Key: "score", Type: &ir.Type{Kind: ir.KindFloat}},
				{Key: "ratio", Type: &ir.Type{Kind: ir.KindFloat}},
				{Key: "ok", Type: &ir.Type{Kind: ir.KindBool}},
				{Key: "yes", Type: &ir.Type{Kind: ir.KindBool}},
				{Key: "user", Type: &ir.Type{Kind: ir.KindStruct}},
				{Key: "tags", Type: &ir.Type{Kind: ir.KindList, Elem: str}},
				{Key: "grid", Type: &ir.Type{Kind: ir.KindList, Elem: &ir.Type{Kind: ir.KindList, Elem: &ir.Type{Kind: ir.KindInt}}}},
				{Key: "people", Type: &ir.Type{Kind: ir.KindList, Elem: &ir.Type{Kind: ir.KindStruct}}},
			}},
		},
		{
			name: "shorthand with schemas",
			inputs: `
  transcript:
    type: string
    description: The conversation.
  history:
    type: object
    optional: true
    go_name: History
    description: What we know.
    properties:
      status: {type: string, enum: [gold, silver]}
      issues: {type: integer}
      notes: {type: [string, "null"]}
    required: [status]
  items:
    - type: object
      properties:
        id: {type: string}
      required: [id]
  sentiment: {enum: [positive, negative]}
  counts: {type: object, additionalProperties: {type: integer}}
  anything: {type: array}
  nullable: {type: [boolean, null]}
`,
			want: &ir.Type{Kind: ir.KindStruct, Declared: true, Fields: []*ir.Field{
				{Key: "transcript", Type: str, Description: "The conversation."},
				{Key: "history", Optional: true, GoNameOverride: "History", Description: "What we know.",
					Type: &ir.Type{Kind: ir.KindStruct, Declared: true, Fields: []*ir.Field{
						{Key: "status", Type: str},
						{Key: "issues", Type: &ir.Type{Kind: ir.KindInt}, Optional: true},
						{Key: "notes", Type: str, Optional: true},
					}}},
				{Key: "items", Type: &ir.Type{Kind: ir.KindList, Elem: &ir.Type{Kind: ir.KindStruct, Declared: true, Fields: []*ir.Field{
					{Key: "id", Type: str},
				}}}},
				{Key: "sentiment", Type: str},
				{Key: "counts", Type: &ir.Type{Kind: ir.KindMap, Elem: &ir.Type{Kind: ir.KindInt}}},
				{Key: "anything", Type: &ir.Type{Kind: ir.KindList, Elem: &ir.Type{Kind: ir.KindUnknown}}},
				{Key: "nullable", Type: &ir.Type{Kind: ir.KindBool}, Optional: true},
			}},
		},
		{
			name: "json schema",
			inputs: `
  $schema: https://json-schema.org/draft/2020-12/schema
  type: object
  title: Feed
  description: The feed.
  properties:
    interaction_transcript:
      type: string
      minLength: 1
    customer_history:
      type: object
      properties:
        loyalty_status: {type: string, default: none}
        recent_issues_count: {type: integer, minimum: 0, go_name: Issues}
        tags: {type: array, items: {type: string}, maxItems: 3}
    meta: {type: object}
    labels: {additionalProperties: {type: string}}
  required: [interaction_transcript]
  additionalProperties: false
`,
			want: &ir.Type{Kind: ir.KindStruct, Declared: true, Fields: []*ir.Field{
				{Key: "interaction_transcript", Type: str},
				{Key: "customer_history", Optional: true, Type: &ir.Type{Kind: ir.KindStruct, Declared: true, Fields: []*ir.Field{
					{Key: "loyalty_status", Type: str, Optional: true},
					{Key: "recent_issues_count", Type: &ir.Type{Kind: ir.KindInt}, Optional: true, GoNameOverride: "Issues"},
					{Key: "tags", Type: &ir.Type{Kind: ir.KindList, Elem: str}, Optional: true},
				}}},
				{Key: "meta", Optional: true, Type: &ir.Type{Kind: ir.KindStruct}},
				{Key: "labels", Optional: true, Type: &ir.Type{Kind: ir.KindMap, Elem: str}},
			}},
		},
		{
			name:   "json schema without properties",
			inputs: " {type: object}\n",
			want:   &ir.Type{Kind: ir.KindStruct, Declared: true},
		},
		{
			// Without `type: object` at the top, "type" is a variable.
			name:   "variable named type",
			inputs: " {type: string, properties: [object]}\n",
			want: &ir.Type{Kind: ir.KindStruct, Declared: true, Fields: []*ir.Field{
				{Key: "type", Type: str},
				{Key: "properties", Type: &ir.Type{Kind: ir.KindList, Elem: &ir.Type{Kind: ir.KindStruct}}},
			}},
		},
	}
	ignorePos := cmp.Options{cmpopts.IgnoreFields(ir.Field{}, "Pos", "GoNamePos"), cmpopts.IgnoreFields(ir.Type{}, "Link", "Hint")}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prompts, diags := Prompts(mapFS(map[string]string{"a.yaml": "template: hi\ninputs:" + tt.inputs}), "", nil)
			if len(diags) > 0 {
				t.Fatalf("diagnostics:\n%s", diags.Sorted())
			}
			if diff := cmp.Diff(tt.want, prompts[0].Inputs, ignorePos); diff != "" {
				t.Errorf("inputs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadInputPositions(t *testing.T) {
	const file = "template: hi\ninputs:\n  name: string\n  user:\n    properties:\n      \"é id\": {type: string, go_name: ID}\n"
	prompts, diags := Prompts(mapFS(map[string]string{"a.yaml": file}), "", nil)
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", diags.Sorted())
	}
	in := prompts[0].Inputs
	id := in.Fields[1].Type.Fields[0]
	got := []src.Pos{in.Fields[0].Pos, in.Fields[1].Pos, id.Pos, id.GoNamePos}
	want := []src.Pos{{File: "a.yaml", Line: 3, Col: 3}, {File: "a.yaml", Line: 4, Col: 3}, {File: "a.yaml", Line: 6, Col: 7}, {File: "a.yaml", Line: 6, Col: 40}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("positions (-want +got):\n%s", diff)
	}
}

// TestSourceMap checks that template bytes map to where they are in the
// file. Each case's marker occurs once in the file and once in the template;
// the expected position is found by searching the file.
func TestSourceMap(t *testing.T) {
	tests := []struct {
		name, file, marker string
		copy               bool // every template byte is a file byte
	}{
		{"literal", "template: |\n  Hello {{ name }}!\n  Bye {{ x }}\n", "{{ x }}", true},
		{"literal strip", "template: |-\n  a\n  b {{ x }}\n\nmodel: m\n", "{{ x }}", true},
		{"literal keep", "template: |+\n  a\n  b {{ x }}\n\n   \n\nmodel: m\n", "{{ x }}", true},
		{"literal indentation indicator", "template: |2\n    more {{ a }}\n  b {{ x }}\n", "{{ a }}", true},
		{"literal indentation indicator, second line", "template: |2-\n    more\n  b {{ x }}\n", "{{ x }}", true},
		{"literal deep indentation", "template: |\n        deep\n          deeper {{ x }}\n", "{{ x }}", true},
		{"literal with comment", "template: |  # the prompt\n  x {{ y }}\n", "{{ y }}", true},
		{"literal with tag and anchor", "template: &t !!str |\n  a {{ b }}\n", "{{ b }}", true},
		{"literal leading blank lines", "template: |\n\n  \n  a {{ b }}\n", "{{ b }}", true},
		{"literal multi-byte", "template: |\n  héllo {{ n }}\n", "{{ n }}", true},
		{"literal crlf", "template: |\r\n  a\r\n  b {{ x }}\r\n", "{{ x }}", true},
		{"literal at eof", "template: |\n  a {{ x }}", "{{ x }}", true},
		{"literal after other keys", "model: m\nparameters:\n  temperature: 1\ntemplate: |\n  {{ x }}\n", "{{ x }}", true},
		{"plain", "template: Hello {{ name }}\n", "{{ name }}", true},
		{"plain after multi-byte", "template: Grüße {{ name }}\n", "{{ name }}", true},
		{"single-quoted", "template: 'It''s {{ x }}'\n", "{{ x }}", false},
		{"double-quoted", "template: \"Say \\\"hi\\\" {{ x }}\"\n", "{{ x }}", false},
		{"double-quoted escape", "template: \"a\\nb\\t{{ x }}\"\n", "{{ x }}", false},
		{"double-quoted unicode escape", "template: \"\\u00e9t\\u00e9 {{ x }}\"\n", "{{ x }}", false},
		{"folded", "template: >\n  first line\n  second {{ x }}\n", "{{ x }}", false},
		{"multi-line plain", "template: first\n  second {{ x }}\n", "{{ x }}", false},
		{"multi-line double-quoted", "template: \"first\n  second {{ x }}\"\n", "{{ x }}", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prompts, diags := Prompts(mapFS(map[string]string{"a.yaml": tt.file}), "", nil)
			if len(diags) > 0 {
				t.Fatalf("diagnostics:\n%s", diags.Sorted())
			}
			p := prompts[0]
			checkMarker(t, []byte(tt.file), p, tt.marker)
			if tt.copy {
				checkCopy(t, []byte(tt.file), p)
			}
		})
	}
}

func TestSourceMapPlainFile(t *testing.T) {
	const file = "line one\r\n\nHello {{ name }}\n"
	prompts, _ := Prompts(mapFS(map[string]string{"a.jinja": file}), "", nil)
	checkMarker(t, []byte(file), prompts[0], "{{ name }}")
	checkCopy(t, []byte(file), prompts[0])
	if got, want := prompts[0].Map.Pos(len(file)), (src.Pos{File: "a.jinja", Line: 3, Col: 18}); got != want {
		t.Errorf("end of template maps to %s, want %s", got, want)
	}
}

// checkMarker checks that each byte of marker in the template maps to the
// position of the same byte in the file.
func checkMarker(t *testing.T, data []byte, p *ir.PromptSpec, marker string) {
	t.Helper()
	k := strings.Index(p.Template, marker)
	at := bytes.Index(data, []byte(marker))
	if k < 0 || at < 0 || bytes.Count(data, []byte(marker)) != 1 {
		t.Fatalf("marker %q: template offset %d, file offset %d", marker, k, at)
	}
	source := newSource(p.Path, data)
	for i := range len(marker) {
		if got, want := p.Map.Pos(k+i), source.pos(at+i); got != want {
			t.Errorf("template offset %d maps to %s, want %s", k+i, got, want)
		}
	}
}

// FuzzLoad loads arbitrary bytes as a prompt file: loading never panics,
// and every position is a real one.
func FuzzLoad(f *testing.F) {
	seeds, err := filepath.Glob("testdata/load/*.yaml")
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range seeds {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"template: |\n  a\n b\n",
		"tokenizer: cl100k_base\nmarkers: false\nsections:\n  - name: a\n    title: A\n    when: x\n    budget_tokens: 5\n    truncate: items\n    template: \"{% for i in xs %}{{ i }}{% endfor %}\"\n",
		"template: >-\n  a\n\n  b\n",
		"template: \"a\\tb\\u00e9\"\n",
		"template: 'a''b'\ninputs:\n  x: string?\n  y: [int]\n  z: {type: object, properties: {a: {type: string}}}\n",
		"template: |2+\n   x\r\n\n",
		"parameters: {a: [1, 2.5, true, null, {b: c}]}\n",
		"template: >\n  a\n\n  b {{ y }}\n",
		"template: \"a\n  b\"\njinja: {trim_blocks: true}\noutputFormat: json\n",
		"template: |\n  Hi\n{% if x %}\n  x\n{% endif %}\nmodel: m\n",
		"template: x\ninputs:\n  type: object\n  properties:\n    a: {type: [string, \"null\"]}\n    m: {additionalProperties: {type: integer}}\n    l: {type: array, items: {type: object}}\n  required: [a]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		prompts, diags := Prompts(fstest.MapFS{"p.yaml": {Data: data}}, "prompts", nil)
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, d := range diags {
			if d.Pos.Line < 1 || d.Pos.Line > lines || d.Pos.Col < 1 {
				t.Errorf("diagnostic at a bad position: %s", d)
			}
		}
		for _, p := range prompts {
			n := len(p.Template)
			if len(p.Map.Lines) > 0 {
				n++ // the end, where an unclosed tag is reported
			}
			for k := range n {
				if pos := p.Map.Pos(k); pos.Line < 1 || pos.Line > lines || pos.Col < 1 {
					t.Fatalf("template offset %d maps to %s", k, pos)
				}
			}
			if isLiteral(data) {
				checkCopy(t, data, p)
			}
		}
	})
}

// isLiteral reports whether data's template is a literal block scalar in a
// file without the line breaks that editors and YAML count differently.
func isLiteral(data []byte) bool {
	if bytes.ContainsAny(data, "\r\u0085\u2028\u2029\uFEFF") {
		return false
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return false
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "template" {
			return root.Content[i+1].Style&yaml.LiteralStyle != 0
		}
	}
	return false
}
