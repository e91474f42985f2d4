"""What the policy says is told around a write, as the families write it: the terms told before
a closure, a booking, a transfer or a block (policy section E, D.15, F.24), and the reason and
alternative of a refused transfer mode (H.29). Each names the gold step it is told before."""

from __future__ import annotations

from pytest_bankbench.authoring.base import (
    Must,
    Out,
    Say,
    Tell,
    alternative,
    argument,
    clause,
    known,
    rate_card,
    result,
    same_as,
)
from pytest_bankbench.money import plain


def closure_terms(quote: str, write: str) -> list[Tell]:
    """Policy E.20: the penalty, the interest and the payout are told before a closure."""
    return [
        Tell(write, "penalty", "amount", result(quote, "penalty")),
        Tell(write, "interest payable", "amount", result(quote, "interest")),
        Tell(write, "payout", "amount", result(quote, "payout")),
        Tell(write, "account credited", "digits", result(quote, "credit_to")),
    ]


def booking_quote(projection: str, write: str) -> list[Tell]:
    """Policy E.19: the rate and the maturity amount are told before booking an FD."""
    return [
        Tell(write, "rate", "percent", result(projection, "rate_percent")),
        Tell(write, "maturity amount", "amount", result(projection, "maturity_amount")),
    ]


def rd_rate(months: int, booking: str) -> tuple[list[Out], list[Tell]]:
    """KB 06: the RD's rate, read off the rate card's slab for its months (30 days each), is
    told before the booking `booking`, whose result must show the same rate; the customer who
    asked for it hears it again after."""
    booked = result(booking, "rate_percent")
    return [Out("rate", "percent", booked)], [
        Tell(booking, "rate", "percent", same_as(rate_card(months * 30), booked))
    ]


def transfer_terms(write: str, amount: int, mode: str, also: tuple[str, ...] = ()) -> list[Tell]:
    """Policy D.15: the amount and the mode are told before a transfer, as the transfer `write`
    sends them; `also` are the other modes the policy allows for it (the one proposed is told)."""
    return [
        Tell(write, "amount", "amount", known(plain(amount), argument(write, "amount"))),
        Tell(write, "mode", "text", known(mode, argument(write, "mode")), also=also),
    ]


def cheque_book_terms(write: str, leaves: int, delivery: str) -> list[Tell]:
    """Policy D.15 ("state exactly what will be done") on a cheque book request: besides the
    account, the book's size and where it goes, the two options the request sends (KB 20:
    25, 50 or 100 leaves; the registered address or the home branch), told before `write`."""
    where = delivery.replace("_", " ")
    also = {
        "registered address": ("address on record", "address on file", "your registered"),
        "home branch": ("your branch", "base branch", "collect it at"),
    }[where]
    return [
        Tell(write, "leaves", "count", known(str(leaves), argument(write, "leaves")), "leaves"),
        Tell(write, "delivery", "text", known(where, argument(write, "delivery")), also=also),
    ]


def mode_refusal(label: str, concept: str, limit: Say, offered: str) -> list[Must]:
    """Policy H.29 on a transfer outside its mode's limit: the reason (`concept`, the `limit`
    told) and the other modes `offered`, both told before the gold step "transfer"."""
    return [
        Must("reason", label, (concept,), (limit,), before="transfer"),
        alternative(f"{offered} instead", "other_mode", before="transfer"),
    ]


def block_terms(write: str, reason: str) -> list[Tell]:
    """Policy F.24: before a lost or stolen card is blocked the customer is told the block is
    permanent, the replacement comes in 7 working days, its fee is Rs 200 and, for a stolen
    card only, that a police report waives the fee.

    The labels read as the gold proposal prints them ("Block: permanent.")."""
    # How real assistants say it too (audit2): "this can't be undone", "cannot be reversed".
    final: tuple[str, ...] = ("cannot be unblocked", "can't be unblocked", "cannot be undone")
    final += ("irreversible", "can't be undone", "cannot be reversed", "can't be reversed")
    final += ("cannot be reactivated", "can't be reactivated", "can never be used again")
    terms = [
        Tell(write, "block", "text", known("permanent", clause("F.24")), also=final),
        Tell(
            write,
            "replacement card sent to your registered address within",
            "count",
            known("7", clause("F.24", near="registered address in")),
            unit="working days",
        ),
        Tell(write, "replacement fee", "amount", known("200", clause("F.24"))),
    ]
    if reason == "stolen":  # "waived for stolen cards with a police report": not for lost ones
        police = ("FIR", "police complaint", "first information report")
        waived = known("police report", clause("F.24", near="waived for stolen cards"))
        terms.append(Tell(write, "fee waived with", "choice", waived, also=police))
    return terms
