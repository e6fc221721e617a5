package check

import (
	"maps"
	"slices"
	"testing"

	"github.com/promptgen/promptgen/gen/internal/builtins"
	"github.com/promptgen/promptgen/gen/internal/ir"
)

// TestFilterTable: the checker has a row for every filter whose parameters
// ir.FilterParams lists (the backends implement those) and builtins.Filters
// describes, and no other.
func TestFilterTable(t *testing.T) {
	got, want := slices.Sorted(maps.Keys(filters)), slices.Sorted(maps.Keys(ir.FilterParams))
	if !slices.Equal(got, want) {
		t.Errorf("filters: %v\nir.FilterParams: %v", got, want)
	}
	if described := slices.Sorted(maps.Keys(builtins.Filters)); !slices.Equal(described, want) {
		t.Errorf("builtins.Filters: %v\nir.FilterParams: %v", described, want)
	}
	for name, def := range filters {
		if n := len(ir.FilterParams[name]); len(builtins.Filters[name].Args) > n {
			t.Errorf("filter %s: %d argument kinds for %d parameters", name, len(builtins.Filters[name].Args), n)
		}
		if def.typed == nil && def.dyn == nil {
			t.Errorf("filter %s: neither typed nor dynamic", name)
		}
	}
}
