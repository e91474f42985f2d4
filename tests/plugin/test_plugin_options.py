"""Bad options stop the run with one message that names the input and what is accepted."""

from __future__ import annotations

import re

import pytest

from tests.plugin.helpers import run_bench


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--bank-model", "gold", "--bank-split", "dev"),
            "*--bank-split 'dev': choose one of base, lite, train, test*",
        ),
        (
            ("--bank-model", "gold", "--bank-trials", "zero"),
            "*--bank-trials 'zero': expected a whole number from 1 to 100*",
        ),
        (
            ("--bank-model", "gold", "--bank-trials", "0"),
            "*--bank-trials 0: expected a whole number from 1 to 100*",
        ),
        (
            ("--bank-model", "gold", "--bank-trials", "100000"),
            "*--bank-trials 100000: expected a whole number from 1 to 100*",
        ),
        (
            ("--bank-model", "gold", "--bank-num-retries", "1" * 5000),
            "*--bank-num-retries '11111111111111111111'...: expected a whole number from 0 to 20*",
        ),
        (("--bank-model", "gold", "--bank-max-steps", "-3"), "*--bank-max-steps -3*"),
        (("--bank-model", "nonsense"), "*--bank-model 'nonsense': not a built-in agent*"),
        (
            ("--bank-model", "gold", "--bank-model", "claim-done"),
            "*argument --bank-model: given twice ('gold', then 'claim-done'); give one agent*",
        ),
        (
            ("--bank-model", "gold", "--bank-tasks", "missing.jsonl"),
            "*--bank-tasks 'missing.jsonl': no such file*",
        ),
        # A folder is said to be one, as the output options say (it read "no such file").
        (
            ("--bank-model", "gold", "--bank-tasks", "."),
            "ERROR: --bank-tasks '.': exists and is a folder; give a JSONL task file (one task "
            "per line)",
        ),
        (
            ("--bank-model", "gold", "--bank-baseline", "."),
            "ERROR: --bank-baseline '.': exists and is a folder; give the report JSON *",
        ),
        (
            ("--bank-model", "gold", "--bank-resume", "."),
            "ERROR: --bank-resume '.': exists and is a folder; give the report JSON *",
        ),
        (
            ("--bank-model", "gold", "--bank-model-args", "{oops"),
            "*--bank-model-args: not valid JSON*",
        ),
        (
            ("--bank-model", "gold", "--bank-retry-backoff", "nan"),
            "*--bank-retry-backoff 'nan': expected a finite number of seconds >= 0*",
        ),
        (
            ("--bank-model", "gold", "--bank-timeout", "0"),
            "*--bank-timeout '0': expected a finite number of seconds > 0*",
        ),
        (
            ("--bank-model", "gold", "--bank-concurrency", "0"),
            "*--bank-concurrency 0: expected a whole number from 1 to 256*",
        ),
        (
            ("--bank-model", "gold", "--bank-shard", "4/3"),
            "*--bank-shard '4/3': expected I/N with 1 <= I <= N*",
        ),
        # Output paths are checked before the run, not by a traceback at its end.
        (
            ("--bank-model", "gold", "--bank-report", "."),
            "*--bank-report '.': exists and is a folder*",
        ),
        (
            ("--bank-model", "gold", "--bank-html", "a_file.txt/r.html"),
            "*--bank-html 'a_file.txt/r.html': cannot be written*",
        ),
    ],
)
def test_bad_option_names_the_fix(
    pytester: pytest.Pytester, args: tuple[str, ...], message: str
) -> None:
    (pytester.path / "a_file.txt").write_text("not a folder")
    result = run_bench(pytester, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])


@pytest.mark.parametrize(
    ("option", "model", "workers"),
    [
        ("--bank-model", "foo/bar", "0"),
        ("--bank-model", "gpt-nonexistent-xyz", "0"),
        ("--bank-user-model", "foo/bar", "0"),
        ("--bank-model", "foo/bar", "2"),
    ],
)
def test_a_model_litellm_cannot_route_stops_the_run_at_once(
    pytester: pytest.Pytester, option: str, model: str, workers: str
) -> None:
    """User trial: each session failed with "BadRequestError: LLM Provider NOT provided" (2
    harness errors, 2 not run, a pass^1 of 0%). litellm refuses the string locally: the run
    stops before its first session with one line naming the option and what works; an xdist
    controller (which leaves litellm unimported) stops at its workers' first call, with no
    session scored or counted as a harness error."""
    agent = ("--bank-model", "gold") if option == "--bank-user-model" else ()
    args = (*agent, option, model, "-k", "balance_enquiry-00", "-n", workers)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)
    out = result.stdout.str() + result.stderr.str()
    assert not re.search(r"[1-9] harness error", out) and "pass^1: 0.0%" not in out
    if workers == "0":
        assert result.ret == pytest.ExitCode.USAGE_ERROR
        result.stderr.fnmatch_lines(
            [
                f"ERROR: {option} {model!r}: litellm cannot tell which provider serves it "
                f"(LLM Provider NOT provided*); give {option} as provider/model (e.g. "
                "openai/<name>*"
            ]
        )
        assert "BadRequestError" not in out and "collected" not in out
    else:
        result.stdout.fnmatch_lines(
            [f"*configuration error, run stopped: *LLM Provider NOT provided*; give {option} *"]
        )


def test_bad_task_file_names_file_line_and_field(pytester: pytest.Pytester) -> None:
    from pytest_bankbench.tasks.loader import shipped_tasks

    good = shipped_tasks()[0].to_line()
    bad = (
        good.replace('"category":"control"', '"category":"chores"')
        .replace('"category":"edge_case"', '"category":"chores"')
        .replace('"category":"sequencing"', '"category":"chores"')
        .replace('"category":"rare_tool"', '"category":"chores"')
    )
    path = pytester.path / "mine.jsonl"
    path.write_text(good + "\n" + bad.replace(shipped_tasks()[0].task_id, "other-001") + "\n")
    result = run_bench(pytester, "--bank-model", "gold", "--bank-tasks", str(path))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*mine.jsonl:2: task 'other-001': field 'category'*(got 'chores')"]
    )


def test_a_model_without_litellm_installed_is_one_clear_line(pytester: pytest.Pytester) -> None:
    # The base install has no litellm (it is the [llm] extra): hide it from the run.
    pytester.makepyfile(
        hide_litellm="""
import importlib.util
_find_spec = importlib.util.find_spec
def find_spec(name, *args, **kwargs):
    return None if name == "litellm" else _find_spec(name, *args, **kwargs)
importlib.util.find_spec = find_spec
"""
    )
    for model, extra in (("openai/x", "llm"), ("local/gemma3-270m", "local")):
        result = pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", "-p", "hide_litellm", "--bank-model", model
        )
        assert result.ret == pytest.ExitCode.USAGE_ERROR
        assert (
            f"ERROR: --bank-model '{model}': a model is called through litellm, which is not "
            f"installed; pip install 'pytest-bankbench[{extra}]'"
        ) in result.stderr.str()
        assert "Traceback" not in result.stderr.str() + result.stdout.str()
    gold = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "-p",
        "hide_litellm",
        "--bank-model",
        "gold",
        "-k",
        "fd_closure-001",
    )
    assert gold.ret == pytest.ExitCode.OK


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--bank-model", ""), "ERROR: --bank-model '': empty; give a built-in agent (gold, *"),
        (("--bank-model", "  "), "ERROR: --bank-model '  ': empty; give a built-in agent *"),
        (("--bank-agent", ""), "ERROR: --bank-agent '': empty; give MODULE:FACTORY"),
        (("--bank-regrade", ""), "ERROR: --bank-regrade '': empty; give a traces.jsonl *"),
        (
            ("--bank-model", "gold", "--bank-tasks", ""),
            "ERROR: --bank-tasks '': empty; give a path, or leave the option out",
        ),
        (("--bank-model", "gold", "--bank-resume", " "), "ERROR: --bank-resume ' ': empty; *"),
    ],
    ids=["model", "model-blank", "agent", "regrade", "tasks", "resume"],
)
def test_an_empty_agent_is_a_usage_error_not_an_idle_run(
    pytester: pytest.Pytester, args: tuple[str, ...], message: str
) -> None:
    """User trial: `--bank-model "$MODEL"` with MODEL unset ran nothing: exit 5, no message.
    An empty --bank-tasks ran the shipped tasks, an empty --bank-resume was an INTERNALERROR."""
    result = run_bench(pytester, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
