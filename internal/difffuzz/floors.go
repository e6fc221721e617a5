package difffuzz

// The differential fuzzer's floor: a checker that starts rejecting what it
// accepted leaves fewer cases to compare with Jinja2, and no case fails.
// So each family of cases, named by a construct its template uses (filter
// truncate, statement for, ...) or by its kind (chat, profile), must keep
// an accepted share at or above the floor testdata/floors.json
// records for it, measured at make test's seed and N.

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/gen"
	"github.com/promptgen/promptgen/internal/testmod"
)

// floorsFile is testdata/floors.json, found from this package's source
// wherever the test runs.
var floorsFile = filepath.Join(testmod.Root(), "internal", "difffuzz", "testdata", "floors.json")

const (
	// floorMinCases: a family of fewer cases gets no floor, its share
	// being too coarse.
	floorMinCases = 20
	// floorMargin is the least a floor lies below the measured share;
	// it is two standard errors of the share where that is more, so that
	// a generator change that redraws the cases seldom crosses it.
	floorMargin = 0.03
)

// familyCount is how many cases of a family were generated and accepted.
type familyCount struct{ cases, accepted int }

// countFamilies adds c, accepted or not, to the count of each family it
// belongs to.
func countFamilies(counts map[string]*familyCount, c *Case, accepted bool) {
	for _, f := range caseFamilies(c) {
		n := counts[f]
		if n == nil {
			n = &familyCount{}
			counts[f] = n
		}
		n.cases++
		if accepted {
			n.accepted++
		}
	}
}

// caseFamilies names the families of c: its kind, and each construct its
// template and the files it includes use, read from promptgen's parse.
func caseFamilies(c *Case) []string {
	fams := map[string]bool{"case: any": true}
	switch {
	case c.chat:
		fams["case: chat"] = true
	case strings.HasSuffix(c.File, ".yaml"):
		fams["case: prompt file"] = true
	default:
		fams["case: plain template file"] = true
	}
	if c.Env.Profile {
		fams["case: transformers profile"] = true
	}
	for _, t := range append([]string{c.Template}, slices.Collect(maps.Values(c.Includes))...) {
		constructs, err := gen.TemplateConstructs(t, c.Env.Profile)
		if err != nil {
			fams["template promptgen does not parse"] = true
		}
		for _, f := range constructs {
			fams[f] = true
		}
	}
	return slices.Sorted(maps.Keys(fams))
}

// floorsJSON is floors.json.
type floorsJSON struct {
	How    string             `json:"how"`
	Floors map[string]float64 `json:"floors"`
	// ReachedCeiling bounds the share of the cases Jinja2 renders that
	// promptgen rejects where Jinja2 runs the rejected construct
	// (Summary.reachedShare): the breadth gaps, which must not grow.
	ReachedCeiling float64 `json:"reached_rejected_ceiling"`
	// UndeliberateCeiling bounds the share of the cases Jinja2 renders
	// that promptgen rejects for no deliberate reason
	// (Summary.undeliberateShare).
	UndeliberateCeiling float64 `json:"undeliberate_rejected_ceiling"`
}

const floorsHow = "`make difffuzz-floors`: for each difffuzz family of at least 20 cases at make test's seed and N, " +
	"its accepted share less the larger of 0.03 and two standard errors, rounded down to a hundredth; " +
	"and the share of the cases Jinja2 renders that promptgen rejects where Jinja2 runs the rejected construct, " +
	"plus the same margin, rounded up; and so the share of the cases Jinja2 renders that promptgen rejects for no deliberate reason (internal/difffuzz/floors.go, deliberate.go)"

// shareMargin is the margin of a share p of n cases: floorMargin, or two
// standard errors where that is more.
func shareMargin(p float64, n int) float64 {
	return max(floorMargin, 2*math.Sqrt(p*(1-p)/float64(max(1, n))))
}

// checkFloors fails for each family whose accepted share is below its
// floor, and where the share of reached rejections (sum.reachedShare) is
// above its ceiling, or with opts.RecordFloors records those of this run.
func checkFloors(t *testing.T, opts Options, counts map[string]*familyCount, sum *Summary) {
	t.Helper()
	if !opts.measuresFloors() {
		if opts.RecordFloors {
			t.Fatal("-difffuzz.floors records the floors of make test's run: leave the other difffuzz flags at their defaults")
		}
		t.Logf("difffuzz floors: not checked (they hold for make test's seed and N)")
		return
	}
	if opts.RecordFloors {
		ceiling := func(p float64) float64 { return math.Ceil((p+shareMargin(p, sum.rendered()))*100) / 100 }
		floors := floorsJSON{How: floorsHow, Floors: map[string]float64{},
			ReachedCeiling: ceiling(sum.reachedShare()), UndeliberateCeiling: ceiling(sum.undeliberateShare())}
		for f, n := range counts {
			if n.cases < floorMinCases {
				continue
			}
			p := float64(n.accepted) / float64(n.cases)
			floors.Floors[f] = max(0, math.Floor((p-shareMargin(p, n.cases))*100)/100)
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(floors); err != nil {
			t.Fatal(err)
		}
		writeFile(t, floorsFile, b.Bytes())
		return
	}
	var floors floorsJSON
	if err := json.Unmarshal(readFile(t, floorsFile), &floors); err != nil {
		t.Fatalf("%s: %v", floorsFile, err)
	}
	below := 0
	for _, f := range slices.Sorted(maps.Keys(floors.Floors)) {
		n := counts[f]
		if n == nil {
			t.Errorf("difffuzz family %q: no case, want an accepted share of at least %.2f (%s)", f, floors.Floors[f], floorsFile)
			below++
			continue
		}
		if share := float64(n.accepted) / float64(n.cases); share < floors.Floors[f] {
			t.Errorf("difffuzz family %q: %d of %d cases accepted (%.3f), below its floor %.2f (%s): promptgen rejects what it accepted (if the generator changed instead, record the floors again with make difffuzz-floors and review the diff)",
				f, n.accepted, n.cases, share, floors.Floors[f], floorsFile)
			below++
		}
	}
	if reached := sum.reachedShare(); reached > floors.ReachedCeiling {
		t.Errorf("difffuzz: promptgen rejects %.3f of the cases Jinja2 renders where Jinja2 runs the rejected construct, above the ceiling %.2f (%s): promptgen rejects what Jinja2 runs, and did not (if the generator changed instead, record the floors again with make difffuzz-floors and review the diff)",
			reached, floors.ReachedCeiling, floorsFile)
	}
	if undeliberate := sum.undeliberateShare(); undeliberate > floors.UndeliberateCeiling {
		t.Errorf("difffuzz: promptgen rejects %.3f of the cases Jinja2 renders for no deliberate reason, above the ceiling %.2f (%s): promptgen rejects what Jinja2 renders, and did not (if the generator or the reasons changed instead, record the floors again with make difffuzz-floors and review the diff)",
			undeliberate, floors.UndeliberateCeiling, floorsFile)
	}
	t.Logf("difffuzz floors: %d families, %d below their floor; reached rejections %.3f, ceiling %.2f; rejections not on purpose %.3f, ceiling %.2f",
		len(floors.Floors), below, sum.reachedShare(), floors.ReachedCeiling, sum.undeliberateShare(), floors.UndeliberateCeiling)
}
