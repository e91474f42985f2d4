"""tasks/families."""
