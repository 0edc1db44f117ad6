from decimal import Decimal

from invoicing.invoice import Invoice


def make_invoice():
    return Invoice("DE").add("book", 20, "reduced").add("lamp", 50)


def test_net():
    assert make_invoice().net() == Decimal("70.00")


def test_tax():
    assert make_invoice().tax() == Decimal("10.90")


def test_total():
    assert make_invoice().total() == Decimal("80.90")


def test_render():
    assert make_invoice().render().endswith("total: 80.90 EUR")
