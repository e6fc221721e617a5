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
		fmt.Fprintln(out, dump(tp.Body))
	}
}
