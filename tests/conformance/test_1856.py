"""Every recorded 1856 game replays to exactly its recorded final scores and game-end reason, and
every recorded route is worth exactly its recorded revenue by our own computation (the best-route
search finding at least as much); played move by move, every move validated as in live play, each
reaches the same result but the one stopped where noted below."""

from .conftest import recorded_game_tests

# hotseat001 recorded WGB reaching its destination when its track reaches only Lake Huron (TGB's
# destination): imports honour the recorded check, but played move by move our rules' check differs
# and the replay stops there, saying so.
REFUSED = {"hotseat001": (79, "the record's automatic moves [{\"corporations\": [\"WGB\"]")}

# Games played on the reference engine that stop today because the track walk loses the paths behind
# a converging exit (a token step, a tile upgrade or rotation refused): expected to fail until the
# walk is fixed, then in the suite like the others.
WALK = "the track walk loses paths behind a converging exit"
AWAITING = {"rand_1856_24_3p": ({"import", "move"}, f"{WALK}: token step skipped at index 391"),
            "rand_1856_25_4p": ({"import", "move"}, f"{WALK}: token step skipped at 1286, rotation refused at 1208"),
            "rand_1856_42_5p": ({"move"}, f"{WALK}: upgrade refused at index 1359"),
            "rand_1856_43_3p": ({"import", "move"}, f"{WALK}: upgrade refused at 455, token step skipped at 658")}

globals().update(recorded_game_tests("1856", refused=REFUSED, awaiting=AWAITING))
