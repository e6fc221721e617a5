package gen

import (
	"context"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestResolveOrder generates two sets of many templates (root spaces,
// types, a namespace of two segments, names of one length, versions; one
// set with a default_template and one without), and runs
// testdata/setrun/order_test.go.txt against them: for every combination
// of a grid of keys, root spaces, types, versions and default names, as
// options of the constructor, of Switch and of the call, the generated
// resolver must choose the template, step, tried paths and error that a
// plain walk of DESIGN §4's chain over the set's paths chooses.
func TestResolveOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles generated code")
	}
	in := t.TempDir()
	var paths [2][]string
	for i, set := range []string{"order", "bare"} {
		var yaml strings.Builder
		yaml.WriteString("templates:\n")
		paths[i] = orderTree(&yaml, set)
		if set == "order" {
			yaml.WriteString("default_template: \"default_template\"\n")
		}
		writeFile(t, filepath.Join(in, set, "promptset.yaml"), []byte(yaml.String()))
	}
	mod := newTempModule(t)
	out := filepath.Join(mod, "orderset")
	res, err := Generate(context.Background(), Config{Dir: in, Out: out, Pkg: "orderset", ImportPath: "pgtest/orderset"})
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	writeResult(t, out, res)
	writeFile(t, filepath.Join(out, "paths_test.go"), fmt.Appendf(nil,
		"package orderset_test\n\nvar orderPaths = %#v\n\nvar barePaths = %#v\n", paths[0], paths[1]))
	copyFile(t, "testdata/setrun/order_test.go.txt", filepath.Join(out, "order_test.go"))
	goCmd(t, mod, "test", "-count=1", "./orderset")
}

// orderTree writes the templates: of a set to b, nested as namespaces, and
// returns their paths: most of the names default, A, B, Ab (three of one
// length) in versions none, v1, v2, in each namespace of a product of root
// spaces and types, so that every step of the chain finds a template for
// some settings and misses for others. Which are left out depends on the
// set's name.
func orderTree(b *strings.Builder, set string) []string {
	var paths []string
	for _, ns := range []string{"", "main", "alt", "r1", "r1/main", "r1/alt", "r2/main", "r1/x/main"} {
		for _, name := range []string{"default", "A", "B", "Ab"} {
			for _, v := range []string{"", ".v1", ".v2"} {
				p := strings.TrimPrefix(ns+"/"+name+v, "/")
				h := fnv.New32a()
				h.Write([]byte(set + p))
				if h.Sum32()%3 != 0 {
					paths = append(paths, p)
				}
			}
		}
	}
	writeNamespace(b, "  ", "", paths)
	return paths
}

// writeNamespace writes the templates of paths in namespace ns and its
// namespaces, at indent.
func writeNamespace(b *strings.Builder, indent, ns string, paths []string) {
	var subs []string
	for _, p := range paths {
		rest, ok := strings.CutPrefix(p, ns)
		if !ok {
			continue
		}
		if seg, _, nested := strings.Cut(rest, "/"); nested {
			if !slices.Contains(subs, seg) {
				subs = append(subs, seg)
			}
			continue
		}
		fmt.Fprintf(b, "%s%s: %q\n", indent, rest, p)
	}
	for _, seg := range subs {
		fmt.Fprintf(b, "%s%s:\n", indent, seg)
		writeNamespace(b, indent+"  ", ns+seg+"/", paths)
	}
}
