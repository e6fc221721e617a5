package tiktoken

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/promptgen/promptgen/runtime/internal/lossy"
)

// The pre-tokenizer splits text into the pieces that byte-pair encoding
// then merges, exactly as tiktoken's regular expression for the encoding
// does, but by a scanner that reads each rune a bounded number of times
// (the Go code tiktoken-go generated for the expressions reads a
// whitespace run once per line break in it).
//
// o200k_base's expression, with U = [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] and
// W = [\p{Ll}\p{Lm}\p{Lo}\p{M}], is
//
//	[^\r\n\p{L}\p{N}]?U*W+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?U+W*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// and cl100k_base's is
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}
//	| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// At each position the first alternative that matches wins, each
// quantifier taking as much as it can and giving back only what the rest
// needs; every rune starts some alternative, so the pieces cover the text.
// \s is unicode.IsSpace and the classes are the unicode package's.

// class is the set of the expressions' character classes a rune is in.
type class uint8

const (
	upper   class = 1 << iota // U: Lu, Lt, Lm, Lo or M
	lower                     // W: Ll, Lm, Lo or M
	letter                    // \p{L}
	number                    // \p{N}
	space                     // \s
	newline                   // \r or \n
	symbol                    // [^\s\p{L}\p{N}]: punctuation, symbols, marks, controls
)

// narrowClasses holds the class of each rune of one or two bytes in UTF-8
// (Latin, Greek, Cyrillic, Hebrew, Arabic and more), and runeErrorClass
// that of U+FFFD, which each invalid byte is read as.
var (
	narrowClasses = func() (t [0x800]class) {
		for r := range rune(len(t)) {
			t[r] = classify(r)
		}
		return t
	}()
	runeErrorClass = classify(utf8.RuneError)
)

// multiByte marks, in byteClasses, a byte that starts or continues a
// rune of several bytes: no class has it.
const multiByte class = 1 << 7

// byteClasses holds the class of each byte that is a rune alone in
// marked text (lossy.Marked): ASCII, and the marker, U+FFFD; the others
// are multiByte. Random bytes are mostly those two, in random order, and
// one table read takes no branch on which.
var byteClasses = func() (t [256]class) {
	for b := range t {
		switch {
		case b < utf8.RuneSelf:
			t[b] = narrowClasses[b]
		case b == lossy.Marker:
			t[b] = runeErrorClass
		default:
			t[b] = multiByte
		}
	}
	return t
}()

// classify returns the class of r by its general category, with a table
// search or two for most runes: the categories are disjoint. Four blocks
// of one category each, 3 runes in 4 of those of 3 bytes in UTF-8, are
// told by their ranges first: random bytes hold such runes at random,
// classified at each read, and the searches (four for a rune in Lo)
// mispredicted their branches.
func classify(r rune) class {
	switch {
	case 0x3400 <= r && r <= 0x4DBF, 0x4E00 <= r && r <= 0x9FFF, 0xAC00 <= r && r <= 0xD7A3:
		return upper | lower | letter // Lo: CJK ideographs, Hangul syllables
	case 0xE000 <= r && r <= 0xF8FF:
		return symbol // Co: private use
	case unicode.IsLetter(r):
		switch {
		case unicode.IsUpper(r) || unicode.IsTitle(r):
			return upper | letter
		case unicode.IsLower(r):
			return lower | letter
		default: // Lm or Lo
			return upper | lower | letter
		}
	case unicode.Is(unicode.M, r):
		return upper | lower | symbol
	case unicode.IsNumber(r):
		return number
	case r == '\r' || r == '\n':
		return space | newline
	case unicode.IsSpace(r):
		return space
	default:
		return symbol
	}
}

// prefix reports whether c, the class of a rune, is in [^\r\n\p{L}\p{N}],
// the class of the rune that may lead a word.
func (c class) prefix() bool { return c&(newline|letter|number) == 0 }

// at returns the class and the size of the rune at i, or 0, 0 at the end
// of text. text is marked or valid UTF-8; a byte that starts no rune, as
// the marker, reads as U+FFFD.
func at(text string, i int) (class, int) {
	if i >= len(text) {
		return 0, 0
	}
	if c := byteClasses[text[i]]; c != multiByte {
		return c, 1
	}
	r, size := utf8.DecodeRuneInString(text[i:])
	switch {
	case r < rune(len(narrowClasses)):
		return narrowClasses[r], size
	case r == utf8.RuneError:
		return runeErrorClass, size
	}
	return classify(r), size
}

// run returns the end of the run of runes from i whose class has a bit of
// want.
func run(text string, i int, want class) int {
	for i < len(text) {
		// at is not inlined: ASCII and U+FFFD, most runes of ordinary
		// text and of random bytes, are read here
		c, size := byteClasses[text[i]], 1
		if c == multiByte {
			c, size = at(text, i)
		}
		if c&want == 0 {
			return i
		}
		i += size
	}
	return i
}

// splitter returns the end of the piece that starts at i < len(text).
type splitter func(text string, i int) int

// splitO200k is o200k_base's expression.
func splitO200k(text string, i int) int {
	c, size := at(text, i)
	if c.prefix() {
		// The rune after the prefix is read once: a rune in neither U nor
		// W starts no U*W+ and no U+.
		next, _ := at(text, i+size)
		if next&(upper|lower) != 0 {
			if end, ok := upperLower(text, i+size); ok {
				return contraction(text, end)
			}
		}
		if c&(upper|lower) != 0 {
			if end, ok := upperLower(text, i); ok {
				return contraction(text, end)
			}
		}
		if next&upper != 0 {
			return contraction(text, run(text, run(text, i+size, upper), lower))
		}
	} else if c&(upper|lower) != 0 {
		if end, ok := upperLower(text, i); ok {
			return contraction(text, end)
		}
	}
	if c&upper != 0 {
		return contraction(text, run(text, run(text, i, upper), lower))
	}
	return splitCommon(text, i, c, size, true)
}

// upperLower matches U*W+ from i: the run of U, then the run of W after it,
// or, when none follows, the run of U given back up to its last rune in W.
func upperLower(text string, i int) (end int, ok bool) {
	lastLower := -1
	for {
		c, size := at(text, i)
		if c&upper == 0 {
			if c&lower != 0 {
				return run(text, i, lower), true
			}
			return lastLower, lastLower >= 0
		}
		i += size
		if c&lower != 0 {
			lastLower = i
		}
	}
}

// splitCl100k is cl100k_base's expression.
func splitCl100k(text string, i int) int {
	if end := contraction(text, i); end > i {
		return end
	}
	c, size := at(text, i)
	if c.prefix() {
		if next, _ := at(text, i+size); next&letter != 0 {
			return run(text, i+size, letter)
		}
	}
	if c&letter != 0 {
		return run(text, i, letter)
	}
	return splitCommon(text, i, c, size, false)
}

// splitCommon matches the alternatives both expressions end with, from
// \p{N}{1,3} on, at i, where the rune has class c and size bytes; slash
// adds '/' to the line breaks after punctuation (o200k_base).
func splitCommon(text string, i int, c class, size int, slash bool) int {
	if c&number != 0 {
		for range 3 {
			c, size := at(text, i)
			if c&number == 0 {
				break
			}
			i += size
		}
		return i
	}
	first, next := c, i+size
	if text[i] == ' ' {
		first, size = at(text, i+1)
		next = i + 1 + size
	}
	if first&symbol != 0 {
		end := run(text, next, symbol)
		for end < len(text) && (text[end] == '\r' || text[end] == '\n' || slash && text[end] == '/') {
			end++
		}
		return end
	}
	// \s*[\r\n]+ ends after the run's last line break; \s+(?!\S) gives
	// back the run's last rune unless the text ends there; \s+ takes a
	// single space.
	lastNewline, last, end := -1, i, i
	for {
		c, size := at(text, end)
		if c&space == 0 {
			break
		}
		last = end
		end += size
		if c&newline != 0 {
			lastNewline = end
		}
	}
	switch {
	case lastNewline >= 0:
		return lastNewline
	case end == len(text) || last == i:
		return end
	default:
		return last
	}
}

// contraction returns the end of (?i:'s|'t|'re|'ve|'m|'ll|'d) at i, or i
// if there is none. The case-insensitive s is also 'ſ' (U+017F), as in
// tiktoken's and regexp2's case folding.
func contraction(text string, i int) int {
	if i >= len(text) || text[i] != '\'' {
		return i
	}
	rest := text[i+1:]
	if strings.HasPrefix(rest, "ſ") {
		return i + 1 + len("ſ")
	}
	if rest == "" {
		return i
	}
	switch rest[0] | 0x20 {
	case 's', 't', 'm', 'd':
		return i + 2
	case 'r', 'v':
		if len(rest) >= 2 && rest[1]|0x20 == 'e' {
			return i + 3
		}
	case 'l':
		if len(rest) >= 2 && rest[1]|0x20 == 'l' {
			return i + 3
		}
	}
	return i
}

// splitsAt reports whether both expressions end a piece at i in every text
// that holds text, whatever precedes and follows it: text[i-1] is a line
// break, and the whitespace from i holds none and ends in text on a whole
// rune, not a '/' right after the line break. Then the piece that holds
// the line break ends at i (\s*[\r\n]+ takes a run up to its last line
// break, and the line breaks after punctuation stop at i), no piece
// before it reads past the line break but those two, and a piece from i
// reads text from i on only.
func splitsAt(text string, i int) bool {
	if i <= 0 || i >= len(text) || text[i-1] != '\n' && text[i-1] != '\r' {
		return false
	}
	for j := i; utf8.FullRuneInString(text[j:]); {
		c, size := at(text, j)
		switch {
		case c&space == 0:
			return j > i || text[j] != '/'
		case c&newline != 0:
			return false
		}
		j += size
	}
	return false
}
