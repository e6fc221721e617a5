package bind

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"
)

// TestJSONFields checks which fields are keys of a struct's JSON form, as
// encoding/json decides: two fields tagged with one key are neither
// (go vet reports them, so the render tests cannot hold them), a tagged
// field wins over an untagged one, and a key encoding/json does not accept
// leaves the Go name.
func TestJSONFields(t *testing.T) {
	const src = "package p\n\ntype T struct {\n" +
		"\tA string `json:\"x\"`\n" +
		"\tB string `json:\"x\"`\n" +
		"\tName string\n" +
		"\tOther string `json:\"Name\"`\n" +
		"\tOdd string `json:\"o\\\"dd\"`\n" +
		"\tSkip string `json:\"-\"`\n" +
		"\thidden string\n" +
		"\tDash string `json:\"-,\"`\n" +
		"}\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := pkg.Scope().Lookup("T").Type().Underlying().(*types.Struct)
	var got []string
	for _, i := range jsonFields(st) {
		tag, _ := jsonTag(st.Tag(i))
		got = append(got, st.Field(i).Name()+"="+tag.key)
	}
	if want := []string{"Other=Name", "Odd=", "Dash=-"}; !slices.Equal(got, want) {
		t.Errorf("jsonFields = %v, want %v", got, want)
	}
}
