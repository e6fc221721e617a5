package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// linkSecret is the content of every file outside the working tree that
// the links of TestSymlinks point to: it must never reach the output.
const linkSecret = `{"a": "TOP SECRET"}`

// TestSymlinks: every path promptgen reads or writes refuses a symbolic
// link (the file, a directory on the way to it, or the directory named by
// a flag), with an error naming the link, and reads nothing through it
// and writes nothing through it. Each case links into "outside", which
// must be unchanged afterwards.
func TestSymlinks(t *testing.T) {
	const prompt = "inputs:\n  a: string\ntemplate: \"hello {{ a }}\"\n"
	outsideFiles := map[string]string{
		"victim.txt":            linkSecret,
		"victim_prompt.go":      genHeader + "\n" + linkSecret + "\n",
		"snaps/x/c.json":        linkSecret,
		"snaps/x/c.want.txt":    linkSecret,
		"prompts/x.yaml":        prompt,
		"gen/a_prompt.go":       genHeader + "\n" + linkSecret + "\n",
		"gen/x_prompt.go":       genHeader + "\n" + linkSecret + "\n",
		"gen/promptgen.go":      genHeader + "\n" + linkSecret + "\n",
		"gen/testdata/x/c.json": `{"a": "B"}`,
	}
	for _, tc := range []struct {
		name  string
		files map[string]string // in the working directory
		links map[string]string // link → target, relative to the working directory
		args  []string
		want  string // stderr
	}{{
		name:  "snapshot, -update",
		files: map[string]string{"p/x.yaml": prompt, "td/x/c1.json": `{"a": "B"}`},
		links: map[string]string{"td/x/c1.want.txt": "outside/victim.txt"},
		args:  []string{"test", "-in", "p", "-dir", "td", "-update"},
		want:  "promptgen: test: td/x/c1.want.txt: symbolic link (promptgen follows no links)\n",
	}, {
		name:  "snapshot",
		files: map[string]string{"p/x.yaml": prompt, "td/x/c1.json": `{"a": "B"}`},
		links: map[string]string{"td/x/c1.want.txt": "outside/victim.txt"},
		args:  []string{"test", "-in", "p", "-dir", "td"},
		want:  "promptgen: test: td/x/c1.want.txt: symbolic link (promptgen follows no links)\n",
	}, {
		name:  "feed",
		files: map[string]string{"p/x.yaml": prompt},
		links: map[string]string{"td/x/c1.json": "outside/victim.txt"},
		args:  []string{"test", "-in", "p", "-dir", "td", "-update"},
		want:  "promptgen: test: td/x/c1.json: symbolic link (promptgen follows no links)\n",
	}, {
		name:  "directory of snapshots",
		files: map[string]string{"p/x.yaml": prompt, "td/y/c.json": `{"a": "B"}`},
		links: map[string]string{"td/x": "outside/snaps/x"},
		args:  []string{"test", "-in", "p", "-dir", "td", "-update"},
		want:  "promptgen: test: td/x: symbolic link (promptgen follows no links)\n",
	}, {
		name:  "-dir",
		files: map[string]string{"p/x.yaml": prompt},
		links: map[string]string{"td": "outside/snaps"},
		args:  []string{"test", "-in", "p", "-dir", "td", "-update"},
		want:  "promptgen: test: td: symbolic link (promptgen follows no links)\n",
	}, {
		name:  "a directory of -dir",
		files: map[string]string{"p/x.yaml": prompt},
		links: map[string]string{"generated": "outside/gen"},
		args:  []string{"test", "-in", "p", "-update"},
		want:  "promptgen: test: generated: symbolic link (promptgen follows no links)\n",
	}, {
		name:  "-in of test",
		files: map[string]string{"td/x/c.json": `{"a": "B"}`},
		links: map[string]string{"p": "outside/prompts"},
		args:  []string{"test", "-in", "p", "-dir", "td", "-update"},
		want:  "promptgen: test: load: p: symbolic link (promptgen follows no links)\npromptgen: test: 1 of 1 snapshot failed\n",
	}, {
		name:  "-out",
		files: map[string]string{"p/x.yaml": prompt},
		links: map[string]string{"out": "outside/gen"},
		args:  []string{"generate", "-in", "p", "-out", "out"},
		want:  "promptgen: write: out: symbolic link (promptgen follows no links)\n",
	}, {
		name:  "a directory of -out",
		files: map[string]string{"p/x.yaml": prompt},
		links: map[string]string{"internal": "outside"},
		args:  []string{"generate", "-in", "p", "-out", "internal/gen"},
		want:  "promptgen: write: internal: symbolic link (promptgen follows no links)\n",
	}, {
		name:  "-out of diff",
		files: map[string]string{"p/x.yaml": prompt},
		links: map[string]string{"out": "outside/gen"},
		args:  []string{"diff", "-in", "p", "-out", "out"},
		want:  "promptgen: diff: out: symbolic link (promptgen follows no links)\n",
	}, {
		name:  "generated file",
		files: map[string]string{"p/x.yaml": prompt},
		links: map[string]string{"out/x_prompt.go": "outside/victim_prompt.go"},
		args:  []string{"generate", "-in", "p", "-out", "out"},
		want:  "promptgen: write: out/x_prompt.go: symbolic link (promptgen follows no links)\n",
	}, {
		name:  "generated file of diff",
		files: map[string]string{"p/x.yaml": prompt},
		links: map[string]string{"out/x_prompt.go": "outside/victim_prompt.go"},
		args:  []string{"diff", "-in", "p", "-out", "out"},
		want:  "promptgen: diff: out/x_prompt.go: symbolic link (promptgen follows no links)\n",
	}, {
		name:  "-in",
		links: map[string]string{"p": "outside/prompts"},
		args:  []string{"generate", "-in", "p", "-out", "out"},
		want:  "promptgen: load: p: symbolic link (promptgen follows no links)\n",
	}, {
		name:  "prompt file",
		files: map[string]string{"p/x.yaml": prompt},
		links: map[string]string{"p/s.jinja": "outside/victim.txt"},
		args:  []string{"generate", "-in", "p", "-out", "out"},
		want:  "p/s.jinja: symbolic link (promptgen follows no links)\n",
	}, {
		name:  "-in of render",
		links: map[string]string{"p": "outside/prompts"},
		args:  []string{"render", "-in", "p", "x"},
		want:  "promptgen: load: p: symbolic link (promptgen follows no links)\n",
	}, {
		name:  "-in of resolve",
		links: map[string]string{"p": "outside/prompts"},
		args:  []string{"resolve", "-in", "p", "x", "-key", "k"},
		want:  "promptgen: resolve: load: p: symbolic link (promptgen follows no links)\n",
	}, {
		name:  "-data",
		files: map[string]string{"p/x.yaml": prompt},
		links: map[string]string{"data.json": "outside/victim.txt"},
		args:  []string{"render", "-in", "p", "-data", "data.json", "x"},
		want:  "promptgen: data.json: symbolic link (promptgen follows no links)\n",
	}, {
		name:  "-in of watch",
		links: map[string]string{"p": "outside/prompts"},
		args:  []string{"watch", "-in", "p", "-out", "out"},
		want:  "promptgen: watch: p: symbolic link (promptgen follows no links)\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			writeTree(t, "outside", outsideFiles)
			writeTree(t, ".", tc.files)
			for link, target := range tc.links {
				if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(filepath.Join(dir, target), link); err != nil {
					t.Skipf("no symbolic links: %v", err)
				}
			}
			code, stdout, stderr := runArgs(tc.args...)
			if code != exitFail || stdout != "" || stderr != tc.want {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and stderr %q", code, stdout, stderr, tc.want)
			}
			if strings.Contains(stdout+stderr, "TOP SECRET") {
				t.Error("the output shows a file that a link points to")
			}
			sameTree(t, readTree(t, "outside"), outsideFiles)
		})
	}
}
