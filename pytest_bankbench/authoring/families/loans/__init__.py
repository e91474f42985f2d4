"""Loan families: foreclosing a loan and prepaying it."""
