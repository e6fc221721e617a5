#!/usr/bin/python3
"""Writes want.json, the expected values of runtime/chat's tests, with real
Jinja2 (/usr/bin/python3 with python3-jinja2 3.1; make golden runs it):

  - from_prompt: what Jinja2 prints ({{ m }}) for each message that
    chat.FromPrompt must make of TestFromPrompt's runtime.Prompt, written
    here as the Python dicts apply_chat_template receives;
  - context_message: what it prints for the first message of context.json,
    read with json.loads as transformers reads a chat context.

Usage (from anywhere): /usr/bin/python3 runtime/chat/testdata/golden.py
"""

import json
import os

import jinja2

HERE = os.path.dirname(os.path.abspath(__file__))

# TestFromPrompt's messages, in transformers' form: a tool request is an
# assistant message with no content, tool call arguments are values, a tool
# result is a tool message, structured content stays structured.
FROM_PROMPT = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "Weather in Zürich?", "name": "ann"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": {
            "city": "Zürich", "days": 2, "ratio": 0.5, "metric": True, "tags": ["a"], "extra": None}}}]},
    {"role": "tool", "content": "18C", "name": "get_weather", "tool_call_id": "call_1"},
    {"role": "assistant", "content": "Calling.", "tool_calls": [
        {"id": "c2", "type": "function", "function": {"name": "noop", "arguments": {}}}]},
    {"role": "tool", "content": {"temp": 18, "unit": "C"}, "tool_call_id": "c2"},
    {"role": "user", "content": [{"type": "text", "text": "see"}, {"type": "image", "url": "u"}]},
    # Content parts: an image is {"type": "image"} whatever its source (the
    # image goes to the model's processor, not to the template).
    {"role": "user", "content": [{"type": "text", "text": "What is on them?"}, {"type": "image"}, {"type": "image"}]},
    # A tool result's parts, as a user message's.
    {"role": "tool", "content": [{"type": "text", "text": "Chart:"}, {"type": "image"}], "name": "render_chart", "tool_call_id": "c3"},
]


def main():
    env = jinja2.Environment()
    show = env.from_string("{{ m }}")
    with open(os.path.join(HERE, "context.json"), encoding="utf-8") as f:
        context = json.load(f)
    want = {
        "from_prompt": [show.render(m=m) for m in FROM_PROMPT],
        "context_message": show.render(m=context["messages"][0]),
    }
    with open(os.path.join(HERE, "want.json"), "w", encoding="utf-8", newline="") as f:
        json.dump(want, f, ensure_ascii=False, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
