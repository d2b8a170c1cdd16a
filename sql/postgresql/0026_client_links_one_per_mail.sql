-- Step 26: a gig contact may hold several live links: each mail to the client carries one of its own beside the
-- links of the mails before (an older mail's link keeps working); the office's new link replaces them all.
DROP INDEX "clientlink_gig_contact_id";
CREATE INDEX "clientlink_gig_contact_id" ON "client_links" ("gig_contact_id");
