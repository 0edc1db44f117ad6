from decimal import Decimal

import pytest

from shipping.quote import base_rate, quote, weight_surcharge


def test_a_light_domestic_parcel_pays_the_rate_alone():
    assert quote(1, "domestic") == Decimal("4.50")


def test_a_heavy_parcel_pays_each_started_kilogram():
    assert quote(4.2, "world") == Decimal("18.75")


def test_base_rate_of_europe():
    assert base_rate("europe") == Decimal("9.00")


def test_an_unknown_zone_is_named():
    with pytest.raises(ValueError, match="mars"):
        base_rate("mars")


def test_no_surcharge_up_to_the_free_weight():
    assert weight_surcharge(2) == 0


def test_surcharge_counts_started_kilograms():
    assert weight_surcharge(3.1) == Decimal("2.50")
