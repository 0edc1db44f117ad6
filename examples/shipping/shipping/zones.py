"""What shipping costs: a flat rate per zone, and a surcharge per kilogram over the free weight."""

from decimal import Decimal

ZONE_RATES = {
    "domestic": Decimal("4.50"),
    "europe": Decimal("9.00"),
    "world": Decimal("15.00"),
}

# A parcel up to this weight pays the zone's rate alone.
FREE_WEIGHT_KG = 2

# Paid for each kilogram, started, above FREE_WEIGHT_KG.
SURCHARGE_PER_KG = Decimal("1.25")
