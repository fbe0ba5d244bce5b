"""Loading card data files: TOML parsed with the standard library, validated by a pydantic schema.

Errors become `CardDataError`s that name the file, the card and the field, so a deck author can fix
their file without reading a traceback.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from warcards.engine.errors import CardDataError

M = TypeVar("M", bound=BaseModel)


def read_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML file or raise `CardDataError` saying where it is broken."""
    file = Path(path)
    try:
        with file.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise CardDataError(f"card file {file} does not exist") from None
    except tomllib.TOMLDecodeError as error:
        raise CardDataError(f"card file {file} is not valid TOML: {error}") from None


def validate_cards(model: type[M], rows: Sequence[Any], source: str, key: str = "id") -> list[M]:
    """Validate each row with `model`; the error names the source, the card (by `key`) and the field."""
    cards: list[M] = []
    problems: list[str] = []
    for index, row in enumerate(rows):
        label = row.get(key, f"#{index + 1}") if isinstance(row, dict) else f"#{index + 1}"
        try:
            cards.append(model.model_validate(row))
        except ValidationError as error:
            for problem in error.errors():
                field = ".".join(str(part) for part in problem["loc"]) or "(card)"
                problems.append(f"card {label}: field {field}: {problem['msg']}")
    if problems:
        shown = "; ".join(problems[:10])
        more = f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""
        raise CardDataError(f"{source}: {shown}{more}")
    return cards
