from decimal import Decimal

from invoicing.money import format_money, to_money


def test_to_money_rounds_half_up():
    assert to_money(2.675) == Decimal("2.68")


def test_format_money():
    assert format_money(1234.5) == "1,234.50 EUR"
