from decimal import Decimal

from invoicing.invoice import Invoice
from invoicing.report import largest_taxes, tax_by_region


def test_tax_by_region():
    invoices = [Invoice("DE").add("a", 100), Invoice("FR").add("b", 10), Invoice("DE").add("c", 10, "exempt")]
    assert tax_by_region(invoices) == {"DE": Decimal("19.00"), "FR": Decimal("2.00")}


def test_largest_taxes():
    assert largest_taxes([10, 300, 20, 5], "UK", count=2) == [Decimal("60.00"), Decimal("4.00")]
