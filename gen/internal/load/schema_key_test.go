package load

import (
	"testing"
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
			_, diags := Prompts(fsys, "prompts")
			_, setDiags := Sets(fsys, "prompts")
			if got := append(diags, setDiags...).Sorted().Error(); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
