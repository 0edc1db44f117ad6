"""Invoices with per-region sales tax."""
