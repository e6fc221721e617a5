// Package adapttest is the test harness of the provider adapters: a
// loopback server that records what a real SDK client sends, golden files
// of those requests, and the prompts both adapters are tested with.
package adapttest

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/params"
)

var update = flag.Bool("update", false, "rewrite the golden request files in testdata")

// maxBody bounds the request bodies that a Server reads.
const maxBody = 1 << 20

// Server is an httptest server on the loopback interface that answers
// POST requests to one path with a fixed response, recording their bodies.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	bodies   [][]byte
	response []byte
}

// Serve starts a Server for path, closed when t ends.
func Serve(t *testing.T, path string) *Server {
	t.Helper()
	s := &Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != path {
			t.Errorf("server: got %s %s, want POST %s", r.Method, r.URL.Path, path)
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
		if err != nil {
			t.Errorf("server: read body: %v", err)
		}
		s.mu.Lock()
		s.bodies = append(s.bodies, body)
		response := s.response
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write(response)
	}))
	t.Cleanup(s.Close)
	return s
}

// Respond sets the body of the responses that follow.
func (s *Server) Respond(body string) {
	s.mu.Lock()
	s.response = []byte(body)
	s.mu.Unlock()
}

// Last returns the body of the last request, failing t if there was none
// since the previous call.
func (s *Server) Last(t *testing.T) []byte {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.bodies) != 1 {
		t.Fatalf("server got %d requests, want 1", len(s.bodies))
	}
	body := s.bodies[0]
	s.bodies = nil
	return body
}

// Normalize re-indents a JSON document with sorted object keys, keeping
// numbers as they were written.
func Normalize(body []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// Golden compares the normalised JSON body with testdata/name.json, or
// rewrites that file under -update.
func Golden(t *testing.T, name string, body []byte) {
	t.Helper()
	got, err := Normalize(body)
	if err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, body)
	}
	file := filepath.Join("testdata", name+".json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -run '%s' -update to create it)", err, t.Name())
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("request body differs from %s (-want +got):\n%s\nrun go test -run '%s' -update to accept it", file, diff, t.Name())
	}
}

// The prompts that both adapters are tested with.

// Simple is a system and a user message.
func Simple() runtime.Prompt {
	return runtime.Prompt{
		{Role: runtime.RoleSystem, Content: "You answer in one short sentence."},
		{Role: runtime.RoleUser, Name: "ada", Content: "Name the largest planet."},
	}
}

// Structured asks for a JSON output.
func Structured() runtime.Prompt {
	return runtime.Prompt{
		{Role: runtime.RoleSystem, Content: "Extract the action items of the meeting notes as JSON."},
		{Role: runtime.RoleUser, Content: "Notes: Bob sends the report by Friday. Alice books the room."},
	}
}

// StructuredSchema is the output schema of Structured. It keeps to OpenAI's
// strict subset; LooseSchema does not.
const StructuredSchema = `{
  "type": "object",
  "description": "The action items of a meeting.",
  "properties": {
    "items": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "owner": {"type": "string"},
          "task": {"type": "string"},
          "due": {"type": ["string", "null"], "format": "date"}
        },
        "required": ["owner", "task", "due"],
        "additionalProperties": false
      },
      "maxItems": 20
    }
  },
  "required": ["items"],
  "additionalProperties": false
}`

// LooseSchema is an output schema outside OpenAI's strict subset: an
// optional property, an open object, minLength.
const LooseSchema = `{
  "type": "object",
  "properties": {
    "summary": {"type": "string", "minLength": 1},
    "score": {"type": "number", "minimum": 0, "maximum": 1.5e1}
  },
  "required": ["summary"]
}`

// ToolUse is a multi-turn conversation with tools: a user question, an
// assistant tool_request with two calls, their two results (one
// structured, one text), the assistant's answer and a follow-up question.
func ToolUse() runtime.Prompt {
	return runtime.Prompt{
		{Role: runtime.RoleSystem, Content: "You answer questions about the weather. Use the tools."},
		{Role: runtime.RoleUser, Content: "Is it warmer in Paris or in Oslo right now?"},
		{Role: runtime.RoleToolRequest, Content: "Let me look both up.", ToolCalls: []runtime.ToolCall{
			{ID: "call_paris", Name: "get_weather", Arguments: `{"city": "Paris"}`},
			{ID: "call_oslo", Name: "get_weather", Arguments: `{"city":"Oslo","unit":"celsius"}`},
		}},
		{Role: runtime.RoleToolResult, ToolCallID: "call_paris", Name: "get_weather", Data: json.RawMessage(`{"temp_c": 18, "sky": "cloudy"}`)},
		{Role: runtime.RoleToolResult, ToolCallID: "call_oslo", Name: "get_weather", Content: "7 °C, light rain"},
		{Role: runtime.RoleAssistant, Content: "Paris is warmer: 18 °C against 7 °C in Oslo."},
		{Role: runtime.RoleUser, Content: "And which one is drier?"},
	}
}

// PNG is a one-pixel PNG image in base64.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

// Images is a conversation whose user turns carry images between text
// parts: one by URL with detail low (which Anthropic has no field for),
// one as base64 data.
func Images() runtime.Prompt {
	return runtime.Prompt{
		{Role: runtime.RoleSystem, Content: "You describe photos in one sentence."},
		{Role: runtime.RoleUser, Parts: []runtime.Part{
			runtime.TextPart("What is on this photo?"),
			{Image: &runtime.Image{URL: "https://example.com/photos/cat.jpg", Detail: "low"}},
		}},
		{Role: runtime.RoleAssistant, Content: "A cat asleep on a sofa."},
		{Role: runtime.RoleUser, Parts: []runtime.Part{
			runtime.ImagePart("data:image/png;base64," + PNG),
			runtime.TextPart("And this one?"),
		}},
	}
}

// ToolImages is a conversation whose tool results carry images: one text
// and base64 data, one an image by URL alone.
func ToolImages() runtime.Prompt {
	return runtime.Prompt{
		{Role: runtime.RoleUser, Content: "Did sales grow from week 46 to week 47?"},
		{Role: runtime.RoleToolRequest, ToolCalls: []runtime.ToolCall{
			{ID: "call_47", Name: "render_chart", Arguments: `{"week": 47}`},
			{ID: "call_46", Name: "render_chart", Arguments: `{"week": 46}`},
		}},
		{Role: runtime.RoleToolResult, ToolCallID: "call_47", Name: "render_chart", Parts: []runtime.Part{
			runtime.TextPart("Chart of week 47:"),
			runtime.ImagePart("data:image/png;base64," + PNG),
		}},
		{Role: runtime.RoleToolResult, ToolCallID: "call_46", Name: "render_chart", Parts: []runtime.Part{
			runtime.ImagePart("https://example.com/charts/46.png"),
		}},
	}
}

// Tools are the tools of the ToolUse conversation, as a generated Tools
// method returns them: one strict, one without description or arguments.
func Tools() []runtime.Tool {
	return []runtime.Tool{
		{Name: "get_weather", Description: "Current weather for a city.", Strict: true,
			Parameters: json.RawMessage(`{"additionalProperties":false,"properties":{"city":{"type":"string"},"unit":{"enum":["celsius","fahrenheit"],"type":["string","null"]}},"required":["city","unit"],"type":"object"}`)},
		{Name: "now", Parameters: json.RawMessage(`{"properties":{},"type":"object"}`)},
	}
}

// Request returns a Request for model with opts applied, as a generated
// prompt's Request method builds it.
func Request(model string, opts ...runtime.RequestOption) runtime.Request {
	r := runtime.Request{Model: model}
	for _, o := range opts {
		o(&r)
	}
	return r
}

// SampleValue returns a valid value of p, for tests that go through the
// whole parameter table.
func SampleValue(p params.Param) any {
	switch p.Kind {
	case params.Number:
		return (p.Min + p.Max) / 2
	case params.Integer:
		return int64(max(p.Min, 1))
	case params.Bool:
		return true
	case params.Enum:
		return p.Values[0]
	case params.Strings:
		return []any{"END"}
	case params.TokenBias:
		return map[string]any{"50256": int64(p.Min)}
	}
	panic("adapttest: no sample value of kind " + p.Kind.String())
}
