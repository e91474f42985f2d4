"""A session: the loop between agent and customer, the scripted customer, the built-in agents and
the trace."""
