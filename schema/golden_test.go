package schema

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

var update = flag.Bool("update", false, "rewrite the .want files of testdata/golden")

// TestGolden loads the outputSchema of each testdata/golden/*.yaml and
// compares a dump of the model and the diagnostics with the .want file.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*.yaml")
	if len(files) == 0 {
		t.Fatal("no golden cases")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".yaml")
		t.Run(name, func(t *testing.T) {
			s, diags := loadFile(t, file)
			got := dump(s, diags)
			wantFile := strings.TrimSuffix(file, ".yaml") + ".want"
			if *update {
				if err := os.WriteFile(wantFile, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("%s (-want +got):\n%s\nupdate with: go test ./schema -run 'TestGolden/^%s$' -update", wantFile, diff, name)
			}
		})
	}
}

// loadFile loads the outputSchema of a prompt file.
func loadFile(t *testing.T, file string) (*Schema, Diagnostics) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return loadText(t, file, string(data))
}

// loadText loads the outputSchema of a prompt file's text.
func loadText(t *testing.T, file, text string) (*Schema, Diagnostics) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "outputSchema" {
			return Load(m.Content[i+1], Options{File: file, Path: "outputSchema"})
		}
	}
	t.Fatal("no outputSchema")
	return nil, nil
}

// dump writes a schema's model and its diagnostics as indented text.
func dump(s *Schema, diags Diagnostics) string {
	var b strings.Builder
	if s != nil {
		fmt.Fprintf(&b, "draft %s\n", s.Draft)
		for _, d := range append([]*Def{s.Root}, s.Defs...) {
			rec := ""
			if d.Recursive {
				rec = " recursive"
			}
			fmt.Fprintf(&b, "def %q %s%s: ", d.Name, d.Pointer, rec)
			dumpType(&b, d.Type, "  ")
		}
		fmt.Fprintf(&b, "json %s\n", s.JSON)
	}
	for _, d := range diags {
		fmt.Fprintf(&b, "%s\n", d)
	}
	return b.String()
}

func dumpType(b *strings.Builder, t *Type, indent string) {
	b.WriteString(t.Kind.String())
	switch {
	case t.Kind == Ref:
		b.WriteString(" " + t.Ref.Pointer)
	case t.Kind == Union:
		fmt.Fprintf(b, " by %q", t.Discriminator)
	case t.Closed:
		b.WriteString(" closed")
	}
	if t.Nullable {
		b.WriteString(" nullable")
	}
	if len(t.Enum) > 0 {
		word := "enum"
		if t.Const {
			word = "const"
		}
		values := make([]string, len(t.Enum))
		for i, v := range t.Enum {
			values[i] = fmt.Sprint(v)
			if s, ok := v.(string); ok {
				values[i] = strconv.Quote(s)
			}
		}
		fmt.Fprintf(b, " %s[%s]", word, strings.Join(values, ", "))
	}
	if t.Format != "" {
		fmt.Fprintf(b, " format=%s", t.Format)
	}
	c := t.Checks
	for _, n := range []struct {
		name string
		v    string
	}{
		{"minimum", string(c.Minimum)}, {"maximum", string(c.Maximum)},
		{"exclusiveMinimum", string(c.ExclusiveMinimum)}, {"exclusiveMaximum", string(c.ExclusiveMaximum)},
		{"multipleOf", string(c.MultipleOf)}, {"minLength", intText(c.MinLength)}, {"maxLength", intText(c.MaxLength)},
		{"pattern", c.Pattern}, {"minItems", intText(c.MinItems)}, {"maxItems", intText(c.MaxItems)},
		{"minProperties", intText(c.MinProperties)}, {"maxProperties", intText(c.MaxProperties)},
	} {
		if n.v != "" {
			fmt.Fprintf(b, " %s=%s", n.name, n.v)
		}
	}
	if c.UniqueItems {
		b.WriteString(" uniqueItems")
	}
	fmt.Fprintf(b, " @%d:%d %s\n", t.Pos.Line, t.Pos.Col, t.Path)
	if t.Description != "" {
		fmt.Fprintf(b, "%sdescription %q\n", indent, t.Description)
	}
	for _, p := range t.Props {
		req := ""
		if p.Required {
			req = " required"
		}
		fmt.Fprintf(b, "%s.%s%s @%d:%d: ", indent, p.Name, req, p.Pos.Line, p.Pos.Col)
		dumpType(b, p.Type, indent+"  ")
	}
	if t.Elem != nil {
		fmt.Fprintf(b, "%selem: ", indent)
		dumpType(b, t.Elem, indent+"  ")
	}
	for _, v := range t.Variants {
		fmt.Fprintf(b, "%s%q: ", indent, v.Value)
		dumpType(b, v.Type, indent+"  ")
	}
}

func intText(p *int) string {
	if p == nil {
		return ""
	}
	return fmt.Sprint(*p)
}
