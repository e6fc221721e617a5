package runtime

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Section is one section of a sectioned prompt, as rendered.
type Section struct {
	Name string // the section's name from the prompt file
	// Text is the title line ("## Title\n", when a title is set) followed
	// by the body, exactly as rendered between the markers.
	Text      string
	Tokens    int  // tokens of Text
	Budget    int  // budget_tokens; 0 means none
	Dropped   int  // loop iterations left out by truncate: items
	Truncated bool // Text was cut (text) or had iterations dropped (items)
}

// Tokenizer counts the tokens of a model's encoding (runtime/tiktoken has
// OpenAI's). Its methods must be safe for concurrent use.
type Tokenizer interface {
	// Count returns the number of tokens of text.
	Count(text string) int
	// Cut returns the longest prefix of text that holds at most n tokens
	// and ends on a token boundary; "" when n <= 0.
	Cut(text string, n int) string
}

// A SplittingTokenizer is a Tokenizer that knows offsets where its counts
// add up, so that BuildSection counts each part of a section once while it
// drops iterations (runtime/tiktoken's encodings are). Any Tokenizer works
// without it.
type SplittingTokenizer interface {
	Tokenizer
	// SplitsAt reports whether, for every x and y,
	// Count(x+text+y) == Count(x+text[:i]) + Count(text[i:]+y). false is
	// always a correct answer.
	SplitsAt(text string, i int) bool
}

// Truncate is what BuildSection does with a section over its budget.
type Truncate uint8

const (
	// TruncateError: a *BudgetError.
	TruncateError Truncate = iota
	// TruncateText: cut the text, ending it with "…".
	TruncateText
	// TruncateItems: drop trailing iterations of the section's outer loop.
	TruncateItems
)

// SectionInput is what BuildSection needs of a rendered section.
type SectionInput struct {
	Name, Title, Body string
	Budget            int
	Truncate          Truncate
	// Markers: the prompt wraps sections in markers, so look-alikes in
	// Title and Body are escaped (EscapeMarkers).
	Markers bool
	// Loop, for TruncateItems: Loop[0] is the byte offset in Body where the
	// outermost for loop starts, Loop[i] (i >= 1) where iteration i ends;
	// len(Loop)-1 iterations.
	Loop []int
}

// ErrOverBudget is the cause of every *BudgetError, for errors.Is.
var ErrOverBudget = errors.New("section over its token budget")

// BudgetError reports a section that does not fit its budget. Tokens is
// the count of the least text the section's truncate mode could make:
// the whole text for TruncateError, the title line and "…" for
// TruncateText, the text with every iteration dropped for TruncateItems.
type BudgetError struct {
	Section        string
	Tokens, Budget int
}

func (e *BudgetError) Error() string {
	return "section " + strconv.Quote(e.Section) + ": " + strconv.Itoa(e.Tokens) + " tokens, over its budget of " + strconv.Itoa(e.Budget)
}

// Unwrap returns ErrOverBudget.
func (e *BudgetError) Unwrap() error { return ErrOverBudget }

const (
	ellipsis    = "…"
	beginMarker = "<!-- BEGIN: "
	endMarker   = "<!-- END: "
	markerClose = " -->"
)

// BuildSection makes a rendered section's Text, counts its tokens and
// holds it to its budget, as the package documentation describes.
func BuildSection(tok Tokenizer, in SectionInput) (Section, error) {
	if err := in.check(tok); err != nil {
		return Section{}, err
	}
	title := ""
	if in.Title != "" {
		title = "## " + in.Title + "\n"
	}
	// Title and body are escaped together, so that a look-alike across
	// them is found too; the offsets (the title's end and the loop's) are
	// kept in the joined text.
	offsets := make([]int, 0, 1+len(in.Loop))
	offsets = append(offsets, len(title))
	for _, o := range in.Loop {
		offsets = append(offsets, len(title)+o)
	}
	text := title + in.Body
	if in.Markers {
		text, offsets = escapeMarkers(text, offsets)
	}
	titleLen, loop := offsets[0], offsets[1:]

	s := Section{Name: in.Name, Budget: in.Budget}
	if in.Budget > 0 && in.Truncate == TruncateItems && len(loop) > 1 {
		return truncateItems(tok, s, text, loop)
	}
	s.Text = text[:titleLen] + strings.TrimRight(text[titleLen:], "\n")
	s.Tokens = tok.Count(s.Text)
	if in.Budget == 0 || s.Tokens <= in.Budget {
		return s, nil
	}
	if in.Truncate == TruncateText {
		return truncateText(tok, s, titleLen)
	}
	return Section{}, &BudgetError{Section: s.Name, Tokens: s.Tokens, Budget: s.Budget}
}

// check reports what BuildSection cannot work with.
func (in *SectionInput) check(tok Tokenizer) error {
	var msg string
	switch {
	case tok == nil:
		msg = "no tokenizer"
	case !isIdentifier(in.Name):
		msg = "the name is not an identifier"
	case in.Budget < 0:
		msg = "negative budget " + strconv.Itoa(in.Budget)
	case in.Truncate > TruncateItems:
		msg = "unknown truncate mode " + strconv.Itoa(int(in.Truncate))
	case in.Truncate == TruncateItems && !loopFits(in.Loop, len(in.Body)):
		msg = fmt.Sprintf("loop offsets %v do not fit a body of %d bytes", in.Loop, len(in.Body))
	default:
		return nil
	}
	return errors.New("section " + strconv.Quote(in.Name) + ": " + msg)
}

// loopFits reports whether loop's offsets go forward within a body of n bytes.
func loopFits(loop []int, n int) bool {
	prev := 0
	for _, o := range loop {
		if o < prev || o > n {
			return false
		}
		prev = o
	}
	return true
}

// isIdentifier reports whether s is a section name: ASCII letters, digits
// and '_', not starting with a digit. A name is written into marker lines.
func isIdentifier(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// truncateText cuts s.Text, which is over budget, to the longest prefix
// that Cut gives for the budget less the tokens of "…", and ends it with
// "…"; while that is over (the ellipsis can tokenize with what precedes
// it), it cuts shorter. It never cuts into the title line, the first
// titleLen bytes.
func truncateText(tok Tokenizer, s Section, titleLen int) (Section, error) {
	n := s.Budget - tok.Count(ellipsis)
	for {
		prefix := tok.Cut(s.Text, n)
		if len(prefix) < titleLen {
			prefix = s.Text[:titleLen]
		}
		text := prefix + ellipsis
		tokens := tok.Count(text)
		if tokens <= s.Budget {
			s.Text, s.Tokens, s.Truncated = text, tokens, true
			return s, nil
		}
		if len(prefix) == titleLen {
			return Section{}, &BudgetError{Section: s.Name, Tokens: tokens, Budget: s.Budget}
		}
		n -= tokens - s.Budget
	}
}

// truncateItems keeps the iterations of text's loop that fit s.Budget.
// text is the escaped title line and body; loop its offsets in text, with
// at least one iteration.
//
// Counting every candidate would cost the whole section again for each
// one. Instead the parts of the text (the text before the loop, then each
// iteration) are counted apart, in order and only as far as the budget
// goes, each with the newlines that start the next one and without its
// own ("\n\n" is one token). A candidate is the parts before its last
// kept one, and that part with the note and the text after the loop, which
// are counted again together. With a SplittingTokenizer the parts join
// where counts add up, and a part is counted in two, at the last such
// offset in it, so that a candidate recounts that last line only and its
// count is exact: k is the most iterations that fit. Otherwise the count
// is an estimate; the text it chooses is then counted exactly, and k steps
// down while it is over.
func truncateItems(tok Tokenizer, s Section, text string, loop []int) (Section, error) {
	n := len(loop) - 1
	var splits func(text string, i int) bool
	if st, ok := tok.(SplittingTokenizer); ok {
		splits = st.SplitsAt
	}
	after := strings.TrimRight(text[loop[n]:], "\n")
	afterNewlines := leadingNewlines(after)
	// after is counted apart from its first offset where counts add up,
	// or whole with each candidate's last part; without a
	// SplittingTokenizer, from past its leading newlines, an estimate.
	afterSplit, exact := afterNewlines, afterNewlines == len(after)
	if splits != nil {
		afterSplit, exact = len(after), true
		for i := 1; i < len(after); i++ {
			if splits(after, i) {
				afterSplit = i
				break
			}
		}
	}
	afterTokens := tok.Count(after[afterSplit:])
	// Part p is the text before the loop (p = 0) or iteration p-1, from
	// start(p) (past its leading newlines) to start(p+1); its own text ends
	// at loop[p].
	start := func(p int) int {
		switch p {
		case 0:
			return 0
		case n + 1:
			return loop[n] + afterNewlines
		}
		return loop[p-1] + leadingNewlines(text[loop[p-1]:loop[p]])
	}
	// mid is the last offset in the part's own text where counts add up,
	// or its start; lead the tokens before it, tokens the whole part's.
	type part struct{ mid, lead, tokens int }
	var parts []part
	exactParts := 0 // the parts that start where counts add up
	countPart := func() {
		p := len(parts)
		from, end := start(p), loop[p]
		joined := p == 0
		if !joined && splits != nil {
			prev := parts[p-1].mid
			joined = splits(text[prev:end], from-prev)
		}
		if joined && exactParts == p {
			exactParts++
		}
		mid, lead := from, 0
		for i := end - 1; splits != nil && i > from; i-- {
			if splits(text[from:end], i-from) {
				mid, lead = i, tok.Count(text[from:i])
				break
			}
		}
		parts = append(parts, part{mid, lead, lead + tok.Count(text[mid:start(p+1)])})
	}
	// tokens counts the text with k iterations kept (exactly when
	// exactParts > k and exact), from sum, the tokens of the parts before
	// part k.
	tokens := func(k, sum int) int {
		note, end := "", loop[k]
		if k < n {
			note = noteLine(text, loop, k)
		} else if after == "" {
			end = len(strings.TrimRight(text[:end], "\n"))
		}
		last := parts[k]
		if end < loop[k] {
			// The text drops the newlines that end the loop, which the
			// last part's offsets were checked with: count that part
			// again from its start, where it must still join.
			from, prev := min(start(k), end), parts[k-1].mid
			if splits != nil && (loop[k-1] > end || from == end || !splits(text[prev:end], from-prev)) {
				return tok.Count(itemsText(text, loop, k))
			}
			return sum + tok.Count(text[from:end])
		}
		return sum + last.lead + tok.Count(text[last.mid:end]+note+after[:afterSplit]) + afterTokens
	}
	countPart()
	sum := parts[0].tokens + afterTokens // the estimate of the parts
	k := 0
	for ; k < n; k++ {
		countPart()
		if sum+parts[k+1].tokens > s.Budget {
			break
		}
		sum += parts[k+1].tokens
	}
	sum -= afterTokens + parts[k].tokens // now of the parts before part k
	count := tokens(k, sum)
	stepped := false
	for count > s.Budget && k > 0 {
		k--
		sum -= parts[k].tokens
		count, stepped = tokens(k, sum), true
	}
	if exact && exactParts > k {
		for !stepped && k < n {
			if len(parts) == k+1 {
				countPart()
			}
			if exactParts <= k+1 {
				break
			}
			next := tokens(k+1, sum+parts[k].tokens)
			if next > s.Budget {
				break
			}
			sum += parts[k].tokens
			k, count = k+1, next
		}
		if count > s.Budget {
			return Section{}, &BudgetError{Section: s.Name, Tokens: count, Budget: s.Budget}
		}
		s.Text, s.Tokens, s.Dropped, s.Truncated = itemsText(text, loop, k), count, n-k, k < n
		return s, nil
	}
	for {
		kept := itemsText(text, loop, k)
		count := tok.Count(kept)
		if count <= s.Budget {
			s.Text, s.Tokens, s.Dropped, s.Truncated = kept, count, n-k, k < n
			return s, nil
		}
		if k == 0 {
			return Section{}, &BudgetError{Section: s.Name, Tokens: count, Budget: s.Budget}
		}
		k--
	}
}

// leadingNewlines returns the number of "\n" characters s starts with.
func leadingNewlines(s string) int {
	return len(s) - len(strings.TrimLeft(s, "\n"))
}

// itemsText is the section's Text with the first k iterations of loop kept
// and the note line in place of the others.
func itemsText(text string, loop []int, k int) string {
	n := len(loop) - 1
	if k == n {
		return strings.TrimRight(text, "\n")
	}
	after := strings.TrimRight(text[loop[n]:], "\n")
	return text[:loop[k]] + noteLine(text, loop, k) + after
}

// noteLine is what replaces the iterations after the first k: the line
// "<indent>... and N more", with a newline before it unless the kept text
// ends one (or is empty), and one after it unless nothing follows.
func noteLine(text string, loop []int, k int) string {
	n := len(loop) - 1
	kept, after := text[:loop[k]], strings.TrimRight(text[loop[n]:], "\n")
	first := strings.TrimLeft(text[loop[0]:loop[1]], "\n")
	indent := first[:len(first)-len(strings.TrimLeft(first, " \t"))]
	var b strings.Builder
	if kept != "" && !strings.HasSuffix(kept, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(indent)
	b.WriteString("... and ")
	b.WriteString(strconv.Itoa(n - k))
	b.WriteString(" more")
	if after != "" {
		b.WriteByte('\n')
	}
	return b.String()
}

// AppendPrompt appends the assembled prompt to dst: the head and the
// sections' blocks, as the package documentation describes. With markers,
// the head and the sections' texts are escaped (EscapeMarkers; a text that
// BuildSection built with Markers has nothing left to escape), and each
// section's Name must be an identifier, as BuildSection checks.
func AppendPrompt(dst []byte, head string, sections []Section, markers bool) []byte {
	head = strings.TrimRight(head, "\n")
	size := len(head) + 1
	for _, s := range sections {
		size += 2 + len(s.Text)
		if markers {
			size += len(beginMarker) + len(endMarker) + 2*(len(s.Name)+len(markerClose)+1)
		}
	}
	dst = slices.Grow(dst, size)
	if markers {
		dst = appendEscaped(dst, head)
	} else {
		dst = append(dst, head...)
	}
	for i, s := range sections {
		if i > 0 || head != "" {
			dst = append(dst, "\n\n"...)
		}
		if !markers {
			dst = append(dst, s.Text...)
			continue
		}
		dst = append(dst, beginMarker...)
		dst = append(dst, s.Name...)
		dst = append(dst, markerClose+"\n"...)
		dst = appendEscaped(dst, s.Text)
		dst = append(dst, "\n"+endMarker...)
		dst = append(dst, s.Name...)
		dst = append(dst, markerClose...)
	}
	return append(dst, '\n')
}

// EscapeMarkers returns s with every marker look-alike neutralised: a
// backslash goes between the "<" and the "!" of each "<!--" that is
// followed by optional ASCII whitespace and then "BEGIN" or "END" in any
// case ("<!-- END: task -->" becomes "<\!-- END: task -->", which markdown
// shows as the original). Every marker line ParseSections accepts is such
// a look-alike, so escaped text can neither open nor close a section, and
// joining escaped texts on line boundaries makes no new look-alike. The
// escape is not undone: it is what the model sees. EscapeMarkers returns
// s itself when there is nothing to escape, and escaping twice is escaping
// once.
func EscapeMarkers(s string) string {
	if nextLookAlike(s, 0) < 0 {
		return s
	}
	return string(appendEscaped(nil, s))
}

// appendEscaped appends EscapeMarkers(s) to dst.
func appendEscaped(dst []byte, s string) []byte {
	from := 0
	for i := nextLookAlike(s, 0); i >= 0; i = nextLookAlike(s, i+1) {
		dst = append(dst, s[from:i+1]...)
		dst = append(dst, '\\')
		from = i + 1
	}
	return append(dst, s[from:]...)
}

// escapeMarkers returns EscapeMarkers(s), and offsets (byte offsets in s,
// in order) moved to the same places in the escaped text. An offset
// between the "<" and the "!" of a look-alike stays before the backslash.
func escapeMarkers(s string, offsets []int) (string, []int) {
	var at []int // where a backslash goes, in s
	for i := nextLookAlike(s, 0); i >= 0; i = nextLookAlike(s, i+1) {
		at = append(at, i+1)
	}
	if at == nil {
		return s, offsets
	}
	moved := make([]int, len(offsets))
	for j, o := range offsets {
		moved[j] = o + sort.SearchInts(at, o)
	}
	return string(appendEscaped(make([]byte, 0, len(s)+len(at)), s)), moved
}

// nextLookAlike returns the index of the first marker look-alike in s at
// or after from, or -1.
func nextLookAlike(s string, from int) int {
	for from < len(s) {
		i := strings.Index(s[from:], "<!--")
		if i < 0 {
			return -1
		}
		if isLookAlike(s[from+i:]) {
			return from + i
		}
		from += i + 1
	}
	return -1
}

// isLookAlike reports whether s starts with "<!--", optional ASCII
// whitespace, and "begin" or "end" in any case.
func isLookAlike(s string) bool {
	if !strings.HasPrefix(s, "<!--") {
		return false
	}
	rest := strings.TrimLeft(s[4:], " \t\n\r\v\f")
	return hasPrefixFold(rest, "begin") || hasPrefixFold(rest, "end")
}

// hasPrefixFold reports whether s starts with the lower-case ASCII word
// prefix, in any case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if s[i]|0x20 != prefix[i] {
			return false
		}
	}
	return true
}

// ParseSections reads the sections of a prompt that AppendPrompt rendered
// with markers, or of a log that holds one (text around it is ignored), in
// order. Each has its Name and its Text exactly as rendered; the other
// fields are zero. A marker is a line that is exactly
// "<!-- BEGIN: name -->" or "<!-- END: name -->" with name an identifier.
// A line that only looks like one ("<!--", optional whitespace, BEGIN or
// END in any case, "-->" at its end, once the line's surrounding
// whitespace is trimmed: an indented marker, one with other spacing or
// case, or a "\r\n" line ending) is an error, and so are unbalanced,
// nested, mismatched and repeated markers: errors start with "line N: ".
func ParseSections(log string) ([]Section, error) {
	var sections []Section
	first := map[string]int{} // the BEGIN line of each section seen
	open, openLine, textStart := "", 0, 0
	line := 0
	for start := 0; start <= len(log); {
		end := strings.IndexByte(log[start:], '\n')
		if end < 0 {
			end = len(log)
		} else {
			end += start
		}
		line++
		begin, name, err := parseMarker(log[start:end], line)
		switch {
		case err != nil:
			return nil, err
		case name == "":
		case begin && open != "":
			return nil, fmt.Errorf("line %d: BEGIN of section %q inside section %q (line %d): sections do not nest", line, name, open, openLine)
		case begin && first[name] > 0:
			return nil, fmt.Errorf("line %d: section %q again (first at line %d)", line, name, first[name])
		case begin:
			open, openLine, textStart = name, line, end+1
			first[name] = line
		case open == "":
			return nil, fmt.Errorf("line %d: END of section %q without a BEGIN", line, name)
		case name != open:
			return nil, fmt.Errorf("line %d: END of section %q in section %q (line %d)", line, name, open, openLine)
		default:
			text := ""
			if start > textStart { // a BEGIN line right before: no text line
				text = log[textStart : start-1]
			}
			sections = append(sections, Section{Name: name, Text: text})
			open = ""
		}
		start = end + 1
	}
	if open != "" {
		return nil, fmt.Errorf("line %d: section %q has no END", openLine, open)
	}
	return sections, nil
}

// parseMarker returns the section name of a marker line and whether it
// begins the section; name is "" for a line that is no marker, and err is
// set for one that only looks like one.
func parseMarker(l string, line int) (begin bool, name string, err error) {
	if rest, ok := strings.CutPrefix(l, beginMarker); ok {
		name, begin = strings.TrimSuffix(rest, markerClose), true
	} else if rest, ok := strings.CutPrefix(l, endMarker); ok {
		name = strings.TrimSuffix(rest, markerClose)
	}
	if name != "" && strings.HasSuffix(l, markerClose) && isIdentifier(name) {
		return begin, name, nil
	}
	trimmed := strings.Trim(l, " \t\n\r\v\f")
	if !isLookAlike(trimmed) || !strings.HasSuffix(trimmed, "-->") {
		return false, "", nil
	}
	if len(l) > 100 {
		cut := 100
		for cut > 0 && !utf8.RuneStart(l[cut]) {
			cut--
		}
		l = l[:cut] + "..."
	}
	return false, "", fmt.Errorf(`line %d: malformed section marker %q (a marker is "<!-- BEGIN: name -->" or "<!-- END: name -->" alone on its line, name an identifier)`, line, l)
}
