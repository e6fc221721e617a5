package tmpl

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestErrScratch(t *testing.T) {
	data, err := os.ReadFile("/tmp/jw/errs.txt")
	if err != nil {
		t.Skip()
	}
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		src := strings.ReplaceAll(line, `\n`, "\n")
		_, err := Parse(src, Options{})
		if err == nil {
			fmt.Printf("NOERR %q\n", src)
			continue
		}
		e := err.(*Error)
		fmt.Printf("\t{%s, %s, Span{%d, %d}}, // %q\n", strconv.Quote(src), strconv.Quote(e.Msg), e.Span.Start, e.Span.End, src[e.Span.Start:e.Span.End])
	}
}
