package tmpl

import (
	"slices"
	"testing"
)

// texts returns the values of the Text nodes in nodes, in source order.
func texts(nodes []Node) []string {
	out := []string{}
	var visit func([]Node)
	visit = func(nodes []Node) {
		for _, n := range nodes {
			switch n := n.(type) {
			case *Text:
				out = append(out, n.Value)
			case *If:
				for _, b := range n.Branches {
					visit(b.Body)
				}
				visit(n.Else)
			case *For:
				visit(n.Body)
				visit(n.Else)
			case *Set:
				visit(n.Body)
			}
		}
	}
	visit(nodes)
	return out
}

// whitespaceTests hold the text Jinja2 3.1 outputs for each template under
// Options{}, {TrimBlocks}, {LstripBlocks} and {TrimBlocks, LstripBlocks}.
var whitespaceTests = []struct {
	src  string
	want [4][]string
}{
	{"a\n", [4][]string{{"a"}, {"a"}, {"a"}, {"a"}}},
	{"a\n\n", [4][]string{{"a\n"}, {"a\n"}, {"a\n"}, {"a\n"}}},
	{"\n", [4][]string{{}, {}, {}, {}}},
	{"a\r\nb\rc\n", [4][]string{{"a\nb\nc"}, {"a\nb\nc"}, {"a\nb\nc"}, {"a\nb\nc"}}},
	{"a\r\n", [4][]string{{"a"}, {"a"}, {"a"}, {"a"}}},
	{"a\r", [4][]string{{"a"}, {"a"}, {"a"}, {"a"}}},
	{"a\n\r", [4][]string{{"a\n"}, {"a\n"}, {"a\n"}, {"a\n"}}},
	{"  {% if x %}\n  a\n  {% endif %}\n", [4][]string{{"  ", "\n  a\n  "}, {"  ", "  a\n  "}, {"\n  a\n"}, {"  a\n"}}},
	{"  {% if x %}\n  a\n  {% endif %}\nb", [4][]string{{"  ", "\n  a\n  ", "\nb"}, {"  ", "  a\n  ", "b"}, {"\n  a\n", "\nb"}, {"  a\n", "b"}}},
	{"{% if x %}\n{% endif %}\n", [4][]string{{"\n"}, {}, {"\n"}, {}}},
	{"a  {%- if x -%}  b  {%- endif -%}  c", [4][]string{{"a", "b", "c"}, {"a", "b", "c"}, {"a", "b", "c"}, {"a", "b", "c"}}},
	{"a  {% if x -%}\n\n  b\n  {%- endif %}  c", [4][]string{{"a  ", "b", "  c"}, {"a  ", "b", "  c"}, {"a  ", "b", "  c"}, {"a  ", "b", "  c"}}},
	{"a {{- x -}} b", [4][]string{{"a", "b"}, {"a", "b"}, {"a", "b"}, {"a", "b"}}},
	{"a {{+ x }} b", [4][]string{{"a ", " b"}, {"a ", " b"}, {"a ", " b"}, {"a ", " b"}}},
	{"  {{ x }}\n", [4][]string{{"  "}, {"  "}, {"  "}, {"  "}}},
	{"  {%+ if x %}\n  {% endif %}", [4][]string{{"  ", "\n  "}, {"  ", "  "}, {"  ", "\n"}, {"  "}}},
	{"  {# c #}\nx", [4][]string{{"  \nx"}, {"  x"}, {"\nx"}, {"x"}}},
	{"  {#- c -#}  \nx", [4][]string{{"x"}, {"x"}, {"x"}, {"x"}}},
	{"  {#+ c +#}\nx", [4][]string{{"  \nx"}, {"  \nx"}, {"  \nx"}, {"  \nx"}}},
	{"x  {# c #}  \n  y", [4][]string{{"x    \n  y"}, {"x    \n  y"}, {"x    \n  y"}, {"x    \n  y"}}},
	{"{% if x %}\r\n  a\r\n  {% endif %}\r\n", [4][]string{{"\n  a\n  "}, {"  a\n  "}, {"\n  a\n"}, {"  a\n"}}},
	{"{% if x %}\r  a\r  {% endif %}\r", [4][]string{{"\n  a\n  "}, {"  a\n  "}, {"\n  a\n"}, {"  a\n"}}},
	{"{% if x +%}\nA{% endif %}\n", [4][]string{{"\nA"}, {"\nA"}, {"\nA"}, {"\nA"}}},
	{"{% if x -%}\n  A\n{%- endif %}", [4][]string{{"A"}, {"A"}, {"A"}, {"A"}}},
	{"\t \t{% if x %}\t\n{% endif %}", [4][]string{{"\t \t", "\t\n"}, {"\t \t", "\t\n"}, {"\t\n"}, {"\t\n"}}},
	{"a\n  \t{% if x %}b{% endif %}", [4][]string{{"a\n  \t", "b"}, {"a\n  \t", "b"}, {"a\n", "b"}, {"a\n", "b"}}},
	{"a \n {{ x }} \n {% if x %} \n {% endif %} \n", [4][]string{{"a \n ", " \n ", " \n ", " "}, {"a \n ", " \n ", " \n ", " "}, {"a \n ", " \n", " \n", " "}, {"a \n ", " \n", " \n", " "}}},
	{"{% raw %}\n  a  \n{% endraw %}\n", [4][]string{{"\n  a  \n"}, {"\n  a  \n"}, {"\n  a  \n"}, {"\n  a  \n"}}},
	{"  {% raw %}\n  a  \n  {% endraw %}\n", [4][]string{{"  \n  a  \n  "}, {"  \n  a  \n  "}, {"\n  a  \n"}, {"\n  a  \n"}}},
	{"  {%- raw %}  a  {%+ endraw %}\n", [4][]string{{"  a  "}, {"  a  "}, {"  a  "}, {"  a  "}}},
	{"{% raw -%}\n  a  \n  {%- endraw %}\n", [4][]string{{"a"}, {"a"}, {"a"}, {"a"}}},
	{"a{% raw %}\nb{% endraw %}\nc", [4][]string{{"a\nb\nc"}, {"a\nbc"}, {"a\nb\nc"}, {"a\nbc"}}},
	{"{% for x in y %}\n  {{ x }}\n{% endfor %}\n", [4][]string{{"\n  ", "\n"}, {"  ", "\n"}, {"\n  ", "\n"}, {"  ", "\n"}}},
	{"<ul>\n  {% for x in y %}\n    <li>{{ x }}</li>\n  {% endfor %}\n</ul>\n", [4][]string{{"<ul>\n  ", "\n    <li>", "</li>\n  ", "\n</ul>"}, {"<ul>\n  ", "    <li>", "</li>\n  ", "</ul>"}, {"<ul>\n", "\n    <li>", "</li>\n", "\n</ul>"}, {"<ul>\n", "    <li>", "</li>\n", "</ul>"}}},
	{"{{ x }}\n{{ y }}\n", [4][]string{{"\n"}, {"\n"}, {"\n"}, {"\n"}}},
	{"{% if a %}A{% elif b %}\n  B\n{% else %}\n  C\n{% endif %}\n", [4][]string{{"A", "\n  B\n", "\n  C\n"}, {"A", "  B\n", "  C\n"}, {"A", "\n  B\n", "\n  C\n"}, {"A", "  B\n", "  C\n"}}},
	{"  {% set x %}\n  v\n  {% endset %}\n", [4][]string{{"  ", "\n  v\n  "}, {"  ", "  v\n  "}, {"\n  v\n"}, {"  v\n"}}},
	{"a{# x #}\n{# y #}\nb", [4][]string{{"a\n\nb"}, {"ab"}, {"a\n\nb"}, {"ab"}}},
	{"{{ 'a\r\nb' }}", [4][]string{{}, {}, {}, {}}},
	{"{{ 'a\\\\\nb' }}", [4][]string{{}, {}, {}, {}}},
	{"{{ 'a\\\\\r\nb' }}", [4][]string{{}, {}, {}, {}}},
	{"x\u00a0{% if a %}\u00a0y{% endif %}", [4][]string{{"x\u00a0", "\u00a0y"}, {"x\u00a0", "\u00a0y"}, {"x\u00a0", "\u00a0y"}, {"x\u00a0", "\u00a0y"}}},
	{"\x1c{% if a -%}\x1c\x1dy{% endif %}", [4][]string{{"\x1c", "y"}, {"\x1c", "y"}, {"y"}, {"y"}}},
	{" \u3000 {% if x %}a{% endif %}", [4][]string{{" \u3000 ", "a"}, {" \u3000 ", "a"}, {"a"}, {"a"}}},
	{"{{ x }}  {% if y %}z{% endif %}", [4][]string{{"  ", "z"}, {"  ", "z"}, {"  ", "z"}, {"  ", "z"}}},
	{"{{ x -}}\n  {% if y %}z{% endif %}", [4][]string{{"z"}, {"z"}, {"z"}, {"z"}}},
	{"{% if y %}z{% endif %}  \n  {% if y %}z{% endif %}", [4][]string{{"z", "  \n  ", "z"}, {"z", "  \n  ", "z"}, {"z", "  \n", "z"}, {"z", "  \n", "z"}}},
	{"{#- -#}", [4][]string{{}, {}, {}, {}}},
}

func TestWhitespace(t *testing.T) {
	optionSets := [4]Options{{}, {TrimBlocks: true}, {LstripBlocks: true}, {TrimBlocks: true, LstripBlocks: true}}
	for _, tt := range whitespaceTests {
		for i, opts := range optionSets {
			tmpl, err := Parse(tt.src, opts)
			if err != nil {
				t.Errorf("Parse(%q, %+v): %v", tt.src, opts, err)
				continue
			}
			if got := texts(tmpl.Body); !slices.Equal(got, tt.want[i]) {
				t.Errorf("Parse(%q, %+v) texts = %q, want %q", tt.src, opts, got, tt.want[i])
			}
		}
	}
}

func TestKeepTrailingNewline(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"a\n", []string{"a\n"}},
		{"a\n\n", []string{"a\n\n"}},
		{"\n", []string{"\n"}},
		{"a\r\n", []string{"a\n"}},
		{"a\r", []string{"a\n"}},
		{"{% if x %}\n{% endif %}\n", []string{"\n", "\n"}},
		{"{{ x }}\n", []string{"\n"}},
		{"a{# c #}\n", []string{"a\n"}},
	}
	for _, tt := range tests {
		tmpl, err := Parse(tt.src, Options{KeepTrailingNewline: true})
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		if got := texts(tmpl.Body); !slices.Equal(got, tt.want) {
			t.Errorf("Parse(%q) texts = %q, want %q", tt.src, got, tt.want)
		}
	}
}
