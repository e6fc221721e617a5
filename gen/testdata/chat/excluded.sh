#!/bin/sh
# excluded.sh measures promptgen on the chat templates that collect.py
# leaves out of the corpus for their licences (SOURCES.md, "Left out"):
# in a scratch clone of the committed HEAD, it fetches them from npm, adds
# them as templates/x-*.jinja with render.py's expected outputs, and prints
# TestChatCorpus's table. Nothing is written to the checkout.
# Usage, from the repository root: sh gen/testdata/chat/excluded.sh
set -eu
root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent @huggingface/ollama-utils@0.0.18 >/dev/null && tar xzf huggingface-ollama-utils-0.0.18.tgz)
git clone --quiet "$root" "$tmp/repo"
cd "$tmp/repo"
/usr/bin/python3 gen/testdata/chat/collect.py --excluded "$tmp/package/src/chat-template-automap.ts"
rm gen/testdata/chat/status.json # measured below, with the x-* templates
/usr/bin/python3 gen/testdata/chat/render.py >/dev/null
# The test fails on the rows SOURCES.md has not for x-*; its table is the measure.
go test ./gen -run '^TestChatCorpus$' -count=1 -v -chatcorpus | grep -E '^ +(x-|[0-9]+ templates:)' || true
