package jinja

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// JSONWriter writes one JSON value the way the Jinja2 tojson filter does:
// htmlsafe_json_dumps(value, sort_keys=True, indent=indent), that is
// json.dumps with ensure_ascii, ", " and ": " separators (",", ": " and a
// newline plus indent per level when indenting, with empty containers kept
// as [] and {}), and <, >, & and ' escaped as \u003c, \u003e, \u0026 and
// \u0027. The caller writes object members in sorted key order, calling Key
// before each member value. The zero value writes without indentation.
// Nesting up to 32 levels deep does not allocate.
type JSONWriter struct {
	indent    int
	hasIndent bool
	afterKey  bool // the next value is a member value and needs no separator
	depth     int  // number of open containers
	indented  int  // bytes of indentation written
	tooLarge  bool // the indentation would pass runtime.MaxOutput
	// nonEmpty reports for each open container whether it has a member.
	nonEmpty [32]bool
	deeper   []bool // nonEmpty for containers beyond len(nonEmpty)
	// transformers: strings as transformers' tojson writes them (see
	// NewTransformersJSONWriter), and keys in insertion order.
	transformers bool
	ensureASCII  bool // with transformers: tojson(ensure_ascii=True)
}

// NewJSONWriter returns a writer for tojson(indent=indent), or for tojson
// without indent (Python's indent=None) when hasIndent is false. As in
// Python, an indent of 0 or less still puts each member on its own line.
func NewJSONWriter(indent int, hasIndent bool) JSONWriter {
	return JSONWriter{indent: indent, hasIndent: hasIndent}
}

// NewTransformersJSONWriter returns a writer for the tojson filter of
// Hugging Face transformers' chat templates, json.dumps(value,
// ensure_ascii=False, indent=indent, sort_keys=False): as NewJSONWriter's,
// but strings keep their non-ASCII characters and DEL as they are, <, >, &
// and ' are not escaped, and the caller writes object members in insertion
// order (SortKeys is false).
func NewTransformersJSONWriter(indent int, hasIndent bool) JSONWriter {
	return JSONWriter{indent: indent, hasIndent: hasIndent, transformers: true}
}

// NewTransformersASCIIJSONWriter returns a writer for the tojson filter of
// transformers' chat templates called with ensure_ascii=True: as
// NewTransformersJSONWriter's, but strings escape what is not printable
// ASCII as NewJSONWriter's do (not <, >, & and ').
func NewTransformersASCIIJSONWriter(indent int, hasIndent bool) JSONWriter {
	return JSONWriter{indent: indent, hasIndent: hasIndent, transformers: true, ensureASCII: true}
}

// Value writes v, a dynamic value, as tojson writes it: its dicts' keys
// sorted, or in insertion order for transformers. Where v is or holds what
// JSON cannot (undefined, a method, an iterator), it returns Python's
// error.
func (w *JSONWriter) Value(dst []byte, v Value) ([]byte, error) {
	return v.writeJSON(dst, w, w.transformers)
}

// SortKeys reports whether the caller writes object members sorted by key
// (Jinja2's tojson), not in insertion order (transformers').
func (w *JSONWriter) SortKeys() bool { return !w.transformers }

// TooLarge reports whether the indentation written would have made the
// output longer than runtime.MaxOutput, which Python cannot print either;
// the writer then leaves it out, and the output is not tojson's.
func (w *JSONWriter) TooLarge() bool { return w.tooLarge }

// OpenObject starts a JSON object, like Python's json.dumps of a dict.
func (w *JSONWriter) OpenObject(dst []byte) []byte {
	dst = w.beginValue(dst)
	w.push()
	return append(dst, '{')
}

// Key starts the member with key k in the open object, writing what
// json.dumps writes before a dict value: the item separator, k as a JSON
// string (see String) and ": ".
func (w *JSONWriter) Key(dst []byte, k string) []byte {
	dst = w.beginMember(dst)
	dst = w.appendString(dst, k)
	w.afterKey = true
	return append(dst, ':', ' ')
}

// CloseObject ends the open object; as in json.dumps, the closing brace
// goes on its own line when indenting, unless the object is empty.
func (w *JSONWriter) CloseObject(dst []byte) []byte {
	return append(w.pop(dst), '}')
}

// OpenArray starts a JSON array, like Python's json.dumps of a list.
func (w *JSONWriter) OpenArray(dst []byte) []byte {
	dst = w.beginValue(dst)
	w.push()
	return append(dst, '[')
}

// CloseArray ends the open array; as in json.dumps, the closing bracket
// goes on its own line when indenting, unless the array is empty.
func (w *JSONWriter) CloseArray(dst []byte) []byte {
	return append(w.pop(dst), ']')
}

// String writes s as json.dumps does with ensure_ascii: \" \\ \n \r \t \b \f
// escapes, \u00XX for other control characters and DEL, \uXXXX for non-ASCII
// (a surrogate pair beyond the BMP), lower-case hex, plus tojson's \u003c,
// \u003e, \u0026 and \u0027. Invalid UTF-8 bytes are written as \ufffd.
func (w *JSONWriter) String(dst []byte, s string) []byte {
	return w.appendString(w.beginValue(dst), s)
}

func (w *JSONWriter) appendString(dst []byte, s string) []byte {
	switch {
	case w.ensureASCII:
		return appendJSONString(dst, s, &asciiJSONEscapes)
	case w.transformers:
		return appendPlainJSONString(dst, s)
	}
	return appendJSONString(dst, s, &jsonEscapes)
}

// Int writes i as Python's json.dumps of an int.
func (w *JSONWriter) Int(dst []byte, i int64) []byte {
	return strconv.AppendInt(w.beginValue(dst), i, 10)
}

// Float writes f as Python's json.dumps of a float: its repr (see
// AppendFloat), or NaN, Infinity and -Infinity.
func (w *JSONWriter) Float(dst []byte, f float64) []byte {
	dst = w.beginValue(dst)
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	return AppendFloat(dst, f)
}

// Bool writes true or false, as json.dumps does for a Python bool.
func (w *JSONWriter) Bool(dst []byte, b bool) []byte {
	dst = w.beginValue(dst)
	if b {
		return append(dst, "true"...)
	}
	return append(dst, "false"...)
}

// Null writes null, as json.dumps does for None.
func (w *JSONWriter) Null(dst []byte) []byte {
	return append(w.beginValue(dst), "null"...)
}

// beginValue writes what precedes a value: nothing after a key, otherwise
// the separator before an array element.
func (w *JSONWriter) beginValue(dst []byte) []byte {
	if w.afterKey {
		w.afterKey = false
		return dst
	}
	return w.beginMember(dst)
}

// beginMember writes what precedes a member of the open container, if any:
// the item separator unless it is the first member, then a newline and
// indentation when indenting.
func (w *JSONWriter) beginMember(dst []byte) []byte {
	if w.depth == 0 {
		return dst
	}
	if nonEmpty := w.state(); *nonEmpty {
		dst = append(dst, ',')
		if !w.hasIndent {
			dst = append(dst, ' ')
		}
	} else {
		*nonEmpty = true
	}
	if w.hasIndent {
		dst = w.newline(dst, w.depth)
	}
	return dst
}

// state returns the nonEmpty flag of the innermost open container.
func (w *JSONWriter) state() *bool {
	if w.depth <= len(w.nonEmpty) {
		return &w.nonEmpty[w.depth-1]
	}
	return &w.deeper[w.depth-1-len(w.nonEmpty)]
}

func (w *JSONWriter) push() {
	w.depth++
	if w.depth > len(w.nonEmpty) {
		w.deeper = append(w.deeper[:w.depth-1-len(w.nonEmpty)], false)
	}
	*w.state() = false
}

// pop closes the innermost container, writing the newline and indentation
// before its closing bracket when it has members and the writer indents.
func (w *JSONWriter) pop(dst []byte) []byte {
	nonEmpty := *w.state()
	w.depth--
	if nonEmpty && w.hasIndent {
		dst = w.newline(dst, w.depth)
	}
	return dst
}

const spaces = "                                                                "

// newline writes a newline and the indentation for the given level; it
// writes no more indentation once the total would pass runtime.MaxOutput.
func (w *JSONWriter) newline(dst []byte, level int) []byte {
	dst = append(dst, '\n')
	if w.tooLarge || !fits(w.indented, level, max(w.indent, 0)) {
		w.tooLarge = true
		return dst
	}
	w.indented += max(w.indent, 0) * level
	for n := max(w.indent, 0) * level; n > 0; {
		k := min(n, len(spaces))
		dst = append(dst, spaces[:k]...)
		n -= k
	}
	return dst
}

// jsonEscapes maps each ASCII byte to its escape sequence in tojson output,
// or "" if it is written as is.
var jsonEscapes = func() (esc [utf8.RuneSelf]string) {
	for c := range esc {
		if c < ' ' || c == 0x7f {
			esc[c] = `\u00` + string(hexDigits[c>>4]) + string(hexDigits[c&0xf])
		}
	}
	esc['"'] = `\"`
	esc['\\'] = `\\`
	esc['\n'] = `\n`
	esc['\r'] = `\r`
	esc['\t'] = `\t`
	esc['\b'] = `\b`
	esc['\f'] = `\f`
	esc['<'] = `\u003c`
	esc['>'] = `\u003e`
	esc['&'] = `\u0026`
	esc['\''] = `\u0027`
	return esc
}()

// asciiJSONEscapes are the escapes of json.dumps with ensure_ascii=True:
// jsonEscapes but for the HTML-safe ones.
var asciiJSONEscapes = func() (esc [utf8.RuneSelf]string) {
	esc = jsonEscapes
	for _, c := range `<>&'` {
		esc[c] = ""
	}
	return esc
}()

// plainJSONEscapes are the escapes of json.dumps with ensure_ascii=False:
// only control characters, " and \.
var plainJSONEscapes = func() (esc [utf8.RuneSelf]string) {
	for c := range esc {
		if c < ' ' || c == '"' || c == '\\' {
			esc[c] = jsonEscapes[c]
		}
	}
	return esc
}()

// appendPlainJSONString writes s as json.dumps(s, ensure_ascii=False) does.
// Invalid UTF-8 bytes are written as U+FFFD.
func appendPlainJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if e := plainJSONEscapes[c]; e != "" {
				dst = append(dst, e...)
			} else {
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		dst = utf8.AppendRune(dst, r) // RuneError for an invalid byte
		i += size
	}
	return append(dst, '"')
}

// appendJSONString writes s as json.dumps(s, ensure_ascii=True) does, with
// the escapes esc of ASCII bytes.
func appendJSONString(dst []byte, s string, esc *[utf8.RuneSelf]string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		// Copy runs that need no escaping in one go.
		j := i
		for j < len(s) && s[j] < utf8.RuneSelf && esc[s[j]] == "" {
			j++
		}
		dst = append(dst, s[i:j]...)
		if i = j; i == len(s) {
			break
		}
		if c := s[i]; c < utf8.RuneSelf {
			dst = append(dst, esc[c]...)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r > 0xffff {
			r -= 0x10000
			dst = appendHex(append(dst, '\\', 'u'), uint32(0xd800+(r>>10)), 4)
			r = 0xdc00 + (r & 0x3ff)
		}
		dst = appendHex(append(dst, '\\', 'u'), uint32(r), 4)
		i += size
	}
	return append(dst, '"')
}
