package gen

// The differential fuzzer's floor: a checker that starts rejecting what it
// accepted leaves fewer cases to compare with Jinja2, and no case fails.
// So each family of cases, named by a construct its template uses (filter
// truncate, statement for, ...) or by its kind (chat, profile), must keep
// an accepted share at or above the floor testdata/difffuzz/floors.json
// records for it, measured at make test's seed and N.

import (
	"bytes"
	"encoding/json"
	"flag"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/gen/internal/tmpl"
)

var fzRecordFloors = flag.Bool("difffuzz.floors", false, "record the accepted share of each difffuzz family, less a margin, in testdata/difffuzz/floors.json (make difffuzz-floors)")

var fzFloorsFile = filepath.Join("testdata", "difffuzz", "floors.json")

const (
	// fzFloorMinCases: a family of fewer cases gets no floor, its share
	// being too coarse.
	fzFloorMinCases = 20
	// fzFloorMargin is the least a floor lies below the measured share;
	// it is two standard errors of the share where that is more, so that
	// a generator change that redraws the cases seldom crosses it.
	fzFloorMargin = 0.03
)

// fzFamilyCount is how many cases of a family were generated and accepted.
type fzFamilyCount struct{ cases, accepted int }

// fzCountFamilies adds c, accepted or not, to the count of each family it
// belongs to.
func fzCountFamilies(counts map[string]*fzFamilyCount, c *fzCase, accepted bool) {
	for _, f := range fzCaseFamilies(c) {
		n := counts[f]
		if n == nil {
			n = &fzFamilyCount{}
			counts[f] = n
		}
		n.cases++
		if accepted {
			n.accepted++
		}
	}
}

// fzCaseFamilies names the families of c: its kind, and each construct its
// template uses, read from promptgen's parse of it.
func fzCaseFamilies(c *fzCase) []string {
	fams := map[string]bool{"case: any": true}
	switch {
	case c.chat:
		fams["case: chat"] = true
	case strings.HasSuffix(c.file, ".yaml"):
		fams["case: prompt file"] = true
	default:
		fams["case: plain template file"] = true
	}
	if c.options.Profile {
		fams["case: transformers profile"] = true
	}
	t, err := tmpl.Parse(c.template, tmpl.Options{TrimBlocks: c.options.TrimBlocks, LstripBlocks: c.options.LstripBlocks,
		KeepTrailingNewline: c.options.KeepTrailingNewline, Transformers: c.options.Profile})
	if err != nil {
		fams["template promptgen does not parse"] = true
	} else {
		fzNodeFamilies(fams, t.Body)
	}
	return slices.Sorted(maps.Keys(fams))
}

func fzNodeFamilies(fams map[string]bool, nodes []tmpl.Node) {
	var expr func(e tmpl.Expr)
	exprs := func(es ...tmpl.Expr) {
		for _, e := range es {
			if e != nil {
				expr(e)
			}
		}
	}
	kwargs := func(kws []tmpl.Kwarg) {
		for _, kw := range kws {
			fams["keyword arguments"] = true
			expr(kw.Value)
		}
	}
	expr = func(e tmpl.Expr) {
		switch e := e.(type) {
		case *tmpl.List:
			fams["list literal"] = true
			exprs(e.Items...)
		case *tmpl.Tuple:
			exprs(e.Items...)
		case *tmpl.Dict:
			fams["dict literal"] = true
			exprs(e.Keys...)
			exprs(e.Values...)
		case *tmpl.Attr:
			fams["attribute"] = true
			expr(e.X)
		case *tmpl.Index:
			fams["subscript"] = true
			exprs(e.X, e.Index)
		case *tmpl.Slice:
			fams["slice"] = true
			exprs(e.X, e.Lo, e.Hi, e.Step)
		case *tmpl.Unary:
			fams["operator unary "+e.Op] = true
			expr(e.X)
		case *tmpl.Binary:
			fams["operator "+e.Op] = true
			exprs(e.X, e.Y)
		case *tmpl.CondExpr:
			fams["conditional expression"] = true
			exprs(e.Then, e.Cond, e.Else)
		case *tmpl.Filter:
			fams["filter "+e.Name] = true
			exprs(e.X)
			exprs(e.Args...)
			kwargs(e.Kwargs)
		case *tmpl.Test:
			fams["test "+e.Name] = true
			exprs(e.X)
			exprs(e.Args...)
		case *tmpl.Call:
			switch fn := e.Fn.(type) {
			case *tmpl.Attr:
				fams["method "+fn.Name+"()"] = true
				expr(fn.X)
			case *tmpl.Name:
				fams["call "+fn.Name+"()"] = true
			default:
				expr(fn)
			}
			exprs(e.Args...)
			kwargs(e.Kwargs)
		}
	}
	for _, n := range nodes {
		switch n := n.(type) {
		case *tmpl.Output:
			expr(n.X)
		case *tmpl.If:
			fams["statement if"] = true
			if len(n.Branches) > 1 {
				fams["statement elif"] = true
			}
			for _, b := range n.Branches {
				expr(b.Cond)
				fzNodeFamilies(fams, b.Body)
			}
			fzNodeFamilies(fams, n.Else)
		case *tmpl.For:
			fams["statement for"] = true
			if n.Else != nil {
				fams["statement for-else"] = true
			}
			exprs(n.Iter, n.Filter)
			fzNodeFamilies(fams, n.Body)
			fzNodeFamilies(fams, n.Else)
		case *tmpl.Set:
			switch {
			case n.NS != nil:
				fams["statement set of a namespace attribute"] = true
			case n.Value == nil:
				fams["statement set block"] = true
			default:
				fams["statement set"] = true
			}
			exprs(n.Value)
			fzNodeFamilies(fams, n.Body)
		case *tmpl.LoopControl:
			fams["statement break or continue"] = true
		case *tmpl.Generation:
			fams["statement generation"] = true
			fzNodeFamilies(fams, n.Body)
		case *tmpl.FilterBlock:
			fams["statement filter"] = true
			expr(n.Filter)
			fzNodeFamilies(fams, n.Body)
		case *tmpl.Macro:
			fams["statement macro"] = true
			exprs(n.Defaults...)
			fzNodeFamilies(fams, n.Body)
		case *tmpl.Include:
			fams["statement include"] = true
		}
	}
}

// fzFloors is floors.json.
type fzFloors struct {
	How    string             `json:"how"`
	Floors map[string]float64 `json:"floors"`
}

const fzFloorsHow = "`make difffuzz-floors`: for each difffuzz family of at least 20 cases at make test's seed and N, " +
	"its accepted share less the larger of 0.03 and two standard errors, rounded down to a hundredth (gen/difffuzz_floor_test.go)"

// fzDefaultRun reports whether the fuzzer runs as make test runs it, the
// run floors.json is measured on.
func fzDefaultRun() bool {
	for _, name := range []string{"difffuzz.n", "difffuzz.seed", "difffuzz.case", "difffuzz.enable", "difffuzz.disable", "difffuzz.dynshare"} {
		f := flag.Lookup(name)
		if f.Value.String() != f.DefValue {
			return false
		}
	}
	return true
}

// checkFloors fails for each family whose accepted share is below its
// floor, or with -difffuzz.floors records the floors of this run.
func checkFloors(t *testing.T, counts map[string]*fzFamilyCount) {
	t.Helper()
	if !fzDefaultRun() {
		if *fzRecordFloors {
			t.Fatal("-difffuzz.floors records the floors of make test's run: leave the other difffuzz flags at their defaults")
		}
		t.Logf("difffuzz floors: not checked (they hold for make test's seed and N)")
		return
	}
	if *fzRecordFloors {
		floors := fzFloors{How: fzFloorsHow, Floors: map[string]float64{}}
		for f, n := range counts {
			if n.cases < fzFloorMinCases {
				continue
			}
			p := float64(n.accepted) / float64(n.cases)
			margin := max(fzFloorMargin, 2*math.Sqrt(p*(1-p)/float64(n.cases)))
			floors.Floors[f] = max(0, math.Floor((p-margin)*100)/100)
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(floors); err != nil {
			t.Fatal(err)
		}
		writeFile(t, fzFloorsFile, b.Bytes())
		return
	}
	var floors fzFloors
	if err := json.Unmarshal(readFile(t, fzFloorsFile), &floors); err != nil {
		t.Fatalf("%s: %v", fzFloorsFile, err)
	}
	below := 0
	for _, f := range slices.Sorted(maps.Keys(floors.Floors)) {
		n := counts[f]
		if n == nil {
			t.Errorf("difffuzz family %q: no case, want an accepted share of at least %.2f (%s)", f, floors.Floors[f], fzFloorsFile)
			below++
			continue
		}
		if share := float64(n.accepted) / float64(n.cases); share < floors.Floors[f] {
			t.Errorf("difffuzz family %q: %d of %d cases accepted (%.3f), below its floor %.2f (%s): promptgen rejects what it accepted (if the generator changed instead, record the floors again with make difffuzz-floors and review the diff)",
				f, n.accepted, n.cases, share, floors.Floors[f], fzFloorsFile)
			below++
		}
	}
	t.Logf("difffuzz floors: %d families, %d below their floor", len(floors.Floors), below)
}
