package gen_test

import (
	"flag"
	"math/rand/v2"
	"testing"

	"github.com/promptgen/promptgen/internal/difffuzz"
	"github.com/promptgen/promptgen/internal/pyjinja"
)

var (
	chatFuzzN    = flag.Int("chatfuzz.n", 6, "random chat contexts per corpus template in TestChatCorpus")
	chatFuzzSeed = flag.Uint64("chatfuzz.seed", 1, "seed of the random chat contexts of TestChatCorpus")
)

// chatFuzzRuns are the corpus template of run rendered with random chat
// contexts: most a plausible conversation (difffuzz.ChatConversation), the
// others the differential fuzzer's hostile ones (difffuzz.ChatData), each
// compared with Jinja2 in the transformers environment.
func chatFuzzRuns(run *difffuzz.Trial, source []byte, i int) []*difffuzz.Trial {
	r := rand.New(rand.NewPCG(*chatFuzzSeed, uint64(i)))
	var runs []*difffuzz.Trial
	for range *chatFuzzN {
		x, c := *run, *run.Case
		x.Case = &c
		c.Template = string(source)
		c.Env = pyjinja.Env{Profile: true, TrimBlocks: true, LstripBlocks: true}
		if r.IntN(4) == 0 {
			x.Data = difffuzz.ChatData(r)
		} else {
			x.Data = difffuzz.ChatConversation(r)
		}
		runs = append(runs, &x)
	}
	return runs
}

// checkChatFuzz compares the random renderings of the corpus with Jinja2:
// the same text, or the same error (pyjinja.Match).
func checkChatFuzz(t *testing.T, runs []*difffuzz.Trial) {
	t.Helper()
	difffuzz.RenderJinja(t, pyjinja.Find(t), runs)
	failed, rendered := 0, 0
	lenient := map[string]int{}
	for _, run := range runs {
		if run.Jinja.Status == "ok" {
			rendered++
		}
		if difffuzz.Failed(run, lenient) {
			if failed < 10 {
				t.Errorf("chat corpus, random context (-chatfuzz.seed %d): %s", *chatFuzzSeed, run)
			}
			failed++
		}
	}
	t.Logf("chat corpus, random contexts: %d renderings (%d that Jinja2 renders, the others it raises on), %d differ", len(runs), rendered, failed)
	pyjinja.LogLenient(t, "chat corpus, random contexts", lenient)
}
