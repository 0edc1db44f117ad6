"""Sales-tax rates per region and product category, in per cent."""

RATES = {
    "DE": {"standard": 19, "reduced": 7, "exempt": 0},
    "FR": {"standard": 20, "reduced": 5.5, "exempt": 0},
    "UK": {"standard": 20, "reduced": 5, "exempt": 0},
}


class UnknownRegion(KeyError):
    """Raised for a region code that has no tax table."""
