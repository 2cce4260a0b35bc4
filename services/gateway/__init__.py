"""The gateway: the public gRPC API (roundhouse.v1.Gateway) over the game log.

It authenticates callers by seat token, appends commands, and answers from a read model built by
consuming every partition of the log (services.gateway.readmodel). It never decides game state.
"""

NAME = "gateway"
