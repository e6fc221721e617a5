// Package names decides the Go names of user keys: splitting keys into
// words, the initialism table, exported and unexported names, and the
// scopes in which names are claimed so that collisions are found; the
// naming pass over the checked prompts and sets (Prompts, Sets: prompt
// values, feed types and fields, output types and checks, set keys); and
// Article, the English article that messages and doc comments put before a
// name.
//
// It imports only the standard library, gen/internal/ir, gen/internal/diag,
// gen/internal/src and schema (the model of an output's types). It must not
// import gen or any other stage: the lowered output is on the IR.
package names

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
)

// This file decides the Go names of user keys (STYLE.md §6).
//
// A key is split into words:
//   - at every rune that is not a letter or digit (unicode.IsLetter,
//     unicode.IsDigit: the same alphabet as Go identifiers), which is dropped;
//   - before an upper-case letter that follows a rune that is not upper case
//     (a lower-case letter, a digit, or a letter without case), so
//     "maxTokens" → max, Tokens and "utf8Decode" → utf8, Decode;
//   - before the last letter of a run of upper-case letters that is followed
//     by a lower-case letter, so "HTTPServer" → HTTP, Server; except for a
//     plural initialism (below), so "userIDs" → user, IDs.
//
// Digits stay with the preceding word ("gpt4o" is one word; in "gpt-4o" the
// second word is "4o").
//
// Each word is then cased: if its upper-case form is an initialism it is
// written in capitals ("url" → URL); if it is an initialism followed by a
// plural "s" it is written as the initialism in capitals and a lower-case "s"
// ("ids", "IDs", "IDS" → IDs, as in x509.Certificate.URIs); otherwise its
// first rune is upper-cased and the rest lower-cased ("SYSTEM" → System).
// The plural rule is skipped for initialisms that end in S ("oss" → Oss, not
// OSs; "https" is HTTPS). golint and gqlgen keep "IDs" only when the key is
// already spelt that way ("user_ids" → UserIds); the rule here gives UserIDs
// for every spelling.

// commonInitialisms is the default initialism table, in upper case. It is
// read-only; NewNamer copies it to add more.
var commonInitialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true,
	"DNS": true, "EOF": true, "GUID": true, "HTML": true, "HTTP": true,
	"HTTPS": true, "ID": true, "IP": true, "JSON": true, "LHS": true,
	"QPS": true, "RAM": true, "RHS": true, "RPC": true, "SLA": true,
	"SMTP": true, "SQL": true, "SSH": true, "TCP": true, "TLS": true,
	"TTL": true, "UDP": true, "UI": true, "UID": true, "UUID": true,
	"URI": true, "URL": true, "UTF8": true, "VM": true, "XML": true,
	"XMPP": true, "XSRF": true, "XSS": true,
	// promptgen additions.
	"LLM": true, "AI": true, "JWT": true, "PDF": true, "CSV": true,
	"YAML": true, "SDK": true, "OS": true, "TTS": true, "OCR": true,
}

// Namer turns user keys into Go names using one initialism table. The
// table is never modified after construction, so a Namer may be shared.
// The zero Namer knows no initialisms.
type Namer struct {
	initialisms map[string]bool // upper-case forms
}

// NewNamer returns a Namer whose table is commonInitialisms plus extra
// (the config's `initialisms:`), compared in upper case. Checking that each
// extra entry is a sensible word is the config loader's job.
func NewNamer(extra ...string) Namer {
	if len(extra) == 0 {
		return Namer{initialisms: commonInitialisms}
	}
	t := make(map[string]bool, len(commonInitialisms)+len(extra))
	for k := range commonInitialisms {
		t[k] = true
	}
	for _, e := range extra {
		t[upper(e)] = true
	}
	return Namer{initialisms: t}
}

// Exported turns a user key (variable, prompt or field name) into an
// exported Go name with the default initialisms; see Namer.exported.
func Exported(key string) (name string, ok bool) {
	return NewNamer().exported(key)
}

// Unexported turns a user key into an unexported Go name with the
// default initialisms; see Namer.unexported.
func Unexported(key string) (name string, ok bool) {
	return NewNamer().unexported(key)
}

// exported joins the cased words of key. ok is false when the result is not
// an exported Go identifier: it is empty, or its first rune is a digit or has
// no upper-case form. The caller then reports an error at the key asking for
// go_name; name is returned anyway for that message.
func (n Namer) exported(key string) (name string, ok bool) {
	var b strings.Builder
	for _, w := range n.words(key) {
		b.WriteString(n.caseWord(w))
	}
	name = b.String()
	r, _ := utf8.DecodeRuneInString(name)
	return name, name != "" && unicode.IsUpper(r)
}

// ExportedWords joins the cased words of key as exported does, for a name
// that follows another (an enum constant after its type's name), where a
// leading digit is fine. It returns "" when key has no letter or digit.
func (n Namer) ExportedWords(key string) string {
	var b strings.Builder
	for _, w := range n.words(key) {
		b.WriteString(n.caseWord(w))
	}
	return b.String()
}

// unexported is like exported, but writes the whole first word in lower
// case, initialisms included (url_path → urlPath, id → id, HTTPServer →
// httpServer), and appends "_" to Go keywords and predeclared identifiers
// (type → type_, len → len_). ok is false when the result is not an
// unexported Go identifier: it is empty, or its first rune is a digit or an
// upper-case letter with no lower-case form (such as "ϒ").
func (n Namer) unexported(key string) (name string, ok bool) {
	ws := n.words(key)
	if len(ws) == 0 {
		return "", false
	}
	var b strings.Builder
	b.WriteString(lower(ws[0]))
	for _, w := range ws[1:] {
		b.WriteString(n.caseWord(w))
	}
	name = b.String()
	if r, _ := utf8.DecodeRuneInString(name); !unicode.IsLetter(r) || unicode.IsUpper(r) {
		return name, false
	}
	if isGoKeyword(name) || isPredeclared(name) {
		name += "_"
	}
	return name, true
}

// words splits key into words (see the comment at the top of this file).
func (n Namer) words(key string) []string {
	rs := []rune(key)
	var words []string
	start := -1 // start of the current word, or -1 between words
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			if start >= 0 {
				words = append(words, string(rs[start:i]))
				start = -1
			}
			continue
		case start < 0:
			start = i
			continue
		case !unicode.IsUpper(r):
			continue
		}
		// r is upper case and not the first rune of the word.
		split := !unicode.IsUpper(rs[i-1])
		if !split && i+1 < len(rs) && unicode.IsLower(rs[i+1]) {
			// "HTTPServer": r starts the next word, unless the run so far
			// is an initialism and rs[i+1] its plural "s" ("userIDs").
			split = !n.pluralAt(rs, start, i)
		}
		if split {
			words = append(words, string(rs[start:i]))
			start = i
		}
	}
	if start >= 0 {
		words = append(words, string(rs[start:]))
	}
	return words
}

// pluralAt reports whether the upper-case run rs[start:i+1] is a plural-able
// initialism and is followed by an "s" that ends the word: by the end of the
// key, a separator or an upper-case letter.
func (n Namer) pluralAt(rs []rune, start, i int) bool {
	if rs[i+1] != 's' {
		return false
	}
	if j := i + 2; j < len(rs) {
		if next := rs[j]; (unicode.IsLetter(next) || unicode.IsDigit(next)) && !unicode.IsUpper(next) {
			return false
		}
	}
	return n.pluralBase(upper(string(rs[start : i+1])))
}

// pluralBase reports whether u, an upper-case word, is an initialism that
// takes a plural "s".
func (n Namer) pluralBase(u string) bool {
	return n.initialisms[u] && !strings.HasSuffix(u, "S")
}

// caseWord writes one word that is not the first word of an unexported name.
func (n Namer) caseWord(w string) string {
	u := upper(w)
	if n.initialisms[u] {
		return u
	}
	if base, ok := strings.CutSuffix(u, "S"); ok && n.pluralBase(base) {
		return base + "s"
	}
	r, size := utf8.DecodeRuneInString(w)
	return string(unicode.ToUpper(r)) + lower(w[size:])
}

// upper and lower map each rune with unicode's simple case mapping, so a
// letter stays one letter (unlike "ß" → "SS"); the result is still made of
// letters and digits only.
func upper(s string) string { return strings.Map(unicode.ToUpper, s) }
func lower(s string) string { return strings.Map(unicode.ToLower, s) }

// isGoKeyword reports whether s is one of Go's 25 keywords.
func isGoKeyword(s string) bool {
	switch s {
	case "break", "case", "chan", "const", "continue", "default", "defer",
		"else", "fallthrough", "for", "func", "go", "goto", "if", "import",
		"interface", "map", "package", "range", "return", "select", "struct",
		"switch", "type", "var":
		return true
	}
	return false
}

// isPredeclared reports whether s is a predeclared identifier of the
// universe scope (types, constants, nil and built-in functions). The list is
// fixed here rather than read from go/types so that output does not depend on
// the Go toolchain; a test checks it against go/types.Universe.
func isPredeclared(s string) bool {
	switch s {
	case "any", "bool", "byte", "comparable", "complex64", "complex128",
		"error", "float32", "float64", "int", "int8", "int16", "int32",
		"int64", "rune", "string", "uint", "uint8", "uint16", "uint32",
		"uint64", "uintptr",
		"true", "false", "iota", "nil",
		"append", "cap", "clear", "close", "complex", "copy", "delete",
		"imag", "len", "make", "max", "min", "new", "panic", "print",
		"println", "real", "recover":
		return true
	}
	return false
}

// Scope records the Go names taken in one scope (package, struct or
// function), seeded with reserved names. Lookups only: it is never ranged
// over, so it cannot make output depend on map order.
type Scope struct {
	owners map[string]nameOwner // by Go name
	tools  map[string]*ir.Tool  // the package's tools by name: a name is one tool
}

// nameOwner is who holds a Go name: a user key and its position, or
// promptgen itself (reserved).
type nameOwner struct {
	key      string
	pos      src.Pos
	reserved bool
}

// NewScope returns a scope in which the reserved names are taken.
func NewScope(reserved ...string) *Scope {
	s := &Scope{owners: make(map[string]nameOwner, len(reserved)), tools: map[string]*ir.Tool{}}
	for _, r := range reserved {
		s.owners[r] = nameOwner{reserved: true}
	}
	return s
}

// Claim records that key (at pos) maps to goName and returns ok. If goName
// is reserved, or already claimed by a different key, it records nothing
// and returns the owner and false: the earlier key and its position, or ""
// and the zero Pos for a reserved name. Claiming a name again for the same
// key succeeds and keeps the first position.
func (s *Scope) Claim(goName, key string, pos src.Pos) (ownerKey string, ownerPos src.Pos, ok bool) {
	o, taken := s.owners[goName]
	switch {
	case !taken:
		s.owners[goName] = nameOwner{key: key, pos: pos}
	case o.reserved || o.key != key:
		return o.key, o.pos, false
	}
	return "", src.Pos{}, true
}

// reserved reports whether goName is one of the names s was seeded with.
func (s *Scope) reserved(goName string) bool {
	return s.owners[goName].reserved
}

// taken reports whether goName is reserved or claimed in s. Later stages use
// it to pick a free name for promptgen's own helpers and locals, which give
// way to user names.
func (s *Scope) taken(goName string) bool {
	_, ok := s.owners[goName]
	return ok
}

// Article returns s after the English indefinite article its first letter
// takes: "an object", "a string".
func Article(s string) string {
	if strings.IndexByte("aeiouAEIOU", s[0]) >= 0 {
		return "an " + s
	}
	return "a " + s
}
