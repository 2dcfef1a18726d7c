"""Ill-typed corrections are a clear SensingError (issue 13: a `dismiss` index of 4,300
digits crashed the TL's request with a ValueError)."""

import pytest

from table_controller.sensing import SensingError, parse_correction


@pytest.mark.parametrize(
    "text",
    [
        "dismiss " + "9" * 4400,
        "dismiss " + "9" * 10,
        "the card at pad 9" + "9" * 5000 + " is 7H",
        None,
        7,
        ["dismiss 4"],
        "x" * 100_000,
    ],
)
def test_bad_corrections_are_a_clear_error(text):
    with pytest.raises(SensingError) as exc:
        parse_correction(text)
    assert len(str(exc.value)) < 300


def test_a_plain_dismiss_still_reads():
    assert parse_correction("dismiss 123456789: seen").alert == 123456789
