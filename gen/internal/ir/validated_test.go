package ir

import "testing"

// TestValidated checks which struct types a passed Validate shows
// complete: those it reaches through objects and lists of objects, not
// those a value may also reach through a map, a list of lists, a Go type
// or a chat field.
func TestValidated(t *testing.T) {
	obj := func(fields ...*Field) *Type { return &Type{Kind: KindStruct, Fields: fields} }
	field := func(key string, ft *Type) *Field { return &Field{Key: key, Type: ft} }
	list := func(elem *Type) *Type { return &Type{Kind: KindList, Elem: elem} }
	str := &Type{Kind: KindString}

	nested, item, inMap, deep, shared, inGo, inChat := obj(field("a", str)), obj(field("b", str)), obj(field("c", str)),
		obj(field("d", str)), obj(field("e", str)), obj(field("f", str)), obj(field("g", str))
	goType := obj(field("x", inGo))
	goType.Go = &GoType{Path: "example.com/crm", Name: "History"}
	chatField := field("messages", list(inChat))
	chatField.Chat = true
	optional := field("opt", nested)
	optional.Optional = true
	feed := obj(field("name", str), optional, field("items", list(item)),
		field("m", &Type{Kind: KindMap, Elem: inMap}), field("rows", list(list(deep))),
		field("s1", shared), field("s2", &Type{Kind: KindMap, Elem: shared}),
		field("h", goType), chatField)

	got := Validated(feed)
	for _, tc := range []struct {
		name string
		t    *Type
		want bool
	}{
		{"feed", feed, true},
		{"optional object", nested, true},
		{"list item", item, true},
		{"map value", inMap, false},
		{"list of lists", deep, false},
		{"object also a map value", shared, false},
		{"Go type", goType, false},
		{"field of a Go type", inGo, false},
		{"chat field", inChat, false},
	} {
		if got[tc.t] != tc.want {
			t.Errorf("%s: validated %v, want %v", tc.name, got[tc.t], tc.want)
		}
	}
}
