"""Task authoring, used at build time only: the families and the generator that writes
task_data/tasks.jsonl from them (`python -m pytest_bankbench generate`). Nothing at run time
imports this package (only the `generate` command of the CLI does); a run reads the task file
through `pytest_bankbench.tasks`.

The modules:

- `base`: what a family writes, a `Draft` of the scenario and its gold chain of `Call`s, the
  values asked (`Out`), the values told before a write (`Tell`), where each is read (`record`,
  `result`, `Known`), what the policy says is told
  (`Must`: `reason`, `alternative`, `clarify`), the `@family` registry (with
  `families/families.toml`, each family's category, area and clause) and the read-only
  `Context` of the seeded bank;
- `calls`: one constructor per gold call shape (`transfer`, `closure_quote`, `find_card`, ...)
  and the chains several families share (`fd_closure_calls`, `rd_booking_calls`);
- `terms`: what the policy says is told around a write (`closure_terms`, `transfer_terms`,
  `block_terms`, ...) and a refused mode's reason and alternative (`mode_refusal`);
- `checks`: the look-ups policy C.11 demands before each write, added to every chain in one
  place (a family writes only what its request needs);
- `pickers`: the record pickers and eligibility SQL shared by families (a customer's active
  accounts, registered payees, cards, loans, how the customer names an FD);
- `phrasing`: how a customer says things (the registers of `opening`, the openings written as
  data and `opening_of`, amounts, dates, a record's words, an unprompted secret, facts told
  when asked);
- `families`: the families, a package per service area and a module per topic; its docstring
  says how a family is written and checked;
- `generate`: families x customers -> tasks, each kept only if its gold chain replays.

The rules:

- Byte-identical regeneration. `generate` run twice, or after a refactor, writes the same
  bytes (tests/authoring/test_generate.py compares with the shipped file). Every choice is drawn
  from the rng a family is given (seeded from the family's name), "today" is the task's date,
  never the clock, and no value comes from `hash()`. Families run in name order, each with its
  own rng, so module names and import order change nothing; a change to one family's draws
  changes only that family's tasks.
- A task ships only if its gold chain replays with no failed call and every value a family
  wrote to be told is right: a value names the record and field it reports (`record`,
  `result`) and is read there after the replay, and a value the family knows itself is checked
  against the record it names, or, naming none, must be shown by the replay (else
  `WrongExpectedValue` stops generation, naming the task and field).
- Authoring imports the task model, the bank and the concepts; none of those imports
  authoring (tests/test_layers.py finds no circle).
"""
