"""The band's rules, with no Flask in them: staffing and availability, invitations, pay and who may see it, a
musician's own work, custom fields, the rules that span records, the first run, the signed links, and the one
error type they raise. Plain functions on models; routes and the background work call them."""
