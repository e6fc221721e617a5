package check

import (
	"maps"
	"slices"
	"testing"

	"github.com/promptgen/promptgen/gen/internal/ir"
)

// TestFilterTable: the checker has a row for every filter whose parameters
// ir.FilterParams lists (the backends implement those), and no other.
func TestFilterTable(t *testing.T) {
	got, want := slices.Sorted(maps.Keys(filters)), slices.Sorted(maps.Keys(ir.FilterParams))
	if !slices.Equal(got, want) {
		t.Errorf("filters: %v\nir.FilterParams: %v", got, want)
	}
	for name, def := range filters {
		if n := len(ir.FilterParams[name]); len(def.args) > n {
			t.Errorf("filter %s: %d argument kinds for %d parameters", name, len(def.args), n)
		}
		if def.typed == nil && def.dyn == nil {
			t.Errorf("filter %s: neither typed nor dynamic", name)
		}
	}
}
