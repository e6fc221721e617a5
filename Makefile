# promptgen's developer commands. `make test` is what CI runs (see .ci/run).

GO ?= go
PYTHON ?= /usr/bin/python3
FUZZTIME ?= 20s
N ?= 20000
SEED ?= 1
CASE ?= -1

.DEFAULT_GOAL := test
.PHONY: generate check test oldest example bench scale fuzz golden difffuzz difffuzz-floors chatcorpus

# Regenerate generated/ from prompts/ and the shipped chat formats (the go:generate lines).
generate:
	$(GO) generate ./generated/... ./runtime/chatformat/models

# Fail, printing a diff, when generated/ is stale.
check:
	$(GO) run ./cmd/promptgen diff -in prompts -out generated
	$(GO) run ./cmd/promptgen diff -in prompts/bench -out generated/internal/ttbench -renderer text/template
	$(GO) run ./cmd/promptgen diff -in runtime/chatformat/models/templates -out runtime/chatformat/models -pkg models

test:
	@unformatted=$$(gofmt -l cmd gen internal runtime schema generated example vet); \
		if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	@pydir=$$(sh .ci/pydeps.sh) && echo "Jinja2 for the tests: $$pydir/python3" && \
		PATH="$$pydir:$$PATH" $(GO) test -race -timeout 30m ./...
	cd runtime/tiktoken/testdata/crosscheck && $(GO) vet ./... && $(GO) test ./...
	$(MAKE) check

# Build the runtime and the generated code, and vet the whole module, with
# the oldest Go it supports (go.mod's go line), which the go command
# downloads through the module proxy: nothing newer may creep in.
oldest:
	GOTOOLCHAIN=go$$(sed -n 's/^go //p' go.mod) $(GO) build ./runtime/... ./generated/...
	GOTOOLCHAIN=go$$(sed -n 's/^go //p' go.mod) $(GO) vet ./...

# Regenerate, then run the example program.
example: generate
	$(GO) run ./example

# Re-render the expected outputs with real Jinja2 (needs python3-jinja2 and
# python3-yaml): the render corpus in gen/testdata/render, the fixtures of
# generated/testdata for the behaviour tests of generated/ and example/ and
# of gen/testdata/headless (prompts without a template key),
# the chat templates, tagged prompts and HTML stripping of runtime/chatformat,
# the chat template corpus of gen/testdata/chat (with its INVENTORY.md), and
# runtime/jinja's Python case tables (casetables.go) and expected values
# (testdata/cases.json), and the expected values of runtime/chat's tests and
# gen's goType and Go filter tests (testdata/want.json, gen/testdata/gotype/want.json,
# gen/testdata/gofilter/want.json).
golden:
	$(PYTHON) gen/testdata/render/golden.py
	$(PYTHON) gen/testdata/render/golden.py --prompts
	$(PYTHON) gen/testdata/render/golden.py --prompts gen/testdata/headless/prompts gen/testdata/headless/fixtures
	$(PYTHON) runtime/chatformat/testdata/golden.py
	$(PYTHON) gen/testdata/chat/render.py
	cd runtime/jinja && $(PYTHON) testdata/gen_casetables.py && $(PYTHON) testdata/gen_cases.py
	$(PYTHON) runtime/chat/testdata/golden.py
	$(PYTHON) gen/testdata/gotype/golden.py
	$(PYTHON) gen/testdata/gofilter/golden.py

# Measure promptgen on the chat template corpus (gen/testdata/chat): print
# per template whether it compiles and how many conversations match Jinja2,
# rewrite gen/testdata/chat/status.json and, from it, INVENTORY.md.
chatcorpus:
	$(GO) test ./gen -run '^TestChatCorpus$$' -count=1 -v -chatcorpus
	$(PYTHON) gen/testdata/chat/render.py

# promptgen on 1,000 prompts: generate time, Go per prompt, and go build
# of the generated package against a hand-written equivalent (issue 28).
scale:
	$(GO) run ./internal/scale

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./generated/ ./runtime/ ./runtime/output/ ./runtime/tiktoken/ ./runtime/hftokenizer/
	cd runtime/tiktoken/testdata/crosscheck && $(GO) test -run '^$$' -bench . -benchmem

# Run the differential fuzzer (internal/difffuzz) for N random prompts
# from SEED against real Jinja2 (needs python3-jinja2); make test runs 1500
# with seed 1. CASE=i runs case i of the seed only; ENABLE=family,... turns
# excluded families on; DUMP=dir writes failing cases and rejection examples.
difffuzz:
	$(GO) test ./internal/difffuzz -run '^TestDiffFuzz$$' -count=1 -timeout 0 -v -difffuzz.n=$(N) -difffuzz.seed=$(SEED) \
		-difffuzz.case=$(CASE) -difffuzz.enable='$(ENABLE)' -difffuzz.dump='$(DUMP)'

# Record the floor of the accepted share of each differential fuzzer
# family (internal/difffuzz/floors.go) at make test's seed and N, in
# internal/difffuzz/testdata/floors.json; review the diff before committing.
difffuzz-floors:
	$(GO) test ./internal/difffuzz -run '^TestDiffFuzz$$' -count=1 -timeout 0 -difffuzz.floors

# Run each fuzz target for $(FUZZTIME).
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./gen/internal/tmpl
	$(GO) test -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME) ./gen/internal/load
	$(GO) test -run '^$$' -fuzz '^FuzzGenerate$$' -fuzztime $(FUZZTIME) ./gen
	$(GO) test -run '^$$' -fuzz '^FuzzNames$$' -fuzztime $(FUZZTIME) ./gen/internal/names
	$(GO) test -run '^$$' -fuzz '^FuzzAppendFloat$$' -fuzztime $(FUZZTIME) ./runtime/jinja
	$(GO) test -run '^$$' -fuzz '^FuzzTruncate$$' -fuzztime $(FUZZTIME) ./runtime/jinja
	$(GO) test -run '^$$' -fuzz '^FuzzIndent$$' -fuzztime $(FUZZTIME) ./runtime/jinja
	$(GO) test -run '^$$' -fuzz '^FuzzScanValue$$' -fuzztime $(FUZZTIME) ./runtime/output
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./runtime/output
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./runtime/output
	$(GO) test -run '^$$' -fuzz '^FuzzCheck$$' -fuzztime $(FUZZTIME) ./runtime/output
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./runtime/output/yamlout
	$(GO) test -run '^$$' -fuzz '^FuzzParseSections$$' -fuzztime $(FUZZTIME) ./runtime
	$(GO) test -run '^$$' -fuzz '^FuzzParseTagged$$' -fuzztime $(FUZZTIME) ./runtime/chatformat
	$(GO) test -run '^$$' -fuzz '^FuzzStripHTML$$' -fuzztime $(FUZZTIME) ./runtime/chatformat
	$(GO) test -run '^$$' -fuzz '^FuzzFormat$$' -fuzztime $(FUZZTIME) ./runtime/chatformat
	$(GO) test -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME) ./schema
	$(GO) test -run '^$$' -fuzz '^FuzzEncode$$' -fuzztime $(FUZZTIME) ./runtime/tiktoken
	$(GO) test -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME) ./runtime/hftokenizer
	$(GO) test -run '^$$' -fuzz '^FuzzCount$$' -fuzztime $(FUZZTIME) ./runtime/hftokenizer
	$(GO) test -run '^$$' -fuzz '^FuzzMerge$$' -fuzztime $(FUZZTIME) ./runtime/hftokenizer
	cd runtime/tiktoken/testdata/crosscheck && $(GO) test -run '^$$' -fuzz '^FuzzOracle$$' -fuzztime $(FUZZTIME)
