package difffuzz

// The data of the chat cases and of the chat corpus's random renderings:
// chat contexts whose messages vary in shape (strings, null, absent keys,
// lists of parts, nested dicts and lists, ints, floats and bools), and
// plausible conversations.

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
)

// ChatData makes a random chat context, as apply_chat_template passes
// it: messages, tools and documents (None when there are none) and
// add_generation_prompt always, the special tokens sometimes.
func ChatData(r *rand.Rand) []byte {
	d := &chatGen{r: r}
	var b bytes.Buffer
	b.WriteString(`{"messages": [`)
	for i := range r.IntN(5) {
		if i > 0 {
			b.WriteString(", ")
		}
		d.message(&b)
	}
	b.WriteString(`], "tools": `)
	d.list(&b, d.tool)
	b.WriteString(`, "documents": `)
	d.list(&b, func(b *bytes.Buffer) {
		d.dict(b, []chatKey{{"doc_id", 0.8, d.str}, {"text", 0.9, d.str}})
	})
	b.WriteString(`, "add_generation_prompt": ` + strconv.FormatBool(r.IntN(2) == 0))
	for _, k := range []string{"bos_token", "eos_token"} {
		if r.IntN(3) > 0 {
			b.WriteString(`, "` + k + `": `)
			d.writeString(&b, []string{"<s>", "</s>", "<|endoftext|>", ""}[r.IntN(4)])
		}
	}
	b.WriteString("}")
	return b.Bytes()
}

type chatGen struct{ r *rand.Rand }

// chatKey is a key of a dict the data holds: how often it is there, and
// what writes its value.
type chatKey struct {
	name  string
	p     float64
	value func(*bytes.Buffer)
}

// dict writes a dict with some of keys, sometimes in another order, and
// sometimes a key of any value more.
func (d *chatGen) dict(b *bytes.Buffer, keys []chatKey) {
	var have []chatKey
	for _, k := range keys {
		if d.r.Float64() < k.p {
			have = append(have, k)
		}
	}
	if d.r.IntN(4) == 0 {
		have = append(have, chatKey{dynKeys[d.r.IntN(len(dynKeys))], 1, func(b *bytes.Buffer) { d.any(b, 2) }})
	}
	if d.r.IntN(5) == 0 {
		d.r.Shuffle(len(have), func(i, j int) { have[i], have[j] = have[j], have[i] })
	}
	b.WriteString("{")
	seen := map[string]bool{}
	first := true
	for _, k := range have {
		if seen[k.name] {
			continue
		}
		seen[k.name] = true
		if !first {
			b.WriteString(", ")
		}
		first = false
		d.writeString(b, k.name)
		b.WriteString(": ")
		if d.r.IntN(12) == 0 {
			d.any(b, 2) // any key may hold anything
		} else {
			k.value(b)
		}
	}
	b.WriteString("}")
}

// list writes null or a list of up to three items.
func (d *chatGen) list(b *bytes.Buffer, item func(*bytes.Buffer)) {
	if d.r.IntN(3) == 0 {
		b.WriteString("null")
		return
	}
	b.WriteString("[")
	for i := range d.r.IntN(4) {
		if i > 0 {
			b.WriteString(", ")
		}
		item(b)
	}
	b.WriteString("]")
}

func (d *chatGen) message(b *bytes.Buffer) {
	d.dict(b, []chatKey{
		{"role", 0.95, func(b *bytes.Buffer) { d.writeString(b, roles[d.r.IntN(len(roles))]) }},
		{"content", 0.9, d.content},
		{"name", 0.15, d.str},
		{"tool_calls", 0.2, func(b *bytes.Buffer) { d.list(b, d.call) }},
		{"tool_call_id", 0.15, d.str},
		{"reasoning_content", 0.15, d.str},
	})
}

// content is a message's content: text, null, or a list of parts.
func (d *chatGen) content(b *bytes.Buffer) {
	switch n := d.r.IntN(10); {
	case n < 5:
		d.str(b)
	case n < 7:
		b.WriteString("null")
	default:
		d.list(b, func(b *bytes.Buffer) {
			d.dict(b, []chatKey{
				{"type", 0.95, func(b *bytes.Buffer) { d.writeString(b, []string{"text", "image", "image_url"}[d.r.IntN(3)]) }},
				{"text", 0.7, d.str},
				{"image", 0.2, d.str},
			})
		})
	}
}

func (d *chatGen) call(b *bytes.Buffer) {
	d.dict(b, []chatKey{
		{"id", 0.8, d.str},
		{"type", 0.8, func(b *bytes.Buffer) { d.writeString(b, "function") }},
		{"function", 0.95, func(b *bytes.Buffer) {
			d.dict(b, []chatKey{
				{"name", 0.95, d.str},
				{"arguments", 0.9, func(b *bytes.Buffer) {
					if d.r.IntN(4) == 0 {
						d.writeString(b, `{"city": "Paris"}`) // arguments as a JSON string
						return
					}
					d.dict(b, []chatKey{{"a", 0.5, func(b *bytes.Buffer) { d.any(b, 1) }}, {"n", 0.5, d.num}, {"text", 0.5, d.str}})
				}},
			})
		}},
	})
}

func (d *chatGen) tool(b *bytes.Buffer) {
	d.dict(b, []chatKey{
		{"type", 0.9, func(b *bytes.Buffer) { d.writeString(b, "function") }},
		{"function", 0.95, func(b *bytes.Buffer) {
			d.dict(b, []chatKey{
				{"name", 0.95, d.str},
				{"description", 0.6, d.str},
				{"parameters", 0.7, func(b *bytes.Buffer) {
					d.dict(b, []chatKey{
						{"type", 0.9, func(b *bytes.Buffer) { d.writeString(b, "object") }},
						{"properties", 0.9, func(b *bytes.Buffer) {
							d.dict(b, []chatKey{{"a", 0.6, d.prop}, {"x y", 0.3, d.prop}, {"b", 0.5, d.prop}})
						}},
						{"required", 0.5, func(b *bytes.Buffer) { b.WriteString(`["a"]`) }},
					})
				}},
			})
		}},
	})
}

func (d *chatGen) prop(b *bytes.Buffer) {
	d.dict(b, []chatKey{
		{"type", 0.9, func(b *bytes.Buffer) { d.writeString(b, []string{"string", "integer"}[d.r.IntN(2)]) }},
		{"enum", 0.3, func(b *bytes.Buffer) { b.WriteString(`["c", "f"]`) }},
	})
}

// any writes a value of any kind, nested up to depth.
func (d *chatGen) any(b *bytes.Buffer, depth int) {
	n := d.r.IntN(9)
	if depth <= 0 {
		n %= 6
	}
	switch n {
	case 0:
		b.WriteString("null")
	case 1:
		b.WriteString(strconv.FormatBool(d.r.IntN(2) == 0))
	case 2, 3:
		d.num(b)
	case 4, 5:
		d.str(b)
	case 6, 7:
		b.WriteString("[")
		for i := range d.r.IntN(4) {
			if i > 0 {
				b.WriteString(", ")
			}
			d.any(b, depth-1)
		}
		b.WriteString("]")
	default:
		d.dict(b, []chatKey{{"a", 0.5, func(b *bytes.Buffer) { d.any(b, depth-1) }},
			{"b", 0.5, func(b *bytes.Buffer) { d.any(b, depth-1) }}, {"text", 0.3, d.str}})
	}
}

// dynFloats are JSON numbers with a fraction or exponent, which Python
// reads as floats.
var dynFloats = []string{"0.0", "1.0", "-2.5", "0.1", "1e-07", "1e16", "2.5", "1.5e300", "-0.0", "0.30000000000000004", "1E2", "1e400",
	"9007199254740993.0", "-12345678901234567.0", "5e-324"}

// num writes an int or a float. Ints stay small: an int operation whose
// result leaves 64 bits fails the render on purpose, where Jinja2 prints
// the big int (family int-limits).
func (d *chatGen) num(b *bytes.Buffer) {
	if d.r.IntN(3) == 0 {
		b.WriteString(dynFloats[d.r.IntN(len(dynFloats))])
		return
	}
	b.WriteString(strconv.Itoa(d.r.IntN(21) - 5))
}

func (d *chatGen) str(b *bytes.Buffer) {
	if d.r.IntN(12) == 0 { // alone: two would make one longer number
		d.writeString(b, numberStrings[d.r.IntN(len(numberStrings))])
		return
	}
	var s strings.Builder
	for range d.r.IntN(3) {
		pool := dataStrings
		switch d.r.IntN(8) {
		case 0:
			pool = unicodeStrings
		case 1:
			pool = roles
		}
		s.WriteString(pool[d.r.IntN(len(pool))])
	}
	d.writeString(b, s.String())
}

func (d *chatGen) writeString(b *bytes.Buffer, s string) {
	j, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	b.Write(j)
}

// ChatConversation makes a plausible chat context: an optional system
// message, then turns of a user and an assistant, whose reply may call
// tools that tool messages answer, with text content mostly and parts
// sometimes; tools, documents and the assistant's reasoning now and then.
func ChatConversation(r *rand.Rand) []byte {
	d := &chatGen{r: r}
	var b bytes.Buffer
	msg := func(role string, rest func()) {
		if b.Len() > len(`{"messages": [`) {
			b.WriteString(", ")
		}
		b.WriteString(`{"role": `)
		d.writeString(&b, role)
		rest()
		b.WriteString("}")
	}
	text := func() {
		b.WriteString(`, "content": `)
		if r.IntN(6) == 0 {
			b.WriteString(`[{"type": "text", "text": `)
			d.str(&b)
			b.WriteString(`}]`)
			return
		}
		d.str(&b)
	}
	b.WriteString(`{"messages": [`)
	if r.IntN(2) == 0 {
		msg("system", text)
	}
	turns := 1 + r.IntN(3)
	for turn := range turns {
		msg("user", text)
		if turn == turns-1 && r.IntN(2) == 0 {
			break // the conversation ends with the user
		}
		calls := r.IntN(4) == 0
		msg("assistant", func() {
			if calls && r.IntN(2) == 0 {
				b.WriteString(`, "content": null`)
			} else {
				text()
			}
			if r.IntN(5) == 0 {
				b.WriteString(`, "reasoning_content": `)
				d.str(&b)
			}
			if calls {
				b.WriteString(`, "tool_calls": [`)
				d.call(&b)
				b.WriteString("]")
			}
		})
		if calls {
			msg("tool", func() {
				b.WriteString(`, "tool_call_id": `)
				d.str(&b)
				text()
			})
		}
	}
	b.WriteString(`], "tools": `)
	if r.IntN(3) == 0 {
		d.list(&b, d.tool)
	} else {
		b.WriteString("null")
	}
	b.WriteString(`, "documents": null, "add_generation_prompt": ` + strconv.FormatBool(r.IntN(2) == 0))
	b.WriteString(`, "bos_token": "<s>", "eos_token": "</s>"}`)
	return b.Bytes()
}
