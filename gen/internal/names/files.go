package names

import (
	"strings"

	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
)

// PackageFile is the file of what every generated package has once.
const PackageFile = "promptgen.go"

// Files returns the generated file names: PackageFile, then one per
// prompt and one per set, in order. Two keys that make one file name (a/b
// and a_b) are an error at both. base names the file of a set that is the
// prompts directory itself.
func Files(prompts []*ir.Prompt, sets []*ir.PromptSet, base string, diags *diag.Sink) []string {
	fileNames := []string{PackageFile}
	type owner struct {
		key string
		pos src.Pos
	}
	owners := map[string]owner{}
	add := func(name, key string, pos src.Pos) {
		fileNames = append(fileNames, name)
		if o, ok := owners[name]; ok {
			diags.Errorf(pos, "%q and %q (%s) would both be generated into %s: rename one", key, o.key, src.ShortPos(o.pos, pos), name)
			diags.Errorf(o.pos, "%q and %q (%s) would both be generated into %s: rename one", o.key, key, src.ShortPos(pos, o.pos), name)
			return
		}
		owners[name] = owner{key, pos}
	}
	for _, p := range prompts {
		if p.Fragment {
			// fragments/x is x_fragment.go, agent/fragments/x agent_x_fragment.go.
			stem := strings.Replace("/"+p.Key, "/"+ir.FragmentsDir+"/", "/", 1)
			add(FileStem(stem[1:])+"_fragment.go", p.Key, p.Pos)
			continue
		}
		add(FileStem(p.Key)+"_prompt.go", p.Key, p.Pos)
	}
	for _, s := range sets {
		stem := FileStem(s.Key)
		if stem == "" { // the prompts directory is itself the set
			stem = FileStem(base)
		}
		add(stem+"_set.go", s.Key, s.Pos)
	}
	return fileNames
}
