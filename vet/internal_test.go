package vet

import (
	"reflect"
	"slices"
	"testing"

	"github.com/promptgen/promptgen/generated"
	"github.com/promptgen/promptgen/runtime"
)

// TestSetTagOfGenerated holds the tag that goemit writes to what the set
// does at run time: the same paths, settings and resolutions.
func TestSetTagOfGenerated(t *testing.T) {
	field, ok := reflect.TypeFor[generated.Agent]().FieldByName("m")
	if !ok {
		t.Fatal("generated.Agent has no field m")
	}
	table := parseSetTag(field.Tag.Get("promptgen"))
	if table == nil {
		t.Fatalf("no set in the tag %q", field.Tag)
	}
	agent := generated.NewAgent()
	if !slices.Equal(table.Paths, agent.Paths()) {
		t.Errorf("paths %q, the set has %q", table.Paths, agent.Paths())
	}
	if s := agent.Settings(); table.Type != s.Type || table.DefaultName != s.DefaultName {
		t.Errorf("type %q, default name %q; the set has %+v", table.Type, table.DefaultName, s)
	}
	for _, key := range []string{"", "BrowseLink", "Search", "Nope", "reflection/Review", "action_agent/main/default"} {
		for _, opts := range [][]runtime.Option{nil, {runtime.WithVersion("enterprise")}, {runtime.WithRootSpace("action_agent")}} {
			got, want := table.resolve(key, opts...), agent.Resolve(key, opts...)
			if got.Path != want.Path || got.Level != want.Level || (got.Err == nil) != (want.Err == nil) {
				t.Errorf("%q %v: resolves to %q at %v (err %v), the set to %q at %v (err %v)",
					key, opts, got.Path, got.Level, got.Err, want.Path, want.Level, want.Err)
			}
		}
	}
}

// TestParameterSetters holds parameterSetters to the parameter each of
// runtime's helpers sets.
func TestParameterSetters(t *testing.T) {
	helpers := map[string]runtime.RequestOption{
		"Temperature": runtime.Temperature(1),
		"TopP":        runtime.TopP(1),
		"MaxTokens":   runtime.MaxTokens(1),
	}
	if len(helpers) != len(parameterSetters) {
		t.Fatalf("parameterSetters has %d helpers, the test %d", len(parameterSetters), len(helpers))
	}
	for name, opt := range helpers {
		var r runtime.Request
		opt(&r)
		want, ok := parameterSetters[name]
		if _, set := r.Parameters[want]; !ok || !set || len(r.Parameters) != 1 {
			t.Errorf("runtime.%s sets %v; parameterSetters says %q", name, r.Parameters, want)
		}
	}
}
