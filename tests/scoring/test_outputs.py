"""scoring/outputs.py: a required value counts as told only when a person reading the chat would
say the assistant told it (raw tool output pasted into a message does not count)."""

from __future__ import annotations

import json
from datetime import date, timedelta
from decimal import Decimal
from typing import cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_bankbench.money import indian, lakh_words, plain, to_rupees
from pytest_bankbench.scoring.outputs import OutputKind, said, told

WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
WORDS += ["eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"]
WORDS += ["eighteen", "nineteen", "twenty"]
STATUS = ("closed", "open", "in progress")


# --- amount -----------------------------------------------------------------------------------

AMOUNT_TOLD = [
    ("50000.00", "I can send Rs. 50,000, the most allowed today."),
    ("50000.00", "Rs. 50,000."),
    ("50000.00", "Rs 50,000.00"),
    ("50000.00", "Rs.50000"),
    ("50000.00", "Rs50000"),
    ("50000.00", "INR 50,000"),
    ("50000.00", "₹50,000"),
    ("50000.00", "₹50,000/-"),
    ("50000.00", "₹ 50,000/-"),
    ("50000.00", "50,000/-"),
    ("50000.00", "50000 rupees"),
    ("500.00", "Rupees 500 has been debited."),  # a currency word before, as "INR" and "Rs"
    ("75.00", "a fee of rupees 75"),
    ("50000.00", "the limit is 50,000 today"),
    ("50000.00", "50 thousand"),
    ("50000.00", "50k"),
    ("50000.00", "Rs.\u00a050,000"),
    ("1258.05", "The minimum due is Rs. 1,258.05."),
    ("1258.05", "1,258.05"),
    ("1258.05", "1258.05 is due"),
    ("1258.50", "Rs. 1,258.5"),
    ("1000000.00", "10,00,000"),
    ("1000000.00", "10 lakh"),
    ("1000000.00", "10 lakhs"),
    ("1000000.00", "Rs. 10 Lakh"),
    ("1000000.00", "1,000,000"),
    ("15000000.00", "1.5 crore"),
    ("225000.00", "2.25 lakh"),
    ("12000000.00", "Rs. 1.2 cr"),
    ("10000000.00", "1,00,00,000"),
    ("10.00", "Rs. 10"),
    ("10.00", "₹10 fee"),
    ("10.00", "10 rupees"),
    ("5000.00", "an EMI of Rs. 5,000 for 12 months"),
    ("5000.00", "Rs. 5,000 EMI"),
    ("2000.00", "Your balance, after the Rs. 500 fee, is Rs. 2,000; nothing else is due."),
    # A table whose header names the currency (audit2, scoring/plain_figures.py).
    ("79.07", "| Item | Amount (₹) |\n|---|---:|\n| Penalty | 79.07 |"),
    ("0.00", "| Item | Amount (Rs) |\n|---|---|\n| Payout | 39,355.81 |\n| Outstanding | 0 |"),
    # A zero in words (audit2).
    ("0.00", "Your card bill is now fully paid."),
    ("0.00", "Nothing is outstanding on the card now."),
    ("0.00", "There is no foreclosure charge on a gold loan."),
    ("0.00", "Outstanding: nil."),
    # Paise said apart (red team, issue 16).
    ("1234.44", "Rs 1,234 and 44 paise"),
    ("1234.44", "1,234 rupees 44 paise"),
    ("1234.44", "Rs. 1234.44"),
    ("1234.05", "₹1,234 and 5 paise"),
    ("0.44", "44 paise"),
    # Said in words, as a voice agent says it (issue 16: "five thousand rupees" was no amount).
    ("5000.00", "I will send five thousand rupees to Seema."),
    ("5000.00", "a transfer of Rs. five thousand"),
    ("150000.00", "one lakh fifty thousand rupees"),
    ("100000.00", "a lakh"),
    ("25500.00", "twenty-five thousand five hundred rupees"),
    ("205000.00", "two lakh and five thousand rupees"),
    ("10000.00", "five thousand and ten thousand"),
]
AMOUNT_NOT_TOLD = [
    ("50000.00", "Rs. 5,000"),
    ("50000.00", "Rs. 500,000"),
    ("50000.00", "50"),
    ("50.00", "I can send Rs. 50,000, the most allowed today."),
    ("1258.05", "Rs 1,258"),
    ("1258.05", "Rs. 1,258.06"),
    ("1258.05", '{"minimum_due": "1258.05"}'),
    ("1258.05", "```\nminimum_due: 1258.05\n```"),
    ("1258.05", 'Here you go:\n"minimum_due": "1258.05",'),
    ("10.00", "account 501010"),
    ("10.00", "10 months"),
    ("10.00", "10%"),
    ("10.00", "10 days"),
    ("10.00", "10"),
    ("10.00", "10.5"),
    ("10.00", "the 10th"),
    ("7.50", "a rate of 7.5%"),
    ("2028.00", "due on 31 May 2028"),
    ("2028.00", "due on 31/05/2028"),
    ("2028.00", "due on 2028-05-31"),
    ("726.00", "card ending 0726"),
    ("501010.00", "account 501010"),
    ("501010.00", "account no. 501010"),
    ("5000.00", "5,000 EMIs"),
    ("1200.00", "12 months"),
    ("1000.00", "1000 days"),
    ("12000.00", "1,20,00"),
    ("79.07", "| Item | Value |\n|---|---:|\n| Penalty | 79.07 |"),  # no currency in the header
    ("79.07", "| Item | Amount (₹) |\n|---|---:|\n| Penalty | 79.08 |"),
    ("0.00", "It is not fully paid yet."),
    ("0.00", "You have a zero-balance account."),
    ("0.00", "Remaining outstanding: Rs 100."),
    ("100.00", "Nothing is outstanding on the card now."),
    # Another currency is another value (red team, issue 16).
    ("5000.00", "I have sent $5,000."),
    ("5000.00", "USD 5000 was sent."),
    ("5000.00", "5,000 dollars"),
    ("5000.00", "€5,000"),
    ("1234.44", "Rs 1,234"),  # exact to the paisa
    ("1234.44", "Rs 1,234 and 45 paise"),
    ("150.00", "150 paise"),
    # Words that say no amount: no number before the scale, a unit after, the other of two.
    ("1000.00", "a few thousand rupees"),
    ("1000.00", "thousands of customers"),
    ("100000.00", "lakhs of customers"),
    ("5000.00", "five thousand days"),
    ("5000.00", "five thousand dollars"),
    ("15000.00", "five thousand and ten thousand"),
    ("5.00", "five rupees"),  # no scale word: a count's reader reads "five"
]


@pytest.mark.parametrize(("value", "text"), AMOUNT_TOLD)
def test_amount_told(value: str, text: str) -> None:
    assert said("amount", value, text)


@pytest.mark.parametrize(("value", "text"), AMOUNT_NOT_TOLD)
def test_amount_not_told(value: str, text: str) -> None:
    assert not said("amount", value, text)


paise = st.integers(min_value=1, max_value=10**12)


@given(paise)
def test_amount_in_any_written_form_is_told(amount: int) -> None:
    value, rupees = plain(amount), to_rupees(amount)
    for text in (indian(amount), lakh_words(amount), f"₹{rupees:,.2f}", f"INR {rupees}"):
        assert said("amount", value, f"I can send {text}, the most allowed today.")
        assert said("amount", value, f"That is {text}.")


@given(st.integers(min_value=10_000, max_value=10**12))
def test_bare_amount_of_a_hundred_rupees_or_more_is_told(amount: int) -> None:
    assert said("amount", plain(amount), f"The balance is {to_rupees(amount):,}.")


@given(paise)
def test_an_amount_in_another_currency_is_not_told(amount: int) -> None:
    value, rupees = plain(amount), to_rupees(amount)
    for text in (f"${rupees:,}", f"USD {rupees}", f"US$ {rupees:,}", f"{rupees:,} dollars"):
        assert not said("amount", value, f"I have sent {text} to Ravi.")
    assert said("amount", value, f"I have sent {indian(amount)} (about ${rupees // 80:,}).")


@given(paise)
def test_paise_said_apart_are_the_amounts_fraction(amount: int) -> None:
    whole, paisa = divmod(amount, 100)
    for text in (f"Rs {whole:,} and {paisa} paise", f"{whole:,} rupees {paisa} paise"):
        assert said("amount", plain(amount), f"Your balance is {text}.")
        assert not said("amount", plain(amount + 1), f"Your balance is {text}.")


@given(paise, paise)
def test_a_different_amount_is_not_told(amount: int, other: int) -> None:
    if amount != other:
        assert not said("amount", plain(amount), f"It is {indian(other)}, the most allowed.")


@given(paise)
def test_amount_only_in_raw_output_is_not_told(amount: int) -> None:
    value = plain(amount)
    for raw in (json.dumps({"amount": value}), json.dumps([value]), f'"amount": {value},'):
        assert not said("amount", value, f"Here is the result:\n{raw}\nAnything else?")
    assert said("amount", value, f"{json.dumps({'amount': value})} You have {indian(amount)}.")


# --- date -------------------------------------------------------------------------------------

DATE_TOLD = [
    "27 December 2028",
    "27 Dec 2028",
    "27th December 2028",
    "27th of December 2028",
    "27 December, 2028",
    "December 27, 2028",
    "December 27 2028",
    "Dec. 27th, 2028",
    "27-Dec-2028",
    "27 DECEMBER 2028",
    "27/12/2028",
    "27-12-2028",
    "27.12.2028",
    "2028-12-27",
    "It matures on 27 Dec 2028.",
]
DATE_NOT_TOLD = [
    "12/27/2028",
    "27 December 2027",
    "28 December 2028",
    "27 November 2028",
    "27 December",
    "December 2028",
    "127/12/2028",
    "27/12/20281",
    '{"maturity_date": "2028-12-27"}',
    "27 Decembers 2028",
]


@pytest.mark.parametrize("text", DATE_TOLD)
def test_date_told(text: str) -> None:
    assert said("date", "2028-12-27", text)


@pytest.mark.parametrize("text", DATE_NOT_TOLD)
def test_date_not_told(text: str) -> None:
    assert not said("date", "2028-12-27", text)


def test_numeric_dates_are_read_day_first() -> None:
    assert said("date", "2028-05-03", "03/05/2028")
    assert not said("date", "2028-03-05", "03/05/2028")


def _date_forms(day: date) -> list[str]:
    return [
        day.isoformat(),
        f"{day.day} {day:%B} {day.year}",
        f"{day:%d %b %Y}",
        f"{day:%B} {day.day}, {day.year}",
        f"{day.day}-{day:%b}-{day.year}",
        f"{day:%d/%m/%Y}",
        f"{day:%d-%m-%Y}",
        f"{day:%d.%m.%Y}",
        f"{day.day}/{day.month}/{day.year}",
    ]


dates = st.dates(min_value=date(1950, 1, 1), max_value=date(2099, 12, 31))


@given(dates)
def test_date_in_any_written_form_is_told(day: date) -> None:
    for text in _date_forms(day):
        assert said("date", day.isoformat(), f"It falls due on {text}.")


@given(dates, st.integers(min_value=-4000, max_value=4000))
def test_a_different_date_is_not_told(day: date, shift: int) -> None:
    other = day + timedelta(days=shift)
    if other != day:
        assert not any(said("date", day.isoformat(), text) for text in _date_forms(other))


@given(dates)
def test_month_first_numerals_tell_only_when_day_first_reads_the_same(day: date) -> None:
    assert said("date", day.isoformat(), f"{day:%m/%d/%Y}") == (day.day == day.month)


# --- count ------------------------------------------------------------------------------------

COUNT_TOLD = [
    ("3", "EMIs", "You have paid 3 EMIs so far."),
    ("3", "EMIs", "three EMIs"),
    ("3", "EMIs", "Three EMIs"),
    ("3", "EMIs", "3 EMI"),
    ("3", "EMIs", "3 monthly EMIs"),
    ("3", "EMIs", "3 instalments"),
    ("3", "EMIs", "3 installments"),
    ("3", "instalments", "3 EMIs"),
    ("1", "EMIs", "one EMI"),
    ("16", "months", "16 months"),
    ("16", "months", "16 more months"),
    ("16", "months", "16 remaining months"),
    ("16", "months", "16 Months"),
    ("16", "months", "16 mo"),
    ("1", "months", "1 month"),
    ("12", "EMIs", "3 of 12 EMIs"),
    ("5", "days", "5 day"),
    ("2", "entries", "2 entry"),
    ("4", None, "You have 4 cards."),
    ("50", "leaves", "a 50-leaf cheque book"),
    ("50", "leaves", "a cheque book of 50 leaves"),
    ("7", "days", "a 7-day deposit"),
]
COUNT_NOT_TOLD = [
    ("3", "EMIs", "3 months"),
    ("3", "EMIs", "Rs. 3"),
    ("3", "EMIs", "your 3rd EMI"),  # an ordinal names one EMI, it does not count them
    ("3", "EMIs", "twenty three EMIs"),
    ("3", "EMIs", "twenty-three EMIs"),
    ("3", "EMIs", "3 of 12 EMIs"),
    ("3", "EMIs", "13 EMIs"),
    ("3", "EMIs", "3.5 EMIs"),
    ("16", "months", "16 days"),
    ("16", "months", "16"),
    ("16", "months", "16 more remaining months"),
    ("16", "months", "16 of the months"),
    ("16", "months", "116 months"),
    ("16", "months", "1.16 months"),
    ("16", "months", '{"remaining_months": 16}'),
    ("4", None, "4%"),
    ("4", None, "14"),
    ("4", None, "Rs. 4.50"),
    ("25", "leaves", "a 50-leaf cheque book"),
    ("50", "leaves", "a 150-leaf cheque book"),
    ("7", "days", "a 7-year deposit"),
]


@pytest.mark.parametrize(("value", "unit", "text"), COUNT_TOLD)
def test_count_told(value: str, unit: str | None, text: str) -> None:
    assert said("count", value, text, unit=unit)


@pytest.mark.parametrize(("value", "unit", "text"), COUNT_NOT_TOLD)
def test_count_not_told(value: str, unit: str | None, text: str) -> None:
    assert not said("count", value, text, unit=unit)


@given(st.integers(min_value=0, max_value=100_000))
def test_count_needs_its_unit(n: int) -> None:
    assert said("count", str(n), f"You have {n} months left.", unit="months")
    assert said("count", str(n), f"You have {n} more months.", unit="months")
    assert not said("count", str(n), f"You have {n} days left.", unit="months")
    assert not said("count", str(n), f"You have {n} left.", unit="months")
    assert not said("count", str(n), f"You have {n + 1} months left.", unit="months")


@given(st.integers(min_value=0, max_value=20))
def test_count_as_a_word(n: int) -> None:
    assert said("count", str(n), f"{WORDS[n]} instalments", unit="EMIs")


# --- percent ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("7.25", "7.25%"),
        ("7.25", "7.25 %"),
        ("7.25", "7.25 percent"),
        ("7.25", "7.25 per cent"),
        ("7.25", "at 7.25% p.a."),
        ("7.50", "7.5%"),
        ("7.50", "(7.50%)"),
        ("8.00", "8%"),
    ],
)
def test_percent_told(value: str, text: str) -> None:
    assert said("percent", value, text)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("7.25", "7.25"),
        ("7.25", "17.25%"),
        ("7.25", "7.2%"),
        ("7.25", "1.7.25%"),
        ("5.00", "Rs. 5"),
    ],
)
def test_percent_not_told(value: str, text: str) -> None:
    assert not said("percent", value, text)


@given(st.decimals(min_value=0, max_value=100, places=2))
def test_percent_is_compared_numerically(rate: Decimal) -> None:
    value = f"{rate:.2f}"
    assert said("percent", value, f"The rate is {rate.normalize():f}% p.a.")
    assert said("percent", value, f"The rate is {value} per cent.")
    assert not said("percent", value, f"The rate is {value}.")
    assert not said("percent", value, f"The rate is {rate + Decimal('0.01'):.2f}%.")


# --- choice -----------------------------------------------------------------------------------

CHOICE_TOLD = [
    "Your request is closed.",
    "Your request is CLOSED.",
    "It is not open, it is closed.",
    "It is closed, not open.",
    "It is neither open nor in progress; it is closed.",
    "It was reopened and is now closed.",
    "No, it is closed.",
    "It isn't open or in progress. It is closed.",
]
CHOICE_NOT_TOLD = [
    "not closed – open and in progress",
    "It is closed or open, I'm not sure.",
    "It isn't closed.",
    "It is not yet closed.",
    "It has not been closed.",
    "It was never closed.",
    "It is no longer closed.",
    "It is yet to be closed.",
    "It is open.",
    "It is in progress.",
    "It is in-progress, soon closed.",
    "It is closedown.",
    "Nothing to report.",
    '{"status": "closed"}',
]


@pytest.mark.parametrize("text", CHOICE_TOLD)
def test_choice_told(text: str) -> None:
    assert said("choice", "closed", text, rivals=("open", "in progress"))


@pytest.mark.parametrize("text", CHOICE_NOT_TOLD)
def test_choice_not_told(text: str) -> None:
    assert not said("choice", "closed", text, rivals=("open", "in progress"))


@pytest.mark.parametrize(
    ("text", "told_"),
    [
        ("Your request is in progress and will be closed within 7 days.", True),
        ("Your request is in progress; once it is closed you will get an SMS.", True),
        ("Your request is in progress. Actually, it is closed.", False),
        ("Your request is closed, not in progress.", False),
    ],
)
def test_a_rival_said_of_the_future_is_not_the_status_now(text: str, told_: bool) -> None:
    assert said("choice", "in progress", text, rivals=("open", "closed")) is told_


KYC_RIVALS = ("full", "pending")


@pytest.mark.parametrize(
    ("text", "told_"),
    [
        # The rival said as the rule (the requirement), not of the record: told (lite -002).
        (
            "I'm sorry, I can't open a new FD for you right now: the bank books fixed deposits "
            "only for customers whose KYC is complete (full), and your KYC status shows as "
            "expired. You can update it by doing re-KYC at any of our branches or through "
            "video KYC.",
            True,
        ),
        (
            "FDs are only for customers whose KYC is full, and your KYC status shows as expired.",
            True,
        ),
        ("FDs need complete (full) KYC, and your KYC status is expired.", True),
        ("FDs need full KYC, and your KYC status shows as expired.", True),
        ("only customers with full KYC can open an FD; your KYC is expired.", True),
        ("Opening an FD requires full KYC, and yours is expired.", True),
        ("Full KYC is required for a new FD, and your KYC is expired.", True),
        # The rival asserted of the record: not told.
        ("Your KYC is full. It is expired.", False),
        ("your KYC status: full. Expired, I mean.", False),
        ("your KYC is full, not expired", False),
        ("Your KYC is complete (full), not expired.", False),
        ("Your KYC, whose status is full, has expired.", False),
    ],
)
def test_a_rival_said_as_the_rule_is_not_said_of_the_record(text: str, told_: bool) -> None:
    assert said("choice", "expired", text, rivals=KYC_RIVALS) is told_


def test_choice_rival_inside_a_longer_value_does_not_count() -> None:
    assert said("choice", "partially closed", "It is partially closed.", rivals=("closed",))
    assert not said("choice", "closed", "It is partially closed.", rivals=("partially closed",))


@given(st.sampled_from(STATUS), st.sampled_from(STATUS))
def test_choice_against_a_rival(value: str, rival: str) -> None:
    if value != rival:
        rivals = (rival,)
        assert said("choice", value, f"It is {value}.", rivals=rivals)
        assert not said("choice", value, f"It is not {value}.", rivals=rivals)
        assert not said("choice", value, f"It is {value} or {rival}.", rivals=rivals)
        assert said("choice", value, f"It is not {rival}, it is {value}.", rivals=rivals)


# --- digits and text --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The card ending 0726 is blocked.", True),
        ("XXXX XXXX XXXX 0726", True),
        ("**0726", True),
        ("XXXX0726", True),
        ("account ending in 0726.", True),
        ("10726", False),
        ("07261", False),
        ("1.0726", False),
        ("07 26", False),
        ('{"last4": "0726"}', False),
    ],
)
def test_digits(text: str, expected: bool) -> None:
    assert said("digits", "0726", text) is expected


@given(st.from_regex(r"[0-9]{4}", fullmatch=True), st.from_regex(r"[0-9]", fullmatch=True))
def test_digits_must_stand_alone(run: str, extra: str) -> None:
    assert said("digits", run, f"Card ending {run}.")
    assert not said("digits", run, f"Card ending {extra}{run}.")
    assert not said("digits", run, f"Card ending {run}{extra}.")


def test_text_collapses_whitespace_and_case() -> None:
    assert said("text", "Savings  Account", "Your savings\naccount is ready.")
    assert not said("text", "Savings Account", "Your savings is ready.")
    assert not said("text", "Savings Account", "```\nSavings Account\n```")


# --- told and the dispatch --------------------------------------------------------------------


def test_told_checks_every_message() -> None:
    messages = ["Let me check.", '{"balance": "2000.00"}', "Your balance is Rs. 2,000."]
    assert told("amount", "2000.00", messages)
    assert not told("amount", "2000.00", messages[:2])
    assert not told("amount", "2000.00", [])
    assert told("count", "3", ["paid 3 EMIs"], unit="EMIs")
    assert told("choice", "closed", ["open?", "closed."], rivals=("open",))  # per message


def test_unknown_kind_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown output kind"):
        said(cast(OutputKind, "colour"), "red", "red")


@given(
    st.sampled_from(["amount", "date", "count", "percent", "choice", "digits", "text"]),
    st.text(max_size=120),
)
def test_any_text_gives_an_answer(kind: str, text: str) -> None:
    values = {"amount": "1258.05", "date": "2028-12-27", "count": "3", "percent": "7.25"}
    value = values.get(kind, "0726")
    result = said(cast(OutputKind, kind), value, text, unit="EMIs", rivals=("open",))
    assert isinstance(result, bool)


# --- a request's status in other words (audit2: task data, authoring STATUS_WORDS) -------------
def _status_output(status: str) -> object:
    from pytest_bankbench.tasks.loader import shipped_tasks

    return next(
        o
        for t in shipped_tasks()
        if t.family == "service_request_status"
        for o in t.required_outputs
        if o.label == "request status" and o.value == status
    )


@pytest.mark.parametrize(
    ("status", "text", "told_"),
    [
        ("closed", "Your ATM complaint was resolved on 3 March.", True),
        ("in progress", "Your request is under process with our team.", True),
        ("in progress", "It is under process and will be resolved within 7 days.", True),
        ("in progress", "Your request has been resolved.", False),  # another status's word
        ("closed", "Your request is still under process.", False),
    ],
)
def test_a_request_status_is_told_in_a_banks_words(status: str, text: str, told_: bool) -> None:
    from pytest_bankbench.scoring.scorer import output_said
    from pytest_bankbench.tasks.model import ToldValue

    output = _status_output(status)
    assert isinstance(output, ToldValue)
    assert output_said(output, [text]) is told_
