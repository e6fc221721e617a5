package tmpl

import (
	"slices"
	"strings"
)

// Expression parsing follows Jinja2's grammar, from loosest to tightest:
// conditional, or, and, not, comparison, + -, ~, * / // %, **, unary - +,
// then a primary with postfix .attr, [index] and calls, then filters and
// tests. Every compound node spans from the first token of its first operand
// (including any parentheses) to the last token consumed.

type tupleOpts struct {
	simplified     bool   // items are primaries (assignment targets)
	noCondExpr     bool   // items are not conditional expressions
	explicitParens bool   // the tuple is parenthesised, so () is allowed
	extraEnd       string // a name that also ends the tuple
}

// parseTuple parses an expression, or a tuple if commas separate several.
func (p *parser) parseTuple(o tupleOpts) Expr {
	start := p.tok.span.Start
	var items []Expr
	isTuple := false
	for {
		if len(items) > 0 {
			p.expectOp(",")
		}
		if p.atTupleEnd(o.extraEnd) {
			break
		}
		if o.simplified {
			items = append(items, p.parsePrimary())
		} else {
			items = append(items, p.parseExpression(!o.noCondExpr))
		}
		if !p.tok.isOp(",") {
			break
		}
		isTuple = true
	}
	if !isTuple {
		if len(items) > 0 {
			return items[0]
		}
		if !o.explicitParens {
			p.unexpected(p.tok, "expression")
		}
	}
	return &Tuple{Span: Span{start, max(start, p.prevEnd)}, Items: items}
}

func (p *parser) atTupleEnd(extraEnd string) bool {
	if p.tok.kind == tokVarEnd || p.tok.kind == tokBlockEnd || p.tok.isOp(")") {
		return true
	}
	return extraEnd != "" && p.tok.isName(extraEnd)
}

func (p *parser) parseExpression(withCondExpr bool) Expr {
	p.enter()
	defer p.leave()
	if !withCondExpr {
		return p.parseOr()
	}
	start := p.tok.span.Start
	x := p.parseOr()
	defer p.restore(p.depth)
	for p.skipName("if") {
		cond := p.parseOr()
		var els Expr
		if p.skipName("else") {
			els = p.parseExpression(true)
		}
		x = &CondExpr{Span: Span{start, p.prevEnd}, Then: x, Cond: cond, Else: els}
		p.enter() // x if a if b nests to the left
	}
	return x
}

// parseLeftAssoc parses operands separated by any of ops (operators or
// keywords) as a left-associative chain of Binary nodes.
func (p *parser) parseLeftAssoc(operand func() Expr, ops ...string) Expr {
	start := p.tok.span.Start
	x := operand()
	defer p.restore(p.depth)
	for (p.tok.kind == tokOp || p.tok.kind == tokName) && slices.Contains(ops, p.tok.text) {
		p.enter()
		op := p.next().text
		y := operand()
		x = &Binary{Span: Span{start, p.prevEnd}, Op: op, X: x, Y: y}
	}
	return x
}

func (p *parser) parseOr() Expr  { return p.parseLeftAssoc(p.parseAnd, "or") }
func (p *parser) parseAnd() Expr { return p.parseLeftAssoc(p.parseNot, "and") }

func (p *parser) parseNot() Expr {
	if !p.tok.isName("not") {
		return p.parseCompare()
	}
	start := p.next().span.Start
	p.enter()
	defer p.leave()
	x := p.parseNot()
	return &Unary{Span: Span{start, p.prevEnd}, Op: "not", X: x}
}

var compareOps = []string{"==", "!=", "<", "<=", ">", ">="}

// parseCompare parses a comparison chain; a < b < c becomes
// (a < b) and (b < c), sharing the node b.
func (p *parser) parseCompare() Expr {
	start := p.tok.span.Start
	left, leftStart := p.parseMath1(), start
	var result Expr
	defer p.restore(p.depth)
	for {
		var op string
		switch {
		case p.tok.kind == tokOp && slices.Contains(compareOps, p.tok.text):
			op = p.next().text
		case p.tok.isName("in"):
			op = p.next().text
		case p.tok.isName("not") && p.peek().isName("in"):
			p.next()
			p.next()
			op = "not in"
		default:
			if result == nil {
				return left
			}
			return result
		}
		p.enter()
		rightStart := p.tok.span.Start
		right := p.parseMath1()
		cmp := &Binary{Span: Span{leftStart, p.prevEnd}, Op: op, X: left, Y: right}
		if result == nil {
			result = cmp
		} else {
			result = &Binary{Span: Span{start, p.prevEnd}, Op: "and", X: result, Y: cmp}
		}
		left, leftStart = right, rightStart
	}
}

func (p *parser) parseMath1() Expr { return p.parseLeftAssoc(p.parseConcat, "+", "-") }

// parseConcat: Jinja2 binds ~ tighter than + and - but looser than *.
func (p *parser) parseConcat() Expr { return p.parseLeftAssoc(p.parseMath2, "~") }

func (p *parser) parseMath2() Expr {
	return p.parseLeftAssoc(p.parsePow, "*", "/", "//", "%")
}

// parsePow: ** is left-associative in Jinja2, unlike Python.
func (p *parser) parsePow() Expr {
	return p.parseLeftAssoc(func() Expr { return p.parseUnary(true) }, "**")
}

// parseUnary parses a unary - or +, whose operand takes postfix operators
// but no filters, so -x|abs is (-x)|abs; then postfix operators and, if
// withFilter, filters and tests.
func (p *parser) parseUnary(withFilter bool) Expr {
	start := p.tok.span.Start
	var x Expr
	if p.tok.isOp("-") || p.tok.isOp("+") {
		op := p.next().text
		p.enter()
		operand := p.parseUnary(false)
		p.leave()
		x = &Unary{Span: Span{start, p.prevEnd}, Op: op, X: operand}
	} else {
		x = p.parsePrimary()
	}
	x = p.parsePostfix(x, start)
	if withFilter {
		x = p.parseFilterExpr(x, start)
	}
	return x
}

func (p *parser) parsePrimary() Expr {
	t := p.tok
	switch {
	case t.kind == tokName:
		p.next()
		switch t.text {
		case "true", "True":
			return &Const{Span: t.span, Value: true}
		case "false", "False":
			return &Const{Span: t.span, Value: false}
		case "none", "None":
			return &Const{Span: t.span, Value: nil}
		}
		return &Name{Span: t.span, Name: t.text}
	case t.kind == tokString:
		var b strings.Builder // adjacent strings are concatenated
		for p.tok.kind == tokString {
			b.WriteString(p.next().val.(string))
		}
		return &Const{Span: Span{t.span.Start, p.prevEnd}, Value: b.String()}
	case t.kind == tokInt || t.kind == tokFloat:
		p.next()
		return &Const{Span: t.span, Value: t.val}
	case t.isOp("("):
		p.next()
		x := p.parseTuple(tupleOpts{explicitParens: true})
		p.expectOp(")")
		if tuple, ok := x.(*Tuple); ok {
			tuple.Span = Span{t.span.Start, p.prevEnd}
		}
		return x
	case t.isOp("["):
		return p.parseList()
	case t.isOp("{"):
		return p.parseDict()
	}
	p.unexpected(t, "expression")
	return nil
}

func (p *parser) parseList() *List {
	start := p.next().span.Start
	items := []Expr{}
	for !p.tok.isOp("]") {
		if len(items) > 0 {
			p.expectOp(",")
			if p.tok.isOp("]") {
				break
			}
		}
		items = append(items, p.parseExpression(true))
	}
	p.expectOp("]")
	return &List{Span: Span{start, p.prevEnd}, Items: items}
}

func (p *parser) parseDict() *Dict {
	start := p.next().span.Start
	d := &Dict{Keys: []Expr{}, Values: []Expr{}}
	for !p.tok.isOp("}") {
		if len(d.Keys) > 0 {
			p.expectOp(",")
			if p.tok.isOp("}") {
				break
			}
		}
		d.Keys = append(d.Keys, p.parseExpression(true))
		p.expectOp(":")
		d.Values = append(d.Values, p.parseExpression(true))
	}
	p.expectOp("}")
	d.Span = Span{start, p.prevEnd}
	return d
}

// parsePostfix parses attribute, index and call suffixes of x, which starts
// at start.
func (p *parser) parsePostfix(x Expr, start int) Expr {
	defer p.restore(p.depth)
	for ; ; p.enter() {
		switch {
		case p.tok.isOp("."):
			x = p.parseAttr(x, start)
		case p.tok.isOp("["):
			x = p.parseSubscript(x, start)
		case p.tok.isOp("("):
			x = p.parseCall(x, start)
		default:
			return x
		}
	}
}

// parseAttr parses .name, or .N which Jinja2 reads as [N].
func (p *parser) parseAttr(x Expr, start int) Expr {
	p.next()
	attr := p.next()
	switch attr.kind {
	case tokName:
		return &Attr{Span: Span{start, p.prevEnd}, X: x, Name: attr.text, NameSpan: attr.span}
	case tokInt:
		return &Index{Span: Span{start, p.prevEnd}, X: x, Index: &Const{Span: attr.span, Value: attr.val}}
	}
	p.unexpected(attr, "name or number")
	return nil
}

// subscript is one comma-separated part of [...]: an index or a slice.
type subscript struct {
	span           Span
	index          Expr
	slice          bool
	lo, hi, stride Expr
}

// parseSubscript parses [index], [lo:hi:step], or [a, b] which Jinja2 reads
// as indexing by the tuple (a, b).
func (p *parser) parseSubscript(x Expr, start int) Expr {
	p.next()
	first := p.tok.span.Start
	var subs []subscript
	for !p.tok.isOp("]") {
		if len(subs) > 0 {
			p.expectOp(",")
		}
		subs = append(subs, p.parseSubscribed())
	}
	last := p.prevEnd
	p.expectOp("]")
	span := Span{start, p.prevEnd}
	if len(subs) == 1 {
		s := subs[0]
		if s.slice {
			return &Slice{Span: span, X: x, Lo: s.lo, Hi: s.hi, Step: s.stride}
		}
		return &Index{Span: span, X: x, Index: s.index}
	}
	items := make([]Expr, len(subs))
	for i, s := range subs {
		if s.slice {
			p.fail(s.span, "unsupported slice in a tuple subscript")
		}
		items[i] = s.index
	}
	return &Index{Span: span, X: x, Index: &Tuple{Span: Span{first, max(first, last)}, Items: items}}
}

func (p *parser) parseSubscribed() subscript {
	start := p.tok.span.Start
	s := subscript{slice: true}
	if !p.skipOp(":") {
		x := p.parseExpression(true)
		if !p.skipOp(":") {
			return subscript{span: Span{start, p.prevEnd}, index: x}
		}
		s.lo = x
	}
	if !p.tok.isOp(":") && !p.atSubscriptEnd() {
		s.hi = p.parseExpression(true)
	}
	if p.skipOp(":") && !p.atSubscriptEnd() {
		s.stride = p.parseExpression(true)
	}
	s.span = Span{start, p.prevEnd}
	return s
}

func (p *parser) atSubscriptEnd() bool { return p.tok.isOp("]") || p.tok.isOp(",") }

func (p *parser) parseCall(fn Expr, start int) *Call {
	args, kwargs := p.parseCallArgs()
	return &Call{Span: Span{start, p.prevEnd}, Fn: fn, Args: args, Kwargs: kwargs}
}

// parseCallArgs parses (args, name=value, ...) with an optional trailing comma.
func (p *parser) parseCallArgs() (args []Expr, kwargs []Kwarg) {
	p.expectOp("(")
	for !p.tok.isOp(")") {
		if len(args)+len(kwargs) > 0 {
			p.expectOp(",")
			if p.tok.isOp(")") {
				break
			}
		}
		switch {
		case p.tok.isOp("*") || p.tok.isOp("**"):
			p.fail(p.tok.span, "unsupported %q argument unpacking", p.tok.text)
		case p.tok.kind == tokName && p.peek().isOp("="):
			name := p.next()
			p.next()
			kwargs = append(kwargs, Kwarg{Name: name.text, NameSpan: name.span, Value: p.parseExpression(true)})
		default:
			if len(kwargs) > 0 {
				p.fail(p.tok.span, "positional argument follows keyword argument")
			}
			args = append(args, p.parseExpression(true))
		}
	}
	p.expectOp(")")
	return args, kwargs
}

// parseFilterExpr parses filters, tests and calls applied to x.
func (p *parser) parseFilterExpr(x Expr, start int) Expr {
	defer p.restore(p.depth)
	for ; ; p.enter() {
		switch {
		case p.tok.isOp("|"):
			x = p.parseFilter(x, start)
		case p.tok.isName("is"):
			x = p.parseTest(x, start)
		case p.tok.isOp("("):
			x = p.parseCall(x, start)
		default:
			return x
		}
	}
}

func (p *parser) parseFilter(x Expr, start int) *Filter {
	p.next()
	f := &Filter{X: x}
	f.Name, f.NameSpan = p.parseDottedName("filter name")
	if p.tok.isOp("(") {
		f.Args, f.Kwargs = p.parseCallArgs()
	}
	f.Span = Span{start, p.prevEnd}
	return f
}

// parseTest parses `is [not] name`, with arguments in parentheses or a
// single argument without them (`x is divisibleby 3`).
func (p *parser) parseTest(x Expr, start int) *Test {
	p.next()
	t := &Test{X: x, Not: p.skipName("not")}
	t.Name, t.NameSpan = p.parseDottedName("test name")
	switch {
	case p.tok.isOp("("):
		var kwargs []Kwarg
		t.Args, kwargs = p.parseCallArgs()
		if len(kwargs) > 0 {
			p.fail(kwargs[0].NameSpan, "unsupported keyword argument to a test")
		}
	case p.startsTestArg():
		if p.tok.isName("is") {
			p.fail(p.tok.span, `cannot chain tests with "is"`)
		}
		argStart := p.tok.span.Start
		t.Args = []Expr{p.parsePostfix(p.parsePrimary(), argStart)}
	}
	t.Span = Span{start, p.prevEnd}
	return t
}

func (p *parser) startsTestArg() bool {
	switch t := p.tok; {
	case t.isName("else"), t.isName("or"), t.isName("and"):
		return false
	case t.kind == tokName, t.kind == tokString, t.kind == tokInt, t.kind == tokFloat:
		return true
	default:
		return t.isOp("[") || t.isOp("{")
	}
}

// parseDottedName parses a filter or test name, which may contain dots.
func (p *parser) parseDottedName(what string) (string, Span) {
	first := p.expect(tokName, what)
	name := first.text
	for p.skipOp(".") {
		name += "." + p.expect(tokName, "name").text
	}
	return name, Span{first.span.Start, p.prevEnd}
}
