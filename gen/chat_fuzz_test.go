package gen

import (
	"bytes"
	"flag"
	"math/rand/v2"
	"strconv"
	"testing"
)

var (
	chatFuzzN    = flag.Int("chatfuzz.n", 6, "random chat contexts per corpus template in TestChatCorpus")
	chatFuzzSeed = flag.Uint64("chatfuzz.seed", 1, "seed of the random chat contexts of TestChatCorpus")
)

// chatFuzzRuns are the corpus template of run rendered with random chat
// contexts: most a plausible conversation (chatConversation), the others
// the differential fuzzer's hostile ones (fzChatData), each compared with
// Jinja2 in the transformers environment.
func chatFuzzRuns(run *fzRun, source []byte, i int) []*fzRun {
	r := rand.New(rand.NewPCG(*chatFuzzSeed, uint64(i)))
	var runs []*fzRun
	for range *chatFuzzN {
		x, c := *run, *run.c
		x.c = &c
		c.template = string(source)
		c.options = fzOptions{Profile: true, TrimBlocks: true, LstripBlocks: true}
		if r.IntN(4) == 0 {
			x.data = fzChatData(r)
		} else {
			x.data = chatConversation(r)
		}
		runs = append(runs, &x)
	}
	return runs
}

// checkChatFuzz compares the random renderings of the corpus with Jinja2:
// the same text, or the same error (jinjaMatch).
func checkChatFuzz(t *testing.T, runs []*fzRun) {
	t.Helper()
	fzJinja(t, findJinja(t), runs)
	failed, rendered := 0, 0
	lenient := map[string]int{}
	for _, run := range runs {
		if run.jinja.status == "ok" {
			rendered++
		}
		if fzFailed(run, lenient) {
			if failed < 10 {
				t.Errorf("chat corpus, random context (-chatfuzz.seed %d): %s", *chatFuzzSeed, run)
			}
			failed++
		}
	}
	t.Logf("chat corpus, random contexts: %d renderings (%d that Jinja2 renders, the others it raises on), %d differ", len(runs), rendered, failed)
	logLenient(t, "chat corpus, random contexts", lenient)
}

// chatConversation makes a plausible chat context: an optional system
// message, then turns of a user and an assistant, whose reply may call
// tools that tool messages answer, with text content mostly and parts
// sometimes; tools, documents and the assistant's reasoning now and then.
func chatConversation(r *rand.Rand) []byte {
	d := &fzChatGen{r: r}
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
