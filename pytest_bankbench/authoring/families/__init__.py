"""The task families: a package per service area (`everyday/`, `deposits/`, `loans/`, `cards/`,
the area of the families' rows in `families.toml`), a module per topic of it, each family a
function the generator finds by scanning the packages.

How a family is written:

- `@family(eligible)` registers a maker under its function's name; `eligible` is SQL returning
  the customer ids it can use. Its category, service area and `clause` (the policy clause that
  decides its tasks) are its row of `families.toml` beside the modules (a maker without a row,
  or a row without a maker, stops generation).
  The maker gets the `Context` (task date in `ctx.today`), the family's seeded rng and one
  eligible customer, and returns a `Draft` (`base.draft(...)`), or None to skip the customer.
  Every family makes `generate.TASKS_PER_FAMILY` tasks from its eligible customers, tried in
  an order shuffled with its rng (fewer stops generation).
- The gold chain is a list of `Call`s built with `calls` (`balance`, `transfer`,
  `closure_quote`, ...). A call that others refer to is named: `as_step("quote",
  closure_quote(fd))`; `after=("quote",)` orders a call after it, `Ref("payee",
  "beneficiary_id")` takes an argument from its result. An unnamed call is known by its
  position (c1, c2, ...), for calls nothing refers to; the task's gold ids are numbered c1..cN
  either way. A read made with `calls.fact(...)` is a required fact (any tool showing it will
  do). The look-ups policy C.11 wants before a write are added by `checks`, not by the family.
- Required outputs (`Out`) are the values the customer asks to be told, each naming the place
  it comes from, never a function over raw results: `record("account", number, "balance")`
  (the account the customer named, read as the bank holds it after the gold chain),
  `result("quote", "payout")` (a quote or calculation no record holds), `rate_card(days)` (the
  slab's rate that applies to the customer). A value the family states itself names the place
  that must hold it: `known(plain(amount), argument("transfer", "amount"))` (what the call
  sends), `known("200", clause("F.24"))` (a rule of the policy; `near=` the words the figure
  follows where the clause writes several), `known("90", article("04-...", near="Loan amount
  |"))` (a knowledge-base answer). There is no value without a place: generation refuses one.
  `same_as(place, *others)` checks other places too, unwritten (the rate booked is the rate
  quoted). `Tell`s are the values the policy says are told before a write
  (`terms.closure_terms`, `transfer_terms`, ...), and `told(...)` the values of a `Must`, named
  the same way. The generator writes each place into the task as its `source`, checks the value
  there after the gold replay, and stops (`WrongExpectedValue`, naming the task and field)
  when a value is not what its place holds; `validate-tasks` makes the same check, and the gold
  agent tells what it reads at the place itself. `Must`s (`reason`, `alternative`, `clarify`)
  are what the agent tells beyond them, by concepts of task_data/concepts.toml (an unknown
  concept fails at generation).
- The customer opens in one of the shared registers (terse, chatty, formal,
  Hinglish-flavoured English, details unprompted, details only when asked, and any of the
  family's own), never with a yes-word. The openings are data: a table a family (or
  `family/variant`) in its area's `openings*.toml`, a register a str.format
  template (or a list of them for numbered requests), filled in by
  `phrasing.opening_of(rng, name, **values)` (`opening_text` when every register is one
  message, `opening_requests` when each is the same number of requests); a record's words
  come from `phrasing.account_words`, `request_words`, `payment_words`, `fd_words`,
  `pickers.loan_words`, `card_words`. Details the customer gives when asked are facts
  (`phrasing.knows`) with topics.
  A fallback the customer accepts after a refusal is a fact released only once the agent has
  stated the rule (`after=`); the customer never offers it first, and never says an internal
  id (FD..., CUST...), only what a person knows (an account's last digits, an FD's amount and
  month).
- `Draft.offers` (`phrasing.offered_secret`): a secret the customer offers unprompted, set by
  the generator on every `generate.OFFER_EVERY`-th task of the family.

Where code goes: a module of an area's package holds the families of one topic of that
area, and stays under about 400 lines (split it by topic when it grows); a family's row names
the area of the package it is written in (tests/authoring/test_families.py). A family module never imports another
family module (tests/authoring/test_families.py): what two modules share goes to `pickers`,
`phrasing` or `calls`.

Reserved customers: the frozen savings accounts and the large current accounts were added
late (`bank.seed.FROZEN_FOR`, `WEALTHY`) for `deposit_outside_limits`, `tax_saver_fixed_tenure`
and `refused_step_blocks_next` (and the retired `frozen_source_account`), to customers no older
family used, so no other family's tasks moved. No other family may draw those customers: end a
new family's `eligible` SQL with `AND customer_id NOT IN {pickers.RESERVED}`, or, if it needs
such an account, add it to the reserved families of tests/authoring/test_families.py.

Adding a family: write it in the module of its area and topic (`cards/blocking.py`), its row in `families.toml`, run
`python -m pytest_bankbench generate` (every family keeps its tasks byte for byte; the new one
adds its own), `python -m pytest_bankbench validate-tasks task_data/tasks.jsonl` (load, replay
each gold chain, check the values), then `pytest tests/authoring tests/tasks`; add what its
tasks must pose to tests/authoring/families/<area>/test_<topic>.py, and its row to the README's table
of families (name, category, area, clause: its row of `families.toml`, which
tests/authoring/test_families.py compares with the README).
"""
