package runtime

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Part is one part of a user or tool_result message's content
// (Message.Parts): text, or an image when Image is set. Its JSON form is
// {"type": "text", "text": ...} or {"type": "image", ...} with the fields
// of Image.
type Part struct {
	Text  string
	Image *Image
}

// Image is an image of a Part: either a URL, which the provider fetches, or
// the image itself as MediaType and Data. In JSON: {"type": "image", "url":
// ...} or {"type": "image", "media_type": ..., "data": ...}.
//
// Validate accepts a URL that starts with "https://" followed by a host, has
// no white space or control character, and is at most MaxImageURL
// characters long; a data: URL goes in MediaType and Data instead
// (ImagePart splits one). MediaType is image/png, image/jpeg, image/gif or
// image/webp, the types that both OpenAI and Anthropic take, and Data is
// the image's bytes in padded standard base64 (RFC 4648 section 4, no line
// breaks), at most MaxImageData bytes of base64 text.
//
// Detail is OpenAI's image detail, "auto", "low" or "high" ("" leaves it
// to the API's default): the resolution the model sees the image at, so a
// cost hint. The OpenAI adapter sends it; Anthropic has no such setting
// and its adapter leaves it out.
//
// An Image is also the Go type of an image input of a prompt file
// (`photo: image`); its JSON tags are the names of an image part's fields,
// so a feed in JSON gives one as {"url": ...} or {"media_type": ...,
// "data": ...}.
type Image struct {
	URL       string `json:"url,omitempty"`
	MediaType string `json:"media_type,omitempty"`
	Data      string `json:"data,omitempty"` // base64
	Detail    string `json:"detail,omitempty"`
}

// The size bounds of an Image that Validate checks.
const (
	MaxImageURL  = 8 << 10  // characters of an image URL
	MaxImageData = 20 << 20 // bytes of an image's base64 text (15 MiB of image)
)

// ErrInvalidImage is the kind of the problems of an image part's URL, media
// type or data.
var ErrInvalidImage = errors.New("invalid image")

// imageMediaTypes are the media types that an Image's data may have.
var imageMediaTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// imageDetails are the values of Image.Detail besides "".
var imageDetails = []string{"auto", "low", "high"}

// TextPart returns a text part.
func TextPart(text string) Part { return Part{Text: text} }

// ImagePart returns an image part for url (see ImageFromURL).
func ImagePart(url string) Part {
	img := ImageFromURL(url)
	return Part{Image: &img}
}

// ImageDataPart returns an image part holding data, an image of mediaType.
func ImageDataPart(mediaType string, data []byte) Part {
	img := ImageFromBytes(mediaType, data)
	return Part{Image: &img}
}

// ImageFromURL returns the image that url gives: a data URL in base64
// ("data:image/png;base64,iVBOR...") becomes the image's MediaType and
// Data; any other url is the image's URL, which Validate requires to be
// https. It fills an image input of a generated feed from a string.
func ImageFromURL(url string) Image {
	if rest, ok := strings.CutPrefix(url, "data:"); ok {
		if mediaType, data, ok := strings.Cut(rest, ";base64,"); ok {
			return Image{MediaType: mediaType, Data: data}
		}
	}
	return Image{URL: url}
}

// ImageFromBytes returns data, an image of mediaType, as an Image.
func ImageFromBytes(mediaType string, data []byte) Image {
	return Image{MediaType: mediaType, Data: base64.StdEncoding.EncodeToString(data)}
}

// ImageParts returns one image part per image, in order, each a copy of
// it whose Detail is detail when detail is not "". Generated Messages
// build the parts of image inputs with it.
func ImageParts(detail string, images ...Image) []Part {
	parts := make([]Part, len(images))
	for i, img := range images {
		if detail != "" {
			img.Detail = detail
		}
		parts[i] = Part{Image: &img}
	}
	return parts
}

// Validate returns the problems of img as MessageErrors whose Index is -1
// and whose Field is "url", "media_type", "data", "detail" or "" (the
// image as a whole), or nil: the checks Prompt.Validate makes of an image
// part.
func (img Image) Validate() error {
	var errs MessageErrors
	checkImage(img, func(field string, err error, detail string) {
		errs = append(errs, &MessageError{Index: -1, Field: strings.TrimPrefix(field, "."), Err: err, Detail: detail})
	})
	if errs == nil {
		return nil
	}
	return errs
}

// checkParts checks the content parts of message i, whose role is known.
func checkParts(i int, m Message, add func(i int, field string, err error, detail string)) {
	switch {
	case m.Role != RoleUser && m.Role != RoleToolResult:
		add(i, "content", ErrFieldNotAllowed, "content parts on "+withArticle(m.Role)+" message")
		return
	case m.Content != "":
		add(i, "content", ErrFieldNotAllowed, "both text and content parts")
		return
	case m.Data != nil:
		add(i, "content", ErrFieldNotAllowed, "both structured content and content parts")
		return
	case len(m.Parts) == 0:
		add(i, "content", ErrEmptyContent, "")
		return
	}
	for j, p := range m.Parts {
		field := "content[" + strconv.Itoa(j) + "]"
		switch {
		case p.Image == nil && p.Text == "":
			add(i, field+".text", ErrEmptyContent, "")
		case p.Image == nil:
		case p.Text != "":
			add(i, field, ErrFieldNotAllowed, "both text and an image")
		default:
			checkImage(*p.Image, func(sub string, err error, detail string) { add(i, field+sub, err, detail) })
		}
	}
}

func checkImage(img Image, add func(field string, err error, detail string)) {
	if img.Detail != "" && !slices.Contains(imageDetails, img.Detail) {
		add(".detail", ErrInvalidImage, strconv.Quote(truncate(img.Detail, 40))+" is not auto, low or high")
	}
	if img.URL != "" {
		if img.MediaType != "" {
			add(".media_type", ErrFieldNotAllowed, "media_type with an image URL")
		}
		if img.Data != "" {
			add(".data", ErrFieldNotAllowed, "data with an image URL")
		}
		if detail := checkImageURL(img.URL); detail != "" {
			add(".url", ErrInvalidImage, detail)
		}
		return
	}
	if img.MediaType == "" && img.Data == "" {
		add("", ErrMissingField, "an image needs url, or media_type and data")
		return
	}
	switch {
	case img.MediaType == "":
		add(".media_type", ErrMissingField, "")
	case !slices.Contains(imageMediaTypes, img.MediaType):
		add(".media_type", ErrInvalidImage, strconv.Quote(truncate(img.MediaType, 40))+" is not image/png, image/jpeg, image/gif or image/webp")
	}
	switch {
	case img.Data == "":
		add(".data", ErrMissingField, "")
	case len(img.Data) > MaxImageData:
		add(".data", ErrInvalidImage, strconv.Itoa(len(img.Data))+" bytes of base64 exceed MaxImageData ("+strconv.Itoa(MaxImageData)+")")
	case !isPaddedBase64(img.Data):
		add(".data", ErrInvalidImage, "not padded standard base64")
	}
}

// checkImageURL returns what is wrong with an image URL, or "".
func checkImageURL(u string) string {
	if n := utf8.RuneCountInString(u); n > MaxImageURL {
		return "URL of " + strconv.Itoa(n) + " characters exceeds MaxImageURL (" + strconv.Itoa(MaxImageURL) + ")"
	}
	host, ok := strings.CutPrefix(u, "https://")
	if !ok {
		scheme, _, found := strings.Cut(u, ":")
		if !found || strings.ContainsAny(scheme, "/?#") {
			return "want an https URL, not " + strconv.Quote(truncate(u, 40))
		}
		detail := "want an https URL, not scheme " + strconv.Quote(truncate(scheme, 40))
		if scheme == "data" {
			detail += " (give the image's bytes as media_type and data; runtime.ImagePart splits a data URL)"
		}
		return detail
	}
	if host == "" || strings.ContainsRune("/?#", rune(host[0])) {
		return "the URL has no host"
	}
	for _, c := range []byte(u) {
		if c <= ' ' || c == 0x7f {
			return "the URL holds white space or a control character"
		}
	}
	return ""
}

// isPaddedBase64 reports whether s is standard base64 with padding and no
// line breaks: what the schema's pattern for image data accepts.
func isPaddedBase64(s string) bool {
	if len(s)%4 != 0 {
		return false
	}
	body := strings.TrimSuffix(strings.TrimSuffix(s, "="), "=")
	for _, c := range []byte(body) {
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/') {
			return false
		}
	}
	return true
}

// The JSON form of a Part.
type jsonPart struct {
	Type      string `json:"type"`
	Text      string `json:"text,omitempty"`
	URL       string `json:"url,omitempty"`
	MediaType string `json:"media_type,omitempty"`
	Data      string `json:"data,omitempty"`
	Detail    string `json:"detail,omitempty"`
}

func marshalParts(parts []Part) ([]byte, error) {
	out := make([]jsonPart, len(parts))
	for i, p := range parts {
		if p.Image == nil {
			out[i] = jsonPart{Type: "text", Text: p.Text}
		} else {
			out[i] = jsonPart{Type: "image", URL: p.Image.URL, MediaType: p.Image.MediaType, Data: p.Image.Data, Detail: p.Image.Detail}
		}
	}
	return json.Marshal(out)
}

// decodeParts decodes a content list strictly: each item an object whose
// "type" is "text" (with "text") or "image" (with "url", "media_type",
// "data" and "detail"), other keys and types being malformed.
func decodeParts(v json.RawMessage, bad func(field, detail string)) []Part {
	var items []json.RawMessage
	json.Unmarshal(v, &items) // valid: the message parsed
	parts := make([]Part, len(items))
	for i, item := range items {
		path := "content[" + strconv.Itoa(i) + "]"
		fields, ok := object(item)
		if !ok {
			bad(path, "want an object")
			continue
		}
		var typ string
		if !decodeString(fields["type"], &typ) || typ != "text" && typ != "image" {
			bad(path+".type", `want "text" or "image"`)
			continue
		}
		var img Image
		for _, k := range sortedKeys(fields) {
			var dst *string
			switch {
			case k == "type":
				continue
			case k == "text" && typ == "text":
				dst = &parts[i].Text
			case k == "url" && typ == "image":
				dst = &img.URL
			case k == "media_type" && typ == "image":
				dst = &img.MediaType
			case k == "data" && typ == "image":
				dst = &img.Data
			case k == "detail" && typ == "image":
				dst = &img.Detail
			default:
				bad(path+"."+k, "unknown field")
				continue
			}
			if !decodeString(fields[k], dst) {
				bad(path+"."+k, "want a string")
			}
		}
		if typ == "image" {
			parts[i].Image = &img
		}
	}
	return parts
}
