"""Looking inside PDFs and watching for network access, shared by the PDF and hostile-input tests."""
from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
from pathlib import Path

import pytest


def poppler(tool: str, pdf: bytes, tmp_path: Path, *args: str) -> str:
    """Run a poppler-utils tool on the PDF's bytes and return its output."""
    if shutil.which(tool) is None:
        message = f"{tool} not found: run bin/setup (installs Debian's poppler-utils)"
        if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    path = tmp_path / "doc.pdf"
    path.write_bytes(pdf)
    command = [tool, *args, str(path)] + (["-"] if tool == "pdftotext" else [])  # text to stdout
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def squeeze(text: str) -> str:
    """pdftotext breaks lines and spaces table cells apart: compare text without white space."""
    return re.sub(r"\s+", "", text)


class Listener:
    """A TCP port on 127.0.0.1 that tells whether anything connected to it."""

    def __init__(self):
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(5)
        self.server.setblocking(False)
        self.port = self.server.getsockname()[1]

    def connected(self) -> bool:
        try:
            conn, _addr = self.server.accept()
        except BlockingIOError:
            return False
        conn.close()
        return True
