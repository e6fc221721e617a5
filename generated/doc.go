package generated

//go:generate go run ../cmd/promptgen generate -in ../prompts -out .
//go:generate go run ../cmd/promptgen generate -in ../prompts/bench -out internal/ttbench -renderer text/template
