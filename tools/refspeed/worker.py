"""Import timing on our engine, the counterpart of reference_worker.rb: reads lines
"EXPORT_PATH ROUNDS" on stdin, imports the export once to warm up, then ROUNDS times (with the
young-generation collection an import leaves behind, as engine.bench counts it), and prints one JSON
line per export: the best CPU time in ms, the number of actions and the game's result. The engine
measured is the one on PYTHONPATH (tools.refspeed sets it per build)."""

import gc
import json
import sys
import time

from engine import import_game

print("ready", file=sys.stderr, flush=True)
for line in sys.stdin:
    path, rounds = line.split()
    with open(path) as f:
        export = json.load(f)
    game = import_game(export)
    best = float("inf")
    for _ in range(int(rounds)):
        gc.collect()
        started = time.process_time()
        game = import_game(export)
        gc.collect(0)
        best = min(best, time.process_time() - started)
    result = {str(k): v for k, v in game.result.items()}
    print(json.dumps({"ms": best * 1000, "actions": len(export["actions"]), "result": result}), flush=True)
