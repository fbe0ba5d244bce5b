"""`--help` in words, not Python types: Typer 0.29 shows each parameter's annotation in the help's types
column (`<bool>`, `<str>`, `<list[str]>`, `<int range> [0<=x<=9223372036854775807]`). `plain_words` gives
every parameter of a command (and of its subcommands) a word a user reads there — none for a flag, TEXT, N,
X, FILE, a choice's values — and leaves out a number range too long for the column (the option's help says
it in words). Only the help changes: parsing and error messages are Typer's."""

from __future__ import annotations

from typing import Any

from typer._click import Command, Context
from typer.core import TyperGroup

RANGE_SHOWN = 12
"""A number range longer than this many characters is left out of the types column."""


def plain_words(command: Command) -> None:
    """Show a readable word in the help's types column for every parameter of `command` and its
    subcommands."""
    for param in command.params:
        _plain(param)
    help_option = command.get_help_option

    def plain_help_option(ctx: Context) -> Any:
        option = help_option(ctx)
        if option is not None:
            _plain(option)
        return option

    command.get_help_option = plain_help_option  # type: ignore[method-assign]  # Click looks the method up on the instance: assigning it is how one command's help option is replaced
    if isinstance(command, TyperGroup):
        for sub in command.commands.values():
            plain_words(sub)


def _plain(param: Any) -> None:
    word = _word(param)
    param.display_type_rich = lambda ctx: word
    range_text = getattr(param, "_get_number_range_help_str", None)
    if callable(range_text) and len(range_text() or "") > RANGE_SHOWN:
        param._get_number_range_help_str = lambda: None


def _word(param: Any) -> str | None:
    """The types column's word for `param` (None for a flag, which takes no value)."""
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return None
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None:
        return None
    if descriptor.is_choice and descriptor.choices:
        word = "|".join(str(getattr(choice, "value", choice)) for choice in descriptor.choices)
    elif descriptor.is_path or descriptor.is_file:
        word = "FILE"
    elif _base(descriptor.annotation) is int:
        word = "N"
    elif _base(descriptor.annotation) is float:
        word = "X"
    else:
        word = "TEXT"
    return f"{word} …" if descriptor.is_list else word


def _base(annotation: Any) -> Any:
    """The element type of a list annotation, else the annotation."""
    arguments = getattr(annotation, "__args__", None)
    return arguments[0] if getattr(annotation, "__origin__", None) is list and arguments else annotation
