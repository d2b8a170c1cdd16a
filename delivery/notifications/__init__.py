"""Notifications (SPEC §9): who is told what, when, as rows of `Notification` that the sender takes to each
channel once they are due.

- `listeners`: the rules driven by events (invitation, invitation_withdrawn, gig_changed, role_removed), written
  in the event's own transaction (`register()`, called by the app factory, has them listen);
- `timed`: the worker's rules (invitation_reminder, gig_reminder, office_digest): `run_timed(config)`;
- `messages` and `words`: what each says, in plain English; `facts`: what it says, read from the database;
- `queue`: the rows, and `SENDERS`: wake-ups called once a commit gave the senders work;
- `delivery`: what is due, its claim, where each channel goes (or why it is skipped), what is recorded of each
  attempt; `sender`: the worker's sender of mail and push (through the gateways of `delivery/push/`), a `queue_sender`.
"""

from delivery.notifications.listeners import register
from delivery.notifications.queue import SENDERS
from delivery.notifications.timed import run as run_timed

__all__ = ["SENDERS", "register", "run_timed"]
