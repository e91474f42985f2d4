"""scoring/amounts.py: the amounts a text states, and the quick test that passes over texts
stating none (the readers of what was told are tested in test_outputs.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pytest_bankbench.money import indian, lakh_words, to_rupees
from pytest_bankbench.scoring.amounts import _amounts_in, _may_say
from pytest_bankbench.scoring.plain_figures import marked_columns

paise = st.integers(min_value=1, max_value=10**12)

_FORMS = st.sampled_from(
    ["Rs {r:,}", "{r} rupees", "₹{r:,.2f}", "{i}", "{p} paise", "{l}", "{k}k", "Rs {c} cr"]
)


@given(paise, _FORMS, st.sampled_from(["", "FD001219 ", "on 12 March 2026, ", "ending 4521, "]))
def test_a_text_the_quick_test_passes_over_states_no_amount(
    amount: int, form: str, before: str
) -> None:
    """_may_say is only a shortcut: every amount the full reading finds in a text (any form,
    beside ids, dates and digits) is one the quick test lets through."""
    rupees = to_rupees(amount)
    text = (
        "You asked about "
        + before
        + form.format(
            r=rupees,
            i=indian(amount),
            p=amount,
            l=lakh_words(amount),
            k=rupees / 1000,
            c=rupees / 10**7,
        )
        + "."
    ).lower()
    for found, _, _ in _amounts_in(marked_columns(text)):
        if found >= 1:
            assert _may_say(found, text), (found, text)
