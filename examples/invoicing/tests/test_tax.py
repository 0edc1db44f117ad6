from decimal import Decimal

import pytest

from invoicing.rates import UnknownRegion
from invoicing.tax import gross, tax_for


def test_standard_rate():
    assert tax_for(100, "DE") == Decimal("19.00")


def test_reduced_rate_rounds_half_up():
    assert tax_for("10.10", "FR", "reduced") == Decimal("0.56")


def test_region_is_case_insensitive():
    assert tax_for(50, "uk") == Decimal("10.00")


def test_unknown_category_uses_standard_rate():
    assert tax_for(10, "DE", "luxury") == Decimal("1.90")


def test_unknown_region():
    with pytest.raises(UnknownRegion):
        tax_for(10, "XX")


def test_refund_gives_negative_tax():
    assert tax_for(-20, "UK") == Decimal("-4.00")


def test_gross():
    assert gross(10, "DE", "reduced") == Decimal("10.70")
