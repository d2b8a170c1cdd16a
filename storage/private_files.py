"""The files the service writes (the database and its WAL, backups, the copies made before a migration, `file:`
mail) hold the signing key and webhook secrets: each is readable by the service's user alone, mode 0600, and the
directories it creates are 0700 (SPEC §2.3), whatever the umask it was started with."""

import os
from pathlib import Path

FILE_MODE = 0o600
DIRECTORY_MODE = 0o700


def private_file(path):
    """Make `path` a file its owner alone may read: created empty when missing, narrowed when it is there. Whatever
    writes it next (SQLite, a mailer) keeps the mode."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT, FILE_MODE)
    try:
        if os.fstat(descriptor).st_mode & 0o777 != FILE_MODE:  # an older file, or a umask that took owner bits
            os.fchmod(descriptor, FILE_MODE)
    finally:
        os.close(descriptor)


def private_directory(path):
    """Make the directory `path`, and those missing above it, each 0700; one that is there is left as it is."""
    path = Path(path)
    for directory in reversed([path, *path.parents]):
        if not directory.is_dir():
            directory.mkdir(mode=DIRECTORY_MODE, exist_ok=True)
            os.chmod(directory, DIRECTORY_MODE)  # mkdir's mode passes through the umask
