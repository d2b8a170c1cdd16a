"""Webhooks (SPEC §8), one concern in one package; the endpoints' and deliveries' routes are `routes/webhooks.py`.

- `deliveries`: a delivery from its queueing (in its event's transaction) to its claim by a sender, as an attempt;
- `attempts`: what an attempt came to, and what is recorded of it (the next wait, an endpoint switched off);
- `signatures`: the endpoints' secrets (made, rotated, forgotten) and the Standard Webhooks signature headers;
- `sender`: the worker's sender, which claims the due deliveries, POSTs them and records what came of them.
"""
