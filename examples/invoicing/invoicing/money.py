from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def to_money(value):
    """A Decimal rounded half-up to cents, from an int, float, str or Decimal."""
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


def format_money(amount, currency="EUR"):
    return f"{to_money(amount):,.2f} {currency}"
