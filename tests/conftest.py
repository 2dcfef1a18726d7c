"""Suite-wide test settings."""

from hypothesis import settings

# Speed is measured by the benchmarks in tests/bench, never by a unit test: hypothesis's
# per-example deadline would make a correct test fail on a busy machine.
settings.register_profile("chicago", deadline=None)
settings.load_profile("chicago")
