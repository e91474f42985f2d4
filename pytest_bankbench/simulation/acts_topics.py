"""What the customer hears a question or a proposal to be about, as data.

A question's topics say which fact of its script the customer is asked for ("the amount", "which
account"); a proposal's actions say what it would do ("block", "transfer"; "look" is a read), so
the customer takes only a proposal whose actions its script names. Patterns are case-insensitive
regular expressions over one sentence (or, for topics, the turn's asking sentences); see
acts_rules.py for the acts themselves.
"""

from __future__ import annotations

from pytest_bankbench.tasks.model import Topic

# fmt: off
TOPIC_RULES: tuple[tuple[Topic, str], ...] = (
    ("account", r"\b(accounts?|a/c|debit (it |this |the money )?from|fund (it|this)|from which|source)\b"),
    ("amount", r"\b(amount|how much|sum|figure|value)\b"),
    ("payee", r"\b(payees?|beneficiary|beneficiaries|recipient|receiver|ifsc|nickname|person|send (it|this|the money) to|to whom|their (name|account|bank)|who (should|do you want|would you))\b"),
    ("mode", r"\b(mode|neft|imps|rtgs|method|how (should|would you like|do you want) (it|this|the money) (to be )?sent|transfer type|payment type)\b"),
    ("tenure", r"\b(tenure|how long|duration|term|period of the (deposit|fd)|for how many|number of (days|months|years))\b"),
    ("date", r"\b(date|when|which day|what day)\b"),
    ("period", r"\b(period|date range|from (which|what) date|statement (for|period)|which months|time frame|timeframe)\b"),
    ("delivery", r"\b(deliver(y|ed)?|courier|post(ed)?|e-?mail|address|how would you like (it|to receive)|receive it|send it to you|dispatch)\b"),
    ("reason", r"\b(reason|why|what happened|cause)\b"),
    ("card", r"\b(cards?|last (four|4) digits|ending (in|with))\b"),
    ("deposit", r"\b(deposits?|fds?|rds?|fixed|recurring)\b"),
    ("loan", r"\b(loans?|emis?)\b"),
    ("cheque", r"\b(cheques?|check number|leaves)\b"),
    ("channel", r"\b(channel|atm|pos|online|e-?commerce|contactless|international|tap to pay|card usage)\b"),
    ("limit", r"\b(limit|cap|maximum|how much per day|daily)\b"),
    ("maturity", r"\b(maturity|mature|matures|payout|renew(al)?|at the end of the term)\b"),
    ("identity", r"\b(name|date of birth|dob|registered (mobile|phone|email|number|details)|verify (your|you)|identity|customer id|pan)\b"),
    ("other", r"\b((any )?(other|more|additional|further|remaining) (details|information|info)|anything (else )?(i|we) should know|details)\b"),
)
# fmt: on

# What a proposal is about. The customer takes a proposal whose actions its script names
# (`scope`); "look" is a read, which needs no consent.
# fmt: off
ACTION_RULES: tuple[tuple[str, str], ...] = (
    ("look", r"\b(check|look|fetch|pull|retrieve|show|view|see|find|verify|calculate|quote|know|tell you|share|compare|explain|review|search|get you)\w*\b"),
    ("transfer", r"\b(transfer(?! (you|your (call|chat|case|request|query)|this (chat|case)))|send(?! (you|it to you|the statement|a statement|a copy|an? (sms|email|otp)))|remit|neft|imps|rtgs)\w*\b"),
    ("pay", r"\b(pay|paid|payment)\b"),
    # "Add Ishita Mathur (account XXXX2713) as a payee", "add her to your list of beneficiaries"
    ("payee", r"\b(add|register|save|set up|create)\w*\b[^?!\n]{0,80}?\b(payees?|beneficiar(y|ies))\b"),
    ("payee", r"\bnew (payee|beneficiary)\b"),
    ("deposit_open", r"\b(book|open|create|start|set up|put|invest|place|rebook|renew)\w*\b.{0,40}\b(fd|rd|deposit|fixed|recurring)\b"),
    ("deposit_open", r"\b(new|fresh|another) (fd|rd|fixed deposit|recurring deposit|deposit)\b"),
    # "An FD of Rs 50,000 for 365 days would earn 6.80% ... Shall I book it?" (third independent agent)
    ("deposit_open", r"\b(shall|should|can|may) (i|we) (book|open) (it|this|that)\b"),
    ("deposit_close", r"\b(close|closing|closure|break|premature|withdraw|encash|liquidate)\w*\b"),
    ("prepay", r"\b(prepay|pre-pay|part-?prepayment|part payment|part-payment|prepayment)\w*\b"),
    ("foreclose", r"\b(foreclos|pay off|close the loan|repay in full|pre-?close)\w*\b"),
    ("block", r"\b(block|hotlist|freeze|deactivate|stop (the|my|your|this) card|cancel (the|my|your|this) card)\w*\b"),
    ("card_control", r"\b(limit|channel|international|contactless|atm|pos|online|e-?commerce|switch(ed)? (on|off)|turn(ed)? (on|off)|enable|disable)\w*\b"),
    ("cheque_stop", r"\bstop(ped|ping)? (the )?(payment|cheque)\b|\bstop-payment\b"),
    ("cheque_book", r"\bcheque ?book\b"),
    ("statement", r"\bstatement\b"),
    # A human takes over: disputes, fraud reports and complaints go to one.
    ("human", r"\b(transfer|connect|escalate|hand|put|pass|route)\w* (you|me|your|my|this|it)\b.{0,30}\b(to|with)\b"),
    ("human", r"\b(human|specialist|disputes? team|fraud team|someone|whoever|representative|colleague|speak to|talk to|dispute|chargeback|complaint|fraud|raise a (case|ticket)|report (the |this |a )?(transaction|charge|fraud))\w*\b"),
    ("replace", r"\b(replacement|replace|reissue|new card)\w*\b"),
)
# fmt: on

# The same actions for the changes a task's gold chain makes: what the customer asked for,
# however the request was worded ("put Rs 25,000 into my home loan" is a prepayment).
TOOL_ACTIONS: dict[str, tuple[str, ...]] = {
    "transfer_funds": ("transfer", "pay"),
    "add_beneficiary": ("payee", "transfer"),
    "create_fd": ("deposit_open",),
    "create_rd": ("deposit_open",),
    "close_fd_premature": ("deposit_close",),
    "make_loan_prepayment": ("prepay", "pay"),
    "foreclose_loan": ("foreclose", "pay", "deposit_close"),
    "block_card": ("block", "replace"),
    "set_card_channel_limit": ("card_control",),
    "pay_credit_card_bill": ("pay", "transfer"),
    "stop_cheque": ("cheque_stop", "pay"),
    "request_cheque_book": ("cheque_book",),
    "request_account_statement": ("statement",),
    "transfer_to_human_agent": ("human",),
}

# Internal record ids: the customer never says one unless its own request names it.
INTERNAL_ID = r"\b(?:CUST|CRD|LN|FD|RD|BEN|SR|TXN|CTX)\d{3,}\b"
