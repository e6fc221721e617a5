package runtime

import (
	"errors"
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
