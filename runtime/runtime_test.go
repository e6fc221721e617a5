package runtime

import (
	"errors"
	"reflect"
	"testing"
)

func TestNest(t *testing.T) {
	missing := func(v string) error { return &Error{Prompt: "p", Pos: "p.yaml:1:2", Var: v, Err: ErrMissing} }
	inner := errors.Join(missing("id"), Nest(errors.Join(missing("city")), "address"))
	err := errors.Join(missing("name"), Nest(inner, "orders[2]"), errors.New("other"))
	want := `p.yaml:1:2: render p: "name": required variable is not set
p.yaml:1:2: render p: "orders[2].id": required variable is not set
p.yaml:1:2: render p: "orders[2].address.city": required variable is not set
other`
	if err.Error() != want {
		t.Errorf("got\n%s\nwant\n%s", err, want)
	}
	if !errors.Is(err, ErrMissing) {
		t.Error("errors.Is(err, ErrMissing) is false")
	}
	var e *Error
	if !errors.As(Nest(missing("x"), "a"), &e) || e.Var != "a.x" {
		t.Errorf("Nest of one *Error: %v", e)
	}
	if orig := missing("x").(*Error); Nest(orig, "a") == error(orig) || orig.Var != "x" {
		t.Error("Nest changed its argument")
	}
}

func TestProblems(t *testing.T) {
	var none Problems
	none.Nested(nil, "address")
	none.Item(nil, "orders", 0)
	if err := none.Err(); err != nil {
		t.Errorf("no problem recorded: %v", err)
	}
	var inner Problems
	inner.Missing("p", "p.yaml:5:6", "city")
	var v Problems
	v.Missing("p", "p.yaml:1:2", "name")
	v.Nested(inner.Err(), "address")
	v.Item(inner.Err(), "orders", 2)
	want := `p.yaml:1:2: render p: "name": required variable is not set
p.yaml:5:6: render p: "address.city": required variable is not set
p.yaml:5:6: render p: "orders[2].city": required variable is not set`
	if err := v.Err(); err == nil || err.Error() != want || !errors.Is(err, ErrMissing) {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

func TestErrorDetail(t *testing.T) {
	err := error(&Error{Prompt: "p", Pos: "p.yaml:3:4", Err: ErrInvalid, Detail: "division by zero"})
	if want := "p.yaml:3:4: render p: invalid operation: division by zero"; err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
	if !errors.Is(err, ErrInvalid) {
		t.Error("errors.Is(err, ErrInvalid) is false")
	}
}

func TestRequestOptions(t *testing.T) {
	base := func() Request {
		return Request{Prompt: "p", Parameters: map[string]any{"temperature": 0.6, "max_tokens": 500}}
	}
	tests := []struct {
		name  string
		model string // the prompt's
		opts  []RequestOption
		want  Request
	}{
		{name: "defaults", model: "m", want: Request{Prompt: "p", Model: "m", Parameters: map[string]any{"temperature": 0.6, "max_tokens": 500}}},
		{name: "default model when the prompt names none", opts: []RequestOption{WithDefaultModel("d")},
			want: Request{Prompt: "p", Model: "d", Parameters: map[string]any{"temperature": 0.6, "max_tokens": 500}}},
		{name: "the prompt's model wins over the default", model: "m", opts: []RequestOption{WithDefaultModel("d")},
			want: Request{Prompt: "p", Model: "m", Parameters: map[string]any{"temperature": 0.6, "max_tokens": 500}}},
		{name: "WithModel wins over the prompt's", model: "m", opts: []RequestOption{WithModel("o"), WithDefaultModel("d")},
			want: Request{Prompt: "p", Model: "o", Parameters: map[string]any{"temperature": 0.6, "max_tokens": 500}}},
		{
			name: "typed parameters override, nil removes",
			opts: []RequestOption{Temperature(0), MaxTokens(100), TopP(0.9), Stop("\n\n", "END"), WithParameter("seed", 7), WithParameter("max_tokens", nil)},
			want: Request{Prompt: "p", Parameters: map[string]any{"temperature": 0.0, "top_p": 0.9, "stop": []string{"\n\n", "END"}, "seed": 7}},
		},
		{
			name: "extra parameters are apart from parameters",
			opts: []RequestOption{WithExtraParameter("thinking", map[string]any{"type": "enabled"}), WithExtraParameter("service_tier", "flex"),
				WithExtraParameter("service_tier", nil), WithParameter("thinking", nil)},
			want: Request{Prompt: "p", Parameters: map[string]any{"temperature": 0.6, "max_tokens": 500},
				ExtraParameters: map[string]any{"thinking": map[string]any{"type": "enabled"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := base()
			r.Model = tt.model
			for _, o := range tt.opts {
				o(&r)
			}
			if !reflect.DeepEqual(r, tt.want) {
				t.Errorf("got %#v\nwant %#v", r, tt.want)
			}
		})
	}
	var r Request
	WithParameter("k", 1)(&r)
	if r.Parameters["k"] != 1 {
		t.Errorf("WithParameter on a nil map: %v", r.Parameters)
	}
	stop := []string{"a"}
	Stop(stop...)(&r)
	stop[0] = "changed"
	if got := r.Parameters["stop"].([]string)[0]; got != "a" {
		t.Errorf("Stop kept the caller's slice: %q", got)
	}
}
