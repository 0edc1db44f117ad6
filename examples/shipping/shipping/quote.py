"""A parcel's shipping quote, written test first: the signatures, docstrings and tests are
there, the bodies are not. `quote` needs the two functions after it."""

from decimal import Decimal

from .zones import FREE_WEIGHT_KG, SURCHARGE_PER_KG, ZONE_RATES


def quote(weight_kg, zone):
    """The parcel's price as a Decimal: the zone's base rate plus the weight surcharge.

    >>> quote(3, "domestic")
    Decimal('5.75')
    """
    raise NotImplementedError


def base_rate(zone):
    """The zone's flat rate (ZONE_RATES); an unknown zone raises ValueError that names it."""
    raise NotImplementedError


def weight_surcharge(weight_kg):
    """SURCHARGE_PER_KG for each started kilogram above FREE_WEIGHT_KG; Decimal 0 up to it."""
    raise NotImplementedError
