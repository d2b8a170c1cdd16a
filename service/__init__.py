"""The service as an operator runs it: its settings (one table, read from `BAND_*` variables or a dict) and the
command line of SPEC §6 (serve, init-db, create-user, demo, backup, check, copy-to)."""
