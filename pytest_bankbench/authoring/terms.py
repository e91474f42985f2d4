"""What the policy says is told around a write, as the families write it: the terms told before
a closure, a booking, a transfer or a block (policy section E, D.15, F.24), and the reason and
alternative of a refused transfer mode (H.29). Each names the gold step it is told before."""

from __future__ import annotations

from pytest_bankbench.authoring.base import Known, Must, Out, Tell, alternative, const, result
from pytest_bankbench.money import plain
from pytest_bankbench.tasks.model import ToldValue


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


def rd_rate(rate: str, booking: str) -> tuple[list[Out], list[Tell]]:
    """KB 06: the RD's rate, read off the rate card, is told before the booking `booking`, whose
    result must show the same rate; the customer who asked for it hears it again after."""
    booked = result(booking, "rate_percent")
    return [Out("rate", "percent", booked)], [
        Tell(booking, "rate", "percent", Known(rate, of=booked))
    ]


def transfer_terms(write: str, amount: int, mode: str, also: tuple[str, ...] = ()) -> list[Tell]:
    """Policy D.15: the amount and the mode are told before a transfer; `also` are the other
    modes the policy allows for it (the one proposed is told)."""
    return [
        Tell(write, "amount", "amount", const(plain(amount))),
        Tell(write, "mode", "text", const(mode), also=also),
    ]


def mode_refusal(label: str, concept: str, limit: ToldValue, offered: str) -> list[Must]:
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
        Tell(write, "block", "text", const("permanent"), also=final),
        Tell(
            write,
            "replacement card sent to your registered address within",
            "count",
            const("7"),
            unit="working days",
        ),
        Tell(write, "replacement fee", "amount", const("200")),
    ]
    if reason == "stolen":  # "waived for stolen cards with a police report": not for lost ones
        police = ("FIR", "police complaint", "first information report")
        terms.append(Tell(write, "fee waived with", "choice", const("police report"), also=police))
    return terms
