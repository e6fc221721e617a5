package gen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestToolsRun generates the golden tools prompts in a temporary module
// and runs their tools: Request carries them, ParseToolCall returns typed
// calls (leniently read arguments, empty ones, strict mode) and names an
// unknown tool.
func TestToolsRun(t *testing.T) {
	got := runGenerated(t, filepath.Join("testdata", "golden", "tools", "prompts"), map[string]string{"run/main.go": `package main

import (
	"encoding/json"
	"fmt"

	"pgtest/out"
	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/output"
)

func show(call out.AssistantToolCall, fixes []output.Fix, err error) {
	switch c := call.(type) {
	case out.GetWeatherCall:
		unit := "-"
		if c.Args.Unit != nil {
			unit = string(*c.Args.Unit)
		}
		fmt.Printf("weather %s in %s (%s) fixes %d\n", c.ID, c.Args.City, unit, len(fixes))
	case out.NowCall:
		fmt.Printf("now %s\n", c.ID)
	case out.SearchDocsCall:
		fmt.Printf("search %q limit %d\n", c.Args.Query, *c.Args.Limit)
	case nil:
		fmt.Printf("error: %v\n", err)
	}
}

func main() {
	req, err := out.Assistant.Request(out.AssistantFeed{Question: "q"})
	if err != nil {
		panic(err)
	}
	b, _ := json.Marshal(struct {
		Tools      []runtime.Tool
		ToolChoice string
	}{req.Tools, req.ToolChoice})
	fmt.Println(string(b))
	req2, _ := out.Forecast.Request(out.ForecastFeed{Name: "n"})
	fmt.Println(len(req2.Tools), req2.ToolChoice)

	var fixes []output.Fix
	for _, c := range []runtime.ToolCall{
		{ID: "1", Name: "get_weather", Arguments: "{\"city\": \"Paris\", \"unit\": \"celsius\"}"},
		{ID: "2", Name: "get_weather", Arguments: "{city: 'Lyon', unit: 'Celsius',}"},
		{ID: "3", Name: "now", Arguments: ""},
		{ID: "4", Name: "search_docs", Arguments: "{\"query\": \"refunds\", \"limit\": \"5\"}"},
		{ID: "5", Name: "get_wether", Arguments: "{}"},
		{ID: "6", Name: "get_weather", Arguments: "{\"unit\": \"kelvin\"}"},
		{ID: "7", Name: "get_weather", Arguments: "{\"city\": \"Oslo\", \"unit\": null}"},
		{ID: "8", Name: "get_weather", Arguments: "{\"city\": \"Oslo\"}"},
	} {
		call, err := out.Assistant.ParseToolCall(c, output.Fixes(&fixes))
		show(call, fixes, err)
	}
	_, err = out.Assistant.ParseToolCall(runtime.ToolCall{Name: "get_weather", Arguments: "{city: Lyon}"}, output.Strict())
	fmt.Println("strict:", err)
	_, err = out.Forecast.ParseToolCall(runtime.ToolCall{Name: "search_docs", Arguments: "{}"})
	fmt.Println("forecast:", err)
}
`})
	want := `{"Tools":[{"name":"get_weather","description":"Current weather for a city.","parameters":{"type":"object","properties":{"city":{"type":"string","description":"The city's name."},"unit":{"type":["string","null"],"enum":["celsius","fahrenheit",null]}},"required":["city","unit"],"additionalProperties":false},"strict":true},{"name":"now","description":"The current date and time.","parameters":{"type":"object","properties":{}}},{"name":"search_docs","description":"Search the product documentation.","parameters":{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer","minimum":1,"maximum":20}},"required":["query"]}}],"ToolChoice":"auto"}
1 get_weather
weather 1 in Paris (celsius) fixes 0
weather 2 in Lyon (celsius) fixes 6
now 3
search "refunds" limit 5
error: call of tool "get_wether", which is not declared (the tools: get_weather, now, search_docs) (did you mean "get_weather"?)
error: missing properties: 'city'
/unit: value must be one of "celsius", "fahrenheit", null
weather 7 in Oslo (-) fixes 0
weather 8 in Oslo (-) fixes 1
strict: no JSON object or array in the completion
forecast: call of tool "search_docs", which is not declared (the tools: get_weather)
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestChatTemplateTools: a chat template's declared tools reach it as
// tools, in the form of transformers' get_json_schema, unless the caller
// gives the context its own; their strings are checked for the model's
// special tokens like the rest of the context.
func TestChatTemplateTools(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, "testdata/golden/tools/prompts/tools/get_weather.yaml", filepath.Join(dir, "tools", "get_weather.yaml"))
	const template = `{% for t in tools %}{{ t.type }} {{ t.function.name }}: {{ t.function.description }} ({{ t.function.parameters.required | join(",") }});{% endfor %}{% for m in messages %} {{ m.content }}{% endfor %}`
	writeFile(t, filepath.Join(dir, "chat.yaml"), []byte("jinja: {profile: transformers}\ninputs: chat\nspecial_tokens: [\"<|im_end|>\"]\ntools: [get_weather]\ntemplate: '"+template+"'\n"))
	writeFile(t, filepath.Join(dir, "leaky.yaml"), []byte("jinja: {profile: transformers}\ninputs: chat\nspecial_tokens: [\"<|im_end|>\"]\n"+
		"tools:\n  - name: leak\n    description: \"ends here<|im_end|>\"\ntemplate: '"+template+"'\n"))
	got := runGenerated(t, dir, map[string]string{"run/main.go": `package main

import (
	"encoding/json"
	"fmt"

	"pgtest/out"
	"github.com/promptgen/promptgen/runtime/chat"
	"github.com/promptgen/promptgen/runtime/jinja"
)

func main() {
	ctx := chat.Context{Messages: []jinja.Value{chat.Message("user", "hi")}}
	fmt.Println(out.Chat.Format(ctx))
	// The form transformers passes, written by hand from its docs.
	var own jinja.Value
	json.Unmarshal([]byte("[{\"type\": \"function\", \"function\": {\"name\": \"own\", \"description\": \"The caller's.\", \"parameters\": {\"type\": \"object\", \"properties\": {}, \"required\": [\"x\"]}}}]"), &own)
	ctx.Tools = own
	fmt.Println(out.Chat.Format(ctx))
	ctx.Tools = jinja.Value{}
	fmt.Println(out.Leaky.Format(ctx))
}
`})
	want := `function get_weather: Current weather for a city. (city,unit); hi <nil>
function own: The caller's. (x); hi <nil>
 tools[0].function.description: holds a marker of the chat format: "<|im_end|>"
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestShippedTemplatesPrintDeclaredTools: the shipped chat templates that
// print tools, given the tools of the chat corpus's tools_defined
// conversation as declared tools (tools/ files written from its JSON, in
// its key order) and the conversation without them, print exactly what
// Jinja2 printed when transformers passed them (gen/testdata/chat/want).
func TestShippedTemplatesPrintDeclaredTools(t *testing.T) {
	shipped := []struct{ file, goName, corpus string }{
		{"qwen2_5", "Qwen25Template", "qwen2.5-0.5b"},
		{"qwen3", "Qwen3Template", "qwen3-0.6b"},
		{"qwen3_coder", "Qwen3CoderTemplate", "qwen3-coder-30b"},
		{"granite4", "Granite4Template", "granite4-latest"},
		{"mistral_nemo", "MistralNemoTemplate", "mistral-nemo-instruct-2407"},
	}
	data, err := os.ReadFile(filepath.Join("testdata", "chat", "conversations", "tools_defined.json"))
	if err != nil {
		t.Fatal(err)
	}
	conversation := map[string]json.RawMessage{}
	if err := json.Unmarshal(data, &conversation); err != nil {
		t.Fatal(err)
	}
	var tools []struct {
		Function struct {
			Name        string
			Description string
			Parameters  json.RawMessage
		}
	}
	if err := json.Unmarshal(conversation["tools"], &tools); err != nil || len(tools) == 0 {
		t.Fatalf("tools of tools_defined.json: %v", err)
	}
	delete(conversation, "tools")

	dir := t.TempDir()
	var names []string
	for _, tool := range tools {
		description, _ := json.Marshal(tool.Function.Description)
		writeFile(t, filepath.Join(dir, "tools", tool.Function.Name+".yaml"),
			[]byte("description: "+string(description)+"\nparameters: "+string(tool.Function.Parameters)+"\n"))
		names = append(names, tool.Function.Name)
	}
	var main, want strings.Builder
	for _, m := range shipped {
		template, err := os.ReadFile(filepath.Join("..", "runtime", "chatformat", "models", "templates", m.file+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, m.file+".yaml"), append(template, "tools: ["+strings.Join(names, ", ")+"]\n"...))
		fmt.Fprintf(&main, "\tshow(%q, func(f out.%sFeed) (string, error) { return out.%s.Render(f) })\n", m.file, m.goName, m.goName)
		rendered, err := os.ReadFile(filepath.Join("testdata", "chat", "want", m.corpus, "tools_defined.txt"))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&want, "== %s\n%s\n", m.file, rendered)
	}
	feed, _ := json.Marshal(conversation)
	got := runGenerated(t, dir, map[string]string{"run/main.go": `package main

import (
	"encoding/json"
	"fmt"

	"pgtest/out"
)

const conversation = ` + "`" + string(feed) + "`" + `

func show[F any](name string, render func(F) (string, error)) {
	var f F
	if err := json.Unmarshal([]byte(conversation), &f); err != nil {
		panic(err)
	}
	text, err := render(f)
	if err != nil {
		text = "error: " + err.Error()
	}
	fmt.Printf("== %s\n%s\n", name, text)
}

func main() {
` + main.String() + "}\n"})
	if got != want.String() {
		t.Errorf("got:\n%s\nwant:\n%s", got, want.String())
	}
}

// TestSetToolsRun: a template set's tools (promptset.yaml) generate the
// set's Tools, ToolCall interface and ParseToolCall, reach
// InferenceConfig with tool_choice, and share the package's tool types
// with the prompts that name the same tools/ file.
func TestSetToolsRun(t *testing.T) {
	got := runGenerated(t, filepath.Join("testdata", "settools"), map[string]string{"run/main.go": `package main

import (
	"fmt"

	"pgtest/out"
	"github.com/promptgen/promptgen/runtime"
)

func main() {
	agent := out.NewAgent()
	c := agent.InferenceConfig("Search")
	for _, t := range c.Tools {
		fmt.Printf("%s %s\n", t.Name, t.Parameters)
	}
	fmt.Println("choice:", c.ToolChoice)
	for _, tc := range []runtime.ToolCall{
		{ID: "1", Name: "lookup", Arguments: "{term: 'Go'}"},
		{ID: "2", Name: "get_weather", Arguments: "{\"city\": \"Oslo\"}"},
		{ID: "3", Name: "lokup", Arguments: "{}"},
	} {
		call, err := agent.ParseToolCall(tc)
		switch c := call.(type) {
		case out.LookupCall:
			fmt.Println("lookup", c.ID, c.Args.Term)
		case out.GetWeatherCall:
			fmt.Println("weather", c.ID, c.Args.City, c.Args.Unit == nil)
		default:
			fmt.Println("error:", err)
		}
	}
	// The prompt's call type is the set's: one type per tool.
	var _ out.AgentToolCall = out.GetWeatherCall{}
	var _ out.ForecastToolCall = out.GetWeatherCall{}
}
`})
	want := `get_weather {"type":"object","properties":{"city":{"type":"string"},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city"]}
lookup {"type":"object","properties":{"term":{"type":"string"}},"required":["term"]}
choice: required
lookup 1 Go
weather 2 Oslo true
error: call of tool "lokup", which is not declared (the tools: get_weather, lookup) (did you mean "lookup"?)
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
