package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// The agreement test: every prompt of testdata/prompt/valid is accepted and
// every prompt of testdata/prompt/invalid rejected by both the Go side
// (Prompt.UnmarshalJSON, then Validate) and the published JSON Schema, and
// both sides blame the same messages.

const schemaPath = "../schema/artstandardprompt.schema.json"

// invalidPrompts holds, for each file of testdata/prompt/invalid, the
// exact errors of the Go side.
var invalidPrompts = map[string]string{
	"not_array":                 `malformed: want an array of messages`,
	"empty":                     `prompt has no messages`,
	"null":                      `prompt has no messages`,
	"message_not_object":        `message 1: malformed: want an object`,
	"unknown_role":              `message 0: role: unknown role: "bot"`,
	"missing_role":              `message 0: role: missing`,
	"role_not_string":           `message 0: role: malformed: want a string`,
	"empty_content":             `message 0: content: empty content`,
	"null_content_system":       `message 0: content: empty content`,
	"missing_content_user":      `message 0: content: empty content`,
	"content_number":            `message 0: content: malformed: want a string, a list of parts, an object or null`,
	"content_number_part":       `message 0: content[0]: malformed: want an object`,
	"part_unknown_type":         `message 0: content[0].type: malformed: want "text" or "image"`,
	"part_without_type":         `message 0: content[0].type: malformed: want "text" or "image"`,
	"part_unknown_field":        `message 0: content[0].cache_control: malformed: unknown field`,
	"text_part_empty":           `message 0: content[0].text: empty content`,
	"text_part_with_url":        `message 0: content[0].url: malformed: unknown field`,
	"parts_empty":               `message 0: content: empty content`,
	"parts_on_system":           `message 0: content: not allowed: content parts on a system message`,
	"parts_on_assistant":        `message 1: content: not allowed: content parts on an assistant message`,
	"image_http_url":            `message 0: content[0].url: invalid image: want an https URL, not scheme "http"`,
	"image_data_url_in_url":     `message 0: content[0].url: invalid image: want an https URL, not scheme "data" (give the image's bytes as media_type and data; runtime.ImagePart splits a data URL)`,
	"image_relative_url":        `message 0: content[0].url: invalid image: want an https URL, not "/img/a.png"`,
	"image_url_with_media_type": `message 0: content[0].media_type: not allowed: media_type with an image URL`,
	"image_url_and_data": `message 0: content[0].media_type: not allowed: media_type with an image URL
message 0: content[0].data: not allowed: data with an image URL`,
	"image_no_source":                 `message 0: content[0]: missing: an image needs url, or media_type and data`,
	"image_bad_media_type":            `message 0: content[0].media_type: invalid image: "image/bmp" is not image/png, image/jpeg, image/gif or image/webp`,
	"image_data_without_media_type":   `message 0: content[0].media_type: missing`,
	"image_bad_base64":                `message 0: content[0].data: invalid image: not padded standard base64`,
	"image_base64_unpadded":           `message 0: content[0].data: invalid image: not padded standard base64`,
	"image_base64_url_alphabet":       `message 0: content[0].data: invalid image: not padded standard base64`,
	"image_empty_data":                `message 0: content[0].data: missing`,
	"image_url_not_string":            `message 0: content[0].url: malformed: want a string`,
	"image_bad_detail":                `message 0: content[0].detail: invalid image: "medium" is not auto, low or high`,
	"structured_content_user":         `message 0: content: not allowed: structured content on a user message`,
	"structured_content_assistant":    `message 1: content: not allowed: structured content on an assistant message`,
	"assistant_without_text_or_calls": `message 1: content: empty content: an assistant message needs text or tool calls`,
	"system_after_first_turn":         `message 1: role: system message after the first turn`,
	"second_system":                   `message 1: role: system message after the first turn`,
	"unknown_field":                   `message 0: contents: malformed: unknown field`,
	"name_null":                       `message 0: name: malformed: want a string`,
	"tool_request_without_calls":      `message 1: tool_calls: missing`,
	"tool_calls_not_array":            `message 1: tool_calls: malformed: want an array`,
	"tool_call_without_id":            `message 1: tool_calls[0].id: missing`,
	"tool_call_empty_name":            `message 1: tool_calls[0].function.name: missing`,
	"tool_call_without_function": `message 1: tool_calls[0].function.name: missing
message 1: tool_calls[0].function.arguments: arguments are not a JSON object: ""`,
	"tool_call_type":            `message 1: tool_calls[0].type: malformed: want "function"`,
	"tool_call_unknown_field":   `message 1: tool_calls[0].function.strict: malformed: unknown field`,
	"arguments_not_json":        `message 1: tool_calls[0].function.arguments: arguments are not a JSON object: "{city: Paris}"`,
	"arguments_trailing_data":   `message 1: tool_calls[0].function.arguments: arguments are not a JSON object: "{} {}"`,
	"arguments_not_object":      `message 1: tool_calls[0].function.arguments: arguments are not a JSON object: "[\"Paris\"]"`,
	"arguments_empty":           `message 1: tool_calls[0].function.arguments: arguments are not a JSON object: ""`,
	"arguments_as_object":       `message 1: tool_calls[0].function.arguments: malformed: want a string holding a JSON object`,
	"tool_calls_on_user":        `message 0: tool_calls: not allowed: tool calls on a user message`,
	"tool_call_id_on_assistant": `message 1: tool_call_id: not allowed: tool_call_id on an assistant message`,
	"tool_result_without_id":    `message 2: tool_call_id: missing`,
	"tool_result_empty_content": `message 2: content: empty content`,
	"every_problem": `message 0: content: empty content
message 1: role: system message after the first turn
message 2: role: unknown role: "robot"
message 3: tool_calls[0].id: missing
message 3: tool_calls[0].function.name: missing
message 3: tool_calls[0].function.arguments: arguments are not a JSON object: "nope"
message 4: content: empty content
message 4: tool_call_id: missing`,

	"duplicate_call_id_in_message":      `message 1: tool_calls[1].id: duplicate tool call id: "c1" (first in message 1)`,
	"duplicate_call_id_across_messages": `message 3: tool_calls[0].id: duplicate tool call id: "c1" (first in message 1)`,
	"tool_result_unmatched":             `message 2: tool_call_id: tool result matches no pending tool call: "c9" is the id of no earlier tool call`,
	"tool_result_before_request":        `message 1: tool_call_id: tool result matches no pending tool call: "c1" is the id of no earlier tool call`,
	"tool_result_answered_twice":        `message 3: tool_call_id: tool result matches no pending tool call: "c1" was answered by message 2`,
}

// goOnly lists the invalid prompts that break only the rules relating
// messages to each other, which a JSON Schema cannot express: the schema
// must accept exactly these.
var goOnly = map[string]string{
	"duplicate_call_id_in_message":      "tool call ids are unique across the prompt (uniqueItems compares whole calls)",
	"duplicate_call_id_across_messages": "tool call ids are unique across the prompt",
	"tool_result_unmatched":             "a tool_result answers a call of an earlier message",
	"tool_result_before_request":        "a tool_result answers a call of an earlier message",
	"tool_result_answered_twice":        "no two tool_results answer the same call",
}

// compileArtSchema compiles the published schema with content assertions
// on, so that contentMediaType and contentSchema check tool call arguments.
func compileArtSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertContent = true
	f, err := os.Open(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := c.AddResource("artstandardprompt.schema.json", f); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("artstandardprompt.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// goCheck decodes and validates a prompt as generated code and adapters do.
func goCheck(data []byte) (Prompt, error) {
	var p Prompt
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, err
	}
	return p, p.Validate()
}

// schemaCheck validates doc with the schema and returns the indexes of the
// messages it blames (-1 for the prompt as a whole), or nil if it is valid.
func schemaCheck(t *testing.T, s *jsonschema.Schema, data []byte) []int {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	err := s.Validate(doc)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		t.Fatal(err)
	}
	set := map[int]bool{}
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			set[messageIndex(t, e.InstanceLocation)] = true
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return sortedSet(set)
}

// messageIndex returns the message a JSON pointer into a prompt points
// into, or -1 for the prompt itself.
func messageIndex(t *testing.T, pointer string) int {
	if pointer == "" {
		return -1
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(pointer, "/"), "/")
	i, err := strconv.Atoi(first)
	if err != nil {
		t.Fatalf("pointer %q does not start with a message index", pointer)
	}
	return i
}

// goIndexes returns the messages that err blames.
func goIndexes(err error) []int {
	set := map[int]bool{}
	var es MessageErrors
	var e *MessageError
	switch {
	case errors.As(err, &es):
		for _, e := range es {
			set[e.Index] = true
		}
	case errors.As(err, &e):
		set[e.Index] = true
	}
	return sortedSet(set)
}

func sortedSet(set map[int]bool) []int {
	out := make([]int, 0, len(set))
	for i := range set {
		out = append(out, i)
	}
	sort.Ints(out)
	return out
}

func readCorpus(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata/prompt", dir, "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no prompts in testdata/prompt/%s: %v", dir, err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(p), ".json")] = data
	}
	return out
}

func TestPromptSchemaAgreesValid(t *testing.T) {
	s := compileArtSchema(t)
	for name, data := range readCorpus(t, "valid") {
		t.Run(name, func(t *testing.T) {
			p, err := goCheck(data)
			if err != nil {
				t.Errorf("Go rejects a valid prompt:\n%v", err)
			}
			if idx := schemaCheck(t, s, data); idx != nil {
				t.Errorf("the schema rejects a valid prompt at messages %v", idx)
			}
			// What Go writes is valid on both sides too, and reads back the same.
			out, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			back, err := goCheck(out)
			if err != nil {
				t.Errorf("Go rejects its own output %s:\n%v", out, err)
			}
			again, err := json.Marshal(back)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, again) {
				t.Errorf("round trip changes the JSON:\n%s\n%s", out, again)
			}
			if idx := schemaCheck(t, s, out); idx != nil {
				t.Errorf("the schema rejects Go's output %s at messages %v", out, idx)
			}
		})
	}
}

func TestPromptSchemaAgreesInvalid(t *testing.T) {
	s := compileArtSchema(t)
	corpus := readCorpus(t, "invalid")
	for name := range invalidPrompts {
		if corpus[name] == nil {
			t.Errorf("invalidPrompts lists %s, which is not in testdata/prompt/invalid", name)
		}
	}
	for name := range goOnly {
		if _, ok := invalidPrompts[name]; !ok {
			t.Errorf("goOnly lists %s, which invalidPrompts does not", name)
		}
	}
	for name, data := range corpus {
		t.Run(name, func(t *testing.T) {
			want, ok := invalidPrompts[name]
			if !ok {
				t.Fatalf("add the Go errors of testdata/prompt/invalid/%s.json to invalidPrompts", name)
			}
			_, err := goCheck(data)
			if err == nil {
				t.Fatal("Go accepts an invalid prompt")
			}
			if err.Error() != want {
				t.Errorf("Go errors:\n%s\nwant:\n%s", err, want)
			}
			got := schemaCheck(t, s, data)
			if reason, ok := goOnly[name]; ok {
				if got != nil {
					t.Errorf("the schema now rejects a Go-only case (%s) at messages %v: remove it from goOnly", reason, got)
				}
				return
			}
			if got == nil {
				t.Fatal("the schema accepts an invalid prompt")
			}
			if goIdx := goIndexes(err); !cmp.Equal(got, goIdx) {
				t.Errorf("the schema blames messages %v, Go blames %v", got, goIdx)
			}
		})
	}
}

// TestPromptSchemaAgreesImageBounds: the schema's maxLength of image URLs
// and data are MaxImageURL and MaxImageData, counted in characters on both
// sides (too big for the file corpus). Data at the bound would take the
// schema's pattern seconds, so its bound is read from the schema.
func TestPromptSchemaAgreesImageBounds(t *testing.T) {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs struct {
			ImagePart struct {
				Properties map[string]struct {
					MaxLength int `json:"maxLength"`
				} `json:"properties"`
			} `json:"imagePart"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	props := doc.Defs.ImagePart.Properties
	if props["url"].MaxLength != MaxImageURL || props["data"].MaxLength != MaxImageData {
		t.Errorf("the schema bounds url to %d and data to %d characters, Go to %d and %d",
			props["url"].MaxLength, props["data"].MaxLength, MaxImageURL, MaxImageData)
	}
	s := compileArtSchema(t)
	host := "https://example.com/"
	for _, tc := range []struct {
		name string
		part Part
		ok   bool
	}{
		{"URL at the bound", ImagePart(host + strings.Repeat("é", MaxImageURL-len(host))), true},
		{"URL over the bound", ImagePart(host + strings.Repeat("é", MaxImageURL-len(host)+1)), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := json.Marshal(Prompt{{Role: RoleUser, Parts: []Part{tc.part}}})
			if err != nil {
				t.Fatal(err)
			}
			_, goErr := goCheck(data)
			schemaBlames := schemaCheck(t, s, data)
			if (goErr == nil) != tc.ok || (schemaBlames == nil) != tc.ok {
				t.Errorf("want valid=%v; Go: %v; the schema blames messages %v", tc.ok, goErr, schemaBlames)
			}
		})
	}
}

// FuzzPromptSchemaAgrees holds Go and the published schema to the same
// verdict on any JSON document: what Go accepts, the schema accepts, and
// what the schema accepts, Go rejects only by a rule relating messages to
// each other. What Go accepts also survives a round trip unchanged.
func FuzzPromptSchemaAgrees(f *testing.F) {
	for _, dir := range []string{"valid", "invalid"} {
		paths, _ := filepath.Glob(filepath.Join("testdata/prompt", dir, "*.json"))
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	s := compileArtSchema(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var doc, rest any
		if dec.Decode(&doc) != nil || dec.Decode(&rest) != io.EOF {
			return // not one JSON document
		}
		p, goErr := goCheck(data)
		schemaErr := s.Validate(doc)
		crossMessage := errors.Is(goErr, ErrDuplicateToolCallID) || errors.Is(goErr, ErrUnmatchedToolResult)
		switch {
		case goErr == nil && schemaErr != nil:
			t.Fatalf("Go accepts, the schema rejects %s: %v", data, schemaErr)
		case goErr != nil && schemaErr == nil && !crossMessage:
			t.Fatalf("the schema accepts, Go rejects %s: %v", data, goErr)
		case goErr != nil:
			return
		}
		out, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		back, err := goCheck(out)
		if err != nil {
			t.Fatalf("Go rejects its own output %s: %v", out, err)
		}
		if again, _ := json.Marshal(back); !bytes.Equal(out, again) {
			t.Fatalf("round trip changes %s into %s", out, again)
		}
	})
}
