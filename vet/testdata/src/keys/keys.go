// Package keys passes keys to a generated template set (prompts/desk:
// default, main/Lookup, main/Lookup.v2, main/default, ops/main/default,
// review/Check).
package keys

import (
	"example.com/app/pg"
	"github.com/promptgen/promptgen/runtime"
)

func known(f pg.DeskFeed, key string, opts []runtime.Option) {
	desk := pg.NewDesk()
	desk.Render("Lookup", f)
	desk.Render(pg.DeskKeyLookup, f)
	desk.Render("Check", f) // a template of the review type, after Switch(runtime.WithType("review"))
	desk.Render(pg.DeskKeyReviewCheck, f)
	desk.Render("Lookup.v2", f) // the versioned path itself
	desk.Render("main/Lookup", f)
	desk.Render("ops/main/default", f)
	desk.Render("", f)        // no anchor action yet: the default
	desk.Render("default", f) // the default name
	desk.Render(key, f)       // keys from variables are known at run time only
	name := "Nope"
	desk.Render(name, f)
	desk.Render("Nope"+key, f)
	desk.Render("Nope", f, opts...) // want `key "Nope" names no template of the desk set: with the set's default settings it falls back to main/default`
}

func unknown(f pg.DeskFeed) {
	desk := pg.NewDesk()
	desk.Render("Lokup", f)             // want `key "Lokup" names no template of the desk set: with the set's default settings it falls back to main/default \(did you mean "Lookup"\?\)`
	desk.AppendRender(nil, "Chek", f)   // want `key "Chek" names no template of the desk set: with the set's default settings it falls back to main/default \(did you mean "Check"\?\)`
	desk.Resolve("lookup")              // want `key "lookup" names no template of the desk set: .* \(did you mean "Lookup"\?\)`
	desk.Variants("Nope", f)            // want `key "Nope" names no template of the desk set: with the set's default settings it falls back to main/default$`
	desk.InferenceConfig("review/Chek") // want `key "review/Chek" names no template of the desk set: with the set's default settings it falls back to default \(did you mean "review/Check"\?\)`
	desk.Render("main/Check", f)        // want `key "main/Check" names no template of the desk set: with the set's default settings it falls back to main/default`
	desk.Render("ops/main/Lookup", f)   // want `key "ops/main/Lookup" names no template of the desk set: with the set's default settings it falls back to ops/main/default \(did you mean "main/Lookup"\?\)`
	const k = "Nope"
	desk.Render(k, f) // want `key "Nope" names no template`

	// The call's constant options apply to the fallback.
	desk.Render("Nope", f, runtime.WithType("review"))                                // want `with the set's default settings and this call's options it falls back to default$`
	desk.Resolve("Nope", runtime.WithRootSpace("ops"))                                // want `with the set's default settings and this call's options it falls back to ops/main/default$`
	desk.Resolve("Nope", runtime.WithType("review"), runtime.WithDefaultName("none")) // want `with the set's default settings and this call's options it resolves to no template$`
}

// notASet has a Render method with a key, but no set table.
type notASet struct{}

func (notASet) Render(key string) string { return key }

func other() {
	notASet{}.Render("Nope")
}

func keyAndFeed() (string, pg.DeskFeed) { return "Nope", pg.DeskFeed{} }

// A set embedded in another type, and arguments forwarded from a call.
type myDesk struct{ *pg.Desk }

func forwarded() {
	d := myDesk{pg.NewDesk()}
	d.Render("Nope", pg.DeskFeed{}) // want `key "Nope" names no template of the desk set`
	d.Render(keyAndFeed())
}

// kiosk (prompts/kiosk: main/Greet and a default_template) resolves every
// key: one that names no template falls back to the system default.
func systemDefault(f pg.KioskFeed) {
	kiosk := pg.NewKiosk()
	kiosk.Render("Greet", f)
	kiosk.Render("Gret", f) // want `key "Gret" names no template of the kiosk set: with the set's default settings it falls back to the system default \(default_template\) \(did you mean "Greet"\?\)`
}
