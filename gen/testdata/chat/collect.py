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
one that prints tools with Mistral's [AVAILABLE_TOOLS], and the templates
that vLLM and chujiezheng/chat_templates wrote) are each one file of a
public GitHub repository at a commit, recorded with its SHA-256. A
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
VLLM = "vllm-project/vllm"
APACHE_VLLM = APACHE + " (vLLM's own template)"
CHUJIE = "chujiezheng/chat_templates"
CHUJIE_COMMIT = "11c495621569969f264ee70b5c8bb49ba7a1a410"
MIT_CHUJIE = MIT + " (chujiezheng/chat_templates' own template)"

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
    # vllm-project/vllm (Apache-2.0) ships, under examples/, chat templates it
    # wrote for the models it serves (most of them with tool calling, passed as
    # --chat-template): its own work, so its licence applies. The name is
    # vllm- and a short form of the file's (tool_chat_template_ as tool-).
    ("vllm-command-r-default", "CohereForAI/c4ai-command-r-v01 (vLLM's plain chat template)", APACHE_VLLM,
     VLLM, "0b9005b87944cd887f922080f6a5e3768cce086a", "examples/command_r_default_chat_template.jinja",
     "441277a805f4eb3b83163176fc0c457c02cbaede3aa5828fb01d7bd12ce47b9e"),
    ("vllm-command-r-rag", "CohereForAI/c4ai-command-r-v01 (vLLM's RAG template)", APACHE_VLLM,
     VLLM, "fc2132a413c86d5f6c0e541d3ca564f1fe7778c7", "examples/command_r_rag_chat_template.jinja",
     "9602d0231f1b68edd798dccebe59aae4e2931468902661a26e37f02bfc883320"),
    ("vllm-command-r-tool", "CohereForAI/c4ai-command-r-v01 (vLLM's tool-use template)", APACHE_VLLM,
     VLLM, "483f64f962a8350e8946dd6a841c67c87ff78294", "examples/command_r_tool_chat_template.jinja",
     "e12bbb9da704bfa5ca48721b0ced50490108d062fa22bdf2cbcd8d0663d24bf0"),
    ("vllm-vibevoice-asr", "microsoft/VibeVoice-ASR (vLLM's online-serving example)", APACHE_VLLM,
     VLLM, "ecb236b2907ab65d895cee8e966b636908eaa839", "examples/online_serving/vibevoice_asr/chat_template.jinja",
     "c8d3d288a08260f0b8dd4b7b111684fa21de00c8c7ae11cdb9a64baba990de01"),
    ("vllm-rag-template-cohere", "CohereForAI/c4ai-command-r-v01 (vLLM's older RAG template)", APACHE_VLLM,
     VLLM, "3bf1e982e85cfcf5fa8ce4058ae843bbc8841622", "examples/rag_template_cohere.jinja",
     "144ddacba7c0923e7a39097975b1e7d34f5d3dd05f0cbc7aba2c44773aba8bdf"),
    ("vllm-alpaca", "Alpaca-format models (tatsu-lab/alpaca)", APACHE_VLLM,
     VLLM, "e5fd201ab77b993462f5b1cc3e55c74dc74bed95", "examples/template_alpaca.jinja",
     "3aea163e618ade9e55233aafac508516fdf85f1f9faa0a2a425c70cdf1690701"),
    ("vllm-baichuan", "baichuan-inc/Baichuan-13B-Chat", APACHE_VLLM,
     VLLM, "30adc3c5cd260a98af7247d93600c1022e1642f8", "examples/template_baichuan.jinja",
     "b560fa0ca2b6eb4d48e08ffc4332200820429c91ec4b98593c7f3584758a07f3"),
    ("vllm-blip2", "Salesforce/blip2-opt-2.7b", APACHE_VLLM,
     VLLM, "1a7f9e3b75fcf32628278cc578b863d2753ebe15", "examples/template_blip2.jinja",
     "76b84914536e1462d7cbb2898f3beb33687611c9206b9b3d462a480d3c9efc2b"),
    ("vllm-chatglm", "THUDM/chatglm-6b", APACHE_VLLM,
     VLLM, "e88892c9080b29aa3dbc1d1096ba719ab0886163", "examples/template_chatglm.jinja",
     "6f54f550d317f09a9e3c6969bc4e6f2f2643cdf663c0f5c68e38dacf421e5ca0"),
    ("vllm-chatglm2", "THUDM/chatglm2-6b", APACHE_VLLM,
     VLLM, "e5fd201ab77b993462f5b1cc3e55c74dc74bed95", "examples/template_chatglm2.jinja",
     "d12c115da9f131d9859a65d850367293430fdaea8548a63e11f2899c53d8a523"),
    ("vllm-chatml", "ChatML models", APACHE_VLLM,
     VLLM, "8927120bcca17ac66879464c19ed5fcc749799e2", "examples/template_chatml.jinja",
     "99000004eb5936e12e2cb9ba6449b7d194155b6439e8686f658b15cc71938b0b"),
    ("vllm-deepseek-vl2", "deepseek-ai/deepseek-vl2", APACHE_VLLM,
     VLLM, "eba19368097880aeca3dcc8d8e793e9a71603fbb", "examples/template_deepseek_vl2.jinja",
     "38fd98cee3db271dd90ff5eac33afec32a9a9968df56fbd79b13f1770d633233"),
    ("vllm-falcon", "tiiuae/falcon-7b-instruct", APACHE_VLLM,
     VLLM, "e5fd201ab77b993462f5b1cc3e55c74dc74bed95", "examples/template_falcon.jinja",
     "cfd9406e95ebd7349606ddfd5ad7a45e051a07f5df272395348d25bd3b69a2e0"),
    ("vllm-falcon-180b", "tiiuae/falcon-180B-chat", APACHE_VLLM,
     VLLM, "e5fd201ab77b993462f5b1cc3e55c74dc74bed95", "examples/template_falcon_180b.jinja",
     "241b5a38425687e8c581a7f8f1ed81a7bc9a4b5b94a1fb68baf355f8ec5c2049"),
    ("vllm-florence2", "microsoft/Florence-2", APACHE_VLLM,
     VLLM, "2176abd493d70c3c1aca87ceb72552876bfa8675", "examples/template_florence2.jinja",
     "cbc73bbf13051885274899c5aaa2ab7afaef2164ab426bafba3c9c73cf5be98e"),
    ("vllm-inkbot", "Tostino/Inkbot-13B-8k-0.2", APACHE_VLLM,
     VLLM, "c6991a3bffc217a79a1c2413da13be7ce923dbf0", "examples/template_inkbot.jinja",
     "4cae94f49630d708be8e474f242c3a8891b45bc11af97fd92b5d8d5a91a5029c"),
    ("vllm-llama3.2", "meta-llama/Llama-3.2-11B-Vision-Instruct", APACHE_VLLM,
     VLLM, "9770d84d3693d3b07ff476e21930014695abba11", "examples/template_llama3.2.jinja",
     "64ed9a363b62a7d700ef0b8d06362fa409897b85b9ff7aa82c90dd123828856f"),
    ("vllm-llama3", "meta-llama/Meta-Llama-3-8B-Instruct", APACHE_VLLM,
     VLLM, "73ab3f23f43cac0057c40cb7887cfc57f5beff25", "examples/template_llama3.jinja",
     "51f6aab79090821ddc7959ab5190706e9285ee8760d307180c96393279c1289b"),
    ("vllm-llava", "llava-hf/llava-1.5-7b-hf", APACHE_VLLM,
     VLLM, "938e5c9cf881e4e778d851e9b102ea0af2206945", "examples/template_llava.jinja",
     "cc657b3797e04f404a7f21e183a0dd5f2f84555d2cd043b616a4ab51fda6cb47"),
    ("vllm-pixtral-hf", "mistral-community/pixtral-12b", APACHE_VLLM,
     VLLM, "ce53f46e3d8b467dfe57e4db6f45a3cdfd8813e5", "examples/template_pixtral_hf.jinja",
     "0e5b5bd3495cf2fcc8b16cfd79c817c9c9b5f05fefa6587bf6b3a204b219bfcd"),
    ("vllm-qwen", "Qwen/Qwen-VL (the messages' content, concatenated)", APACHE_VLLM,
     VLLM, "c4946fe30ef7455a5839d4a28732c3e2df5fc553", "examples/template_qwen.jinja",
     "a1d9fe66679688dda355eb6c68988f8e975ce63cadce4268483ea207c4cf14f0"),
    ("vllm-qwen2-audio", "Qwen/Qwen2-Audio-7B-Instruct", APACHE_VLLM,
     VLLM, "f171903a58f97a4c12fbb4d6dc71e4c2b41e9834", "examples/template_qwen2_audio.jinja",
     "bb501f3be7ad22ae1528ac887c458299a6d12c839529598470b1be36061ed0bd"),
    ("vllm-qwen-vl-chat", "Qwen/Qwen-VL-Chat", APACHE_VLLM,
     VLLM, "2ee3471b578a251c74e1b6e291118ba4622f860e", "examples/template_qwen_vl_chat.jinja",
     "08ac4259ffca7a633f0e7b55ef41dfd3758d903bf1ce7a25c96fb4dd2249c39e"),
    ("vllm-telechat", "Tele-AI/TeleChat", APACHE_VLLM,
     VLLM, "aac7d52407102083cfbe58fbbc666a2ba50115fd", "examples/template_telechat.jinja",
     "8e3a47777798b56f79e5f108f273bd3b23e6da0e428e9f0e9cc4663e7924502a"),
    ("vllm-teleflm", "CofeAI/Tele-FLM", APACHE_VLLM,
     VLLM, "4bc0d9621158e98cdb3681c33634321b6959d354", "examples/template_teleflm.jinja",
     "3c18341b7d861f6d78306a8e33e72db7bc24874c6f7bf84c1b10baf6a967ed01"),
    ("vllm-templates-tool-deepseekv3", "deepseek-ai/DeepSeek-V3 (examples/templates/ copy, LF line endings)", APACHE_VLLM,
     VLLM, "8ad9ddd9b2659da49f27dd4d2b5dafe0cf2ba20b", "examples/templates/tool_chat_template_deepseekv3.jinja",
     "76233095fd644a6238e4dfff3192e4ac4494be9f184f2ea8e9526f46a2c5b44b"),
    ("vllm-templates-tool-toolace", "Team-ACE/ToolACE-8B (examples/templates/ copy)", APACHE_VLLM,
     VLLM, "8ad9ddd9b2659da49f27dd4d2b5dafe0cf2ba20b", "examples/templates/tool_chat_template_toolace.jinja",
     "b9ded9033e0fe5445320864c25e09b2e56a2e98f08b305591a2fcd0c2d1d7a9c"),
    ("vllm-tool-apertus", "swiss-ai/Apertus-8B-Instruct-2509", APACHE_VLLM,
     VLLM, "0ef53991514932a70db242d4ff0085b462223def", "examples/tool_chat_template_apertus.jinja",
     "af4db58bb177e93fce280a506ff73c0a8f55737f0fc5aba412fab25b5136af1e"),
    ("vllm-tool-deepseekr1", "deepseek-ai/DeepSeek-R1", APACHE_VLLM,
     VLLM, "80b25c67e1e2bf5f630f1a9491f2d9b689afba53", "examples/tool_chat_template_deepseekr1.jinja",
     "872ab08c4f24786a66543c99026f739a145686b6492b09cb1cad4dfc07fbfcda"),
    ("vllm-tool-deepseekv3", "deepseek-ai/DeepSeek-V3 (CRLF line endings)", APACHE_VLLM,
     VLLM, "c6991a3bffc217a79a1c2413da13be7ce923dbf0", "examples/tool_chat_template_deepseekv3.jinja",
     "3a924f18fd79b15dd5fa5d8a19fec0156e0fa62fdaab6dab5b2306ec4ee1bbd7"),
    ("vllm-tool-deepseekv31", "deepseek-ai/DeepSeek-V3.1", APACHE_VLLM,
     VLLM, "fb73c46585e8f5567e4555b277961aa67fc08792", "examples/tool_chat_template_deepseekv31.jinja",
     "8b99b81c2f0d3ab06c63a6e615429167869ca2713bd5c05d8a001176d4d262be"),
    ("vllm-tool-deepseekv32", "deepseek-ai/DeepSeek-V3.2", APACHE_VLLM,
     VLLM, "36f13f9e85ab7ac7b572f00ca8eeef12539940e7", "examples/tool_chat_template_deepseekv32.jinja",
     "40a048e15d03fae3821642621eb270acecb90ecd21611c93b89221e44e007bac"),
    ("vllm-tool-gemma3-pythonic", "google/gemma-3-27b-it (pythonic tool calls, CRLF line endings)", APACHE_VLLM,
     VLLM, "c6991a3bffc217a79a1c2413da13be7ce923dbf0", "examples/tool_chat_template_gemma3_pythonic.jinja",
     "f13b988fbd4c082937e342acec34892a8e589690a41e95b0445fcf837e31aefa"),
    ("vllm-tool-gemma3-pythonic-both", "google/gemma-3-27b-it (pythonic tool calls after text)", APACHE_VLLM,
     VLLM, "24d0a0e8fbbe25f69c81a392d2d38224d1fbd784", "examples/tool_chat_template_gemma3_pythonic_both.jinja",
     "f93e49f283868d1de42a52666b03cfdc8510ec6b2f93e5f1599b7e3cbfec2294"),
    ("vllm-tool-granite", "ibm-granite/granite-3.0-8b-instruct", APACHE_VLLM,
     VLLM, "1adecccb911daab5f49a9756453aa54be0876edf", "examples/tool_chat_template_granite.jinja",
     "5fd0a9abb3842b4919c8db7349e97d676f619b81bee1b2f846d24a69015dd839"),
    ("vllm-tool-granite-20b-fc", "ibm-granite/granite-20b-functioncalling", APACHE_VLLM,
     VLLM, "cd20a5785d36d73795dc3e87088ca370f9efe807", "examples/tool_chat_template_granite_20b_fc.jinja",
     "4bb42dac7699af82a14ad29cd55101c767b4225722ee9a206bcc0315c1da5b5d"),
    ("vllm-tool-hermes", "NousResearch/Hermes-2-Pro and Hermes-3 models", APACHE_VLLM,
     VLLM, "f73e0891897f33af3c09ef402f998c3b2e0f7e07", "examples/tool_chat_template_hermes.jinja",
     "a16bda317c8de1d7da2130847b9ec3eaad3fba73823758c9aed82a0e79bf1cfe"),
    ("vllm-tool-hermes-2-pro", "NousResearch/Hermes-2-Pro-Llama-3-8B", APACHE_VLLM,
     VLLM, "9b9d86121fed74d49493eb38f8f7c5eb85f485ac", "examples/tool_chat_template_hermes_2_pro.jinja",
     "aadb834d29f6e2c12bb6517702838e3ce4ff5d13f7d10622c903e36882ded8a4"),
    ("vllm-tool-hyperclovax-seed-think-14b", "naver-hyperclovax/HyperCLOVAX-SEED-Think-14B", APACHE_VLLM,
     VLLM, "9a525916e3dfc19c9b00febc373d0d0a556614f6", "examples/tool_chat_template_hyperclovax_seed_think_14b.jinja",
     "d692bd40aa44b8abbe08f31bfcc343b14b2a1b4a9bf214c27f7ef8f15b29fdac"),
    ("vllm-tool-hunyuan-a13b", "tencent/Hunyuan-A13B-Instruct", APACHE_VLLM,
     VLLM, "630fe7e7a7a4f13533d4c130804bff933130f1fd", "examples/tool_chat_template_hunyuan_a13b.jinja",
     "05d3f879ab20407534faf2ad9e6fc714120b51f5931d53d5f376314b63165b6a"),
    ("vllm-tool-internlm2-tool", "internlm/internlm2_5-7b-chat", APACHE_VLLM,
     VLLM, "c6991a3bffc217a79a1c2413da13be7ce923dbf0", "examples/tool_chat_template_internlm2_tool.jinja",
     "25c01157869fcbebdae658a90b2ae2064dbe81e49b6b596d434b09e02084851a"),
    ("vllm-tool-llama", "meta-llama/Llama-3.1-8B-Instruct (an early version of vLLM's JSON tool template)", APACHE_VLLM,
     VLLM, "37336f31b51b8b4114eca193783fdf3c71837b00", "examples/tool_chat_template_llama.jinja",
     "4530988f755b25d23c7a1415926abbe2e529a4fafea9208c980e9ef14ecfe487"),
    ("vllm-tool-llama3.1-json", "meta-llama/Llama-3.1-8B-Instruct", APACHE_VLLM,
     VLLM, "8a8be3dcc35e02e60c940f7aff3aef8cc7524259", "examples/tool_chat_template_llama3.1_json.jinja",
     "8aedd05f7ab549b897b929c89da9b62e537f4f4197f33736e9d2f10fea53b1bf"),
    ("vllm-tool-llama3.1-json-my", "meta-llama/Llama-3.1-8B-Instruct (a variant that starts tool calls with the python tag)", APACHE_VLLM,
     VLLM, "381348b299eb38dacd25ca23082d2eae1eea6445", "examples/tool_chat_template_llama3.1_json_my.jinja",
     "f43ef5026f0d15e95f262cae74a41e0e6821d2e9fd54fb96d1b7d23cba243a42"),
    ("vllm-tool-llama3.1-usr-def-tool-call", "meta-llama/Llama-3.1-8B-Instruct (user-defined function-tag calls)", APACHE_VLLM,
     VLLM, "81c59a4b08a6611d425b97eae5f766b92844f52a", "examples/tool_chat_template_llama3.1_usr_def_tool_call.jinja",
     "d5b18895118638e81eb81b43a6b54a0f497b906fb18856bff5af8dc419c49e47"),
    ("vllm-tool-llama3.2-json", "meta-llama/Llama-3.2-3B-Instruct", APACHE_VLLM,
     VLLM, "2f195f70a4ea2ba3d1ef3956f1da8d9e77b61ca4", "examples/tool_chat_template_llama3.2_json.jinja",
     "a6e9ffee09769ca567ea5fc536bb0c3669623a3045de815c90ae92dfa33c7255"),
    ("vllm-tool-llama3.2-pythonic", "meta-llama/Llama-3.2-3B-Instruct", APACHE_VLLM,
     VLLM, "3a9445d9d68e3864449042702ce0316461b03e23", "examples/tool_chat_template_llama3.2_pythonic.jinja",
     "a4958a09420919b8c591d33dad1f818af8ab5e48a7273dc79448a5ee8771c3f5"),
    ("vllm-tool-llama3-json", "meta-llama/Llama-3.1-8B-Instruct (vLLM's first JSON tool template)", APACHE_VLLM,
     VLLM, "3bb941a435f4c2ebb3b240c553c7aed4dda62b16", "examples/tool_chat_template_llama3_json.jinja",
     "bc0ce20ea0cdc9f43de90a030e8d915e9cf8e2435937a687cf4a53d9f81dc664"),
    ("vllm-tool-llama4-json", "meta-llama/Llama-4-Scout-17B-16E-Instruct", APACHE_VLLM,
     VLLM, "c0d4a465b32fd39dd05660c440282df551c41fff", "examples/tool_chat_template_llama4_json.jinja",
     "f30445c2f01243b128675a75a343ddab8c92f580e1da74c990f69e16cfc3d0d1"),
    ("vllm-tool-llama4-pythonic", "meta-llama/Llama-4-Scout-17B-16E-Instruct", APACHE_VLLM,
     VLLM, "5a6541db9bfa77756459722f69e8c89a0b47a14d", "examples/tool_chat_template_llama4_pythonic.jinja",
     "e030e206ce17b6ec1d1986fe62197e7756b8dec86a9f6842fb44b3c3c50a0e53"),
    ("vllm-tool-minimax-m1", "MiniMaxAI/MiniMax-M1-40k", APACHE_VLLM,
     VLLM, "e5fa94509b708330e28208a55c84aba8a7781675", "examples/tool_chat_template_minimax_m1.jinja",
     "e1790d8fbe1c587e6fc385e2a712363f86faf52ae1fb1fcbfc5ded3eb1fae70a"),
    ("vllm-tool-mistral", "mistralai/Mistral-7B-Instruct-v0.3", APACHE_VLLM,
     VLLM, "a204e405566a165ee59ad776f788e6a829d9138c", "examples/tool_chat_template_mistral.jinja",
     "0121272d0fe4c38287001bb921fbb4a733a2f386fd49ae3a8dc48be7b1a3aa22"),
    ("vllm-tool-mistral3", "mistralai/Mistral-Small-3.1-24B-Instruct-2503", APACHE_VLLM,
     VLLM, "7d26f48f21d2ca3dc97a206d8790bc68177e3bf3", "examples/tool_chat_template_mistral3.jinja",
     "7db8701bc1fd19eae7f3ae5007f4661a3279a09917d860cf620c45fab8a07724"),
    ("vllm-tool-mistral-official", "mistralai/Mistral-7B-Instruct-v0.3", APACHE_VLLM,
     VLLM, "722501a4bf968c1c1089d24698978bd8ad55129e", "examples/tool_chat_template_mistral_official.jinja",
     "a9b886032db264e10806bced58e7251e2179f20baddbefa75ccb3e5907cc45cf"),
    ("vllm-tool-mistral-parallel", "mistralai/Mistral-7B-Instruct-v0.3 (parallel tool calls)", APACHE_VLLM,
     VLLM, "e5fa94509b708330e28208a55c84aba8a7781675", "examples/tool_chat_template_mistral_parallel.jinja",
     "0b4dd7ac0ba2c78c0d70a94b03bb2357c5dd1988ae223c382475d5775b73045a"),
    ("vllm-tool-minicpm3", "openbmb/MiniCPM3-4B", APACHE_VLLM,
     VLLM, "85fce11e1ec339450c11dd8a41b0edd962940747", "examples/tool_chat_template_minicpm3.jinja",
     "dbd75fe18b14711fa5968600a6f5c974d7d3e63e75fe163ecb99a1e5f94c38c9"),
    ("vllm-tool-muse-glimmer", "MuseGlimmer models (vLLM's ATEM tool template)", APACHE_VLLM,
     VLLM, "0c36f0b4a90331e477df2bd8fe102b0a79ca127d", "examples/tool_chat_template_muse_glimmer.jinja",
     "f864d2afa62d14efba5742c669cd16c0398256c2ef3336b1f690eeb88a8be57f"),
    ("vllm-tool-nemotron-json", "nvidia/Llama-3.3-Nemotron-Super-49B-v1", APACHE_VLLM,
     VLLM, "4b6abc6e36ed61843a1c427c4e72e182a4928eec", "examples/tool_chat_template_nemotron_json.jinja",
     "716c43c6a442aa7569279c498d62a59ddbba4a393367dd740adfaff4db2c1093"),
    ("vllm-tool-nemotron-nano-v2", "nvidia/NVIDIA-Nemotron-Nano-9B-v2", APACHE_VLLM,
     VLLM, "385768ea4bb849a846fa783ee83be516205ccff3", "examples/tool_chat_template_nemotron_nano_v2.jinja",
     "473e3deaf34ed263a5503e16e2ad632f06750914e56959598444ce8feeabc9be"),
    ("vllm-tool-olmo3", "allenai/Olmo-3-7B-Instruct", APACHE_VLLM,
     VLLM, "2e30b474731f235b021ecf9821124116786dfce5", "examples/tool_chat_template_olmo3.jinja",
     "e70e43260c0fb5bcaf44bf9a474991b25f9c4e6281b75fc1cc5ea281f18abc0e"),
    ("vllm-tool-phi4-mini", "microsoft/Phi-4-mini-instruct", APACHE_VLLM,
     VLLM, "07b13497a9b52274d334090a9a8e04d5ec9ca7e9", "examples/tool_chat_template_phi4_mini.jinja",
     "b79920e63d66e05500b4f087cfd86d9d9123443a6bf7e0975aa4ec7c59aa8a38"),
    ("vllm-tool-qwen2.5-coder", "Qwen/Qwen2.5-Coder-32B-Instruct", APACHE_VLLM,
     VLLM, "b2a38336702b02ee92b13f1d51adcb0d5bdaeac3", "examples/tool_chat_template_qwen2_5_coder.jinja",
     "6d56764f094c8cbe4babf7ed97dfc36aeac4b87c85de4f85e6ba7d94b1a4e71f"),
    ("vllm-tool-qwen3coder", "Qwen/Qwen3-Coder-30B-A3B-Instruct", APACHE_VLLM,
     VLLM, "7a3bde4c9988d419449263a80f79e5d586e872a4", "examples/tool_chat_template_qwen3coder.jinja",
     "5a38bfa05833266240066aedc497decc9b00cc0d3e3b8cceea98cf530196ab06"),
    ("vllm-tool-toolace", "Team-ACE/ToolACE-8B", APACHE_VLLM,
     VLLM, "d8aae5150beafbc83be435642516c330e501b35e", "examples/tool_chat_template_toolace.jinja",
     "1e436e9d339ad4a6f07a28980b9bbdca966fef9c0de212e421099edb685ed125"),
    ("vllm-tool-translategemma", "google/translategemma-4b-it", APACHE_VLLM,
     VLLM, "1905d9ba0429b0a31198e7d777b596d139d39894", "examples/tool_chat_template_translategemma.jinja",
     "193859e1a6c4a49a8e36edd0506233fc189dd9d2506e2f1352b80559498c56a7"),
    ("vllm-tool-xlam-llama", "Salesforce/Llama-xLAM-2-8b-fc-r", APACHE_VLLM,
     VLLM, "466716c2bb5f3d191eeaf25459ec6c3bb09f11d7", "examples/tool_chat_template_xlam_llama.jinja",
     "777a5f5ca9ed21c53f304755725fae008da2a1ad7712fb0698310e23cc1c71c9"),
    ("vllm-tool-xlam-qwen", "Salesforce/xLAM-2-32b-fc-r", APACHE_VLLM,
     VLLM, "31106f4f486decd092d235ea4b8a729ce5342158", "examples/tool_chat_template_xlam_qwen.jinja",
     "1d41a6a1069756ec894eff8eef5cacf89a2338107d376af6903d4c334a9f24b6"),
    ("vllm-tool-template-cohere", "CohereForAI/c4ai-command-r-v01 (vLLM's older tool template)", APACHE_VLLM,
     VLLM, "3bf1e982e85cfcf5fa8ce4058ae843bbc8841622", "examples/tool_template_cohere.jinja",
     "92200a6cc87d719273cc528b9fc20fe18b8272154d8cd33163592892591f2619"),
    # chujiezheng/chat_templates (MIT) keeps chat templates its author wrote
    # for models whose tokenizer had none or a faulty one: its own work, so its
    # licence applies. The name is chujiezheng- and the file's.
    ("chujiezheng-alpaca", "tatsu-lab/alpaca-7b-wdiff", MIT_CHUJIE,
     CHUJIE, CHUJIE_COMMIT, "chat_templates/alpaca.jinja",
     "c809acafb5915672fe8db9b3970cd691a63c24f971e39b6ce03e8fec42ea6ff4"),
    ("chujiezheng-amberchat", "LLM360/AmberChat", MIT_CHUJIE,
     CHUJIE, CHUJIE_COMMIT, "chat_templates/amberchat.jinja",
     "a4002ce905c568c2890306915744fb4eaa77d90118b8563abbf7c4c8c7d8194d"),
    ("chujiezheng-chatml", "Qwen/Qwen2-7B-Instruct, 01-ai/Yi-6B-Chat, microsoft/Orca-2-7b (ChatML)", MIT_CHUJIE,
     CHUJIE, CHUJIE_COMMIT, "chat_templates/chatml.jinja",
     "81a800d52014500ed43923f335cdf7a40c6cb2f54ce368ba39eeba97e6d908cc"),
    ("chujiezheng-chatqa", "nvidia/Llama3-ChatQA-1.5-8B", MIT_CHUJIE,
     CHUJIE, CHUJIE_COMMIT, "chat_templates/chatqa.jinja",
     "ceaa937bdcc6c18f7db605956e1e26f6d9dfba3dff41ac72d6bcc8ff9db4f9e5"),
    ("chujiezheng-falcon-instruct", "tiiuae/falcon-7b-instruct", MIT_CHUJIE,
     CHUJIE, CHUJIE_COMMIT, "chat_templates/falcon-instruct.jinja",
     "2ea58abc12c20011007b1146bd46d65ad293c72a8ab145de06ef146b00b03c6e"),
    ("chujiezheng-gemma-it", "google/gemma-7b-it, google/gemma-2-9b-it", MIT_CHUJIE,
     CHUJIE, CHUJIE_COMMIT, "chat_templates/gemma-it.jinja",
     "4756ecd3b16b636641d3d6284f5ee0ca580380d94314912c5102ce7bb35d18fb"),
    ("chujiezheng-granite-3.0-instruct", "ibm-granite/granite-3.0-8b-instruct", MIT_CHUJIE,
     CHUJIE, CHUJIE_COMMIT, "chat_templates/granite-3.0-instruct.jinja",
     "d7f1fa46794895c5fbb06265fb87e938a232c498d01d815ac9a8752c0583f9b6"),
    ("chujiezheng-llama-2-chat", "meta-llama/Llama-2-7b-chat-hf", MIT_CHUJIE,
     CHUJIE, CHUJIE_COMMIT, "chat_templates/llama-2-chat.jinja",
     "08361df082b3697050d8b96a82167be31ada85c9c570e009b9680f3d869ac396"),
    ("chujiezheng-llama-3-instruct", "meta-llama/Meta-Llama-3-8B-Instruct (and 3.1, 3.2)", MIT_CHUJIE,
     CHUJIE, CHUJIE_COMMIT, "chat_templates/llama-3-instruct.jinja",
     "e64b9d1edb772d59e4cc4f692ba4a33be1d4382ec4890c6bf7cdbb46c99dff21"),
    ("chujiezheng-mistral-instruct", "mistralai/Mistral-7B-Instruct-v0.3", MIT_CHUJIE,
     CHUJIE, CHUJIE_COMMIT, "chat_templates/mistral-instruct.jinja",
     "66cab0fd568c720ac6e014e6f883ab4c6b8b76478cdb5f3c7bc367d27bcaff99"),
    ("chujiezheng-openchat-3.5", "openchat/openchat_3.5", MIT_CHUJIE,
     CHUJIE, CHUJIE_COMMIT, "chat_templates/openchat-3.5.jinja",
     "b331cc81802983120d2956a9d39b3a61541ece483a950fcece600e94c5485ee4"),
    ("chujiezheng-phi-3", "microsoft/Phi-3-mini-4k-instruct", MIT_CHUJIE,
     CHUJIE, CHUJIE_COMMIT, "chat_templates/phi-3.jinja",
     "fc5a9b106e9efefb9e6c403d2e92d9f1d0614401bbe0cf39a7b1f43bd08d558d"),
    ("chujiezheng-phi-3-small", "microsoft/Phi-3-small-8k-instruct", MIT_CHUJIE,
     CHUJIE, CHUJIE_COMMIT, "chat_templates/phi-3-small.jinja",
     "0834a087ccf401a67f5fe6de834ce31a9fe6698815a2fee314622ced10fb9fa9"),
    ("chujiezheng-qwen2.5-instruct", "Qwen/Qwen2.5-7B-Instruct", MIT_CHUJIE,
     CHUJIE, CHUJIE_COMMIT, "chat_templates/qwen2.5-instruct.jinja",
     "ff3042c0f32a50b9a48604b484daf3934aafa5626acb4bc183ce5f2e102faef6"),
    ("chujiezheng-saiga", "IlyaGusev/saiga_mistral_7b_lora", MIT_CHUJIE,
     CHUJIE, CHUJIE_COMMIT, "chat_templates/saiga.jinja",
     "abf1dd07919b7017c351e19d4c2803fd08d21382efa6343357642c1d8d9db26e"),
    ("chujiezheng-solar-instruct", "upstage/SOLAR-10.7B-Instruct-v1.0", MIT_CHUJIE,
     CHUJIE, CHUJIE_COMMIT, "chat_templates/solar-instruct.jinja",
     "97dd53bd17997077cedaad629d48cf1966e5ecd4d530201a9b1769e37e4e3fea"),
    ("chujiezheng-vicuna", "lmsys/vicuna-7b-v1.5", MIT_CHUJIE,
     CHUJIE, CHUJIE_COMMIT, "chat_templates/vicuna.jinja",
     "4048b56ec9ccc441161918f8c992d606d1c50b4f728a33d1bcd9aaeed88f7c66"),
    ("chujiezheng-zephyr", "HuggingFaceH4/zephyr-7b-alpha", MIT_CHUJIE,
     CHUJIE, CHUJIE_COMMIT, "chat_templates/zephyr.jinja",
     "a41f4cf24c71ac63554ca7c46efee71e70e1e04c7e22fe3e17c65411c90d36cc"),
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
        "Templates the package does not hold. Each `templates/<name>.jinja` of this",
        "table is, byte for byte, the file of a public GitHub repository at a commit,",
        "whose SHA-256 collect.py checks. llama.cpp (MIT) keeps, under `models/templates/`,",
        "the chat templates of models it tests, each written by its",
        "`scripts/get_chat_template.py`: the `chat_template` of the model's",
        "tokenizer_config.json on Hugging Face, unchanged; its fork ik_llama.cpp (MIT)",
        "keeps the same folder, with more models. minja (MIT) keeps, in `tests_files/`,",
        "a template its tests read. vLLM (Apache-2.0) ships, under `examples/`, chat",
        "templates it wrote for the models it serves (most of them for tool calling,",
        "passed as `--chat-template`), and chujiezheng/chat_templates (MIT) keeps chat",
        "templates its author wrote for models whose tokenizer had none or a faulty one:",
        "these are each repository's own work, so each repository's licence applies to",
        "them, not the model's. Nine of these files have CRLF line endings throughout",
        "(`vllm-alpaca`, `vllm-chatglm2`, `vllm-falcon`, `vllm-falcon-180b`,",
        "`vllm-inkbot`, `vllm-tool-deepseekv3`, `vllm-tool-gemma3-pythonic`,",
        "`vllm-tool-internlm2-tool`, `chujiezheng-qwen2.5-instruct`). chujiezheng's",
        "was taken byte for byte from the repository (`git show`); vLLM's eight were",
        "read through a file index that",
        "drops carriage returns and rebuilt as its text with every `\\n` written `\\r\\n`,",
        "only after checking that the stored file is CRLF throughout (its length in",
        "characters is the text's plus its number of line breaks), so their SHA-256 is",
        "of the rebuilt bytes, which collect.py checks against the real file when it",
        "downloads it.",
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
