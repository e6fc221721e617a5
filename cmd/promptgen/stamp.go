package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/promptgen/promptgen/gen"
)

// A stamp lets generate skip an unchanged tree (issue 28: go generate in a
// large repository must stay cheap). It is kept in the user's cache
// directory, by output directory, not in the generated code, which stays
// the same whatever promptgen binary wrote it. It holds a hash of all that
// generate reads (the promptgen executable, the flags, every file of the
// prompts tree, the go.mod and go.work that name the package), a hash of
// the output directory's Go files as generate left them, and the run's
// warnings, which an up-to-date run prints again. A tree that binds Go
// types or functions (goType, autobind, filters) is never stamped: its
// output also depends on Go packages elsewhere.
type stamp struct {
	path    string // the stamp's file; "" when this run cannot use one
	Inputs  string
	Outputs string
	Warns   gen.Diagnostics
}

// stampVersion changes when what a stamp covers does.
const stampVersion = "promptgen generate stamp 1\n"

// newStamp hashes what generate with cfg reads. Its path is "" when the
// tree binds Go types, or when anything cannot be read (generate then
// runs and reports it).
func newStamp(cfg gen.Config) stamp {
	cache, err := os.UserCacheDir()
	if err != nil {
		return stamp{}
	}
	out, err := filepath.Abs(cfg.Out)
	if err != nil {
		return stamp{}
	}
	in, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return stamp{}
	}
	h := sha256.New()
	io.WriteString(h, stampVersion)
	if exe, err := os.Executable(); err != nil || hashFile(h, exe) != nil {
		return stamp{}
	}
	fmt.Fprintf(h, "\n%q %q %q %q %q %q %t %q %q %q\n", cfg.Dir, in, cfg.Out, out, cfg.Pkg, cfg.Renderer, cfg.Strict, cfg.Version,
		os.Getenv("GOFLAGS"), os.Getenv("GOWORK"))
	if !hashTree(h, in) {
		return stamp{}
	}
	for dir := filepath.Dir(out); ; dir = filepath.Dir(dir) {
		for _, name := range []string{"go.mod", "go.work"} {
			if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
				fmt.Fprintf(h, "%s %d\n", filepath.Join(dir, name), len(b))
				h.Write(b)
			}
		}
		if dir == filepath.Dir(dir) {
			break
		}
	}
	key := sha256.Sum256([]byte(out))
	return stamp{path: filepath.Join(cache, "promptgen", "generate", hex.EncodeToString(key[:])), Inputs: hex.EncodeToString(h.Sum(nil))}
}

// hashTree writes to h every entry under dir, in lexical order: its path,
// kind and content (a symlink's target, which generate does not follow).
// It reports false when an entry cannot be read or names Go types or
// functions to bind.
func hashTree(h hash.Hash, dir string) bool {
	ok := true
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(h, "%q %v ", rel, d.Type())
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%q\n", target)
		case d.Type().IsRegular():
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if bytes.Contains(b, []byte("goType")) || bytes.Contains(b, []byte("autobind")) || bytes.Contains(b, []byte("filters")) {
				ok = false
				return filepath.SkipAll
			}
			fmt.Fprintf(h, "%d\n", len(b))
			h.Write(b)
		default:
			io.WriteString(h, "\n")
		}
		return nil
	})
	return ok && err == nil
}

func hashFile(h hash.Hash, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(h, f)
	return err
}

// hashOutputs hashes the Go files of dir (those generate wrote, and any
// other, such as a doc.go that changes what generate writes).
func hashOutputs(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		if !e.Type().IsRegular() {
			return "", fmt.Errorf("%s is not a regular file", e.Name())
		}
		fmt.Fprintf(h, "%q ", e.Name())
		if err := hashFile(h, filepath.Join(dir, e.Name())); err != nil {
			return "", err
		}
		io.WriteString(h, "\n")
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// upToDate reports whether the stamp's record says that generate ran on
// these inputs and that the output directory is as it left it; it returns
// the warnings of that run.
func (s stamp) upToDate(out string) (gen.Diagnostics, bool) {
	if s.path == "" {
		return nil, false
	}
	b, err := os.ReadFile(s.path)
	if err != nil {
		return nil, false
	}
	var rec stamp
	if json.Unmarshal(b, &rec) != nil || rec.Inputs != s.Inputs {
		return nil, false
	}
	if got, err := hashOutputs(out); err != nil || got != rec.Outputs {
		return nil, false
	}
	return rec.Warns, true
}

// record saves the stamp of a run that left out as it is now and printed
// warns. A stamp that cannot be saved only costs the next run its skip.
func (s stamp) record(out string, warns gen.Diagnostics) {
	if s.path == "" {
		return
	}
	outputs, err := hashOutputs(out)
	if err != nil {
		return
	}
	s.Outputs, s.Warns = outputs, warns
	b, err := json.Marshal(s)
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(s.path), 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.path), "stamp-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(b)
	if err = errors.Join(err, tmp.Close()); err == nil {
		err = os.Rename(tmp.Name(), s.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}
