package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"golang.org/x/tools/txtar"
	"gopkg.in/yaml.v3"
)

// The published schemas of the file formats (schema/prompt.schema.json,
// schema/promptset.schema.json) are held to promptgen by a real validator:
// every YAML file that promptgen accepts (the example prompts, the golden
// inputs) is valid, every bad file below is rejected by both, and no input
// of the diagnostic tests is rejected by the schema unless promptgen
// rejects it too. (gen/internal/load's TestSchemaKeyLists keeps the key
// lists in step, runtime/params' TestSchemaParameters the parameters.)

// fileSchemas are the compiled schemas.
type fileSchemas struct{ prompt, set, tool *jsonschema.Schema }

func compileSchemas(t *testing.T) fileSchemas {
	t.Helper()
	compile := func(name string) *jsonschema.Schema {
		c := jsonschema.NewCompiler()
		c.Draft = jsonschema.Draft2020
		s, err := c.Compile(filepath.Join("..", "..", "schema", name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return s
	}
	return fileSchemas{prompt: compile("prompt.schema.json"), set: compile("promptset.schema.json"), tool: compile("tool.schema.json")}
}

// validate checks the YAML file name with data against its schema: that of
// promptset.yaml, of a shared tool (prompts/tools/*.yaml), or of a prompt
// file. A file that is not YAML fails the
// test: the schema never sees it.
func (s fileSchemas) validate(t *testing.T, name string, data []byte) error {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Errorf("%s: %v", name, err)
		return nil
	}
	var v any
	if len(doc.Content) > 0 {
		v = jsonValue(doc.Content[0])
	}
	switch {
	case filepath.Base(name) == "promptset.yaml":
		return s.set.Validate(v)
	case filepath.Base(filepath.Dir(name)) == "tools" && (filepath.Dir(filepath.Dir(name)) == "." || filepath.Base(filepath.Dir(filepath.Dir(name))) == "prompts"):
		// A tools/ file at the root of a prompts tree, or of a diag case's.
		return s.tool.Validate(v)
	}
	return s.prompt.Validate(v)
}

// jsonValue is the JSON value that an editor sees for a YAML node: keys
// are their text, numbers keep their digits.
func jsonValue(n *yaml.Node) any {
	switch n.Kind {
	case yaml.AliasNode:
		return jsonValue(n.Alias)
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = jsonValue(n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		list := []any{}
		for _, c := range n.Content {
			list = append(list, jsonValue(c))
		}
		return list
	}
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		_ = n.Decode(&b)
		return b
	case "!!int":
		var i int64
		if n.Decode(&i) == nil {
			return json.Number(strconv.FormatInt(i, 10))
		}
	case "!!float":
		var f float64
		if n.Decode(&f) == nil {
			return f
		}
	}
	return n.Value
}

// yamlFiles returns the *.yaml and *.yml files below root.
func yamlFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestSchemaAcceptsValidFiles: every YAML file that promptgen generates
// from is valid against its schema.
func TestSchemaAcceptsValidFiles(t *testing.T) {
	s := compileSchemas(t)
	files := yamlFiles(t, filepath.Join("..", "..", "prompts"))
	goldens, err := filepath.Glob(filepath.Join("..", "..", "gen", "testdata", "golden", "*", "prompts"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range append(goldens, filepath.Join("..", "..", "gen", "testdata", "sections", "prompts")) {
		files = append(files, yamlFiles(t, dir)...)
	}
	if len(files) < 30 {
		t.Fatalf("found only %d YAML files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.validate(t, f, data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// goodFiles are files that promptgen accepts and the schema must too,
// beside the example prompts and golden inputs: how a file names its
// schema, and forms they do not use.
var goodFiles = []struct{ path, content string }{
	{"schema_key.yaml", "$schema: ../schema/prompt.schema.json\ntemplate: hi\n"},
	{"modeline.yaml", "# yaml-language-server: $schema=../schema/prompt.schema.json\ntemplate: hi\n"},
	{"shorthand.yaml", "template: '{{ a }}{{ b }}{{ c }}{{ d }}{{ e | join }}{{ f | length }}'\n" +
		"inputs:\n  a: string\n  b: int?\n  c: {type: [number, \"null\"]}\n  d: {type: boolean, optional: true, go_name: D2}\n" +
		"  e:\n    - - string\n  f:\n    additionalProperties: {type: integer}\n"},
	{"root_schema.yaml", "template: '{{ a }}{{ tags | join }}'\ninputs:\n  type: object\n  title: ignored\n  $comment: ignored\n" +
		"  properties:\n    a: {type: string, minLength: 1, go_name: Aa}\n    tags: {type: array, items: {enum: [x, y]}}\n  required: [a]\n"},
	{"extra.yaml", "template: hi\nparameters:\n  stop: [END]\n  logit_bias: {\"50256\": -100}\n  seed: 7\n" +
		"extra_parameters:\n  thinking: {type: enabled, budget_tokens: 2048}\n"},
	{"sections.yaml", "markers: false\ntokenizer: cl100k_base\nsections:\n  - name: intro\n    title: Intro\n    when: topic is defined\n" +
		"    budget_tokens: 50\n    truncate: text\n    template: '{{ topic }}'\n"},
	{"content.yaml", "messages:\n  - role: user\n    content:\n      - text: What is this?\n      - image: https://example.com/a.png\n" +
		"  - role: assistant\n    template: A cat.\n"},
	{"tool.yaml", "messages:\n  - role: user\n    template: hi\n  - role: assistant\n    tool_calls: [{id: c1, name: f, arguments: '{}'}]\n" +
		"  - role: tool_result\n    tool_call_id: c1\n    data: '{}'\n  - role: assistant\n    template: done\n"},
	{"set/promptset.yaml", "$schema: ../../schema/promptset.schema.json\ndefault_type: main\ndefault_name: fallback\n" +
		"components:\n  style:\n    - {version: short, content: Be brief.}\n    - {content: Be clear.}\n" +
		"templates:\n  main:\n    fallback: '{{ style }}'\n    Ask.v2: {template: '{{ style }} ask', model: m, parameters: {top_p: 0.5}}\n" +
		"    components: {note: a note}\n    sub:\n      fallback: '{{ note }}'\n" +
		"fragments:\n  brief: Be brief.\n  greet: {template: 'Hi {{ name }}', inputs: {name: string}}\n"},
	{"set/main/Search.yaml", "$schema: ../../../schema/prompt.schema.json\nmodel: m\ntemplate: search\n"},
	{"chat.yaml", "inputs: chat\njinja: {profile: transformers}\ntemplate: '{% for m in messages %}{{ m.role }}: {{ m.content }}\\n{% endfor %}'\n"},
	{"chat_tokens.yaml", "inputs: chat\nspecial_tokens: [\"<|im_start|>\", \"<|im_end|>\"]\ntemplate: '{{ messages | length }}'\n"},
	{"switches/promptset.yaml", "default_template: 'No template for this step.'\n" +
		"predefined_variables:\n  acme: {company: ACME, tags: [a, b]}\ninputs: {company: string, tags: [string]}\n"},
	{"switches/main/default.jinja", "{{ company }} {{ tags | join }}"},
	{"empty/promptset.yaml", ""},
	{"empty/default.jinja", "hi"},
}

// TestSchemaAcceptsGoodFiles: the schema and promptgen accept each good file.
func TestSchemaAcceptsGoodFiles(t *testing.T) {
	s := compileSchemas(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "prompts")
	for _, f := range goodFiles {
		p := filepath.Join(in, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.content), 0o666); err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(p, ".yaml") {
			continue
		}
		if err := s.validate(t, p, []byte(f.content)); err != nil {
			t.Errorf("%s: %v", f.path, err)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), []string{"generate", "-in", in, "-out", filepath.Join(dir, "out")}, nil, &stdout, &stderr); code != exitOK {
		t.Fatalf("generate: exit %d\n%s", code, stderr.String())
	}
}

// badFiles are files that promptgen rejects and the schema must too, each
// with the error promptgen reports in it. A path ending in promptset.yaml
// is a set (given a default template); any other is a prompt file.
var badFiles = []struct {
	path, content, err string
}{
	{"unknown_key.yaml", "template: hi\ntemprature: 1\n", `unknown key "temprature"`},
	{"no_body.yaml", "description: nothing to render\n", `missing key "template"`},
	{"schema_not_string.yaml", "$schema: 1\ntemplate: hi\n", `"$schema" must be a string`},
	{"description_list.yaml", "description: [a]\ntemplate: hi\n", `"description" must be a string`},
	{"components.yaml", "template: hi\ncomponents: {a: b}\n", `"components" belong to template sets`},
	{"output_format.yaml", "template: hi\noutputFormat: html\n", `unknown outputFormat "html"`},
	{"output_schema_list.yaml", "template: hi\noutputSchema: [a]\n", `outputSchema: got a list, want a schema mapping`},
	{"param_range.yaml", "template: hi\nparameters: {temperature: 3}\n", `parameter "temperature" must be a number from 0 to 2, not 3`},
	{"param_unknown.yaml", "template: hi\nparameters: {temprature: 1}\n", `unknown parameter "temprature"`},
	{"param_enum.yaml", "template: hi\nparameters: {reasoning_effort: extreme}\n", `parameter "reasoning_effort" must be one of`},
	{"param_stop.yaml", "template: hi\nparameters: {stop: 5}\n", `parameter "stop" must be a string or a list of strings`},
	{"param_bias.yaml", "template: hi\nparameters: {logit_bias: {abc: 5}}\n", `parameter "logit_bias" must be a mapping from token IDs`},
	{"param_integer.yaml", "template: hi\nparameters: {max_tokens: 1.5}\n", `parameter "max_tokens" must be an integer`},
	{"param_null.yaml", "template: hi\nparameters: {top_p: null}\n", `parameter "top_p" must be a number from 0 to 1, not null`},
	{"extra_known.yaml", "template: hi\nextra_parameters: {temperature: 1}\n", `"temperature" is a known parameter`},
	{"extra_misplaced.yaml", "template: hi\nextra_parameters: {response_format: {type: json_object}}\n", `"response_format" is not a parameter`},
	{"template_and_messages.yaml", "template: hi\nmessages: [{role: user, template: hi}]\n", `either "template" or "messages"`},
	{"messages_empty.yaml", "messages: []\n", `"messages" has no entries`},
	{"message_role.yaml", "messages: [{role: bot, template: hi}]\n", `unknown role "bot"`},
	{"message_no_role.yaml", "messages: [{template: hi}]\n", `message has no "role"`},
	{"message_key.yaml", "messages: [{role: user, contents: [{text: hi}]}]\n", `unknown message key "contents" (did you mean "content"?)`},
	{"content_string.yaml", "messages: [{role: user, content: hi}]\n", `"content" must be a list of text and image parts`},
	{"content_on_system.yaml", "messages: [{role: system, content: [{text: hi}]}, {role: user, template: hi}]\n", `only user and tool_result messages have "content"`},
	{"content_and_data.yaml", "messages: [{role: user, template: hi}, {role: tool_request, tool_calls: [{id: a, name: b, arguments: '{}'}]}, {role: tool_result, tool_call_id: a, data: '{}', content: [{text: hi}]}]\n", `a message has "data" or "content", not both`},
	{"content_and_template.yaml", "messages: [{role: user, template: hi, content: [{text: hi}]}]\n", `a message has "template" or "content", not both`},
	{"content_empty.yaml", "messages: [{role: user, content: []}]\n", `"content" has no parts`},
	{"content_part_key.yaml", "messages: [{role: user, content: [{imag: x}]}]\n", `unknown content part key "imag"`},
	{"content_part_keys.yaml", "messages: [{role: user, content: [{text: a, image: b}]}]\n", `a content part has one of the keys "text" and "image"`},
	{"content_part_detail.yaml", "messages: [{role: user, content: [{image: 'https://example.com/a.png', detail: medium}]}]\n", `unknown image detail "medium"`},
	{"content_part_text_detail.yaml", "messages: [{role: user, content: [{text: a, detail: low}]}]\n", `only image parts have "detail"`},
	{"tool_request_no_calls.yaml", "messages: [{role: user, template: hi}, {role: tool_request, template: x}]\n", `a tool_request message needs "tool_calls"`},
	{"user_data.yaml", "messages: [{role: user, template: hi, data: '{}'}]\n", `only tool_result messages have "data"`},
	{"tool_result_no_id.yaml", "messages: [{role: user, template: hi}, {role: tool_result, data: '{}'}]\n", `a tool_result message needs "tool_call_id"`},
	{"tool_call_no_arguments.yaml", "messages: [{role: assistant, tool_calls: [{id: a, name: b}]}]\n", `a tool call needs "id", "name" and "arguments"`},
	{"user_tool_calls.yaml", "messages: [{role: user, template: hi, tool_calls: [{id: a, name: b, arguments: '{}'}]}]\n", `only assistant and tool_request messages have "tool_calls"`},
	{"system_with_messages.yaml", "system: be brief\nmessages: [{role: user, template: hi}]\n", `"system" is for single-template prompts`},
	{"sections_and_messages.yaml", "messages: [{role: user, template: hi}]\nsections: [{name: a, template: x}]\n", `either "messages" or "sections"`},
	{"section_name.yaml", "sections: [{name: my section, template: x}]\n", `section name "my section" is not an identifier`},
	{"section_no_template.yaml", "sections: [{name: a}]\n", `section "a" has no "template"`},
	{"section_budget.yaml", "sections: [{name: a, template: x, budget_tokens: 0}]\n", `budget_tokens must be between 1 and 10000000, not 0`},
	{"section_truncate_mode.yaml", "sections: [{name: a, template: x, budget_tokens: 5, truncate: drop}]\n", `unknown truncate mode "drop"`},
	{"section_truncate_alone.yaml", "sections: [{name: a, template: x, truncate: text}]\n", `truncate needs budget_tokens`},
	{"section_title.yaml", "sections: [{name: a, title: \"two\\nlines\", template: x}]\n", `a section title is one line`},
	{"section_key.yaml", "sections: [{name: a, template: x, budget: 5}]\n", `unknown section key "budget"`},
	{"tokenizer_alone.yaml", "template: hi\ntokenizer: o200k_base\n", `"tokenizer" is for sectioned prompts`},
	{"tokenizer_unknown.yaml", "tokenizer: gpt2\nsections: [{name: a, template: x}]\n", `unknown tokenizer "gpt2"`},
	{"markers_string.yaml", "markers: \"yes\"\nsections: [{name: a, template: x}]\n", `"markers" must be true or false`},
	{"special_tokens_alone.yaml", "template: hi\nspecial_tokens: [\"<|im_end|>\"]\n", `"special_tokens" is for chat templates`},
	{"special_tokens_empty.yaml", "inputs: chat\nspecial_tokens: [\"\"]\ntemplate: hi\n", `a special token cannot be empty`},
	{"special_tokens_string.yaml", "inputs: chat\nspecial_tokens: \"<|im_end|>\"\ntemplate: hi\n", `"special_tokens" must be a list of strings`},
	{"jinja_option.yaml", "template: hi\njinja: {trim_block: true}\n", `unknown jinja option "trim_block"`},
	{"jinja_value.yaml", "template: hi\njinja: {trim_blocks: \"yes\"}\n", `"trim_blocks" must be true or false`},
	{"variables_no_allowed.yaml", "template: hi\nvariables: {unknown: warn}\n", `variables has no "allowed" list`},
	{"variables_policy.yaml", "template: hi\nvariables: {allowed: [], unknown: fail}\n", `"unknown" must be warn or error`},
	{"example_no_output.yaml", "template: hi\nexamples: [{input_vars: {}}]\n", `missing key "expected_output"`},
	{"example_key.yaml", "template: hi\nexamples: [{input: {}, expected_output: x}]\n", `unknown example key "input"`},
	{"input_type.yaml", "template: '{{ name }}'\ninputs: {name: strng}\n", `unknown type "strng"`},
	{"input_optional_element.yaml", "template: '{{ names }}'\ninputs:\n  names:\n    - string?\n", `list elements cannot be optional`},
	{"input_name.yaml", "template: hi\ninputs: {first-name: string}\n", `invalid variable name "first-name"`},
	{"input_schema_type.yaml", "template: '{{ a }}'\ninputs: {type: object, properties: {a: {type: int}}}\n", `unknown type "int"`},
	{"input_schema_keyword.yaml", "template: '{{ a }}'\ninputs: {type: object, properties: {a: {allOf: [{type: string}]}}}\n", `schema keyword "allOf" is not supported`},
	{"input_union.yaml", "template: '{{ a }}'\ninputs: {a: {type: [string, integer]}}\n", `union types are not supported`},
	{"input_no_type.yaml", "template: '{{ a }}'\ninputs: {a: {description: something}}\n", `missing key "type"`},
	{"input_property_optional.yaml", "template: '{{ a.b }}'\ninputs: {a: {type: object, properties: {b: {type: string, optional: true}}}}\n", `unknown schema keyword "optional"`},
	{"input_root_go_name.yaml", "template: '{{ a }}'\ninputs: {type: object, go_name: Feed, properties: {a: {type: string}}}\n", `unknown schema keyword "go_name"`},
	{"input_go_type_shape.yaml", "template: '{{ a }}'\ninputs: {a: {goType: example.com/crm.Customer, type: object}}\n", `"type" does not go with "goType"`},
	{"input_go_type_pointer.yaml", "template: '{{ a }}'\ninputs: {a: {goType: \"*example.com/crm.Customer\"}}\n", `invalid goType "*example.com/crm.Customer"`},
	{"bad/promptset.yaml", "default_typ: main\n", `unknown key "default_typ"`},
	{"name/promptset.yaml", "default_name: a.b\n", `invalid default_name "a.b"`},
	{"component/promptset.yaml", "components: {style: [{version: short}]}\n", `missing key "content"`},
	{"version/promptset.yaml", "components: {style: [{version: a/b, content: x}]}\n", `invalid version "a/b"`},
	{"inline/promptset.yaml", "templates: {main: {Search: {template: x, temperature: 1}}}\n", `unknown key "temperature"`},
	{"fragment/promptset.yaml", "fragments: {brief: {template: x, model: m}}\n", `a fragment has no "model"`},
	{"autobind/promptset.yaml", "autobind: [example.com/crm, example.com/crm]\n", `duplicate autobind package "example.com/crm"`},
	{"params/promptset.yaml", "parameters: {top_p: 2}\n", `parameter "top_p" must be a number from 0 to 1, not 2`},
	{"set_inputs/promptset.yaml", "inputs: {a: strng}\n", `unknown type "strng"`},
}

// TestSchemaRejectsBadFiles: each bad file is invalid against its schema,
// and promptgen reports its error in it.
func TestSchemaRejectsBadFiles(t *testing.T) {
	s := compileSchemas(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "prompts")
	for _, f := range badFiles {
		p := filepath.Join(in, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.content), 0o666); err != nil {
			t.Fatal(err)
		}
		if filepath.Base(p) == "promptset.yaml" {
			if err := os.WriteFile(filepath.Join(filepath.Dir(p), "default.jinja"), []byte("hi"), 0o666); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.validate(t, p, []byte(f.content)); err == nil {
			t.Errorf("%s: the schema accepts\n%s", f.path, f.content)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), []string{"generate", "-in", in, "-out", filepath.Join(dir, "out")}, nil, &stdout, &stderr); code != exitFail {
		t.Fatalf("generate: exit %d, want %d\n%s", code, exitFail, stderr.String())
	}
	lines := strings.Split(stderr.String(), "\n")
	for _, f := range badFiles {
		file := filepath.ToSlash(filepath.Join(in, filepath.FromSlash(f.path))) + ":"
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, file) && strings.Contains(l, f.err) }) {
			t.Errorf("%s: promptgen reports no error %q in it; stderr:\n%s", f.path, f.err, stderr.String())
		}
	}
}

// TestSchemaNoStricterThanPromptgen: no YAML input of the diagnostic tests
// (gen/testdata/diag) is invalid against its schema unless promptgen
// reports an error in that file.
func TestSchemaNoStricterThanPromptgen(t *testing.T) {
	s := compileSchemas(t)
	cases, err := filepath.Glob(filepath.Join("..", "..", "gen", "testdata", "diag", "*.txtar"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no diagnostic tests: %v", err)
	}
	checked := 0
	for _, c := range cases {
		a, err := txtar.ParseFile(c)
		if err != nil {
			t.Fatal(err)
		}
		var stderr string
		for _, f := range a.Files {
			if f.Name == "stderr" {
				stderr = string(f.Data)
			}
		}
		for _, f := range a.Files {
			if !strings.HasSuffix(f.Name, ".yaml") {
				continue
			}
			checked++
			verr := s.validate(t, f.Name, f.Data)
			if verr != nil && !hasError(stderr, f.Name) {
				t.Errorf("%s: %s: the schema rejects a file that promptgen accepts: %v", filepath.Base(c), f.Name, verr)
			}
		}
	}
	if checked < 50 {
		t.Errorf("checked only %d files", checked)
	}
}

// hasError reports whether stderr, diagnostics of files under one root
// directory, has an error (not a warning) in the file name.
func hasError(stderr, name string) bool {
	for _, line := range strings.Split(stderr, "\n") {
		_, rest, ok := strings.Cut(line, "/")
		if ok && strings.HasPrefix(rest, name+":") && !strings.Contains(line, ": warning: ") {
			return true
		}
	}
	return false
}
