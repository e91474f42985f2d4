"""Model-backed agents and simulators (litellm), loaded only when a model is named."""
