// Package idtrack is a port of jinja2/idtracking.py. Jinja2 decides where
// a name is read from per frame (the template, a loop's body, a loop's
// else, a block set's body) before it runs it: a name the frame assigns is
// the frame's local everywhere in the frame, and its first value, until an
// assignment runs, is either undefined, a loop target, or what the name is
// in the enclosing frames (their local, else the template's variable).
// Frame makes that decision exactly as Jinja2 3.1 does, quirks included;
// check enters each frame with the Symbols it computes.
//
// It imports tmpl only, and must not import a stage.
package idtrack
