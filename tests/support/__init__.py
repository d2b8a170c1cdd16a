"""What the tests share, by job (a test imports from the module it needs):

- `api`: the API client over Flask's test client, the check of the error envelope, records read back;
- `users`: users and tokens made directly in the database, and the moments they expire at;
- `records`: builders of valid records for every collection, and names that are unique;
- `database`: the statements a request runs, the shape of a database, and this process's connections released;
- `mail`: the mail a test sent and the sign-in links in it;
- `waiting`: polling with a deadline, and how long "at once" may take on a busy machine;
- `served`: the service run as a user runs it (`python app.py serve` in a process of its own);
- `zygote`: the processes of `python app.py …`, forked from one that has imported the project already;
- `documented`: answers checked against the OpenAPI document;
- `pages`: the HTML pages' elements and Content-Security-Policy, and the browser that opens them;
- `answering`: an office whose members are invited to a gig role and answer by link;
- `demos`: demo databases as `python app.py demo` writes them, read-only connections to them, apps on copies;
- `musicians`: a band of two musicians with gigs and invitations, as a musician's own work (/me) reads it;
- `custom_fields`: custom-field definitions on the collections that take them, and fixtures walking those;
- `equipment`: equipment a product needs and equipment on a gig;
- `uploads`: attachments uploaded as multipart/form-data, as the test client and as a browser sends them;
- `feeds`: calendar feed URLs and their paths, feeds fetched and read back, the gigs and roles that fill them;
- `queued`: people with devices in a served office, and notifications queued straight into its database;
- `notified`: an office whose members are told of a gig, and the notification rows its rules make;
- `gateways`: pushes sent through the push gateways to their local stand-ins, and fixtures starting those;
- `webhook_office`: a served office with fast webhook schedules, and the calls its webhook tests make;
- `receiver`, `smtp_server`, `push_servers`: local stand-ins for a webhook receiver, an SMTP server and the push
  gateways.
"""

from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent.parent
