package tmpl

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestScratch(t *testing.T) {
	data, err := os.ReadFile("/tmp/jw/in.jsonl")
	if err != nil {
		t.Skip()
	}
	var opts Options
	json.Unmarshal([]byte(os.Getenv("OPTS")), &opts)
	out, _ := os.Create("/tmp/jw/go.out")
	defer out.Close()
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" {
			continue
		}
		var src string
		json.Unmarshal([]byte(line), &src)
		tp, err := Parse(src, opts)
		if err != nil {
			fmt.Fprintln(out, "ERR", err)
			continue
		}
		fmt.Fprintln(out, normDump(dump(tp.Body)))
	}
}

// normDump rewrites (is-not ...) to (not (is ...)) and drops empty else.
func normDump(s string) string {
	s = strings.ReplaceAll(s, " (else))", ")")
	for {
		i := strings.Index(s, "(is-not ")
		if i < 0 {
			return s
		}
		depth, j := 0, i
		for ; j < len(s); j++ {
			if s[j] == '"' {
				for j++; s[j] != '"'; j++ {
					if s[j] == '\\' {
						j++
					}
				}
				continue
			}
			if s[j] == '(' {
				depth++
			} else if s[j] == ')' {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		s = s[:i] + "(not (is " + s[i+len("(is-not "):j+1] + ")" + s[j+1:]
	}
}
