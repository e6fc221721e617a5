package gen

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/promptgen/promptgen/gen/internal/goemit"
	"github.com/promptgen/promptgen/gen/internal/names"
	"github.com/promptgen/promptgen/internal/pyjinja"
	"github.com/promptgen/promptgen/internal/testmod"
	"github.com/promptgen/promptgen/runtime/jinja"
)

// renderCase is one golden template case: a prompt and its scenarios,
// each a JSON feed with the output real Jinja2 produced for it (written
// by testdata/render/golden.py). A divergence case instead has what
// Jinja2 prints in <scenario>.jinja and, hand-written, what promptgen
// prints on purpose in <scenario>.promptgen.
type renderCase struct {
	name       string
	dir        string
	divergence bool
	scenarios  []string // scenario names: <name>.json and its expected output
}

// expected is the file holding a scenario's expected output.
func (c renderCase) expected(scenario string) string {
	ext := ".want"
	if c.divergence {
		ext = ".promptgen"
	}
	return filepath.Join(c.dir, scenario+ext)
}

func loadRenderCases(t *testing.T) []renderCase {
	t.Helper()
	var cases []renderCase
	for _, kind := range []string{"cases", "divergences"} {
		root := filepath.Join("testdata", "render", kind)
		dirs, err := os.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range dirs {
			c := renderCase{name: d.Name(), dir: filepath.Join(root, d.Name()), divergence: kind == "divergences"}
			files, err := filepath.Glob(filepath.Join(c.dir, "*.json"))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				c.scenarios = append(c.scenarios, strings.TrimSuffix(filepath.Base(f), ".json"))
			}
			if len(c.scenarios) == 0 {
				t.Fatalf("case %s has no scenarios", c.dir)
			}
			cases = append(cases, c)
		}
	}
	return cases
}

// backends are the renderers the render tests run: each is generated into
// its own package of the test module from the same prompts, and every
// scenario must render identically on all of them.
var backends = []struct {
	pkg      string
	renderer Renderer
}{
	{"gorender", RendererGo},
	{"ttrender", RendererTextTemplate},
}

// renderJob renders the prompt key with the feed decoded from the JSON file feed.
type renderJob struct{ key, feed string }

// renderAll generates one package per backend from the prompts in
// mod/prompts (a key may name a set, a directory with a promptset.yaml,
// whose default template renders), compiles and vets them with a program
// that renders every job on every backend, runs it and returns the outputs
// by backend and job: the rendered text, or "ERROR: " and the error's
// message.
func renderAll(t *testing.T, mod string, keys []string, jobs []renderJob) [][]string {
	t.Helper()
	var main bytes.Buffer
	main.WriteString("package main\n\nimport (\n\t\"encoding/json\"\n\t\"bytes\"\n\t\"fmt\"\n\t\"os\"\n\t\"time\"\n\n\t\"github.com/promptgen/promptgen/runtime\"\n\t\"github.com/promptgen/promptgen/runtime/chat\"\n")
	for _, b := range backends {
		out := filepath.Join(mod, b.pkg)
		res, err := Generate(context.Background(), Config{Dir: filepath.Join(mod, "prompts"), Out: out, Pkg: b.pkg, ImportPath: "pgtest/" + b.pkg, Renderer: b.renderer})
		if err != nil {
			t.Fatalf("generate %s: %v", b.renderer, err)
		}
		writeResult(t, out, res)
		main.WriteString("\t\"pgtest/" + b.pkg + "\"\n")
	}
	main.WriteString(")\n\n" + pyjinja.RenderAtSource + "\n")
	main.WriteString("func decode(path string, v any) {\n\tb, err := os.ReadFile(path)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\td := json.NewDecoder(bytes.NewReader(b))\n\tif _, ok := v.(interface{ Chat() *chat.Context }); !ok {\n\t\td.DisallowUnknownFields() // a chat context holds more than a template reads\n\t}\n\tif err := d.Decode(v); err != nil {\n\t\tpanic(fmt.Sprint(path, \": \", err))\n\t}\n}\n\n")
	for _, b := range backends {
		main.WriteString("func render_" + b.pkg + "(key, feed string) (string, error) {\n\tswitch key {\n")
		for _, k := range keys {
			name, _ := names.Exported(k)
			render := "renderAt(" + b.pkg + "." + name + ", f)"
			if _, err := os.Stat(filepath.Join(mod, "prompts", k, "promptset.yaml")); err == nil {
				render = b.pkg + ".New" + name + "().Render(\"default\", f)" // a set: its main/default template
			}
			main.WriteString("\tcase " + quote(k) + ":\n\t\tvar f " + b.pkg + "." + name + "Feed\n\t\tdecode(feed, &f)\n\t\treturn " + render + "\n")
		}
		main.WriteString("\t}\n\tpanic(key)\n}\n\n")
	}
	main.WriteString("func main() {\n\targs := os.Args[1:]\n\tfor i := 0; i+3 < len(args); i += 4 {\n\t\tvar s string\n\t\tvar err error\n\t\tswitch args[i] {\n")
	for _, b := range backends {
		main.WriteString("\t\tcase " + quote(b.pkg) + ":\n\t\t\ts, err = render_" + b.pkg + "(args[i+1], args[i+2])\n")
	}
	main.WriteString("\t\t}\n\t\tif err != nil {\n\t\t\ts = \"ERROR: \" + err.Error()\n\t\t}\n\t\tif err := os.WriteFile(args[i+3], []byte(s), 0o644); err != nil {\n\t\t\tpanic(err)\n\t\t}\n\t}\n}\n")
	writeFile(t, filepath.Join(mod, "main.go"), main.Bytes())

	goCmd(t, mod, "vet", "./...")
	bin := filepath.Join(t.TempDir(), "render")
	goCmd(t, mod, "build", "-o", bin, ".")
	gotDir := t.TempDir()
	var args []string
	for _, b := range backends {
		for i, j := range jobs {
			feed, err := filepath.Abs(j.feed)
			if err != nil {
				t.Fatal(err)
			}
			args = append(args, b.pkg, j.key, feed, filepath.Join(gotDir, fmt.Sprintf("%s.%d", b.pkg, i)))
		}
	}
	if outb, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		t.Fatalf("render: %v\n%s", err, outb)
	}
	outputs := make([][]string, len(backends))
	for bi, b := range backends {
		for i := range jobs {
			got, err := os.ReadFile(filepath.Join(gotDir, fmt.Sprintf("%s.%d", b.pkg, i)))
			if err != nil {
				t.Fatal(err)
			}
			outputs[bi] = append(outputs[bi], string(got))
		}
	}
	return outputs
}

// TestRenderGolden generates a package per backend from every golden case,
// compiles and vets them in a temporary module, renders every scenario
// through the generated code of each backend and compares with Jinja2's
// output byte for byte: the backends must agree with Jinja2, and so with
// each other.
func TestRenderGolden(t *testing.T) {
	cases := loadRenderCases(t)
	mod := newTempModule(t)
	var keys []string
	var jobs []renderJob
	var expected []string
	for _, c := range cases {
		copyFile(t, filepath.Join(c.dir, "prompt.yaml"), filepath.Join(mod, "prompts", c.name+".yaml"))
		// The template files it includes, beside it (their names are
		// unique across cases).
		for _, ext := range []string{".jinja", ".j2", ".md", ".txt"} {
			files, err := filepath.Glob(filepath.Join(c.dir, "*"+ext))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				copyFile(t, f, filepath.Join(mod, "prompts", filepath.Base(f)))
			}
		}
		keys = append(keys, c.name)
		for _, s := range c.scenarios {
			jobs = append(jobs, renderJob{c.name, filepath.Join(c.dir, s+".json")})
			expected = append(expected, c.expected(s))
		}
	}
	outputs := renderAll(t, mod, keys, jobs)
	for i, j := range jobs {
		want := string(readFile(t, expected[i]))
		for bi, b := range backends {
			if got := outputs[bi][i]; got != want {
				t.Errorf("%s: %s (-want +got):\n%s", b.renderer, j.feed, cmp.Diff(want, got))
			}
		}
		// A divergence must still be one: Jinja2 prints something else.
		if strings.HasSuffix(expected[i], ".promptgen") {
			if jinjaOut := readFile(t, strings.TrimSuffix(j.feed, ".json")+".jinja"); string(jinjaOut) == want {
				t.Errorf("%s: promptgen and Jinja2 agree; move the case to cases/", expected[i])
			}
		}
	}
	t.Logf("%d cases, %d scenarios, %d backends", len(cases), len(jobs), len(backends))
}

func quote(s string) string { return "\"" + s + "\"" }

// newTempModule makes a module that requires this checkout, for compiling
// generated code.
func newTempModule(t *testing.T) string { return testmod.New(t, "pgtest") }

func goCmd(t *testing.T, dir string, args ...string) {
	t.Helper()
	if out, err := goRun(dir, args...); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

var (
	goRun     = testmod.Go
	writeFile = testmod.WriteFile
	readFile  = testmod.ReadFile
)

func writeResult(t *testing.T, dir string, res *Result) {
	t.Helper()
	for _, f := range res.Files {
		writeFile(t, filepath.Join(dir, f.Name), f.Content)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, to, b)
}

// TestRenderErrors checks the render failures of both backends: a required
// variable left unset, an unset optional used where Jinja2 raises, and an
// invalid operation each give the same *runtime.Error message, pointing at
// the template.
func TestRenderErrors(t *testing.T) {
	prompts := map[string]string{
		"missing": "inputs:\n  name: string\n  tags: [string]\ntemplate: |\n  Hi {{ name }}!\n  {% for t in tags %}{{ t }}{% endfor %}\n",
		// A required list is checked where its loop runs no iteration, in
		// both forms of the loop's else, and a field of an object that the
		// if showed set is read without checking it again (text/template).
		"missingloop": "jinja: {profile: transformers}\ninputs:\n  c: int\n  tags: [string]\n  o:\n    type: object\n    optional: true\n    properties: {a: {type: string}, b: {type: string}}\n    required: [a]\n" +
			"template: \"{% if o and o.b %}{{ o.a }}{{ o.b }}{% endif %}{% if c %}{% for t in tags %}{% if t == 'x' %}{% break %}{% endif %}{{ t }}{% else %}none{% endfor %}{% endif %}|{% for t in tags %}{{ t }}{% else %}empty{% endfor %}\"\n",
		"nested": "inputs:\n  customer:\n    type: object\n    properties: {name: {type: string}}\n    required: [name]\ntemplate: \"Dear {{ customer.name }}\"\n",
		"undef": "inputs:\n  user:\n    type: object\n    optional: true\n    properties: {name: {type: string}}\n    required: [name]\n  count: int?\n" +
			"template: |\n  {{ count | default(0) }} {% if count is defined %}{{ count + 1 }}{% endif %}\n  {{ user.name }}\n",
		// A bool compared as the int 0 or 1: undefined equals nothing,
		// and an ordering comparison of it fails.
		"boolcmp": "inputs:\n  o: bool?\ntemplate: \"{{ o == 1 }} {{ o < 1 }}\"\n",
		"arith":   "inputs:\n  n: int?\n  rows:\n    type: array\n    items: {type: object, properties: {name: {type: string}}, required: [name]}\ntemplate: \"{{ rows[1].name }} {{ n + 1 }}\"\n",
		"invalid": "inputs:\n  a: int\n  b: int\n  s: string\n  sep: string?\ntemplate: |\n  {{ a // b if b else -1 }} {{ s.split(sep | default('')) }} {{ a / b }}\n",
		"convert": "inputs:\n  n: string?\n  f: number?\ntemplate: \"{{ n | int }} {{ f | float }}\"\n",
		"unpack":  "inputs:\n  pairs: [[string]]\n  m:\n    type: object\n    optional: true\n    additionalProperties: {type: integer}\ntemplate: \"{% for k, v in pairs %}{{ k }}={{ v }};{% endfor %}{% for k, v in m.items() %}{% endfor %}\"\n",
		// set a, b = x of as many items as targets only (ValueError in Python).
		"setpair":  "inputs:\n  pair: [string]\ntemplate: \"{% set a, b = pair %}{{ a }}-{{ b }}\"\n",
		"dictsort": "inputs:\n  m:\n    type: object\n    optional: true\n    additionalProperties: {type: integer}\ntemplate: \"{% for k, v in m|items %}{{ k }}{% endfor %}{% for k, v in m|dictsort %}{{ k }}{% endfor %}\"\n",
		"sortopt":  "inputs:\n  people:\n    type: array\n    items: {type: object, properties: {name: {type: string}, age: {type: integer}}, required: [name]}\ntemplate: \"{{ people | sort(attribute='age') | map(attribute='name') | join(',') }}\"\n",
		// Where Jinja2 raises: a negative int power of an int known only at
		// run time, a complex power, truncate's asserts, undefined where
		// Jinja2 needs a value, an out-of-range element of a stored list.
		"raises": "inputs:\n  c: int\n  n: int\n  e: number\n  xs: [string]\n  m: {type: object, additionalProperties: {type: string}, optional: true}\ntemplate: |\n" +
			"  {% if c == 1 %}{{ 2 ** n }}\n  {% elif c == 2 %}{{ e ** 0.5 }}\n  {% elif c == 3 %}{{ 'abc' | truncate(n) }}\n  {% elif c == 4 %}{{ xs[n] | indent }}\n" +
			"  {% elif c == 5 %}{{ xs[n][1:] }}\n  {% elif c == 6 %}{% for k, v in m.items() %}{{ k }}{% endfor %}\n  {% elif c == 7 %}{% set l = [xs[n]] %}{{ l }}\n  {% endif %}\n",
		// Markup's methods with an argument that may be undefined, which
		// fail where it is undefined (TypeError in Jinja2), as a plain
		// string's do.
		// A namespace attribute held as a dynamic value (set to two types,
		// or to Markup in some renders only), read where the namespace
		// may not be set: Jinja2 fails reading it (UndefinedError).
		"nsdynundef":  "inputs:\n  c: bool\n  s: string\ntemplate: \"{% if c %}{% set ns = namespace(b=1, m=s|safe) %}{% set ns.b = 'x' %}{{ [ns.m, 1] }}{% endif %}{{ [ns.b, 2]|join }}|{{ [ns.m]|join }}\"\n",
		"markupundef": "inputs:\n  s: string\n  u: string?\ntemplate: \"{{ (s|safe).replace(u, '<') }}|{{ (s|tojson).strip(u) }}|{{ (s|tojson)|trim(u) }}\"\n",
		// str.index and rindex where the substring is not there (ValueError),
		// ljust's fill not one character (TypeError), widths past
		// runtime.MaxOutput; typed and dynamic.
		"strmethods": "inputs:\n  c: int\n  s: string\n  n: int\n  f: string\ntemplate: |\n" +
			"  {% if c == 1 %}{{ s.index('x') }}\n  {% elif c == 2 %}{{ s.rindex('x', n) }}\n  {% elif c == 3 %}{{ s.ljust(n, f) }}\n  {% elif c == 4 %}{{ s.zfill(n) }}\n  {% elif c == 5 %}{{ s.center(n, f) }}\n  {% elif c == 6 %}{{ s.rpartition(f[:n]) }}\n  {% endif %}\n",
		"strmethodsdyn": "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{% for m in messages %}{{ (m.content|string).index('x') }}{{ m.content.rjust(3, m.role) }};{% endfor %}\"\n",
		// A dynamic width that is not an int or a bool (TypeError in Python).
		// A dynamic width that is not an int or a bool, a start that is not
		// one or None (TypeError in Python).
		"strmethodsdynint": "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{% for m in messages %}{{ m.content.zfill(m.n) }}{{ m.content.find('x', m.s) }};{% endfor %}\"\n",
		// map('truncate') of dynamic values: of a list or dict longer than
		// length+leeway (Python fails to cut it), of an int (no len()).
		"maptruncdyn": "inputs: chat\ntemplate: \"{{ messages|map(attribute='content')|map('truncate', 3, leeway=0)|list }}\"\n",
		// The test filter of a chat value that is a list: Jinja2 looks it
		// up in a dict (TypeError: unhashable type).
		// first and in of a chain of generators, which Jinja2 pulls up to
		// the item they need: where that item's work fails, the render does.
		"pullfirst":   "inputs: chat\ntemplate: \"{{ messages|unique(attribute='d')|first }}|{{ messages|selectattr('n', 'gt', 1)|first }}|{{ 2 in messages|map(attribute='k')|map('length') }}\"\n",
		"nametestdyn": "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{% for m in messages %}{{ m.content is not filter }};{% endfor %}\"\n",
		// A macro that calls itself and reads caller, called without a
		// {% call %} block: caller() fails where it runs (UndefinedError
		// in Jinja2), and a block's caller runs where it is called.
		"recursivecaller": "inputs:\n  n: int\ntemplate: \"{% macro m(n) %}{% if n == 1 %}{{ caller() }}{% endif %}{{ m(n - 1) if n > 1 }}{% endmacro %}{% call m(n) %}c{% endcall %};{{ m(n) }}\"\n",
		// A chat prompt's own variable or {} is a dynamic value: a string
		// tests 'a' in it as a substring, and its ['a'] is undefined,
		// which tojson refuses (TypeError in Jinja2).
		"emptydictdyn": "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{% set nd = d if d is defined else {} %}{% for k in ['a', 'b'] %}{{ (nd[k] if k in nd else '') | tojson }};{% endfor %}\"\n",
		// map('indent') of dynamic values: an item that is no string, a
		// width that is no int, bool or string (TypeError).
		"mapindentdyn": "inputs: chat\ntemplate: \"{% for m in messages %}{{ m.parts|map('indent', m.w)|list }};{% endfor %}\"\n",
		// A string method of a dynamic value with an argument that fails:
		// Jinja2 evaluates the arguments before it calls the Undefined that
		// a list's missing method is, but fails looking a method up in
		// Undefined before them.
		"methodargsfirst": "inputs: chat\ntemplate: \"{% for m in messages %}{{ m.content.find('x', 1 // m.n) }};{% endfor %}\"\n",
		// The same where an argument calls a method that changes nothing
		// (get): evaluated twice, it yields the same, so the arguments
		// still go first (difffuzz seed 134 case 464).
		// An inferred input used first as an int, then (where it may not
		// run) as a string, which the check as a string fails on (10 / n):
		// it stays an int, and the str method fails where it runs
		// (UndefinedError), as in Jinja2 (difffuzz seed 1 case 750).
		"firstkind": "template: \"{{ 10 // n }}{% if c %}{{ (n|default(3)).split() }}{% endif %}\"\n",
		// A loop over an int that may be undefined, where it may not run:
		// no item where it is undefined, TypeError where it is an int.
		"loopintundef": "inputs:\n  c: bool\n  xs: [int]\ntemplate: \"{% if c %}{% for v in xs|last %}{{ v }}{% else %}none{% endfor %}{% endif %}ok\"\n",
		// An operation Python refuses whatever one operand's type, which
		// is not known where it is checked, fails where it runs (TypeError).
		// An operand that a later use makes optional (o.n is defined)
		// fails with UndefinedError where it is unset, as Python's % of
		// Undefined raises first (difffuzz seed 430 case 545).
		"laterundef": "template: \"{% if c %}{{ [1, 2]|unique is divisibleby(o.n) }}{% endif %}{{ o.n + 1 if o.n is defined }}ok\"\n",
		"anyoperand": "template: \"{% if c == 1 %}{{ 'a' - x }}{% elif c == 2 %}{{ none > u }}{% elif c == 3 %}{{ ([1, 2]|reject) % z }}{% elif c == 4 %}{{ y < none }}{% endif %}ok\"\n",
		// A dict method read as an attribute of an object (x.items) where
		// it may not run: length, a str method of it and arithmetic fail
		// (TypeError, UndefinedError), printing it fails (its address), and
		// it of an unset optional fails (UndefinedError); o['values'] is the
		// field where it is set, else the method, which fails printed.
		"dictmethodfails": "inputs:\n  c: int\n  o: {type: object, properties: {a: {type: string}, values: {type: integer}}, required: [a]}\n  p: {type: object, optional: true, properties: {a: {type: string}}, required: [a]}\n" +
			"template: \"{% if c == 1 %}{{ o.items|length }}{% elif c == 2 %}{{ o.items.upper() }}{% elif c == 3 %}{{ o.items }}{% elif c == 4 %}{{ p.keys is defined }}{% elif c == 5 %}{{ o.get + 1 }}{% elif c == 6 %}{{ 'a' in o.values }}{% elif c == 7 %}{{ o['values'] }}{% endif %}ok\"\n",
		"methodargsfirstget": "inputs: chat\ntemplate: \"{% for m in messages %}{{ m.content.find(m.get('s', 'x'), 1 // m.n) }};{% endfor %}\"\n",
		// A list method that transformers' sandbox refuses fails where it
		// runs (SecurityError), after its arguments; pop and clear run, and
		// pop fails on an empty list or an index out of range (IndexError).
		"listunsafe": "jinja: {profile: transformers}\ninputs:\n  c: int\n  n: int\ntemplate: \"{% set xs = [1] %}{% if c == 1 %}{% set _ = xs.append(10 // n) %}{% elif c == 2 %}{{ xs.pop() }}{{ xs.pop(n) }}{% elif c == 3 %}{{ xs.extend([2]) }}{% elif c == 4 %}{{ xs.sort() or 'x' }}{% elif c == 5 %}{{ xs.insert(0, 2) }}{% endif %}ok\"\n",
		// update() of a dict, which transformers' sandbox refuses, fails
		// where it runs (SecurityError), after its arguments.
		"instring":   "inputs:\n  c: int\n  n: int?\ntemplate: \"{% if c == 1 %}{{ n in 'abc' }}{% elif c == 2 %}{{ 2.25 not in 'abc' }}{% endif %}ok\"\n",
		"loopitems":  "inputs:\n  c: int\n  s: string\ntemplate: \"{% if c == 1 %}{% for k, v in (s ~ 'a')|dictsort %}{{k}}{% endfor %}{% elif c == 2 %}{% for k, v in ('%d'|format(3))|items %}{{ k }}{% endfor %}{% endif %}ok\"\n",
		"dynindex":   "inputs: chat\ntemplate: \"{% for m in messages %}{% if m.role == 'user' %}{{ m.content.index('z') }}{% elif m.role == 'tool' %}{{ m.index('a') }}{% elif m.role == 'system' %}{{ messages.count(m, 1) }}{% endif %}{% endfor %}ok\"\n",
		"dynupdate":  "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{% for m in messages %}{% if m.role == 'user' %}{% set _ = m.update({'a': 10 // n}) %}{% elif m.role == 'tool' %}{% set _ = m.content.update({}) %}{% endif %}{% endfor %}ok\"\n",
		"dictupdate": "jinja: {profile: transformers}\ninputs:\n  c: int\n  n: int\ntemplate: \"{% set d = {'a': 1} %}{% if c == 1 %}{% set _ = d.update({'a': 10 // n}) %}{% endif %}{{ d.a }}\"\n",
		// map('tojson') of an undefined item (TypeError in json.dumps).
		"maptojson": "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{% for m in messages %}{{ m.content | map('tojson') | join }}|{{ [m.x] | map('tojson') | join }}{% endfor %}\"\n",
		"listpop":   "inputs:\n  n: int\ntemplate: \"{% set xs = [] %}{% for i in range(n) %}{% set _ = xs.append(i) %}{% endfor %}{{ xs.pop(-3) }}{{ xs }}\"\n",
		// A loop over a list that its body pops iterates it as it shrinks
		// (ir.For.Live): a pop of an index the list no longer has fails.
		// A variable set to a modified list shares it (ir.Local.Shared):
		// a pop through one name of what the other cleared fails.
		"listpopshared": "inputs:\n  n: int\ntemplate: \"{% set xs = [1, 2] %}{% set ys = xs %}{% if n > 0 %}{% set _ = xs.clear() %}{% endif %}{{ ys.pop() }}{{ xs }}\"\n",
		"listpoplive":   "inputs:\n  n: int\ntemplate: \"{% set xs = [1, 2, 3] %}{% for x in xs %}{{ x }}{{ xs.pop(n) }};{% endfor %}{{ xs }}\"\n",
		// extend() of a dynamic value makes a typed list dynamic: where
		// the value is no iterable, Python raises TypeError.
		"listextend": "inputs:\n  c: bool\ntemplate: \"{% set m = [1] %}{% if c %}{% set m = ['ab'] %}{% endif %}{% set xs = [1] %}{% set _ = xs.extend(m | first) %}{{ xs }}\"\n",
		// A sectioned prompt without its head (template): positions are in its file.
		"headless": "sections:\n  - name: a\n    template: \"Hi {{ name }}\"\ninputs:\n  name: string\n",
		// int of a number beyond 64 bits (Jinja2 prints the big int) or
		// infinite (Jinja2 raises OverflowError), typed and dynamic.
		"bigint":    "inputs:\n  s: string\n  f: number\ntemplate: \"{{ s|int }}|{{ f|int }}|{{ (f * 1e308)|int }}\"\n",
		"bigintdyn": "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{% for m in messages %}{{ m.content|int }};{% endfor %}\"\n",
		// round where Python raises OverflowError or gives an int beyond 64 bits.
		"roundbig": "inputs:\n  n: int\n  f: number\n  g: number\ntemplate: \"{{ n|round(-1) }}|{{ (f * f)|round(0, 'floor') }}|{{ g|round(-308) }}\"\n",
		// range() with a zero step, or of an unset optional.
		"range": "inputs:\n  n: int\n  step: int?\ntemplate: \"{% for i in range(0, n, step) %}{{ i }}{% endfor %}\"\n",
		// A select test's argument is evaluated before the items, as in Jinja2.
		"select": "inputs:\n  xs: [int]\n  y: int?\ntemplate: \"{{ xs | select('equalto', y + 1) | list }}\"\n",
		// raise_exception's message built from dynamic values, as Python's str().
		// Operands fail in Jinja2's order, left to right, even where a later
		// one needs actions of its own in text/template (seed 201 case 14864).
		"order": "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{{ (messages[-1] - [1])|default(messages[0] if messages in 'ab' else 'x') }}\"\n",
		// The same for typed operands, arguments and elements: a // b fails
		// before the conditional's u in s (TypeError in Jinja2 when u is
		// unset), on both backends.
		"ordertyped": "inputs:\n  c: int\n  a: int\n  b: int\n  u: string?\n  s: string\ntemplate: |\n" +
			"  {% if c == 1 %}{{ (a // b) ~ (1 if u in s else 2) }}\n  {% elif c == 2 %}{{ (s ~ (a // b)) | replace('x', 'y' if u in s else 'z') }}\n" +
			"  {% elif c == 3 %}{{ [a // b, 1 if u in s else 2] }}\n  {% elif c == 4 %}{{ (a // b) < (1 if u in s else 2) }}\n  {% endif %}\n",
		// get() of an undefined receiver fails before its default is
		// evaluated, as Jinja2 looks get up first (seed 202 case 19731).
		"getorder": "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{% for m in messages %}{{ m.nope.get('n', tools[0][:-3]) }}{% endfor %}\"\n",
		// get() of an optional object or map, or of a local set in a branch,
		// that is undefined where it runs (UndefinedError in Jinja2).
		"getundefined": "inputs:\n  c: int\n  o: {type: object, optional: true, properties: {a: {type: string}}}\n  m: {type: object, optional: true, additionalProperties: {type: string}}\ntemplate: |\n" +
			"  {% if c == 1 %}{{ o.get('a', 'x') }}\n  {% elif c == 2 %}{{ m.get('k') }}\n  {% elif c == 3 %}{% if o %}{% set d = {'k': 1} %}{% endif %}{{ d.get('k', 2) }}\n  {% endif %}\n",
		// An attribute of a namespace set in a branch that may not have
		// run: UndefinedError in Jinja2 where it did not, and setting one
		// TemplateRuntimeError, before the value is evaluated.
		"nsmaybe": "inputs:\n  c: int\n  k: int\ntemplate: \"{% if c > 0 %}{% set ns = namespace(a=k, b='s') %}{% endif %}{% if c % 2 == 0 %}{{ ns.a }}{% elif c == -1 %}{% set ns.c = k // 0 %}{% else %}{{ ns['b'] is defined }}{% endif %}\"\n",
		// {% set x.a = v %} of what is not a namespace, where it runs
		// (TemplateRuntimeError in Jinja2), before v is evaluated.
		"setattr": "inputs:\n  c: int\n  items: [{type: object, properties: {n: {type: integer}}}]\ntemplate: |\n" +
			"  {% if c == 1 %}{% for t in items %}{% set t.seen = 10 // t.n %}{% endfor %}{% elif c == 2 %}{% set d = {} %}{% set d.k = 1 %}{% endif %}ok\n",
		// The block form renders its body first, then fails where what it
		// sets an attribute of is not a namespace (or a namespace that may
		// not have been set).
		"setattrblock": "inputs:\n  c: int\n  z: int\ntemplate: |\n" +
			"  {% if c == 1 %}{% set d = {} %}{% set d.k %}<{{ 1 // z }}>{% endset %}{% endif %}{% if c == 2 %}{% set ns = namespace(a='x') %}{% endif %}{% if c > 1 %}{% set ns.a %}<{{ 1 // z }}>{% endset %}{{ ns.a }}{% endif %}ok\n",
		// A required field that a passed Validate does not show set: of a
		// map's object values, of a chat feed. The text/template backend
		// leaves out only the checks Validate makes.
		"reqmapobj": "inputs:\n  name: string\n  m: {type: object, additionalProperties: {type: object, properties: {n: {type: string}}, required: [n]}}\ntemplate: \"{{ name }}{% for k, v in m|dictsort %}{{ v.n }}{% endfor %}\"\n",
		"chatnomsg": "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{% for m in messages %}{{ m.role }}{% endfor %}ok\"\n",
		"raisedyn":  "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{% for m in messages %}{% if m.role != 'user' %}{{ raise_exception('Invalid role ' + m.role + '.') }}{% endif %}{% endfor %}ok\"\n",
		// A method of a dynamic value (x['items'] where x has no such key,
		// x.items of a dict): Jinja2 prints it with its address in memory,
		// which promptgen does not print, wherever it would be printed;
		// Python's TypeError where Jinja2 raises one; two methods compared
		// (Python compares their owners' identity).
		"methoddyn": "jinja: {profile: transformers}\ninputs: chat\ntemplate: |\n" +
			"  {% for m in messages %}{% if m.c == 1 %}{{ m['items'] }}{% elif m.c == 2 %}{{ m.items ~ 'x' }}{% elif m.c == 3 %}{{ m['keys'] | tojson }}\n" +
			"  {% elif m.c == 4 %}{{ m['get'] | string }}{% elif m.c == 5 %}{{ m['values'] == m['values'] }}{% elif m.c == 6 %}{{ [m['items']] | join(',') }}\n" +
			"  {% elif m.c == 7 %}{{ m['items'] | length }}{% elif m.c == 8 %}{% set x = m.content['format'] %}{{ x }}{% elif m.c == 9 %}{{ m['items'] | upper }}\n" +
			"  {% elif m.c == 10 %}{{ '%s' % m['items'] }}{% elif m.c == 11 %}{{ m['pop'] }}{% elif m.c == 12 %}{{ m['items'] + 'a' }}{% elif m.c == 13 %}{% for k in m['items'] %}{% endfor %}\n" +
			"  {% elif m.c == 14 %}{{ [m['items']] }}{% else %}{{ m['items'] is callable }}{% endif %}{% endfor %}\n",
		// A chat template's special tokens (and the context's bos_token and
		// eos_token) in any string of the chat context: no output.
		"markers": "jinja: {profile: transformers}\ninputs: chat\nspecial_tokens: [\"<|im_end|>\"]\ntemplate: \"{% for m in messages %}{{ m.content }}{% endfor %}\"\n",
		// A strftime_now directive only the feed names.
		"clock": "jinja: {profile: transformers}\ninputs:\n  fmt: string?\ntemplate: \"{{ strftime_now(fmt) }}\"\n",
		// With declared inputs, names set in a branch that may not run, or
		// read after the loop that sets them, where Jinja2 raises
		// UndefinedError on their undefined.
		"maybeundef": "inputs:\n  c: int\n  xs: [string]\ntemplate: |\n" +
			"  {% if c == 9 %}{% set n = 1 %}{% set s = 'ab' %}{% set l = xs %}{% endif %}{% for i in xs %}{% set last = i %}{% endfor %}\n" +
			"  {% if c == 1 %}{{ n + 1 }}{% elif c == 2 %}{{ s.upper() }}{% elif c == 3 %}{{ l[0] }}{% elif c == 4 %}{{ -i }}{% elif c == 5 %}{{ last[1:] }}{% else %}{{ n }}|{{ s }}|{{ l }}|{{ i }}|{{ last }}{% endif %}\n",
		// A list literal holding an undefined element, where Jinja2 raises:
		// tojson (TypeError), sum and sort with other items, an operator
		// on the item (UndefinedError); printed, it shows Undefined.
		"holdsundef": "inputs:\n  c: int\n  u: string?\n  n: int?\ntemplate: |\n" +
			"  {% if c == 1 %}{{ [u, 'a'] | tojson }}\n  {% elif c == 2 %}{{ [n, 1] | sum }}\n  {% elif c == 3 %}{{ [u, 'a'] | sort }}\n" +
			"  {% elif c == 4 %}{% for x in [u] %}{{ x + 'a' }}{% endfor %}\n  {% else %}{% set l = [u, n] %}{{ l }}\n  {% endif %}\n",
		// Past runtime.MaxOutput: strings built too long, loops going on.
		// A failure in an included template file is at its place there.
		"includer": "inputs:\n  n: int?\ntemplate: \"{% include 'included_part.j2' %}\"\n",
		// A part that sets the includer's namespace attribute: alone,
		// Jinja2 fails where it runs (TemplateRuntimeError).
		"nsincluder": "template: \"{% set ns = namespace(b=0) %}[{% include 'setattr_part.j2' %}|{{ ns.b }}]\"\n",
		// The default of default() and get() that may fail: Jinja2
		// evaluates it before the call, where the value is defined or the
		// key is there too.
		"defaultfirst": "inputs:\n  n: string?\n  o: {type: object, optional: true, properties: {a: {type: string}}}\n  k: int?\n  t: string?\n" +
			"  m: {type: object, additionalProperties: {type: string}}\n  om: {type: object, optional: true, additionalProperties: {type: string}}\n" +
			"  p: {type: object, properties: {first: {type: object, properties: {id: {type: integer}}}}}\n" +
			"template: \"{{ n|default(o.a) }}|{{ m.get('a', om.b) }}|{{ n|default(t if k > 1 else 'b') }}|{{ p.get('first', {}).id|default(p.first.id) }}|{{ m.get('a', p.first.id * 2) }}\"\n",
		// A default that always fails: label is undefined after the loop.
		"defaultloop": "inputs:\n  err: bool?\ntemplate: \"{% for c in 'ab' %}{% set label = 'x' %}{% endfor %}{{ 54|default(label.endswith('a') or err) }}\"\n",
		// A part that calls the includer's macros, also with a call block:
		// alone, Jinja2 evaluates the arguments, then fails
		// (UndefinedError) where the call runs.
		"macroincluder": "inputs:\n  n: int\n  zero: int?\ntemplate: \"{% macro tag(v, w) %}<{{ v }}{{ w }}>{% endmacro %}{% macro box(v) %}<{{ v }}{{ caller() }}>{% endmacro %}[{% include 'macro_part.j2' %}]\"\n",
		// A part that defines a macro in an if, included in a loop: each
		// include is a frame of its own, where the macro is undefined
		// until the branch runs (UndefinedError in Jinja2).
		// A part that calls a macro before it defines one of that name:
		// the includer's, which Jinja2's include passes; alone, Jinja2
		// fails where the call runs (UndefinedError).
		"macrolateincluder": "inputs:\n  n: int\ntemplate: \"{% macro m(v) %}[{{ v }}]{% endmacro %}{% include 'macro_late_part.j2' %}\"\n",
		"macroifincluder":   "inputs:\n  cs: [int]\ntemplate: \"{% for c in cs %}{% include 'macro_if_part.j2' %}{% endfor %}\"\n",
		"large": "inputs:\n  c: int\n  s: string\n  n: int\n  xs: [string]\ntemplate: |\n" +
			"  {% if c == 1 %}{{ s * n }}\n  {% elif c == 2 %}{{ n * s }}\n  {% elif c == 3 %}{{ s | indent(n) }}\n  {% elif c == 4 %}{{ xs | join(s * n) }}\n" +
			"  {% elif c == 5 %}{{ xs | tojson(n) }}\n  {% elif c == 6 %}{{ s | replace('', s * n) }}\n  {% elif c == 7 %}{% for a in xs %}{% for b in xs %}{{ s * n }}{% endfor %}{% endfor %}\n" +
			// A loop that prints loop.index stops as soon (the text/template
			// backend ranges over its items padded): the 8th iteration, which
			// would divide by zero, does not run.
			"  {% elif c == 8 %}{% for a in xs %}{{ loop.index }}{% if loop.index == 8 %}{{ n // (loop.index - 8) }}{% endif %}{{ s * n }}{% endfor %}\n  {% endif %}\n",
		// printf-style formatting where Python raises (TypeError,
		// ValueError, UndefinedError) and past runtime.MaxOutput, typed
		// and dynamic.
		"printf": "inputs:\n  c: int\n  s: string\n  n: int\n  u: int?\ntemplate: |\n" +
			"  {% if c == 1 %}{{ '%d' % s }}\n  {% elif c == 2 %}{{ '%s %s'|format(s) }}\n  {% elif c == 3 %}{{ ('%' ~ n ~ 's') % s }}\n" +
			"  {% elif c == 4 %}{{ '%d'|format(u) }}\n  {% elif c == 5 %}{{ s|format(n) }}\n  {% elif c == 6 %}{{ '%(a)s'|format(b=s) }}\n  {% endif %}\n",
		// A list repeated past runtime.MaxOutput items, either way round.
		"listrepeat": "inputs:\n  n: int\n  xs: [string]\ntemplate: \"{{ (xs * n)|length }}|{{ (n * xs)|length }}\"\n",
		// str.format where Python raises (ValueError, IndexError, KeyError,
		// TypeError) and past runtime.MaxOutput.
		"strformat": "inputs:\n  c: int\n  s: string\n  n: int\n  u: int?\ntemplate: |\n" +
			"  {% if c == 1 %}{{ '{:d}'.format(s) }}\n  {% elif c == 2 %}{{ '{} {}'.format(s) }}\n  {% elif c == 3 %}{{ '{:{}}'.format(s, n) }}\n" +
			"  {% elif c == 4 %}{{ '{:5}'.format(u) }}\n  {% elif c == 5 %}{{ s.format(n) }}\n  {% elif c == 6 %}{{ '{a}'.format(b=s) }}\n  {% endif %}\n",
		// Macros that call themselves past runtime.MaxMacroDepth nested
		// calls (190; Jinja2 raises RecursionError near 200), directly, in
		// turn, or from a macro expanded in place, whose frame counts; and
		// past runtime.MaxMacroCalls calls.
		"recursion": "inputs:\n  c: int\n  n: int\ntemplate: |\n" +
			"  {% macro f(n) %}{% if n > 0 %}{{ f(n - 1) }}{% else %}bottom{% endif %}{% endmacro %}{% macro g(n) %}{{ h(n) }}{% endmacro %}\n" +
			"  {% macro h(n) %}{% if n > 0 %}{{ g(n - 1) }}{% else %}end{% endif %}{% endmacro %}{% macro w(n) %}{{ f(n) }}{% endmacro %}\n" +
			"  {% macro twice(n) %}{% if n > 0 %}{{ twice(n - 1) }}{{ twice(n - 1) }}{% endif %}{% endmacro %}\n" +
			"  {% if c == 1 %}{{ f(n) }}{% elif c == 2 %}{{ h(n) }}{% elif c == 3 %}{{ w(n) }}{% else %}{{ twice(n) }}{% endif %}\n",
		// A macro defined in an if branch that did not run, called after
		// the if (Jinja2: UndefinedError).
		"macroinif": "inputs:\n  c: int\ntemplate: \"{% if c == 1 %}{% macro m() %}M{% endmacro %}{% endif %}[{{ m() }}]\"\n",
		// indent and truncate of a dynamic value that is not a string:
		// Jinja2 does not convert it with str() (TypeError, AttributeError,
		// UndefinedError; truncate returns a list or dict no longer than
		// its length as it is); the second an undefined one left in a list.
		// wordwrap of a conditional of a list or a string: Jinja2 wraps the
		// string and fails on the list (it has no splitlines), not its str().
		// An operand that may be undefined searched for in a string: Jinja2
		// evaluates the string first, which may fail first (join of none).
		"inundefleft":  "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{{ messages[:0]|map('title')|first is in(tools|join(',')) }}\"\n",
		"wordwrapcond": "inputs:\n  xs: [int]\n  flag: bool\ntemplate: \"{{ (xs if flag else 'a b')|wordwrap(1) }}\"\n",
		"indentdyn":    "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{% for m in messages %}[{{ m.content|indent }}][{{ m.n|truncate(3) }}]{% endfor %}\"\n",
		"indentundef":  "inputs:\n  x: string?\ntemplate: \"{% for n in [x, 'b'] %}[{{ n|indent }}]{% endfor %}\"\n",
		// A str method of truncate of an undefined dynamic value (an
		// attribute of a dict method), which truncate returns as it is:
		// Jinja2 fails looking the method up, before its argument fails.
		"truncundef": "inputs:\n  o: {type: object, properties: {items: {type: object, properties: {label: {type: string}}}}}\ntemplate: \"{{ (o.items.label|truncate(6)).rpartition('') }}\"\n",
		// A filter and a test Jinja2 lacks, where their if runs
		// (TemplateRuntimeError).
		"missingfilter": "inputs:\n  c: int\n  y: string\ntemplate: \"{% if c == 1 %}{{ y|from_json }}{% elif c == 2 %}{{ y is nosuchtest }}{% endif %}ok\"\n",
		// A key a dict literal lacks is undefined: an attribute of it
		// fails (UndefinedError); so does the dict's evaluation first.
		"dictmissing": "inputs:\n  c: int\ntemplate: \"{% set d = {'a': 1} %}{% if c == 1 %}{{ d.b.c }}{% elif c >= 2 %}{{ {'a': 10 // (c - 2)}.b }}{% endif %}ok\"\n",
		// An and/or of several types used as a value is a dynamic value:
		// what fails on one of its types fails where it has that type.
		"mixeddyn": "inputs:\n  c: int\n  name: string?\n  n: int\n  tags: [string]\ntemplate: \"{% if c == 1 %}{{ (name or n) | length }}{% elif c == 2 %}{{ (n and tags) | join(',') }}{% elif c == 3 %}{{ (name or n).strip() }}{% endif %}ok\"\n",
		// A generator stored and never read: Jinja2 evaluates its operands
		// and arguments at the set (UndefinedError) and never runs the
		// filter (no ZeroDivisionError).
		"storedgen": "inputs:\n  xs: [int]\n  y: int?\n  n: int\ntemplate: \"{% set g = xs|select('equalto', y + 1) %}{% set h = xs|select('divisibleby', n) %}ok\"\n",
		// A generator tested, subscripted (undefined) or stored through a
		// conditional: Jinja2 evaluates its operands and arguments, and
		// the index (UndefinedError, ZeroDivisionError), and never runs
		// the filter; the undefined item fails where Jinja2 needs a value.
		"genvalues": "inputs:\n  xs: [int]\n  y: int?\n  n: int\n  c: int\ntemplate: |\n" +
			"  {% if c == 1 %}{{ xs|select('equalto', y + 1) is defined }}{% elif c == 2 %}{{ (xs|select)[1 // n] }}\n" +
			"  {% elif c == 3 %}{% set t = xs|select('equalto', y + 1) if n else xs %}{% elif c == 4 %}{{ (xs|select)[0] + 1 }}{% endif %}ok\n",
		// Operations Python refuses whatever the values, where they may not
		// run: Jinja2 evaluates the operands (ZeroDivisionError; range's
		// arguments before the failing one), fails on an undefined one
		// (UndefinedError), then raises TypeError.
		"opsfail": "inputs:\n  c: int\n  k: int\n  n: int?\n  s: string\ntemplate: |\n" +
			"  {% if c == 1 %}{{ s - 'b' }}{% elif c == 2 %}{{ n < 'a' }}{% elif c == 3 %}{% for x in k %}{{ x }}{% endfor %}\n" +
			"  {% elif c == 4 %}{{ n * none }}{% elif c == 5 %}{{ (1 // k) - 'a' }}{% elif c == 6 %}{{ 'a' in k }}{% elif c == 7 %}{{ k.split(1 // k) }}{% elif c == 8 %}{% set ys = [] %}{% set _ = ys.extend(k) %}{% elif c == 9 %}{{ s.center(1 // k ~ '') }}{% elif c == 10 %}{% for i in range(1 // k, s - 'b') %}{% endfor %}{% endif %}ok\n",
		// Filters Jinja2 fails on whatever the operand's value, where they
		// may not run: after the arguments (ZeroDivisionError), on an
		// undefined operand where Jinja2 does (UndefinedError, and round's
		// TypeError of Undefined), else TypeError, FilterArgumentError,
		// AttributeError.
		"filtersfail": "inputs:\n  c: int\n  k: int\n  s: string?\ntemplate: |\n" +
			"  {% if c == 1 %}{{ k|length }}{% elif c == 2 %}{{ s|round }}{% elif c == 3 %}{{ k|reverse }}{% elif c == 4 %}{{ s|dictsort }}{% elif c == 5 %}{{ k|join(1 // k) }}{% endif %}ok\n",
		// A name always undefined where it is read (set only in a loop):
		// an attribute or get() of it fails where it runs (UndefinedError,
		// before get()'s arguments), and a test guards it.
		"alwaysundef": "inputs:\n  c: int\ntemplate: \"{% for t in [1] %}{% set y = t %}{% endfor %}{{ y['k'] if y else 'n' }}{% if c == 1 %}{{ y.a }}{% elif c == 2 %}{{ y.get('k', 1 // 0) }}{% endif %}ok\"\n",
		// tojson of a generator or a list's reverse iterator, where it may
		// not run: Jinja2 evaluates the generator's operand and arguments
		// (UndefinedError), then json.dumps raises TypeError; the same of
		// a dynamic value (llama.cpp's DeepSeek-R1 template).
		"gentojson":    "inputs:\n  xs: [int]\n  y: int?\n  c: int\ntemplate: \"{% if c == 1 %}{{ xs|select('equalto', y + 1)|tojson }}{% elif c == 2 %}{{ xs|reverse|tojson(2) }}{% elif c == 3 %}{{ xs|map('int')|tojson }}{% endif %}ok\"\n",
		"gentojsonarm": "inputs:\n  xs: [int]\n  c: bool\ntemplate: \"{{ c and xs|select|tojson }}{{ (xs|reverse|tojson) if not c else 'n' }}\"\n",
		"gentojsondyn": "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{% if tools %}{{ tools|map(attribute='function')|tojson(indent=2) }}{% endif %}ok\"\n",
		// A generator used as a value where it may not run: Jinja2
		// evaluates the generator's operand and arguments and the use's
		// other operands (an undefined one of arithmetic raises
		// UndefinedError), then raises TypeError, or prints the generator
		// with its address (promptgen fails there on purpose).
		"genmisuse": "inputs:\n  xs: [int]\n  y: int?\n  c: int\ntemplate: |\n" +
			"  {% if c == 1 %}{{ xs|select('equalto', y + 1)|length }}{% elif c == 2 %}{{ xs|reverse|last }}{% elif c == 3 %}{{ xs|map('string') }}\n" +
			"  {% elif c == 4 %}{{ (xs|unique) + [y + 1] }}{% elif c == 5 %}{{ [1] + xs|reject }}{% elif c == 6 %}{{ (xs|select)[1:y] }}\n" +
			"  {% elif c == 7 %}{{ 'a' ~ (xs|reject) ~ y }}{% elif c == 8 %}{{ xs|select is divisibleby(y) }}{% elif c == 9 %}{{ xs|select|string }}{% endif %}ok\n",
		"genmisusedyn": "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{% if tools %}{{ tools|map(attribute='function')|length }}{% endif %}{% for m in messages %}{{ m.content ~ (messages|map(attribute='role')) }}{% endfor %}ok\"\n",
		"genmisusearm": "inputs:\n  xs: [int]\n  c: bool\ntemplate: \"{{ c and xs|select|count }}{{ ((xs|select) * 2) if not c else 'n' }}\"\n",
		// A generator of dynamic values held as a value makes its items as
		// pulled: first stops before the item that fails; a loop fails at
		// once where the first item it pulls fails, and on purpose where
		// one after others does (Jinja2 runs the body on those first).
		"genlazy": "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{% set b = messages|map(attribute='content')|map('length') %}{{ b|first }}{% for x in b %}[{{ x }}]{% endfor %}ok\"\n",
		// A conditional used as a value with a generator in one arm, a
		// dynamic value: the arm taken decides (TypeError of the iterator,
		// the list's length or last item).
		"genarms": "inputs:\n  xs: [int]\n  c: bool\ntemplate: \"{{ (xs|select if c else xs)|length }}{{ (xs if c else xs|reverse)|last }}{{ (xs|unique or xs)[0] }}\"\n",
		// A dict literal with int keys and a string key: dictsort and the
		// default tojson (sort_keys) order them (TypeError); + of two dicts.
		"intkeys": "inputs:\n  c: int\ntemplate: \"{% set d = {1: 'a', 'b': 2} %}{% if c == 1 %}{{ d|dictsort }}{% elif c == 2 %}{{ d|tojson }}{% elif c == 3 %}{{ d[[1]] }}{% elif c == 4 %}{{ {1: 'a'} + {2: 'b'} }}{% endif %}ok\"\n",
		// A generator passed to a macro that calls itself (Hermes-2-Pro's
		// json_to_python_type(json_spec|items)): Jinja2 prints it with its
		// address, and fails on its length, tojson and + (TypeError);
		// promptgen does not print it, iterate it, compare it with itself
		// or read its attributes gi_*, and fails the render there.
		"genmacro": "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{% macro m(v, c, d=0) %}{% if d == 0 %}{{ m(v|items, c, 1) }}{% elif c == 1 %}{{ v }}{% elif c == 2 %}{{ v|length }}{% elif c == 3 %}{% for x in v %}{{ x }}{% endfor %}{% elif c == 4 %}{{ v|tojson }}{% elif c == 5 %}{{ v == v }}{% elif c == 6 %}{{ v.gi_running }}{% elif c == 7 %}{{ v + 1 }}{% endif %}{% endmacro %}{{ m(messages[0], c) }}\"\n",
		// A generator passed to a macro whose body does not read it: Jinja2
		// evaluates its operand and arguments at the call (UndefinedError).
		"genarg": "inputs:\n  xs: [int]\n  y: int?\ntemplate: \"{% macro m(a, g) %}{{ a }}{% endmacro %}{{ m(1, xs|select('equalto', y + 1)) }}\"\n",
		// reverse of a dynamic value stored and never read: Jinja2 runs it,
		// and fails on a number (FilterArgumentError).
		"storedreverse": "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{% for m in messages %}{% set r = m.content|reverse %}{% endfor %}ok\"\n",
		// A dynamic subscript of a generator or a list's reverse: a string
		// naming an attribute of it, which Jinja2 reads instead (send).
		// An attribute of a generator operated on directly is the
		// generator object's: a method that Jinja2 prints with its
		// address, gi_running, which promptgen does not read.
		"genattr": "inputs:\n  xs: [int]\n  c: int\ntemplate: \"{% if c == 1 %}{{ (xs|select).send }}{% elif c == 2 %}{{ (xs|select).gi_running }}{% else %}{{ (xs|reverse).send is defined }}{% endif %}\"\n",
		// A macro called in a loop: tojson of a generator in its body
		// fails where the call runs (TypeError).
		"macrogenloop": "inputs:\n  xs: [int]\ntemplate: \"{% macro f(b) %}{% set d = {'a': [1.0]|unique|tojson} %}{% endmacro %}{% for i in xs %}{{ f(1) }}{% endfor %}\"\n",
		"iteritemdyn":  "inputs: chat\ntemplate: \"{% for m in messages %}[{{ (['a']|select)[m.k] }}|{{ (['a']|reverse)[m.k] }}]{% endfor %}\"\n",
		// Jinja2 evaluates both operands of an arithmetic operator before
		// it fails on an undefined one: the right one fails first.
		"arithorder":     "inputs: {xs: [int], s: string}\ntemplate: \"{% for item in xs %}{% endfor %}{{ item // s.rindex('y') }}\"\n",
		"arithorderattr": "inputs:\n  o: {type: object, optional: true, properties: {k: {type: integer}}, required: [k]}\n  s: string\ntemplate: \"{{ o.k % s.index('y') }}\"\n",
		"iteritemtyped":  "inputs: {s: string}\ntemplate: \"{{ (['a']|unique)[s] is defined }}\"\n",
		// round with a method Jinja2 lacks (FilterArgumentError; the
		// typed round printed 2.0), and of a dynamic value that is no
		// number (TypeError).
		"roundmethod": "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{{ 2.5|round(0, method) }}{% for m in messages %}{{ m.content|round(0, method) }}{% endfor %}\"\n",
		"printfdyn":   "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{% for m in messages %}{{ m.content % m.n }}{% endfor %}\"\n",
		// An if that shows a defined leaves the test of b's to its body.
		"guardother": "inputs:\n  a: int?\n  b: int?\ntemplate: \"{% if a is defined %}{{ b + 1 }}{% endif %}\"\n",
		// Filters of typed objects converted to dicts, where Jinja2 raises:
		// an attribute path through an unset optional object, a key
		// missing from some objects compared with a string
		// (UndefinedError), slice(0) (ZeroDivisionError); sort by a key that
		// may be unset, where Jinja2 finds two Undefined equal and fails
		// comparing one with a value (and by several attributes).
		"objfilters": "inputs:\n  c: int\n  n: int\n  tickets:\n    type: array\n    items:\n      type: object\n      properties:\n" +
			"        id: {type: integer}\n        nick: {type: string}\n        reviewer: {type: object, properties: {name: {type: string}}, required: [name]}\n      required: [id]\ntemplate: |\n" +
			"  {% if c == 1 %}{{ tickets | groupby('reviewer.name') | list }}\n  {% elif c == 2 %}{{ tickets | min(attribute='reviewer.name') }}\n" +
			"  {% elif c == 3 %}{{ tickets | slice(n) | list }}\n  {% elif c == 4 %}{{ tickets | groupby('nick') | list }}\n  {% elif c == 5 %}{{ tickets | max(attribute='nick') }}\n" +
			"  {% elif c == 6 %}{{ tickets | sort(attribute='nick') | map(attribute='id') | join(',') }}\n  {% elif c == 7 %}{{ tickets | sort(attribute='reviewer.name', reverse=true) | map(attribute='id') | join(',') }}\n" +
			"  {% elif c == 8 %}{{ tickets | sort(attribute='nick,id', reverse=true) | map(attribute='id') | join(',') }}\n  {% endif %}\n",
		// unique of dynamic values whose keys Python cannot hash (TypeError).
		"uniquedyn": "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{{ messages | map(attribute='content') | unique | list }}\"\n",
		// unique of declared objects, maps or lists: Python cannot hash
		// one (TypeError), so Jinja2 renders only an empty list.
		"uniqueobjects": "inputs:\n  os: {type: array, items: {type: object, properties: {a: {type: string}}}}\n  ls: [[int]]\ntemplate: \"{{ os | unique | list }}|{% for l in ls | unique %}{{ l }}{% endfor %}\"\n",
		"uniqueattr":    "inputs:\n  os: {type: array, items: {type: object, properties: {t: {type: array, items: {type: string}}}, required: [t]}}\ntemplate: \"{{ os | unique(attribute='t') | list }}\"\n",
		// A generator held as a value (an iterator): a read after a loop
		// over it, which may have stopped early (Jinja2 resumes it where
		// the loop stopped); what Python refuses of it (TypeError); printed
		// (its address).
		"genvalue": "inputs:\n  xs: [string]\n  c: int\ntemplate: \"{% set g = xs|select %}{% set l = [xs|select] %}{% if c == 1 %}{% for x in g %}{{ x }}{% endfor %}{{ g|list }}{% elif c == 2 %}{{ l[0]|length }}{% elif c == 3 %}{{ l[0]|last }}{% elif c == 4 %}{{ l[0]|tojson }}{% elif c == 5 %}{{ l }}{% elif c == 6 %}{{ l[0] + [1] }}{% endif %}ok\"\n",
		// reverse taken as a value: of a dynamic value, a string or Python's
		// reversed() (a list_reverseiterator of a list, which has no length
		// and prints with its address); of a string that may be undefined,
		// reversed(Undefined) where it is.
		"reversevalue": "jinja: {profile: transformers}\ninputs: chat\ntemplate: \"{% for m in messages %}{{ (m.content|reverse)|length }}{{ m.content|reverse }}{% endfor %}ok\"\n",
		"reverseundef": "inputs:\n  u: string?\ntemplate: \"{{ u|reverse }}\"\n",
		// A sum of tuples that holds a generator, printed (its address).
		"gensum": "inputs:\n  xs: [string]\ntemplate: \"{{ (1, xs|unique) + () }}\"\n",
		// A list literal printed where it stands is made, then printed: an
		// undefined item after a reversed one (of an undefined string)
		// fails first (difffuzz seed 264 case 716, the Go backend failed on
		// printing the reversed).
		"literalorder": "inputs:\n  s: string\ntemplate: \"{% for e in s %}{% endfor %}{{ [('' if e else e)|reverse, e.replace('a', 'b')] }}\"\n",
	}
	tests := []struct {
		key, feed, want string
	}{
		{"objfilters", `{"c": 1, "n": 1, "tickets": [{"id": 1, "reviewer": {"name": "a"}}, {"id": 2}]}`, `ERROR: prompts/objfilters.yaml:14:21: render objfilters: variable is undefined`},
		{"objfilters", `{"c": 2, "n": 1, "tickets": [{"id": 1, "reviewer": {"name": "a"}}, {"id": 2}]}`, `ERROR: prompts/objfilters.yaml:15:23: render objfilters: variable is undefined`},
		{"objfilters", `{"c": 2, "n": 1, "tickets": [{"id": 1, "reviewer": {"name": "b"}}, {"id": 2, "reviewer": {"name": "a"}}]}`, "{'id': 2, 'reviewer': {'name': 'a'}}\n"},
		{"objfilters", `{"c": 3, "n": 0, "tickets": [{"id": 1}]}`, `ERROR: prompts/objfilters.yaml:16:23: render objfilters: invalid operation: integer division or modulo by zero`},
		{"objfilters", `{"c": 4, "n": 0, "tickets": [{"id": 1, "nick": "x"}, {"id": 2}]}`, `ERROR: prompts/objfilters.yaml:17:23: render objfilters: variable is undefined`},
		{"objfilters", `{"c": 5, "n": 0, "tickets": [{"id": 1, "nick": "x"}, {"id": 2}]}`, `ERROR: prompts/objfilters.yaml:18:23: render objfilters: variable is undefined`},
		{"objfilters", `{"c": 6, "n": 0, "tickets": [{"id": 1}, {"id": 2}, {"id": 3}]}`, "1,2,3\n"},
		{"objfilters", `{"c": 6, "n": 0, "tickets": [{"id": 1, "nick": "b"}, {"id": 2}]}`, `ERROR: prompts/objfilters.yaml:19:23: render objfilters: "nick": variable is undefined`},
		{"objfilters", `{"c": 7, "n": 0, "tickets": [{"id": 1, "reviewer": {"name": "a"}}, {"id": 2, "reviewer": {"name": "b"}}]}`, "2,1\n"},
		{"objfilters", `{"c": 7, "n": 0, "tickets": [{"id": 1, "reviewer": {"name": "a"}}, {"id": 2}]}`, `ERROR: prompts/objfilters.yaml:20:23: render objfilters: variable is undefined`},
		{"objfilters", `{"c": 8, "n": 0, "tickets": [{"id": 1, "nick": "b"}, {"id": 2, "nick": "b"}, {"id": 3, "nick": "a"}]}`, "2,1,3\n"},
		{"literalorder", `{"s": "ab"}`, `ERROR: prompts/literalorder.yaml:3:70: render literalorder: "e": variable is undefined`},
		{"uniquedyn", `{"messages": [{"role": "user", "content": "a"}, {"role": "user", "content": "A"}]}`, "['a']"},
		{"uniquedyn", `{"messages": [{"role": "user", "content": "a"}, {"role": "user", "content": [{"type": "text", "text": "hi"}]}]}`, `ERROR: prompts/uniquedyn.yaml:3:15: render uniquedyn: invalid operation: unhashable type: 'list'`},
		{"uniqueobjects", `{"os": [], "ls": []}`, "[]|"},
		{"uniqueobjects", `{"os": [{"a": "x"}], "ls": []}`, `ERROR: prompts/uniqueobjects.yaml:4:15: render uniqueobjects: invalid operation: unhashable type: 'dict'`},
		{"uniqueobjects", `{"os": [], "ls": [[1]]}`, `ERROR: prompts/uniqueobjects.yaml:4:49: render uniqueobjects: invalid operation: unhashable type: 'list'`},
		{"uniqueattr", `{"os": []}`, "[]"},
		{"uniqueattr", `{"os": [{"t": ["x"]}]}`, `ERROR: prompts/uniqueattr.yaml:3:15: render uniqueattr: invalid operation: unhashable type: 'list'`},
		{"recursion", `{"c": 1, "n": 189}`, "\n\n\nbottom"},
		{"recursion", `{"c": 1, "n": 190}`, `ERROR: prompts/recursion.yaml:5:36: render recursion: invalid operation: macro "f": more than 190 nested macro calls (Jinja2 raises RecursionError near 200)`},
		{"recursion", `{"c": 2, "n": 94}`, "\n\n\nend"},
		{"recursion", `{"c": 2, "n": 95}`, `ERROR: prompts/recursion.yaml:5:107: render recursion: invalid operation: macro "h": more than 190 nested macro calls (Jinja2 raises RecursionError near 200)`},
		{"recursion", `{"c": 3, "n": 188}`, "\n\n\nbottom"},
		{"recursion", `{"c": 3, "n": 189}`, `ERROR: prompts/recursion.yaml:5:36: render recursion: invalid operation: macro "f": more than 190 nested macro calls (Jinja2 raises RecursionError near 200)`},
		{"recursion", `{"c": 4, "n": 10}`, "\n\n\n"},
		{"recursion", `{"c": 4, "n": 40}`, `ERROR: prompts/recursion.yaml:7:40: render recursion: invalid operation: more than 1048576 calls of macros that call themselves in one render`},
		{"macroinif", `{"c": 1}`, "[M]"},
		{"macroinif", `{"c": 2}`, `ERROR: prompts/macroinif.yaml:3:72: render macroinif: "m": variable is undefined`},
		{"inundefleft", `{"messages": [{"role": "user", "content": "x"}], "tools": null}`, `ERROR: prompts/inundefleft.yaml:3:53: render inundefleft: invalid operation: 'NoneType' object is not iterable`},
		{"inundefleft", `{"messages": [{"role": "user", "content": "x"}], "tools": ["a"]}`, `ERROR: prompts/inundefleft.yaml:3:15: render inundefleft: variable is undefined`},
		{"wordwrapcond", `{"xs": [1, 2], "flag": false}`, "a\nb"},
		{"wordwrapcond", `{"xs": [1, 2], "flag": true}`, `ERROR: prompts/wordwrapcond.yaml:4:15: render wordwrapcond: invalid operation: 'list' object has no attribute 'splitlines'`},
		{"indentdyn", `{"messages": [{"role": "user", "content": "a\nb", "n": "abcdef"}]}`, "[a\n    b][abcdef]"},
		{"indentdyn", `{"messages": [{"role": "user", "content": null}]}`, `ERROR: prompts/indentdyn.yaml:3:39: render indentdyn: invalid operation: unsupported operand type(s) for +=: 'NoneType' and 'str'`},
		{"indentdyn", `{"messages": [{"role": "user", "content": 3}]}`, `ERROR: prompts/indentdyn.yaml:3:39: render indentdyn: invalid operation: unsupported operand type(s) for +=: 'int' and 'str'`},
		{"indentdyn", `{"messages": [{"role": "user", "content": [1]}]}`, `ERROR: prompts/indentdyn.yaml:3:39: render indentdyn: invalid operation: 'list' object has no attribute 'splitlines'`},
		{"indentdyn", `{"messages": [{"role": "user"}]}`, `ERROR: prompts/indentdyn.yaml:3:39: render indentdyn: variable is undefined`},
		{"indentdyn", `{"messages": [{"role": "user", "content": "a", "n": 2.5}]}`, `ERROR: prompts/indentdyn.yaml:3:63: render indentdyn: invalid operation: object of type 'float' has no len()`},
		{"indentdyn", `{"messages": [{"role": "user", "content": "a", "n": {"k": 1}}]}`, "[a][{'k': 1}]"},
		{"indentdyn", `{"messages": [{"role": "user", "content": "a", "n": {"0": 0, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8}}]}`, `ERROR: prompts/indentdyn.yaml:3:63: render indentdyn: invalid operation: unhashable type: 'slice'`},
		{"indentdyn", `{"messages": [{"role": "user", "content": "a", "n": [1, 2]}]}`, "[a][[1, 2]]"},
		{"indentdyn", `{"messages": [{"role": "user", "content": "a", "n": [0, 1, 2, 3, 4, 5, 6, 7, 8]}]}`, `ERROR: prompts/indentdyn.yaml:3:63: render indentdyn: invalid operation: 'list' object has no attribute 'rsplit'`},
		{"indentundef", `{}`, `ERROR: prompts/indentundef.yaml:3:39: render indentundef: variable is undefined`},
		{"truncundef", `{"o": {"items": {"label": "abc"}}}`, `ERROR: prompts/truncundef.yaml:3:15: render truncundef: variable is undefined`},
		{"indentundef", `{"x": "a"}`, "[a][b]"},
		{"dictmissing", `{"c": 1}`, `ERROR: prompts/dictmissing.yaml:3:52: render dictmissing: variable is undefined`},
		{"dictmissing", `{"c": 2}`, `ERROR: prompts/dictmissing.yaml:3:86: render dictmissing: invalid operation: division by zero`},
		{"dictmissing", `{"c": 3}`, "ok"},
		{"mixeddyn", `{"c": 1, "name": "ab", "n": 3, "tags": []}`, "2ok"},
		{"mixeddyn", `{"c": 1, "n": 3, "tags": []}`, `ERROR: prompts/mixeddyn.yaml:6:30: render mixeddyn: invalid operation: object of type 'int' has no len()`},
		{"mixeddyn", `{"c": 2, "n": 3, "tags": ["x", "y"]}`, "x,yok"},
		{"mixeddyn", `{"c": 2, "n": 0, "tags": ["x"]}`, `ERROR: prompts/mixeddyn.yaml:6:73: render mixeddyn: invalid operation: 'int' object is not iterable`},
		{"mixeddyn", `{"c": 3, "n": 3, "tags": []}`, `ERROR: prompts/mixeddyn.yaml:6:120: render mixeddyn: variable is undefined`},
		{"mixeddyn", `{"c": 3, "name": " a ", "n": 3, "tags": []}`, "aok"},
		{"roundmethod", `{"method": "up", "messages": []}`, `ERROR: prompts/roundmethod.yaml:3:15: render roundmethod: invalid operation: method must be common, ceil or floor`},
		{"roundmethod", `{"method": "floor", "messages": [{"role": "user", "content": 2.5}]}`, "2.02.0"},
		{"roundmethod", `{"method": "common", "messages": [{"role": "user", "content": "a"}]}`, `ERROR: prompts/roundmethod.yaml:3:64: render roundmethod: invalid operation: type str doesn't define __round__ method`},
		{"roundmethod", `{"method": "ceil", "messages": [{"role": "user", "content": "a"}]}`, `ERROR: prompts/roundmethod.yaml:3:64: render roundmethod: invalid operation: must be real number, not str`},
		{"missingfilter", `{"c": 0, "y": "a"}`, "ok"},
		{"missingfilter", `{"c": 1, "y": "a"}`, `ERROR: prompts/missingfilter.yaml:4:32: render missingfilter: invalid operation: No filter named 'from_json' found.`},
		{"missingfilter", `{"c": 2, "y": "a"}`, `ERROR: prompts/missingfilter.yaml:4:69: render missingfilter: invalid operation: No test named 'nosuchtest' found.`},
		{"printf", `{"c": 1, "s": "x", "n": 1}`, `ERROR: prompts/printf.yaml:7:21: render printf: invalid operation: %d format: a real number is required, not str`},
		{"printf", `{"c": 2, "s": "x", "n": 1}`, `ERROR: prompts/printf.yaml:8:23: render printf: invalid operation: not enough arguments for format string`},
		{"printf", `{"c": 3, "s": "x", "n": 99999999999}`, `ERROR: prompts/printf.yaml:9:23: render printf: output would exceed runtime.MaxOutput`},
		{"printf", `{"c": 3, "s": "x", "n": 3}`, "  x\n"},
		{"printf", `{"c": 4, "s": "x", "n": 1}`, `ERROR: prompts/printf.yaml:10:23: render printf: variable is undefined`},
		{"printf", `{"c": 5, "s": "%y", "n": 1}`, `ERROR: prompts/printf.yaml:11:23: render printf: invalid operation: unsupported format character 'y' (0x79) at index 1`},
		{"printf", `{"c": 6, "s": "x", "n": 1}`, `ERROR: prompts/printf.yaml:12:23: render printf: invalid operation: KeyError: 'a'`},
		{"listrepeat", `{"n": 3, "xs": ["a", "b"]}`, "6|6"},
		{"listrepeat", `{"n": 99999999999, "xs": ["a"]}`, `ERROR: prompts/listrepeat.yaml:4:16: render listrepeat: output would exceed runtime.MaxOutput`},
		{"strformat", `{"c": 1, "s": "x", "n": 1}`, `ERROR: prompts/strformat.yaml:7:21: render strformat: invalid operation: Unknown format code 'd' for object of type 'str'`},
		{"strformat", `{"c": 2, "s": "x", "n": 1}`, `ERROR: prompts/strformat.yaml:8:23: render strformat: invalid operation: Replacement index 1 out of range for positional args tuple`},
		{"strformat", `{"c": 3, "s": "x", "n": 99999999999}`, `ERROR: prompts/strformat.yaml:9:23: render strformat: output would exceed runtime.MaxOutput`},
		{"strformat", `{"c": 3, "s": "x", "n": 3}`, "x  \n"},
		{"strformat", `{"c": 4, "s": "x", "n": 1}`, `ERROR: prompts/strformat.yaml:10:23: render strformat: invalid operation: unsupported format string passed to Undefined.__format__`},
		{"strformat", `{"c": 5, "s": "{:}{y}", "n": 1}`, `ERROR: prompts/strformat.yaml:11:23: render strformat: invalid operation: KeyError: 'y'`},
		{"strformat", `{"c": 6, "s": "x", "n": 1}`, `ERROR: prompts/strformat.yaml:12:23: render strformat: invalid operation: KeyError: 'a'`},
		{"printfdyn", `{"messages": [{"role": "user", "content": "%05.1f|", "n": 2}, {"role": "user", "content": "%c", "n": -1}]}`, `ERROR: prompts/printfdyn.yaml:3:38: render printfdyn: invalid operation: %c arg not in range(0x110000)`},
		{"missing", `{"tags": ["x"]}`, `ERROR: prompts/missing.yaml:5:9: render missing: "name": required variable is not set`},
		{"missing", `{"name": "Ann"}`, `ERROR: prompts/missing.yaml:6:15: render missing: "tags": required variable is not set`},
		{"missing", `{"name": "Ann", "tags": []}`, "Hi Ann!\n"},
		{"missingloop", `{"c": 1, "tags": [], "o": {"a": "A", "b": "B"}}`, "ABnone|empty"},
		{"missingloop", `{"c": 1, "tags": ["y", "x", "z"], "o": {"a": "A"}}`, "y|yxz"},
		{"missingloop", `{"c": 1, "o": {"a": "A", "b": "B"}}`, `ERROR: prompts/missingloop.yaml:10:81: render missingloop: "tags": required variable is not set`},
		{"missingloop", `{"c": 0, "o": {"a": "A", "b": "B"}}`, `ERROR: prompts/missingloop.yaml:10:184: render missingloop: "tags": required variable is not set`},
		{"missingloop", `{"c": 0, "tags": [], "o": {"b": "B"}}`, `ERROR: prompts/missingloop.yaml:10:33: render missingloop: "o.a": required variable is not set`},
		{"getundefined", `{"c": 1}`, `ERROR: prompts/getundefined.yaml:6:23: render getundefined: "o": variable is undefined`},
		{"getundefined", `{"c": 1, "o": {}}`, "x\n"},
		{"getundefined", `{"c": 2}`, `ERROR: prompts/getundefined.yaml:7:25: render getundefined: "m": variable is undefined`},
		{"getundefined", `{"c": 3}`, `ERROR: prompts/getundefined.yaml:8:68: render getundefined: "d": variable is undefined`},
		{"getundefined", `{"c": 3, "o": {"a": "y"}}`, "1\n"},
		{"setattr", `{"c": 1, "items": [{"n": 0}]}`, `ERROR: prompts/setattr.yaml:5:45: render setattr: invalid operation: cannot assign attribute on non-namespace object`},
		{"setattr", `{"c": 1, "items": [{"n": 2}]}`, `ERROR: prompts/setattr.yaml:5:45: render setattr: invalid operation: cannot assign attribute on non-namespace object`},
		{"setattr", `{"c": 2, "items": []}`, `ERROR: prompts/setattr.yaml:5:118: render setattr: invalid operation: cannot assign attribute on non-namespace object`},
		{"setattr", `{"c": 1, "items": []}`, "ok"},
		{"setattrblock", `{"c": 1, "z": 0}`, `ERROR: prompts/setattrblock.yaml:5:51: render setattrblock: invalid operation: division by zero`},
		{"setattrblock", `{"c": 1, "z": 1}`, `ERROR: prompts/setattrblock.yaml:5:41: render setattrblock: invalid operation: cannot assign attribute on non-namespace object`},
		{"setattrblock", `{"c": 3, "z": 0}`, `ERROR: prompts/setattrblock.yaml:5:173: render setattrblock: invalid operation: division by zero`},
		{"setattrblock", `{"c": 3, "z": 1}`, `ERROR: prompts/setattrblock.yaml:5:162: render setattrblock: invalid operation: cannot assign attribute on non-namespace object`},
		{"setattrblock", `{"c": 2, "z": 1}`, "<1>ok"},
		{"setattrblock", `{"c": 0, "z": 1}`, "ok"},
		{"nsmaybe", `{"c": 0, "k": 2}`, `ERROR: prompts/nsmaybe.yaml:4:95: render nsmaybe: "ns": variable is undefined`},
		{"nsmaybe", `{"c": -1, "k": 2}`, `ERROR: prompts/nsmaybe.yaml:4:127: render nsmaybe: invalid operation: cannot assign attribute on non-namespace object`},
		{"nsmaybe", `{"c": -3, "k": 2}`, `ERROR: prompts/nsmaybe.yaml:4:156: render nsmaybe: "ns": variable is undefined`},
		{"nsmaybe", `{"c": 2, "k": 2}`, "2"},
		{"nsmaybe", `{"c": 1, "k": 2}`, "True"},
		{"reqmapobj", `{"name": "a", "m": {"k": {}}}`, `ERROR: prompts/reqmapobj.yaml:4:53: render reqmapobj: "v.n": required variable is not set`},
		{"reqmapobj", `{"name": "", "m": {"k": {"n": "b"}}}`, `ERROR: prompts/reqmapobj.yaml:4:15: render reqmapobj: "name": required variable is not set`},
		{"chatnomsg", `{}`, `ERROR: prompts/chatnomsg.yaml:3:24: render chatnomsg: "messages": required variable is not set`},
		{"getorder", `{"messages": [{"role": "user"}], "tools": [{"a": 1}]}`, `ERROR: prompts/getorder.yaml:3:38: render getorder: variable is undefined`},
		{"order", `{"messages": []}`, `ERROR: prompts/order.yaml:3:16: render order: variable is undefined`},
		{"ordertyped", `{"c": 1, "a": 1, "b": 0, "s": "x"}`, `ERROR: prompts/ordertyped.yaml:8:22: render ordertyped: invalid operation: division by zero`},
		{"ordertyped", `{"c": 2, "a": 1, "b": 0, "s": "x"}`, `ERROR: prompts/ordertyped.yaml:9:29: render ordertyped: invalid operation: division by zero`},
		{"ordertyped", `{"c": 3, "a": 1, "b": 0, "s": "x"}`, `ERROR: prompts/ordertyped.yaml:10:24: render ordertyped: invalid operation: division by zero`},
		{"ordertyped", `{"c": 4, "a": 1, "b": 0, "s": "x"}`, `ERROR: prompts/ordertyped.yaml:11:24: render ordertyped: invalid operation: division by zero`},
		{"ordertyped", `{"c": 4, "a": 1, "b": 1, "s": "x"}`, `ERROR: prompts/ordertyped.yaml:11:40: render ordertyped: "u": variable is undefined`},
		{"raisedyn", `{"messages": [{"role": "user", "content": "hi"}]}`, "ok"},
		{"raisedyn", `{"messages": [{"role": "user", "content": "hi"}, {"role": "bot", "content": "yo"}]}`, `ERROR: prompts/raisedyn.yaml:3:63: render raisedyn: the template raised an exception: Invalid role bot.`},
		{"strmethods", `{"c": 1, "s": "axb", "n": 0, "f": "."}`, "1\n"},
		{"strmethods", `{"c": 1, "s": "ab", "n": 0, "f": "."}`, `ERROR: prompts/strmethods.yaml:7:21: render strmethods: invalid operation: substring not found`},
		{"strmethods", `{"c": 2, "s": "xab", "n": 1, "f": "."}`, `ERROR: prompts/strmethods.yaml:8:23: render strmethods: invalid operation: substring not found`},
		{"strmethods", `{"c": 3, "s": "ab", "n": 1, "f": ".."}`, `ERROR: prompts/strmethods.yaml:9:23: render strmethods: invalid operation: The fill character must be exactly one character long`},
		{"strmethods", `{"c": 3, "s": "ab", "n": 4, "f": "ł"}`, "abłł\n"},
		{"strmethods", `{"c": 4, "s": "ab", "n": 9223372036854775807, "f": "."}`, `ERROR: prompts/strmethods.yaml:10:23: render strmethods: output would exceed runtime.MaxOutput`},
		{"strmethods", `{"c": 5, "s": "ab", "n": 40000000, "f": "ł"}`, `ERROR: prompts/strmethods.yaml:11:23: render strmethods: output would exceed runtime.MaxOutput`},
		{"strmethods", `{"c": 6, "s": "ab", "n": 0, "f": "x"}`, `ERROR: prompts/strmethods.yaml:12:23: render strmethods: invalid operation: empty separator`},
		{"strmethods", `{"c": 6, "s": "ab", "n": 1, "f": "x"}`, "('', '', 'ab')\n"},
		{"strmethodsdyn", `{"messages": [{"role": "user", "content": "x"}, {"role": "ab", "content": "x"}]}`, `ERROR: prompts/strmethodsdyn.yaml:3:73: render strmethodsdyn: invalid operation: The fill character must be exactly one character long`},
		{"strmethodsdyn", `{"messages": [{"role": "a", "content": "yx"}, {"role": "a", "content": "y"}]}`, `ERROR: prompts/strmethodsdyn.yaml:3:38: render strmethodsdyn: invalid operation: substring not found`},
		{"strmethodsdynint", `{"messages": [{"role": "user", "content": "x", "n": 3, "s": 0}, {"role": "user", "content": "y", "n": 2.0}]}`, `ERROR: prompts/strmethodsdynint.yaml:3:38: render strmethodsdynint: invalid operation: 'float' object cannot be interpreted as an integer`},
		{"strmethodsdynint", `{"messages": [{"role": "user", "content": "x", "n": "3", "s": 0}]}`, `ERROR: prompts/strmethodsdynint.yaml:3:38: render strmethodsdynint: invalid operation: 'str' object cannot be interpreted as an integer`},
		{"strmethodsdynint", `{"messages": [{"role": "user", "content": "x", "n": null, "s": 0}]}`, `ERROR: prompts/strmethodsdynint.yaml:3:38: render strmethodsdynint: invalid operation: 'NoneType' object cannot be interpreted as an integer`},
		{"strmethodsdynint", `{"messages": [{"role": "user", "content": "x"}]}`, `ERROR: prompts/strmethodsdynint.yaml:3:38: render strmethodsdynint: invalid operation: 'Undefined' object cannot be interpreted as an integer`},
		{"strmethodsdynint", `{"messages": [{"role": "user", "content": "x", "n": true, "s": true}]}`, "x-1;"},
		{"maptruncdyn", `{"messages": [{"role": "user", "content": "abcdef"}, {"role": "user", "content": ["a", "b", "c"]}]}`, "['...', ['a', 'b', 'c']]"},
		{"maptruncdyn", `{"messages": [{"role": "user", "content": ["a", "b", "c", "d"]}]}`, `ERROR: prompts/maptruncdyn.yaml:2:15: render maptruncdyn: invalid operation: 'list' object has no attribute 'rsplit'`},
		{"maptruncdyn", `{"messages": [{"role": "user", "content": 12345}]}`, `ERROR: prompts/maptruncdyn.yaml:2:15: render maptruncdyn: invalid operation: object of type 'int' has no len()`},
		{"mapindentdyn", `{"messages": [{"role": "user", "content": "x", "parts": ["a\nb", 3], "w": 1}]}`, `ERROR: prompts/mapindentdyn.yaml:2:38: render mapindentdyn: invalid operation: unsupported operand type(s) for +=: 'int' and 'str'`},
		{"mapindentdyn", `{"messages": [{"role": "user", "content": "x", "parts": ["a\nb"], "w": 1.5}]}`, `ERROR: prompts/mapindentdyn.yaml:2:38: render mapindentdyn: invalid operation: indent: width must be an integer, not float`},
		{"mapindentdyn", `{"messages": [{"role": "user", "content": "x", "parts": ["a\nb"], "w": null}]}`, `ERROR: prompts/mapindentdyn.yaml:2:38: render mapindentdyn: invalid operation: indent: width must be an integer, not NoneType`},
		{"methodargsfirst", `{"messages": [{"role": "user", "content": [], "n": 0}]}`, `ERROR: prompts/methodargsfirst.yaml:2:58: render methodargsfirst: invalid operation: division by zero`},
		{"firstkind", `{"c": false, "n": 3}`, `3`},
		{"firstkind", `{"c": true, "n": 3}`, `ERROR: prompts/firstkind.yaml:1:53: render firstkind: variable is undefined: split() needs a string, not int (Jinja2 raises UndefinedError: an int has no such method)`},
		{"loopintundef", `{"c": true, "xs": []}`, `noneok`},
		{"loopintundef", `{"c": false, "xs": [1]}`, `ok`},
		{"loopintundef", `{"c": true, "xs": [1]}`, `ERROR: prompts/loopintundef.yaml:4:34: render loopintundef: invalid operation: cannot loop over int`},
		{"laterundef", `{"c": false, "o": {}}`, `ok`},
		{"laterundef", `{"c": true, "o": {}}`, `ERROR: prompts/laterundef.yaml:1:25: render laterundef: variable is undefined`},
		{"laterundef", `{"c": true, "o": {"n": 2}}`, `ERROR: prompts/laterundef.yaml:1:25: render laterundef: invalid operation: unsupported operand types for %: list of int and int`},
		{"anyoperand", `{"c": 0, "x": 1, "y": "s", "z": 2, "u": "t"}`, `ok`},
		{"anyoperand", `{"c": 1, "x": 1, "y": "s", "z": 2, "u": "t"}`, `ERROR: prompts/anyoperand.yaml:1:30: render anyoperand: invalid operation: unsupported operand types for -: string and int`},
		{"anyoperand", `{"c": 2, "x": 1, "y": "s", "z": 2, "u": "t"}`, `ERROR: prompts/anyoperand.yaml:1:60: render anyoperand: invalid operation: cannot compare none > a value of any type`},
		{"anyoperand", `{"c": 3, "x": 1, "y": "s", "z": 2, "u": "t"}`, `ERROR: prompts/anyoperand.yaml:1:91: render anyoperand: invalid operation: unsupported operand types for %: list of int and int`},
		{"anyoperand", `{"c": 4, "x": 1, "y": "s", "z": 2, "u": "t"}`, `ERROR: prompts/anyoperand.yaml:1:133: render anyoperand: invalid operation: cannot compare a value of any type < none`},
		{"dictmethodfails", `{"c": 0, "o": {"a": "x"}}`, `ok`},
		{"dictmethodfails", `{"c": 1, "o": {"a": "x"}}`, `ERROR: prompts/dictmethodfails.yaml:5:30: render dictmethodfails: invalid operation: object of type 'builtin_function_or_method' has no len()`},
		{"dictmethodfails", `{"c": 2, "o": {"a": "x"}}`, `ERROR: prompts/dictmethodfails.yaml:5:67: render dictmethodfails: variable is undefined`},
		{"dictmethodfails", `{"c": 3, "o": {"a": "x"}}`, `ERROR: prompts/dictmethodfails.yaml:5:105: render dictmethodfails: invalid operation: dict.items is a method, which Jinja2 prints with its address in memory (<built-in method items of dict object at 0x...>): promptgen does not print it`},
		{"dictmethodfails", `{"c": 4, "o": {"a": "x"}}`, `ERROR: prompts/dictmethodfails.yaml:5:135: render dictmethodfails: "p": variable is undefined`},
		{"dictmethodfails", `{"c": 5, "o": {"a": "x"}}`, `ERROR: prompts/dictmethodfails.yaml:5:175: render dictmethodfails: invalid operation: unsupported operand type(s) for +: 'builtin_function_or_method' and 'int'`},
		{"dictmethodfails", `{"c": 6, "o": {"a": "x"}}`, `ERROR: prompts/dictmethodfails.yaml:5:207: render dictmethodfails: invalid operation: argument of type 'builtin_function_or_method' is not iterable`},
		{"dictmethodfails", `{"c": 4, "o": {"a": "x"}, "p": {"a": "y"}}`, `Trueok`},
		{"dictmethodfails", `{"c": 7, "o": {"a": "x", "values": 2}}`, `2ok`},
		{"dictmethodfails", `{"c": 7, "o": {"a": "x"}}`, `ERROR: prompts/dictmethodfails.yaml:5:245: render dictmethodfails: invalid operation: dict.values is a method, which Jinja2 prints with its address in memory (<built-in method values of dict object at 0x...>): promptgen does not print it`},
		{"methodargsfirstget", `{"messages": [{"role": "user", "content": [], "n": 0}]}`, `ERROR: prompts/methodargsfirstget.yaml:2:70: render methodargsfirstget: invalid operation: division by zero`},
		{"methodargsfirstget", `{"messages": [{"role": "user", "content": "axb", "n": 1}]}`, "1;"},
		{"methodargsfirst", `{"messages": [{"role": "user", "n": 0}]}`, `ERROR: prompts/methodargsfirst.yaml:2:38: render methodargsfirst: variable is undefined`},
		{"methodargsfirst", `{"messages": [{"role": "user", "content": "axb", "n": 1}]}`, "1;"},
		{"methodargsfirst", `{"messages": [{"role": "user", "content": [], "n": 1}]}`, `ERROR: prompts/methodargsfirst.yaml:2:38: render methodargsfirst: variable is undefined`},
		{"strmethodsdynint", `{"messages": [{"role": "user", "content": "x", "n": 1, "s": 1.0}]}`, `ERROR: prompts/strmethodsdynint.yaml:3:64: render strmethodsdynint: invalid operation: slice indices must be integers or None or have an __index__ method`},
		{"pullfirst", `{"messages": [{"role": "user", "content": "a", "d": {"b": null}, "n": 7, "k": "ab"}]}`, `ERROR: prompts/pullfirst.yaml:2:15: render pullfirst: invalid operation: unhashable type: 'dict'`},
		{"pullfirst", `{"messages": [{"role": "user", "content": "a", "n": "x"}]}`, `ERROR: prompts/pullfirst.yaml:2:83: render pullfirst: invalid operation: '>' not supported between instances of 'str' and 'int'`},
		{"pullfirst", `{"messages": [{"role": "user", "content": "a", "n": 7, "k": 5}]}`, `ERROR: prompts/pullfirst.yaml:2:109: render pullfirst: invalid operation: object of type 'int' has no len()`},
		{"nametestdyn", `{"messages": [{"role": "user", "content": "upper"}, {"role": "user", "content": "x"}]}`, "False;True;"},
		{"recursivecaller", `{"n": 3}`, `ERROR: prompts/recursivecaller.yaml:3:46: render recursivecaller: "caller": variable is undefined`},
		{"recursivecaller", `{"n": 0}`, ";"},
		{"emptydictdyn", `{"messages": [], "d": {"b": 1}}`, `"";1;`},
		{"emptydictdyn", `{"messages": [], "d": "bc"}`, `ERROR: prompts/emptydictdyn.yaml:3:80: render emptydictdyn: invalid operation: Object of type Undefined is not JSON serializable`},
		{"nametestdyn", `{"messages": [{"role": "user", "content": "x"}, {"role": "user", "content": [{"type": "text", "text": "hi"}]}]}`, `ERROR: prompts/nametestdyn.yaml:3:38: render nametestdyn: invalid operation: unhashable type: 'list'`},
		{"methoddyn", `{"messages": [{"role": "user", "content": "x", "c": 0}]}`, "True"},
		{"methoddyn", `{"messages": [{"role": "user", "content": "x", "c": 1}]}`, `ERROR: prompts/methoddyn.yaml:4:46: render methoddyn: invalid operation: dict.items is a method, which Jinja2 prints with its address in memory (<built-in method items of dict object at 0x...>): promptgen does not print it`},
		{"methoddyn", `{"messages": [{"role": "user", "content": "x", "c": 2}]}`, `ERROR: prompts/methoddyn.yaml:4:81: render methoddyn: invalid operation: dict.items is a method, which Jinja2 prints with its address in memory (<built-in method items of dict object at 0x...>): promptgen does not print it`},
		{"methoddyn", `{"messages": [{"role": "user", "content": "x", "c": 3}]}`, `ERROR: prompts/methoddyn.yaml:4:119: render methoddyn: invalid operation: Object of type builtin_function_or_method is not JSON serializable`},
		{"methoddyn", `{"messages": [{"role": "user", "content": "x", "c": 4}]}`, `ERROR: prompts/methoddyn.yaml:5:25: render methoddyn: invalid operation: dict.get is a method, which Jinja2 prints with its address in memory (<built-in method get of dict object at 0x...>): promptgen does not print it`},
		{"methoddyn", `{"messages": [{"role": "user", "content": "x", "c": 5}]}`, `ERROR: prompts/methoddyn.yaml:5:67: render methoddyn: invalid operation: dict.values compared with dict.values: Python compares methods by the identity of their owners, which promptgen does not keep`},
		{"methoddyn", `{"messages": [{"role": "user", "content": "x", "c": 6}]}`, `ERROR: prompts/methoddyn.yaml:5:118: render methoddyn: invalid operation: dict.items is a method, which Jinja2 prints with its address in memory (<built-in method items of dict object at 0x...>): promptgen does not print it`},
		{"methoddyn", `{"messages": [{"role": "user", "content": "x", "c": 7}]}`, `ERROR: prompts/methoddyn.yaml:6:25: render methoddyn: invalid operation: object of type 'builtin_function_or_method' has no len()`},
		{"methoddyn", `{"messages": [{"role": "user", "content": "x", "c": 8}]}`, `ERROR: prompts/methoddyn.yaml:6:102: render methoddyn: invalid operation: str.format is a method, which Jinja2 prints with its address in memory (<built-in method format of str object at 0x...>): promptgen does not print it`},
		{"methoddyn", `{"messages": [{"role": "user", "content": "x", "c": 9}]}`, `ERROR: prompts/methoddyn.yaml:6:128: render methoddyn: invalid operation: dict.items is a method, which Jinja2 prints with its address in memory (<built-in method items of dict object at 0x...>): promptgen does not print it`},
		{"methoddyn", `{"messages": [{"role": "user", "content": "x", "c": 10}]}`, `ERROR: prompts/methoddyn.yaml:7:26: render methoddyn: invalid operation: dict.items is a method, which Jinja2 prints with its address in memory (<built-in method items of dict object at 0x...>): promptgen does not print it`},
		{"methoddyn", `{"messages": [{"role": "user", "content": "x", "c": 11}]}`, `ERROR: prompts/methoddyn.yaml:7:69: render methoddyn: invalid operation: Jinja2 reads "pop" as the attribute of the 'dict' value, which promptgen does not support`},
		{"methoddyn", `{"messages": [{"role": "user", "content": "x", "c": 12}]}`, `ERROR: prompts/methoddyn.yaml:7:103: render methoddyn: invalid operation: unsupported operand type(s) for +: 'builtin_function_or_method' and 'str'`},
		{"methoddyn", `{"messages": [{"role": "user", "content": "x", "c": 13}]}`, `ERROR: prompts/methoddyn.yaml:7:154: render methoddyn: invalid operation: 'builtin_function_or_method' object is not iterable`},
		{"methoddyn", `{"messages": [{"role": "user", "content": "x", "c": 14}]}`, `ERROR: prompts/methoddyn.yaml:8:26: render methoddyn: invalid operation: dict.items is a method, which Jinja2 prints with its address in memory (<built-in method items of dict object at 0x...>): promptgen does not print it`},
		{"headless", `{}`, `ERROR: prompts/headless.yaml:3:22: render headless: "name": required variable is not set`},
		{"markers", `{"messages": [{"role": "user", "content": "hi"}]}`, "hi"},
		{"markers", `{"messages": [{"role": "user", "content": "hi"}, {"role": "tool", "content": {"k": ["<|im_end|>"]}}]}`,
			`ERROR: message 1: content.k[0]: holds a marker of the chat format: "<|im_end|>"`},
		{"markers", `{"messages": [{"role": "user", "content": "hi"}], "tools": [{"a b": "x</s>"}], "eos_token": "</s>"}`,
			`ERROR: tools[0]["a b"]: holds a marker of the chat format: "</s>"`},
		{"bigint", `{"s": "-9223372036854775808", "f": 1e-308}`, "-9223372036854775808|0|0"},
		{"bigint", `{"s": " nan ", "f": -0.0}`, "0|0|0"},
		{"bigint", `{"s": "99999999999999999999", "f": 1.0}`, `ERROR: prompts/bigint.yaml:4:15: render bigint: invalid operation: int beyond 64 bits, which promptgen does not hold`},
		{"bigint", `{"s": "inf", "f": 1.0}`, `ERROR: prompts/bigint.yaml:4:15: render bigint: invalid operation: cannot convert float infinity to integer`},
		{"bigint", `{"s": "1_0", "f": 1e22}`, `ERROR: prompts/bigint.yaml:4:27: render bigint: invalid operation: int beyond 64 bits, which promptgen does not hold`},
		{"bigint", `{"s": "1", "f": 1e-280}`, `ERROR: prompts/bigint.yaml:4:39: render bigint: invalid operation: int beyond 64 bits, which promptgen does not hold`},
		{"bigint", `{"s": "1", "f": 10.0}`, `ERROR: prompts/bigint.yaml:4:39: render bigint: invalid operation: cannot convert float infinity to integer`},
		{"bigintdyn", `{"messages": [{"role": "user", "content": " -1_2 "}, {"role": "user", "content": "nan"}]}`, "-12;0;"},
		{"bigintdyn", `{"messages": [{"role": "user", "content": "1e400"}]}`, `ERROR: prompts/bigintdyn.yaml:3:38: render bigintdyn: invalid operation: cannot convert float infinity to integer`},
		{"bigintdyn", `{"messages": [{"role": "user", "content": "99999999999999999999"}]}`, `ERROR: prompts/bigintdyn.yaml:3:38: render bigintdyn: invalid operation: int beyond 64 bits, which promptgen does not hold`},
		{"roundbig", `{"n": -15, "f": 1.5, "g": 1.0}`, "-20|2.0|0.0"},
		{"roundbig", `{"n": -25, "f": -1.0, "g": -1.5e8}`, "-20|1.0|-0.0"},
		{"roundbig", `{"n": 9223372036854775807, "f": 1.0, "g": 1.0}`, `ERROR: prompts/roundbig.yaml:5:15: render roundbig: invalid operation: int beyond 64 bits, which promptgen does not hold`},
		{"roundbig", `{"n": 1, "f": 1e200, "g": 1.0}`, `ERROR: prompts/roundbig.yaml:5:33: render roundbig: invalid operation: cannot convert float infinity to integer`},
		{"roundbig", `{"n": 1, "f": 1.0, "g": 1.7e308}`, `ERROR: prompts/roundbig.yaml:5:65: render roundbig: invalid operation: rounded value too large to represent`},
		{"listunsafe", `{"c": 1, "n": 0}`, `ERROR: prompts/listunsafe.yaml:5:66: render listunsafe: invalid operation: division by zero`},
		{"listunsafe", `{"c": 1, "n": 2}`, `ERROR: prompts/listunsafe.yaml:5:59: render listunsafe: invalid operation: access to attribute 'append' of 'list' object is unsafe.`},
		{"listunsafe", `{"c": 2, "n": 0}`, `ERROR: prompts/listunsafe.yaml:5:111: render listunsafe: invalid operation: pop from empty list`},
		{"listunsafe", `{"c": 3, "n": 0}`, `ERROR: prompts/listunsafe.yaml:5:146: render listunsafe: invalid operation: access to attribute 'extend' of 'list' object is unsafe.`},
		{"listunsafe", `{"c": 4, "n": 0}`, `ERROR: prompts/listunsafe.yaml:5:183: render listunsafe: invalid operation: access to attribute 'sort' of 'list' object is unsafe.`},
		{"listunsafe", `{"c": 5, "n": 0}`, `ERROR: prompts/listunsafe.yaml:5:222: render listunsafe: invalid operation: access to attribute 'insert' of 'list' object is unsafe.`},
		{"listunsafe", `{"c": 0, "n": 0}`, "ok"},
		{"dictupdate", `{"c": 1, "n": 0}`, `ERROR: prompts/dictupdate.yaml:5:75: render dictupdate: invalid operation: division by zero`},
		{"dictupdate", `{"c": 1, "n": 2}`, `ERROR: prompts/dictupdate.yaml:5:62: render dictupdate: invalid operation: access to attribute 'update' of 'dict' object is unsafe.`},
		{"dictupdate", `{"c": 0, "n": 0}`, "1"},
		{"dynupdate", `{"messages": [{"role": "user", "content": "a"}], "n": 0}`, `ERROR: prompts/dynupdate.yaml:3:86: render dynupdate: invalid operation: division by zero`},
		{"dynupdate", `{"messages": [{"role": "user", "content": "a"}], "n": 2}`, `ERROR: prompts/dynupdate.yaml:3:73: render dynupdate: invalid operation: access to attribute 'update' of 'dict' object is unsafe.`},
		{"dynupdate", `{"messages": [{"role": "tool", "content": "a"}], "n": 2}`, `ERROR: prompts/dynupdate.yaml:3:146: render dynupdate: variable is undefined`},
		{"instring", `{"c": 1, "n": 1}`, `ERROR: prompts/instring.yaml:4:30: render instring: invalid operation: cannot test whether an int is in a string: 'in <string>' requires a string as left operand (Python raises TypeError)`},
		{"instring", `{"c": 1}`, `ERROR: prompts/instring.yaml:4:30: render instring: invalid operation: cannot test whether an int is in a string: 'in <string>' requires a string as left operand (Python raises TypeError)`},
		{"instring", `{"c": 2}`, `ERROR: prompts/instring.yaml:4:63: render instring: invalid operation: cannot test whether a number is in a string: 'in <string>' requires a string as left operand (Python raises TypeError)`},
		{"instring", `{"c": 0}`, "ok"},
		{"loopitems", `{"c": 1, "s": "x"}`, `ERROR: prompts/loopitems.yaml:4:52: render loopitems: invalid operation: filter dictsort needs a map, dict or object, not string (Jinja2 raises AttributeError: it calls items())`},
		{"loopitems", `{"c": 2, "s": "x"}`, `ERROR: prompts/loopitems.yaml:4:129: render loopitems: invalid operation: filter items needs a map, dict or object, not string (Jinja2 raises TypeError)`},
		{"loopitems", `{"c": 0, "s": "x"}`, "ok"},
		{"dynindex", `{"messages": [{"role": "user", "content": "abc"}]}`, `ERROR: prompts/dynindex.yaml:2:63: render dynindex: invalid operation: substring not found`},
		{"dynindex", `{"messages": [{"role": "tool", "content": "abc"}]}`, `ERROR: prompts/dynindex.yaml:2:116: render dynindex: variable is undefined`},
		{"dynindex", `{"messages": [{"role": "system", "content": "abc"}]}`, `ERROR: prompts/dynindex.yaml:2:163: render dynindex: invalid operation: count() takes exactly one argument (2 given)`},
		{"dynindex", `{"messages": [{"role": "assistant", "content": "abc"}]}`, "ok"},
		{"dynupdate", `{"messages": [{"role": "system", "content": "a"}], "n": 2}`, "ok"},
		{"maptojson", `{"messages": [{"role": "user", "content": "ab"}]}`, `ERROR: prompts/maptojson.yaml:3:77: render maptojson: invalid operation: Object of type Undefined is not JSON serializable`},
		{"listpop", `{"n": 3}`, "0[1, 2]"},
		{"listpop", `{"n": 2}`, `ERROR: prompts/listpop.yaml:3:93: render listpop: invalid operation: pop index out of range`},
		{"listpop", `{"n": 0}`, `ERROR: prompts/listpop.yaml:3:93: render listpop: invalid operation: pop from empty list`},
		{"listpopshared", `{"n": 0}`, "2[1]"},
		{"listpopshared", `{"n": 1}`, `ERROR: prompts/listpopshared.yaml:3:102: render listpopshared: invalid operation: pop from empty list`},
		{"listpoplive", `{"n": 0}`, "11;32;[3]"},
		{"listpoplive", `{"n": 2}`, `ERROR: prompts/listpoplive.yaml:3:63: render listpoplive: invalid operation: pop index out of range`},
		{"listextend", `{"c": true}`, "[1, 'a', 'b']"},
		{"listextend", `{"c": false}`, `ERROR: prompts/listextend.yaml:3:99: render listextend: invalid operation: 'int' object is not iterable`},
		{"range", `{"n": 5, "step": 2}`, "024"},
		{"range", `{"n": 5, "step": 0}`, `ERROR: prompts/range.yaml:4:24: render range: invalid operation: range() arg 3 must not be zero`},
		{"range", `{"n": 5}`, `ERROR: prompts/range.yaml:4:24: render range: "step": variable is undefined`},
		{"storedgen", `{"xs": [1, 2], "y": 1, "n": 0}`, "ok"},
		{"storedgen", `{"xs": [1, 2], "n": 1}`, `ERROR: prompts/storedgen.yaml:5:44: render storedgen: "y": variable is undefined`},
		{"genvalues", `{"xs": [1], "n": 1, "c": 1}`, `ERROR: prompts/genvalues.yaml:7:42: render genvalues: "y": variable is undefined`},
		{"filtersfail", `{"c": 0, "k": 1}`, "ok"},
		{"filtersfail", `{"c": 1, "k": 1}`, `ERROR: prompts/filtersfail.yaml:6:23: render filtersfail: invalid operation: length needs a list, string, map, dict or object, not int`},
		{"filtersfail", `{"c": 2, "k": 1}`, `ERROR: prompts/filtersfail.yaml:6:54: render filtersfail: variable is undefined`},
		{"filtersfail", `{"c": 2, "k": 1, "s": "a"}`, `ERROR: prompts/filtersfail.yaml:6:54: render filtersfail: invalid operation: round needs a number, not string (Python raises TypeError)`},
		{"filtersfail", `{"c": 3, "k": 1}`, `ERROR: prompts/filtersfail.yaml:6:84: render filtersfail: invalid operation: reverse needs a list or string, not int`},
		{"filtersfail", `{"c": 4, "k": 1}`, `ERROR: prompts/filtersfail.yaml:6:116: render filtersfail: variable is undefined`},
		{"filtersfail", `{"c": 4, "k": 1, "s": "a"}`, `ERROR: prompts/filtersfail.yaml:6:116: render filtersfail: invalid operation: filter dictsort needs a map, dict or object, not string (Jinja2 raises AttributeError: it calls items())`},
		{"filtersfail", `{"c": 5, "k": 0}`, `ERROR: prompts/filtersfail.yaml:6:154: render filtersfail: invalid operation: division by zero`},
		{"filtersfail", `{"c": 5, "k": 1}`, `ERROR: prompts/filtersfail.yaml:6:149: render filtersfail: invalid operation: join needs a list or string, not int (Jinja2 raises TypeError)`},
		{"alwaysundef", `{"c": 0}`, "nok"},
		{"alwaysundef", `{"c": 1}`, `ERROR: prompts/alwaysundef.yaml:3:101: render alwaysundef: variable is undefined: "y" is always undefined here: the template sets it (or loops over it) only where this read cannot see it, and the inputs do not declare it (Jinja2 raises UndefinedError for its attribute "a")`},
		{"alwaysundef", `{"c": 2}`, `ERROR: prompts/alwaysundef.yaml:3:127: render alwaysundef: variable is undefined: "y" is always undefined here: the template sets it (or loops over it) only where this read cannot see it, and the inputs do not declare it (Jinja2 raises UndefinedError for get())`},
		{"opsfail", `{"c": 0, "k": 1, "s": "a"}`, "ok"},
		{"opsfail", `{"c": 1, "k": 1, "s": "a"}`, `ERROR: prompts/opsfail.yaml:7:21: render opsfail: invalid operation: unsupported operand types for -: string and string`},
		{"opsfail", `{"c": 2, "k": 1, "s": "a"}`, `ERROR: prompts/opsfail.yaml:7:51: render opsfail: variable is undefined`},
		{"opsfail", `{"c": 2, "k": 1, "n": 1, "s": "a"}`, `ERROR: prompts/opsfail.yaml:7:51: render opsfail: invalid operation: cannot compare int < string`},
		{"opsfail", `{"c": 3, "k": 1, "s": "a"}`, `ERROR: prompts/opsfail.yaml:7:90: render opsfail: invalid operation: cannot loop over int`},
		{"opsfail", `{"c": 4, "k": 1, "s": "a"}`, `ERROR: prompts/opsfail.yaml:8:23: render opsfail: variable is undefined`},
		{"opsfail", `{"c": 4, "k": 1, "n": 2, "s": "a"}`, `ERROR: prompts/opsfail.yaml:8:23: render opsfail: invalid operation: unsupported operand types for *: int and none`},
		{"opsfail", `{"c": 5, "k": 0, "s": "a"}`, `ERROR: prompts/opsfail.yaml:8:55: render opsfail: invalid operation: division by zero`},
		{"opsfail", `{"c": 5, "k": 1, "s": "a"}`, `ERROR: prompts/opsfail.yaml:8:54: render opsfail: invalid operation: unsupported operand types for -: int and string`},
		{"opsfail", `{"c": 7, "k": 0, "s": "a"}`, `ERROR: prompts/opsfail.yaml:8:130: render opsfail: invalid operation: division by zero`},
		{"opsfail", `{"c": 7, "k": 1, "s": "a"}`, `ERROR: prompts/opsfail.yaml:8:124: render opsfail: variable is undefined: split() needs a string, not int (Jinja2 raises UndefinedError: an int has no such method)`},
		{"opsfail", `{"c": 8, "k": 1, "s": "a"}`, `ERROR: prompts/opsfail.yaml:8:195: render opsfail: invalid operation: extend() takes an iterable, not int (Python raises TypeError)`},
		{"opsfail", `{"c": 9, "k": 0, "s": "a"}`, `ERROR: prompts/opsfail.yaml:8:229: render opsfail: invalid operation: division by zero`},
		{"opsfail", `{"c": 9, "k": 1, "s": "a"}`, `ERROR: prompts/opsfail.yaml:8:220: render opsfail: invalid operation: center() takes an int as width, not string (Python raises TypeError)`},
		{"opsfail", `{"c": 10, "k": 0, "s": "a"}`, `ERROR: prompts/opsfail.yaml:8:280: render opsfail: invalid operation: division by zero`},
		{"opsfail", `{"c": 10, "k": 1, "s": "a"}`, `ERROR: prompts/opsfail.yaml:8:288: render opsfail: invalid operation: unsupported operand types for -: string and string`},
		{"opsfail", `{"c": 6, "k": 1, "s": "a"}`, `ERROR: prompts/opsfail.yaml:8:98: render opsfail: invalid operation: cannot test membership in int`},
		{"genvalues", `{"xs": [1], "n": 1, "c": 1, "y": 0}`, "Trueok"},
		{"genvalues", `{"xs": [1], "n": 0, "c": 2}`, `ERROR: prompts/genvalues.yaml:7:94: render genvalues: invalid operation: division by zero`},
		{"genvalues", `{"xs": [1], "n": 1, "c": 2}`, "\nok"},
		{"genvalues", `{"xs": [1], "n": 1, "c": 3}`, `ERROR: prompts/genvalues.yaml:8:52: render genvalues: "y": variable is undefined`},
		{"genvalues", `{"xs": [1], "n": 0, "c": 3}`, "ok"},
		{"genvalues", `{"xs": [1], "n": 1, "c": 4}`, `ERROR: prompts/genvalues.yaml:8:94: render genvalues: variable is undefined`},
		{"gentojson", `{"xs": [1], "c": 0}`, "ok"},
		{"gentojson", `{"xs": [1], "c": 1}`, `ERROR: prompts/gentojson.yaml:5:51: render gentojson: "y": variable is undefined`},
		{"gentojson", `{"xs": [1], "c": 1, "y": 0}`, `ERROR: prompts/gentojson.yaml:5:58: render gentojson: invalid operation: Object of type generator is not JSON serializable`},
		{"gentojson", `{"xs": [1], "c": 2}`, `ERROR: prompts/gentojson.yaml:5:98: render gentojson: invalid operation: Object of type list_reverseiterator is not JSON serializable`},
		{"gentojson", `{"xs": [], "c": 3}`, `ERROR: prompts/gentojson.yaml:5:144: render gentojson: invalid operation: Object of type generator is not JSON serializable`},
		{"gentojsonarm", `{"xs": [1], "c": true}`, `ERROR: prompts/gentojsonarm.yaml:4:31: render gentojsonarm: invalid operation: Object of type generator is not JSON serializable`},
		{"gentojsonarm", `{"xs": [1], "c": false}`, `ERROR: prompts/gentojsonarm.yaml:4:55: render gentojsonarm: invalid operation: Object of type list_reverseiterator is not JSON serializable`},
		{"genmisuse", `{"xs": [1], "c": 0}`, "ok"},
		{"genmisuse", `{"xs": [1], "c": 1}`, `ERROR: prompts/genmisuse.yaml:6:42: render genmisuse: "y": variable is undefined`},
		{"genmisuse", `{"xs": [1], "c": 1, "y": 0}`, "ERROR: prompts/genmisuse.yaml:6:49: render genmisuse: invalid operation: object of type 'generator' has no len()"},
		{"genmisuse", `{"xs": [1], "c": 2}`, "ERROR: prompts/genmisuse.yaml:6:89: render genmisuse: invalid operation: 'list_reverseiterator' object is not reversible"},
		{"genmisuse", `{"xs": [1], "c": 3}`, "ERROR: prompts/genmisuse.yaml:6:116: render genmisuse: invalid operation: a generator, which Jinja2 prints with its address in memory (<generator object ... at 0x...>): promptgen does not print it"},
		{"genmisuse", `{"xs": [1], "c": 4}`, `ERROR: prompts/genmisuse.yaml:7:38: render genmisuse: "y": variable is undefined`},
		{"genmisuse", `{"xs": [1], "c": 4, "y": 1}`, "ERROR: prompts/genmisuse.yaml:7:23: render genmisuse: invalid operation: unsupported operand type(s) for +: 'generator' and 'list'"},
		{"genmisuse", `{"xs": [1], "c": 5}`, `ERROR: prompts/genmisuse.yaml:7:67: render genmisuse: invalid operation: can only concatenate list (not "generator") to list`},
		{"genmisuse", `{"xs": [1], "c": 6}`, "ERROR: prompts/genmisuse.yaml:7:105: render genmisuse: invalid operation: 'generator' object is not subscriptable"},
		{"genmisuse", `{"xs": [1], "c": 7}`, "ERROR: prompts/genmisuse.yaml:8:23: render genmisuse: invalid operation: a generator, which Jinja2 prints with its address in memory (<generator object ... at 0x...>): promptgen does not print it"},
		{"genmisuse", `{"xs": [1], "c": 8}`, `ERROR: prompts/genmisuse.yaml:8:92: render genmisuse: "y": variable is undefined`},
		{"genmisuse", `{"xs": [1], "c": 8, "y": 2}`, "ERROR: prompts/genmisuse.yaml:8:67: render genmisuse: invalid operation: unsupported operand type(s) for %: 'generator' and 'int'"},
		{"genmisuse", `{"xs": [1], "c": 9}`, "ERROR: prompts/genmisuse.yaml:8:117: render genmisuse: invalid operation: a generator, which Jinja2 prints with its address in memory (<generator object ... at 0x...>): promptgen does not print it"},
		{"genmisusedyn", `{"messages": []}`, "ok"},
		{"genmisusedyn", `{"messages": [], "tools": [{"type": "function", "function": {"name": "f"}}]}`, "ERROR: prompts/genmisusedyn.yaml:3:61: render genmisusedyn: invalid operation: object of type 'generator' has no len()"},
		{"genmisusedyn", `{"messages": [{"role": "user", "content": "hi"}]}`, "ERROR: prompts/genmisusedyn.yaml:3:107: render genmisusedyn: invalid operation: a generator, which Jinja2 prints with its address in memory (<generator object ... at 0x...>): promptgen does not print it"},
		{"genmisusearm", `{"xs": [1], "c": true}`, "ERROR: prompts/genmisusearm.yaml:4:31: render genmisusearm: invalid operation: object of type 'generator' has no len()"},
		{"genmisusearm", `{"xs": [1], "c": false}`, "ERROR: prompts/genmisusearm.yaml:4:43: render genmisusearm: invalid operation: unsupported operand type(s) for *: 'generator' and 'int'"},
		{"genlazy", `{"messages": [{"role": "user", "content": "hi"}, {"role": "user", "content": "yo"}]}`, "2[2]ok"},
		{"genlazy", `{"messages": [{"role": "user", "content": "hi"}, {"role": "user", "content": null}]}`, "ERROR: prompts/genlazy.yaml:3:98: render genlazy: invalid operation: object of type 'NoneType' has no len()"},
		{"genlazy", `{"messages": [{"role": "user", "content": "hi"}, {"role": "user", "content": "yo"}, {"role": "user", "content": null}]}`, "ERROR: prompts/genlazy.yaml:3:98: render genlazy: invalid operation: a generator looped over fails on an item after others (object of type 'NoneType' has no len()): Python runs the loop on those first, which promptgen does not follow (convert it with | list where it is made)"},
		{"genlazy", `{"messages": [{"role": "user", "content": null}]}`, "ERROR: prompts/genlazy.yaml:3:76: render genlazy: invalid operation: object of type 'NoneType' has no len()"},
		{"genarms", `{"xs": [1], "c": true}`, "ERROR: prompts/genarms.yaml:4:15: render genarms: invalid operation: object of type 'generator' has no len()"},
		{"genarms", `{"xs": [1], "c": false}`, "ERROR: prompts/genarms.yaml:4:52: render genarms: invalid operation: 'list_reverseiterator' object is not reversible"},
		{"genarms", `{"xs": [], "c": false}`, "ERROR: prompts/genarms.yaml:4:52: render genarms: invalid operation: 'list_reverseiterator' object is not reversible"},
		{"gentojsondyn", `{"messages": []}`, "ok"},
		{"gentojsondyn", `{"messages": [], "tools": [{"type": "function", "function": {"name": "f"}}]}`, `ERROR: prompts/gentojsondyn.yaml:3:61: render gentojsondyn: invalid operation: Object of type generator is not JSON serializable`},
		{"genmacro", `{"messages": [{"role": "user"}], "c": 0}`, ``},
		{"genmacro", `{"messages": [{"role": "user"}], "c": 1}`, `ERROR: prompts/genmacro.yaml:3:93: render genmacro: invalid operation: a generator, which Jinja2 prints with its address in memory (<generator object ... at 0x...>): promptgen does not print it`},
		{"genmacro", `{"messages": [{"role": "user"}], "c": 2}`, `ERROR: prompts/genmacro.yaml:3:117: render genmacro: invalid operation: object of type 'generator' has no len()`},
		{"genmacro", `{"messages": [{"role": "user"}], "c": 3}`, `ERROR: prompts/genmacro.yaml:3:157: render genmacro: invalid operation: promptgen does not iterate a generator passed to a macro that calls itself, which Python consumes as it iterates it (convert it with | list)`},
		{"genmacro", `{"messages": [{"role": "user"}], "c": 4}`, `ERROR: prompts/genmacro.yaml:3:200: render genmacro: invalid operation: Object of type generator is not JSON serializable`},
		{"genmacro", `{"messages": [{"role": "user"}], "c": 5}`, `ERROR: prompts/genmacro.yaml:3:231: render genmacro: invalid operation: generator compared with generator: Python compares a generator by its identity, which promptgen does not keep`},
		{"genmacro", `{"messages": [{"role": "user"}], "c": 6}`, `ERROR: prompts/genmacro.yaml:3:260: render genmacro: invalid operation: Jinja2 reads "gi_running" as the attribute of the 'generator' value, which promptgen does not support`},
		{"genmacro", `{"messages": [{"role": "user"}], "c": 7}`, `ERROR: prompts/genmacro.yaml:3:295: render genmacro: invalid operation: unsupported operand type(s) for +: 'generator' and 'int'`},
		{"intkeys", `{"c": 0}`, "ok"},
		{"intkeys", `{"c": 1}`, `ERROR: prompts/intkeys.yaml:3:60: render intkeys: invalid operation: '<' not supported between instances of 'str' and 'int'`},
		{"intkeys", `{"c": 2}`, `ERROR: prompts/intkeys.yaml:3:93: render intkeys: invalid operation: '<' not supported between instances of 'str' and 'int'`},
		{"intkeys", `{"c": 3}`, "ok"},
		{"intkeys", `{"c": 4}`, `ERROR: prompts/intkeys.yaml:3:153: render intkeys: invalid operation: unsupported operand type(s) for +: 'dict' and 'dict'`},
		{"genarg", `{"xs": [1], "y": 2}`, "1"},
		{"genarg", `{"xs": [1]}`, `ERROR: prompts/genarg.yaml:4:81: render genarg: "y": variable is undefined`},
		{"storedreverse", `{"messages": [{"role": "user", "content": "hi"}, {"role": "user", "content": [1]}]}`, "ok"},
		{"genvalue", `{"xs": ["a", "b"], "c": 0}`, "ok"},
		{"gensum", `{"xs": ["a"]}`, `ERROR: prompts/gensum.yaml:3:15: render gensum: invalid operation: a generator, which Jinja2 prints with its address in memory (<generator object ... at 0x...>): promptgen does not print it`},
		{"genvalue", `{"xs": ["a", "b"], "c": 1}`, "ERROR: prompts/genvalue.yaml:4:113: render genvalue: invalid operation: a generator read again after a loop over it: Python resumes it where the loop stopped, which promptgen does not follow (convert it with | list where it is made)"},
		{"genvalue", `{"xs": ["a", "b"], "c": 2}`, "ERROR: prompts/genvalue.yaml:4:142: render genvalue: invalid operation: object of type 'generator' has no len()"},
		{"genvalue", `{"xs": ["a", "b"], "c": 3}`, "ERROR: prompts/genvalue.yaml:4:176: render genvalue: invalid operation: 'generator' object is not reversible"},
		{"genvalue", `{"xs": ["a", "b"], "c": 4}`, "ERROR: prompts/genvalue.yaml:4:208: render genvalue: invalid operation: Object of type generator is not JSON serializable"},
		{"genvalue", `{"xs": ["a", "b"], "c": 5}`, "ERROR: prompts/genvalue.yaml:4:242: render genvalue: invalid operation: a generator, which Jinja2 prints with its address in memory (<generator object ... at 0x...>): promptgen does not print it"},
		{"genvalue", `{"xs": ["a", "b"], "c": 6}`, "ERROR: prompts/genvalue.yaml:4:266: render genvalue: invalid operation: unsupported operand type(s) for +: 'generator' and 'list'"},
		{"reversevalue", `{"messages": [{"role": "user", "content": "hé"}]}`, "2éhok"},
		{"reversevalue", `{"messages": [{"role": "user", "content": [1]}]}`, "ERROR: prompts/reversevalue.yaml:3:38: render reversevalue: invalid operation: object of type 'list_reverseiterator' has no len()"},
		{"reverseundef", `{"u": "ab"}`, "ba"},
		{"reverseundef", `{}`, "ERROR: prompts/reverseundef.yaml:3:15: render reverseundef: invalid operation: a reversed, which Jinja2 prints with its address in memory (<reversed object ... at 0x...>): promptgen does not print it"},
		{"macrogenloop", `{"xs": []}`, ""},
		{"macrogenloop", `{"xs": [1]}`, `ERROR: prompts/macrogenloop.yaml:3:58: render macrogenloop: invalid operation: Object of type generator is not JSON serializable`},
		{"genattr", `{"xs": [1], "c": 1}`, `ERROR: prompts/genattr.yaml:4:30: render genattr: invalid operation: generator.send is a method, which Jinja2 prints with its address in memory (<built-in method send of generator object at 0x...>): promptgen does not print it`},
		{"genattr", `{"xs": [1], "c": 2}`, `ERROR: prompts/genattr.yaml:4:69: render genattr: invalid operation: Jinja2 reads "gi_running" as the attribute of the 'generator' value, which promptgen does not support`},
		{"genattr", `{"xs": [1], "c": 3}`, "False"},
		{"iteritemdyn", `{"messages": [{"role": "user", "k": 0}, {"role": "user", "k": "x"}, {"role": "user"}, {"role": "user", "k": "send "}]}`, "[|][|][|][|]"},
		{"iteritemdyn", `{"messages": [{"role": "user", "k": "send"}]}`, `ERROR: prompts/iteritemdyn.yaml:2:39: render iteritemdyn: invalid operation: generator.send is a method, which Jinja2 prints with its address in memory (<built-in method send of generator object at 0x...>): promptgen does not print it`},
		{"iteritemdyn", `{"messages": [{"role": "user", "k": "__doc__"}]}`, `ERROR: prompts/iteritemdyn.yaml:2:39: render iteritemdyn: invalid operation: Jinja2 reads "__doc__" as the attribute of the 'generator' value, which promptgen does not support`},
		{"arithorder", `{"xs": [1], "s": "x"}`, `ERROR: prompts/arithorder.yaml:2:55: render arithorder: invalid operation: substring not found`},
		{"arithorder", `{"xs": [1], "s": "y"}`, `ERROR: prompts/arithorder.yaml:2:47: render arithorder: "item": variable is undefined`},
		{"arithorderattr", `{"s": "x"}`, `ERROR: prompts/arithorderattr.yaml:4:15: render arithorderattr: "o": variable is undefined`},
		{"iteritemtyped", `{"s": "x"}`, "False"},
		{"iteritemtyped", `{"s": "send"}`, "True"}, // the method, as Jinja2 reads it
		{"iteritemdyn", `{"messages": [{"role": "user", "k": "__length_hint__"}]}`, `ERROR: prompts/iteritemdyn.yaml:2:65: render iteritemdyn: invalid operation: Jinja2 reads "__length_hint__" as the attribute of the 'list_reverseiterator' value, which promptgen does not support`},
		{"storedreverse", `{"messages": [{"role": "user", "content": "hi"}, {"role": "user", "content": 2}]}`, `ERROR: prompts/storedreverse.yaml:3:46: render storedreverse: invalid operation: argument must be iterable`},
		{"select", `{"xs": [1, 2], "y": 1}`, "[2]"},
		{"select", `{"xs": []}`, `ERROR: prompts/select.yaml:4:38: render select: "y": variable is undefined`},
		{"nested", `{"customer": {}}`, `ERROR: prompts/nested.yaml:6:20: render nested: "customer.name": required variable is not set`},
		{"holdsundef", `{"c": 0}`, "[Undefined, Undefined]\n"},
		{"holdsundef", `{"c": 1}`, `ERROR: prompts/holdsundef.yaml:6:21: render holdsundef: invalid operation: Object of type Undefined is not JSON serializable`},
		{"holdsundef", `{"c": 2}`, `ERROR: prompts/holdsundef.yaml:7:23: render holdsundef: variable is undefined`},
		{"holdsundef", `{"c": 3}`, `ERROR: prompts/holdsundef.yaml:8:23: render holdsundef: variable is undefined`},
		{"holdsundef", `{"c": 4}`, `ERROR: prompts/holdsundef.yaml:9:41: render holdsundef: variable is undefined`},
		{"maybeundef", `{"c": 9, "xs": ["x"]}`, "\n1|ab|['x']||"},
		{"maybeundef", `{"c": 1, "xs": ["x"]}`, `ERROR: prompts/maybeundef.yaml:6:21: render maybeundef: "n": variable is undefined`},
		{"maybeundef", `{"c": 2, "xs": ["x"]}`, `ERROR: prompts/maybeundef.yaml:6:49: render maybeundef: "s": variable is undefined`},
		{"maybeundef", `{"c": 3, "xs": ["x"]}`, `ERROR: prompts/maybeundef.yaml:6:81: render maybeundef: "l": variable is undefined`},
		{"maybeundef", `{"c": 4, "xs": ["x"]}`, `ERROR: prompts/maybeundef.yaml:6:108: render maybeundef: "i": variable is undefined`},
		{"maybeundef", `{"c": 5, "xs": ["x"]}`, `ERROR: prompts/maybeundef.yaml:6:133: render maybeundef: "last": variable is undefined`},
		{"guardother", `{"a": 1, "b": 2}`, "3"},
		{"guardother", `{"a": 1}`, `ERROR: prompts/guardother.yaml:4:36: render guardother: "b": variable is undefined`},
		{"undef", `{"user": {"name": "Bo"}}`, "0 \nBo"},
		{"undef", `{"count": 2}`, `ERROR: prompts/undef.yaml:10:6: render undef: "user": variable is undefined`},
		{"boolcmp", `{"o": false}`, "False True"},
		{"boolcmp", `{}`, `ERROR: prompts/boolcmp.yaml:3:28: render boolcmp: "o": variable is undefined`},
		{"arith", `{"rows": [{"name": "r0"}, {"name": "r1"}], "n": 1}`, "r1 2"},
		{"arith", `{"rows": [{"name": "r0"}, {"name": "r1"}]}`, `ERROR: prompts/arith.yaml:6:34: render arith: "n": variable is undefined`},
		{"arith", `{"rows": [{"name": "r0"}], "n": 1}`, `ERROR: prompts/arith.yaml:6:15: render arith: variable is undefined`},
		{"nsdynundef", `{"c": true, "s": "a<b"}`, "[Markup('a<b'), 1]x2|a<b"},
		{"nsdynundef", `{"c": false, "s": "a<b"}`, `ERROR: prompts/nsdynundef.yaml:4:111: render nsdynundef: "ns": variable is undefined`},
		{"markupundef", `{"s": "x&#34;y", "u": "\""}`, `x&lt;y|"x\u0026#34;y"|"x\u0026#34;y"`},
		{"markupundef", `{"s": "x&#34;y"}`, `ERROR: prompts/markupundef.yaml:4:15: render markupundef: "u": variable is undefined`},
		{"invalid", `{"a": 7, "b": 0, "s": "x y", "sep": ","}`, `ERROR: prompts/invalid.yaml:7:65: render invalid: invalid operation: division by zero`},
		{"invalid", `{"a": 7, "b": 2, "s": "x y"}`, `ERROR: prompts/invalid.yaml:7:32: render invalid: invalid operation: empty separator`},
		{"invalid", `{"a": 7, "b": 2, "s": "x y", "sep": " "}`, "3 ['x', 'y'] 3.5"},
		{"convert", `{"n": "4", "f": 1.5}`, "4 1.5"},
		{"sortopt", `{"people": [{"name": "a", "age": 2}, {"name": "b", "age": 1}]}`, "b,a"},
		{"sortopt", `{"people": [{"name": "a"}]}`, "a"},
		{"sortopt", `{"people": [{"name": "a", "age": 2}, {"name": "b"}]}`, `ERROR: prompts/sortopt.yaml:5:15: render sortopt: "age": variable is undefined`},
		{"unpack", `{"pairs": [["a", "1"], ["b", "2"]], "m": {"x": 1}}`, "a=1;b=2;"},
		{"unpack", `{"pairs": [["a", "1"], ["b"]], "m": {}}`, `ERROR: prompts/unpack.yaml:7:27: render unpack: invalid operation`},
		{"unpack", `{"pairs": [["a", "1", "x"]], "m": {}}`, `ERROR: prompts/unpack.yaml:7:27: render unpack: invalid operation`},
		{"setpair", `{"pair": ["a", "b"]}`, "a-b"},
		{"setpair", `{"pair": ["a"]}`, `ERROR: prompts/setpair.yaml:3:26: render setpair: invalid operation: cannot unpack 1 values into 2 targets`},
		{"setpair", `{"pair": ["a", "b", "c"]}`, `ERROR: prompts/setpair.yaml:3:26: render setpair: invalid operation: cannot unpack 3 values into 2 targets`},
		{"unpack", `{"pairs": []}`, `ERROR: prompts/unpack.yaml:7:78: render unpack: "m": variable is undefined`},
		{"dictsort", `{"m": {"b": 1, "A": 2}}`, "AbAb"},
		{"dictsort", `{}`, `ERROR: prompts/dictsort.yaml:6:71: render dictsort: "m": variable is undefined`},
		{"convert", `{"f": 1.5}`, `ERROR: prompts/convert.yaml:4:15: render convert: "n": variable is undefined`},
		{"convert", `{"n": "4"}`, `ERROR: prompts/convert.yaml:4:29: render convert: "f": variable is undefined`},
		{"raises", `{"c": 1, "n": 2, "e": 1.0, "xs": ["a"]}`, "4\n"},
		{"raises", `{"c": 1, "n": -1, "e": 1.0, "xs": ["a"]}`, `ERROR: prompts/raises.yaml:8:21: render raises: invalid operation: ` + goemit.NegativeExponent},
		{"raises", `{"c": 2, "n": 0, "e": -8.0, "xs": ["a"]}`, `ERROR: prompts/raises.yaml:9:23: render raises: invalid operation: a negative number to a fractional power is a complex number`},
		{"raises", `{"c": 3, "n": 0, "e": 1.0, "xs": ["a"]}`, `ERROR: prompts/raises.yaml:10:23: render raises: invalid operation: expected length >= 3, got 0`},
		{"raises", `{"c": 3, "n": 3, "e": 1.0, "xs": ["a"]}`, "abc\n"},
		{"raises", `{"c": 4, "n": 5, "e": 1.0, "xs": ["a"]}`, `ERROR: prompts/raises.yaml:11:23: render raises: variable is undefined`},
		{"raises", `{"c": 5, "n": 5, "e": 1.0, "xs": ["a"]}`, `ERROR: prompts/raises.yaml:12:23: render raises: variable is undefined`},
		{"raises", `{"c": 6, "n": 0, "e": 1.0, "xs": ["a"]}`, `ERROR: prompts/raises.yaml:13:35: render raises: "m": variable is undefined`},
		{"raises", `{"c": 6, "n": 0, "e": 1.0, "xs": ["a"], "m": {"k": "v"}}`, "k\n"},
		{"raises", `{"c": 7, "n": 5, "e": 1.0, "xs": ["a"]}`, `ERROR: prompts/raises.yaml:14:32: render raises: variable is undefined`},
		{"raises", `{"c": 7, "n": 0, "e": 1.0, "xs": ["a"]}`, "['a']\n"},
		{"clock", `{"fmt": "%Y %c"}`, `ERROR: prompts/clock.yaml:4:15: render clock: invalid operation: strftime directive %c is not supported (supported: ` + jinja.StrftimeDirectives + `)`},
		{"clock", `{"fmt": "%H:%M"}`, "09:30"},
		{"clock", `{}`, `ERROR: prompts/clock.yaml:4:15: render clock: "fmt": variable is undefined`},
		{"large", `{"c": 1, "s": "ab", "n": 9223372036854775807, "xs": ["a"]}`, `ERROR: prompts/large.yaml:7:21: render large: output would exceed runtime.MaxOutput`},
		{"large", `{"c": 1, "s": "ab", "n": -2, "xs": ["a"]}`, "\n"},
		{"large", `{"c": 2, "s": "ab", "n": 4611686018427387904, "xs": ["a"]}`, `ERROR: prompts/large.yaml:8:23: render large: output would exceed runtime.MaxOutput`},
		{"large", `{"c": 3, "s": "a", "n": 9223372036854775807, "xs": ["a"]}`, `ERROR: prompts/large.yaml:9:23: render large: output would exceed runtime.MaxOutput`},
		{"large", `{"c": 3, "s": "a\nb\nc", "n": 40000000, "xs": ["a"]}`, `ERROR: prompts/large.yaml:9:23: render large: output would exceed runtime.MaxOutput`},
		{"large", `{"c": 4, "s": "x", "n": 40000000, "xs": ["a", "b", "c"]}`, `ERROR: prompts/large.yaml:10:23: render large: output would exceed runtime.MaxOutput`},
		{"large", `{"c": 5, "s": "x", "n": 40000000, "xs": ["a", "b"]}`, `ERROR: prompts/large.yaml:11:23: render large: output would exceed runtime.MaxOutput`},
		{"large", `{"c": 6, "s": "abc", "n": 10000000, "xs": ["a"]}`, `ERROR: prompts/large.yaml:12:23: render large: output would exceed runtime.MaxOutput`},
		{"includer", `{"n": 1}`, "part\n2"},
		{"includer", `{}`, `ERROR: prompts/included_part.j2:2:4: render includer: "n": variable is undefined`},
		{"nsincluder", `{}`, "[part|1]"},
		{"setattr_part", `{}`, `ERROR: prompts/setattr_part.j2:1:8: render setattr_part: invalid operation: cannot assign attribute on non-namespace object`},
		{"setattr_block_part", `{"n": 0}`, `ERROR: prompts/setattr_block_part.j2:1:19: render setattr_block_part: invalid operation: division by zero`},
		{"setattr_block_part", `{"n": 1}`, `ERROR: prompts/setattr_block_part.j2:1:8: render setattr_block_part: invalid operation: cannot assign attribute on non-namespace object`},
		{"defaultfirst", `{"n": "N", "o": {"a": "A"}, "k": 2, "m": {}, "om": {}, "p": {"first": {"id": 1}}}`, "N||N|1|2"},
		{"defaultfirst", `{"n": "N", "m": {}, "om": {}, "k": 2, "p": {"first": {"id": 1}}}`, `ERROR: prompts/defaultfirst.yaml:9:25: render defaultfirst: "o": variable is undefined`},
		{"defaultfirst", `{"n": "N", "o": {}, "m": {}, "k": 2, "p": {"first": {"id": 1}}}`, `ERROR: prompts/defaultfirst.yaml:9:47: render defaultfirst: "om": variable is undefined`},
		{"defaultfirst", `{"n": "N", "o": {}, "m": {}, "om": {}, "p": {"first": {"id": 1}}}`, `ERROR: prompts/defaultfirst.yaml:9:74: render defaultfirst: "k": variable is undefined`},
		{"defaultfirst", `{"n": "N", "o": {}, "m": {}, "om": {}, "k": 0, "p": {}}`, `ERROR: prompts/defaultfirst.yaml:9:126: render defaultfirst: "p.first": variable is undefined`},
		{"defaultfirst", `{"n": "N", "o": {}, "m": {}, "om": {}, "k": 0, "p": {"first": {}}}`, `ERROR: prompts/defaultfirst.yaml:9:155: render defaultfirst: "p.first.id": variable is undefined`},
		{"defaultloop", `{"err": true}`, `ERROR: prompts/defaultloop.yaml:3:78: render defaultloop: "label": variable is undefined`},
		{"macroincluder", `{"n": 2}`, "[a<31>]"},
		{"macroincluder", `{"n": 1}`, "[a<2in1>]"},
		{"macrolateincluder", `{"n": 1}`, "[1]<0>"},
		{"macro_late_part", `{"n": "1"}`, `ERROR: prompts/macro_late_part.j2:1:4: render macro_late_part: "m": variable is undefined`},
		{"macroifincluder", `{"cs": [1, 2]}`, "M1M2"},
		{"macroifincluder", `{"cs": [1, 0]}`, `ERROR: prompts/macro_if_part.j2:1:62: render macroifincluder: "m": variable is undefined`},
		{"macro_part", `{"n": 0}`, "a"},
		{"macro_part", `{"n": 1}`, `ERROR: prompts/macro_part.j2:1:25: render macro_part: "box": variable is undefined`},
		{"macro_part", `{"n": 2}`, `ERROR: prompts/macro_part.j2:1:75: render macro_part: "tag": variable is undefined`},
		{"macro_part", `{"n": 2, "zero": 0}`, `ERROR: prompts/macro_part.j2:1:86: render macro_part: invalid operation: division by zero`},
		{"large", `{"c": 7, "s": "x", "n": 10000000, "xs": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]}`, `ERROR: prompts/large.yaml:13:49: render large: output would exceed runtime.MaxOutput`},
		{"large", `{"c": 8, "s": "x", "n": 10000000, "xs": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]}`, `ERROR: prompts/large.yaml:14:32: render large: output would exceed runtime.MaxOutput`},
		{"large", `{"c": 8, "s": "x", "n": 1, "xs": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]}`, `ERROR: prompts/large.yaml:14:80: render large: invalid operation: division by zero`},
	}
	mod := newTempModule(t)
	var keys []string
	for _, k := range slices.Sorted(maps.Keys(prompts)) {
		writeFile(t, filepath.Join(mod, "prompts", k+".yaml"), []byte(prompts[k]))
		keys = append(keys, k)
	}
	writeFile(t, filepath.Join(mod, "prompts", "included_part.j2"), []byte("part\n{{ n + 1 }}\n"))
	writeFile(t, filepath.Join(mod, "prompts", "setattr_part.j2"), []byte("{% set ns.b = 1 %}part"))
	writeFile(t, filepath.Join(mod, "prompts", "setattr_block_part.j2"), []byte("{% set ns.b %}<{{ 1 // n }}>{% endset %}part"))
	writeFile(t, filepath.Join(mod, "prompts", "macro_part.j2"), []byte("a{% if n == 1 %}{% call box(n + 1) %}in{{ n }}{% endcall %}{% elif n %}{{ tag(n + 1, 1 // zero if zero is defined else 1) }}{% endif %}"))
	writeFile(t, filepath.Join(mod, "prompts", "macro_if_part.j2"), []byte("{% if c %}{% macro m() %}M{{ c }}{% endmacro %}{% endif %}{{ m() }}"))
	writeFile(t, filepath.Join(mod, "prompts", "macro_late_part.j2"), []byte("{{ m(n) }}{% macro m(v) %}<{{ v }}>{% endmacro %}{{ m(0) }}"))
	keys = append(keys, "setattr_part", "setattr_block_part", "macro_part", "macro_late_part")
	var jobs []renderJob
	for i, tt := range tests {
		feed := filepath.Join(mod, "feeds", fmt.Sprintf("%d.json", i))
		writeFile(t, feed, []byte(tt.feed))
		jobs = append(jobs, renderJob{tt.key, feed})
	}
	outputs := renderAll(t, mod, keys, jobs)
	for i, tt := range tests {
		for bi, b := range backends {
			if got := outputs[bi][i]; got != tt.want {
				t.Errorf("%s: %s %s:\ngot  %q\nwant %q", b.renderer, tt.key, tt.feed, got, tt.want)
			}
		}
	}
}
