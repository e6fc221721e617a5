// Package promptcheck checks prompt files and lowers them to IR
// (Prompt). A prompt file has several templates that render with one
// feed: its template, or its sections (each with a `when`), or its
// messages (content, name, tool calls), and a system template. Each is
// parsed and checked by one check.Checker, so that they share the feed's
// inference; around them it checks what only a prompt file has: the feed
// of `inputs: chat`, sections' `when` and `truncate: items` loops,
// -strict, unused inputs and `variables: allowed`. A local set to values
// of two types makes it check the prompt again with that local dynamic.
//
// It checks the templates through check (NewChecker, Finish) and imports
// ir, src, tmpl, diag and types. check must not import it, nor setcheck,
// which checks template sets the same way.
package promptcheck
