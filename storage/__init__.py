"""What keeps the database and the service's files: the writer (every write's turn and transaction), the numbered
migrations, answers remembered until the database changes, and private files. The dialects are `dialects/`, the
migrations' steps `sql/`."""
