"""Start-up stays light: ``import meteor`` and the CLI's module load no heavy optional
package (scipy.stats ~0.6 s, plotly ~0.5 s, distributed ~0.3 s); they are imported by the
commands that use them (correlate/tune, report's HTML, stream).  Measured by the bench's
start-up column (``bench/bench_marginal.py``); this test pins the cause, not the time."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("scipy", "plotly", "distributed", "dask", "sacrebleu", "pandas", "streamlit")


@pytest.mark.parametrize("module", ["meteor", "meteor.cli.command_line"])
def test_importing_loads_no_heavy_package(module: str) -> None:
    code = f"import sys, {module}\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip() == "", out.stdout


def test_lazy_public_names_are_the_library_functions() -> None:
    import meteor
    from meteor.analysis.agreement import correlate
    from meteor.analysis.tune import tune

    assert meteor.correlate is correlate
    assert meteor.tune is tune
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        meteor.nope  # noqa: B018
