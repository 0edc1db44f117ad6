from dataclasses import dataclass, field

from invoicing.money import format_money, to_money
from invoicing.tax import tax_for


@dataclass
class Line:
    description: str
    amount: float
    category: str = "standard"


@dataclass
class Invoice:
    region: str
    lines: list = field(default_factory=list)

    def add(self, description, amount, category="standard"):
        self.lines.append(Line(description, amount, category))
        return self

    def net(self):
        return sum((to_money(line.amount) for line in self.lines), to_money(0))

    def tax(self):
        return sum((tax_for(line.amount, self.region, line.category) for line in self.lines), to_money(0))

    def total(self):
        return self.net() + self.tax()

    def render(self):
        rows = [f"{line.description}: {format_money(line.amount)}" for line in self.lines]
        return "\n".join(rows + [f"tax: {format_money(self.tax())}", f"total: {format_money(self.total())}"])
