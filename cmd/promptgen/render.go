package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
	"text/template"
	"time"

	"github.com/promptgen/promptgen/gen"
	"github.com/promptgen/promptgen/internal/nolink"
	pgruntime "github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/chat"
	"github.com/promptgen/promptgen/runtime/ttfuncs"
	"github.com/promptgen/promptgen/schema"
)

// runRender implements "promptgen render".
func (a *app) runRender(args []string) int {
	flags := flag.NewFlagSet("render", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	in := flags.String("in", "prompts", "read prompt files from `dir`")
	data := flags.String("data", "", "read the variables from JSON `file` (- for standard input)")
	budget := flags.Bool("budget", false, "print the section budget report of a sectioned prompt to standard error")
	predefined := flags.String("predefined", "", "fill unset variables from the set's predefined variables `P`")
	now := flags.String("now", "", "make strftime_now format the RFC 3339 `time` instead of the current time")
	strict := flags.Bool("strict", false, "fail on keys of -data that the prompt does not read, instead of warning")
	var sf setFlags
	sf.define(flags)
	// Flags may also follow the prompt key.
	var keys []string
	for {
		if err := flags.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				c, _ := lookup("render")
				a.commandHelp(a.stderr, c)
				return exitOK
			}
			return a.usageError("render", "%v", err)
		}
		if flags.NArg() == 0 {
			break
		}
		keys = append(keys, flags.Arg(0))
		args = flags.Args()[1:]
	}
	if len(keys) != 1 {
		return a.usageError("render", "want one prompt key, got %d", len(keys))
	}
	sf.visit(flags)
	var opts []pgruntime.RenderOption
	if *now != "" {
		at, err := time.Parse(time.RFC3339, *now)
		if err != nil {
			return a.usageError("render", "-now wants an RFC 3339 time such as 2026-01-08T09:30:00Z: %v", err)
		}
		opts = append(opts, pgruntime.WithNow(at))
	}
	cfg := gen.Config{Dir: *in}
	if set, rest := gen.SetOf(cfg, keys[0]); set != "" {
		if rest != "" && sf.set["key"] {
			return a.usageError("render", "%s is inside the template set %q: give the key either in it or with -key", keys[0], set)
		}
		if rest != "" {
			*sf.key = rest
		}
		return a.renderSet(cfg, set, &sf, *data, *predefined, *strict)
	}
	for _, name := range append(setFlagNames, "predefined") {
		if sf.set[name] {
			return a.usageError("render", "-%s applies to template sets only, and %q is a prompt", name, keys[0])
		}
	}

	p, diags, err := gen.LoadPreview(cfg, keys[0])
	a.printDiagnostics(diags)
	if err != nil {
		if !diags.HasErrors() { // else err is diags
			a.log.Print(err)
		}
		return exitFail
	}
	feed, ok := a.readFeed(*data, p.Feed, p.Chat, *strict)
	if !ok {
		return exitFail
	}
	if err := chatReady(feed, p.ChatPreview); err != nil {
		return a.printRender(nil, err)
	}
	if p.Sections == nil && *budget {
		return a.usageError("render", "-budget applies to sectioned prompts only, and %q has no sections", keys[0])
	}
	r, err := renderPreview(p, feed.Interface(), opts)
	if err == nil && *budget {
		a.printBudget(r, p.Tokenizer)
	}
	return a.printRender(r.out, err)
}

// rendered is a prompt rendered by renderPreview; a sectioned prompt's
// head and sections are kept for the budget report.
type rendered struct {
	out      []byte
	head     string
	sections []pgruntime.Section
	tok      pgruntime.Tokenizer
}

// renderPreview renders p with feed exactly as its generated Render does
// with opts, once chatReady has.
func renderPreview(p *gen.Preview, feed any, opts []pgruntime.RenderOption) (rendered, error) {
	if p.Sections != nil {
		return renderSections(p, feed)
	}
	t, err := parse(p.Key, p.Source)
	if err != nil {
		return rendered{}, err
	}
	out, err := ttfuncs.ExecuteWith(t, nil, p.Key, p.File, feed, opts)
	return rendered{out: out}, err
}

// chatReady does what the generated Render of a chat template does first
// (emit's chatChecks): it gives the feed the declared tools where its
// data has none, and rejects a special token in the chat context.
func chatReady(feed reflect.Value, c gen.ChatPreview) error {
	if !c.Chat {
		return nil
	}
	if err := declareTools(feed, c.Tools); err != nil {
		return err
	}
	return checkMarkers(feed.Interface(), c.SpecialTokens)
}

// declareTools gives a chat feed whose data has no tools the declared
// ones; the preview's feed holds the context's values as JSON.
func declareTools(feed reflect.Value, tools []pgruntime.Tool) error {
	field := feed.FieldByName("Tools")
	if len(tools) == 0 || !field.IsValid() || field.Len() > 0 {
		return nil
	}
	v, err := chat.Tools(tools)
	if err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	field.SetBytes(b)
	return nil
}

// checkMarkers is the check that the generated Render of a chat template
// makes first: no string of the chat context in feed holds one of the
// model's special tokens (chat.Context.CheckMarkers). Each field of the
// context is taken from feed's field of the same name: decoding the whole
// feed into a chat.Context would give it a variable "Messages" for its
// "messages", as encoding/json ignores the case of keys.
func checkMarkers(feed any, specialTokens []string) error {
	var ctx chat.Context
	fv, cv := reflect.ValueOf(feed), reflect.ValueOf(&ctx).Elem()
	for i := range cv.NumField() {
		b, err := json.Marshal(fv.FieldByName(cv.Type().Field(i).Name).Interface())
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, cv.Field(i).Addr().Interface()); err != nil {
			return err
		}
	}
	return ctx.CheckMarkers(specialTokens...)
}

// internalError is a failure of promptgen itself, such as a translated
// template that does not parse.
type internalError struct{ error }

// parse parses a translated template: promptgen translated it, so a
// failure is promptgen's bug.
func parse(name, source string) (*template.Template, error) {
	t, err := template.New(name).Funcs(ttfuncs.Funcs()).Parse(source)
	if err != nil {
		return nil, internalError{fmt.Errorf("internal error: %s: %v", name, err)}
	}
	return t, nil
}

// renderSet renders the template of set that sf's key resolves to, with
// the predefined variables named predefined ("" for none).
func (a *app) renderSet(cfg gen.Config, set string, sf *setFlags, data, predefined string, strict bool) int {
	sp, diags, err := gen.LoadSetPreview(cfg, set)
	a.printDiagnostics(diags)
	if err != nil {
		if !diags.HasErrors() { // else err is diags
			a.log.Print(err)
		}
		return exitFail
	}
	r := sf.manager(&sp.SetInfo).Resolve(*sf.key)
	if r.Err != nil {
		a.log.Print(r.Err)
		return exitFail
	}
	feed, ok := a.readFeed(data, sp.Feed, sp.Chat, strict)
	if !ok || !a.predefine(sp, predefined, feed) {
		return exitFail
	}
	if err := chatReady(feed, sp.ChatPreview); err != nil {
		return a.printRender(nil, err)
	}
	out, err := renderSetTemplate(sp, r.ID, r.Settings.Version, feed.Interface())
	return a.printRender(out, err)
}

// renderSetTemplate renders template id of sp with feed, and its
// components in version, as the set's generated Render does.
func renderSetTemplate(sp *gen.SetPreview, id int, version string, feed any) ([]byte, error) {
	root := template.New(sp.Key).Funcs(ttfuncs.Funcs())
	for _, b := range append(slices.Clone(sp.Templates), sp.Components...) {
		if _, err := root.New(b.Prompt).Parse(b.Source); err != nil {
			return nil, internalError{fmt.Errorf("internal error: %s: %v", b.Prompt, err)}
		}
	}
	t := sp.Templates[id]
	v := pgruntime.VariantFor(t.Components, t.Versions, version)
	return ttfuncs.ExecuteVariant(root.Lookup(t.Prompt), nil, t.Prompt, t.File, feed, v)
}

// predefine fills the fields of feed that are at their zero value (an
// empty list counts as unset) from the set's predefined variables name, as
// the generated Merge(p, pgruntime.AttributeOnly) does.
func (a *app) predefine(sp *gen.SetPreview, name string, feed reflect.Value) bool {
	if name == "" {
		return true
	}
	var known []string
	for _, p := range sp.Predefined {
		known = append(known, p.Name)
		if p.Name != name {
			continue
		}
		values, err := decodeFeed(p.JSON, sp.Feed, false)
		if err != nil {
			a.log.Printf("internal error: predefined variables %q: %v", name, err)
			return false
		}
		for i := range feed.NumField() {
			f, v := feed.Field(i), values.Field(i)
			if unset(f) && !unset(v) {
				f.Set(v)
			}
		}
		return true
	}
	a.log.Print(&pgruntime.PredefinedError{Set: sp.Key, Name: name, Known: known})
	return false
}

// unset reports whether a feed field is unset for Merge: its zero value,
// or an empty list or map.
func unset(v reflect.Value) bool {
	if k := v.Kind(); k == reflect.Slice || k == reflect.Map {
		return v.Len() == 0
	}
	return v.IsZero()
}

// readFeed reads the JSON of -data file into a new value of type feed,
// logging what is wrong. Keys the feed has no field for, at any depth, are
// warnings (errors when strict): sample data carries more than a prompt
// reads, and encoding/json and Jinja2 ignore it; a chat context's are
// ignored, as apply_chat_template's arguments a template does not read.
func (a *app) readFeed(file string, feed reflect.Type, isChat, strict bool) (reflect.Value, bool) {
	src, name, err := a.readData(file)
	if err != nil {
		a.log.Print(err)
		return reflect.Value{}, false
	}
	v, err := decodeFeed(src, feed, true)
	if err != nil {
		a.log.Printf("%s: %v", name, err)
		return reflect.Value{}, false
	}
	if isChat {
		return v, true
	}
	severity := "warning: "
	if strict {
		severity = ""
	}
	unknown := unknownKeys(src, feed)
	for _, msg := range unknown {
		a.log.Printf("%s: %s%s", name, severity, msg)
	}
	return v, !strict || len(unknown) == 0
}

// unknownKeys lists the keys of the JSON object src that no field of feed
// reads, at any depth, each with its path and a did-you-mean. A key is read
// by a field whose name it matches ignoring case, as encoding/json reads it.
func unknownKeys(src []byte, feed reflect.Type) []string {
	var doc any
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	if dec.Decode(&doc) != nil {
		return nil // decodeFeed reported it
	}
	var msgs []string
	var walk func(v any, t reflect.Type, path string)
	walk = func(v any, t reflect.Type, path string) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Struct:
			obj, _ := v.(map[string]any)
			fields := map[string]reflect.Type{}
			var names []string
			for i := range t.NumField() {
				name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
				fields[strings.ToLower(name)] = t.Field(i).Type
				names = append(names, name)
			}
			for _, key := range slices.Sorted(maps.Keys(obj)) {
				at := key
				if path != "" {
					at = path + "." + key
				}
				ft, ok := fields[strings.ToLower(key)]
				if !ok {
					msgs = append(msgs, fmt.Sprintf("the prompt reads no key %q%s", at, schema.DidYouMean(key, names)))
					continue
				}
				walk(obj[key], ft, at)
			}
		case reflect.Slice, reflect.Array:
			items, _ := v.([]any)
			for i, item := range items {
				walk(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i))
			}
		case reflect.Map:
			obj, _ := v.(map[string]any)
			for _, key := range slices.Sorted(maps.Keys(obj)) {
				walk(obj[key], t.Elem(), path+"."+key)
			}
		}
	}
	walk(doc, feed, "")
	return msgs
}

// printRender writes a rendered prompt, or the render's error.
func (a *app) printRender(out []byte, err error) int {
	var internal internalError
	switch {
	case errors.As(err, &internal):
		a.log.Print(err)
		return exitFail
	case err != nil:
		fmt.Fprintln(a.stderr, err)
		return exitFail
	}
	if _, err := a.stdout.Write(out); err != nil {
		a.log.Print(err)
		return exitFail
	}
	return exitOK
}

// readData returns the JSON of -data and its name for messages.
func (a *app) readData(file string) ([]byte, string, error) {
	switch file {
	case "":
		return []byte("{}"), "data", nil
	case "-":
		b, err := io.ReadAll(a.stdin)
		return b, "stdin", err
	}
	b, err := nolink.ReadFile(file, ".")
	return b, file, err
}

// decodeFeed decodes the JSON object src into a new value of type feed,
// with errors that name the variable at fault. Keys the feed has no field
// for are an error unless ignoreUnknown.
func decodeFeed(src []byte, feed reflect.Type, ignoreUnknown bool) (reflect.Value, error) {
	v := reflect.New(feed)
	dec := json.NewDecoder(bytes.NewReader(src))
	if !ignoreUnknown {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(v.Interface())
	if err == nil && dec.More() {
		err = errors.New("data after the JSON object")
	}
	if err == nil {
		return v.Elem(), nil
	}
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		line, col := lineCol(src, int(syntax.Offset))
		return v, fmt.Errorf("%d:%d: invalid JSON: %s", line, col, strings.TrimPrefix(syntax.Error(), "json: "))
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return v, errors.New("invalid JSON: unexpected end of data")
	case errors.As(err, &typ) && typ.Field == "":
		return v, fmt.Errorf("the data must be a JSON object, not %s", typ.Value)
	case errors.As(err, &typ):
		return v, fmt.Errorf("variable %q must be %s, not %s", typ.Field, kindName(typ.Type), typ.Value)
	}
	if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		name := strings.Trim(field, `"`)
		return v, fmt.Errorf("unknown variable %q%s", name, schema.DidYouMean(name, jsonKeys(feed, nil)))
	}
	return v, err
}

// kindName names a feed type as prompts declare types.
func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int:
		return "an int"
	case reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "a bool"
	case reflect.Slice:
		return "a list"
	}
	return "an object"
}

// jsonKeys lists the JSON keys of struct type t and of the structs in it.
func jsonKeys(t reflect.Type, keys []string) []string {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return keys
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		keys = jsonKeys(f.Type, append(keys, name))
	}
	return keys
}

// lineCol is the position of the last byte the decoder read, at offset off.
func lineCol(src []byte, off int) (line, col int) {
	before := src[:max(0, min(off, len(src))-1)]
	line = bytes.Count(before, []byte("\n")) + 1
	return line, len(before) - bytes.LastIndexByte(before, '\n')
}
