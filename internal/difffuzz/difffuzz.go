// Package difffuzz is promptgen's differential fuzzer: random prompts
// (gen*.go) with random data (data.go, chatdata.go), rendered by real
// Jinja2 (internal/pyjinja), by the generated go backend and by the
// generated text/template backend (harness.go). An accepted template whose
// output differs from Jinja2's is a failure, and so is a crash: a panic,
// an internal error, or generated Go that does not compile. A rejection
// (a generate-time error) is fine; the summary counts them by message
// (report.go), telling those Jinja2 renders apart by whether it runs the
// rejected code with the case's data (reach.go). Each family of cases must
// keep the accepted share testdata/floors.json records for it, and the
// share of rejections of code Jinja2 runs must stay below the ceiling it
// records, and so must the share of rejections for none of the reasons of
// deliberate.go (floors.go).
//
// make test runs it with a fixed seed (TestDiffFuzz); `make difffuzz
// N=20000 SEED=7` runs a long one. It drives gen through its exported API
// only.
package difffuzz

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/promptgen/promptgen/internal/pyjinja"
)

// Options say which cases a run generates and what it does with them.
type Options struct {
	N     int    // cases
	Seed  uint64 // of the random source of every case
	Batch int    // cases compiled into one module
	// Case, when not negative, runs only this case of the seed.
	Case int
	// Enable and Disable are comma-separated families: excluded ones to
	// generate anyway, and ones not to generate.
	Enable, Disable string
	// DynShare is the share of the cases that are chat cases (family
	// dynamic).
	DynShare float64
	// Dump is a directory to write each failing case and an example of
	// each rejection to; "" for none.
	Dump string
	// RecordFloors writes the floors of this run to testdata/floors.json
	// instead of checking them.
	RecordFloors bool
}

// Defaults are the options make test runs with, the run testdata/floors.json
// is measured on.
var Defaults = Options{N: 1500, Seed: 1, Batch: 2500, Case: -1, DynShare: 0.2}

// measuresFloors reports whether the options generate the cases make test
// does (Batch and Dump change nothing of them).
func (o Options) measuresFloors() bool {
	d := Defaults
	return o.N == d.N && o.Seed == d.Seed && o.Case == d.Case && o.Enable == d.Enable && o.Disable == d.Disable && o.DynShare == d.DynShare
}

// Run runs the differential fuzzer: it fails t for each failure, logs the
// summary, and checks (or records) the floors of each family.
func Run(t *testing.T, opts Options) *Summary {
	python := pyjinja.Find(t)
	off := offFamilies(t, opts)
	sum := &Summary{seed: opts.Seed, dump: opts.Dump, rejected: map[string]int{}, renderable: map[string]int{}, reached: map[string]int{}, addressed: map[string]int{}, deliberate: map[string]int{}, examples: map[string]*Trial{}, lenient: map[string]int{}}
	shared := map[string][]byte{} // the package file of each package
	families := map[string]*familyCount{}
	for start := 0; start < opts.N; start += opts.Batch {
		var runs, rejected []*Trial
		t0 := time.Now()
		for i := start; i < min(start+opts.Batch, opts.N); i++ {
			if opts.Case >= 0 && i != opts.Case {
				continue
			}
			g := &generator{r: rand.New(rand.NewPCG(opts.Seed, uint64(i))), off: off, dynShare: opts.DynShare}
			c := g.newCase(i)
			c.seed = opts.Seed
			run := NewTrial(c)
			run.Lenient = c.chat
			Generate(run, shared)
			sum.cases++
			countFamilies(families, run.Case, run.Crash == "" && run.Rejected == "")
			switch {
			case run.Crash != "":
				sum.failures = append(sum.failures, run)
			case run.Rejected != "":
				sum.rejected[run.Rejected]++
				if sum.examples[run.Rejected] == nil {
					sum.examples[run.Rejected] = run
				}
				run.Data = intendedData(run, rand.New(rand.NewPCG(opts.Seed, uint64(i)|1<<63)), off)
				run.Probe = rejectionProbe(run)
				rejected = append(rejected, run)
			default:
				run.Data = caseData(t, run, rand.New(rand.NewPCG(opts.Seed, uint64(i)|1<<63)), off)
				runs = append(runs, run)
			}
		}
		sum.accepted += len(runs)
		sum.generate += time.Since(t0)
		runs = Render(t, runs, shared, sum)
		t0 = time.Now()
		RenderJinja(t, python, slices.Concat(runs, rejected))
		sum.jinja += time.Since(t0)
		for _, run := range rejected {
			switch {
			case run.Jinja.Status != "ok":
			case printsAddress.MatchString(run.Jinja.Text):
				sum.addressed[run.Rejected]++
			default:
				sum.renderable[run.Rejected]++
				sum.renderableRuns = append(sum.renderableRuns, run)
				reached := run.Jinja.Reached == nil || *run.Jinja.Reached
				switch {
				case run.Jinja.Reached == nil:
					sum.unlocated++
					sum.reached[run.Rejected]++
				case reached:
					sum.reached[run.Rejected]++
				}
				if r := deliberate(run.Rejected, reached); r != nil {
					sum.deliberate[r.doc]++
				}
			}
		}
		for _, run := range runs {
			if Failed(run, sum.lenient) {
				sum.failures = append(sum.failures, run)
			} else if failsWhereJinjaRenders(run) {
				sum.failsOnPurpose = append(sum.failsOnPurpose, run)
			}
		}
	}
	sum.report(t)
	checkFloors(t, opts, families, sum)
	return sum
}

// offFamilies is the set of families switched off: the excluded ones,
// less opts.Enable, plus opts.Disable.
func offFamilies(t *testing.T, opts Options) map[string]bool {
	known := map[string]bool{}
	for _, f := range slices.Concat(includedFamilies, excludedFamilies) {
		known[f] = true
	}
	names := func(list string) []string {
		var out []string
		for _, f := range strings.Split(list, ",") {
			if f = strings.TrimSpace(f); f == "" {
				continue
			}
			if !known[f] {
				t.Fatalf("unknown difffuzz family %q", f)
			}
			out = append(out, f)
		}
		return out
	}
	off := map[string]bool{}
	for _, f := range excludedFamilies {
		off[f] = true
	}
	for _, f := range names(opts.Enable) {
		delete(off, f)
	}
	for _, f := range names(opts.Disable) {
		off[f] = true
	}
	return off
}
