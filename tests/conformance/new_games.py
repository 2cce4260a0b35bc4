"""Which recorded games of evidence/fixtures-new the suite expects to pass: the one place to switch
them on.

evidence/fixtures-new holds complete games the reference engine plays to the end (seeded random
players on the reference engine; see evidence/README.md). Every one of them runs in the title's
conformance tests like the games of evidence/fixtures, in two parts:

- "import": ``import_game`` reaches the recorded result and every recorded route is worth its
  recorded revenue (test_replay_matches_recorded_result, test_recorded_routes_and_best_routes);
- "move_by_move": every move submitted and validated as the platform submits it reaches the same
  result (test_recorded_game_played_move_by_move_as_the_platform_submits_it).

A part named below does not pass yet: its tests run as strict expected failures, so they fail the
day it starts to pass, until its line here is deleted. Delete a game's line (or one part of it) to
switch it on; the text says where today's rules stop it and why.
"""

NOT_YET = {
    "1856/rand_1856_24_3p": {
        "import": "index 391: CA's token step skipped (the track walk forgets paths, issue 10 item 1)",
        "move_by_move": "index 391: the same token step skipped",
    },
    "1856/rand_1856_25_4p": {
        "import": "index 1286: GW's token step skipped (the track walk forgets paths)",
        "move_by_move": "index 1208: '7 is not legally rotated for 26'",
    },
    "1856/rand_1856_42_5p": {
        "move_by_move": "index 1359: 'Must use new track or change city value'",
    },
    "1856/rand_1856_43_3p": {
        "import": "index 658: GT's token step skipped (the track walk forgets paths)",
        "move_by_move": "index 455: 'Must use new track or change city value'",
    },
    "1847_ae/rand_1847ae_41_4p": {
        "move_by_move": "index 626: 'Must use new track or change city value'",
    },
    "1847_ae/rand_1847ae_42_5p": {
        "move_by_move": "index 478: 'Must use new track or change city value'",
    },
}
