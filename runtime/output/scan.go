package output

// scanStatus is how scanning a JSON value ended.
type scanStatus uint8

const (
	scanOK        scanStatus = iota
	scanSyntax               // an invalid byte
	scanTruncated            // the input ended inside the value
)

// scanValue scans the JSON value that starts at s[i]. On success it returns
// the offset just past the value; on a syntax error, the offset of the
// offending byte; when s ends inside the value, len(s). It accepts exactly
// what encoding/json accepts (FuzzScanValue checks it against json.Valid),
// does not recurse and allocates only for nesting deeper than 32.
func scanValue(s string, i int) (int, scanStatus) {
	var buf [32]byte
	stack := buf[:0] // the open containers: '{' or '['
	for {
		// A value is expected at i.
		i = skipSpace(s, i)
		if i == len(s) {
			return i, scanTruncated
		}
		switch c := s[i]; {
		case c == '{' || c == '[':
			i = skipSpace(s, i+1)
			if i == len(s) {
				return i, scanTruncated
			}
			if s[i] == c+2 { // '}' and ']' follow '{' and '[' two bytes later
				i++
				break
			}
			stack = append(stack, c)
			if c == '{' {
				var st scanStatus
				if i, st = scanKey(s, i); st != scanOK {
					return i, st
				}
			}
			continue
		case c == '"':
			var st scanStatus
			if i, st = scanString(s, i); st != scanOK {
				return i, st
			}
		case c == '-' || '0' <= c && c <= '9':
			var st scanStatus
			if i, st = scanNumber(s, i); st != scanOK {
				return i, st
			}
		case c == 't':
			if i, st := scanLiteral(s, i, "true"); st != scanOK {
				return i, st
			}
			i += 4
		case c == 'f':
			if i, st := scanLiteral(s, i, "false"); st != scanOK {
				return i, st
			}
			i += 5
		case c == 'n':
			if i, st := scanLiteral(s, i, "null"); st != scanOK {
				return i, st
			}
			i += 4
		default:
			return i, scanSyntax
		}
		// A value ended at i: close containers until one needs another member.
		for {
			if len(stack) == 0 {
				return i, scanOK
			}
			i = skipSpace(s, i)
			if i == len(s) {
				return i, scanTruncated
			}
			open := stack[len(stack)-1]
			if s[i] == open+2 {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if s[i] != ',' {
				return i, scanSyntax
			}
			i++
			if open == '{' {
				var st scanStatus
				if i, st = scanKey(s, skipSpace(s, i)); st != scanOK {
					return i, st
				}
			}
			break
		}
	}
}

// scanKey scans an object key and its colon, starting at s[i].
func scanKey(s string, i int) (int, scanStatus) {
	if i == len(s) {
		return i, scanTruncated
	}
	if s[i] != '"' {
		return i, scanSyntax
	}
	i, st := scanString(s, i)
	if st != scanOK {
		return i, st
	}
	i = skipSpace(s, i)
	switch {
	case i == len(s):
		return i, scanTruncated
	case s[i] != ':':
		return i, scanSyntax
	}
	return i + 1, scanOK
}

// scanString scans the string whose opening quote is s[i]. Like
// encoding/json, it accepts invalid UTF-8 but no control characters.
func scanString(s string, i int) (int, scanStatus) {
	for i++; i < len(s); i++ {
		for i < len(s) && plain[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		switch c := s[i]; {
		case c == '"':
			return i + 1, scanOK
		case c < 0x20:
			return i, scanSyntax
		case c == '\\':
			i++
			if i == len(s) {
				return i, scanTruncated
			}
			switch s[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for range 4 {
					i++
					if i == len(s) {
						return i, scanTruncated
					}
					if !isHex(s[i]) {
						return i, scanSyntax
					}
				}
			default:
				return i, scanSyntax
			}
		}
	}
	return i, scanTruncated
}

// plain marks the bytes that stand for themselves in a JSON string.
var plain = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\'
	}
	return t
}()

// scanNumber scans -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? at s[i].
func scanNumber(s string, i int) (int, scanStatus) {
	if s[i] == '-' {
		i++
	}
	switch {
	case i == len(s):
		return i, scanTruncated
	case s[i] == '0':
		i++
	case '1' <= s[i] && s[i] <= '9':
		i = skipDigits(s, i)
	default:
		return i, scanSyntax
	}
	if i < len(s) && s[i] == '.' {
		var st scanStatus
		if i, st = digits(s, i+1); st != scanOK {
			return i, st
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		return digits(s, i)
	}
	return i, scanOK
}

// digits scans one or more digits at s[i].
func digits(s string, i int) (int, scanStatus) {
	switch {
	case i == len(s):
		return i, scanTruncated
	case s[i] < '0' || s[i] > '9':
		return i, scanSyntax
	}
	return skipDigits(s, i), scanOK
}

func skipDigits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// scanLiteral checks that s holds lit at i; on failure it returns the
// offset of the first differing byte.
func scanLiteral(s string, i int, lit string) (int, scanStatus) {
	for j := range len(lit) {
		switch {
		case i+j == len(s):
			return i + j, scanTruncated
		case s[i+j] != lit[j]:
			return i + j, scanSyntax
		}
	}
	return i, scanOK
}

// skipSpace skips JSON whitespace.
func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t') {
		i++
	}
	return i
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
