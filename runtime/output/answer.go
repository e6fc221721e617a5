package output

import (
	"strings"
)

// answerStream follows, as an answer arrives, the values it may be giving,
// as the final parse looks for them in the whole text: the fenced blocks,
// the objects or lists of the prose and, for a schema whose top is not an
// object, the text itself. Each is read by its own looseStream, fed once
// per byte, so following an answer costs its length however it is cut.
type answerStream struct {
	text strings.Builder
	// opening holds the bytes that start a value of the prose.
	opening string
	whole   bool // the text itself may be the value

	// candidates are the fenced blocks, the values of the prose and the
	// text, in the order they are tried; live[i] is the index of the first
	// of candidates[i] that has not failed.
	candidates [3][]*candidate
	live       [3]int
	// open are the candidates still being read, which writes feed.
	open []*candidate

	// The scan for fences: next is the offset of the next line to look
	// at; afterValue is set while the line after a fenced value (and a
	// closing fence after it) is not yet known, from the value's end.
	// noBreak is where the search for the line break that ends what is
	// being looked at goes on: the text before it has none.
	fenceNext  int
	afterValue bool
	noBreak    int
	// proseNext is where the scan for the next value of the prose goes on,
	// once no value of the prose is open.
	proseNext int
	// err is why the first candidate that failed cannot be the answer: a
	// candidate that does not fit never will.
	err error
}

// The kinds of candidates, in the order they are tried.
const (
	fenced = iota
	prose
	whole
)

// candidate is one value the answer may be giving.
type candidate struct{ rd *looseStream }

func (c *candidate) done() bool { return c.rd.st == stDone }

func newAnswerStream(s *shape) *answerStream {
	for s.ref != nil {
		s = s.ref
	}
	a := &answerStream{opening: "{["}
	switch {
	case s.types&typeObject != 0 && s.types&typeArray == 0:
		a.opening = "{"
	case s.types&typeArray != 0 && s.types&typeObject == 0:
		a.opening = "["
	}
	if s.types&typeObject == 0 || s.types&^typeObject != 0 {
		a.candidates[whole] = []*candidate{a.start(0)}
	}
	return a
}

// start begins a candidate at offset off of the text, reading what the
// text already holds from there.
func (a *answerStream) start(off int) *candidate {
	c := &candidate{rd: &looseStream{off: off}}
	c.rd.write(a.text.String()[off:])
	if !c.done() {
		a.open = append(a.open, c)
	}
	return c
}

// write appends chunk to the answer.
func (a *answerStream) write(chunk string) {
	if chunk == "" {
		return
	}
	a.text.WriteString(chunk)
	open := a.open[:0]
	for _, c := range a.open {
		c.rd.write(chunk)
		if !c.done() {
			open = append(open, c)
		}
	}
	a.open = open
	a.scanFences()
	a.scanProse()
}

// scanFences finds the fenced blocks that start in the text received, as
// fencedValues does in a whole text.
func (a *answerStream) scanFences() {
	s := a.text.String()
	for {
		fences := a.candidates[fenced]
		if n := len(fences); n > 0 && !fences[n-1].done() {
			return // its value is being read
		}
		if a.afterValue {
			// Skip to the line after the value and its closing fence.
			i, ok := a.lineEnd(s, fences[len(fences)-1].rd.root().end)
			if !ok {
				return
			}
			t := strings.TrimLeft(s[i:], " ")
			if len(t) < 3 && !strings.Contains(t, "\n") {
				return // may yet be a fence
			}
			if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
				if i, ok = a.lineEnd(s, i); !ok {
					return
				}
			}
			a.fenceNext, a.afterValue = i, false
		}
		line := a.fenceNext
		next, ok := a.lineEnd(s, line)
		if !ok {
			return
		}
		a.fenceNext = next
		t := strings.TrimLeft(s[line:a.fenceNext], " ")
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			a.candidates[fenced] = append(a.candidates[fenced], a.start(a.fenceNext))
			a.afterValue = true
		}
	}
}

// lineEnd returns the offset after the line break that ends the line of
// s holding offset i, and false when s does not hold it yet. The search
// goes on where the last one that failed stopped, so that a long line
// received in small chunks is searched once.
func (a *answerStream) lineEnd(s string, i int) (int, bool) {
	from := max(i, a.noBreak)
	nl := strings.IndexByte(s[from:], '\n')
	if nl < 0 {
		a.noBreak = len(s)
		return 0, false
	}
	a.noBreak = 0
	return from + nl + 1, true
}

// scanProse finds the objects and lists that open in the text received
// outside the values of the prose read before them, as proseValues does.
func (a *answerStream) scanProse() {
	s := a.text.String()
	for {
		if n := len(a.candidates[prose]); n > 0 {
			last := a.candidates[prose][n-1]
			if !last.done() {
				return
			}
			a.proseNext = max(a.proseNext, last.rd.root().end)
		}
		j := strings.IndexAny(s[a.proseNext:], a.opening)
		if j < 0 {
			a.proseNext = len(s)
			return
		}
		a.candidates[prose] = append(a.candidates[prose], a.start(a.proseNext+j))
		a.proseNext += j + 1
	}
}

// partial returns what is known of the first candidate that fits shape s
// so far: a fenced block, else a value of the prose, else the text. A
// candidate that does not fit never will, and is not tried again. With
// none that fits, the error is the first failure's.
func (a *answerStream) partial(r *partialReader, s *shape) (*known, error) {
	textEnd := a.text.Len()
	for kind, list := range a.candidates {
		for ; a.live[kind] < len(list); a.live[kind]++ {
			n := list[a.live[kind]].rd.root()
			if n == nil {
				break // begun, but nothing read yet
			}
			k, err := r.partial(n, s, "", textEnd)
			if err == nil {
				return k, nil
			}
			if a.err == nil {
				a.err = err
			}
		}
	}
	return nil, a.err
}
