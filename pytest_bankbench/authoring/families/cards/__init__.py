"""Card families: bills, blocking a lost or stolen card, card controls and limits, pausing a
card by its channels."""
