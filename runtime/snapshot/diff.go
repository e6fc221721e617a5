package snapshot

import (
	"fmt"
	"strings"
)

// diffContext is the number of unchanged lines shown around each change.
const diffContext = 3

// opKind is one step of an edit script.
type opKind uint8

const (
	opEqual opKind = iota
	opDelete
	opInsert
)

// edit is one line of an edit script: an equal line is a[A] == b[B], a
// deleted line is a[A], an inserted line is b[B]. A and B are always the
// positions in a and b before the step.
type edit struct {
	kind opKind
	A, B int
}

// splitLines splits s into lines, each keeping its "\n"; the last line has
// none when s doesn't end in a newline.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// Diff returns a unified diff of old and new, with 3 lines of context,
// labelled oldName and newName (as in "--- oldName"); "" when they are
// equal. A last line without a newline is marked as diff marks it.
func Diff(oldName, newName, old, new string) string {
	if old == new {
		return ""
	}
	a, b := splitLines(old), splitLines(new)
	script := diffLines(a, b)

	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", oldName, newName)
	for _, h := range hunks(script) {
		first, last := script[h[0]], script[h[1]-1]
		aEnd, bEnd := last.A, last.B
		switch last.kind {
		case opEqual:
			aEnd++
			bEnd++
		case opDelete:
			aEnd++
		case opInsert:
			bEnd++
		}
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(first.A, aEnd), hunkRange(first.B, bEnd))
		for _, e := range script[h[0]:h[1]] {
			var prefix byte
			var line string
			switch e.kind {
			case opEqual:
				prefix, line = ' ', a[e.A]
			case opDelete:
				prefix, line = '-', a[e.A]
			case opInsert:
				prefix, line = '+', b[e.B]
			}
			sb.WriteByte(prefix)
			sb.WriteString(line)
			if !strings.HasSuffix(line, "\n") {
				sb.WriteString("\n\\ No newline at end of file\n")
			}
		}
	}
	return sb.String()
}

// hunkRange formats the lines [start, end) (0-based) as a unified diff
// range: "l,n", "l" when n is 1, and for an empty range the line before it.
func hunkRange(start, end int) string {
	switch n := end - start; n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	default:
		return fmt.Sprintf("%d,%d", start+1, n)
	}
}

// hunks groups the changes of script into hunks, each a half-open range of
// script indexes with up to diffContext equal lines on either side. Changes
// separated by at most 2*diffContext equal lines share a hunk.
func hunks(script []edit) [][2]int {
	var out [][2]int
	for i := 0; i < len(script); {
		if script[i].kind == opEqual {
			i++
			continue
		}
		start := max(0, i-diffContext)
		if n := len(out); n > 0 && start <= out[n-1][1] {
			start = out[n-1][0]
			out = out[:n-1]
		}
		end := i
		for end < len(script) && script[end].kind != opEqual {
			end++
		}
		i = end
		out = append(out, [2]int{start, min(len(script), end+diffContext)})
	}
	return out
}

// diffLines returns a minimal edit script turning a into b; within a run
// of changes, deletions come before insertions. It strips the common
// prefix and suffix and the lines found on one side only, and runs Myers'
// O(ND) algorithm on the rest.
func diffLines(a, b []string) []edit {
	// Compare small integers instead of strings.
	ids := map[string]int{}
	intern := func(lines []string) []int {
		out := make([]int, len(lines))
		for i, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = len(ids)
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	x, y := intern(a), intern(b)

	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}

	// A line that occurs on one side only is always a change; leaving it
	// out keeps D, and with it Myers' time and memory, small when most
	// lines were rewritten.
	inA, inB := make([]bool, len(ids)), make([]bool, len(ids))
	for _, id := range x[pre : len(x)-suf] {
		inA[id] = true
	}
	for _, id := range y[pre : len(y)-suf] {
		inB[id] = true
	}
	var xs, ys, xi, yi []int // kept ids and their indexes in x and y
	for i := pre; i < len(x)-suf; i++ {
		if inB[x[i]] {
			xs, xi = append(xs, x[i]), append(xi, i)
		}
	}
	for j := pre; j < len(y)-suf; j++ {
		if inA[y[j]] {
			ys, yi = append(ys, y[j]), append(yi, j)
		}
	}

	var script []edit
	i, j := 0, 0 // next line of a and b
	match := func(mi, mj int) {
		for ; i < mi; i++ {
			script = append(script, edit{opDelete, i, j})
		}
		for ; j < mj; j++ {
			script = append(script, edit{opInsert, i, j})
		}
		script = append(script, edit{opEqual, i, j})
		i, j = i+1, j+1
	}
	for k := 0; k < pre; k++ {
		match(k, k)
	}
	for _, e := range myers(xs, ys) {
		if e.kind == opEqual {
			match(xi[e.A], yi[e.B])
		}
	}
	for k := suf; k > 0; k-- {
		match(len(x)-k, len(y)-k)
	}
	for ; i < len(x); i++ {
		script = append(script, edit{opDelete, i, j})
	}
	for ; j < len(y); j++ {
		script = append(script, edit{opInsert, i, j})
	}
	return script
}

// myers returns a shortest edit script from a to b.
func myers(a, b []int) []edit {
	n, m := len(a), len(b)
	if n == 0 && m == 0 {
		return nil
	}
	// v[off+k] is the furthest x reached on diagonal k = x-y. trace[d]
	// saves v[off-d-1 .. off+d+1] as it was before round d.
	off := n + m + 1
	v := make([]int, 2*off+1)
	var trace [][]int
	var last int
	for d := 0; d <= n+m; d++ {
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		found := false
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: insert b[y-1]
			} else {
				x = v[off+k-1] + 1 // right: delete a[x-1]
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = true
				break
			}
		}
		if found {
			last = d
			break
		}
	}

	// Walk back from (n, m) to (0, 0), collecting edits in reverse.
	var rev []edit
	x, y := n, m
	for d := last; d >= 0; d-- {
		saved := trace[d]
		at := func(k int) int { return saved[k+d+1] }
		k := x - y
		var prevK int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := at(prevK)
		prevY := prevX - prevK
		if d == 0 {
			prevX, prevY = 0, 0
		}
		for x > prevX && y > prevY {
			x--
			y--
			rev = append(rev, edit{opEqual, x, y})
		}
		if d > 0 {
			if x == prevX {
				y--
				rev = append(rev, edit{opInsert, x, y})
			} else {
				x--
				rev = append(rev, edit{opDelete, x, y})
			}
		}
	}
	out := make([]edit, len(rev))
	for i, e := range rev {
		out[len(rev)-1-i] = e
	}
	return out
}
