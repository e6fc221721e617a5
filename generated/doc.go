package generated

//go:generate go run ../cmd/promptgen generate -in ../prompts -out .
