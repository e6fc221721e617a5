// Writes reference.json: the token ids of OpenAI's o200k_base and
// cl100k_base encodings for the texts below, and the byte offset where each
// token ends, as js-tiktoken (a port of tiktoken) computes them. The Go
// tests of runtime/tiktoken hold the Go tokenizer's Count and Cut to them.
// CI does not run this script. To regenerate, from this directory:
//
//	npm ci && node reference.mjs > reference.json
//
// The texts leave out U+0085 and U+FEFF: JavaScript's \s differs from
// tiktoken's (Rust's) on them, so js-tiktoken is no reference there.
import { Tiktoken } from "js-tiktoken/lite";
import o200k_base from "js-tiktoken/ranks/o200k_base";
import cl100k_base from "js-tiktoken/ranks/cl100k_base";

const texts = {
  english:
    "Summarize the customer's last three tickets. They've asked twice; I'LL answer, won't you? " +
    "Order #12345678 shipped on 2026-01-08 at 10:45pm (UTC+1), costing $1,299.99 — 15% off.\n",
  cjk:
    "请用简体中文总结这位客户的问题。今日は良い天気ですね、東京へ行きましょう。" +
    "한국어 문장도 토큰으로 나눕니다. 漢字とカタカナ、ひらがなが混ざった文。\n",
  emoji:
    "Great job 👍🏽! Family: 👨‍👩‍👧‍👦, flags 🇫🇷🇯🇵, hearts ❤️💙, party 🎉🎉🎉, keycap 1️⃣, " +
    "skin tones 👋🏻👋🏿 and a lone 🦀.\n",
  arabic:
    "مرحبا بالعالم! هذا نص عربي مع تشكيل: كَتَبَ الطَّالِبُ الدَّرْسَ. " +
    "עברית גם כן, وأرقام ١٢٣٤٥ و 67890.\n",
  code:
    "func (e encoding) Count(text string) int {\n\tn, _ := e.codec.Count(text)\n\treturn n\n}\n\n" +
    "def think(state):\n    if state['mode'] == \"PLAN\":\n        return [s for s in state.steps if s.ok]\n" +
    '{"key": [1, 2.5, true, null], "nested": {"a": "b"}}\n<!-- BEGIN: task --> <|endoftext|> <|endofprompt|>\n',
  whitespace:
    "a   b\t\t\tc\n\n\n   \n\t \r\n  end   \n" + " ".repeat(40) + "x" + "\t".repeat(9) + "y\n\n\n\n\n" +
    "no\u00a0break\u3000ideographic\u2003em  \u2028line\u2029para   ",
  // contractions in any case, with the long s that folds to s
  contractions: "it'ſ IT'S It'St x'Ll x'rE they'Ve I'M we'D 'ſ 'sa's A'LLB x'ſx ǅ's 中文'll",
  // whitespace runs that hold line breaks between other spaces: one piece
  // each up to the run's last line break (tiktoken-go cuts them at the
  // first)
  line_break_runs:
    " \n \n x" + "\n \n\n  \n   y" + " a\n\n b \n\t\n" + "\r\n \r\n\t\n  \n  end \n \n" +
    " \n".repeat(50) + "z\n\u3000\n\u00a0\n\t\n ",
  // control characters: tiktoken-go drops U+007F
  control: "a\x7fb \x7f\x7f x\x7fabc \x00\x01\x08 \x1c\x1d\x1e\x1f \x80\x9f end\x7f\n",
  scripts:
    "Ελληνικά, русский текст, हिन्दी पाठ, ภาษาไทย, ქართული, Tiếng Việt có dấu, " +
    "e\u0301 combining, ﬁ ligature, ∑∫√∞ ≠ ≤, 𝔘𝔫𝔦𝔠𝔬𝔡𝔢, Ⅻ, ½.\n",
  runs:
    "a".repeat(300) + " " + "🙂".repeat(40) + " " + "9".repeat(100) + " " + "ab".repeat(80) +
    " " + "=".repeat(120) + "\n",
  // the hostile shapes of BenchmarkHostile, each past two tokens (256
  // bytes), where the package merges a piece by mergeLonger's search;
  // invalid UTF-8 is read as U+FFFD
  hostile_spaces: " ".repeat(3000),
  hostile_newlines: "\n".repeat(3000) + "x",
  hostile_space_newline: " \n".repeat(1500),
  hostile_letters: "a".repeat(3001) + " " + "ab".repeat(700) + " " + "Aa".repeat(700),
  hostile_emoji: "🙂".repeat(750) + " " + "👍🏽".repeat(300),
  hostile_replacement: "\ufffd".repeat(1000) + " " + "\ufffd#\ufffd\ufffd%".repeat(200),
  think_entities:
    "## Entities in Context\n\nThese refs are available. Act can use them directly.\n\n**inventory:** (49 items)\n" +
    "  - `inv_1`: chicken thighs\n  - `inv_2`: basmati rice\n  ... and 47 more\n\n**recipes:** (2 items)\n" +
    "  - `recipe_1`: Spicy Cod Masala ← referenced this turn\n  - `recipe_2`: Butter Chicken\n\n" +
    "⚠️ Only use refs shown above. Dashboard items not listed here must be searched by name.",
};

const encodings = { o200k_base, cl100k_base };
const out = { generator: "js-tiktoken 1.0.21 (reference.mjs)", texts: [] };
for (const [name, text] of Object.entries(texts)) {
  const entry = { name, text, encodings: {} };
  const bytes = Buffer.from(text, "utf8");
  for (const [encName, ranks] of Object.entries(encodings)) {
    const enc = new Tiktoken(ranks);
    // no special tokens: feed text that spells one is ordinary text
    const ids = enc.encode(text, [], []);
    const ends = [];
    let end = 0;
    for (const id of ids) {
      const piece = enc.textMap.get(id);
      if (!bytes.subarray(end, end + piece.length).equals(Buffer.from(piece))) {
        throw new Error(`${name}/${encName}: token ${id} is not the text's bytes at ${end}`);
      }
      end += piece.length;
      ends.push(end);
    }
    if (end !== bytes.length) {
      throw new Error(`${name}/${encName}: the tokens cover ${end} of ${bytes.length} bytes`);
    }
    entry.encodings[encName] = { ids, ends };
  }
  out.texts.push(entry);
}
// one line per list of numbers
const json = JSON.stringify(out, null, 1).replace(/\[\n\s*([\d,\s]+?)\n\s*\]/g, (_, list) => "[" + list.replace(/\s+/g, "") + "]");
process.stdout.write(json + "\n");
