package gen

import (
	"path/filepath"
	"regexp"
	"testing"
)

// TestParseOutputRuns generates prompts with outputs and runs their
// ParseOutput in a temporary module: null for a schema whose top allows it
// is nil, not the zero value, in both parsing modes; properties whose names
// are no Go identifier or cannot stand in a struct tag (golden output_keys)
// are decoded and encoded by their exact names.
func TestParseOutputRuns(t *testing.T) {
	prompts := map[string]string{
		"str.yaml":  "template: x\noutputSchema: {type: [string, \"null\"]}\n",
		"obj.yaml":  "template: x\noutputSchema: {type: [object, \"null\"], properties: {a: {type: string}}}\n",
		"enum.yaml": "template: x\noutputSchema: {enum: [a, b, null]}\n",
	}
	dir := t.TempDir()
	for name, text := range prompts {
		writeFile(t, filepath.Join(dir, name), []byte(text))
	}
	copyFile(t, "testdata/golden/output_keys/prompts/keys.yaml", filepath.Join(dir, "keys.yaml"))
	got := runGenerated(t, dir, map[string]string{"run/main.go": `package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"pgtest/out"
	"github.com/promptgen/promptgen/runtime/output"
)

func show[T any](name string, v *T, err error) {
	if v == nil {
		fmt.Printf("%s: nil %v\n", name, err)
		return
	}
	fmt.Printf("%s: %+v %v\n", name, *v, err)
}

func main() {
	for _, c := range []string{"null", "\"x\"", "None", "'a'"} {
		v, err := out.Str.ParseOutput(c)
		show("str "+c, v, err)
		v, err = out.Str.ParseOutput(c, output.Strict())
		show("str strict "+c, v, err)
	}
	for _, c := range []string{"null", "{\"a\": \"x\"}", "{a: x}", "The answer is null."} {
		v, err := out.Obj.ParseOutput(c)
		show("obj "+c, v, err)
	}
	for _, c := range []string{"null", "\"b\"", "B"} {
		v, err := out.Enum.ParseOutput(c)
		show("enum "+c, v, err)
	}
	keys, _ := os.ReadFile("run/keys.txt")
	for _, c := range strings.Split(strings.TrimSpace(string(keys)), "\n") {
		v, err := out.Keys.ParseOutput(c)
		b, _ := json.Marshal(v)
		fmt.Printf("keys: %s %v\n", b, err)
	}
}
`, "run/keys.txt": `{"5": 5, "😀": "smile", "k\"e\"y": true, "": "empty", "a,b": "ab", "x,string": 3, "back\\slash": "b", "it's": null, "price €": 9.5, "tags 🏷": ["t"], "fine: a-b_c.d/e (f) [g] {h} é 1": "f"}
{5: 6, 'k"e"y': 'False', "": "", "a": "not a,b", "tags 🏷": "one"}
{"5": 7, "k\"e\"y": true}
`})
	want := `str null: nil <nil>
str strict null: nil <nil>
str "x": x <nil>
str strict "x": x <nil>
str None: nil <nil>
str strict None: nil no JSON object or array in the completion
str 'a': a <nil>
str strict 'a': nil no JSON object or array in the completion
obj null: nil <nil>
obj {"a": "x"}: {A:0xPTR} <nil>
obj {a: x}: {A:0xPTR} <nil>
obj The answer is null.: nil got "The answer is null.", want an object
enum null: nil <nil>
enum "b": b <nil>
enum B: b <nil>
keys: {"5":5,"fine: a-b_c.d/e (f) [g] {h} é 1":"f","😀":"smile","k\"e\"y":true,"":"empty","a,b":"ab","x,string":3,"back\\slash":"b","price €":9.5,"tags 🏷":["t"]} <nil>
keys: {"5":6,"k\"e\"y":false,"":"","tags 🏷":["one"]} <nil>
keys: {"5":7,"k\"e\"y":true,"":""} missing properties: ''
`
	if g := ptrs.ReplaceAllString(got, "0xPTR"); g != want {
		t.Errorf("got:\n%s\nwant:\n%s", g, want)
	}
}

// ptrs matches the addresses %+v prints for pointer fields.
var ptrs = regexp.MustCompile(`0x[0-9a-f]+`)
