"""The REST API against its own OpenAPI schema (schemathesis over the in-process app): no request schemathesis
makes from the schema gets a 500, and every answer is one the schema documents (status, headers, body)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from warcards.server import create_app
from warcards.server.config import ServerConfig

FOLDER = Path(tempfile.mkdtemp(prefix="warcards-schema-"))
APP = create_app(f"sqlite:///{FOLDER / 'server.sqlite3'}", config=ServerConfig(max_tables_per_address=0))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
CHECKS = [
    not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
    response_schema_conformance,
]
"""No 500, and every answer as the schema documents it. (Starlette answers an unrouted method on /tables
with the `Allow` of one of its routes only, so schemathesis's method checks are left out.)"""


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_rest_api_answers_as_its_schema_says(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=CHECKS)
