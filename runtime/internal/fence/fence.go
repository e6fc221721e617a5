// Package fence finds the fenced code blocks of markdown in LLM replies.
package fence

import (
	"iter"
	"strings"
)

// Block is a fenced code block: its info word ("json", "yaml" or "") and
// the span of its body.
type Block struct {
	Info       string
	Start, End int
}

// Has reports whether s may hold a fenced code block.
func Has(s string) bool {
	return strings.Contains(s, "```") || strings.Contains(s, "~~~")
}

// All yields the fenced code blocks of s in order. A fence is a run of
// three or more backticks or tildes anywhere in a line, so that one-line
// blocks ("```json {...}```") count too. The info word runs up to the first
// space or line break; the body ends at a run of at least as many of the same
// character, or at the end of s when the completion was cut short.
func All(s string) iter.Seq[Block] {
	return func(yield func(Block) bool) {
		next := finder{s: s, at: [2]int{-2, -2}}
		for i := 0; i < len(s); {
			open := next.fence(i)
			if open < 0 {
				return
			}
			c := s[open]
			n := runLength(s, open, c)
			i = open + n
			info := i
			for i < len(s) && !isFenceSpace(s[i]) && s[i] != c {
				i++
			}
			f := Block{Info: s[info:i], Start: i, End: len(s)}
			for j := i; j < len(s); {
				k := strings.IndexByte(s[j:], c)
				if k < 0 {
					break
				}
				j += k
				m := runLength(s, j, c)
				if m >= n {
					f.End, i = j, j+m
					break
				}
				j += m
			}
			if f.End == len(s) {
				i = len(s)
			}
			if !yield(f) {
				return
			}
		}
	}
}

// finder finds the runs of three backticks or tildes of s, remembering
// where the next of each is, so that finding them all scans s once.
type finder struct {
	s  string
	at [2]int // the next "```" and "~~~": -1 when there is none, -2 before the first search
}

// fence returns the offset of the next run of three backticks or tildes at
// or after i, or -1. Successive calls must not decrease i.
func (f *finder) fence(i int) int {
	first := -1
	for k, run := range [2]string{"```", "~~~"} {
		if f.at[k] == -2 || f.at[k] >= 0 && f.at[k] < i {
			f.at[k] = strings.Index(f.s[i:], run)
			if f.at[k] >= 0 {
				f.at[k] += i
			}
		}
		if f.at[k] >= 0 && (first < 0 || f.at[k] < first) {
			first = f.at[k]
		}
	}
	return first
}

func runLength(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

func isFenceSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
