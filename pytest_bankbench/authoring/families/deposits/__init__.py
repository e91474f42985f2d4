"""Deposit families: booking FDs and RDs, closing FDs, the limits on booking, locked
deposits (liens, tax savers)."""
