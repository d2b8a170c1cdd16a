-- Step 2: gig status kinds are inquiry|tentative|confirmed|completed|cancelled (SPEC §5). The old `closed` meant
-- both "played" and "called off": a status named for a played gig becomes `completed`, every other `cancelled`.
UPDATE gig_statuses SET kind = 'completed'
 WHERE kind = 'closed' AND lower(trim(name)) IN ('completed', 'complete', 'played', 'done', 'finished');
UPDATE gig_statuses SET kind = 'cancelled' WHERE kind = 'closed';
UPDATE gig_statuses SET kind = 'inquiry' WHERE kind = 'tentative' AND lower(trim(name)) IN ('inquiry', 'enquiry');
