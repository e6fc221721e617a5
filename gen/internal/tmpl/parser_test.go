package tmpl

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// parseTests were checked against the AST Jinja2 3.1 builds (dumped in the
// same notation), except where Jinja2 has no distinct node: `not x is y` and
// `x is not y` differ here, and an empty else is kept.
var parseTests = []struct {
	src  string
	want string
}{
	{"{{ -x|abs }}", "(out (| abs (- x)))"},
	{"{{ not x is defined }}", "(out (not (is defined x)))"},
	{"{{ x is not defined }}", "(out (is-not defined x))"},
	{"{{ a ~ b | upper }}", "(out (~ a (| upper b)))"},
	{"{{ 1 + 2 * 3 ~ 4 - 5 }}", "(out (- (+ 1 (~ (* 2 3) 4)) 5))"},
	{"{{ 2**3**2 }}", "(out (** (** 2 3) 2))"},
	{"{{ -2**2 }}", "(out (** (- 2) 2))"},
	{"{{ a < b < c }}", "(out (and (< a b) (< b c)))"},
	{"{{ a < b < c < d }}", "(out (and (and (< a b) (< b c)) (< c d)))"},
	{"{{ a == b != c }}", "(out (and (== a b) (!= b c)))"},
	{"{{ a not in b }}", "(out (not in a b))"},
	{"{{ a in b }}", "(out (in a b))"},
	{"{{ not a in b }}", "(out (not (in a b)))"},
	{"{{ not not a }}", "(out (not (not a)))"},
	{"{{ a if b }}", "(out (?: b a _))"},
	{"{{ a if b else c if d else e }}", "(out (?: b a (?: d c e)))"},
	{"{{ a if b if c else d }}", "(out (?: c (?: b a _) d))"},
	{"{{ a or b and c or d }}", "(out (or (or a (and b c)) d))"},
	{"{{ a and not b or c }}", "(out (or (and a (not b)) c))"},
	{"{{ x.0.1 }}", "(out ([] ([] x 0) 1))"},
	{"{{ x.0 }}", "(out ([] x 0))"},
	{"{{ x[1:2] }}{{ x[::2] }}{{ x[:] }}{{ x[1,2] }}{{ x[] }}", "(out ([:] x 1 2 _)) (out ([:] x _ _ 2)) (out ([:] x _ _ _)) (out ([] x (tuple 1 2))) (out ([] x (tuple)))"},
	{"{{ x[1:] }}{{ x[:2] }}{{ x[1::] }}{{ x[::] }}{{ x[a:b:c] }}", "(out ([:] x 1 _ _)) (out ([:] x _ 2 _)) (out ([:] x 1 _ _)) (out ([:] x _ _ _)) (out ([:] x a b c))"},
	{"{{ f(1, a=2,) }}", "(out (call f 1 a=2))"},
	{"{{ x is divisibleby 3 }}{{ x is not none }}{{ x is sameas(1) }}", "(out (is divisibleby x 3)) (out (is-not none x)) (out (is sameas x 1))"},
	{"{{ x is sameas false }}", "(out (is sameas x false))"},
	{"{{ x is defined and y }}", "(out (and (is defined x) y))"},
	{"{{ x is defined or y }}", "(out (or (is defined x) y))"},
	{"{{ x is a.b }}", "(out (is a.b x))"},
	{"{{ x is in [1] }}", "(out (is in x [1]))"},
	{"{{ x is eq y.z }}", "(out (is eq x (. y z)))"},
	{"{{ x is eq (1) }}", "(out (is eq x 1))"},
	{"{{ x is eq {} }}", "(out (is eq x (dict)))"},
	{"{{ x is eq 'a' ~ 'b' }}", "(out (~ (is eq x \"a\") \"b\"))"},
	{"{{ x is eq -1 }}", "(out (- (is eq x) 1))"},
	{"{{ 'a' \"b\" }}", "(out \"ab\")"},
	{"{{ 'a' 'b' ~ 'c' }}", "(out (~ \"ab\" \"c\"))"},
	{"{{ (1, 2) }}{{ () }}{{ (1,) }}{{ 1, 2 }}{{ 1, }}", "(out (tuple 1 2)) (out (tuple)) (out (tuple 1)) (out (tuple 1 2)) (out (tuple 1))"},
	{"{{ {'a': 1, 'b': [1, 2.5, 1e3]} }}", "(out (dict (\"a\" 1) (\"b\" [1 2.5 1000.0])))"},
	{"{{ {} }}{{ [] }}{{ [1,] }}{{ {1:2,} }}", "(out (dict)) (out []) (out [1]) (out (dict (1 2)))"},
	{"{{ x|f(1)(2) }}", "(out (call (| f x 1) 2))"},
	{"{{ x.y(1).z[0] }}", "(out ([] (. (call (. x y) 1) z) 0))"},
	{"{{ - - x }}", "(out (- (- x)))"},
	{"{{ -x.y }}", "(out (- (. x y)))"},
	{"{{ -x|f.g }}", "(out (| f.g (- x)))"},
	{"{{ x | a.b }}", "(out (| a.b x))"},
	{"{{ true and none or False }}", "(out (or (and true none) false))"},
	{"{{ True }}{{ None }}{{ TRUE }}", "(out true) (out none) (out TRUE)"},
	{"{{ 1_000 + 0x_1f + 0b11 + 0o7 + 00 }}", "(out (+ (+ (+ (+ 1000 31) 3) 7) 0))"},
	{"{{ 0X1F }}{{ 0B1 }}{{ 0O7 }}", "(out 31) (out 1) (out 7)"},
	{"{{ 1e-7 }}{{ 1.5E+3 }}{{ 1_0.2_5 }}{{ 1e5 }}{{ 1E5 }}{{ 2.5e-3 }}", "(out 1e-07) (out 1500.0) (out 10.25) (out 100000.0) (out 100000.0) (out 0.0025)"},
	{"{{ 1.e5 }}", "(out (. 1 e5))"},
	{"{{ 12.5.x }}", "(out (. 12.5 x))"},
	{"{{ a + -b }}", "(out (+ a (- b)))"},
	{"{{ a - - b }}", "(out (- a (- b)))"},
	{"{{ a * -b ** c }}", "(out (* a (** (- b) c)))"},
	{"{{ a // b % c / d * e }}", "(out (* (/ (% (// a b) c) d) e))"},
	{"{{ a ~ b ~ c }}", "(out (~ (~ a b) c))"},
	{"{{ a + b ~ c + d }}", "(out (+ (+ a (~ b c)) d))"},
	{"{{ a * b ~ c * d }}", "(out (~ (* a b) (* c d)))"},
	{"{{ a|f ~ b|g }}", "(out (~ (| f a) (| g b)))"},
	{"{{ a|f(b|g) }}", "(out (| f a (| g b)))"},
	{"{{ a|f(x=b, y=c) }}", "(out (| f a x=b y=c))"},
	{"{{ f(a)(b) }}", "(out (call (call f a) b))"},
	{"{{ f(a)|g }}", "(out (| g (call f a)))"},
	{"{{ x if y else z|f }}", "(out (?: y x (| f z)))"},
	{"{{ (a if b else c)|f }}", "(out (| f (?: b a c)))"},
	{"{{ loop.index0 }}", "(out (. loop index0))"},
	{"{{ x is defined() if y else z }}", "(out (?: y (is defined x) z))"},
	{"{{ not x }}", "(out (not x))"},
	{"{{ and }}", "(out and)"},
	{"{{ if }}", "(out if)"},
	{"{{ x.if }}", "(out (. x if))"},
	{"{{ x.true }}", "(out (. x true))"},
	{"{{ x[1][2] }}", "(out ([] ([] x 1) 2))"},
	{"{{ x['a'] }}", "(out ([] x \"a\"))"},
	{"{{ [1, [2, [3]]] }}", "(out [1 [2 [3]]])"},
	{"{{ (((1))) }}", "(out 1)"},
	{"{{ ((1, 2), 3) }}", "(out (tuple (tuple 1 2) 3))"},
	{"{{ a in b in c }}", "(out (and (in a b) (in b c)))"},
	{"{{ a not in b not in c }}", "(out (and (not in a b) (not in b c)))"},
	{"{{ a < b > c }}", "(out (and (< a b) (> b c)))"},
	{"{{ a is not not b }}", "(out (is-not not a b))"},
	{"{{ x is not in y }}", "(out (is-not in x y))"},
	{"{{ 'a\nb' }}", "(out \"a\\nb\")"},
	{"{{ 'a\\tb\\x41\\u00e9\\U0001F600\\101\\\\\\'\"' }}", "(out \"a\\tbAé😀A\\\\'\\\"\")"},
	{"{{ \"\\d\" }}", "(out \"\\\\d\")"},
	{"{{ 'é\\é' }}", "(out \"é\\\\xe9\")"},
	{"{{ 'a;b' }}", "(out \"a;b\")"},
	{"{{ a != b }}", "(out (!= a b))"},
	{"{{ x|default('a', true) }}", "(out (| default x \"a\" true))"},
	{"{{ x.items() }}", "(out (call (. x items)))"},
	{"{{ range(10)|list }}", "(out (| list (call range 10)))"},
	{"{{ x[::-1] }}", "(out ([:] x _ _ (- 1)))"},
	{"{{ -1 }}", "(out (- 1))"},
	{"{{ +1 }}", "(out (+ 1))"},
	{"{{ - -1 }}", "(out (- (- 1)))"},
	{"{{ 9223372036854775807 }}", "(out 9223372036854775807)"},
	{"{{ 1e308 }}", "(out 1e+308)"},
	{"{{ foo(a, b=c, d=e,) }}", "(out (call foo a b=c d=e))"},
	{"{{ foo(a, ) }}", "(out (call foo a))"},
	{"{{ a.b.c.d }}", "(out (. (. (. a b) c) d))"},
	{"{{ a[b.c] }}", "(out ([] a (. b c)))"},
	{"{{ a(b)[c].d(e) }}", "(out (call (. ([] (call a b) c) d) e))"},
	{"{{ {'a': 1}['a'] }}", "(out ([] (dict (\"a\" 1)) \"a\"))"},
	{"{{ [1,2][0] }}", "(out ([] [1 2] 0))"},
	{"{{ (1,2)[0] }}", "(out ([] (tuple 1 2) 0))"},
	{"{{ 'abc'[0] }}", "(out ([] \"abc\" 0))"},
	{"{{ 'abc'.upper() }}", "(out (call (. \"abc\" upper)))"},
	{"{{ 1.5.real }}", "(out (. 1.5 real))"},
	{"{{ x|f(a)|g|h(b) }}", "(out (| h (| g (| f x a)) b))"},
	{"{{ x|f is defined }}", "(out (is defined (| f x)))"},
	{"{{ x is defined|f }}", "(out (| f (is defined x)))"},
	{"{{ x in y|f }}", "(out (in x (| f y)))"},
	{"{{ x + y is defined }}", "(out (+ x (is defined y)))"},
	{"{{ x ** y|f }}", "(out (** x (| f y)))"},
	{"{{ a if b }}", "(out (?: b a _))"},
	{"{% for k, v in d.items() if v %}{{ k }}{% else %}none{% endfor %}", "(for (k v) (call (. d items)) (filter v) (body (out k)) (else (text \"none\")))"},
	{"{% for x in xs %}{{ loop.index }}{% endfor %}", "(for (x) xs (body (out (. loop index))))"},
	{"{% for (a, b) in xs %}{% endfor %}", "(for (a b) xs (body))"},
	{"{% for a, (b) in xs %}{% endfor %}", "(for (a b) xs (body))"},
	{"{% for a, b, c in xs %}{% endfor %}", "(for (a b c) xs (body))"},
	{"{% for x in a, b %}{% endfor %}", "(for (x) (tuple a b) (body))"},
	{"{% for x in xs if x if y else z %}{% endfor %}", "(for (x) xs (filter (?: y x z)) (body))"},
	{"{% for x in xs: %}{% endfor %}", "(for (x) xs (body))"},
	{"{% for x in xs %}{% else: %}{% endfor %}", "(for (x) xs (body) (else))"},
	{"{% set a, b = 1, 2 %}{% set x %}hi{% endset %}", "(set (a b) (tuple 1 2)) (set (x) (body (text \"hi\")))"},
	{"{% set x = 1 if y %}", "(set (x) (?: y 1 _))"},
	{"{% set x = a if b else c %}", "(set (x) (?: b a c))"},
	{"{% set (a, b) = c %}", "(set (a b) c)"},
	{"{% set x: %}a{% endset %}", "(set (x) (body (text \"a\")))"},
	{"{% set x %}{% if y %}a{% endif %}{% endset %}", "(set (x) (body (if (cond y (text \"a\")))))"},
	{"{% include \"x\" ~ y %}", "(include (~ \"x\" y))"},
	{"{% filter upper %}a{{ x }}{% endfilter %}", "(filter (| upper _) (text \"a\") (out x))"},
	{"{% filter truncate(5, true)|replace('a', b): %}{% endfilter %}", "(filter (| replace (| truncate _ 5 true) \"a\" b))"},
	{"{% filter indent(width=2) %}{% filter lower %}A{% endfilter %}{% endfilter %}", "(filter (| indent _ width=2) (filter (| lower _) (text \"A\")))"},
	{"{% include [\"a\", \"b\"] %}", "(include [\"a\" \"b\"])"},
	{"{% include \"a\" with context %}", "(include \"a\")"},
	{"{% macro m() %}a{% endmacro %}", "(macro m () (text \"a\"))"},
	{"{% macro m(a, b='x', c=none): %}{{ a }}{% endmacro %}", "(macro m (a b=\"x\" c=none) (out a))"},
	{"{% call m(x) %}a{% endcall %}", "(call (call m x) (macro caller () (text \"a\")))"},
	{"{% call(a, b=1) m() %}{{ a }}{% endcall %}", "(call (call m) (macro caller (a b=1) (out a)))"},
	{"{% if a %}1{% elif b %}2{% else %}3{% endif %}", "(if (cond a (text \"1\")) (cond b (text \"2\")) (else (text \"3\")))"},
	{"{% if a: %}1{% elif b: %}2{% else: %}3{% endif %}", "(if (cond a (text \"1\")) (cond b (text \"2\")) (else (text \"3\")))"},
	{"{% if a, b %}1{% endif %}", "(if (cond (tuple a b) (text \"1\")))"},
	{"a{# b #}c", "(text \"ac\")"},
	{"a{#", "(text \"a\")"},
	{"{% raw %}", ""},
	{"{% raw %}{{ x }}{% endraw %}", "(text \"{{ x }}\")"},
	{"{% raw %}a{% endraw %}b{% raw %}c{% endraw %}", "(text \"abc\")"},
	{"{%raw%}a{%endraw%}", "(text \"a\")"},
	{"{%- raw -%} a {%- endraw -%}", "(text \"a\")"},
	{"{% raw -%}  a  {%+ endraw %}", "(text \"a  \")"},
	{"{% raw %}{% raw %}{% endraw %}", "(text \"{% raw %}\")"},
	{"{{ x }}{{ y }}", "(out x) (out y)"},
	{"a{{ x }}b{% if y %}c{% endif %}d", "(text \"a\") (out x) (text \"b\") (if (cond y (text \"c\"))) (text \"d\")"},
	{"{{ x -}} a {{- y }}", "(out x) (text \"a\") (out y)"},
	{"{%- if x -%} a {%- endif -%}", "(if (cond x (text \"a\")))"},
	{"{{x}}{{-1}}", "(out x) (out 1)"},
	{"{% if x +%}a{% endif %}", "(if (cond x (text \"a\")))"},
	{"{{ {'a': {'b': 1}} }}", "(out (dict (\"a\" (dict (\"b\" 1)))))"},
	{"{% set x = {'a': 1} %}", "(set (x) (dict (\"a\" 1)))"},
	{"{{ '}}' }}", "(out \"}}\")"},
	{"{{ \"%}\" }}", "(out \"%}\")"},
	{"{% set x = '%}' %}", "(set (x) \"%}\")"},
	{"{#- a -#}", ""},
	{"{#+ a +#}", ""},
	{"{# {{ x }} #}", ""},
	{"{{ x }}{# #}{{ y }}", "(out x) (out y)"},
	{"{{ 'a' }}{{ x['}}'] }}", "(out \"a\") (out ([] x \"}}\"))"},
}

func TestParse(t *testing.T) {
	for _, tt := range parseTests {
		tmpl, err := Parse(tt.src, Options{})
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		if got := dump(tmpl.Body); got != tt.want {
			t.Errorf("Parse(%q)\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

// profileParseTests are parsed with the transformers profile; each was
// checked against the AST Jinja2 3.1 builds with the loopcontrols extension
// and transformers' generation extension.
var profileParseTests = []struct {
	src  string
	want string
}{
	{"{% for x in xs %}{% if x %}{% break %}{% endif %}{% continue %}{% endfor %}", "(for (x) xs (body (if (cond x (break))) (continue)))"},
	{"{% generation %}a{{ x }}{% endgeneration %}", "(generation (text \"a\") (out x))"},
	{"{% generation: %}{% endgeneration %}", "(generation)"},
	{"{% set ns.x = 1 %}{% set ns.y %}b{% endset %}", "(set (. ns x) 1) (set (. ns y) (body (text \"b\")))"},
}

func TestParseProfile(t *testing.T) {
	for _, tt := range profileParseTests {
		tmpl, err := Parse(tt.src, Options{Transformers: true})
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		if got := dump(tmpl.Body); got != tt.want {
			t.Errorf("Parse(%q)\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

func TestConstTypes(t *testing.T) {
	tests := []struct {
		src  string
		want any
	}{
		{"{{ 1 }}", int64(1)},
		{"{{ 0x_ff }}", int64(255)},
		{"{{ 1.0 }}", 1.0},
		{"{{ 1e999 }}", math.Inf(1)}, // as Python's float("1e999")
		{"{{ 'x' }}", "x"},
		{"{{ True }}", true},
		{"{{ none }}", nil},
	}
	for _, tt := range tests {
		tmpl, err := Parse(tt.src, Options{})
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		if got := tmpl.Body[0].(*Output).X.(*Const).Value; got != tt.want {
			t.Errorf("Parse(%q) value = %#v, want %#v", tt.src, got, tt.want)
		}
	}
}

var errorTests = []struct {
	src  string
	msg  string
	span Span
}{
	{"{% if x %}", "unclosed \"if\" block (expected \"endif\")", Span{0, 10}},                                                             // "{% if x %}"
	{"{% if x %}a{% else %}b", "unclosed \"if\" block (expected \"endif\")", Span{0, 10}},                                                 // "{% if x %}"
	{"{% for x in y %}{% if x %}{% endif %}", "unclosed \"for\" block (expected \"endfor\")", Span{0, 16}},                                // "{% for x in y %}"
	{"{% set x %}abc", "unclosed \"set\" block (expected \"endset\")", Span{0, 11}},                                                       // "{% set x %}"
	{"{{ x", "unclosed \"{{\" tag (expected \"}}\")", Span{0, 2}},                                                                         // "{{"
	{"{{ x +", "unclosed \"{{\" tag (expected expression)", Span{0, 2}},                                                                   // "{{"
	{"{% if x", "unclosed \"{%\" tag (expected \"%}\")", Span{0, 2}},                                                                      // "{%"
	{"{% if x %}{% endif", "unclosed \"{%\" tag (expected \"%}\")", Span{10, 12}},                                                         // "{%"
	{"{{ f(", "unclosed \"{{\" tag (expected expression)", Span{0, 2}},                                                                    // "{{"
	{"{{ [1, 2", "unclosed \"{{\" tag (expected \",\")", Span{0, 2}},                                                                      // "{{"
	{"{{ x.", "unclosed \"{{\" tag (expected name or number)", Span{0, 2}},                                                                // "{{"
	{"{% endfor %}", "unexpected \"endfor\" with no open block", Span{3, 9}},                                                              // "endfor"
	{"{% else %}", "unexpected \"else\" with no open block", Span{3, 7}},                                                                  // "else"
	{"{% if x %}{% endfor %}", "unexpected \"endfor\" inside \"if\" block (expected \"endif\")", Span{13, 19}},                            // "endfor"
	{"{% for x in y %}{% if x %}{% endfor %}{% endif %}", "unexpected \"endfor\" inside \"if\" block (expected \"endif\")", Span{29, 35}}, // "endfor"
	{"{{ 1 + }}", "unexpected \"}}\", expected expression", Span{7, 9}},                                                                   // "}}"
	{"{{ }}", "unexpected \"}}\", expected expression", Span{3, 5}},                                                                       // "}}"
	{"{{ 1 2 }}", "unexpected \"2\", expected \"}}\"", Span{5, 6}},                                                                        // "2"
	{"{{ x. 1.5 }}", "unexpected \"1.5\", expected name or number", Span{6, 9}},                                                           // "1.5"
	{"{{ a b }}", "unexpected \"b\", expected \"}}\"", Span{5, 6}},                                                                        // "b"
	{"{% if %}{% endif %}", "unexpected \"%}\", expected expression", Span{6, 8}},                                                         // "%}"
	{"{% filter upper %}{% macro f() %}{% endmacro %}{% endfilter %}", "a macro must be defined at the template's top level (or in an if or a for loop there), not inside \"filter\"", Span{21, 26}}, // "macro"
	{"{% macro f(a=1, b) %}{% endmacro %}", "non-default argument follows default argument", Span{16, 17}},                                                                                           // "b"
	{"{% macro f(a,) %}{% endmacro %}", "unexpected \")\", expected parameter name", Span{13, 14}},                                                                                                   // ")"
	{"{% macro f() %}x", "unclosed \"macro\" block (expected \"endmacro\")", Span{0, 15}},                                                                                                            // "{% macro f() %}"
	{"{% endmacro %}", "unexpected \"endmacro\" with no open block", Span{3, 11}},
	{"{% call f() %}x", "unclosed \"call\" block (expected \"endcall\")", Span{0, 14}},         // "endmacro"
	{"{% call f %}{% endcall %}", "expected a call after {% call %}", Span{8, 9}},              // "call"
	{"{% import 'a' as b %}", "unsupported tag \"import\"", Span{3, 9}},                        // "import"
	{"{% from 'a' import b %}", "unsupported tag \"from\"", Span{3, 7}},                        // "from"
	{"{% block body %}{% endblock %}", "unsupported tag \"block\"", Span{3, 8}},                // "block"
	{"{% extends \"base\" %}", "unsupported tag \"extends\"", Span{3, 10}},                     // "extends"
	{"{% filter upper %}x", "unclosed \"filter\" block (expected \"endfilter\")", Span{0, 18}}, // "{% filter upper %}"
	{"{% filter %}x{% endfilter %}", "unexpected \"%}\", expected filter name", Span{10, 12}},  // "%}"
	{"{% with a = 1 %}{% endwith %}", "unsupported tag \"with\"", Span{3, 7}},                  // "with"
	{"{% foo %}", "unknown tag \"foo\" (did you mean \"for\"?)", Span{3, 6}},
	{"{% foobar %}", "unknown tag \"foobar\"", Span{3, 9}},
	{"{% for x in xs %}{{ x }}{% endfro %}", "unknown tag \"endfro\" (did you mean \"endfor\"?)", Span{27, 33}},
	{"{% iff x %}{% endif %}", "unknown tag \"iff\" (did you mean \"if\"?)", Span{3, 6}}, // "foo"
	{"{% raw +%}x{% endraw %}", `unknown tag "raw": a raw block opens with {% raw %} or {% raw -%}, nothing else in the tag (Jinja2 reads this one as an unknown tag too)`, Span{3, 6}},
	{"a{% raw x %}{% endraw %}", `unknown tag "raw": a raw block opens with {% raw %} or {% raw -%}, nothing else in the tag (Jinja2 reads this one as an unknown tag too)`, Span{4, 7}},
	{"{% endraw %}", `unknown tag "endraw": it closes a raw block, and none is open here (Jinja2 reads it as an unknown tag too)`, Span{3, 9}},
	{"{% %}", "unexpected \"%}\", expected tag name", Span{3, 5}},                                                                              // "%}"
	{"{{ 'abc }}", "unterminated string literal", Span{3, 10}},                                                                                 // "'abc }}"
	{"{{ \"abc", "unterminated string literal", Span{3, 7}},                                                                                    // "\"abc"
	{"{{ x } }}", "unexpected \"}\"", Span{5, 6}},                                                                                              // "}"
	{"{{ (x }}", "unexpected \"}\", expected \")\"", Span{6, 7}},                                                                               // "}"
	{"{{ x ! y }}", "unexpected character \"!\"", Span{5, 6}},                                                                                  // "!"
	{"{{ x @ y }}", "unexpected character \"@\"", Span{5, 6}},                                                                                  // "@"
	{"a{# b", "unclosed comment (expected \"#}\")", Span{1, 3}},                                                                                // "{#"
	{"{% raw %}abc", "unclosed \"raw\" block (expected \"endraw\")", Span{0, 9}},                                                               // "{% raw %}"
	{"{{ '\\x4' }}", "truncated \\xXX escape", Span{4, 7}},                                                                                     // "\\x4"
	{"{{ '\\u12' }}", "truncated \\uXXXX escape", Span{4, 8}},                                                                                  // "\\u12"
	{"{{ '\\U00110000' }}", "illegal Unicode character", Span{4, 14}},                                                                          // "\\U00110000"
	{"{{ '\\N{DASH}' }}", "\\N{...} escapes are not supported", Span{4, 6}},                                                                    // "\\N"
	{"{{ 99999999999999999999 }}", "integer literal out of range", Span{3, 23}},                                                                // "99999999999999999999"
	{"{% for 1 in x %}{% endfor %}", "cannot assign to a literal", Span{7, 8}},                                                                 // "1"
	{"{% for a, (b, c) in x %}{% endfor %}", "unsupported assignment to a nested tuple", Span{10, 16}},                                         // "(b, c)"
	{"{% for a, in x %}{% endfor %}", "unsupported assignment to a 1-element tuple", Span{7, 9}},                                               // "a,"
	{"{% for x in y recursive %}{% endfor %}", "unsupported recursive loop", Span{14, 23}},                                                     // "recursive"
	{"{% set ns.x, y = 1, 2 %}", "unexpected \",\", expected \"%}\"", Span{11, 12}},                                                            // ","
	{"{% set ns. = 1 %}", "unexpected \"=\", expected name", Span{11, 12}},                                                                     // "="
	{"{% for x in y %}{% break %}{% endfor %}", "unsupported tag \"break\" (loop controls need jinja: {profile: transformers})", Span{19, 24}}, // "break"
	{"{% continue %}", "unsupported tag \"continue\" (loop controls need jinja: {profile: transformers})", Span{3, 11}},                        // "continue"
	{"{% generation %}{% endgeneration %}", "unsupported tag \"generation\" (it needs jinja: {profile: transformers})", Span{3, 13}},           // "generation"
	{"{% set x | upper %}{% endset %}", "unsupported filter on a block set", Span{9, 10}},                                                      // "|"
	{"{% set a, b %}{% endset %}", "unsupported block set with several targets", Span{7, 11}},                                                  // "a, b"
	{"{% include \"a\" ignore missing %}", "unsupported \"ignore missing\" on include", Span{15, 29}},                                          // "ignore missing"
	{"{% include \"a\" without context %}", "unsupported \"without context\" on include", Span{15, 30}},                                        // "without context"
	{"{% include \"a\" with context ignore missing %}", "unexpected \"ignore\", expected \"%}\"", Span{28, 34}},                                // "ignore"
	{"{{ f(*args) }}", "unsupported \"*\" argument unpacking", Span{5, 6}},                                                                     // "*"
	{"{{ f(**kw) }}", "unsupported \"**\" argument unpacking", Span{5, 7}},                                                                     // "**"
	{"{{ f(a=1, 2) }}", "positional argument follows keyword argument", Span{10, 11}},                                                          // "2"
	{"{{ x is divisibleby(n=3) }}", "unsupported keyword argument to a test", Span{20, 21}},                                                    // "n"
	{"{{ x is a is b }}", "cannot chain tests with \"is\"", Span{10, 12}},                                                                      // "is"
	{"{{ x[1:2, 3] }}", "unsupported slice in a tuple subscript", Span{5, 8}},                                                                  // "1:2"
	{"{{ x | 1 }}", "unexpected \"1\", expected filter name", Span{7, 8}},                                                                      // "1"
	{"{{ x is 1 }}", "unexpected \"1\", expected test name", Span{8, 9}},                                                                       // "1"
	{"{% if x %}{% endif x %}", "unexpected \"x\", expected \"%}\"", Span{19, 20}},                                                             // "x"
	{"{% set x = 1 %}{% endset %}", "unexpected \"endset\" with no open block", Span{18, 24}},                                                  // "endset"
	// The first error wins, even when the lexer would fail further on.
	{"{{ a b }}{{ !", "unexpected \"b\", expected \"}}\"", Span{5, 6}},
	{"{{ a }}{# x", "unclosed comment (expected \"#}\")", Span{7, 9}},
}

var profileErrorTests = []struct {
	src  string
	msg  string
	span Span
}{
	{"{% generation %}a", "unclosed \"generation\" block (expected \"endgeneration\")", Span{0, 16}}, // "{% generation %}"
	{"{% endgeneration %}", "unexpected \"endgeneration\" with no open block", Span{3, 16}},          // "endgeneration"
	{"{% break x %}", "unexpected \"x\", expected \"%}\"", Span{9, 10}},                              // "x"
}

func TestParseErrors(t *testing.T) {
	for _, tt := range profileErrorTests {
		_, err := Parse(tt.src, Options{Transformers: true})
		var e *Error
		if !errors.As(err, &e) || e.Msg != tt.msg || e.Span != tt.span {
			t.Errorf("Parse(%q) with the transformers profile: error %v, want %q at %v", tt.src, err, tt.msg, tt.span)
		}
	}
	for _, tt := range errorTests {
		_, err := Parse(tt.src, Options{})
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Parse(%q) error = %v, want *Error", tt.src, err)
			continue
		}
		if e.Msg != tt.msg || e.Span != tt.span {
			t.Errorf("Parse(%q) error = %q at %v (%q), want %q at %v (%q)", tt.src,
				e.Msg, e.Span, tt.src[e.Span.Start:e.Span.End], tt.msg, tt.span, tt.src[tt.span.Start:tt.span.End])
		}
	}
}

var spanTests = []struct {
	src  string
	want []string // label and source text of each span, in walk order
}{
	{"{{ a.b + c }}", []string{"Output {{ a.b + c }}", "Binary a.b + c", "Attr a.b", "Name a", "name b", "Name c"}},
	{"{{ (a + b) * c }}", []string{"Output {{ (a + b) * c }}", "Binary (a + b) * c", "Binary a + b", "Name a", "Name b", "Name c"}},
	{"{{ -x|abs(1) }}", []string{"Output {{ -x|abs(1) }}", "Filter -x|abs(1)", "Unary -x", "Name x", "name abs", "Const 1"}},
	{"{{ x is not divisibleby 3 }}", []string{"Output {{ x is not divisibleby 3 }}", "Test x is not divisibleby 3", "Name x", "name divisibleby", "Const 3"}},
	{"{{ a < b < c }}", []string{"Output {{ a < b < c }}", "Binary a < b < c", "Binary a < b", "Name a", "Name b", "Binary b < c", "Name b", "Name c"}},
	{"{{ not (a or b) and c }}", []string{"Output {{ not (a or b) and c }}", "Binary not (a or b) and c", "Unary not (a or b)", "Binary a or b", "Name a", "Name b", "Name c"}},
	{"{{ 'a' \"b\" ~ 1.5 }}", []string{"Output {{ 'a' \"b\" ~ 1.5 }}", "Binary 'a' \"b\" ~ 1.5", "Const 'a' \"b\"", "Const 1.5"}},
	{"{{ (1, 2) }}{{ 1, 2 }}{{ () }}", []string{"Output {{ (1, 2) }}", "Tuple (1, 2)", "Const 1", "Const 2", "Output {{ 1, 2 }}", "Tuple 1, 2", "Const 1", "Const 2", "Output {{ () }}", "Tuple ()"}},
	{"{{ x[1:2] }}{{ x.0 }}{{ x[a, b] }}", []string{"Output {{ x[1:2] }}", "Slice x[1:2]", "Name x", "Const 1", "Const 2", "Output {{ x.0 }}", "Index x.0", "Name x", "Const 0", "Output {{ x[a, b] }}", "Index x[a, b]", "Name x", "Tuple a, b", "Name a", "Name b"}},
	{"{{ f(a, k=v) }}", []string{"Output {{ f(a, k=v) }}", "Call f(a, k=v)", "Name f", "Name a", "name k", "Name v"}},
	{"{{ a if b else c }}", []string{"Output {{ a if b else c }}", "CondExpr a if b else c", "Name a", "Name b", "Name c"}},
	{"{{ [1, {2: (3)}] }}", []string{"Output {{ [1, {2: (3)}] }}", "List [1, {2: (3)}]", "Const 1", "Dict {2: (3)}", "Const 2", "Const 3"}},
	{"{{ x|f.g(k=1) }}", []string{"Output {{ x|f.g(k=1) }}", "Filter x|f.g(k=1)", "Name x", "name f.g", "name k", "Const 1"}},
	{"{%- if x -%} a {% elif y %}b{% else %}c{% endif %}", []string{"If {%- if x -%} a {% elif y %}b{% else %}c{% endif %}", "Name x", "Text a ", "Name y", "Text b", "Text c"}},
	{"{% for k, v in d if v %}{{ k }}{% else %}e{% endfor %}", []string{"For {% for k, v in d if v %}{{ k }}{% else %}e{% endfor %}", "Name k", "Name v", "Name d", "Name v", "Output {{ k }}", "Name k", "Text e"}},
	{"{% set x = 1 %}{% set y %}a{% endset %}", []string{"Set {% set x = 1 %}", "Name x", "Const 1", "Set {% set y %}a{% endset %}", "Name y", "Text a"}},
	{"{% include \"a\" %}", []string{"Include {% include \"a\" %}", "Const \"a\""}},
	{"{% set ns.x = 1 %}", []string{"Set {% set ns.x = 1 %}", "Name ns", "name x", "Const 1"}},
	{"a  {%- if x -%}  b  {%- endif %}", []string{"Text a", "If {%- if x -%}  b  {%- endif %}", "Name x", "Text b"}},
	{"a{# c #}b{% raw %}{{ x }}{% endraw %}", []string{"Text a{# c #}b{% raw %}{{ x }}"}},
	{"a\r\nb\r\n", []string{"Text a\r\nb"}},
}

func TestSpans(t *testing.T) {
	for _, tt := range spanTests {
		tmpl, err := Parse(tt.src, Options{})
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		var got []string
		walk(tmpl.Body, func(label string, s Span) { got = append(got, label+" "+tt.src[s.Start:s.End]) })
		if !slices.Equal(got, tt.want) {
			t.Errorf("Parse(%q) spans\n got %q\nwant %q", tt.src, got, tt.want)
		}
	}
}

// TestNestingLimit parses each construct nested or chained as deep as
// maxDepth allows, then one level deeper, which fails at the token that
// would open the extra level. Much deeper input fails as fast: the parser
// stops at the limit.
func TestNestingLimit(t *testing.T) {
	nest := func(open, inner, close string, n int) string {
		return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
	}
	// A template's body and its {{ }} take two levels.
	const exprMax, blockMax = maxDepth - 2, maxDepth - 1
	tests := []struct {
		name string
		max  int
		src  func(n int) string
	}{
		{"parentheses", exprMax, func(n int) string { return "{{ " + nest("(", "x", ")", n) + " }}" }},
		{"lists", exprMax, func(n int) string { return "{{ " + nest("[", "x", "]", n) + " }}" }},
		{"dicts", exprMax, func(n int) string { return "{{ " + nest("{1: ", "x", "}", n) + " }}" }},
		{"call arguments", exprMax, func(n int) string { return "{{ " + nest("f(", "x", ")", n) + " }}" }},
		{"subscripts", exprMax, func(n int) string { return "{{ " + nest("x[", "x", "]", n) + " }}" }},
		{"not", exprMax, func(n int) string { return "{{ " + strings.Repeat("not ", n) + "x }}" }},
		{"unary minus", exprMax, func(n int) string { return "{{ " + strings.Repeat("- ", n) + "x }}" }},
		{"conditional else", exprMax, func(n int) string { return "{{ " + strings.Repeat("x if y else ", n) + "x }}" }},
		{"conditional chain", exprMax, func(n int) string { return "{{ x" + strings.Repeat(" if y", n) + " }}" }},
		{"attribute chain", exprMax, func(n int) string { return "{{ x" + strings.Repeat(".a", n) + " }}" }},
		{"index chain", exprMax, func(n int) string { return "{{ x" + strings.Repeat("[0]", n) + " }}" }},
		{"call chain", exprMax, func(n int) string { return "{{ x" + strings.Repeat("()", n) + " }}" }},
		{"filter chain", exprMax, func(n int) string { return "{{ x" + strings.Repeat("|f", n) + " }}" }},
		{"test and filters", exprMax - 1, func(n int) string { return "{{ x is y" + strings.Repeat("|f", n) + " }}" }},
		{"test argument", exprMax, func(n int) string { return "{{ x is sameas " + nest("(", "x", ")", n) + " }}" }},
		{"plus chain", exprMax, func(n int) string { return "{{ x" + strings.Repeat(" + x", n) + " }}" }},
		{"concat chain", exprMax, func(n int) string { return "{{ x" + strings.Repeat(" ~ x", n) + " }}" }},
		{"power chain", exprMax, func(n int) string { return "{{ x" + strings.Repeat(" ** x", n) + " }}" }},
		{"and chain", exprMax, func(n int) string { return "{{ x" + strings.Repeat(" and x", n) + " }}" }},
		{"comparison chain", exprMax, func(n int) string { return "{{ x" + strings.Repeat(" < x", n) + " }}" }},
		{"if blocks", blockMax, func(n int) string { return nest("{% if x %}", "", "{% endif %}", n) }},
		{"for blocks", blockMax, func(n int) string { return nest("{% for x in y %}", "", "{% endfor %}", n) }},
		{"set blocks", blockMax, func(n int) string { return nest("{% set x %}", "", "{% endset %}", n) }},
		{"attribute chain in ifs", exprMax - 50, func(n int) string {
			return nest("{% if x %}", "{{ x"+strings.Repeat(".a", n)+" }}", "{% endif %}", 50)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Parse(tt.src(tt.max), Options{}); err != nil {
				t.Errorf("at the limit (%d): %v", tt.max, err)
			}
			for _, n := range []int{tt.max + 1, 100000} {
				_, err := Parse(tt.src(n), Options{})
				if err == nil || err.Error() != "nesting too deep (more than 200 levels)" {
					t.Errorf("%d levels: error %v, want nesting too deep", n, err)
				}
			}
		})
	}
}
