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
	inner.Require(true, "p", "p.yaml:4:6", "street")
	inner.Require(false, "p", "p.yaml:5:6", "city")
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

func TestSizeHintRender(t *testing.T) {
	var h SizeHint
	if buf := h.Buffer(16); len(buf) != 0 || cap(buf) < 16 {
		t.Errorf("Buffer(16) of a new hint: len %d, cap %d", len(buf), cap(buf))
	}
	failed := errors.New("failed")
	if s, err := h.Done([]byte("a partial render, longer than 16 bytes"), failed); s != "" || err != failed {
		t.Errorf("Done on an error = %q, %v; want \"\", the error", s, err)
	}
	if buf := h.Buffer(16); cap(buf) >= 32 {
		t.Errorf("a failed render was observed: Buffer(16) has cap %d", cap(buf))
	}
	out := append(h.Buffer(16), "a render of 36 bytes, longer than 16"...)
	if s, err := h.Done(out, nil); s != string(out) || err != nil {
		t.Errorf("Done = %q, %v; want %q, nil", s, err, out)
	}
	if buf := h.Buffer(16); len(buf) != 0 || cap(buf) < len(out) {
		t.Errorf("Buffer(16) after a render of %d bytes: len %d, cap %d", len(out), len(buf), cap(buf))
	}
}

func TestUserPrompt(t *testing.T) {
	failed := errors.New("failed")
	if msgs, err := UserPrompt("", failed); msgs != nil || err != failed {
		t.Errorf("UserPrompt on an error = %v, %v; want nil, the error", msgs, err)
	}
	msgs, err := UserPrompt("Hello.", nil)
	if want := (Prompt{{Role: RoleUser, Content: "Hello."}}); err != nil || !reflect.DeepEqual(msgs, want) {
		t.Errorf("UserPrompt = %v, %v; want %v, nil", msgs, err, want)
	}
	msgs, err = UserPrompt("", nil)
	if want := (Prompt{{Role: RoleUser}}); !reflect.DeepEqual(msgs, want) || !errors.Is(err, ErrEmptyContent) {
		t.Errorf("UserPrompt of an empty text = %v, %v; want %v, ErrEmptyContent", msgs, err, want)
	}
}
