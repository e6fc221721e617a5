// Command scale measures promptgen on a large prompt library (issue 28):
// it writes n copies of the ticket digest prompt (prompts/bench) in
// folders, times promptgen generate on it (and again on the unchanged
// tree), counts the generated Go per prompt, and times go build of the
// generated package against a hand-written equivalent (the types and a
// strings.Builder renderer per prompt, as generated/bench_test.go's
// handWritten), each compiled once with the dependencies already built.
// make scale runs it from the repository root.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) > 2 && os.Args[1] == "-measure" {
		measure(os.Args[2:])
		return
	}
	n := flag.Int("n", 1000, "number of prompts")
	folders := flag.Int("folders", 20, "number of folders they are spread over")
	keep := flag.Bool("keep", false, "keep the work directory and print its path")
	flag.Parse()
	if err := run(*n, *folders, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
}

func run(n, folders int, keep bool) error {
	repo, err := os.Getwd()
	if err != nil {
		return err
	}
	prompt, err := os.ReadFile(filepath.Join(repo, "prompts", "bench", "ticket_digest.yaml"))
	if err != nil {
		return fmt.Errorf("run from the repository root: %w", err)
	}
	work, err := os.MkdirTemp("", "promptgen-scale-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Println("work directory:", work)
	} else {
		defer os.RemoveAll(work)
	}
	goMod := "module scale\n\ngo 1.24\n\nrequire github.com/promptgen/promptgen v0.0.0\n\nreplace github.com/promptgen/promptgen => " + repo + "\n"
	if err := os.WriteFile(filepath.Join(work, "go.mod"), []byte(goMod), 0o644); err != nil {
		return err
	}
	if err := copyFile(filepath.Join(repo, "go.sum"), filepath.Join(work, "go.sum")); err != nil {
		return err
	}
	var hand bytes.Buffer
	hand.WriteString("package handwritten\n\nimport (\n\t\"strconv\"\n\t\"strings\"\n)\n")
	for i := range n {
		dir := filepath.Join(work, "prompts", fmt.Sprintf("team%02d", i%folders))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("digest%04d.yaml", i)), prompt, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(&hand, handWritten, i)
	}
	if err := os.MkdirAll(filepath.Join(work, "handwritten"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(work, "handwritten", "prompts.go"), hand.Bytes(), 0o644); err != nil {
		return err
	}
	bin := filepath.Join(work, "promptgen")
	if err := command(repo, "go", "build", "-o", bin, "./cmd/promptgen").Run(); err != nil {
		return fmt.Errorf("build promptgen: %w", err)
	}
	self := filepath.Join(work, "scale")
	if err := command(repo, "go", "build", "-o", self, "./internal/scale").Run(); err != nil {
		return fmt.Errorf("build scale: %w", err)
	}
	measured := func(what string, args ...string) (usage, error) {
		u, err := measureIn(self, work, args...)
		if err != nil {
			return u, fmt.Errorf("%s: %w", what, err)
		}
		return u, nil
	}
	gen, err := measured("generate", bin, "generate", "-in", "prompts", "-out", "generated")
	if err != nil {
		return err
	}
	again, err := measured("generate again", bin, "generate", "-in", "prompts", "-out", "generated")
	if err != nil {
		return err
	}
	lines, err := goLines(filepath.Join(work, "generated"))
	if err != nil {
		return err
	}
	if err := command(work, "go", "mod", "tidy").Run(); err != nil {
		return fmt.Errorf("go mod tidy: %w", err)
	}
	// The dependencies first, so that each build below compiles one package.
	imports, err := command(work, "go", "list", "-f", `{{join .Imports "\n"}}`, "./generated", "./handwritten").Output()
	if err != nil {
		return fmt.Errorf("go list: %w", err)
	}
	if err := command(work, "go", append([]string{"build"}, strings.Fields(string(imports))...)...).Run(); err != nil {
		return fmt.Errorf("build the dependencies: %w", err)
	}
	build := func(pkg string) (usage, error) {
		// A new directory name is a new import path: never a cache hit.
		dir := fmt.Sprintf("%s_%d", pkg, time.Now().UnixNano())
		if err := os.Rename(filepath.Join(work, pkg), filepath.Join(work, dir)); err != nil {
			return usage{}, err
		}
		defer os.Rename(filepath.Join(work, dir), filepath.Join(work, pkg))
		return measured("go build "+pkg, "go", "build", "./"+dir)
	}
	genBuild, err := build("generated")
	if err != nil {
		return err
	}
	handBuild, err := build("handwritten")
	if err != nil {
		return err
	}
	fmt.Printf("%d prompts in %d folders\n", n, folders)
	fmt.Printf("promptgen generate:           %s\n", gen)
	fmt.Printf("  again, on the unchanged tree: %s\n", again)
	fmt.Printf("  Go per prompt: %.0f lines\n", float64(lines)/float64(n))
	fmt.Printf("go build, generated:          %s\n", genBuild)
	fmt.Printf("go build, hand-written:       %s\n", handBuild)
	fmt.Printf("  generated / hand-written: %.2fx time, %.2fx memory\n",
		genBuild.wall.Seconds()/handBuild.wall.Seconds(), float64(genBuild.maxRSS)/float64(handBuild.maxRSS))
	return nil
}

// usage is what a measured command took: wall time, CPU time and the
// largest resident set of it and its children.
type usage struct {
	wall, cpu time.Duration
	maxRSS    int64 // bytes
}

func (u usage) String() string {
	return fmt.Sprintf("%6.2f s wall, %6.2f s CPU, %5d MB", u.wall.Seconds(), u.cpu.Seconds(), u.maxRSS>>20)
}

// measureIn runs args in dir under a child scale -measure, whose children
// are only that command, and reads back its usage.
func measureIn(self, dir string, args ...string) (usage, error) {
	cmd := exec.Command(self, append([]string{"-measure"}, args...)...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return usage{}, err
	}
	var u usage
	var wall, cpu int64
	if _, err := fmt.Sscan(string(out), &wall, &cpu, &u.maxRSS); err != nil {
		return usage{}, fmt.Errorf("measure: %q: %w", out, err)
	}
	u.wall, u.cpu = time.Duration(wall), time.Duration(cpu)
	return u, nil
}

// measure runs args and prints its wall time, its CPU time and its
// children's largest resident set: the process's only children are it
// and what it starts.
func measure(args []string) {
	start := time.Now()
	cmd := command(".", args[0], args[1:]...)
	cmd.Stdout = os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "scale:", strings.Join(args, " ")+":", err)
		os.Exit(1)
	}
	wall := time.Since(start)
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	fmt.Println(int64(wall), int64(cpu), ru.Maxrss<<10) // Linux reports kilobytes
}

func command(dir, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	return cmd
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

// goLines counts the lines of the generated prompt files in dir (not the
// package file promptgen.go).
func goLines(dir string) (int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_prompt.go"))
	if err != nil || len(files) == 0 {
		return 0, fmt.Errorf("no generated prompt files in %s", dir)
	}
	lines := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return 0, err
		}
		lines += bytes.Count(b, []byte("\n"))
	}
	return lines, nil
}

// handWritten is one prompt's hand-written equivalent, %[1]d its number:
// the feed's types and a renderer as generated/bench_test.go's handWritten.
const handWritten = `
type Digest%[1]dFeed struct {
	Team       string               ` + "`json:\"team\"`" + `
	Lead       string               ` + "`json:\"lead\"`" + `
	Period     string               ` + "`json:\"period\"`" + `
	OpenCount  int                  ` + "`json:\"open_count\"`" + `
	SLAHours   int                  ` + "`json:\"sla_hours\"`" + `
	Escalation *Digest%[1]dEscalation ` + "`json:\"escalation,omitempty\"`" + `
	Tickets    []Digest%[1]dTicket    ` + "`json:\"tickets\"`" + `
}

type Digest%[1]dEscalation struct {
	Owner  string ` + "`json:\"owner\"`" + `
	Reason string ` + "`json:\"reason\"`" + `
}

type Digest%[1]dTicket struct {
	ID       string  ` + "`json:\"id\"`" + `
	Title    string  ` + "`json:\"title\"`" + `
	Priority *string ` + "`json:\"priority,omitempty\"`" + `
	Customer string  ` + "`json:\"customer\"`" + `
}

func RenderDigest%[1]d(f Digest%[1]dFeed) string {
	var b strings.Builder
	b.Grow(2048)
	b.WriteString("You are the support operations assistant for the ")
	b.WriteString(f.Team)
	b.WriteString(" team.\nYour reader is ")
	b.WriteString(f.Lead)
	b.WriteString(", the team lead, who has two minutes to read this.\nSummarise the state of the queue for ")
	b.WriteString(f.Period)
	b.WriteString(" and propose the next three actions.\nBe factual and brief, use the ticket ids, and never invent tickets or customers.\n\nQueue: ")
	b.WriteString(strconv.Itoa(f.OpenCount))
	b.WriteString(" open tickets; the SLA is ")
	b.WriteString(strconv.Itoa(f.SLAHours))
	b.WriteString(" hours.\n")
	if f.Escalation != nil {
		b.WriteString("Escalation in progress: ")
		b.WriteString(f.Escalation.Owner)
		b.WriteString(" owns it (")
		b.WriteString(f.Escalation.Reason)
		b.WriteString(").\n")
	}
	b.WriteString("\nOldest tickets:\n")
	for i, t := range f.Tickets {
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteString(". [")
		b.WriteString(t.ID)
		b.WriteString("] ")
		b.WriteString(t.Title)
		b.WriteString(" (priority: ")
		if t.Priority != nil {
			b.WriteString(*t.Priority)
		} else {
			b.WriteString("normal")
		}
		b.WriteString(", customer: ")
		b.WriteString(t.Customer)
		b.WriteString(")\n")
	}
	b.WriteString("\nAnswer with a short paragraph, then a numbered list of actions with an owner each.")
	return b.String()
}
`
