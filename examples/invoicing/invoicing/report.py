def tax_by_region(invoices):
    """Total tax per region over many invoices."""
    totals = {}
    for invoice in invoices:
        totals[invoice.region] = totals.get(invoice.region, 0) + invoice.tax()
    return totals


def largest_taxes(amounts, region, count=3):
    from invoicing.tax import tax_for

    return sorted([tax_for(amount, region) for amount in amounts], reverse=True)[:count]
