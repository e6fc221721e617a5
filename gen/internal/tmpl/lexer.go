package tmpl

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

type tokenKind int

const (
	tokEOF tokenKind = iota
	tokText
	tokVarBegin   // {{
	tokVarEnd     // }}
	tokBlockBegin // {%
	tokBlockEnd   // %}
	tokName
	tokString
	tokInt
	tokFloat
	tokOp
)

type token struct {
	kind tokenKind
	span Span
	text string // output text, name, operator, or the delimiter without its sign
	val  any    // value of a string, int or float literal
}

// tagKind is the kind of tag a "{" delimiter opens.
type tagKind int

const (
	tagVar tagKind = iota
	tagBlock
	tagComment
	tagRaw
)

// lexer turns template source into tokens on demand, so that, as in Jinja2,
// a lexical error after a syntax error is never reported.
type lexer struct {
	src   string // source without the trailing newline Jinja2 drops
	opts  Options
	pos   int
	queue []token
	// closing is the delimiter that ends the tag being lexed, "}}" or "%}";
	// it is empty while lexing template data.
	closing string
	// brackets holds the closing brackets the open brackets in the current
	// tag need; the tag cannot end before they are closed.
	brackets []string
}

func newLexer(src string, opts Options) *lexer {
	if !opts.KeepTrailingNewline {
		src = trimTrailingNewline(src)
	}
	return &lexer{src: src, opts: opts}
}

// trimTrailingNewline removes one final "\n", "\r\n" or "\r".
func trimTrailingNewline(s string) string {
	if strings.HasSuffix(s, "\r\n") {
		return s[:len(s)-2]
	}
	if strings.HasSuffix(s, "\n") || strings.HasSuffix(s, "\r") {
		return s[:len(s)-1]
	}
	return s
}

func (lx *lexer) next() (token, *Error) {
	if len(lx.queue) == 0 {
		var err *Error
		if lx.closing == "" {
			err = lx.lexText()
		} else {
			err = lx.lexTagToken()
		}
		if err != nil {
			return token{}, err
		}
	}
	t := lx.queue[0]
	lx.queue = lx.queue[1:]
	return t, nil
}

func (lx *lexer) emit(t token) { lx.queue = append(lx.queue, t) }

func errorf(span Span, format string, args ...any) *Error {
	return &Error{Span: span, Msg: fmt.Sprintf(format, args...)}
}

// textRun accumulates output text that spans comments and raw blocks.
type textRun struct {
	span Span
	b    strings.Builder
}

func (r *textRun) add(start int, s string) {
	if s == "" {
		return
	}
	if r.b.Len() == 0 {
		r.span.Start = start
	}
	r.span.End = start + len(s)
	r.b.WriteString(normalizeNewlines(s))
}

func normalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// lexText lexes template data up to and including the next "{{" or "{%",
// consuming comments and raw blocks on the way.
func (lx *lexer) lexText() *Error {
	var run textRun
	for {
		start := lx.pos
		open := nextTagStart(lx.src, start)
		if open < 0 {
			run.add(start, lx.src[start:])
			lx.pos = len(lx.src)
			lx.emitText(&run)
			lx.emit(token{kind: tokEOF, span: Span{lx.pos, lx.pos}})
			return nil
		}
		o := lx.scanOpening(open)
		run.add(start, lx.controlWhitespace(lx.src[start:open], start, o.sign, o.kind != tagVar))
		lx.pos = o.resume
		switch o.kind {
		case tagComment:
			if err := lx.skipComment(o.span); err != nil {
				return err
			}
		case tagRaw:
			if err := lx.lexRaw(o.span, &run); err != nil {
				return err
			}
		case tagVar:
			lx.emitText(&run)
			lx.emit(token{kind: tokVarBegin, span: o.span, text: "{{"})
			lx.closing = "}}"
			return nil
		case tagBlock:
			lx.emitText(&run)
			lx.emit(token{kind: tokBlockBegin, span: o.span, text: "{%"})
			lx.closing = "%}"
			return nil
		}
	}
}

func (lx *lexer) emitText(run *textRun) {
	if run.b.Len() > 0 {
		lx.emit(token{kind: tokText, span: run.span, text: run.b.String()})
	}
}

// nextTagStart returns the offset of the first "{{", "{%" or "{#" at or
// after pos, or -1.
func nextTagStart(s string, pos int) int {
	for {
		i := strings.IndexByte(s[pos:], '{')
		if i < 0 {
			return -1
		}
		pos += i
		if pos+1 < len(s) && strings.IndexByte("{%#", s[pos+1]) >= 0 {
			return pos
		}
		pos++
	}
}

// opening is an opening delimiter with its whitespace-control sign, or a
// whole `{% raw %}` tag.
type opening struct {
	kind   tagKind
	sign   byte // '-', '+' or 0
	span   Span
	resume int // where lexing continues
}

func (lx *lexer) scanOpening(start int) opening {
	o := opening{kind: tagBlock}
	switch lx.src[start+1] {
	case '{':
		o.kind = tagVar
	case '#':
		o.kind = tagComment
	}
	end := start + 2
	if end < len(lx.src) && (lx.src[end] == '-' || lx.src[end] == '+') {
		o.sign = lx.src[end]
		end++
	}
	o.span, o.resume = Span{start, end}, end
	if o.kind == tagBlock {
		if end, resume, ok := lx.matchRawBegin(end); ok {
			o.kind, o.span.End, o.resume = tagRaw, end, resume
		}
	}
	return o
}

// matchRawBegin matches the rest of `{% raw %}` at p. Unlike other block
// tags Jinja2 does not apply trim_blocks to it.
func (lx *lexer) matchRawBegin(p int) (end, resume int, ok bool) {
	p = skipSpace(lx.src, p)
	if !strings.HasPrefix(lx.src[p:], "raw") {
		return 0, 0, false
	}
	p = skipSpace(lx.src, p+len("raw"))
	switch {
	case strings.HasPrefix(lx.src[p:], "-%}"):
		return p + 3, skipSpace(lx.src, p+3), true
	case strings.HasPrefix(lx.src[p:], "%}"):
		return p + 2, p + 2, true
	}
	return 0, 0, false
}

// controlWhitespace applies the whitespace control of the tag following text:
// "-" strips all trailing whitespace; otherwise lstrip_blocks strips the
// spaces between the last line start and a block or comment tag, unless the
// tag opens with "+".
func (lx *lexer) controlWhitespace(text string, start int, sign byte, lstrippable bool) string {
	switch {
	case sign == '-':
		return strings.TrimRightFunc(text, isSpace)
	case sign != '+' && lstrippable && lx.opts.LstripBlocks:
		lineStart := strings.LastIndexAny(text, "\r\n") + 1
		if lineStart == 0 && !lx.atLineStart(start) {
			return text
		}
		if rest := text[lineStart:]; rest != "" && strings.TrimLeftFunc(rest, isSpace) == "" {
			return text[:lineStart]
		}
	}
	return text
}

// atLineStart reports whether pos is at the start of a line: the previous
// lexer match ended with a newline, or pos is the start of the template.
func (lx *lexer) atLineStart(pos int) bool {
	return pos == 0 || lx.src[pos-1] == '\n' || lx.src[pos-1] == '\r'
}

// skipComment skips the comment whose opening delimiter is open. A comment
// opened at the very end of the template is accepted, as in Jinja2.
func (lx *lexer) skipComment(open Span) *Error {
	body := lx.pos
	i := strings.Index(lx.src[body:], "#}")
	if i < 0 {
		if body < len(lx.src) {
			return errorf(open, `unclosed comment (expected "#}")`)
		}
		lx.pos = body
		return nil
	}
	closing := body + i
	if closing > body && (lx.src[closing-1] == '-' || lx.src[closing-1] == '+') {
		closing--
	}
	_, lx.pos, _ = lx.matchClosing(closing, "#}", true)
	return nil
}

// lexRaw adds the content of the raw block opened by open to run. As in
// Jinja2 a raw block opened at the very end of the template is accepted.
func (lx *lexer) lexRaw(open Span, run *textRun) *Error {
	body := lx.pos
	for p := body; ; p += 2 {
		i := strings.Index(lx.src[p:], "{%")
		if i < 0 {
			break
		}
		p += i
		if sign, resume, ok := lx.matchEndRaw(p); ok {
			run.add(body, lx.controlWhitespace(lx.src[body:p], body, sign, true))
			lx.pos = resume
			return nil
		}
	}
	if body < len(lx.src) {
		return errorf(open, `unclosed "raw" block (expected "endraw")`)
	}
	lx.pos = body
	return nil
}

// matchEndRaw matches `{% endraw %}` at p, returning the sign of its opening
// delimiter and where lexing resumes.
func (lx *lexer) matchEndRaw(p int) (sign byte, resume int, ok bool) {
	p += 2
	if p < len(lx.src) && (lx.src[p] == '-' || lx.src[p] == '+') {
		sign = lx.src[p]
		p++
	}
	p = skipSpace(lx.src, p)
	if !strings.HasPrefix(lx.src[p:], "endraw") {
		return 0, 0, false
	}
	_, resume, ok = lx.matchClosing(skipSpace(lx.src, p+len("endraw")), "%}", true)
	return sign, resume, ok
}

// matchClosing matches the closing delimiter delim at p, optionally preceded
// by "-" (strip following whitespace) or, for block-like tags, "+" (no
// trim_blocks). It returns the end of the delimiter and where lexing resumes.
func (lx *lexer) matchClosing(p int, delim string, blockLike bool) (end, resume int, ok bool) {
	s := lx.src[p:]
	switch {
	case blockLike && strings.HasPrefix(s, "+"+delim):
		end = p + 1 + len(delim)
		return end, end, true
	case strings.HasPrefix(s, "-"+delim):
		end = p + 1 + len(delim)
		return end, skipSpace(lx.src, end), true
	case strings.HasPrefix(s, delim):
		end = p + len(delim)
		if blockLike && lx.opts.TrimBlocks {
			return end, skipNewline(lx.src, end), true
		}
		return end, end, true
	}
	return 0, 0, false
}

// lexTagToken lexes the next token inside a {{ }} or {% %} tag.
func (lx *lexer) lexTagToken() *Error {
	for {
		if len(lx.brackets) == 0 && lx.lexTagEnd() {
			return nil
		}
		if lx.pos >= len(lx.src) {
			lx.emit(token{kind: tokEOF, span: Span{lx.pos, lx.pos}})
			return nil
		}
		r, size := utf8.DecodeRuneInString(lx.src[lx.pos:])
		if !isSpace(r) {
			break
		}
		lx.pos += size
	}
	start := lx.pos
	t, err := lx.scanToken()
	if err != nil {
		return err
	}
	t.span = Span{start, lx.pos}
	lx.emit(t)
	return nil
}

// lexTagEnd emits the closing delimiter of the current tag if it is at pos.
func (lx *lexer) lexTagEnd() bool {
	block := lx.closing == "%}"
	end, resume, ok := lx.matchClosing(lx.pos, lx.closing, block)
	if !ok {
		return false
	}
	kind := tokVarEnd
	if block {
		kind = tokBlockEnd
	}
	lx.emit(token{kind: kind, span: Span{lx.pos, end}, text: lx.closing})
	lx.pos = resume
	lx.closing = ""
	return true
}

// scanToken scans a literal, name or operator at pos and advances past it.
// Its rules are tried in Jinja2's order: float, integer, name, string,
// operator.
func (lx *lexer) scanToken() (token, *Error) {
	s, start := lx.src, lx.pos
	c := s[start]
	if isDigit(c) {
		return lx.scanNumber()
	}
	if r, _ := utf8.DecodeRuneInString(s[start:]); isWordRune(r) {
		return lx.scanName()
	}
	if c == '\'' || c == '"' {
		return lx.scanString()
	}
	for _, op := range operators {
		if strings.HasPrefix(s[start:], op) {
			lx.pos += len(op)
			return token{kind: tokOp, text: op}, lx.balance(op, Span{start, lx.pos})
		}
	}
	_, size := utf8.DecodeRuneInString(s[start:])
	return token{}, errorf(Span{start, start + size}, "unexpected character %q", s[start:start+size])
}

// operators are Jinja2's operators, longest first.
var operators = []string{
	"//", "**", "==", "!=", ">=", "<=",
	"+", "-", "/", "*", "%", "~", "[", "]", "(", ")", "{", "}",
	">", "<", "=", ".", ":", "|", ",", ";",
}

var closerOf = map[string]string{"(": ")", "[": "]", "{": "}"}

// balance tracks brackets so that "}}" or "%}" inside brackets (as in
// `{{ {"a": {"b": 1}} }}`) are read as operators, like Jinja2 does.
func (lx *lexer) balance(op string, span Span) *Error {
	if closer, ok := closerOf[op]; ok {
		lx.brackets = append(lx.brackets, closer)
		return nil
	}
	if op != ")" && op != "]" && op != "}" {
		return nil
	}
	if len(lx.brackets) == 0 {
		return errorf(span, "unexpected %q", op)
	}
	want := lx.brackets[len(lx.brackets)-1]
	lx.brackets = lx.brackets[:len(lx.brackets)-1]
	if op != want {
		return errorf(span, "unexpected %q, expected %q", op, want)
	}
	return nil
}

// isSpace reports whether r is whitespace to Python (str.isspace, regexp \s).
func isSpace(r rune) bool {
	return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
}

func skipSpace(s string, p int) int {
	for p < len(s) {
		r, size := utf8.DecodeRuneInString(s[p:])
		if !isSpace(r) {
			break
		}
		p += size
	}
	return p
}

// skipNewline skips one newline sequence at p, if any.
func skipNewline(s string, p int) int {
	if strings.HasPrefix(s[p:], "\r\n") {
		return p + 2
	}
	if p < len(s) && (s[p] == '\n' || s[p] == '\r') {
		return p + 1
	}
	return p
}
