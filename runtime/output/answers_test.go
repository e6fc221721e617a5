package output

import (
	"encoding/json"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// answerCase is one model answer of the corpus testdata/answers (its
// README describes the layout): the schema it was asked for, and the
// value or the error keyword a careful reader expects.
type answerCase struct {
	id      string // set/file/name, the key of knownAnswerFailures
	set     string
	schema  string
	answer  string
	want    []byte // the expected value's JSON, or nil
	wantErr string // the expected error's keyword, or "nojson"
}

// knownAnswerFailures are the cases ParseLenient gets wrong today, each
// with what the parser would need. The test fails when one of them starts
// passing, so that the list stays honest.
var knownAnswerFailures = map[string]string{}

// TestAnswers parses every answer of the corpus strictly (Parse) and
// leniently (ParseLenient), logs how many of each come out right, and
// fails on every lenient result that is wrong and not a known failure.
func TestAnswers(t *testing.T) {
	cases := loadAnswers(t)
	type tally struct {
		values, strict, lenient       int // answers that want a value, and those parsed to it
		errs, strictErrs, lenientErrs int // answers that want an error; rejected; rejected with the keyword
		silent                        int // lenient values with a nil error that are wrong
	}
	tallies := map[string]*tally{}
	shapes := map[string]*Shape{}
	validators := map[string]*Schema{}
	seen := map[string]bool{}
	for _, c := range cases {
		seen[c.id] = true
		shape, ok := shapes[c.schema]
		if !ok {
			var err error
			if shape, err = CompileShape(c.schema); err != nil {
				t.Fatalf("%s: schema: %v", c.id, err)
			}
			shapes[c.schema] = shape
			validators[c.schema] = MustCompileSchema(c.schema)
		}
		n := tallies[c.set]
		if n == nil {
			n = &tally{}
			tallies[c.set] = n
		}
		strictGot, strictErr := Parse[any](c.answer, validators[c.schema])
		got, _, err := ParseLenient[any](c.answer, shape, validators[c.schema])
		problem := c.check(got, err)
		if c.wantErr == "" {
			n.values++
			if c.check(strictGot, strictErr) == "" {
				n.strict++
			}
			if problem == "" {
				n.lenient++
			}
		} else {
			n.errs++
			if strictErr != nil {
				n.strictErrs++
			}
			if problem == "" {
				n.lenientErrs++
			}
		}
		if problem != "" && err == nil {
			n.silent++
		}
		reason, known := knownAnswerFailures[c.id]
		switch {
		case known && problem == "":
			t.Errorf("%s: passes now: remove it from knownAnswerFailures (%s)", c.id, reason)
		case !known && problem != "":
			t.Errorf("%s: %s", c.id, problem)
		}
	}
	for id := range knownAnswerFailures {
		if !seen[id] {
			t.Errorf("knownAnswerFailures names %s, which the corpus does not hold", id)
		}
	}
	for _, set := range slices.Sorted(maps.Keys(tallies)) {
		n := tallies[set]
		t.Logf("%s: %d answers. %d want a value: strict %d, lenient %d. %d want an error: strict rejects %d, lenient %d with the keyword. Lenient wrong with a nil error: %d",
			set, n.values+n.errs, n.values, n.strict, n.lenient, n.errs, n.strictErrs, n.lenientErrs, n.silent)
	}
	t.Logf("known failures: %d", len(knownAnswerFailures))
}

// check returns what is wrong with the result of parsing c, or "".
func (c answerCase) check(got any, err error) string {
	if c.wantErr != "" {
		switch {
		case err == nil:
			return "got " + jsonText(got) + ", want an error with keyword " + c.wantErr
		case !hasKeyword(err, c.wantErr):
			return "error: " + err.Error() + "; want keyword " + c.wantErr
		}
		return ""
	}
	if err != nil {
		return "error: " + err.Error()
	}
	var want any
	json.Unmarshal(c.want, &want) // checked by loadAnswers
	if !cmp.Equal(want, got) {
		return "got " + jsonText(got) + ", want " + string(c.want)
	}
	return ""
}

// hasKeyword reports whether err is an error of the keyword: one of
// Errors, or ErrNoJSON for "nojson".
func hasKeyword(err error, keyword string) bool {
	if keyword == "nojson" {
		return errors.Is(err, ErrNoJSON)
	}
	var es Errors
	if !errors.As(err, &es) {
		return false
	}
	return slices.ContainsFunc(es, func(e *Error) bool { return e.Keyword == keyword })
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// loadAnswers reads every testdata/answers/<set>/<file>.txtar.
func loadAnswers(t *testing.T) []answerCase {
	files, err := filepath.Glob(filepath.Join("testdata", "answers", "*", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no answer corpus")
	}
	var cases []answerCase
	for _, file := range files {
		a, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		set := filepath.Base(filepath.Dir(file))
		prefix := set + "/" + strings.TrimSuffix(filepath.Base(file), ".txtar") + "/"
		var schema string
		for _, f := range a.Files {
			name, part, _ := strings.Cut(f.Name, ".")
			id := prefix + name
			last := len(cases) - 1
			switch {
			case part == "schema.json":
				schema = string(f.Data)
			case part == "answer":
				if schema == "" {
					t.Fatalf("%s: no schema before it", id)
				}
				if slices.ContainsFunc(cases, func(c answerCase) bool { return c.id == id }) {
					t.Fatalf("%s: given twice", id)
				}
				cases = append(cases, answerCase{id: id, set: set, schema: schema,
					answer: strings.TrimSuffix(string(f.Data), "\n")})
			case last < 0 || cases[last].id != id || cases[last].want != nil || cases[last].wantErr != "":
				t.Fatalf("%s: %s does not follow its answer", id, f.Name)
			case part == "want.json":
				if !json.Valid(f.Data) {
					t.Fatalf("%s: %s is not JSON", id, f.Name)
				}
				cases[last].want = f.Data
			case part == "want.err":
				cases[last].wantErr = strings.TrimSpace(string(f.Data))
			default:
				t.Fatalf("%s: unknown section %s", id, f.Name)
			}
		}
	}
	for _, c := range cases {
		if c.want == nil && c.wantErr == "" {
			t.Fatalf("%s: neither want.json nor want.err", c.id)
		}
	}
	return cases
}
