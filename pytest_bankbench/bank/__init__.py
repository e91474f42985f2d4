"""The seeded SQLite bank: its schema and records, the policy's rules, and the tools an agent
calls."""
