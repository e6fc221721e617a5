package tmpl

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestSpanScratch(t *testing.T) {
	data, err := os.ReadFile("/tmp/jw/spans.txt")
	if err != nil {
		t.Skip()
	}
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		src := strings.ReplaceAll(strings.ReplaceAll(line, `\n`, "\n"), `\r`, "\r")
		tp, err := Parse(src, Options{})
		if err != nil {
			fmt.Println("ERR", err)
			continue
		}
		var got []string
		walk(tp.Body, func(l string, s Span) { got = append(got, l+" "+src[s.Start:s.End]) })
		fmt.Printf("\t{%q, []string{%s}},\n", src, strings.Trim(fmt.Sprintf("%q", got), "[]"))
	}
}
