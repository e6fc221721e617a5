package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer that watch writes to from its goroutine
// while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor waits until the output after offset from contains want, and
// returns the offset after it.
func waitFor(t *testing.T, out *lockedBuffer, from int, want string) int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		s := out.String()
		if i := strings.Index(s[from:], want); i >= 0 {
			return from + i + len(want)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("waited 30s for %q; output after offset %d:\n%s", want, from, out.String()[from:])
	return 0
}

func readTestFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// replaceFile writes content to path in one step, as editors save: a
// hidden temporary file (which watch ignores) renamed into place, so that
// watch never sees the file half written, however slow the machine.
func replaceFile(t *testing.T, path, content string) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	writeTestFile(t, tmp, content)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// startWatch runs watch -in prompts -out out in the working directory
// until the test ends, and returns its stderr; the first build must write
// files.
func startWatch(t *testing.T, files int) *lockedBuffer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"watch", "-in", "prompts", "-out", "out"}, strings.NewReader(""), &stdout, &stderr)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != exitOK {
				t.Errorf("exit code %d after cancelling, want 0\n%s", code, stderr.String())
			}
		case <-time.After(10 * time.Second):
			t.Error("watch did not stop after cancelling")
		}
		if stdout.String() != "" {
			t.Errorf("stdout = %q, want nothing", stdout.String())
		}
	})
	waitFor(t, &stderr, 0, fmt.Sprintf("promptgen: wrote %d files to out\n", files))
	return &stderr
}

// TestWatch runs watch on a temporary tree and changes it with real file
// events: an edit, an error and its fix, a new directory; each rebuild
// prints its diagnostics and a summary and writes only what changed, and
// cancelling (Ctrl-C) ends watch with status 0. Each step waits for the
// line of its own rebuild, whatever the time between the steps.
func TestWatch(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "prompts"), filepath.Join(dir, "out")
	writeTestFile(t, filepath.Join(in, "greet.yaml"), "template: 'Hello {{ name }}'\n")
	writeTestFile(t, filepath.Join(in, "bye.yaml"), "template: 'Bye {{ name }}'\n")
	// The -in flag as the user wrote it names the files in messages.
	t.Chdir(dir)
	stderr := startWatch(t, 3)
	at := len(stderr.String())
	greet := filepath.Join(out, "greet_prompt.go")
	byeInfo, err := os.Stat(filepath.Join(out, "bye_prompt.go"))
	if err != nil {
		t.Fatal(err)
	}

	// An edit rebuilds and rewrites the one file that changed.
	replaceFile(t, filepath.Join(in, "greet.yaml"), "template: 'Good morning {{ name }}'\n")
	at = waitFor(t, stderr, at, "promptgen: prompts/greet.yaml changed: wrote 1 file to out (2 unchanged)\n")
	if !strings.Contains(readTestFile(t, greet), "Good morning ") {
		t.Errorf("%s was not regenerated", greet)
	}
	if info, err := os.Stat(filepath.Join(out, "bye_prompt.go")); err != nil || !info.ModTime().Equal(byeInfo.ModTime()) {
		t.Errorf("bye_prompt.go was rewritten (%v)", err)
	}

	// An error is printed as it appears, and out stays as it was.
	before := readTestFile(t, greet)
	replaceFile(t, filepath.Join(in, "greet.yaml"), "template: 'Hi {{ name }'\n")
	at = waitFor(t, stderr, at, "prompts/greet.yaml:1:")
	at = waitFor(t, stderr, at, "promptgen: prompts/greet.yaml changed: 1 error; out left as it was\n")
	if got := readTestFile(t, greet); got != before {
		t.Errorf("%s changed after an error", greet)
	}

	// The fix.
	replaceFile(t, filepath.Join(in, "greet.yaml"), "template: 'Hi {{ name }}'\n")
	at = waitFor(t, stderr, at, "promptgen: prompts/greet.yaml changed: wrote 1 file to out (2 unchanged)\n")

	// A new directory with a prompt: one rebuild or two (the directory,
	// then the file), as the events fall.
	writeTestFile(t, filepath.Join(in, "support", ".reply.yaml.tmp"), "template: 'Thanks, {{ name }}'\n")
	if err := os.Rename(filepath.Join(in, "support", ".reply.yaml.tmp"), filepath.Join(in, "support", "reply.yaml")); err != nil {
		t.Fatal(err)
	}
	at = waitFor(t, stderr, at, " changed: wrote 1 file to out (3 unchanged)\n")
	if !strings.Contains(readTestFile(t, filepath.Join(out, "support_reply_prompt.go")), "Thanks, ") {
		t.Error("support_reply_prompt.go was not generated")
	}
	// The new directory is watched too.
	replaceFile(t, filepath.Join(in, "support", "reply.yaml"), "template: 'Thank you, {{ name }}'\n")
	at = waitFor(t, stderr, at, "promptgen: prompts/support/reply.yaml changed: wrote 1 file to out (3 unchanged)\n")

	// A deleted prompt deletes its generated file.
	if err := os.Remove(filepath.Join(in, "bye.yaml")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, stderr, at, "promptgen: prompts/bye.yaml changed: removed 1 stale file from out (3 unchanged)\n")
	if _, err := os.Stat(filepath.Join(out, "bye_prompt.go")); !os.IsNotExist(err) {
		t.Errorf("bye_prompt.go still exists (%v)", err)
	}
}

// TestWatchDirComesBack: when -in is removed and made again, or moved away
// and back (as a branch switch does), watch says that it waits, then
// generates from the directory that came back and goes on watching it.
func TestWatchDirComesBack(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "prompts", "greet.yaml"), "template: 'Hello {{ name }}'\n")
	t.Chdir(dir)
	stderr := startWatch(t, 2)
	at := len(stderr.String())
	greet := filepath.Join("out", "greet_prompt.go")
	const waiting = "promptgen: prompts is gone; waiting for it to come back (out left as it was)\n"

	// Removed, then made again with a changed prompt.
	if err := os.RemoveAll("prompts"); err != nil {
		t.Fatal(err)
	}
	at = waitFor(t, stderr, at, waiting)
	writeTestFile(t, filepath.Join("prompts", ".greet.yaml.tmp"), "template: 'Good morning {{ name }}'\n")
	if err := os.Rename(filepath.Join("prompts", ".greet.yaml.tmp"), filepath.Join("prompts", "greet.yaml")); err != nil {
		t.Fatal(err)
	}
	at = waitFor(t, stderr, at, " changed: wrote 1 file to out (1 unchanged)\n")
	if !strings.Contains(readTestFile(t, greet), "Good morning ") {
		t.Errorf("%s was not regenerated from the new directory", greet)
	}
	replaceFile(t, filepath.Join("prompts", "greet.yaml"), "template: 'Good day {{ name }}'\n")
	at = waitFor(t, stderr, at, "promptgen: prompts/greet.yaml changed: wrote 1 file to out (1 unchanged)\n")

	// Moved away, changed there, and moved back.
	if err := os.Rename("prompts", "prompts.away"); err != nil {
		t.Fatal(err)
	}
	at = waitFor(t, stderr, at, waiting)
	replaceFile(t, filepath.Join("prompts.away", "greet.yaml"), "template: 'Good evening {{ name }}'\n")
	if err := os.Rename("prompts.away", "prompts"); err != nil {
		t.Fatal(err)
	}
	at = waitFor(t, stderr, at, "promptgen: prompts changed: wrote 1 file to out (1 unchanged)\n")
	if !strings.Contains(readTestFile(t, greet), "Good evening ") {
		t.Errorf("%s was not regenerated from the directory moved back", greet)
	}
	replaceFile(t, filepath.Join("prompts", "greet.yaml"), "template: 'Good night {{ name }}'\n")
	waitFor(t, stderr, at, "promptgen: prompts/greet.yaml changed: wrote 1 file to out (1 unchanged)\n")
	if !strings.Contains(readTestFile(t, greet), "Good night ") {
		t.Errorf("%s was not regenerated after the move back", greet)
	}
}

// TestWatchInterrupt: an interrupt signal (Ctrl-C) ends watch with status 0.
func TestWatchInterrupt(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "prompts")
	writeTestFile(t, filepath.Join(in, "greet.yaml"), "template: 'Hello {{ name }}'\n")
	var stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), []string{"watch", "-in", in, "-out", filepath.Join(dir, "out")}, nil, io.Discard, &stderr)
	}()
	// watch handles interrupts from before its first build on.
	waitFor(t, &stderr, 0, "wrote 2 files")
	p, err := os.FindProcess(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit code %d after an interrupt, want 0", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("watch did not stop after an interrupt")
	}
}

// TestWatchMissingDir: watch needs -in to exist.
func TestWatchMissingDir(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runArgs("watch", "-in", filepath.Join(dir, "nope"), "-out", filepath.Join(dir, "out"))
	if code != exitFail || !strings.Contains(stderr, "promptgen: watch: ") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}
