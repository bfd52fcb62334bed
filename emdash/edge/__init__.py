"""The request edge, before any door runs: body limits, rate limits, the login throttle, the input guard, CORS,
CSP, the trusted proxy and the websocket origin check."""
