"""The pytest-free run core: settings, cases, playing one case, and finishing a run."""
