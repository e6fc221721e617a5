package runtime

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestValidateGoValues covers what only a Prompt built in Go can hold;
// the JSON corpus (prompt_schema_test.go) covers the rest.
func TestValidateGoValues(t *testing.T) {
	call := ToolCall{ID: "c1", Name: "f", Arguments: "{}"}
	tests := []struct {
		name string
		p    Prompt
		want string
	}{
		{"structured content that is no object", Prompt{
			{Role: RoleUser, Content: "hi"},
			{Role: RoleToolRequest, ToolCalls: []ToolCall{call}},
			{Role: RoleToolResult, ToolCallID: "c1", Data: json.RawMessage(`[1]`)},
		}, `message 2: content: malformed: structured content is not a JSON object`},
		{"text and structured content", Prompt{
			{Role: RoleUser, Content: "hi"},
			{Role: RoleToolRequest, ToolCalls: []ToolCall{call}},
			{Role: RoleToolResult, ToolCallID: "c1", Content: "x", Data: json.RawMessage(`{}`)},
		}, `message 2: content: not allowed: both text and structured content`},
		{"long arguments are shortened", Prompt{
			{Role: RoleUser, Content: "hi"},
			{Role: RoleToolRequest, ToolCalls: []ToolCall{{ID: "c1", Name: "f", Arguments: `{"city": "Paris", "country": "Fran€€€€€`}}},
		}, `message 1: tool_calls[0].function.arguments: arguments are not a JSON object: "{\"city\": \"Paris\", \"country\": \"Fran€€…"`},
		{"a part with text and an image", Prompt{
			{Role: RoleUser, Parts: []Part{{Text: "see", Image: &Image{URL: "https://example.com/a.png"}}}},
		}, `message 0: content[0]: not allowed: both text and an image`},
		{"an empty part", Prompt{{Role: RoleUser, Parts: []Part{TextPart("a"), {}}}}, `message 0: content[1].text: empty content`},
		{"text and parts", Prompt{{Role: RoleUser, Content: "hi", Parts: []Part{TextPart("a")}}}, `message 0: content: not allowed: both text and content parts`},
		{"parts on a tool_result", Prompt{
			{Role: RoleToolRequest, ToolCalls: []ToolCall{call}},
			{Role: RoleToolResult, ToolCallID: "c1", Parts: []Part{TextPart("the chart:"), ImagePart("https://example.com/a.png")}},
		}, ``},
		{"parts and data on a tool_result", Prompt{
			{Role: RoleToolRequest, ToolCalls: []ToolCall{call}},
			{Role: RoleToolResult, ToolCallID: "c1", Data: json.RawMessage(`{}`), Parts: []Part{ImagePart("https://example.com/a.png")}},
		}, `message 1: content: not allowed: both structured content and content parts`},
		{"empty parts on a tool_result", Prompt{
			{Role: RoleToolRequest, ToolCalls: []ToolCall{call}},
			{Role: RoleToolResult, ToolCallID: "c1", Parts: []Part{}},
		}, `message 1: content: empty content`},
		{"parts on an assistant", Prompt{{Role: RoleUser, Content: "hi"}, {Role: RoleAssistant, Parts: []Part{TextPart("a")}}},
			`message 1: content: not allowed: content parts on an assistant message`},
		{"a URL over MaxImageURL", Prompt{{Role: RoleUser, Parts: []Part{ImagePart("https://example.com/" + strings.Repeat("é", MaxImageURL))}}},
			`message 0: content[0].url: invalid image: URL of 8212 characters exceeds MaxImageURL (8192)`},
		{"a URL with a space", Prompt{{Role: RoleUser, Parts: []Part{ImagePart("https://example.com/a b.png")}}},
			`message 0: content[0].url: invalid image: the URL holds white space or a control character`},
		{"a URL without host", Prompt{{Role: RoleUser, Parts: []Part{ImagePart("https:///a.png")}}},
			`message 0: content[0].url: invalid image: the URL has no host`},
		{"data over MaxImageData", Prompt{{Role: RoleUser, Parts: []Part{ImageDataPart("image/png", make([]byte, MaxImageData/4*3+3))}}},
			`message 0: content[0].data: invalid image: 20971524 bytes of base64 exceed MaxImageData (20971520)`},
		{"data at MaxImageData", Prompt{{Role: RoleUser, Parts: []Part{ImageDataPart("image/png", make([]byte, MaxImageData/4*3))}}}, ``},
		{"a data URL that is not base64", Prompt{{Role: RoleUser, Parts: []Part{ImagePart("data:image/svg+xml,<svg/>")}}},
			`message 0: content[0].url: invalid image: want an https URL, not scheme "data" (give the image's bytes as media_type and data; runtime.ImagePart splits a data URL)`},
		{"a data URL of an unsupported type", Prompt{{Role: RoleUser, Parts: []Part{ImagePart("data:image/svg+xml;base64,PHN2Zy8+")}}},
			`message 0: content[0].media_type: invalid image: "image/svg+xml" is not image/png, image/jpeg, image/gif or image/webp`},
		{"an unknown detail", Prompt{{Role: RoleUser, Parts: []Part{{Image: &Image{URL: "https://example.com/a.png", Detail: "medium"}}}}},
			`message 0: content[0].detail: invalid image: "medium" is not auto, low or high`},
		{"detail low", Prompt{{Role: RoleUser, Parts: []Part{{Image: &Image{URL: "https://example.com/a.png", Detail: "low"}}}}}, ``},
		{"nil prompt", nil, `prompt has no messages`},
		{"valid", Prompt{{Role: RoleSystem, Content: "s"}, {Role: RoleUser, Content: "u"}}, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.p.Validate()
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestValidateErrorsAreTyped(t *testing.T) {
	p := Prompt{
		{Role: RoleUser, Content: "hi"},
		{Role: "robot", Content: "beep"},
		{Role: RoleSystem, Content: "late"},
	}
	err := p.Validate()
	for _, kind := range []error{ErrUnknownRole, ErrSystemNotFirst} {
		if !errors.Is(err, kind) {
			t.Errorf("errors.Is(err, %v) is false", kind)
		}
	}
	if errors.Is(err, ErrEmptyContent) {
		t.Error("errors.Is(err, ErrEmptyContent) is true")
	}
	var es MessageErrors
	if !errors.As(err, &es) || len(es) != 2 || es[0].Index != 1 || es[1].Index != 2 || es[1].Field != "role" {
		t.Errorf("MessageErrors: %#v", es)
	}
	var e *MessageError
	if !errors.As(err, &e) || e.Index != 1 || e.Err != ErrUnknownRole || e.Detail != `"robot"` {
		t.Errorf("first MessageError: %#v", e)
	}
}

func TestMessageJSON(t *testing.T) {
	p := Prompt{
		{Role: RoleSystem, Content: "<b>&</b>"},
		{Role: RoleUser, Name: "ana", Content: "hi"},
		{Role: RoleToolRequest, ToolCalls: []ToolCall{{ID: "c1", Name: "f", Arguments: `{"a":1}`}}},
		{Role: RoleToolResult, ToolCallID: "c1", Data: json.RawMessage(`{"ok": true}`)},
		{Role: RoleAssistant, Content: "done"},
	}
	got, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"role":"system","content":"\u003cb\u003e\u0026\u003c/b\u003e"},` +
		`{"role":"user","content":"hi","name":"ana"},` +
		`{"role":"tool_request","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]},` +
		`{"role":"tool_result","content":{"ok":true},"tool_call_id":"c1"},` +
		`{"role":"assistant","content":"done"}]`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var back Prompt
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if err := back.Validate(); err != nil {
		t.Error(err)
	}
	if back[0].Content != "<b>&</b>" || string(back[3].Data) != `{"ok":true}` || back[2].ToolCalls[0].Arguments != `{"a":1}` {
		t.Errorf("read back %+v", back)
	}
}

func TestUnmarshalErrors(t *testing.T) {
	var m Message
	err := json.Unmarshal([]byte(`{"role": "user", "content": 1, "extra": 2}`), &m)
	want := "content: malformed: want a string, a list of parts, an object or null\nextra: malformed: unknown field"
	if err == nil || err.Error() != want {
		t.Errorf("Message: got %v, want\n%s", err, want)
	}
	if !errors.Is(err, ErrMalformed) {
		t.Error("errors.Is(err, ErrMalformed) is false")
	}

	p := Prompt{{Role: RoleUser, Content: "kept"}}
	err = json.Unmarshal([]byte(`[{"role": "user", "content": "a"}, {"role": 2}, {"tool_calls": [null]}]`), &p)
	want = "message 1: role: malformed: want a string\nmessage 2: tool_calls[0]: malformed: want an object"
	if err == nil || err.Error() != want {
		t.Errorf("Prompt: got %v, want\n%s", err, want)
	}
	if len(p) != 1 || p[0].Content != "kept" {
		t.Errorf("a failed Unmarshal changed the prompt: %+v", p)
	}
}

func TestImagePart(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Image
	}{
		{"https://example.com/a.png", Image{URL: "https://example.com/a.png"}},
		{"data:image/png;base64,iVBORw0KGgo=", Image{MediaType: "image/png", Data: "iVBORw0KGgo="}},
		{"data:image/png,raw", Image{URL: "data:image/png,raw"}}, // not base64: Validate rejects the URL
		{"", Image{}},
	} {
		if got := ImagePart(tc.in); got.Text != "" || got.Image == nil || *got.Image != tc.want {
			t.Errorf("ImagePart(%q) = %+v, want the image %+v", tc.in, got, tc.want)
		}
	}
	got := ImageDataPart("image/gif", []byte("GIF89a"))
	if got.Image == nil || *got.Image != (Image{MediaType: "image/gif", Data: "R0lGODlh"}) {
		t.Errorf("ImageDataPart = %+v", got)
	}
}

func TestPartsJSON(t *testing.T) {
	p := Prompt{{Role: RoleUser, Parts: []Part{
		TextPart("What is it?"),
		ImagePart("https://example.com/a.png"),
		ImageDataPart("image/png", []byte{0x89, 'P', 'N', 'G'}),
	}}}
	p[0].Parts[2].Image.Detail = "high"
	got, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"role":"user","content":[{"type":"text","text":"What is it?"},` +
		`{"type":"image","url":"https://example.com/a.png"},{"type":"image","media_type":"image/png","data":"iVBORw==","detail":"high"}]}]`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var back Prompt
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if len(back) != 1 || len(back[0].Parts) != 3 || back[0].Parts[0].Text != "What is it?" || back[0].Parts[0].Image != nil ||
		*back[0].Parts[1].Image != *p[0].Parts[1].Image || *back[0].Parts[2].Image != *p[0].Parts[2].Image {
		t.Errorf("read back %+v", back)
	}
	// Text-only messages keep their string form.
	if got, _ := json.Marshal(Message{Role: RoleUser, Content: "hi"}); string(got) != `{"role":"user","content":"hi"}` {
		t.Errorf("text message = %s", got)
	}
}

// TestImageParts: one part per image, each a copy whose detail is the
// given one when set; the caller's images are unchanged.
func TestImageParts(t *testing.T) {
	images := []Image{ImageFromURL("https://example.com/a.png"), {URL: "https://example.com/b.png", Detail: "high"}}
	for _, tc := range []struct {
		detail string
		want   []string
	}{{"", []string{"", "high"}}, {"low", []string{"low", "low"}}} {
		parts := ImageParts(tc.detail, images...)
		if len(parts) != 2 || parts[0].Image.URL != images[0].URL || parts[1].Image.URL != images[1].URL {
			t.Fatalf("ImageParts(%q) = %+v", tc.detail, parts)
		}
		for i, p := range parts {
			if p.Image.Detail != tc.want[i] {
				t.Errorf("ImageParts(%q)[%d].Detail = %q, want %q", tc.detail, i, p.Image.Detail, tc.want[i])
			}
		}
	}
	if images[0].Detail != "" || images[1].Detail != "high" {
		t.Errorf("ImageParts changed its arguments: %+v", images)
	}
	if got := ImageParts("low"); len(got) != 0 {
		t.Errorf("ImageParts of no image = %+v", got)
	}
}

// TestImageValidate: an Image checks itself as Prompt.Validate checks an
// image part, its errors naming the field without a message; its JSON
// names are those of an image part.
func TestImageValidate(t *testing.T) {
	if err := ImageFromURL("data:image/png;base64,iVBORw==").Validate(); err != nil {
		t.Errorf("valid image: %v", err)
	}
	err := Image{MediaType: "image/bmp", Data: "a", Detail: "medium"}.Validate()
	want := `detail: invalid image: "medium" is not auto, low or high
media_type: invalid image: "image/bmp" is not image/png, image/jpeg, image/gif or image/webp
data: invalid image: not padded standard base64`
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
	if err := (Image{}).Validate(); err == nil || err.Error() != "missing: an image needs url, or media_type and data" {
		t.Errorf("empty image: %v", err)
	}
	b, _ := json.Marshal(Image{URL: "https://example.com/a.png", Detail: "low"})
	if string(b) != `{"url":"https://example.com/a.png","detail":"low"}` {
		t.Errorf("JSON = %s", b)
	}
}
