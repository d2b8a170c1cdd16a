"""The ceiling of the stack for the benchmark: Flask under waitress (8 threads) answering a constant JSON body.

.venv/bin/python scripts/ceiling.py PORT
"""

import logging
import sys

from flask import Flask
from waitress import serve

app = Flask(__name__)


@app.get("/v1/constant")
def constant():
    return {"data": {"status": "ok", "version": "1.0.0"}}


if __name__ == "__main__":
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    serve(app, host="127.0.0.1", port=int(sys.argv[1]), threads=8, _quiet=True)
