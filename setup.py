"""The one thing pyproject.toml cannot say without an experimental table: the double-dummy
solver's search in C (table_controller/analysis/_kernel.c, README "Analysis for
commentators").  `pip install -e .` (`make setup`) builds it with the system's C compiler
and Python headers.  Optional: without a compiler the install goes on and the solver runs
its own Python search; tests/analysis/test_solver_kernel.py then fails, so CI notices."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "table_controller.analysis._kernel",
            sources=["table_controller/analysis/_kernel.c"],
            optional=True,
        )
    ]
)
