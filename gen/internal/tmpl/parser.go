package tmpl

import (
	"maps"
	"slices"
	"strconv"

	"github.com/promptgen/promptgen/runtime/suggest"
)

// maxDepth bounds the depth of the syntax tree: nested blocks, nested
// expressions, and the links of chains that nest to the left (a.b.c,
// a + b + c, a|f|g), so that every later stage recurses a bounded depth.
// Jinja2 itself fails earlier: Python compiles at most 20 nested loops, 99
// nested ifs and 199 nested parentheses (a chain of 197 links).
const maxDepth = 200

// Parse parses template source src. On a syntax error it returns the first
// error Jinja2 would find, as an *Error.
func Parse(src string, opts Options) (t *Template, err error) {
	p := &parser{src: src, lx: newLexer(src, opts)}
	// Syntax errors unwind the recursive descent by panicking with an *Error.
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			t, err = nil, e
		}
	}()
	p.tok = p.lex()
	return &Template{Body: p.parseBody()}, nil
}

type parser struct {
	src     string
	lx      *lexer
	tok     token // current token
	peeked  *token
	prevEnd int // end of the last consumed token
	depth   int
	// tagBegin is the opening delimiter of the tag being parsed, if inTag.
	tagBegin token
	inTag    bool
	blocks   []openBlock
}

// openBlock is a block statement whose body is being parsed.
type openBlock struct {
	name, end string
	tag       Span // the opening tag
}

func (p *parser) fail(span Span, format string, args ...any) {
	panic(errorf(span, format, args...))
}

func (p *parser) lex() token {
	t, err := p.lx.next()
	if err != nil {
		panic(err)
	}
	return t
}

// next consumes the current token and returns it.
func (p *parser) next() token {
	t := p.tok
	p.prevEnd = t.span.End
	switch t.kind {
	case tokVarBegin, tokBlockBegin:
		p.tagBegin, p.inTag = t, true
	case tokVarEnd, tokBlockEnd:
		p.inTag = false
	}
	if p.peeked != nil {
		p.tok, p.peeked = *p.peeked, nil
	} else {
		p.tok = p.lex()
	}
	return t
}

// peek returns the token after the current one.
func (p *parser) peek() token {
	if p.peeked == nil {
		t := p.lex()
		p.peeked = &t
	}
	return *p.peeked
}

func (t token) isName(name string) bool { return t.kind == tokName && t.text == name }
func (t token) isOp(op string) bool     { return t.kind == tokOp && t.text == op }

func (p *parser) skipName(name string) bool {
	if p.tok.isName(name) {
		p.next()
		return true
	}
	return false
}

func (p *parser) skipOp(op string) bool {
	if p.tok.isOp(op) {
		p.next()
		return true
	}
	return false
}

func (p *parser) expect(kind tokenKind, what string) token {
	if p.tok.kind != kind {
		p.unexpected(p.tok, what)
	}
	return p.next()
}

func (p *parser) expectOp(op string) token {
	if !p.tok.isOp(op) {
		p.unexpected(p.tok, strconv.Quote(op))
	}
	return p.next()
}

// unexpected fails at t, which is not the expected thing.
func (p *parser) unexpected(t token, expected string) {
	if t.kind != tokEOF {
		p.fail(t.span, "unexpected %s, expected %s", p.describe(t), expected)
	}
	if p.inTag {
		p.fail(p.tagBegin.span, "unclosed %q tag (expected %s)", p.tagBegin.text, expected)
	}
	p.fail(t.span, "unexpected end of template, expected %s", expected)
}

func (p *parser) describe(t token) string {
	switch t.kind {
	case tokEOF:
		return "end of template"
	case tokString:
		return "string literal"
	}
	return strconv.Quote(p.src[t.span.Start:t.span.End])
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail(p.tok.span, "nesting too deep (more than %d levels)", maxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

// restore ends a chain whose links each called enter: defer p.restore(p.depth).
func (p *parser) restore(depth int) { p.depth = depth }

// parseBody parses template data and tags until the end of the template or,
// when closers are given, until a block tag named one of them, which is left
// as the current token.
func (p *parser) parseBody(closers ...string) []Node {
	p.enter()
	defer p.leave()
	body := []Node{}
	for p.tok.kind != tokEOF {
		switch p.tok.kind {
		case tokText:
			t := p.next()
			body = append(body, &Text{Span: t.span, Value: t.text})
		case tokVarBegin:
			body = append(body, p.parseOutput())
		case tokBlockBegin:
			begin := p.next()
			if p.tok.kind == tokName && slices.Contains(closers, p.tok.text) {
				return body
			}
			body = append(body, p.parseStatement(begin))
		default: // unreachable: between tags the lexer emits nothing else
			p.unexpected(p.tok, "text or tag")
		}
	}
	if len(closers) > 0 {
		b := p.blocks[len(p.blocks)-1]
		p.fail(b.tag, "unclosed %q block (expected %q)", b.name, b.end)
	}
	return body
}

func (p *parser) parseOutput() *Output {
	begin := p.next()
	x := p.parseTuple(tupleOpts{})
	end := p.expect(tokVarEnd, `"}}"`)
	return &Output{Span: Span{begin.span.Start, end.span.End}, X: x}
}

// unsupportedTags are Jinja2 tags (built in or from its bundled extensions)
// that this subset rejects.
var unsupportedTags = map[string]bool{
	"block": true, "endblock": true, "extends": true,
	"with": true, "endwith": true, "autoescape": true, "endautoescape": true,
	"import": true, "from": true, "print": true, "do": true,
	"trans": true, "pluralize": true, "endtrans": true,
}

// innerTags continue or close a block statement.
var innerTags = map[string]bool{
	"elif": true, "else": true, "endif": true, "endfor": true, "endset": true, "endgeneration": true,
	"endfilter": true, "endmacro": true, "endcall": true,
}

// parseStatement parses a block tag whose opening delimiter begin has been
// consumed.
func (p *parser) parseStatement(begin token) Node {
	name := p.tok
	if name.kind != tokName {
		p.unexpected(name, "tag name")
	}
	switch name.text {
	case "if":
		return p.parseIf(begin)
	case "for":
		return p.parseFor(begin)
	case "set":
		return p.parseSet(begin)
	case "include":
		return p.parseInclude(begin)
	case "filter":
		return p.parseFilterBlock(begin)
	case "macro":
		return p.parseMacro(begin)
	case "call":
		return p.parseCallBlock(begin)
	case "break", "continue":
		if p.lx.opts.Transformers {
			p.next()
			return &LoopControl{Break: name.text == "break", Span: p.endTag(begin)}
		}
		p.fail(name.span, "unsupported tag %q (loop controls need jinja: {profile: transformers})", name.text)
	case "generation":
		if p.lx.opts.Transformers {
			return p.parseGeneration(begin)
		}
		p.fail(name.span, "unsupported tag %q (it needs jinja: {profile: transformers})", name.text)
	}
	switch {
	case unsupportedTags[name.text]:
		p.fail(name.span, "unsupported tag %q", name.text)
	case innerTags[name.text] && len(p.blocks) > 0:
		b := p.blocks[len(p.blocks)-1]
		p.fail(name.span, "unexpected %q inside %q block (expected %q)", name.text, b.name, b.end)
	case innerTags[name.text]:
		p.fail(name.span, "unexpected %q with no open block", name.text)
	case name.text == "raw":
		// The lexer takes only {% raw %} and {% raw -%} for a raw block,
		// as Jinja2's does; Jinja2 reads any other tag named raw as an
		// unknown one.
		p.fail(name.span, `unknown tag "raw": a raw block opens with {%% raw %%} or {%% raw -%%}, nothing else in the tag (Jinja2 reads this one as an unknown tag too)`)
	case name.text == "endraw":
		p.fail(name.span, `unknown tag "endraw": it closes a raw block, and none is open here (Jinja2 reads it as an unknown tag too)`)
	}
	p.fail(name.span, "unknown tag %q%s", name.text, suggest.DidYouMean(name.text, knownTags))
	return nil
}

// knownTags are the tags of the subset, for the did-you-mean of an unknown
// one ({% endfro %}).
var knownTags = append([]string{"if", "for", "set", "include", "filter", "macro", "call", "raw", "endraw"},
	slices.Sorted(maps.Keys(innerTags))...)

// endHead ends the tag that opens or continues a block: an optional colon,
// as Jinja2 allows, then "%}".
func (p *parser) endHead() {
	p.skipOp(":")
	p.expect(tokBlockEnd, `"%}"`)
}

// endTag ends a tag and returns the span from begin to its "%}".
func (p *parser) endTag(begin token) Span {
	p.expect(tokBlockEnd, `"%}"`)
	return Span{begin.span.Start, p.prevEnd}
}

// pushBlock records the block whose opening tag began at begin and just
// ended; the returned func pops it.
func (p *parser) pushBlock(name, end string, begin token) func() {
	p.blocks = append(p.blocks, openBlock{name, end, Span{begin.span.Start, p.prevEnd}})
	return func() { p.blocks = p.blocks[:len(p.blocks)-1] }
}

func (p *parser) parseIf(begin token) *If {
	p.next()
	cond := p.parseTuple(tupleOpts{noCondExpr: true})
	p.endHead()
	defer p.pushBlock("if", "endif", begin)()
	node := &If{}
	for {
		body := p.parseBody("elif", "else", "endif")
		node.Branches = append(node.Branches, IfBranch{Cond: cond, Body: body})
		closer := p.next().text
		if closer == "else" {
			p.endHead()
			node.Else = p.parseBody("endif")
			p.next()
		}
		if closer != "elif" {
			break
		}
		cond = p.parseTuple(tupleOpts{noCondExpr: true})
		p.endHead()
	}
	node.Span = p.endTag(begin)
	return node
}

func (p *parser) parseFor(begin token) *For {
	p.next()
	node := &For{Targets: p.parseTargets("in")}
	if !p.tok.isName("in") {
		p.unexpected(p.tok, `"in"`)
	}
	p.next()
	node.Iter = p.parseTuple(tupleOpts{noCondExpr: true, extraEnd: "recursive"})
	if p.skipName("if") {
		node.Filter = p.parseExpression(true)
	}
	if p.tok.isName("recursive") {
		p.fail(p.tok.span, "unsupported recursive loop")
	}
	p.endHead()
	defer p.pushBlock("for", "endfor", begin)()
	node.Body = p.parseBody("endfor", "else")
	if p.next().text == "else" {
		p.endHead()
		node.Else = p.parseBody("endfor")
		p.next()
	}
	node.Span = p.endTag(begin)
	return node
}

func (p *parser) parseSet(begin token) *Set {
	p.next()
	node := &Set{}
	if p.tok.kind == tokName && p.peek().isOp(".") {
		ns := p.next()
		p.next()
		attr := p.expect(tokName, "name")
		node.NS, node.Attr, node.AttrSpan = &Name{Span: ns.span, Name: ns.text}, attr.text, attr.span
	} else {
		node.Targets = p.parseTargets("")
	}
	if p.skipOp("=") {
		node.Value = p.parseTuple(tupleOpts{})
		node.Span = p.endTag(begin)
		return node
	}
	if p.tok.isOp("|") {
		p.fail(p.tok.span, "unsupported filter on a block set")
	}
	if len(node.Targets) > 1 {
		p.fail(Span{node.Targets[0].Span.Start, p.prevEnd}, "unsupported block set with several targets")
	}
	p.endHead()
	defer p.pushBlock("set", "endset", begin)()
	node.Body = p.parseBody("endset")
	p.next()
	node.Span = p.endTag(begin)
	return node
}

func (p *parser) parseGeneration(begin token) *Generation {
	p.next()
	p.endHead()
	defer p.pushBlock("generation", "endgeneration", begin)()
	node := &Generation{Body: p.parseBody("endgeneration")}
	p.next()
	node.Span = p.endTag(begin)
	return node
}

// parseFilterBlock parses {% filter %}: a filter name, as after a "|",
// then any further "|" filters, as Jinja2's parse_filter(start_inline).
func (p *parser) parseFilterBlock(begin token) *FilterBlock {
	start := p.peek().span.Start
	f := p.parseFilter(nil, start) // its p.next() skips the tag name
	for p.tok.isOp("|") {
		f = p.parseFilter(f, start)
	}
	p.endHead()
	defer p.pushBlock("filter", "endfilter", begin)()
	node := &FilterBlock{Filter: f, Body: p.parseBody("endfilter")}
	p.next()
	node.Span = p.endTag(begin)
	return node
}

// parseMacro parses {% macro name(a, b=default) %}: parameters as Jinja2's
// parse_signature takes them, at the template's top level or in its ifs
// and for loops only.
func (p *parser) parseMacro(begin token) *Macro {
	tag := p.next()
	for _, b := range p.blocks {
		if b.name != "if" && b.name != "for" {
			p.fail(tag.span, "a macro must be defined at the template's top level (or in an if or a for loop there), not inside %q", b.name)
		}
	}
	name := p.expect(tokName, "macro name")
	node := &Macro{Name: &Name{Span: name.span, Name: name.text}}
	p.expectOp("(")
	p.parseSignature(node)
	p.endHead()
	defer p.pushBlock("macro", "endmacro", begin)()
	node.Body = p.parseBody("endmacro")
	p.next()
	node.Span = p.endTag(begin)
	return node
}

// parseSignature parses a macro's parameters, as Jinja2's parse_signature
// does, after their "(" and up to their ")" included.
func (p *parser) parseSignature(node *Macro) {
	for !p.tok.isOp(")") {
		if len(node.Params) > 0 {
			p.expectOp(",")
		}
		param := p.expect(tokName, "parameter name")
		var def Expr
		if p.skipOp("=") {
			def = p.parseExpression(true)
		} else if len(node.Defaults) > 0 && node.Defaults[len(node.Defaults)-1] != nil {
			p.fail(param.span, "non-default argument follows default argument")
		}
		node.Params = append(node.Params, &Name{Span: param.span, Name: param.text})
		node.Defaults = append(node.Defaults, def)
	}
	p.next()
}

// parseCallBlock parses {% call(params) m(args) %}body{% endcall %}, as
// Jinja2's parse_call_block does: the caller is a macro of the optional
// params whose body is the block's.
func (p *parser) parseCallBlock(begin token) *CallBlock {
	tag := p.next()
	caller := &Macro{Name: &Name{Span: tag.span, Name: "caller"}}
	if p.skipOp("(") {
		p.parseSignature(caller)
	}
	x := p.parseExpression(true)
	call, ok := x.(*Call)
	if !ok {
		p.fail(x.Pos(), "expected a call after {%% call %%}")
	}
	p.expect(tokBlockEnd, `"%}"`)
	defer p.pushBlock("call", "endcall", begin)()
	caller.Body = p.parseBody("endcall")
	p.next()
	node := &CallBlock{Call: call, Caller: caller, Span: p.endTag(begin)}
	caller.Span = node.Span
	return node
}

// parseInclude parses {% include name %}; with context, Jinja2's
// default, is the same include.
func (p *parser) parseInclude(begin token) *Include {
	p.next()
	node := &Include{Name: p.parseExpression(true)}
	for _, pair := range [][2]string{{"ignore", "missing"}, {"without", "context"}} {
		if p.tok.isName(pair[0]) && p.peek().isName(pair[1]) {
			p.fail(Span{p.tok.span.Start, p.peek().span.End}, "unsupported %q on include", pair[0]+" "+pair[1])
		}
	}
	if p.tok.isName("with") && p.peek().isName("context") {
		p.next()
		p.next()
	}
	node.Span = p.endTag(begin)
	return node
}

// parseTargets parses the names assigned by for or set: a name or a flat
// tuple of at least two names.
func (p *parser) parseTargets(extraEnd string) []*Name {
	target := p.parseTuple(tupleOpts{simplified: true, extraEnd: extraEnd})
	switch t := target.(type) {
	case *Name:
		return []*Name{t}
	case *Tuple:
		names := make([]*Name, 0, len(t.Items))
		for _, item := range t.Items {
			name, ok := item.(*Name)
			if !ok {
				p.failTarget(item)
			}
			names = append(names, name)
		}
		if len(names) < 2 {
			p.fail(t.Span, "unsupported assignment to a %d-element tuple", len(names))
		}
		return names
	}
	p.failTarget(target)
	return nil
}

func (p *parser) failTarget(target Expr) {
	if _, ok := target.(*Tuple); ok {
		p.fail(target.Pos(), "unsupported assignment to a nested tuple")
	}
	p.fail(target.Pos(), "cannot assign to %s", describeExpr(target))
}

// describeExpr names the kind of an expression for error messages.
func describeExpr(x Expr) string {
	switch x.(type) {
	case *Const:
		return "a literal"
	case *List:
		return "a list"
	case *Dict:
		return "a dict"
	}
	return "this expression"
}
