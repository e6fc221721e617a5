package output

// This file is the tolerant reader of what models write for JSON: the
// first pass of schema-aligned parsing (issue 24). It reads a value the way
// a careful person would, records each repair on the node where it made it,
// and never fails: what it cannot read it keeps as a word. The coercion
// pass, led by the schema, decides what the tree means.
//
// It reads text fed in chunks, as a streamed answer arrives (looseStream),
// in time linear in the text whatever the chunks; readLoose reads a whole
// text the same way. Nesting is bounded by maxLooseDepth.

import (
	"strings"
	"unicode/utf8"
)

// looseKind is the kind of a node the tolerant reader made.
type looseKind uint8

const (
	looseObject looseKind = iota
	looseArray
	looseString // a quoted string, text unescaped
	looseNumber // a JSON number literal, text as written
	looseWord   // unquoted text: true, None, an unquoted value, prose
)

// Repairs the tolerant reader makes, as a node records them.
const (
	repairComment       = "comment removed"
	repairTrailingComma = "trailing comma removed"
	repairExtraComma    = "extra comma removed"
	repairMissingComma  = "missing comma added"
	repairMissingColon  = "missing colon added"
	repairUnquotedKey   = "unquoted key"
	repairUnquotedValue = "unquoted string"
	repairSingleQuotes  = "single-quoted string"
	repairBacktick      = "backtick-quoted string"
	repairTripleQuotes  = "triple-quoted string"
	repairInnerQuote    = "unescaped quote kept in the string"
	repairRawNewline    = "raw newline kept in the string"
	repairBadEscape     = "invalid escape kept as written"
	repairWrongBracket  = "wrong closing bracket"
	repairMissingClose  = "missing closing bracket added"
	repairEllipsis      = "ellipsis removed"
	repairMissingValue  = "member without a value dropped"
	repairUnclosed      = "closed where the text ended"
	repairTooDeep       = "nesting too deep: kept as text"
)

// maxNameAhead bounds the member name the reader looks ahead for after a
// comma or a line break that may end an unquoted value: quotes and blanks
// before its colon included.
const maxNameAhead = 64

// maxLooseDepth bounds the nesting the reader follows; deeper text is kept
// as a word, so no input can exhaust the stack.
const maxLooseDepth = 512

// loose is one value as the tolerant reader read it.
type loose struct {
	kind  looseKind
	text  string   // a string's contents, a number's literal, a word
	keys  []string // an object's member names, in order, duplicates kept
	elems []*loose // an object's member values (by keys) or an array's elements
	// closed is false when the text ended inside the value.
	closed  bool
	repairs []string
	// start and end are the value's byte offsets in the text.
	start, end int
}

func (n *loose) repair(r string) { n.repairs = append(n.repairs, r) }

// looseStream reads one value from text fed in chunks. It is a state
// machine with an explicit stack of the open containers, so that the text
// can arrive in any pieces (a streamed answer) and an abandoned stream is
// only garbage. Every byte is looked at a bounded number of times: a
// decision that needs bytes not yet written (is this quote the end of the
// string? is this "." an ellipsis? does this number go on? does a member
// follow this comma?) keeps the few bytes it needs (at most a member name
// of maxNameAhead bytes) until the next write or the end; runs that may be
// long (blanks after a quote or after a comma, a word, a comment) are
// states, not look-ahead. Ending the text after any chunking
// gives the tree readLoose gives for the whole text.
//
// Between writes, root returns what is known so far: open containers hold the
// members and elements read so far (a child is attached when it starts), a
// string being read holds its text so far, and every value still being
// read has closed == false and end == 0. A number or a word being read has
// an empty text, and a number may still turn out to be a word ("12" of
// "12abc"): until it ends it is not known. version says whether root
// changed since it was last looked at.
type looseStream struct {
	tree    *loose   // see root
	stack   []*loose // open containers, outermost first
	braces  int      // open objects in stack
	st      looseState
	comment byte // '/' or '*' inside a comment of that kind, else 0
	star    bool // a block comment's last byte was '*'
	// comments are those before the value, which go to its repairs.
	comments []string
	// key is the member name read before its value starts.
	key string

	// w is the text being read: what an earlier write left undecided,
	// then the chunk; w[0] is at offset off of the whole text. final says
	// that the text ends with w.
	w     string
	i     int
	off   int
	final bool

	// leaf is the string, number or word being read; isKey when it is a
	// member name (not in the tree). Its text is tok, then w[tokFrom:].
	leaf    *loose
	isKey   bool
	tok     strings.Builder
	tokFrom int
	num     numberPhase
	// In stStrQuote: quote is the offset of the quote that may end the
	// string; w[quoteAt:] holds it and the blanks after it, or, when
	// quoteAt < 0, qbuf then w[:i] do.
	q              byte // a string's quote
	triple         bool // a string's quotes are three
	quote, quoteAt int
	qbuf           []byte
	// In stWordBreak: the comma or line break that may end the word is at
	// offset brk, after brkLen bytes of its text.
	brk, brkLen int
	brkComma    bool

	changes int // see version
}

// looseState is what the reader is doing.
type looseState uint8

const (
	stTop        looseState = iota // before the value
	stHead                         // in a container: its end, a comma, an ellipsis or the next member
	stAfterKey                     // after a member name: the colon
	stAfterColon                   // the member's value
	stSep                          // after a member or element: a comma, the end, or a missing comma
	stAfterComma                   // a trailing comma?
	stStrOpen                      // at a string's quote: one or three?
	stStr                          // in a string
	stStrQuote                     // after a quote that may end the string, and blanks after it
	stNumber                       // in a number
	stWord                         // in unquoted text
	stWordBreak                    // after a comma or line break in an object's unquoted value, and blanks: does the value end there?
	stRest                         // in text nested too deep, which runs to the end
	stDone                         // the value has ended
)

// numberPhase is where a number is: after its sign, in its digits, after
// the e of its exponent, after the exponent's sign, in its digits.
type numberPhase uint8

const (
	numSign numberPhase = iota
	numDigits
	numExp
	numExpSign
	numExpDigits
)

// readLoose reads the value that starts at s[from:] (after blanks and
// comments) and returns it with the offset where it ends; nil when only
// blanks and comments follow.
func readLoose(s string, from int) (*loose, int) {
	r := &looseStream{off: from}
	r.write(s[from:])
	r.end()
	if r.tree == nil {
		return nil, r.off
	}
	return r.tree, r.tree.end
}

// write reads chunk, the next piece of the text. What follows the value,
// or the end, is ignored.
func (r *looseStream) write(chunk string) {
	if r.final || r.st == stDone || chunk == "" {
		return
	}
	w := chunk
	if r.w != "" {
		w = r.w + chunk
	}
	r.run(w, false)
}

// end says that the text has ended: every value still open is closed
// where it ends.
func (r *looseStream) end() {
	if r.final {
		return
	}
	r.run(r.w, true)
}

// root returns the value read so far, nil before it starts.
func (r *looseStream) root() *loose { return r.tree }

// version changes whenever root does: a value starts or ends, or the text
// of the string being read grows.
func (r *looseStream) version() int { return r.changes }

// run reads w until it is all read or a decision needs what follows, and
// keeps that rest in r.w.
func (r *looseStream) run(w string, final bool) {
	r.w, r.i, r.final = w, 0, final
	for r.st != stDone && r.step() {
	}
	if r.st == stDone {
		r.w = "" // what follows the value is not the reader's
	} else {
		r.keepToken()
		r.w = w[r.i:]
	}
	r.off += r.i
	r.i = 0
}

// keepToken copies what the next write will not see of the leaf being
// read, and shows a string's text so far.
func (r *looseStream) keepToken() {
	switch r.st {
	case stStr, stNumber, stWord, stWordBreak, stRest:
		r.tok.WriteString(r.w[r.tokFrom:r.i])
	case stStrQuote:
		if r.quoteAt >= 0 {
			r.tok.WriteString(r.w[r.tokFrom:r.quoteAt])
			r.qbuf = append(r.qbuf[:0], r.w[r.quoteAt:r.i]...)
			r.quoteAt = -1
		} else {
			r.qbuf = append(r.qbuf, r.w[:r.i]...)
		}
	}
	r.tokFrom = 0
	if r.leaf != nil && !r.isKey && r.leaf.kind == looseString && r.tok.Len() != len(r.leaf.text) {
		r.leaf.text = r.tok.String()
		r.changes++
	}
}

// pos is the offset of w[i] in the text.
func (r *looseStream) pos() int { return r.off + r.i }

// at reports whether lit is at w[i], or whether that is not known yet.
func (r *looseStream) at(lit string) (ok, wait bool) {
	rest := r.w[r.i:]
	if len(rest) >= len(lit) {
		return rest[:len(lit)] == lit, false
	}
	return false, !r.final && lit[:len(rest)] == rest
}

// atEllipsis returns the length of the "..." or "…" at w[i], 0 when there
// is none, or wait when that is not known yet.
func (r *looseStream) atEllipsis() (n int, wait bool) {
	for _, e := range [...]string{"...", "…"} {
		ok, wait := r.at(e)
		if ok {
			return len(e), false
		}
		if wait {
			return 0, true
		}
	}
	return 0, false
}

// step makes one move and reports whether it could; false means it needs
// more text (or the value has ended).
func (r *looseStream) step() bool {
	switch r.st {
	case stTop:
		switch r.skip(&r.comments) {
		case skipMore:
			return false
		case skipEnd:
			r.st = stDone
			return false
		}
		r.value()
	case stHead:
		return r.head()
	case stAfterKey:
		n := r.stack[len(r.stack)-1]
		switch r.skip(&n.repairs) {
		case skipMore:
			return false
		case skipAt:
			if r.w[r.i] == ':' {
				r.i++
				break
			}
			fallthrough
		case skipEnd:
			n.repair(repairMissingColon)
		}
		r.st = stAfterColon
	case stAfterColon:
		n := r.stack[len(r.stack)-1]
		switch r.skip(&n.repairs) {
		case skipMore:
			return false
		case skipEnd:
			// A member name the text ends after is dropped: the coercion
			// decides whether what is missing may be.
			r.st = stHead
		case skipAt:
			if c := r.w[r.i]; c == '}' || c == ',' {
				n.repair(repairMissingValue)
				r.st = stHead
				break
			}
			r.value()
		}
	case stSep:
		n := r.stack[len(r.stack)-1]
		switch r.skip(&n.repairs) {
		case skipMore:
			return false
		case skipAt:
			switch r.w[r.i] {
			case ',':
				r.i++
				r.st = stAfterComma
				return true
			case '}', ']':
			default:
				n.repair(repairMissingComma)
			}
		}
		r.st = stHead
	case stAfterComma:
		n := r.stack[len(r.stack)-1]
		switch r.skip(&n.repairs) {
		case skipMore:
			return false
		case skipAt:
			if c := r.w[r.i]; c == '}' || c == ']' {
				n.repair(repairTrailingComma)
			}
		}
		r.st = stHead
	case stStrOpen:
		return r.strOpen()
	case stStr:
		return r.str()
	case stStrQuote:
		return r.strQuote()
	case stNumber:
		return r.number()
	case stWord:
		return r.word()
	case stWordBreak:
		return r.wordBreak()
	case stRest:
		r.i = len(r.w)
		if !r.final {
			return false
		}
		r.leaf.text, r.leaf.end = r.tokenTo(r.i), r.pos()
		r.leafEnded()
	}
	return true
}

// What skip found.
const (
	skipAt   = iota // a byte that is not a blank and starts no comment
	skipMore        // the end of what was written
	skipEnd         // the end of the text
)

// skip consumes blanks and comments, recording each comment in repairs.
func (r *looseStream) skip(repairs *[]string) int {
	for {
		if r.comment != 0 && !r.inComment() {
			if r.final {
				return skipEnd
			}
			return skipMore
		}
		if r.i >= len(r.w) {
			if r.final {
				return skipEnd
			}
			return skipMore
		}
		switch r.w[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		case '/':
			if r.i+1 >= len(r.w) {
				if r.final {
					return skipAt
				}
				return skipMore
			}
			if c := r.w[r.i+1]; c != '/' && c != '*' {
				return skipAt
			}
			r.comment, r.star = r.w[r.i+1], false
			r.i += 2
			*repairs = append(*repairs, repairComment)
		default:
			return skipAt
		}
	}
}

// inComment consumes the comment being read, and reports whether it ended.
// A line comment ends before its newline; a block comment after its "*/".
func (r *looseStream) inComment() bool {
	rest := r.w[r.i:]
	if r.comment == '/' {
		end := strings.IndexByte(rest, '\n')
		if end < 0 {
			r.i = len(r.w)
			return false
		}
		r.i += end
		r.comment = 0
		return true
	}
	if r.star && rest != "" && rest[0] == '/' {
		r.i++
		r.comment = 0
		return true
	}
	end := strings.Index(rest, "*/")
	if end < 0 {
		r.i = len(r.w)
		if rest != "" {
			r.star = rest[len(rest)-1] == '*'
		}
		return false
	}
	r.i += end + 2
	r.comment = 0
	return true
}

// head is a container's loop: at its end, a comma, an ellipsis, or the
// next member (an object's name) or element.
func (r *looseStream) head() bool {
	n := r.stack[len(r.stack)-1]
	switch r.skip(&n.repairs) {
	case skipMore:
		return false
	case skipEnd:
		n.repair(repairUnclosed)
		r.pop(n)
		return true
	}
	own, other := byte('}'), byte(']')
	if n.kind == looseArray {
		own, other = other, own
	}
	switch c := r.w[r.i]; c {
	case own:
		r.i++
		n.closed = true
		r.pop(n)
		return true
	case other:
		// When a value around n opens with the bracket c closes, c is its,
		// and n's own was left out ({"a": [1, 2}); otherwise it is n's,
		// written wrong.
		around := r.braces
		if c == ']' {
			around = len(r.stack) - r.braces
		}
		wrong := around == 0
		if !wrong && c == '}' && around == 1 && r.stack[0].kind == looseObject {
			// The } would close the outermost object, yet a member
			// follows it: it is the list's bracket, written wrong
			// ({"tags": ["a"}, "b": 1}).
			var wait bool
			if wrong, wait = r.memberAfter(); wait {
				return false
			}
		}
		if !wrong {
			n.repair(repairMissingClose)
		} else {
			r.i++
			n.repair(repairWrongBracket)
		}
		n.closed = true
		r.pop(n)
		return true
	case ',':
		r.i++
		n.repair(repairExtraComma)
		return true
	}
	k, wait := r.atEllipsis()
	switch {
	case wait:
		return false
	case k > 0:
		r.i += k
		n.repair(repairEllipsis)
	case n.kind == looseArray:
		r.value()
	default:
		// A member name: quoted, or unquoted up to the colon.
		r.leaf, r.isKey = &loose{kind: looseWord, start: r.pos()}, true
		r.startLeaf()
	}
	return true
}

// pop ends n, the innermost container.
func (r *looseStream) pop(n *loose) {
	n.end = r.pos()
	r.stack = r.stack[:len(r.stack)-1]
	if n.kind == looseObject {
		r.braces--
	}
	r.changes++
	r.valueEnded()
}

// valueEnded moves on after a value.
func (r *looseStream) valueEnded() {
	if len(r.stack) == 0 {
		r.st = stDone
	} else {
		r.st = stSep
	}
}

// value starts the value at w[i], which is not a blank, and attaches it
// to the tree.
func (r *looseStream) value() {
	n := &loose{kind: looseWord, start: r.pos()}
	switch len(r.stack) {
	case 0:
		n.repairs = r.comments
		r.tree = n
	default:
		p := r.stack[len(r.stack)-1]
		if p.kind == looseObject {
			p.keys = append(p.keys, r.key)
		}
		p.elems = append(p.elems, n)
	}
	r.changes++
	switch c := r.w[r.i]; c {
	case '{', '[':
		if len(r.stack) >= maxLooseDepth {
			n.repair(repairTooDeep)
			r.leaf, r.tokFrom = n, r.i
			r.tok.Reset()
			r.st = stRest
			return
		}
		n.kind = looseArray
		if c == '{' {
			n.kind = looseObject
			r.braces++
		}
		r.stack = append(r.stack, n)
		r.i++
		r.st = stHead
	default:
		r.leaf = n
		r.startLeaf()
	}
}

// startLeaf starts reading r.leaf, a string, a number or a word, at w[i].
func (r *looseStream) startLeaf() {
	r.tok.Reset()
	r.tokFrom = r.i
	switch c := r.w[r.i]; {
	case c == '"' || c == '\'' || c == '`':
		r.leaf.kind = looseString
		r.st = stStrOpen
	case !r.isKey && (c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9'):
		r.leaf.kind = looseNumber
		r.num = numDigits
		if c == '-' || c == '+' {
			r.num = numSign
		}
		r.i++
		r.st = stNumber
	default:
		r.st = stWord
	}
}

// leafEnded moves on after the leaf.
func (r *looseStream) leafEnded() {
	n := r.leaf
	r.leaf, r.tokFrom = nil, r.i
	r.tok.Reset()
	if !r.isKey {
		r.changes++
		r.valueEnded()
		return
	}
	r.isKey = false
	r.key = n.text
	o := r.stack[len(r.stack)-1]
	if n.kind == looseString {
		o.repairs = append(o.repairs, n.repairs...)
	} else {
		o.repair(repairUnquotedKey)
	}
	r.st = stAfterKey
}

// tokenTo returns the leaf's text up to w[j].
func (r *looseStream) tokenTo(j int) string {
	if r.tok.Len() == 0 {
		return r.w[r.tokFrom:j]
	}
	r.tok.WriteString(r.w[r.tokFrom:j])
	return r.tok.String()
}

// word reads unquoted text. In a container it ends at a closing bracket,
// and a value also at an ellipsis after its first byte ({c: True ...}; the
// dots of "1...x" are read as a number's before it turns out to be a
// word, and stay in it). A list's item and a member name end at a comma or
// a line end, a member name also at a colon. An object's value ends at a
// comma or a line end only when the object goes on there (wordBreak):
// prose the model did not quote holds commas and line breaks. At the top
// level a word is the rest of the text.
func (r *looseStream) word() bool {
	n := r.leaf
	inContainer := len(r.stack) > 0
	inObject := inContainer && !r.isKey && r.stack[len(r.stack)-1].kind == looseObject
	for r.i < len(r.w) {
		c := r.w[r.i]
		if inObject && (c == ',' || c == '\n') {
			r.brk, r.brkLen, r.brkComma = r.pos(), r.tok.Len()+r.i-r.tokFrom, c == ','
			r.i++
			r.st = stWordBreak
			return true
		}
		if inContainer && (c == ',' || c == '}' || c == ']' || c == '\n') || r.isKey && c == ':' {
			return r.wordEnded()
		}
		if inContainer && !r.isKey && (c == '.' || c == "…"[0]) && r.pos() > n.start {
			k, wait := r.atEllipsis()
			if wait {
				return false
			}
			if k > 0 {
				return r.wordEnded()
			}
		}
		r.i++
	}
	if !r.final {
		return false
	}
	return r.wordEnded()
}

// wordBreak decides whether the object's value being read ends at the
// comma or line break before the blanks at w[i]: it does when what
// follows them is the next member (a name and its colon, see nameAhead),
// a closing bracket, a comma, a comment, an ellipsis or the end of the
// text, where the object goes on; otherwise the break and the blanks are
// text of the value ("**one, two**", a line that runs on).
func (r *looseStream) wordBreak() bool {
	for r.i < len(r.w) {
		switch r.w[r.i] {
		case ' ', '\t', '\r', '\n':
			r.i++
			continue
		}
		ends, wait := r.objectGoesOn()
		switch {
		case wait:
			return false
		case ends:
			return r.wordEndsAtBreak()
		}
		r.st = stWord
		return true
	}
	if !r.final {
		return false
	}
	return r.wordEndsAtBreak()
}

// objectGoesOn reports whether the object goes on at w[i], which is not a
// blank (see wordBreak), or whether that is not known yet.
func (r *looseStream) objectGoesOn() (yes, wait bool) {
	switch r.w[r.i] {
	case '}', ']', ',':
		return true, false
	case '/':
		if r.i+1 >= len(r.w) {
			return false, !r.final
		}
		c := r.w[r.i+1]
		return c == '/' || c == '*', false
	}
	if k, wait := r.atEllipsis(); wait || k > 0 {
		return k > 0, wait
	}
	return r.nameAhead(r.w[r.i:])
}

// nameAhead reports whether rest starts with a member name and its colon:
// quoted, then blanks, or unquoted up to the colon (without a comma, a
// closing bracket or a line end), at most maxNameAhead bytes before the
// colon; or whether that is not known yet. A quoted name the text ends in
// may be one; unquoted text the text ends in is taken for the value's.
func (r *looseStream) nameAhead(rest string) (yes, wait bool) {
	q := rest[0]
	if q != '"' && q != '\'' && q != '`' {
		q = 0
	}
	inQuotes, i := q != 0, 0
	if inQuotes {
		i++
	}
	for ; i < len(rest); i++ {
		c := rest[i]
		switch {
		case inQuotes:
			switch c {
			case q:
				inQuotes = false
			case '\\':
				i++
			case '\n':
				return false, false
			}
		case c == ':':
			return i > 0, false
		case q != 0:
			if c != ' ' && c != '\t' && c != '\r' {
				return false, false
			}
		case c == ',' || c == '}' || c == ']' || c == '\n':
			return false, false
		}
		if i >= maxNameAhead {
			return false, false
		}
	}
	if !r.final {
		return false, true
	}
	return inQuotes, false
}

// memberAfter reports whether what follows the closing bracket at w[i] is
// a comma and a member name with its colon, within maxNameAhead bytes, or
// whether that is not known yet.
func (r *looseStream) memberAfter() (yes, wait bool) {
	rest := r.w[r.i+1:]
	if len(rest) < maxNameAhead-1 && !r.final {
		return false, true
	}
	rest = rest[:min(len(rest), maxNameAhead-1)]
	rest = strings.TrimLeft(rest, " \t\r\n")
	after, ok := strings.CutPrefix(rest, ",")
	if !ok {
		return false, false
	}
	after = strings.TrimLeft(after, " \t\r\n")
	if after == "" {
		return false, false
	}
	yes, _ = r.nameAhead(after) // the window is all there is to see
	return yes, false
}

// wordEndsAtBreak ends the word being read at its break, which a comma
// goes on from after it, a line end from its start.
func (r *looseStream) wordEndsAtBreak() bool {
	n := r.leaf
	n.text, n.closed, n.end = strings.TrimSpace(r.tokenTo(r.i)[:r.brkLen]), true, r.brk
	n.repair(repairUnquotedValue)
	comma := r.brkComma
	r.leafEnded()
	if comma {
		r.st = stAfterComma
	}
	return true
}

// wordEnded ends the word at w[i]. A word ended by its first byte is that
// byte: a stray closing bracket or colon where a value belongs.
func (r *looseStream) wordEnded() bool {
	n := r.leaf
	if r.pos() == n.start {
		r.i++
	}
	n.text, n.closed, n.end = strings.TrimSpace(r.tokenTo(r.i)), true, r.pos()
	if !r.isKey {
		n.repair(repairUnquotedValue)
	}
	r.leafEnded()
	return true
}

// number reads a JSON number. Followed by anything but a delimiter it is
// a word ("12abc"); cut by the end of the text it may be cut short ("12"
// of "125"): it is not closed.
func (r *looseStream) number() bool {
	for ; r.i < len(r.w); r.i++ {
		c := r.w[r.i]
		digit := c >= '0' && c <= '9'
		switch r.num {
		case numSign:
			if digit || c == '.' {
				r.num = numDigits
				continue
			}
		case numDigits:
			switch {
			case digit || c == '.':
				continue
			case c == 'e' || c == 'E':
				r.num = numExp
				continue
			case c == ',':
				thousands, wait := r.thousandsAhead()
				if wait {
					return false
				}
				if thousands {
					return r.numberIsWord()
				}
			}
		case numExp:
			switch {
			case c == '-' || c == '+':
				r.num = numExpSign
				continue
			case digit:
				r.num = numExpDigits
				continue
			}
		case numExpSign:
			if digit {
				r.num = numExpDigits
				continue
			}
		case numExpDigits:
			if digit {
				continue
			}
		}
		if (r.num == numDigits || r.num == numExpDigits) && strings.IndexByte(" \t\r\n,}]:/", c) >= 0 {
			return r.numberEnded(true)
		}
		return r.numberIsWord()
	}
	if !r.final {
		return false
	}
	if r.num == numDigits || r.num == numExpDigits {
		return r.numberEnded(false)
	}
	return r.numberIsWord()
}

// thousandsAhead reports whether the comma at w[i] separates the
// thousands of an object's value (-2,000.00), or whether that is not known
// yet: the number so far is one to three digits after a sign, and three
// digits follow the comma, then neither a digit nor a colon (1,000: is a
// member's name). The number is then a word, which the coercion reads.
func (r *looseStream) thousandsAhead() (yes, wait bool) {
	n := r.leaf
	if len(r.stack) == 0 || r.stack[len(r.stack)-1].kind != looseObject || r.pos()-n.start > 4 {
		return false, false
	}
	lead := strings.TrimLeft(r.tok.String()+r.w[r.tokFrom:r.i], "+-")
	if len(lead) == 0 || len(lead) > 3 || strings.Trim(lead, "0123456789") != "" {
		return false, false
	}
	group := r.w[r.i+1:]
	for k := 0; k < 4; k++ {
		if k == len(group) {
			return k == 3 && r.final, !r.final
		}
		c := group[k]
		if digit := c >= '0' && c <= '9'; digit != (k < 3) || c == ':' {
			return false, false
		}
	}
	return true, false
}

func (r *looseStream) numberEnded(closed bool) bool {
	n := r.leaf
	n.text, n.closed, n.end = r.tokenTo(r.i), closed, r.pos()
	r.leafEnded()
	return true
}

// numberIsWord reads on the number at w[i] as a word.
func (r *looseStream) numberIsWord() bool {
	r.leaf.kind = looseWord
	r.changes++
	r.st = stWord
	return true
}

// strOpen reads a string's opening quote: one, or three of them.
func (r *looseStream) strOpen() bool {
	n := r.leaf
	r.q, r.triple = r.w[r.i], false
	switch r.q {
	case '"', '\'':
		ok, wait := r.at(tripleQuote(r.q))
		if wait {
			return false
		}
		if ok {
			r.triple = true
			n.repair(repairTripleQuotes)
			r.i += 2
		} else if r.q == '\'' {
			n.repair(repairSingleQuotes)
		}
	case '`':
		n.repair(repairBacktick)
	}
	r.i++
	r.tokFrom = r.i
	r.st = stStr
	return true
}

// tripleQuote is the delimiter of a string opened with three quotes q.
func tripleQuote(q byte) string {
	if q == '\'' {
		return "'''"
	}
	return `"""`
}

// str reads a string's text. A quote that does not end the structure
// there (followed by a delimiter, a colon or the end of the text) is taken
// as part of the string; strQuote decides.
func (r *looseStream) str() bool {
	n := r.leaf
	for r.i < len(r.w) {
		c := r.w[r.i]
		switch {
		case c == r.q && r.triple:
			ok, wait := r.at(tripleQuote(r.q))
			if wait {
				return false
			}
			if ok {
				n.text, n.closed = r.tokenTo(r.i), true
				r.i += 3
				n.end = r.pos()
				r.leafEnded()
				return true
			}
		case r.triple:
		case c == r.q:
			r.quote, r.quoteAt = r.pos(), r.i
			r.i++
			r.st = stStrQuote
			return true
		case c == '\\':
			r.tok.WriteString(r.w[r.tokFrom:r.i])
			ok := r.escape(n)
			r.tokFrom = r.i
			if !ok {
				return false
			}
			continue
		case c == '\n':
			n.repair(repairRawNewline)
		}
		r.i++
	}
	if !r.final {
		return false
	}
	n.text, n.end = r.tokenTo(r.i), r.pos()
	n.repair(repairUnclosed)
	r.leafEnded()
	return true
}

// strQuote decides whether the quote before the blanks at w[i] ends its
// string: what follows the blanks is a delimiter, a colon, another string
// (a comma left out), a comment or the end of the text.
func (r *looseStream) strQuote() bool {
	n := r.leaf
	for r.i < len(r.w) {
		switch r.w[r.i] {
		case ' ', '\t', '\r':
			r.i++
			continue
		case ',', '}', ']', ':', '\n', '"', '\'':
			return r.strQuoteEnds()
		case '/':
			if r.i+1 >= len(r.w) {
				if !r.final {
					return false
				}
			} else if c := r.w[r.i+1]; c == '/' || c == '*' {
				return r.strQuoteEnds()
			}
		}
		// An unescaped quote inside the string: it and the blanks after it
		// are text.
		n.repair(repairInnerQuote)
		if r.quoteAt < 0 {
			r.tok.Write(r.qbuf)
			r.tok.WriteString(r.w[:r.i])
			r.tokFrom = r.i
		}
		r.st = stStr
		return true
	}
	if !r.final {
		return false
	}
	return r.strQuoteEnds()
}

func (r *looseStream) strQuoteEnds() bool {
	n := r.leaf
	if r.quoteAt >= 0 {
		n.text = r.tokenTo(r.quoteAt)
	} else {
		n.text = r.tok.String()
	}
	n.closed, n.end = true, r.quote+1
	r.leafEnded()
	return true
}

// escape reads the backslash escape at w[i] into tok, and reports false
// when what follows is not written yet.
func (r *looseStream) escape(n *loose) bool {
	rest := r.w[r.i:]
	if len(rest) < 2 {
		if !r.final {
			return false
		}
		r.i++ // a backslash the text ends with
		return true
	}
	c := rest[1]
	if simple := strings.IndexByte(`"\/bfnrt'`, c); simple >= 0 {
		r.tok.WriteByte("\"\\/\b\f\n\r\t'"[simple])
		r.i += 2
		return true
	}
	if c == 'u' {
		if len(rest) < 6 && !r.final && partOfUEscape(rest) {
			return false
		}
		if len(rest) >= 6 {
			if v, ok := hex4(rest[2:6]); ok {
				if v >= 0xD800 && v < 0xDC00 {
					// The high half of a surrogate pair: is the low half next?
					if len(rest) < 12 && !r.final && partOfUEscape(rest[6:]) {
						return false
					}
					if len(rest) >= 12 && rest[6:8] == `\u` {
						if lo, ok := hex4(rest[8:12]); ok && lo >= 0xDC00 && lo < 0xE000 {
							r.tok.WriteRune(rune((v-0xD800)<<10|(lo-0xDC00)) + 0x10000)
							r.i += 12
							return true
						}
					}
				}
				if v >= 0xD800 && v < 0xE000 {
					v = utf8.RuneError
				}
				r.tok.WriteRune(rune(v))
				r.i += 6
				return true
			}
		}
	}
	n.repair(repairBadEscape)
	r.tok.WriteByte('\\')
	r.i++
	return true
}

// partOfUEscape reports whether s is the start of a \uXXXX escape.
func partOfUEscape(s string) bool {
	for i := 0; i < len(s) && i < 6; i++ {
		switch c := s[i]; i {
		case 0:
			if c != '\\' {
				return false
			}
		case 1:
			if c != 'u' {
				return false
			}
		default:
			if _, ok := hexValue(c); !ok {
				return false
			}
		}
	}
	return true
}

// hex4 parses four hex digits.
func hex4(s string) (int, bool) {
	v := 0
	for i := 0; i < 4; i++ {
		d, ok := hexValue(s[i])
		if !ok {
			return 0, false
		}
		v = v<<4 | d
	}
	return v, true
}

// hexValue returns the value of the hex digit c.
func hexValue(c byte) (int, bool) {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0'), true
	case c >= 'a' && c <= 'f':
		return int(c - 'a' + 10), true
	case c >= 'A' && c <= 'F':
		return int(c - 'A' + 10), true
	}
	return 0, false
}
