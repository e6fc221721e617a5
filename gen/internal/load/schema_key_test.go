package load

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/gen/internal/ir"
)

// TestSchemaKey: every YAML file of the tree may name its JSON Schema, for
// editors, with a `$schema:` key or a yaml-language-server modeline; the
// loader ignores both, but a `$schema` that is not a string is an error,
// as it is for the schema.
func TestSchemaKey(t *testing.T) {
	const promptSchema = "$schema: ../schema/prompt.schema.json\n"
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{
			name:  "prompt file",
			files: map[string]string{"a.yaml": promptSchema + "template: hi\n"},
		},
		{
			name:  "modeline",
			files: map[string]string{"a.yaml": "# yaml-language-server: $schema=../schema/prompt.schema.json\ntemplate: hi\n"},
		},
		{
			name:  "fragment file",
			files: map[string]string{"fragments/f.yaml": promptSchema + "template: hi\n"},
		},
		{
			name: "set files",
			files: map[string]string{
				"s/promptset.yaml":                "$schema: ../../schema/promptset.schema.json\ndefault_type: main\n",
				"s/main/default.yaml":             promptSchema + "model: m\ntemplate: hi\n",
				"s/main/components/preamble.yaml": promptSchema + "template: be brief\n",
				"s/fragments/f.yaml":              promptSchema + "template: hi\n",
			},
		},
		{
			name:  "not a string",
			files: map[string]string{"a.yaml": "$schema: [x]\ntemplate: hi\n", "s/promptset.yaml": "$schema: 1\n", "s/default.jinja": "hi"},
			want: `prompts/a.yaml:1:10: "$schema" must be a string, not a sequence
prompts/s/promptset.yaml:1:10: "$schema" must be a string, not an integer (quote the value)`,
		},
		{
			name:  "misspelt",
			files: map[string]string{"a.yaml": "schema: x\ntemplate: hi\n"},
			want:  `prompts/a.yaml:1:1: unknown key "schema" (did you mean "$schema"?)`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := mapFS(tt.files)
			_, diags := Prompts(fsys, "prompts", nil)
			_, setDiags := Sets(fsys, "prompts", nil)
			if got := append(diags, setDiags...).Sorted().Error(); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// The published JSON Schemas of the file formats (schema/prompt.schema.json
// and schema/promptset.schema.json) list the keys and values the loader
// accepts, for editors. TestSchemaKeyLists holds every list of the schemas
// to the loader's table that it stands for, so that neither changes alone.

// schemaDoc is a JSON Schema file as generic JSON.
type schemaDoc map[string]any

func readSchema(t *testing.T, name string) schemaDoc {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "schema", name))
	if err != nil {
		t.Fatal(err)
	}
	var d schemaDoc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return d
}

// at returns the value at a path of object keys and list indexes.
func (d schemaDoc) at(t *testing.T, path ...string) any {
	t.Helper()
	var v any = map[string]any(d)
	for i, k := range path {
		ok := false
		switch c := v.(type) {
		case map[string]any:
			v, ok = c[k]
		case []any:
			if n, err := strconv.Atoi(k); err == nil && n >= 0 && n < len(c) {
				v, ok = c[n], true
			}
		}
		if !ok {
			t.Fatalf("no %s", strings.Join(path[:i+1], "."))
		}
	}
	return v
}

// keys returns the sorted keys of the object at path.
func (d schemaDoc) keys(t *testing.T, path ...string) []string {
	t.Helper()
	m, ok := d.at(t, path...).(map[string]any)
	if !ok {
		t.Fatalf("%s is not an object", strings.Join(path, "."))
	}
	return slices.Sorted(maps.Keys(m))
}

// strings returns the sorted strings of the list at path.
func (d schemaDoc) strings(t *testing.T, path ...string) []string {
	t.Helper()
	list, ok := d.at(t, path...).([]any)
	if !ok {
		t.Fatalf("%s is not a list", strings.Join(path, "."))
	}
	var out []string
	for _, v := range list {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

func TestSchemaKeyLists(t *testing.T) {
	prompt, set := readSchema(t, "prompt.schema.json"), readSchema(t, "promptset.schema.json")
	sorted := func(lists ...[]string) []string {
		return slices.Compact(slices.Sorted(slices.Values(slices.Concat(lists...))))
	}
	without := func(list []string, drop ...string) []string {
		return slices.DeleteFunc(slices.Clone(list), func(s string) bool { return slices.Contains(drop, s) })
	}
	var optionalNames []string
	for _, n := range shorthandNames {
		optionalNames = append(optionalNames, n, n+"?")
	}
	tests := []struct {
		what      string
		schema    []string
		loader    []string
		loaderVar string
	}{
		// A prompt file cannot have components: the loader knows the key
		// only to say where it belongs.
		{"prompt file keys", prompt.keys(t, "properties"), without(topLevelKeys, "components"), "topLevelKeys"},
		{"message keys", prompt.keys(t, "$defs", "message", "properties"), messageKeys, "messageKeys"},
		{"message roles", prompt.strings(t, "$defs", "message", "properties", "role", "enum"), messageRoles, "messageRoles"},
		{"content part keys", prompt.keys(t, "$defs", "contentPart", "properties"), append(slices.Clone(partKeys), "detail"), "partKeys"},
		{"image details", prompt.strings(t, "$defs", "contentPart", "properties", "detail", "enum"), imageDetails, "imageDetails"},
		{"tool call keys", prompt.keys(t, "$defs", "toolCall", "properties"), toolCallKeys, "toolCallKeys"},
		{"variables keys", prompt.keys(t, "$defs", "variables", "properties"), variablesKeys, "variablesKeys"},
		{"unknown policies", prompt.strings(t, "$defs", "variables", "properties", "unknown", "enum"), unknownPolicies, "unknownPolicies"},
		{"jinja options", prompt.keys(t, "$defs", "jinja", "properties"), jinjaOptions, "jinjaOptions"},
		{"example keys", prompt.keys(t, "$defs", "example", "properties"), exampleKeys, "exampleKeys"},
		{"output formats", prompt.strings(t, "properties", "outputFormat", "enum"), outputFormats, "outputFormats"},
		{"section keys", prompt.keys(t, "$defs", "section", "properties"), sectionKeys, "sectionKeys"},
		{"truncate modes", prompt.strings(t, "$defs", "section", "properties", "truncate", "enum"), truncateModes, "truncateModes"},
		{"tokenizers", prompt.strings(t, "properties", "tokenizer", "enum"), tokenizers, "tokenizers"},
		{"shorthand types", prompt.strings(t, "$defs", "shorthandType", "enum"), optionalNames, "shorthandNames"},
		{"shorthand list elements", prompt.strings(t, "$defs", "shorthandList", "items", "anyOf", "0", "enum"), shorthandNames, "shorthandNames"},
		{"schema types", prompt.strings(t, "$defs", "schemaType", "enum"), schemaTypes, "schemaTypes"},
		{"schema keywords", prompt.keys(t, "$defs", "schema", "properties"),
			sorted(schemaKeywords, ignoredKeywords, []string{"optional", "go_name", goTypeKey}), "schemaKeywords, ignoredKeywords"},
		{"filter names that are Jinja2's", prompt.strings(t, "$defs", "filters", "propertyNames", "not", "enum"), ir.Jinja2Filters, "ir.Jinja2Filters"},
		{"set keys", set.keys(t, "properties"), setKeys, "setKeys"},
		{"set template keys", set.keys(t, "$defs", "template", "properties"), setTemplateKeys, "setTemplateKeys"},
		{"component version keys", set.keys(t, "$defs", "componentVersion", "properties"), componentEntry, "componentEntry"},
		{"fragment keys", set.keys(t, "$defs", "fragment", "properties"), append(slices.Clone(fragmentFileKeys), schemaKey), "fragmentFileKeys"},
	}
	for _, tt := range tests {
		if want := sorted(tt.loader); !slices.Equal(tt.schema, want) {
			t.Errorf("%s: the schema has %q, %s has %q", tt.what, tt.schema, tt.loaderVar, want)
		}
	}
	// A component file is read with the keys of a set template, minus
	// those a component cannot have; its schema is the prompt file's.
	for _, k := range setComponentKeys {
		if !slices.Contains(prompt.keys(t, "properties"), k) {
			t.Errorf("component key %q is not a key of prompt.schema.json", k)
		}
	}
	if got := prompt.at(t, "$defs", "section", "properties", "budget_tokens", "maximum"); got != float64(maxBudget) {
		t.Errorf("budget_tokens: the schema's maximum is %v, maxBudget is %d", got, maxBudget)
	}
}
