package output

import (
	"strconv"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/runtime/internal/costtest"
)

// repeat returns inputs of n bytes made of unit.
func repeat(unit string) func(n int) string {
	return func(n int) string { return strings.Repeat(unit, n/len(unit)) }
}

// TestCostOfExtraction checks that finding the JSON of a completion costs
// time in proportion to its length, whatever it holds: many fences, or
// many starts of values that lead nowhere.
func TestCostOfExtraction(t *testing.T) {
	for _, unit := range []string{"```\n", "```json\n", "~~~\n", "```x``` ", "```json {```", "```json\n[\n```\n", "{", "[", `{"a":`, "{x} ", "[1,"} {
		costtest.Linear(t, "Parse of "+strconv.Quote(unit)+"...", MaxCompletion/8, repeat(unit), func(s string) {
			Parse[summary](s, nil)
		})
	}
}
