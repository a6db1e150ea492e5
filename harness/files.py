"""Small file helpers shared by every layer."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path
from typing import Any


def escape_surrogates(text: str) -> str:
    """``text`` with lone surrogates (JSON strings, file names that are not UTF-8, a submission's
    error messages) written as escapes, so that no write, hash or print of it fails."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON to a temp file and rename it over ``path`` (readers never see half a file)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def remove_tree(path: Path) -> bool:
    """Remove ``path`` and everything under it, also folders a job made unreadable or unwritable
    (``chmod 000``: a plain ``rmtree`` cannot list or empty them); returns whether it is gone."""
    shutil.rmtree(path, ignore_errors=True)
    if not os.path.lexists(path):
        return True
    for folder, folders, _ in os.walk(path):  # give the owner its rights back, top down
        for name in folders:
            target = os.path.join(folder, name)
            if not os.path.islink(target):
                try:
                    os.chmod(target, stat.S_IRWXU)
                except OSError:
                    pass
    try:
        if not os.path.islink(path):
            os.chmod(path, stat.S_IRWXU)
    except OSError:
        pass
    shutil.rmtree(path, ignore_errors=True)
    return not os.path.lexists(path)
