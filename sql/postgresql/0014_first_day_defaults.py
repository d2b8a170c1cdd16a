"""Step 14: the first day's gig statuses, gig types and office settings, as sql/sqlite/0014_first_day_defaults.py
(that file is written for either database)."""

import importlib.util
from pathlib import Path

SHARED = Path(__file__).resolve().parent.parent / "sqlite" / "0014_first_day_defaults.py"
spec = importlib.util.spec_from_file_location("migration_0014_shared", SHARED)
shared = importlib.util.module_from_spec(spec)
spec.loader.exec_module(shared)
apply = shared.apply
