from invoicing.money import to_money
from invoicing.rates import RATES, UnknownRegion


def tax_for(amount, region, category="standard"):
    """Sales tax due on `amount` in `region` for a product `category`, as money (Decimal, cents).

    `region` is a code of `RATES` (case-insensitive); an unknown region raises UnknownRegion.
    An unknown category is taxed at the region's standard rate. Negative amounts (refunds)
    give negative tax.
    """
    raise NotImplementedError


def gross(amount, region, category="standard"):
    """Amount plus its tax."""
    return to_money(amount) + tax_for(amount, region, category)
