// Package suggest finds the name a misspelt one was meant to be, for the
// did-you-mean hints of promptgen's messages: the generator's diagnostics
// (through schema.DidYouMean) and the run-time errors of runtime/params
// follow this one rule. It depends on the standard library only.
package suggest

import (
	"fmt"
	"strings"
)

// DidYouMean returns ` (did you mean "x"?)` for the candidate closest to
// name, or "" when none is close enough to be a likely typo.
func DidYouMean(name string, candidates []string) string {
	best, bestDist := "", 0
	for _, c := range candidates {
		d := EditDistance(strings.ToLower(name), strings.ToLower(c))
		if best == "" || d < bestDist || d == bestDist && c < best {
			best, bestDist = c, d
		}
	}
	if best == "" || bestDist > max(1, len(name)/3) {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// EditDistance is the optimal string alignment distance between a and b,
// in bytes: the fewest insertions, deletions, substitutions and swaps of
// two adjacent bytes that turn a into b, no part being edited twice
// (restricted Damerau–Levenshtein). Counting a swap as one edit makes
// "modle" one typo away from "model", as a reader sees it.
func EditDistance(a, b string) int {
	// Three rows of the table: i-2, i-1 and i.
	before := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], before[j-2]+1)
			}
		}
		before, prev, cur = prev, cur, before
	}
	return prev[len(b)]
}
