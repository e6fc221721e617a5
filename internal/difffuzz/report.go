package difffuzz

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/promptgen/promptgen/internal/pyjinja"
)

// printsAddress matches the repr of a Python object that shows its
// memory address, as a printed generator does: <generator object
// sync_do_map at 0x7f...>.
var printsAddress = regexp.MustCompile(` at 0x[0-9a-f]+>`)

// Summary accumulates a run's counts and failures.
type Summary struct {
	seed            uint64
	dump            string // Options.Dump
	cases, accepted int
	rejected        map[string]int
	// renderable counts, by message, the rejected cases that Jinja2
	// renders with data of the types the generator meant.
	renderable map[string]int
	// addressed counts, by message, the rejected cases whose Jinja2
	// output holds an object's memory address (a generator or iterator
	// printed), which no other renderer can reproduce: deliberate
	// rejections, kept out of the renderable share.
	addressed map[string]int
	examples  map[string]*Trial // the first case rejected with each message
	// renderableRuns are the rejected cases that Jinja2 renders, dumped
	// by the message of their rejection.
	renderableRuns []*Trial
	failures       []*Trial
	// lenient counts the renderings that matched by a jinjaLenient reason.
	lenient map[string]int
	// Time spent generating, compiling, rendering with promptgen, and
	// rendering with Jinja2.
	generate, build, render, jinja time.Duration
}

func (s *Summary) report(t *testing.T) {
	var crashes, rejected int
	for _, run := range s.failures {
		if run.Crash != "" {
			crashes++
		}
	}
	msgs := make([]string, 0, len(s.rejected))
	for m, n := range s.rejected {
		msgs = append(msgs, m)
		rejected += n
	}
	sort.Slice(msgs, func(i, j int) bool {
		if s.rejected[msgs[i]] != s.rejected[msgs[j]] {
			return s.rejected[msgs[i]] > s.rejected[msgs[j]]
		}
		return msgs[i] < msgs[j]
	})
	var b strings.Builder
	fmt.Fprintf(&b, "difffuzz seed %d: %d cases, %d accepted, %d rejected, %d mismatches, %d crashes\n",
		s.seed, s.cases, s.accepted, rejected, len(s.failures)-crashes, crashes)
	fmt.Fprintf(&b, "time: generate %v, build %v, render %v, jinja2 %v\n", s.generate.Round(time.Millisecond),
		s.build.Round(time.Millisecond), s.render.Round(time.Millisecond), s.jinja.Round(time.Millisecond))
	renderable, addressed := 0, 0
	for _, n := range s.renderable {
		renderable += n
	}
	for _, n := range s.addressed {
		addressed += n
	}
	fmt.Fprintf(&b, "Jinja2 renders %d of the rejected cases: %.1f%% of the %d cases it renders are rejected\n",
		renderable, 100*float64(renderable)/float64(max(1, s.accepted+renderable)), s.accepted+renderable)
	fmt.Fprintf(&b, "and prints a memory address for %d more (a generator or iterator printed), which no renderer reproduces\n", addressed)
	b.WriteString("rejected (of which Jinja2 renders, [prints an address]), by message:\n")
	for i, m := range msgs {
		fmt.Fprintf(&b, "%6d (%d)", s.rejected[m], s.renderable[m])
		if s.addressed[m] > 0 {
			fmt.Fprintf(&b, " [%d]", s.addressed[m])
		}
		fmt.Fprintf(&b, "  %s\n", m)
		if s.dump != "" {
			run := s.examples[m]
			writeFile(t, filepath.Join(s.dump, "rejected", fmt.Sprintf("%02d_%s", i, run.Case.File)), run.Case.Source)
			for _, run := range s.renderableRuns {
				if run.Rejected == m {
					dumpRun(t, filepath.Join(s.dump, "renderable", fmt.Sprintf("%02d", i)), run)
				}
			}
		}
	}
	t.Log(b.String())
	pyjinja.LogLenient(t, fmt.Sprintf("difffuzz seed %d", s.seed), s.lenient)
	for i, run := range s.failures {
		if s.dump != "" {
			dumpRun(t, s.dump, run)
		}
		if i < 20 {
			t.Errorf("%s", run)
		}
	}
	if len(s.failures) > 20 {
		t.Errorf("and %d more failures", len(s.failures)-20)
	}
}

// dumpRun writes a failing case to its directory under dump.
func dumpRun(t *testing.T, dump string, run *Trial) {
	dir := filepath.Join(dump, run.Case.Key)
	writeFile(t, filepath.Join(dir, run.Case.File), run.Case.Source)
	writeFile(t, filepath.Join(dir, "report.txt"), []byte(run.String()))
	if run.Data != nil {
		writeFile(t, filepath.Join(dir, "data.json"), run.Data)
	}
}
