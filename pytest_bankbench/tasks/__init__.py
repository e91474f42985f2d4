"""The task at run time: the task model (a versioned, pydantic-checked task file), its loader and
splits, the gold replay and the check of a task file (`validate-tasks`). Tasks are written by
`pytest_bankbench.authoring`, which this package never imports."""
