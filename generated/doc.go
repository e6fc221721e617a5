// Package generated is promptgen's output for prompts/, checked in.
package generated

//go:generate go run ../cmd/promptgen generate -in ../prompts -out .
