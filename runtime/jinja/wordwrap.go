package jinja

import (
	"strings"
	"unicode"

	"github.com/promptgen/promptgen/runtime"
)

// Wordwrap is Jinja2's wordwrap filter: each line of s (str.splitlines)
// wrapped by Python's textwrap.wrap(line, width, expand_tabs=False,
// replace_whitespace=False, break_long_words, break_on_hyphens), and every
// wrapped line joined with wrapstring. It fails as Python does on a width
// below 1, and with ErrTooLarge past runtime.MaxOutput.
func Wordwrap(s string, width int, breakLongWords bool, wrapstring string, breakOnHyphens bool) (string, error) {
	var paragraphs []string
	size := 0
	for _, line := range SplitLines(s, false) {
		if width <= 0 {
			return "", errInvalid("invalid width %d (must be > 0)", width)
		}
		lines := wrapChunks(splitChunks([]rune(line), breakOnHyphens), width, breakLongWords, breakOnHyphens)
		for _, l := range lines {
			size += len(l)
		}
		if size += (len(lines) + 1) * len(wrapstring); size > runtime.MaxOutput {
			return "", &runtime.Error{Err: runtime.ErrTooLarge}
		}
		// An empty line wraps to no line, and joins as an empty paragraph.
		paragraphs = append(paragraphs, strings.Join(lines, wrapstring))
	}
	return strings.Join(paragraphs, wrapstring), nil
}

// isWrapSpace is textwrap's whitespace: ASCII only.
func isWrapSpace(r rune) bool { return strings.ContainsRune("\t\n\v\f\r ", r) }

// isWordChar is Python's \w: a letter, a number or _.
func isWordChar(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) }

// isLetterChar is textwrap's letter, [^\d\W]: \w but a decimal digit.
func isLetterChar(r rune) bool { return isWordChar(r) && !unicode.Is(unicode.Nd, r) }

// isWordPunct is textwrap's word_punct, [\w!"'&.,?].
func isWordPunct(r rune) bool { return isWordChar(r) || strings.ContainsRune(`!"'&.,?`, r) }

// splitChunks is textwrap's _split of t: whitespace runs and words, a
// word broken after its hyphens and before an em-dash where
// breakOnHyphens (wordsep_re), else at whitespace only.
func splitChunks(t []rune, breakOnHyphens bool) [][]rune {
	var chunks [][]rune
	for i := 0; i < len(t); {
		n := wordsepMatch(t, i, breakOnHyphens)
		chunks = append(chunks, t[i:i+n])
		i += n
	}
	return chunks
}

// wordsepMatch is the length of the chunk at t[i:], as wordsep_re (or
// wordsep_simple_re) matches it there.
func wordsepMatch(t []rune, i int, breakOnHyphens bool) int {
	at := func(j int) rune {
		if j < 0 || j >= len(t) {
			return -1
		}
		return t[j]
	}
	// dashesThenWord reports whether t[j:] is two or more dashes, then a \w.
	dashesThenWord := func(j int) bool {
		k := j
		for at(k) == '-' {
			k++
		}
		return k-j >= 2 && at(k) >= 0 && isWordChar(at(k))
	}
	if isWrapSpace(t[i]) {
		j := i
		for j < len(t) && isWrapSpace(t[j]) {
			j++
		}
		return j - i
	}
	if !breakOnHyphens {
		j := i
		for j < len(t) && !isWrapSpace(t[j]) {
			j++
		}
		return j - i
	}
	if i > 0 && isWordPunct(t[i-1]) && dashesThenWord(i) {
		j := i
		for at(j) == '-' {
			j++
		}
		return j - i // an em-dash between words
	}
	letter := func(j int) bool { return at(j) >= 0 && isLetterChar(at(j)) }
	for k := i + 1; k <= len(t); k++ { // t[i:k], the lazy nws+?
		if isWrapSpace(t[k-1]) {
			break
		}
		// A hyphenated word: t[i:k] then '-', after two letters or
		// letter-letter, before letter[-]letter.
		if at(k) == '-' && (letter(k-2) && letter(k-1) || letter(k-3) && at(k-2) == '-' && letter(k-1)) &&
			letter(k+1) && (letter(k+2) || at(k+2) == '-' && letter(k+3)) {
			return k + 1 - i
		}
		if k == len(t) || isWrapSpace(t[k]) {
			return k - i // the end of a word
		}
		if isWordPunct(t[k-1]) && dashesThenWord(k) {
			return k - i // before an em-dash
		}
	}
	return 1 // not reached: a word ends at whitespace or the end
}

// wrapChunks is textwrap's _wrap_chunks with no indents and
// drop_whitespace: the lines of at most width characters.
func wrapChunks(chunks [][]rune, width int, breakLongWords, breakOnHyphens bool) []string {
	var lines []string
	// rev holds the chunks left, the next one last.
	rev := make([][]rune, len(chunks))
	for i, c := range chunks {
		rev[len(chunks)-1-i] = c
	}
	isBlank := func(c []rune) bool { return StripSpace(string(c), true, true) == "" }
	for len(rev) > 0 {
		var cur [][]rune
		curLen := 0
		if isBlank(rev[len(rev)-1]) && len(lines) > 0 {
			rev = rev[:len(rev)-1]
		}
		for len(rev) > 0 && curLen+len(rev[len(rev)-1]) <= width {
			cur = append(cur, rev[len(rev)-1])
			curLen += len(rev[len(rev)-1])
			rev = rev[:len(rev)-1]
		}
		if len(rev) > 0 && len(rev[len(rev)-1]) > width {
			cur, rev = handleLongWord(rev, cur, curLen, width, breakLongWords, breakOnHyphens)
		}
		if len(cur) > 0 && isBlank(cur[len(cur)-1]) {
			cur = cur[:len(cur)-1]
		}
		if len(cur) > 0 {
			var b strings.Builder
			for _, c := range cur {
				b.WriteString(string(c))
			}
			lines = append(lines, b.String())
		}
	}
	return lines
}

// handleLongWord is textwrap's _handle_long_word: the next chunk, longer
// than width, broken (after its last hyphen that fits, with
// breakOnHyphens) or put on a line of its own.
func handleLongWord(rev, cur [][]rune, curLen, width int, breakLongWords, breakOnHyphens bool) ([][]rune, [][]rune) {
	spaceLeft := 1
	if width >= 1 {
		spaceLeft = width - curLen
	}
	chunk := rev[len(rev)-1]
	switch {
	case breakLongWords:
		end := spaceLeft
		if breakOnHyphens && len(chunk) > spaceLeft {
			hyphen := -1
			for j := min(spaceLeft, len(chunk)) - 1; j >= 0; j-- {
				if chunk[j] == '-' {
					hyphen = j
					break
				}
			}
			if hyphen > 0 && strings.Trim(string(chunk[:hyphen]), "-") != "" {
				end = hyphen + 1
			}
		}
		end = max(0, min(end, len(chunk)))
		cur = append(cur, chunk[:end])
		rev[len(rev)-1] = chunk[end:]
	case len(cur) == 0:
		cur = append(cur, chunk)
		rev = rev[:len(rev)-1]
	}
	return cur, rev
}
