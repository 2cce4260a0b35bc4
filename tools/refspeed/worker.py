"""Import timing on our engine, the counterpart of reference_worker.rb: reads lines
"EXPORT_PATH TIMED" on stdin and imports that export once; TIMED 0 is the untimed warm-up, 1 a
timed import (after a full collection, with the young-generation collection an import leaves
behind, as engine.bench counts it). Prints one JSON line per request: the import's CPU time in ms,
the number of actions and the game's result. Each export is parsed once and kept, so that a later
pass over the same game reads no file. The engine measured is the one on PYTHONPATH
(tools.refspeed sets it per build)."""

import gc
import json
import sys
import time

from engine import import_game

print("ready", file=sys.stderr, flush=True)
exports: dict[str, dict] = {}
for line in sys.stdin:
    path, timed = line.split()
    if path not in exports:
        with open(path) as f:
            exports[path] = json.load(f)
    export = exports[path]
    game = None
    gc.collect()
    started = time.process_time()
    game = import_game(export)
    gc.collect(0)
    took = time.process_time() - started
    result = {str(k): v for k, v in game.result.items()}
    print(json.dumps({"ms": took * 1000 if timed == "1" else None, "actions": len(export["actions"]),
                      "result": result}), flush=True)
