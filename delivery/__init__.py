"""What the service sends after a request has been answered: the background worker, the queue sender its senders
share, back-off, outgoing requests and mail; notifications/, push/ and webhooks/ each a package of its own. Nothing
here imports routes/ or Flask's request machinery."""
