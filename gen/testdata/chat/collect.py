#!/usr/bin/python3
"""Copy the chat templates of the corpus out of @huggingface/ollama-utils,
and those it lacks out of the public repositories listed in COPIED.

Usage (from anywhere; needs node to read the TypeScript source):

    cd /tmp && npm pack @huggingface/ollama-utils@0.0.18 && tar xzf huggingface-ollama-utils-0.0.18.tgz
    /usr/bin/python3 gen/testdata/chat/collect.py /tmp/package/src/chat-template-automap.ts

With --excluded, it writes the templates left out instead, as
templates/x-<model>.jinja, for excluded.sh's measurement in a scratch clone.

The npm package @huggingface/ollama-utils (MIT, Hugging Face) holds, in
src/chat-template-automap.ts, the chat template of each model of the Ollama
library: the `tokenizer.chat_template` of the model's GGUF file, which the
GGUF converter copies from the model's tokenizer_config.json. This script
evaluates that file with node, picks the templates listed in CORPUS below,
and writes each, byte for byte, to templates/<name>.jinja (no newline is
added). It also writes SOURCES.md: each template's upstream model and
licence, and the templates left out with the reason. Templates not listed
in CORPUS or EXCLUDED are an error, so a new version of the package cannot
add templates silently.

The templates in COPIED (models the package has no template for, such as
one that prints tools with Mistral's [AVAILABLE_TOOLS]) are each one file
of a public GitHub repository at a commit, recorded with its SHA-256. A
templates/<name>.jinja that already has that SHA-256 is kept; otherwise
the file is downloaded from raw.githubusercontent.com (this needs the
network) and must have it.
"""

import hashlib
import json
import os
import subprocess
import sys
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = "@huggingface/ollama-utils@0.0.18"

APACHE = "Apache-2.0"
MIT = "MIT"
LLAMA2 = "Llama 2 Community License"
LLAMA3 = "Meta Llama 3 Community License"
LLAMA31 = "Llama 3.1 Community License"
LLAMA32 = "Llama 3.2 Community License"
LLAMA4 = "Llama 4 Community License"
GEMMA = "Gemma Terms of Use"
DEEPSEEK = "DeepSeek License Agreement"
FALCON = "TII Falcon License 2.0"

# (name, Ollama model, which of that model's entries (0 = first), upstream
# Hugging Face model, licence). The name is the Ollama tag with ':' as '-'.
CORPUS = [
    ("cogito-14b", "library/cogito:14b", 0, "deepcogito/cogito-v1-preview-qwen-14B", APACHE),
    ("cogito-3b", "library/cogito:3b", 0, "deepcogito/cogito-v1-preview-llama-3B", LLAMA32),
    ("deepcoder-14b", "library/deepcoder:14b", 0, "agentica-org/DeepCoder-14B-Preview", MIT),
    ("deepseek-coder-1.3b", "library/deepseek-coder:1.3b", 0, "deepseek-ai/deepseek-coder-1.3b-instruct", DEEPSEEK),
    ("deepseek-coder-v2-16b", "library/deepseek-coder-v2:16b", 0, "deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct", DEEPSEEK),
    ("deepseek-r1-8b", "library/deepseek-r1:8b", 0, "deepseek-ai/DeepSeek-R1-Distill-Llama-8B", MIT + " (weights derived from Llama 3.1: " + LLAMA31 + ")"),
    ("deepseek-r1-latest", "library/deepseek-r1:latest", 0, "deepseek-ai/DeepSeek-R1-0528-Qwen3-8B", MIT),
    ("deepseek-v2.5-236b", "library/deepseek-v2.5:236b", 0, "deepseek-ai/DeepSeek-V2.5", DEEPSEEK),
    ("deepseek-v3-671b", "library/deepseek-v3:671b", 0, "deepseek-ai/DeepSeek-V3", DEEPSEEK),
    ("deepseek-v3.1-latest", "library/deepseek-v3.1:latest", 0, "deepseek-ai/DeepSeek-V3.1", MIT),
    ("devstral-latest", "library/devstral:latest", 0, "mistralai/Devstral-Small-2505", APACHE),
    ("dolphin-llama3-8b", "library/dolphin-llama3:8b", 0, "cognitivecomputations/dolphin-2.9-llama3-8b", LLAMA3),
    ("dolphin-mixtral-8x7b", "library/dolphin-mixtral:8x7b", 0, "cognitivecomputations/dolphin-2.7-mixtral-8x7b", APACHE),
    ("falcon2-11b", "library/falcon2:11b", 0, "tiiuae/falcon-11B", FALCON),
    ("firefunction-v2-70b", "library/firefunction-v2:70b", 0, "fireworks-ai/llama-3-firefunction-v2", LLAMA3),
    ("gemma2-2b", "library/gemma2:2b", 0, "google/gemma-2-2b-it", GEMMA),
    ("gemma3-1b", "library/gemma3:1b", 0, "google/gemma-3-1b-it", GEMMA),
    ("gemma3-270m", "library/gemma3:270m", 0, "google/gemma-3-270m-it", GEMMA),
    ("granite-code-3b", "library/granite-code:3b", 0, "ibm-granite/granite-3b-code-instruct", APACHE),
    ("granite3-dense-2b", "library/granite3-dense:2b", 0, "ibm-granite/granite-3.0-2b-instruct", APACHE),
    ("granite3-guardian-2b", "library/granite3-guardian:2b", 0, "ibm-granite/granite-guardian-3.0-2b", APACHE),
    ("granite3.1-moe-1b", "library/granite3.1-moe:1b", 0, "ibm-granite/granite-3.1-1b-a400m-instruct", APACHE),
    ("granite3.2-vision-2b", "library/granite3.2-vision:2b", 0, "ibm-granite/granite-vision-3.2-2b", APACHE),
    ("granite3.2-8b", "library/granite3.2:8b", 0, "ibm-granite/granite-3.2-8b-instruct", APACHE),
    ("granite3.3-2b", "library/granite3.3:2b", 0, "ibm-granite/granite-3.3-2b-instruct", APACHE),
    ("granite4-350m", "library/granite4:350m", 0, "ibm-granite/granite-4.0-350m", APACHE),
    ("granite4-latest", "library/granite4:latest", 0, "ibm-granite/granite-4.0-h-micro", APACHE),
    ("hermes3-70b", "library/hermes3:70b", 0, "NousResearch/Hermes-3-Llama-3.1-70B", LLAMA31),
    ("llama-guard3-1b", "library/llama-guard3:1b", 0, "meta-llama/Llama-Guard-3-1B", LLAMA32),
    ("llama-guard3-8b", "library/llama-guard3:8b", 0, "meta-llama/Llama-Guard-3-8B", LLAMA31),
    ("llama-pro-latest", "library/llama-pro:latest", 0, "TencentARC/LLaMA-Pro-8B-Instruct", LLAMA2),
    ("llama2-7b", "library/llama2:7b", 0, "meta-llama/Llama-2-7b-chat-hf", LLAMA2),
    ("llama3-8b", "library/llama3:8b", 0, "meta-llama/Meta-Llama-3-8B-Instruct", LLAMA3),
    ("llama3.1-8b", "library/llama3.1:8b", 0, "meta-llama/Llama-3.1-8B-Instruct", LLAMA31),
    ("llama3.2-3b", "library/llama3.2:3b", 0, "meta-llama/Llama-3.2-3B-Instruct", LLAMA32),
    ("llama3.2-vision-90b", "library/llama3.2-vision:90b", 0, "meta-llama/Llama-3.2-90B-Vision-Instruct", LLAMA32),
    ("llama3.2-vision-latest", "library/llama3.2-vision:latest", 0, "meta-llama/Llama-3.2-11B-Vision-Instruct", LLAMA32),
    ("llama4-latest", "library/llama4:latest", 0, "meta-llama/Llama-4-Scout-17B-16E-Instruct", LLAMA4),
    ("llava-34b", "library/llava:34b", 0, "liuhaotian/llava-v1.6-34b", APACHE),
    ("llava-7b", "library/llava:7b", 0, "liuhaotian/llava-v1.6-mistral-7b", APACHE),
    ("marco-o1-7b", "library/marco-o1:7b", 0, "AIDC-AI/Marco-o1", APACHE),
    ("mistral-7b-instruct-fp16", "library/mistral:7b-instruct-fp16", 0, "mistralai/Mistral-7B-Instruct (v0.x)", APACHE),
    ("mistral-small-24b", "library/mistral-small:24b", 0, "mistralai/Mistral-Small-24B-Instruct-2501", APACHE),
    ("mixtral-8x22b", "library/mixtral:8x22b", 0, "mistralai/Mixtral-8x22B-Instruct-v0.1", APACHE),
    ("mixtral-8x7b", "library/mixtral:8x7b", 0, "mistralai/Mixtral-8x7B-Instruct-v0.1", APACHE),
    ("nemotron-70b", "library/nemotron:70b", 0, "nvidia/Llama-3.1-Nemotron-70B-Instruct-HF", LLAMA31),
    ("nous-hermes2-mixtral-8x7b", "library/nous-hermes2-mixtral:8x7b", 0, "NousResearch/Nous-Hermes-2-Mixtral-8x7B-DPO", APACHE),
    ("nuextract-3.8b", "library/nuextract:3.8b", 0, "numind/NuExtract", MIT),
    ("olmo2-7b", "library/olmo2:7b", 0, "allenai/OLMo-2-1124-7B-Instruct", APACHE),
    ("openchat-7b", "library/openchat:7b", 0, "openchat/openchat-3.5-0106", APACHE),
    ("phi3-14b", "library/phi3:14b", 0, "microsoft/Phi-3-medium-4k-instruct", MIT),
    ("phi3-3.8b", "library/phi3:3.8b", 0, "microsoft/Phi-3-mini-4k-instruct", MIT),
    ("phi3.5-3.8b", "library/phi3.5:3.8b", 0, "microsoft/Phi-3.5-mini-instruct", MIT),
    ("phi4-14b", "library/phi4:14b", 0, "microsoft/phi-4", MIT),
    ("phi4-mini-3.8b", "library/phi4-mini:3.8b", 0, "microsoft/Phi-4-mini-instruct", MIT),
    ("phi4-mini-reasoning-3.8b", "library/phi4-mini-reasoning:3.8b", 0, "microsoft/Phi-4-mini-reasoning", MIT),
    ("phi4-reasoning-14b", "library/phi4-reasoning:14b", 0, "microsoft/Phi-4-reasoning", MIT),
    ("qwen2-0.5b", "library/qwen2:0.5b", 0, "Qwen/Qwen2-0.5B-Instruct", APACHE),
    ("qwen2.5-0.5b", "library/qwen2.5:0.5b", 0, "Qwen/Qwen2.5-0.5B-Instruct", APACHE),
    ("qwen2.5-coder-1.5b", "library/qwen2.5-coder:1.5b", 0, "Qwen/Qwen2.5-Coder-1.5B-Instruct", APACHE),
    ("qwen2.5vl-latest", "library/qwen2.5vl:latest", 0, "Qwen/Qwen2.5-VL-7B-Instruct", APACHE),
    ("qwen3-0.6b", "library/qwen3:0.6b", 0, "Qwen/Qwen3-0.6B", APACHE),
    ("qwen3-coder-30b", "library/qwen3-coder:30b", 0, "Qwen/Qwen3-Coder-30B-A3B-Instruct", APACHE),
    ("qwen3-next-80b", "library/qwen3-next:80b", 0, "Qwen/Qwen3-Next-80B-A3B-Instruct", APACHE),
    ("qwq-32b-preview", "library/qwq:32b", 0, "Qwen/QwQ-32B-Preview", APACHE),
    ("qwq-32b", "library/qwq:32b", 1, "Qwen/QwQ-32B (drops the thinking of every assistant turn)", APACHE),
    ("qwq-32b-r2", "library/qwq:32b", 2, "Qwen/QwQ-32B (a later revision: keeps the last turn's thinking)", APACHE),
    ("r1-1776-671b", "library/r1-1776:671b", 0, "perplexity-ai/r1-1776", MIT),
    ("sailor2-1b", "library/sailor2:1b", 0, "sail/Sailor2-1B-Chat", APACHE),
    ("shieldgemma-27b", "library/shieldgemma:27b", 0, "google/shieldgemma-27b", GEMMA),
    ("smollm2-135m", "library/smollm2:135m", 0, "HuggingFaceTB/SmolLM2-135M-Instruct", APACHE),
    ("tinyllama-1.1b", "library/tinyllama:1.1b", 0, "TinyLlama/TinyLlama-1.1B-Chat-v1.0 (the Zephyr format)", APACHE),
    ("tulu3-70b", "library/tulu3:70b", 0, "allenai/Llama-3.1-Tulu-3-70B", LLAMA31),
    ("yi-6b", "library/yi:6b", 0, "01-ai/Yi-6B-Chat", APACHE),
    ("yi-coder-1.5b", "library/yi-coder:1.5b", 0, "01-ai/Yi-Coder-1.5B-Chat", APACHE),
]

# Templates the package lacks, each a file of a public repository: (name,
# upstream Hugging Face model, licence, repository, commit, path, SHA-256 of
# the file). The name is the upstream model's, lower-cased, without its owner.
# llama.cpp (MIT) keeps, under models/templates/, the chat templates of models
# it tests, each written by its scripts/get_chat_template.py: the
# chat_template string of the model's tokenizer_config.json, unchanged.
# ikawrakow/ik_llama.cpp (MIT), a fork of llama.cpp, keeps the same
# models/templates/ with more models than the commit of llama.cpp above.
IK_COMMIT = "8337e4cd3861406fc04e0854b1409cd1b027fbc9"

COPIED = [
    ("mistral-nemo-instruct-2407", "mistralai/Mistral-Nemo-Instruct-2407", APACHE,
     "ggml-org/llama.cpp", "7b5e0803c84435e8005725d8f9ddceb5d1820443",
     "models/templates/mistralai-Mistral-Nemo-Instruct-2407.jinja",
     "e4676cb56dffea7782fd3e2b577cfaf1e123537e6ef49b3ec7caa6c095c62272"),
    ("bielik-11b-v3.0-instruct", "speakleash/Bielik-11B-v3.0-Instruct", APACHE,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/Bielik-11B-v3.0-Instruct.jinja",
     "a30b8c4531dda19196f35fb95ab84110dd8357acbd75eea3776c5543a70db5a9"),
    ("deepseek-r1-distill-llama-8b", "deepseek-ai/DeepSeek-R1-Distill-Llama-8B (another revision than deepseek-r1-8b's)", MIT + " (weights derived from Llama 3.1: " + LLAMA31 + ")",
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja",
     "dd2675619a64a449cdcdd2b93e605a0a50764cee41e344f244752bc93643936c"),
    ("deepseek-r1-distill-qwen-32b", "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", MIT,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja",
     "bbe594884b44d740667ee65a70bc8d333a565eab3d63ea59f291ea73ada84ba6"),
    ("deepseek-v3.1", "deepseek-ai/DeepSeek-V3.1 (another revision than deepseek-v3.1-latest's)", MIT,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/deepseek-ai-DeepSeek-V3.1.jinja",
     "d9f5f351b276cf9e81d009db08830db7d38e94927aecd09a7beb43e2aafee94e"),
    ("deepseek-v3.2", "deepseek-ai/DeepSeek-V3.2", MIT,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/deepseek-ai-DeepSeek-V3.2.jinja",
     "8e5a13fcc4bdd4d943311fc59064b805770fdeddfccbd7f1c252cc16e8acaf3d"),
    ("glm-4.6", "zai-org/GLM-4.6", MIT,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/GLM-4.6.jinja",
     "f777778f775abe19c0f4bd576078d20a51ba8472139bde6852ea4490ec07398b"),
    ("glm-4.7-flash", "zai-org/GLM-4.7-Flash", MIT,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/GLM-4.7-Flash.jinja",
     "d63ad536c3c81880043e22ec7fd08db42b4d8fb7c89c7138bc562bfa25281375"),
    ("smollm3-3b", "HuggingFaceTB/SmolLM3-3B", APACHE,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/HuggingFaceTB-SmolLM3-3B.jinja",
     "19eacf64569032f07644ea92c8e2a87af06ee7008147557302c31e474912ca97"),
    ("granite-3.3-2b-instruct", "ibm-granite/granite-3.3-2b-instruct (another revision than granite3.3-2b's)", APACHE,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/ibm-granite-granite-3.3-2B-Instruct.jinja",
     "3c71df5f659987462c882bf9e295b597dc19902467a7312ea382c5896681bc02"),
    ("mimo-vl", "XiaomiMiMo/MiMo-VL-7B", MIT,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/MiMo-VL.jinja",
     "10490379c20af484107413cc5fd93f6e587d0cb4364a183a89ab68849406b80d"),
    ("mistral-small-3.2-24b-instruct-2506", "mistralai/Mistral-Small-3.2-24B-Instruct-2506", APACHE,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/Mistral-Small-3.2-24B-Instruct-2506.jinja",
     "5b8f31f11198696548d544dbe424a3c1ef244d00a475f4e1bffb351fda085608"),
    ("ministral-3-14b-reasoning-2512", "mistralai/Ministral-3-14B-Reasoning-2512", APACHE,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/mistralai-Ministral-3-14B-Reasoning-2512.jinja",
     "39f03c383413f531fd302c06c7e982ad98c83f0657a8339ae25478ccb81fdcda"),
    ("functionary-medium-v3.1", "meetkai/functionary-medium-v3.1", MIT + " (weights derived from Llama 3.1: " + LLAMA31 + ")",
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/meetkai-functionary-medium-v3.1.jinja",
     "2fc9dbfaea552f864b4b8cdf9d17401e9a49cbda199498531f137eb0ec5ae1d8"),
    ("functionary-medium-v3.2", "meetkai/functionary-medium-v3.2", MIT + " (weights derived from Llama 3.1: " + LLAMA31 + ")",
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/meetkai-functionary-medium-v3.2.jinja",
     "5c7c96c27cfecf3418411d1ebd0d11d691ab6bd2155bb38dacc62250fe47c3c8"),
    ("qwq-32b-r3", "Qwen/QwQ-32B (another revision than qwq-32b's and qwq-32b-r2's)", APACHE,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/Qwen-QwQ-32B.jinja",
     "5ed15374ce53e19a7798710736a2c9fe41c79f7385e8421a2080d6575a80ef1b"),
    ("qwen3-coder", "Qwen/Qwen3-Coder (llama.cpp's Qwen3-Coder.jinja)", APACHE,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/Qwen3-Coder.jinja",
     "d287fb2edf144207f868ae1b282755dc19db2a3f1c5b3a3d57e9e5abffa98392"),
    ("qwen3.5-4b", "Qwen/Qwen3.5-4B", APACHE,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/Qwen3.5-4B.jinja",
     "a4aee8afcf2e0711942cf848899be66016f8d14a889ff9ede07bca099c28f715"),
    ("gpt-oss-120b", "openai/gpt-oss-120b", APACHE,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/openai-gpt-oss-120b.jinja",
     "a4c9919cbbd4acdd51ccffe22da049264b1b73e59055fa58811a99efbd7c8146"),
    ("apertus-8b-instruct", "swiss-ai/Apertus-8B-Instruct-2509", APACHE,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/Apertus-8B-Instruct.jinja",
     "dea688e9f24a339a0d2504f6840852adbcedb082373172a0b82ca2c55996768d"),
    ("step-3.5-flash", "stepfun-ai/Step-3.5-Flash", APACHE,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/stepfun-ai-Step-3.5-Flash.jinja",
     "b18b99dff7261214c43e0402cba9f573e3240be6f9bb7ccaa54bb8df97e49dca"),
    ("apriel-1.5-15b-thinker", "ServiceNow-AI/Apriel-1.5-15b-Thinker (as unsloth's GGUF ships it)", MIT,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/unsloth-Apriel-1.5.jinja",
     "fae87682d3551b1cd3191fc92c5372c230e6e90115a98f049e35218cf4e13d8f"),
    ("devstral-small-2507", "mistralai/Devstral-Small-2507 (as unsloth's GGUF ships it)", APACHE,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/unsloth-mistral-Devstral-Small-2507.jinja",
     "039a4710e2aabaa79e85a233fa3daa4fbc030a4a8dc218cb7f34fb0c4b8c13b1"),
    ("gigachat3-10b-a1.8b", "ai-sage/GigaChat3-10B-A1.8B", MIT,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/GigaChat3-10B-A1.8B.jinja",
     "bbbf2de800b645dfe032b1d85e1d6479d78fd82d38d4af0d8d5bb2dacacd20d6"),
    ("gigachat3.1-10b-a1.8b", "ai-sage/GigaChat3.1-10B-A1.8B", MIT,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/GigaChat3.1-10B-A1.8B.jinja",
     "304f0d64aa3ba30ee85c281befdeb0e5b32aed232b06dee1752310daa1208a4b"),
    ("seed-oss-36b-instruct", "ByteDance-Seed/Seed-OSS-36B-Instruct", APACHE,
     "ikawrakow/ik_llama.cpp", IK_COMMIT, "models/templates/ByteDance-Seed-OSS.jinja",
     "3f9e0dc4adeb8032287d0129dc75b6298fee8698a52ab41e863dbc89929330d3"),
    # minja (MIT) keeps, in tests_files/, templates its tests read besides
    # those they download from Hugging Face.
    ("qwen3-coder-30b-a3b-instruct", "Qwen/Qwen3-Coder-30B-A3B-Instruct (another revision than qwen3-coder-30b's)", APACHE,
     "google/minja", "021c2293c187789ef13d56c6cfd89c9b134fd80f",
     "tests_files/Qwen-Qwen3-Coder-30B-A3B-Instruct.jinja",
     "7e0648e7a298d820992b258648406f1e563c7067e55be5ac31fa5c24538735d4"),
]

# The URL of a repository's file at a commit.
RAW = "https://raw.githubusercontent.com/%s/%s/%s"

NC = "non-commercial licence: may not be redistributed with promptgen"
UNVERIFIED = "licence with conditions not checked for this corpus"
# Ollama model -> (upstream model, licence, why it is left out).
EXCLUDED = {
    "library/aya-expanse:8b": ("CohereForAI/aya-expanse-8b", "CC-BY-NC-4.0", NC),
    "library/aya:35b": ("CohereForAI/aya-23-35B", "CC-BY-NC-4.0", NC),
    "library/command-a:111b": ("CohereForAI/c4ai-command-a-03-2025", "CC-BY-NC-4.0", NC),
    "library/command-r-plus:104b": ("CohereForAI/c4ai-command-r-plus", "CC-BY-NC-4.0", NC),
    "library/command-r:35b": ("CohereForAI/c4ai-command-r-v01", "CC-BY-NC-4.0", NC),
    "library/command-r7b-arabic:7b": ("CohereForAI/c4ai-command-r7b-arabic-02-2025", "CC-BY-NC-4.0", NC),
    "library/command-r7b:7b": ("CohereForAI/c4ai-command-r7b-12-2024", "CC-BY-NC-4.0", NC),
    "library/exaone-deep:2.4b": ("LGAI-EXAONE/EXAONE-Deep-2.4B", "EXAONE AI Model License", NC),
    "library/exaone-deep:32b": ("LGAI-EXAONE/EXAONE-Deep-32B", "EXAONE AI Model License", NC),
    "library/exaone3.5:7.8b": ("LGAI-EXAONE/EXAONE-3.5-7.8B-Instruct", "EXAONE AI Model License", NC),
    "library/mistral-large:123b": ("mistralai/Mistral-Large-Instruct-2407", "Mistral Research License", NC),
    "library/stable-code:3b": ("stabilityai/stable-code-instruct-3b", "Stability AI Non-Commercial Research Community License", NC),
    "library/dbrx:132b": ("databricks/dbrx-instruct", "Databricks Open Model License", UNVERIFIED),
    "library/glm4:9b": ("THUDM/glm-4-9b-chat", "GLM-4 License", UNVERIFIED),
    "library/internlm2:1.8b": ("internlm/internlm2-chat-1_8b", "InternLM model licence (commercial use on application)", UNVERIFIED),
    "library/nemotron-mini:4b": ("nvidia/Nemotron-Mini-4B-Instruct", "NVIDIA Community Model License", UNVERIFIED),
    "library/opencoder:8b": ("infly/OpenCoder-8B-Instruct", "INF Model License", UNVERIFIED),
    "library/qwen:0.5b": ("Qwen/Qwen1.5-0.5B-Chat", "Tongyi Qianwen License", UNVERIFIED),
    "library/smallthinker:3b": ("PowerInfer/SmallThinker-3B-Preview", "Qwen Research License (derived)", UNVERIFIED),
    "library/dolphin-phi:2.7b": ("cognitivecomputations/dolphin-2_6-phi-2", "not stated clearly upstream", UNVERIFIED),
    "library/llava-phi3:3.8b": ("xtuner/llava-phi-3-mini", "not stated clearly upstream", UNVERIFIED),
    "library/rnj-1:latest": ("EssentialAI/rnj-1-instruct", "not checked", UNVERIFIED),
}

NOTICES = """Licence notices. The Llama templates are from models "licensed under the
Llama 2 / Meta Llama 3 / Llama 3.1 / Llama 3.2 / Llama 4 Community License,
Copyright (c) Meta Platforms, Inc. All Rights Reserved." The Gemma templates:
"Gemma is provided under and subject to the Gemma Terms of Use found at
ai.google.dev/gemma/terms." The DeepSeek License Agreement and the TII Falcon
License 2.0 allow redistribution with their use restrictions passed on. The
chat template is a small part of each model's tokenizer files; it is kept here
only as test data, unchanged, to check that promptgen renders it as
transformers does."""


def load(automap):
    """Evaluates the TypeScript array literal of automap with node."""
    script = r"""
const fs = require("fs");
let s = fs.readFileSync(process.argv[1], "utf8");
s = s.replace(/^import type .*$/m, "").replace(/export const OLLAMA_CHAT_TEMPLATE_MAPPING: OllamaChatTemplateMapEntry\[\] =/, "module.exports =");
const m = { exports: null };
new Function("module", s)(m);
process.stdout.write(JSON.stringify(m.exports.map(e => [e.model, e.gguf])));
"""
    out = subprocess.run(["node", "-e", script, automap], check=True, capture_output=True).stdout
    return json.loads(out)


def copy_from_repository(name, repo, commit, path, sha256):
    """Returns the template of COPIED entry name: templates/<name>.jinja
    when it has the SHA-256 sha256, else the file at repo's commit and path,
    downloaded, checked and written there."""
    file = os.path.join(HERE, "templates", name + ".jinja")
    if os.path.exists(file):
        with open(file, "rb") as f:
            data = f.read()
        if hashlib.sha256(data).hexdigest() == sha256:
            return data.decode("utf-8")
    url = RAW % (repo, commit, path)
    with urllib.request.urlopen(url) as r:
        data = r.read()
    got = hashlib.sha256(data).hexdigest()
    if got != sha256:
        sys.exit("collect.py: %s has SHA-256 %s, want %s" % (url, got, sha256))
    with open(file, "wb") as f:
        f.write(data)
    return data.decode("utf-8")


def write_excluded(entries):
    """Writes the templates left out, for their licences, to templates/x-<model>.jinja,
    for a measurement in a scratch clone (excluded.sh): never to commit."""
    templates = os.path.join(HERE, "templates")
    seen = set()
    for model, template in entries:
        if model in EXCLUDED and model not in seen:
            seen.add(model)
            name = "x-" + model.split("/")[-1].replace(":", "-")
            with open(os.path.join(templates, name + ".jinja"), "w", encoding="utf-8", newline="") as f:
                f.write(template)
    print("collect.py: %d templates left out written as x-*.jinja" % len(seen))


def main():
    args = sys.argv[1:]
    excluded = args[:1] == ["--excluded"]
    if excluded:
        args = args[1:]
    if len(args) != 1:
        sys.exit(__doc__)
    entries = load(args[0])
    if excluded:
        write_excluded(entries)
        return
    by_model = {}
    for model, template in entries:
        by_model.setdefault(model, []).append(template)
    listed = {c[1] for c in CORPUS} | set(EXCLUDED)
    unknown = sorted(set(by_model) - listed)
    if unknown:
        sys.exit("collect.py: templates neither in CORPUS nor EXCLUDED: %s" % ", ".join(unknown))
    names = [c[0] for c in CORPUS + COPIED]
    if len(set(names)) != len(names):
        sys.exit("collect.py: CORPUS and COPIED names must be unique")
    templates = os.path.join(HERE, "templates")
    os.makedirs(templates, exist_ok=True)
    for name in os.listdir(templates):
        if name.endswith(".jinja") and name[: -len(".jinja")] not in names:
            os.remove(os.path.join(templates, name))
    seen = {}
    rows = []
    for name, model, index, upstream, licence in sorted(CORPUS):
        template = by_model[model][index]
        if template in seen:
            sys.exit("collect.py: %s is the same template as %s" % (name, seen[template]))
        seen[template] = name
        with open(os.path.join(templates, name + ".jinja"), "w", encoding="utf-8", newline="") as f:
            f.write(template)
        entry = "" if len(by_model[model]) == 1 else " (entry %d of %d)" % (index + 1, len(by_model[model]))
        rows.append("| %s | %s | `%s`%s | %s |" % (name, upstream, model, entry, licence))
    copied = []
    for name, upstream, licence, repo, commit, path, sha256 in sorted(COPIED):
        template = copy_from_repository(name, repo, commit, path, sha256)
        if template in seen:
            sys.exit("collect.py: %s is the same template as %s" % (name, seen[template]))
        seen[template] = name
        copied.append("| %s | %s | `%s` `%s` at `%s` | %s |" % (name, upstream, repo, path, commit, licence))
    excluded = ["| `%s` | %s | %s | %s |" % (m, *EXCLUDED[m]) for m in sorted(EXCLUDED)]
    lines = [
        "# Sources of the chat templates",
        "",
        "Written by collect.py; do not edit. Each `templates/<name>.jinja` of this table is,",
        "byte for byte, the `tokenizer.chat_template` of the Ollama library model's GGUF file (the",
        "`chat_template` of the upstream model's tokenizer_config.json, which the GGUF",
        "converter copies), as the npm package `%s` (MIT, Hugging Face)" % PACKAGE,
        "records it in `src/chat-template-automap.ts`. The upstream model is the one the",
        "Ollama library model was converted from; commits are not recorded there.",
        "",
        "| name | upstream model | Ollama model | licence |",
        "| --- | --- | --- | --- |",
        *rows,
        "",
        "## From other repositories",
        "",
        "Models the package has no template for. Each `templates/<name>.jinja` of this",
        "table is, byte for byte, the file of a public GitHub repository at a commit,",
        "whose SHA-256 collect.py checks. llama.cpp (MIT) keeps, under `models/templates/`,",
        "the chat templates of models it tests, each written by its",
        "`scripts/get_chat_template.py`: the `chat_template` of the model's",
        "tokenizer_config.json on Hugging Face, unchanged; its fork ik_llama.cpp (MIT)",
        "keeps the same folder, with more models. minja (MIT) keeps, in `tests_files/`,",
        "a template its tests read.",
        "",
        "| name | upstream model | repository, file and commit | licence |",
        "| --- | --- | --- | --- |",
        *copied,
        "",
        "## Left out",
        "",
        "| Ollama model | upstream model | licence | reason |",
        "| --- | --- | --- | --- |",
        *excluded,
        "",
        NOTICES,
        "",
    ]
    with open(os.path.join(HERE, "SOURCES.md"), "w", encoding="utf-8", newline="") as f:
        f.write("\n".join(lines))
    print("collect.py: %d templates, %d copied from other repositories, %d left out" % (len(CORPUS), len(COPIED), len(EXCLUDED)))


if __name__ == "__main__":
    main()
