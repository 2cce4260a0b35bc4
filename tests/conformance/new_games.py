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

NOT_YET = {}
