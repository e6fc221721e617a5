package gen

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/gen/internal/names"
	"github.com/promptgen/promptgen/generated"
)

// TestReservedFieldNames reads, in a template, every name that a generated
// feed type has besides its variables, and checks that the prompt compiles
// on both backends and renders the variable. The names are found by
// reflection on generated/: the fields and methods a chat feed has from
// the runtime/chat.Context it embeds (Context, Messages, ..., Chat), and
// the methods of prompt feeds, of the struct types in them, of fragment
// parameters (Validate) and of set feeds (Merge). Each is read as written
// (Context, AddGenerationPrompt), and the chat names also as templates
// write them (context, CONTEXT, context_, chat).
func TestReservedFieldNames(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles generated code")
	}
	chatFeed := reflect.TypeFor[generated.ChatmlFeed]() // no variables of its own
	var chatNames []string
	for _, f := range reflect.VisibleFields(chatFeed) {
		chatNames = append(chatNames, f.Name)
	}
	chatNames = slices.Concat(chatNames, methodNames(chatFeed), []string{"context", "CONTEXT", "context_", "chat"})
	promptNames := slices.Concat(methodNames(reflect.TypeFor[generated.SummarizeCustomerInteractionFeed]()),
		methodNames(reflect.TypeFor[generated.SummarizeCustomerInteractionCustomerHistory]()),
		methodNames(reflect.TypeFor[generated.ToolInstructionsFragmentParams]()))
	setNames := methodNames(reflect.TypeFor[generated.AgentFeed]())
	for _, want := range []struct {
		names []string
		name  string
	}{{chatNames, "Context"}, {chatNames, "Messages"}, {chatNames, "Chat"}, {promptNames, "Validate"}, {setNames, "Merge"}} {
		if !slices.Contains(want.names, want.name) {
			t.Fatalf("reflection found %v, not %s", want.names, want.name)
		}
	}

	mod := newTempModule(t)
	var keys, wants []string
	var jobs []renderJob
	type suffixedField struct {
		re    *regexp.Regexp
		count int
	}
	suffixed := map[string]suffixedField{} // by generated file
	// add writes the prompt file (or promptset.yaml) of key, a feed and
	// the output it renders; the variable n is a field with "_" in the
	// structs struct types of the generated file.
	add := func(key, file, n, goFile string, structs int, prompt string, feed map[string]any, want string) {
		goName, _ := names.Exported(n)
		suffixed[goFile] = suffixedField{regexp.MustCompile(`(?m)^\t` + goName + `_ `), structs}
		writeFile(t, filepath.Join(mod, "prompts", file), []byte(prompt))
		b, err := json.Marshal(feed)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(mod, "feeds", key+".json")
		writeFile(t, path, b)
		keys, wants = append(keys, key), append(wants, want)
		jobs = append(jobs, renderJob{key, path})
	}
	for i, n := range slices.Compact(slices.Sorted(slices.Values(chatNames))) {
		add(fmt.Sprintf("chat%d", i), fmt.Sprintf("chat%d.yaml", i), n, fmt.Sprintf("chat%d_prompt.go", i), 1,
			"jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{{ "+n+" }}|{{ messages | length }}\"\n",
			map[string]any{n: "v", "messages": []any{}}, "v|0")
	}
	for i, n := range slices.Compact(slices.Sorted(slices.Values(promptNames))) {
		add(fmt.Sprintf("prompt%d", i), fmt.Sprintf("prompt%d.yaml", i), n, fmt.Sprintf("prompt%d_prompt.go", i), 2,
			"template: \"{{ "+n+" }} {{ o."+n+" }}\"\n",
			map[string]any{n: "v", "o": map[string]any{n: "w"}}, "v w")
	}
	for i, n := range slices.Compact(slices.Sorted(slices.Values(setNames))) {
		add(fmt.Sprintf("set%d", i), fmt.Sprintf("set%d/promptset.yaml", i), n, fmt.Sprintf("set%d_set.go", i), 2,
			"templates:\n  main:\n    default: \"{{ "+n+" }} {{ o."+n+" }}\"\n",
			map[string]any{n: "v", "o": map[string]any{n: "w"}}, "v w")
	}
	outputs := renderAll(t, mod, keys, jobs)
	for i, j := range jobs {
		for bi, b := range backends {
			if got := outputs[bi][i]; got != wants[i] {
				t.Errorf("%s: %s: got %q, want %q", b.renderer, j.key, got, wants[i])
			}
		}
	}
	// Compiling is not enough: a field named like a promoted method hides
	// it (chat hid Chat()).
	for file, f := range suffixed {
		for _, b := range backends {
			if got := len(f.re.FindAll(readFile(t, filepath.Join(mod, b.pkg, file)), -1)); got != f.count {
				t.Errorf("%s/%s: %d fields matching %s, want %d", b.pkg, file, got, f.re, f.count)
			}
		}
	}
	t.Logf("%d prompts: %s", len(keys), strings.Join(slices.Concat(chatNames, promptNames, setNames), " "))
}

// methodNames returns the names of the methods of *t, which include t's.
func methodNames(t reflect.Type) []string {
	var methods []string
	ptr := reflect.PointerTo(t)
	for i := range ptr.NumMethod() {
		methods = append(methods, ptr.Method(i).Name)
	}
	return methods
}
