package names

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/promptgen/promptgen/gen/internal/src"
)

// nameTests has one row per naming rule of STYLE.md §6 (and per decision
// documented in names.go).
var nameTests = []struct {
	rule     string
	key      string
	exported string
	exportOK bool
	unexport string
	unexpOK  bool
}{
	// Exported names join all words.
	{rule: "split on _, initialism", key: "user_id", exported: "UserID", exportOK: true, unexport: "userID", unexpOK: true},
	{rule: "split on -", key: "system-prompt", exported: "SystemPrompt", exportOK: true, unexport: "systemPrompt", unexpOK: true},
	{rule: "split on _", key: "max_tokens", exported: "MaxTokens", exportOK: true, unexport: "maxTokens", unexpOK: true},
	{rule: "split on .", key: "customer.history.loyalty_status", exported: "CustomerHistoryLoyaltyStatus", exportOK: true, unexport: "customerHistoryLoyaltyStatus", unexpOK: true},
	{rule: "split on / and space, runs of separators", key: "foo/bar  baz", exported: "FooBarBaz", exportOK: true, unexport: "fooBarBaz", unexpOK: true},
	{rule: "split lower→Upper", key: "maxTokens", exported: "MaxTokens", exportOK: true, unexport: "maxTokens", unexpOK: true},
	{rule: "split Upper→Upper+lower", key: "HTTPServer", exported: "HTTPServer", exportOK: true, unexport: "httpServer", unexpOK: true},
	{rule: "split Upper→Upper+lower, initialism then word", key: "APIKey", exported: "APIKey", exportOK: true, unexport: "apiKey", unexpOK: true},
	{rule: "split Upper→Upper+lower, not an S plural", key: "IDSeries", exported: "IDSeries", exportOK: true, unexport: "idSeries", unexpOK: true},
	{rule: "lower-case initialism word", key: "apiKey", exported: "APIKey", exportOK: true, unexport: "apiKey", unexpOK: true},
	{rule: "initialism json", key: "json_schema", exported: "JSONSchema", exportOK: true, unexport: "jsonSchema", unexpOK: true},
	{rule: "initialism llm (promptgen addition)", key: "llm_output", exported: "LLMOutput", exportOK: true, unexport: "llmOutput", unexpOK: true},
	{rule: "initialism os (promptgen addition)", key: "osVersion", exported: "OSVersion", exportOK: true, unexport: "osVersion", unexpOK: true},
	{rule: "initialism https, not http plural", key: "https", exported: "HTTPS", exportOK: true, unexport: "https", unexpOK: true},
	{rule: "other words: first rune upper, rest lower", key: "SYSTEM_PROMPT", exported: "SystemPrompt", exportOK: true, unexport: "systemPrompt", unexpOK: true},

	// Digits stay with the preceding word.
	{rule: "digits stay with word", key: "gpt4o", exported: "Gpt4o", exportOK: true, unexport: "gpt4o", unexpOK: true},
	{rule: "digits after separator start a word", key: "gpt-4o", exported: "Gpt4o", exportOK: true, unexport: "gpt4o", unexpOK: true},
	{rule: "digits after separator", key: "x-1", exported: "X1", exportOK: true, unexport: "x1", unexpOK: true},
	{rule: "split digit→Upper, initialism with digit", key: "utf8Decode", exported: "UTF8Decode", exportOK: true, unexport: "utf8Decode", unexpOK: true},
	{rule: "split digit→Upper after upper run", key: "UTF8Decode", exported: "UTF8Decode", exportOK: true, unexport: "utf8Decode", unexpOK: true},
	{rule: "split digit→Upper before initialism", key: "v2API", exported: "V2API", exportOK: true, unexport: "v2API", unexpOK: true},

	// Plural initialisms.
	{rule: "plural initialism, camel case", key: "userIDs", exported: "UserIDs", exportOK: true, unexport: "userIDs", unexpOK: true},
	{rule: "plural initialism, snake case", key: "user_ids", exported: "UserIDs", exportOK: true, unexport: "userIDs", unexpOK: true},
	{rule: "plural initialism, screaming snake case", key: "USER_IDS", exported: "UserIDs", exportOK: true, unexport: "userIDs", unexpOK: true},
	{rule: "plural initialism, title case", key: "userIds", exported: "UserIDs", exportOK: true, unexport: "userIDs", unexpOK: true},
	{rule: "plural initialism first", key: "IDs", exported: "IDs", exportOK: true, unexport: "ids", unexpOK: true},
	{rule: "plural initialism before a word", key: "URLsToFetch", exported: "URLsToFetch", exportOK: true, unexport: "urlsToFetch", unexpOK: true},
	{rule: "no plural for initialism ending in S", key: "oss_url", exported: "OssURL", exportOK: true, unexport: "ossURL", unexpOK: true},

	// Unexported names lower-case the whole first word; keywords and
	// predeclared names get "_".
	{rule: "unexported initialism path", key: "url_path", exported: "URLPath", exportOK: true, unexport: "urlPath", unexpOK: true},
	{rule: "unexported lone initialism", key: "id", exported: "ID", exportOK: true, unexport: "id", unexpOK: true},
	{rule: "unexported upper initialism", key: "ID", exported: "ID", exportOK: true, unexport: "id", unexpOK: true},
	{rule: "keyword", key: "type", exported: "Type", exportOK: true, unexport: "type_", unexpOK: true},
	{rule: "keyword from cased key", key: "Func", exported: "Func", exportOK: true, unexport: "func_", unexpOK: true},
	{rule: "predeclared func", key: "len", exported: "Len", exportOK: true, unexport: "len_", unexpOK: true},
	{rule: "predeclared type", key: "string", exported: "String", exportOK: true, unexport: "string_", unexpOK: true},
	{rule: "predeclared nil", key: "nil", exported: "Nil", exportOK: true, unexport: "nil_", unexpOK: true},
	{rule: "predeclared const", key: "TRUE", exported: "True", exportOK: true, unexport: "true_", unexpOK: true},
	{rule: "keyword only as whole name", key: "type_name", exported: "TypeName", exportOK: true, unexport: "typeName", unexpOK: true},

	// Single letters and separators at the ends.
	{rule: "single lower", key: "x", exported: "X", exportOK: true, unexport: "x", unexpOK: true},
	{rule: "single upper", key: "X", exported: "X", exportOK: true, unexport: "x", unexpOK: true},
	{rule: "leading separator dropped", key: "_x", exported: "X", exportOK: true, unexport: "x", unexpOK: true},
	{rule: "trailing separator dropped", key: "x__", exported: "X", exportOK: true, unexport: "x", unexpOK: true},

	// Unicode.
	{rule: "unicode letters", key: "größe", exported: "Größe", exportOK: true, unexport: "größe", unexpOK: true},
	{rule: "unicode first letter", key: "ünits", exported: "Ünits", exportOK: true, unexport: "ünits", unexpOK: true},
	{rule: "unicode upper-case key", key: "GRÖSSE", exported: "Grösse", exportOK: true, unexport: "grösse", unexpOK: true},
	{rule: "caseless letters: invalid exported, valid unexported", key: "中文", exported: "中文", exportOK: false, unexport: "中文", unexpOK: true},
	{rule: "split caseless→Upper", key: "中文Name", exported: "中文Name", exportOK: false, unexport: "中文Name", unexpOK: true},
	{rule: "letter without simple upper case", key: "ß", exported: "ß", exportOK: false, unexport: "ß", unexpOK: true},
	{rule: "upper-case letter without lower case: invalid unexported", key: "ϒ_x", exported: "ϒX", exportOK: true, unexport: "ϒX", unexpOK: false},
	{rule: "combining mark is not a letter: a separator (keys are not normalised)", key: "u\u0308nits", exported: "UNits", exportOK: true, unexport: "uNits", unexpOK: true},

	// Invalid results.
	{rule: "leading digit", key: "9lives", exported: "9lives", exportOK: false, unexport: "9lives", unexpOK: false},
	{rule: "leading digit after separator", key: "_9lives", exported: "9lives", exportOK: false, unexport: "9lives", unexpOK: false},
	{rule: "empty", key: "", exported: "", exportOK: false, unexport: "", unexpOK: false},
	{rule: "separators only", key: "__", exported: "", exportOK: false, unexport: "", unexpOK: false},
	{rule: "punctuation only", key: "-. /", exported: "", exportOK: false, unexport: "", unexpOK: false},
}

func TestExportedName(t *testing.T) {
	for _, tt := range nameTests {
		name, ok := Exported(tt.key)
		if name != tt.exported || ok != tt.exportOK {
			t.Errorf("%s: Exported(%q) = %q, %v; want %q, %v", tt.rule, tt.key, name, ok, tt.exported, tt.exportOK)
		}
	}
}

func TestUnexportedName(t *testing.T) {
	for _, tt := range nameTests {
		name, ok := Unexported(tt.key)
		if name != tt.unexport || ok != tt.unexpOK {
			t.Errorf("%s: Unexported(%q) = %q, %v; want %q, %v", tt.rule, tt.key, name, ok, tt.unexport, tt.unexpOK)
		}
	}
}

// TestNameWords checks the word split on its own, which the table above only
// sees through casing.
func TestNameWords(t *testing.T) {
	tests := []struct {
		key  string
		want string // words joined by "|"
	}{
		{"HTTPServer", "HTTP|Server"},
		{"userIDs", "user|IDs"},
		{"userIDsFoo", "user|IDs|Foo"},
		{"userIDs2", "user|I|Ds2"}, // "s" followed by a digit is not a plural
		{"CPUsage", "CP|Usage"},    // "s" followed by a lower-case letter is not a plural
		{"gpt-4o", "gpt|4o"},
		{"A1B2", "A1|B2"},
		{"--a--b--", "a|b"},
		{"", ""},
	}
	n := NewNamer()
	for _, tt := range tests {
		if got := strings.Join(n.words(tt.key), "|"); got != tt.want {
			t.Errorf("words(%q) = %q; want %q", tt.key, got, tt.want)
		}
	}
}

func TestNamerExtraInitialisms(t *testing.T) {
	n := NewNamer("grpc", "Ollama")
	for _, tt := range []struct{ key, exported, unexported string }{
		{"grpc_client", "GRPCClient", "grpcClient"},
		{"ollama-host", "OLLAMAHost", "ollamaHost"},
		{"user_id", "UserID", "userID"}, // defaults still apply
		{"grpcs", "GRPCs", "grpcs"},     // and so does the plural rule
	} {
		if got, ok := n.exported(tt.key); got != tt.exported || !ok {
			t.Errorf("exported(%q) = %q, %v; want %q, true", tt.key, got, ok, tt.exported)
		}
		if got, ok := n.unexported(tt.key); got != tt.unexported || !ok {
			t.Errorf("unexported(%q) = %q, %v; want %q, true", tt.key, got, ok, tt.unexported)
		}
	}
	// The default table is not changed by NewNamer.
	if got, _ := Exported("grpc_client"); got != "GrpcClient" {
		t.Errorf("Exported(%q) = %q after NewNamer(\"grpc\"); want %q", "grpc_client", got, "GrpcClient")
	}
	if commonInitialisms["GRPC"] {
		t.Error("NewNamer modified commonInitialisms")
	}
}

func TestNameKeywordsAndPredeclared(t *testing.T) {
	var keywords int
	for tok := token.Token(0); tok < token.Token(200); tok++ {
		if s := tok.String(); tok.IsKeyword() {
			keywords++
			if !isGoKeyword(s) {
				t.Errorf("isGoKeyword(%q) = false", s)
			}
			checkSuffixed(t, s)
		}
	}
	if keywords != 25 {
		t.Errorf("found %d keywords in go/token; want 25", keywords)
	}
	for _, s := range types.Universe.Names() {
		if !isPredeclared(s) {
			t.Errorf("isPredeclared(%q) = false; go/types has it in the universe scope", s)
		}
		checkSuffixed(t, s)
	}
	for _, s := range []string{"foo", "Type", "string_", "unsafe", "main", "init", "_"} {
		if isGoKeyword(s) || isPredeclared(s) {
			t.Errorf("%q is reported as a keyword or predeclared name", s)
		}
	}
}

func checkSuffixed(t *testing.T, s string) {
	t.Helper()
	if got, ok := Unexported(s); got != s+"_" || !ok {
		t.Errorf("Unexported(%q) = %q, %v; want %q, true", s, got, ok, s+"_")
	}
}

// FuzzNames checks the invariants of both functions: ok means a valid
// identifier of the right kind, unexported names are never keywords or
// predeclared, results are made of letters and digits (plus the "_" suffix),
// and a valid exported name has a valid unexported one unless its first
// letter has no lower-case form.
func FuzzNames(f *testing.F) {
	for _, tt := range nameTests {
		f.Add(tt.key)
	}
	f.Fuzz(func(t *testing.T, key string) {
		exp, expOK := Exported(key)
		unexp, unexpOK := Unexported(key)
		if expOK && (!token.IsIdentifier(exp) || !token.IsExported(exp)) {
			t.Errorf("Exported(%q) = %q, true; not an exported identifier", key, exp)
		}
		if unexpOK && (!token.IsIdentifier(unexp) || token.IsExported(unexp) || types.Universe.Lookup(unexp) != nil) {
			t.Errorf("Unexported(%q) = %q, true; not a usable unexported identifier", key, unexp)
		}
		if r, _ := utf8.DecodeRuneInString(unexp); expOK && !unexpOK && !unicode.IsUpper(r) {
			// Only a first letter with no lower-case form ("ϒ") makes
			// a valid exported name an invalid unexported one.
			t.Errorf("Exported(%q) is valid but Unexported(%q) = %q is not", key, key, unexp)
		}
		for _, r := range strings.TrimSuffix(unexp, "_") + exp {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				t.Errorf("names for %q contain %q: %q, %q", key, r, exp, unexp)
			}
		}
		if again, _ := Exported(key); again != exp {
			t.Errorf("Exported(%q) not deterministic: %q then %q", key, exp, again)
		}
	})
}

func TestNameScope(t *testing.T) {
	posA := src.Pos{File: "a.prompt.yaml", Line: 3, Col: 3}
	posB := src.Pos{File: "a.prompt.yaml", Line: 4, Col: 3}
	posC := src.Pos{File: "b.prompt.yaml", Line: 1, Col: 1}

	s := NewScope("String", "Render")

	// A free name is claimed.
	if k, p, ok := s.Claim("UserID", "user_id", posA); !ok || k != "" || p != (src.Pos{}) {
		t.Fatalf("first claim = %q, %v, %v; want \"\", zero, true", k, p, ok)
	}
	// Another key mapping to the same name gets the first owner.
	if k, p, ok := s.Claim("UserID", "user-id", posB); ok || k != "user_id" || p != posA {
		t.Errorf("colliding claim = %q, %v, %v; want %q, %v, false", k, p, ok, "user_id", posA)
	}
	// A failed claim records nothing: a third key still sees the first owner.
	if k, p, ok := s.Claim("UserID", "userId", posC); ok || k != "user_id" || p != posA {
		t.Errorf("third claim = %q, %v, %v; want %q, %v, false", k, p, ok, "user_id", posA)
	}
	// The same key may claim its name again; the first position is kept.
	if _, _, ok := s.Claim("UserID", "user_id", posC); !ok {
		t.Error("re-claim by the same key failed")
	}
	if k, p, _ := s.Claim("UserID", "other", src.Pos{}); k != "user_id" || p != posA {
		t.Errorf("owner after re-claim = %q, %v; want %q, %v", k, p, "user_id", posA)
	}
	// Reserved names belong to nobody: empty key and zero position.
	for _, key := range []string{"string", "", "String"} {
		if k, p, ok := s.Claim("String", key, posA); ok || k != "" || p != (src.Pos{}) {
			t.Errorf("claim of reserved String by %q = %q, %v, %v; want \"\", zero, false", key, k, p, ok)
		}
	}
	// Names are case-sensitive Go names; different names don't collide.
	if _, _, ok := s.Claim("userID", "user_id", posA); !ok {
		t.Error("claim of userID failed")
	}
	if _, _, ok := s.Claim("Render_", "render", posA); !ok {
		t.Error("claim of Render_ failed")
	}

	for name, want := range map[string]bool{"String": true, "Render": true, "UserID": true, "userID": true, "Other": false} {
		if got := s.taken(name); got != want {
			t.Errorf("taken(%q) = %v; want %v", name, got, want)
		}
	}

	// Scopes are independent.
	other := NewScope()
	if _, _, ok := other.Claim("UserID", "user-id", posB); !ok {
		t.Error("claim in a fresh scope failed")
	}
	if other.taken("String") {
		t.Error("fresh scope has String taken")
	}
}

// TestNameScopeWithNames shows the intended use: two keys that map to the
// same exported name collide, and the report names both keys.
func TestNameScopeWithNames(t *testing.T) {
	s := NewScope("Render")
	var collisions []string
	for i, key := range []string{"user_id", "max_tokens", "user-id", "render"} {
		name, ok := Exported(key)
		if !ok {
			t.Fatalf("Exported(%q) invalid", key)
		}
		pos := src.Pos{File: "a.prompt.yaml", Line: i + 1, Col: 3}
		if k, p, ok := s.Claim(name, key, pos); !ok {
			if k == "" {
				collisions = append(collisions, fmt.Sprintf("%s: %q maps to reserved name %s", pos, key, name))
			} else {
				collisions = append(collisions, fmt.Sprintf("%s: %q and %q (line %d) both map to %s", pos, key, k, p.Line, name))
			}
		}
	}
	want := []string{
		`a.prompt.yaml:3:3: "user-id" and "user_id" (line 1) both map to UserID`,
		`a.prompt.yaml:4:3: "render" maps to reserved name Render`,
	}
	if strings.Join(collisions, "\n") != strings.Join(want, "\n") {
		t.Errorf("collisions:\n%s\nwant:\n%s", strings.Join(collisions, "\n"), strings.Join(want, "\n"))
	}
}
