#!/usr/bin/env python3
"""A rulebook bot: picks a random option (docs/bot-protocol.md).

    rulebook play hai-noon --agent 1=exec:"python3 examples/bots/random_bot.py"
"""
import json
import random
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        random.seed(message["seed"])  # the seat's own seed: the same game plays the same way
    elif message["type"] == "decide":
        choice = random.randrange(len(message["options"]))
        print(json.dumps({"choose": choice}), flush=True)
