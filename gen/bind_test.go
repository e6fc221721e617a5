package gen

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"text/template"

	"github.com/google/go-cmp/cmp"
	"github.com/promptgen/promptgen/gen/internal/bind"
	"github.com/promptgen/promptgen/runtime/ttfuncs"
	"golang.org/x/tools/go/packages"
)

// crmSource is the user's package the goType tests bind to: json tags,
// an untagged field, optional pointers, nested and listed structs, a map,
// a field promptgen cannot read (time.Time) and fields it must skip.
const crmSource = `package crm

import "time"

type Customer struct {
	Name          string         ` + "`json:\"name\"`" + `
	LoyaltyStatus *string        ` + "`json:\"loyalty_status,omitempty\"`" + `
	Referrer      *string        ` + "`json:\"referrer\"`" + `
	Nickname      string
	Orders        []Order        ` + "`json:\"orders\"`" + `
	Tags          []string       ` + "`json:\"tags,omitempty\"`" + `
	Address       *Address       ` + "`json:\"address,omitempty\"`" + `
	Scores        map[string]int ` + "`json:\"scores,omitempty\"`" + `
	Created       time.Time      ` + "`json:\"created\"`" + `
	Secret        string         ` + "`json:\"-\"`" + `
	notes         string
}

type Order struct {
	ID    string  ` + "`json:\"id\"`" + `
	Qty   int     ` + "`json:\"qty\"`" + `
	Total float64 ` + "`json:\"total\"`" + `
	Paid  bool    ` + "`json:\"paid\"`" + `
}

type Address struct {
	City string ` + "`json:\"city\"`" + `
}

type Item struct {
	Name string ` + "`json:\"name\"`" + `
}

type Status string

func (c Customer) Note() string { return c.notes }

// Types whose JSON form is not their fields as promptgen reads them.
type Counter struct {
	N     int    ` + "`json:\"n,string\"`" + `
	Label string ` + "`json:\"label\"`" + `
}

type Sparse struct {
	Count int ` + "`json:\"count,omitempty\"`" + `
}

type Holder struct {
	Inner Sparse ` + "`json:\"inner\"`" + `
	Name  string ` + "`json:\"name\"`" + `
}

type Wrapped struct {
	Address
	Note string ` + "`json:\"note\"`" + `
}

type Zero struct {
	At Address ` + "`json:\"at,omitzero\"`" + `
}

// Keys as encoding/json decides them: Other's tag names "Name", the
// untagged Name's; a key with a quote is no key, so Odd's is its Go name.
type Dup struct {
	Name  string
	Other string ` + "`json:\"Name\"`" + `
	Odd   string ` + "`json:\"o\\\"dd\"`" + `
}
`

// geoSource is a second package, for the test that counts loads.
const geoSource = `package geo

type Point struct {
	Lat float64 ` + "`json:\"lat\"`" + `
	Lng float64 ` + "`json:\"lng\"`" + `
}
`

// goTypeDir holds the goType prompts (prompts/greet.yaml binds a
// standalone prompt's inputs with goType, a struct and a list of structs;
// prompts/agent a set's with autobind) and want.json, what Jinja2 renders
// for them, written by golden.py (make golden).
var goTypeDir = filepath.Join("testdata", "gotype")

// goTypeMain renders the prompts through the generated code of both
// backends with feeds that hold the crm types themselves.
const goTypeMain = `package main

import (
	"fmt"

	"pgtest/crm"
	"pgtest/gorender"
	"pgtest/ttrender"
)

func main() {
	gold := "gold"
	ada := crm.Customer{Name: "Ada", LoyaltyStatus: &gold, Nickname: "ada",
		Orders: []crm.Order{{ID: "A1", Qty: 2, Total: 9.5, Paid: true}, {ID: "B2", Qty: 1, Total: 3}},
		Tags: []string{"vip", "early"}, Address: &crm.Address{City: "Paris"}, Scores: map[string]int{"b": 2, "a": 1}}
	bo := crm.Customer{Name: "Bo", Nickname: "bo", Orders: []crm.Order{}}
	cy := crm.Customer{Name: "Cy", Nickname: "cy"} // Orders is required: nil is unset
	items := []crm.Item{{Name: "pen"}, {Name: "ink"}}
	order := &crm.Order{ID: "C3", Qty: 4}
	dup := crm.Dup{Name: "name", Other: "other", Odd: "odd"}
	renders := []func() (string, error){
		func() (string, error) { return gorender.Greet.Render(gorender.GreetFeed{Customer: ada, Items: items}) },
		func() (string, error) { return gorender.Greet.Render(gorender.GreetFeed{Customer: bo}) },
		func() (string, error) { return gorender.Greet.Render(gorender.GreetFeed{Customer: cy}) },
		func() (string, error) { return gorender.NewAgent().Render("default", gorender.AgentFeed{Customer: ada, Order: order}) },
		func() (string, error) { return gorender.NewAgent().Render("default", gorender.AgentFeed{Customer: bo}) },
		func() (string, error) { return gorender.Dup.Render(gorender.DupFeed{D: dup}) },
		func() (string, error) { return ttrender.Greet.Render(ttrender.GreetFeed{Customer: ada, Items: items}) },
		func() (string, error) { return ttrender.Greet.Render(ttrender.GreetFeed{Customer: bo}) },
		func() (string, error) { return ttrender.Greet.Render(ttrender.GreetFeed{Customer: cy}) },
		func() (string, error) { return ttrender.NewAgent().Render("default", ttrender.AgentFeed{Customer: ada, Order: order}) },
		func() (string, error) { return ttrender.NewAgent().Render("default", ttrender.AgentFeed{Customer: bo}) },
		func() (string, error) { return ttrender.Dup.Render(ttrender.DupFeed{D: dup}) },
	}
	for _, r := range renders {
		s, err := r()
		if err != nil {
			s = "ERROR: " + err.Error()
		}
		fmt.Printf("%s\n---\n", s)
	}
}
`

// goTypeWant is what each render of goTypeMain prints, once per backend:
// Jinja2's output for the same values (goTypeDir's want.json), and the
// error of an unset required list, which Jinja2 renders as an empty loop.
func goTypeWant(t *testing.T) []string {
	t.Helper()
	var jinja map[string]string
	if err := json.Unmarshal(readFile(t, filepath.Join(goTypeDir, "want.json")), &jinja); err != nil {
		t.Fatal(err)
	}
	want := []string{jinja["greet ada"], jinja["greet bo"],
		`ERROR: prompts/greet.yaml:9:15: render greet: "customer.orders": required variable is not set`,
		jinja["agent ada"], jinja["agent bo"], jinja["dup"]}
	if len(jinja) != 5 || slices.Contains(want, "") {
		t.Fatalf("%s: want the renders greet ada, greet bo, agent ada, agent bo and dup, got %v", filepath.Join(goTypeDir, "want.json"), jinja)
	}
	return want
}

// newGoTypeModule makes a temporary module holding the crm and geo
// packages and the goType prompts.
func newGoTypeModule(t *testing.T) string {
	t.Helper()
	mod := newTempModule(t)
	writeFile(t, filepath.Join(mod, "crm", "crm.go"), []byte(crmSource))
	writeFile(t, filepath.Join(mod, "geo", "geo.go"), []byte(geoSource))
	for _, name := range []string{"greet.yaml", "dup.yaml", "agent/promptset.yaml"} {
		writeFile(t, filepath.Join(mod, "prompts", name), readFile(t, filepath.Join(goTypeDir, "prompts", name)))
	}
	return mod
}

// TestGoTypeRender generates the goType prompts on both backends, compiles
// them with a program whose feeds hold the crm types, and checks what
// every render prints; then renders the prompt from JSON as promptgen
// render does, through the preview's reflect-built feed type.
func TestGoTypeRender(t *testing.T) {
	mod := newGoTypeModule(t)
	for _, b := range backends {
		out := filepath.Join(mod, b.pkg)
		res, err := Generate(context.Background(), Config{Dir: filepath.Join(mod, "prompts"), Out: out, Pkg: b.pkg, ImportPath: "pgtest/" + b.pkg, Renderer: b.renderer})
		if err != nil {
			t.Fatalf("generate %s: %v", b.renderer, err)
		}
		for _, f := range res.Files {
			if strings.Contains(string(f.Content), "type Customer struct") || strings.Contains(string(f.Content), "type GreetCustomer struct") {
				t.Errorf("%s: %s declares a struct for a bound type", b.renderer, f.Name)
			}
		}
		writeResult(t, out, res)
	}
	writeFile(t, filepath.Join(mod, "main.go"), []byte(goTypeMain))
	goCmd(t, mod, "vet", "./...")
	got, err := goRun(mod, "run", ".")
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, got)
	}
	var want []string
	jinja := goTypeWant(t)
	for range backends {
		want = append(want, jinja...)
	}
	if diff := cmp.Diff(want, strings.Split(strings.TrimSuffix(string(got), "\n---\n"), "\n---\n")); diff != "" {
		t.Errorf("renders (-want +got):\n%s", diff)
	}

	p, diags, err := LoadPreview(Config{Dir: filepath.Join(mod, "prompts")}, "greet")
	if err != nil {
		t.Fatalf("LoadPreview: %v", err)
	}
	if len(diags) > 0 {
		t.Errorf("LoadPreview diagnostics: %v", diags)
	}
	feed := reflect.New(p.Feed)
	data := `{"customer": {"name": "Ada", "loyalty_status": "gold", "Nickname": "ada",
		"orders": [{"id": "A1", "qty": 2, "total": 9.5, "paid": true}, {"id": "B2", "qty": 1, "total": 3, "paid": false}],
		"tags": ["vip", "early"], "address": {"city": "Paris"}, "scores": {"b": 2, "a": 1}, "created": "2024-01-02T03:04:05Z"},
		"items": [{"name": "pen"}, {"name": "ink"}]}`
	dec := json.NewDecoder(strings.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(feed.Interface()); err != nil {
		t.Fatalf("decode into the preview feed: %v", err)
	}
	tmpl, err := template.New(p.Key).Funcs(ttfuncs.Funcs()).Parse(p.Source)
	if err != nil {
		t.Fatal(err)
	}
	out, err := ttfuncs.Execute(tmpl, nil, p.Key, p.File, feed.Elem().Interface())
	if err != nil || string(out) != jinja[0] {
		t.Errorf("preview render:\ngot  %q, %v\nwant %q", out, err, jinja[0])
	}

	sp, _, err := LoadSetPreview(Config{Dir: filepath.Join(mod, "prompts")}, "agent")
	if err != nil {
		t.Fatalf("LoadSetPreview: %v", err)
	}
	setFeed := reflect.New(sp.Feed)
	if err := json.Unmarshal([]byte(`{"customer": {"name": "Ada"}, "order": {"id": "C3", "qty": 4}}`), setFeed.Interface()); err != nil {
		t.Fatal(err)
	}
	if got := setFeed.Elem().FieldByName("Order").Elem().FieldByName("Qty").Int(); got != 4 {
		t.Errorf("set preview feed: order.qty = %d, want 4", got)
	}
}

// TestGoTypeErrors checks the errors of bound types: at the template, an
// attribute the Go type lacks (with a did-you-mean), a value used as
// another type, a field promptgen cannot read, a value printed whole or
// converted to a dynamic value that holds one; at the goType or autobind entry, a type or package that does
// not exist and a type that cannot be bound.
func TestGoTypeErrors(t *testing.T) {
	mod := newGoTypeModule(t)
	tests := []struct {
		name, src string
		want      []string
	}{
		{"missing field", "inputs:\n  customer: {goType: pgtest/crm.Customer}\ntemplate: \"Hi {{ customer.nme }}\"\n",
			[]string{`prompts/p.yaml:3:27: "customer" has no field "nme" (did you mean "name"?)`}},
		{"missing nested field", "inputs:\n  orders: {goType: \"[]pgtest/crm.Order\"}\ntemplate: \"{% for o in orders %}{{ o.totl }}{% endfor %}\"\n",
			[]string{`prompts/p.yaml:3:38: "o" has no field "totl" (did you mean "total"?)`}},
		{"type mismatch", "inputs:\n  customer: {goType: pgtest/crm.Customer}\ntemplate: \"{{ customer.name.city }} {{ customer.orders + 1 }}\"\n",
			[]string{
				`prompts/p.yaml:3:29: "customer.name" is a string, it has no attribute "city"`,
				`prompts/p.yaml:3:40: unsupported operand types for +: list of object and int`,
			}},
		{"unreadable field", "inputs:\n  customer: {goType: pgtest/crm.Customer}\ntemplate: \"{{ customer.created }}\"\n",
			[]string{`prompts/p.yaml:3:24: field "created" of crm.Customer has Go type time.Time, which promptgen cannot read: it has its own JSON form (MarshalJSON), not its fields`}},
		{"printed whole", "inputs:\n  customer: {goType: pgtest/crm.Customer}\ntemplate: \"{{ customer }} {{ customer | tojson }}\"\n",
			[]string{
				`prompts/p.yaml:3:15: printing reads every field of crm.Customer, but promptgen cannot read its field "created" of Go type time.Time: it has its own JSON form (MarshalJSON), not its fields`,
				`prompts/p.yaml:3:30: tojson reads every field of crm.Customer, but promptgen cannot read its field "created" of Go type time.Time: it has its own JSON form (MarshalJSON), not its fields`,
			}},
		{"converted whole", "inputs:\n  customer: {goType: pgtest/crm.Customer}\ntemplate: \"{{ [customer] | max(attribute='name') }} {{ customer.orders | groupby('paid') | list }}\"\n",
			[]string{`prompts/p.yaml:3:15: converting it to a dynamic value reads every field of crm.Customer, but promptgen cannot read its field "created" of Go type time.Time: it has its own JSON form (MarshalJSON), not its fields`}},
		{"skipped fields", "inputs:\n  customer: {goType: pgtest/crm.Customer}\ntemplate: \"{{ customer.secret }}{{ customer.notes }}\"\n",
			[]string{
				`prompts/p.yaml:3:24: "customer" has no field "secret"`,
				`prompts/p.yaml:3:45: "customer" has no field "notes"`,
			}},
		{"string option", "inputs:\n  c: {goType: pgtest/crm.Counter}\ntemplate: \"{{ c.label }} {{ c.n }} {{ c | tojson }}\"\n",
			[]string{
				`prompts/p.yaml:3:31: field "n" of crm.Counter has Go type int, which promptgen cannot read: its json tag has the ",string" option: its JSON form is the value written inside a string`,
				`prompts/p.yaml:3:39: tojson reads every field of crm.Counter, but promptgen cannot read its field "n" of Go type int: its json tag has the ",string" option: its JSON form is the value written inside a string`,
			}},
		{"omitempty scalar", "inputs:\n  s: {goType: pgtest/crm.Sparse}\ntemplate: \"{{ s.count }}\"\n",
			[]string{`prompts/p.yaml:2:15: cannot bind crm.Sparse: its field Count (int) is tagged omitempty: its JSON form leaves the key out when the value is empty (0, "", false), which promptgen does not follow (make it a pointer)`}},
		{"omitempty scalar nested", "inputs:\n  h: {goType: pgtest/crm.Holder}\ntemplate: \"{{ h.name }} {{ h.inner }}\"\n",
			[]string{`prompts/p.yaml:3:30: field "inner" of crm.Holder has Go type crm.Sparse, which promptgen cannot read: its field Count (int) is tagged omitempty: its JSON form leaves the key out when the value is empty (0, "", false), which promptgen does not follow (make it a pointer)`}},
		{"omitzero struct", "inputs:\n  z: {goType: pgtest/crm.Zero}\ntemplate: \"{{ z.at.city }}\"\n",
			[]string{`prompts/p.yaml:2:15: cannot bind crm.Zero: its field At (crm.Address) is tagged omitzero: its JSON form leaves the key out when the value is zero, which promptgen does not follow (make it a pointer)`}},
		{"embedded struct", "inputs:\n  w: {goType: pgtest/crm.Wrapped}\ntemplate: \"{{ w.city }}\"\n",
			[]string{`prompts/p.yaml:2:15: cannot bind crm.Wrapped: it embeds crm.Address, whose fields encoding/json puts among its own, which promptgen does not follow (give the field a json name)`}},
		{"no such type", "inputs:\n  customer: {goType: pgtest/crm.Custome}\ntemplate: \"{{ customer.name }}\"\n",
			[]string{`prompts/p.yaml:2:22: package "pgtest/crm" has no type "Custome" (did you mean "Customer"?)`}},
		{"not a struct", "inputs:\n  status: {goType: pgtest/crm.Status}\ntemplate: \"{{ status }}\"\n",
			[]string{`prompts/p.yaml:2:20: cannot bind crm.Status: it is not a struct type`}},
		{"no such package", "inputs:\n  customer: {goType: pgtest/nope.Customer}\ntemplate: \"{{ customer.name }}\"\n",
			[]string{`prompts/p.yaml:2:22: cannot load Go package "pgtest/nope": `}},
		{"bad autobind", "autobind: [pgtest/nope]\ninputs:\n  customer: object\ntemplates:\n  main:\n    default: \"{{ customer.name }}\"\n",
			[]string{`prompts/promptset.yaml:1:12: cannot load Go package "pgtest/nope": `}},
		{"invalid goType", "inputs:\n  customer: {goType: \"*pgtest/crm.Customer\", type: object}\ntemplate: \"{{ customer.name }}\"\n",
			[]string{
				`prompts/p.yaml:2:22: invalid goType "*pgtest/crm.Customer": an input is optional by ` + "`required` or `optional`" + `, and then a pointer in Go (write the type without *)`,
				`prompts/p.yaml:2:46: "type" does not go with "goType": the Go type gives the shape`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := "p.yaml"
			if strings.HasPrefix(tt.src, "autobind") {
				file = "promptset.yaml"
			}
			wantBindDiagnostics(t, mod, file, tt.src, tt.want)
		})
	}
}

// loadInTempModule is the loader of the tests that load packages of a
// module made by newTempModule, whose go.mod needs -mod=mod (see goRun);
// it records the paths of each call in calls.
func loadInTempModule(calls *[][]string) bind.Loader {
	return func(dir string, paths []string) ([]*packages.Package, error) {
		*calls = append(*calls, paths)
		return packages.Load(&packages.Config{Dir: dir, Mode: bind.Mode, Env: append(os.Environ(), "GOFLAGS=-mod=mod")}, paths...)
	}
}

// TestGoTypeOneLoad checks that one run loads every package that goType
// and autobind name with one packages.Load, and none without them.
func TestGoTypeOneLoad(t *testing.T) {
	mod := newGoTypeModule(t)
	var calls [][]string
	counting := loadInTempModule(&calls)
	fsys := fstest.MapFS{
		"a.yaml": {Data: []byte("inputs:\n  customer: {goType: pgtest/crm.Customer}\n  at: {goType: pgtest/geo.Point}\ntemplate: \"{{ customer.name }} {{ at.lat }}\"\n")},
		"b.yaml": {Data: []byte("inputs:\n  items: {goType: \"[]pgtest/crm.Item\"}\ntemplate: \"{{ items | length }}\"\n")},
		"c.yaml": {Data: []byte("inputs:\n  type: object\n  properties:\n    c: {goType: pgtest/crm.Customer}\n    xs: {type: array, items: {goType: pgtest/crm.Item}}\n" +
			"  required: [c, xs]\ntemplate: \"{{ c.name }}{% for x in xs %}{{ x.name }}{% endfor %}\"\n")},
		"agent/promptset.yaml": {Data: []byte("autobind: [pgtest/crm, pgtest/geo]\ninputs:\n  point: object\ntemplates:\n  main:\n    default: \"{{ point.lng }}\"\n")},
	}
	if _, err := generateWith(fsys, "prompts", Config{Out: mod, Pkg: "out", ImportPath: "pgtest/out"}, counting); err != nil {
		t.Fatal(err)
	}
	if want := [][]string{{"pgtest/crm", "pgtest/geo"}}; !slices.EqualFunc(calls, want, slices.Equal) {
		t.Errorf("loads: got %q, want %q", calls, want)
	}
	calls = nil
	plain := fstest.MapFS{"c.yaml": {Data: []byte("inputs:\n  name: string\ntemplate: \"{{ name }}\"\n")}}
	if _, err := generateWith(plain, "prompts", Config{Out: mod, Pkg: "out", ImportPath: "pgtest/out"}, counting); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 0 {
		t.Errorf("a run without goType loaded %q", calls)
	}
}

// wantBindDiagnostics generates the one prompt file named file holding src,
// binding its Go packages in the temporary module mod, and checks that it
// fails with the diagnostics want, in order (one ending in ": " is a
// prefix).
func wantBindDiagnostics(t *testing.T, mod, file, src string, want []string) {
	t.Helper()
	var calls [][]string
	res, err := generateWith(fstest.MapFS{file: {Data: []byte(src)}}, "prompts", Config{Out: mod, Pkg: "out", ImportPath: "pgtest/out"}, loadInTempModule(&calls))
	if err == nil {
		t.Fatal("no error")
	}
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, d.String())
	}
	if len(got) != len(want) {
		t.Fatalf("got %d diagnostics, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if got[i] != w && !(strings.HasSuffix(w, ": ") && strings.HasPrefix(got[i], w)) {
			t.Errorf("got  %s\nwant %s", got[i], w)
		}
	}
}
