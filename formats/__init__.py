"""The API's formats beside `schemas.py` (one schema per resource): the field types that parse JSON values strictly,
the schemas of the operations that are not collections, and what a device's push token is on each platform."""
