package difffuzz

import (
	"flag"
	"testing"
)

var (
	flagN        = flag.Int("difffuzz.n", Defaults.N, "number of differential fuzzer cases")
	flagSeed     = flag.Uint64("difffuzz.seed", Defaults.Seed, "differential fuzzer seed")
	flagBatch    = flag.Int("difffuzz.batch", Defaults.Batch, "differential fuzzer cases compiled into one module")
	flagEnable   = flag.String("difffuzz.enable", "", "comma-separated excluded families to generate anyway")
	flagDisable  = flag.String("difffuzz.disable", "", "comma-separated families not to generate")
	flagDump     = flag.String("difffuzz.dump", "", "directory to write each failing case and an example of each rejection to")
	flagCase     = flag.Int("difffuzz.case", Defaults.Case, "run only this case of the seed")
	flagDynShare = flag.Float64("difffuzz.dynshare", Defaults.DynShare, "share of the cases that are chat cases (family dynamic)")
	flagFloors   = flag.Bool("difffuzz.floors", false, "record the accepted share of each difffuzz family, less a margin, in testdata/floors.json (make difffuzz-floors)")
)

// TestDiffFuzz runs the differential fuzzer with the -difffuzz flags: make
// test with their defaults, make difffuzz and make difffuzz-floors with
// theirs.
func TestDiffFuzz(t *testing.T) {
	Run(t, Options{N: *flagN, Seed: *flagSeed, Batch: *flagBatch, Case: *flagCase, Enable: *flagEnable, Disable: *flagDisable,
		DynShare: *flagDynShare, Dump: *flagDump, RecordFloors: *flagFloors})
}
