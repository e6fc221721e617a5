package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/gen"
)

// The crash tests run this test binary again as a child that writes (or
// repairs) an output directory and exits at its n-th change to the disk,
// with no deferred cleanup, as a killed process would.
const (
	envCrashDir = "PROMPTGEN_TEST_CRASH_DIR"
	envCrashAt  = "PROMPTGEN_TEST_CRASH_AT"
	envCrashOp  = "PROMPTGEN_TEST_CRASH_OP" // "write" or "repair"
	crashExit   = 3
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(envCrashDir); dir != "" {
		os.Exit(crashChild(dir, os.Getenv(envCrashOp), os.Getenv(envCrashAt)))
	}
	// generate's stamps go to a cache of the tests' own; the go commands
	// the tests run keep the build cache they had (it is under the same
	// user cache directory by default).
	if os.Getenv("GOCACHE") == "" {
		gocache, err := exec.Command("go", "env", "GOCACHE").Output()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	}
	cache, err := os.MkdirTemp("", "promptgen-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	code := m.Run()
	os.RemoveAll(cache)
	os.Exit(code)
}

func crashChild(dir, op, at string) int {
	n, err := strconv.Atoi(at)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	afterChange = func() {
		if n--; n == 0 {
			os.Exit(crashExit)
		}
	}
	if op == "repair" {
		_, err = repairOut(dir)
	} else {
		_, err = writeFiles(dir, crashNew)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// The crash scenario: a_prompt.go and c_prompt.go change (c has mode
// 0600), b_prompt.go does not, d_prompt.go is new, stale_prompt.go goes
// and user.go stays.
var (
	crashOld = map[string]string{
		"a_prompt.go":     genHeader + "\n// old a\n",
		"b_prompt.go":     genHeader + "\n// b\n",
		"c_prompt.go":     genHeader + "\n// old c\n",
		"stale_prompt.go": genHeader + "\n// stale\n",
		"user.go":         "package generated\n",
	}
	crashNew = []gen.File{
		{Name: "a_prompt.go", Content: []byte(genHeader + "\n// new a\n")},
		{Name: "b_prompt.go", Content: []byte(genHeader + "\n// b\n")},
		{Name: "c_prompt.go", Content: []byte(genHeader + "\n// new c\n")},
		{Name: "d_prompt.go", Content: []byte(genHeader + "\n// d\n")},
	}
	crashNewTree = map[string]string{
		"a_prompt.go": genHeader + "\n// new a\n",
		"b_prompt.go": genHeader + "\n// b\n",
		"c_prompt.go": genHeader + "\n// new c\n",
		"d_prompt.go": genHeader + "\n// d\n",
		"user.go":     "package generated\n",
	}
)

// crashOutDir returns a new output directory in the crash scenario's old
// state.
func crashOutDir(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "generated")
	writeTree(t, out, crashOld)
	if err := os.Chmod(filepath.Join(out, "c_prompt.go"), 0o600); err != nil {
		t.Fatal(err)
	}
	return out
}

// countChanges returns the changes to the disk that op makes in dir.
func countChanges(t *testing.T, op func() error) int {
	t.Helper()
	n := 0
	afterChange = func() { n++ }
	defer func() { afterChange = func() {} }()
	if err := op(); err != nil {
		t.Fatal(err)
	}
	return n
}

// crash runs op in a child on out, killing it at its n-th change.
func crash(t *testing.T, out, op string, n int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envCrashDir+"="+out, envCrashOp+"="+op, envCrashAt+"="+strconv.Itoa(n))
	outErr, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != crashExit {
		t.Fatalf("%s crashing at change %d: %v, output %q", op, n, err, outErr)
	}
}

// checkState checks that out holds exactly want (hidden files included, so
// nothing is left over), and that c_prompt.go kept its mode.
func checkState(t *testing.T, out string, want map[string]string) {
	t.Helper()
	sameTree(t, readTree(t, out), want)
	info, err := os.Stat(filepath.Join(out, "c_prompt.go"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("c_prompt.go has mode %v, want 0600", info.Mode().Perm())
	}
}

// TestWriteFilesKilled kills a write at each of its changes to the disk,
// then checks that the next run's repairOut leaves exactly the old files
// (killed before the commit) or exactly the new ones (after it), even when
// it is killed itself at any point on the way, and that diff refuses a
// half-written directory.
func TestWriteFilesKilled(t *testing.T) {
	out := crashOutDir(t)
	changes := countChanges(t, func() error { _, err := writeFiles(out, crashNew); return err })
	checkState(t, out, crashNewTree)
	// Staging writes new a, old a, new c, old c, new d and the journal;
	// the 7th change is the commit.
	const commit = 7
	if changes != 13 {
		t.Fatalf("a write makes %d changes, want 13", changes)
	}
	for n := 1; n <= changes; n++ {
		t.Run(fmt.Sprintf("killed at change %d", n), func(t *testing.T) {
			out := crashOutDir(t)
			crash(t, out, "write", n)
			want := crashOld
			if n >= commit {
				want = crashNewTree
			}
			j, err := pending(out)
			if err != nil || (j != nil) != (n >= commit && n < changes-1) {
				t.Errorf("pending = %v, %v", j, err)
			}
			if j != nil {
				repairs := countChanges(t, func() error { _, err := repairOut(crashOutDirAfter(t, n)); return err })
				for m := 1; m <= repairs; m++ {
					out := crashOutDirAfter(t, n)
					crash(t, out, "repair", m)
					if _, err := repairOut(out); err != nil {
						t.Fatalf("repair killed at change %d, then repaired: %v", m, err)
					}
					checkState(t, out, want)
				}
			}
			r, err := repairOut(out)
			if err != nil {
				t.Fatal(err)
			}
			// Once the journal is gone, what is left is no news.
			if got := r.String(); (got == "") != (n >= changes-1) {
				t.Errorf("repair %q", got)
			}
			checkState(t, out, want)
			if _, err := writeFiles(out, crashNew); err != nil {
				t.Fatal(err)
			}
			checkState(t, out, crashNewTree)
		})
	}
}

// crashOutDirAfter returns a new output directory in the state a write
// killed at its n-th change leaves.
func crashOutDirAfter(t *testing.T, n int) string {
	t.Helper()
	out := crashOutDir(t)
	crash(t, out, "write", n)
	return out
}

// A rename that fails while applying a write undoes the renames before it.
func TestWriteFilesRenameFailureUndoes(t *testing.T) {
	out := crashOutDir(t)
	n := 0
	afterChange = func() {
		if n++; n == 7 { // committed: now c_prompt.go cannot be replaced
			os.Remove(filepath.Join(out, "c_prompt.go"))
			writeTree(t, out, map[string]string{"c_prompt.go/in_the_way": ""})
		}
	}
	defer func() { afterChange = func() {} }()
	_, err := writeFiles(out, crashNew)
	if err == nil || !strings.Contains(err.Error(), "c_prompt.go") {
		t.Fatalf("err = %v, want an error naming c_prompt.go", err)
	}
	want := map[string]string{}
	for name, content := range crashOld {
		want[name] = content
	}
	delete(want, "c_prompt.go")
	want["c_prompt.go/in_the_way"] = ""
	sameTree(t, readTree(t, out), want)
}

// The staged files are spread over one subdirectory of new/ and old/ per
// CPU, by their place in the journal, and the old ones are the replaced
// files themselves, linked.
func TestWriteFilesShards(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	out := crashOutDir(t)
	before, err := os.Stat(filepath.Join(out, "c_prompt.go"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	var staged map[string]string
	afterChange = func() {
		if n++; n == 7 { // committed
			staged = readTree(t, filepath.Join(out, commitDir))
			if old, err := os.Stat(filepath.Join(out, commitDir, "old/1/c_prompt.go")); err != nil || !os.SameFile(old, before) {
				t.Errorf("old/1/c_prompt.go is not c_prompt.go linked (%v)", err)
			}
		}
	}
	defer func() { afterChange = func() {} }()
	if _, err := writeFiles(out, crashNew); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"new/0/a_prompt.go": crashNewTree["a_prompt.go"],
		"old/0/a_prompt.go": crashOld["a_prompt.go"],
		"new/1/c_prompt.go": crashNewTree["c_prompt.go"],
		"old/1/c_prompt.go": crashOld["c_prompt.go"],
		"new/0/d_prompt.go": crashNewTree["d_prompt.go"],
		journalFile:         staged[journalFile],
	}
	sameTree(t, staged, want)
	if !strings.Contains(staged[journalFile], `"shards": 2`) {
		t.Errorf("journal %s, want 2 shards", staged[journalFile])
	}
	checkState(t, out, crashNewTree)
}

func TestRepairOut(t *testing.T) {
	t.Run("nothing to repair", func(t *testing.T) {
		for _, out := range []string{filepath.Join(t.TempDir(), "missing"), crashOutDir(t)} {
			if r, err := repairOut(out); err != nil || r.String() != "" {
				t.Errorf("%s: %q, %v", out, r, err)
			}
		}
	})
	t.Run("finished commit directory", func(t *testing.T) {
		out := crashOutDir(t)
		writeTree(t, out, map[string]string{commitDir + "/old/a_prompt.go": "x"})
		if r, err := repairOut(out); err != nil || r.String() != "" {
			t.Errorf("%q, %v", r, err)
		}
		sameTree(t, readTree(t, out), crashOld)
	})
	t.Run("temporary files of older versions", func(t *testing.T) {
		out := crashOutDir(t)
		writeTree(t, out, map[string]string{
			".a_prompt.go.tmp123": genHeader + "\n// new a\n",
			".x.go.tmp4":          "not ours",
			".notes":              genHeader + "\n",
		})
		r, err := repairOut(out)
		if err != nil || r.String() != "deleted 1 leftover temporary file" {
			t.Errorf("%q, %v", r, err)
		}
		want := map[string]string{".x.go.tmp4": "not ours", ".notes": genHeader + "\n"}
		for name, content := range crashOld {
			want[name] = content
		}
		sameTree(t, readTree(t, out), want)
	})
	t.Run("journal before shards", func(t *testing.T) {
		out := crashOutDir(t)
		writeTree(t, out, map[string]string{
			commitDir + "/" + journalFile:  `{"write": ["a_prompt.go", "d_prompt.go"], "created": ["d_prompt.go"], "remove": []}`,
			commitDir + "/new/a_prompt.go": crashNewTree["a_prompt.go"],
			commitDir + "/old/a_prompt.go": crashOld["a_prompt.go"],
			commitDir + "/new/d_prompt.go": crashNewTree["d_prompt.go"],
		})
		if r, err := repairOut(out); err != nil || r.String() != "finished the interrupted write of 2 files" {
			t.Fatalf("%q, %v", r, err)
		}
		want := map[string]string{}
		for name, content := range crashOld {
			want[name] = content
		}
		want["a_prompt.go"], want["d_prompt.go"] = crashNewTree["a_prompt.go"], crashNewTree["d_prompt.go"]
		sameTree(t, readTree(t, out), want)
	})
	t.Run("bad journal", func(t *testing.T) {
		for journal, want := range map[string]string{
			`{"write": ["../x.go"]}`:                   `invalid file name "../x.go"`,
			`{"write": [`:                              "unexpected end of JSON input",
			`{"write": ["a_prompt.go"], "shards": -1}`: "invalid shards -1",
		} {
			out := crashOutDir(t)
			writeTree(t, out, map[string]string{commitDir + "/" + journalFile: journal})
			if _, err := repairOut(out); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: err = %v, want %q", journal, err, want)
			}
		}
	})
	t.Run("links are not followed", func(t *testing.T) {
		for _, name := range []string{stagingDir, commitDir} {
			out := crashOutDir(t)
			elsewhere := t.TempDir()
			writeTree(t, elsewhere, map[string]string{journalFile: `{"write": ["a_prompt.go"]}`, "new/a_prompt.go": "evil"})
			if err := os.Symlink(elsewhere, filepath.Join(out, name)); err != nil {
				t.Skipf("no symbolic links: %v", err)
			}
			if _, err := repairOut(out); err == nil || err.Error() != filepath.Join(out, name)+": symbolic link (promptgen follows no links)" {
				t.Errorf("%s: err = %v", name, err)
			}
			if _, err := os.Stat(filepath.Join(elsewhere, "new/a_prompt.go")); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			if b, _ := os.ReadFile(filepath.Join(out, "a_prompt.go")); string(b) != crashOld["a_prompt.go"] {
				t.Errorf("%s: a_prompt.go = %q", name, b)
			}
		}
	})
}

// generate repairs the output directory before anything else, even when
// generating fails; diff refuses to compare a half-written one.
func TestGenerateRepairsFirst(t *testing.T) {
	out := crashOutDirAfter(t, 9) // a, c and d renamed; stale_prompt.go not yet deleted
	before := readTree(t, out)
	failing := func(context.Context, gen.Config) (*gen.Result, error) {
		ds := gen.Diagnostics{{Pos: gen.Pos{File: "prompts/a.yaml", Line: 1, Col: 1}, Msg: "bad"}}
		return &gen.Result{Diagnostics: ds}, ds
	}
	code, stdout, stderr := runFake(failing, "diff", "-out", out)
	want := "promptgen: diff: " + out + " holds the unfinished write of an interrupted generate (run promptgen generate to finish it)\n"
	if code != exitFail || stdout != "" || stderr != "prompts/a.yaml:1:1: bad\n" {
		t.Errorf("diff with diagnostics: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = runFake(func(context.Context, gen.Config) (*gen.Result, error) {
		return &gen.Result{Files: crashNew}, nil
	}, "diff", "-out", out)
	if code != exitFail || stdout != "" || stderr != want {
		t.Errorf("diff: exit %d, stdout %q, stderr %q, want %q", code, stdout, stderr, want)
	}
	sameTree(t, readTree(t, out), before)

	code, _, stderr = runFake(failing, "generate", "-out", out)
	want = "promptgen: " + out + ": finished the interrupted write of 4 files\nprompts/a.yaml:1:1: bad\n"
	if code != exitFail || stderr != want {
		t.Errorf("generate: exit %d, stderr %q, want %q", code, stderr, want)
	}
	checkState(t, out, crashNewTree)
}
