"""The band's rules, with no Flask in them: staffing and availability, invitations, pay and who may see it, a
musician's own work, custom fields, capabilities, the rules that span records, the first run, the signed links,
contract templates' text and its values, document numbers, and the error types. Plain functions on models; routes
and the background work call them."""
