"""`-k` applied while the cases become tests, so a run builds only the tests it may keep.

pytest applies `-k` after collection: `--bank-trials 100` on the shipped tasks made 100,000 test
items (420 MB, 29 s) before a `-k` that kept a hundred of them (issue 19, item 6). Here each
case is tried against the expression first, and only a case `-k` may keep becomes a test;
pytest's own `-k` then selects among those exactly as before.

pytest matches an identifier as a substring of an item's names: its test name
`test_task[<id>]`, its markers (the category and the service area), and names every test of the
suite shares (module, folders, function attributes: `shared`, read from the test's definition).
An identifier in the case's names or the shared ones is true. One that is in some other case's
names only is false: it names tasks, families or trials. Any other (a marker a conftest adds
later, say) might still match, so each assignment of those is tried, and the case is kept if one
makes the expression true. So no case pytest's `-k` would keep is dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from itertools import product
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_bankbench.run.cases import BankCase

MAX_OPEN = 8  # identifiers no name holds (2^8 assignments a case); beyond, every case is kept


def shared_names(definition: object) -> Collection[str]:
    """The names -k reads that every test of the suite shares: its definition's (pytest's
    KeywordMatcher, not public API; none when it changed, so those identifiers stay open)."""
    try:
        from _pytest.mark import KeywordMatcher

        names = getattr(KeywordMatcher.from_item(definition), "_names", ())  # type: ignore[arg-type]
    except Exception:
        return ()
    return [name for name in names if isinstance(name, str)]


def case_names(case: BankCase) -> list[str]:
    """The names `-k` reads that differ from one case's test to another's, lower-cased."""
    names = (f"test_task[{case.id}]", case.task.category, case.task.service_area)
    return [name.lower() for name in names]


class _Truth:
    """-k's matcher: which identifiers are true."""

    def __init__(self, true: set[str]) -> None:
        self.true = true

    def __call__(self, name: str, /, **kwargs: str | int | bool | None) -> bool:
        return name in self.true


def _compile(expression: str) -> tuple[Callable[[Callable[..., bool]], bool], list[str]] | None:
    try:
        from _pytest.mark.expression import Expression

        compiled = Expression.compile(expression)
        return compiled.evaluate, sorted(compiled.idents())
    except Exception:  # pytest reports a bad expression itself; a changed API keeps all
        return None


def preselect(
    expression: str | None, shared: Collection[str], cases: Sequence[BankCase]
) -> list[BankCase]:
    """The cases `-k expression` may keep, in order (all of them without a usable `-k`)."""
    text = (expression or "").strip()
    compiled = _compile(text) if text else None
    if compiled is None:
        return list(cases)
    evaluate, idents = compiled
    common = [name.lower() for name in shared]
    always = {i for i in idents if any(i.lower() in name for name in common)}
    rest = [i for i in idents if i not in always]
    named = [case_names(case) for case in cases]
    specific = {i for i in rest if any(i.lower() in n for names in named for n in names)}
    open_ = [i for i in rest if i not in specific]
    if len(open_) > MAX_OPEN:
        return list(cases)
    kept = []
    for case, names in zip(cases, named, strict=True):
        true = always | {i for i in specific if any(i.lower() in n for n in names)}
        for bits in product((False, True), repeat=len(open_)):
            truth = true | {i for i, bit in zip(open_, bits, strict=True) if bit}
            if evaluate(_Truth(truth)):
                kept.append(case)
                break
    return kept
