"""Schemathesis against the OpenAPI document: generated requests (valid and not) to
every operation never get a server error, and answers match the documented shapes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error

from yatzy.bootstrap import open_service
from yatzy.web.app import Settings, create_app

#: Generated requests per operation.
EXAMPLES = 50


def test_no_server_errors(tmp_path: Path) -> None:
    app = create_app(open_service(tmp_path / "web.sqlite3"), Settings(pace=0.0, rate=0.0))
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    calls: dict[str, int] = {}
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 7

    for operation in operations:
        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        def run(case: Any) -> None:
            response = case.call()
            label = case.operation.label
            calls[label] = calls.get(label, 0) + 1
            assert response.status_code < 500, (case.method, case.path, response.text)
            case.validate_response(response, checks=[not_a_server_error])

        run()
    assert sum(calls.values()) >= 5 * len(operations), calls
    print(f"schemathesis: {sum(calls.values())} requests over {len(operations)} operations",
          calls)
