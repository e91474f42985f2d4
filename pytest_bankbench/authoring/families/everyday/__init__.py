"""Everyday-banking families: accounts and service requests, cheques, complaints, knowledge
questions, payees, source accounts, statements and transfers."""
