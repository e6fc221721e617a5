package snapshot

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	ten := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"
	tests := []struct {
		name             string
		oldName, newName string
		old, new         string
		want             string
	}{
		{
			name: "identical",
			old:  "a\nb\n", new: "a\nb\n",
			want: "",
		},
		{
			name: "both empty",
			want: "",
		},
		{
			name: "insert",
			old:  "a\nb\nc\n", new: "a\nb\nX\nc\n",
			want: `--- a/x.go
+++ b/x.go
@@ -1,3 +1,4 @@
 a
 b
+X
 c
`,
		},
		{
			name: "insert at start",
			old:  ten, new: "0\n" + ten,
			want: `--- a/x.go
+++ b/x.go
@@ -1,3 +1,4 @@
+0
 1
 2
 3
`,
		},
		{
			name: "delete",
			old:  "a\nb\nc\n", new: "a\nc\n",
			want: `--- a/x.go
+++ b/x.go
@@ -1,3 +1,2 @@
 a
-b
 c
`,
		},
		{
			name: "change with context trimmed",
			old:  ten, new: strings.Replace(ten, "5\n", "five\n", 1),
			want: `--- a/x.go
+++ b/x.go
@@ -2,7 +2,7 @@
 2
 3
 4
-5
+five
 6
 7
 8
`,
		},
		{
			name: "changes close together share a hunk",
			old:  ten, new: strings.NewReplacer("2\n", "two\n", "8\n", "eight\n").Replace(ten),
			want: `--- a/x.go
+++ b/x.go
@@ -1,10 +1,10 @@
 1
-2
+two
 3
 4
 5
 6
 7
-8
+eight
 9
 10
`,
		},
		{
			name: "changes far apart get separate hunks",
			old:  ten + "11\n12\n", new: "one\n" + ten[2:] + "11\ntwelve\n",
			want: `--- a/x.go
+++ b/x.go
@@ -1,4 +1,4 @@
-1
+one
 2
 3
 4
@@ -9,4 +9,4 @@
 9
 10
 11
-12
+twelve
`,
		},
		{
			name: "deletions before insertions",
			old:  "a\nb\nc\nd\n", new: "a\nX\nY\nd\n",
			want: `--- a/x.go
+++ b/x.go
@@ -1,4 +1,4 @@
 a
-b
-c
+X
+Y
 d
`,
		},
		{
			name:    "file added",
			oldName: "/dev/null",
			old:     "", new: "a\nb\n",
			want: `--- /dev/null
+++ b/x.go
@@ -0,0 +1,2 @@
+a
+b
`,
		},
		{
			name:    "file removed",
			newName: "/dev/null",
			old:     "a\nb\n", new: "",
			want: `--- a/x.go
+++ /dev/null
@@ -1,2 +0,0 @@
-a
-b
`,
		},
		{
			name: "trailing newline added",
			old:  "a\nb", new: "a\nb\n",
			want: `--- a/x.go
+++ b/x.go
@@ -1,2 +1,2 @@
 a
-b
\ No newline at end of file
+b
`,
		},
		{
			name: "no trailing newline on either side",
			old:  "a\nb\nc", new: "a\nb\nd",
			want: `--- a/x.go
+++ b/x.go
@@ -1,3 +1,3 @@
 a
 b
-c
\ No newline at end of file
+d
\ No newline at end of file
`,
		},
		{
			name: "unchanged last line without newline",
			old:  "a\nb\nc", new: "X\nb\nc",
			want: `--- a/x.go
+++ b/x.go
@@ -1,3 +1,3 @@
-a
+X
 b
 c
\ No newline at end of file
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oldName, newName := "a/x.go", "b/x.go"
			if tt.oldName != "" {
				oldName = tt.oldName
			}
			if tt.newName != "" {
				newName = tt.newName
			}
			var sb strings.Builder
			sb.WriteString(Diff(oldName, newName, tt.old, tt.new))
			if got := sb.String(); got != tt.want {
				t.Errorf("Diff:\ngot:\n%s\nwant:\n%s", got, tt.want)
			}
			if tt.want != "" {
				if got, err := applyDiff(tt.old, sb.String()); err != nil || got != tt.new {
					t.Errorf("applying the diff: got %q, %v; want %q", got, err, tt.new)
				}
			}
		})
	}
}

// TestUnifiedDiffRandom checks on random inputs that the diff turns old
// into new and that the edit script is minimal (compared with an LCS).
func TestUnifiedDiffRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := 4
	gen := func() string {
		var sb strings.Builder
		for n := r.IntN(25); n > 0; n-- {
			sb.WriteString(string(rune('a' + r.IntN(alphabet))))
			sb.WriteByte('\n')
		}
		if r.IntN(4) == 0 {
			sb.WriteString("z")
		}
		return sb.String()
	}
	for i := range 3000 {
		alphabet = 2 + i%12
		old, new := gen(), gen()
		var sb strings.Builder
		sb.WriteString(Diff("a/x", "b/x", old, new))
		if (old == new) != (sb.Len() == 0) {
			t.Fatalf("case %d: old %q new %q: diff %q", i, old, new, sb.String())
		}
		got, err := old, error(nil)
		if sb.Len() > 0 {
			got, err = applyDiff(old, sb.String())
		}
		if err != nil || got != new {
			t.Fatalf("case %d: old %q new %q\ndiff:\n%s\napplied: %q, %v", i, old, new, sb.String(), got, err)
		}
		a, b := splitLines(old), splitLines(new)
		changes := 0
		for _, e := range diffLines(a, b) {
			if e.kind != opEqual {
				changes++
			}
		}
		if want := len(a) + len(b) - 2*lcs(a, b); changes != want {
			t.Fatalf("case %d: old %q new %q: %d changes, want %d", i, old, new, changes, want)
		}
	}
}

// TestUnifiedDiffRewrite checks that a complete rewrite of a large file is
// quick and correct: lines found on one side only never reach Myers.
func TestUnifiedDiffRewrite(t *testing.T) {
	var old, new strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&old, "old line %d\n", i)
		fmt.Fprintf(&new, "new line %d\n", i)
		if i%1000 == 0 {
			old.WriteString("}\n")
			new.WriteString("}\n")
		}
	}
	diff := Diff("a/x", "b/x", old.String(), new.String())
	if got, err := applyDiff(old.String(), diff); err != nil || got != new.String() {
		t.Fatalf("applying the diff: %v", err)
	}
}

func lcs(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$`)

// applyDiff applies a unified diff of one file to old, checking every
// context and deleted line and every hunk's line counts.
func applyDiff(old, diff string) (string, error) {
	src := splitLines(old)
	lines := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		return "", fmt.Errorf("missing file header")
	}
	var out []string
	pos := 0 // next line of src to copy
	num := func(s string, def int) int {
		if s == "" {
			return def
		}
		n, _ := strconv.Atoi(s)
		return n
	}
	i := 2
	for i < len(lines) {
		m := hunkHeader.FindStringSubmatch(lines[i])
		if m == nil {
			return "", fmt.Errorf("line %d: want hunk header, got %q", i+1, lines[i])
		}
		i++
		aStart, aLen, bStart, bLen := num(m[1], 0), num(m[2], 1), num(m[3], 0), num(m[4], 1)
		from := aStart - 1
		if aLen == 0 {
			from = aStart
		}
		if from < pos {
			return "", fmt.Errorf("hunk at line %d overlaps the previous one", aStart)
		}
		out = append(out, src[pos:from]...)
		pos = from
		if wantB := len(out) + 1; bLen > 0 && bStart != wantB || bLen == 0 && bStart != len(out) {
			return "", fmt.Errorf("hunk %q: new start should be %d", lines[i-1], wantB)
		}
		var gotA, gotB int
		for i < len(lines) && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			i++
			text := l[1:] + "\n"
			if i < len(lines) && lines[i] == `\ No newline at end of file` {
				text = l[1:]
				i++
			}
			switch l[0] {
			case ' ', '-':
				if pos >= len(src) || src[pos] != text {
					return "", fmt.Errorf("line %d of old: want %q", pos+1, text)
				}
				pos++
				gotA++
				if l[0] == ' ' {
					out = append(out, text)
					gotB++
				}
			case '+':
				out = append(out, text)
				gotB++
			default:
				return "", fmt.Errorf("bad diff line %q", l)
			}
		}
		if gotA != aLen || gotB != bLen {
			return "", fmt.Errorf("hunk %q has %d old and %d new lines", m[0], gotA, gotB)
		}
	}
	out = append(out, src[pos:]...)
	return strings.Join(out, ""), nil
}
