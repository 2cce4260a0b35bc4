"""The contracts: generated protobuf code (contracts.v1) and converters between engine data and messages.

- contracts.actions: 18xx.games action JSON <-> roundhouse.v1.Action, lossless.
- contracts.envelopes: building and validating the records of the game log.
- contracts.tournament: tournament records and views <-> libs/tournament's objects.
"""
