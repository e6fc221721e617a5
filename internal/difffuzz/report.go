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
// sync_do_map at 0x7f...>, also where tojson or escape wrote its > as
// \u003e or &gt;, or a case filter (upper, swapcase, title) changed its
// letters.
var printsAddress = regexp.MustCompile(`(?i) at 0x[0-9a-f]+(>|\\u003e|&gt;)`)

// Summary accumulates a run's counts and failures.
type Summary struct {
	seed            uint64
	dump            string // Options.Dump
	cases, accepted int
	rejected        map[string]int
	// renderable counts, by message, the rejected cases that Jinja2
	// renders with data of the types the generator meant.
	renderable map[string]int
	// reached counts, by message, the renderable cases where Jinja2 runs
	// the rejected construct with the case's data (reach.go): the others
	// are rejected only in code Jinja2 does not run with it, which
	// promptgen checks as a compiler does. unlocated of them have no
	// probe (the rejection is not located in a template): counted as
	// reached.
	reached   map[string]int
	unlocated int
	// addressed counts, by message, the rejected cases whose Jinja2
	// output holds an object's memory address (a generator or iterator
	// printed), which no other renderer can reproduce: deliberate
	// rejections, kept out of the renderable share.
	addressed map[string]int
	// deliberate counts, by reason (deliberateReason.doc), the renderable
	// cases rejected on purpose.
	deliberate map[string]int
	examples   map[string]*Trial // the first case rejected with each message
	// renderableRuns are the rejected cases that Jinja2 renders, dumped
	// by the message of their rejection.
	renderableRuns []*Trial
	failures       []*Trial
	// failsOnPurpose are the accepted cases whose render fails on purpose
	// where Jinja2 renders without printing an address (a generator
	// compared, an int beyond 64 bits): rejections at render time, counted
	// in the rejected share as reached and deliberate, dumped under
	// failing/.
	failsOnPurpose []*Trial
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
	renderable, reached, addressed := total(s.renderable), total(s.reached), total(s.addressed)
	fmt.Fprintf(&b, "Jinja2 renders %d of the rejected cases, and %d accepted cases whose render fails on purpose: %.1f%% of the %d cases it renders are rejected\n",
		renderable, len(s.failsOnPurpose), 100*float64(renderable+len(s.failsOnPurpose))/float64(max(1, s.rendered())), s.rendered())
	fmt.Fprintf(&b, "  %d where Jinja2 runs the rejected construct with the case's data, and the %d failing renders (%.1f%% of the cases it renders; %d not located, counted there)\n",
		reached, len(s.failsOnPurpose), 100*s.reachedShare(), s.unlocated)
	fmt.Fprintf(&b, "  %d only in code Jinja2 does not run with the case's data (a macro not called, a branch not taken, ...), checked as a compiler does\n",
		renderable-reached)
	fmt.Fprintf(&b, "  %d on purpose (docs/template-language.md, \"Rejected on purpose\"), and %d not: %.1f%% of the cases it renders\n",
		total(s.deliberate), renderable-total(s.deliberate), 100*s.undeliberateShare())
	for _, r := range deliberateReasons {
		if n := s.deliberate[r.doc]; n > 0 {
			fmt.Fprintf(&b, "    %4d  %s\n", n, r.doc)
		}
	}
	fmt.Fprintf(&b, "and prints a memory address for %d more (a generator or iterator printed), which no renderer reproduces\n", addressed)
	b.WriteString("rejected (of which Jinja2 renders: running the rejected construct + not, [prints an address]), by message (on purpose: one of the reasons above, unless Jinja2 runs and renders it where the reason says it fails):\n")
	for i, m := range msgs {
		fmt.Fprintf(&b, "%6d (%d+%d)", s.rejected[m], s.reached[m], s.renderable[m]-s.reached[m])
		if s.addressed[m] > 0 {
			fmt.Fprintf(&b, " [%d]", s.addressed[m])
		}
		if deliberate(m, false) != nil {
			b.WriteString("  on purpose:")
		}
		fmt.Fprintf(&b, "  %s\n", m)
		if s.dump != "" {
			run := s.examples[m]
			writeFile(t, filepath.Join(s.dump, "rejected", fmt.Sprintf("%02d_%s", i, run.Case.File)), run.Case.Source)
			for _, run := range s.renderableRuns {
				if run.Rejected == m {
					reach := "reached"
					if r := run.Jinja.Reached; r != nil && !*r {
						reach = "unreached"
					}
					dumpRun(t, filepath.Join(s.dump, "renderable", reach, fmt.Sprintf("%02d", i)), run)
				}
			}
		}
	}
	t.Log(b.String())
	if s.dump != "" {
		for _, run := range s.failsOnPurpose {
			dumpRun(t, filepath.Join(s.dump, "failing"), run)
		}
	}
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

// reachedShare is the share of the cases Jinja2 renders that promptgen
// rejects where Jinja2 runs the rejected construct.
func (s *Summary) reachedShare() float64 {
	return float64(total(s.reached)+len(s.failsOnPurpose)) / float64(max(1, s.rendered()))
}

// undeliberateShare is the share of the cases Jinja2 renders that
// promptgen rejects for no reason of deliberateReasons: the gaps in
// breadth.
func (s *Summary) undeliberateShare() float64 {
	return float64(total(s.renderable)-total(s.deliberate)) / float64(max(1, s.rendered()))
}

// rendered is how many cases Jinja2 renders: the accepted ones and the
// renderable rejected ones.
func (s *Summary) rendered() int { return s.accepted + total(s.renderable) }

func total(counts map[string]int) int {
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}

// failsWhereJinjaRenders reports whether run, which Failed accepts, is a
// render that fails on purpose (a jinjaLenient or beyond64Unprinted pair)
// where Jinja2 renders without printing an address.
func failsWhereJinjaRenders(run *Trial) bool {
	if run.Jinja.Status != "ok" || printsAddress.MatchString(run.Jinja.Text) {
		return false
	}
	for _, o := range run.Out {
		if o.Status != "ok" {
			return true
		}
	}
	return false
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
