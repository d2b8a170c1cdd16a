"""What the tests share, by job (a test imports from the module it needs):

- `api`: the API client over Flask's test client, the check of the error envelope, records read back;
- `users`: users and tokens made directly in the database, and the moments they expire at;
- `records`: builders of valid records for every collection, names that are unique, a venue and a letterhead;
- `days`: the office's today, moved by a number of days, in the API's form;
- `database`: the statements a request runs, the shape of a database, this process's connections released, rows
  written by SQL;
- `postgresql`: the database a test runs on and where it is; `postgresql_server`: the tests' own PostgreSQL server
  and the statements run on it; `database_copies`: the PostgreSQL databases made ahead and emptied after a test;
- `mail`: the mail a test sent and the sign-in links in it;
- `waiting`: polling with a deadline, and how long "at once" may take on a busy machine;
- `served`: the service run as a user runs it (`python app.py serve` in a process of its own);
- `zygote`: the processes of `python app.py …`, forked from one that has imported the project already;
- `commands`: commands of `app.py` run one after another in one process;
- `live`: the test's app served by waitress in a thread, and calls to it from many threads at once;
- `moves`: an office moved to PostgreSQL with `app.py copy-to`, and the copy served;
- `documented`: answers checked against the OpenAPI document, and its operations walked;
- `pages`: the HTML pages' elements and Content-Security-Policy, and the browser that opens them;
- `console`: the office console as a test drives it: the demo office served, signed-in browser contexts, axe;
- `desktop_notifications`: a stand-in notification centre on D-Bus, where Chromium shows a web page's notifications;
- `demos`: demo databases as `python app.py demo` writes them, read-only connections to them, apps on copies;
- `answering`: an office whose members are invited to a gig role and answer by link;
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
  gateways;
- `sales`: quotes, contracts and invoices put straight into the states SPEC §15's operations leave them in, lines;
- `documents`: a band office's documents as plain data, for the tests of `documents/`;
- `pdfs`: the service's PDFs read back: their text and their QR codes;
- `inquiries`: a couple's inquiry as the form on `/inquire` sends it, and what one could have made;
- `client_links`: the couple's link made for a gig contact, and the token in it;
- `signing`: a couple's signature drawn with the mouse on the client page's pad.
"""

from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent.parent
