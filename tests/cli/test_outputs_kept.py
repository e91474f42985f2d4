"""A command never writes over its own input or the shipped task data (user trial: `merge`
replaced a shard given as its output, `render` and `compare --json` their report, `export-sft`
the package's tasks.jsonl)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_bankbench.cli import main
from pytest_bankbench.paths import data_dir


@pytest.mark.parametrize(
    ("argv", "clash"),
    [
        (["merge", "{a}", "{a}", "{b}"], "OUT '{a}' is the same file as a shard '{a}'"),
        (
            ["merge", "{o}", "{a}", "{b}", "--html", "{b}"],
            "--html '{b}' is the same file as a shard",
        ),
        (["merge", "{o}", "{a}", "{b}", "--summary-md", "{a}"], "--summary-md '{a}' is the same"),
        (["render", "{a}", "--html", "{a}"], "--html '{a}' is the same file as REPORT '{a}'"),
        (["compare", "{a}", "{b}", "--json", "{b}"], "--json '{b}' is the same file as B '{b}'"),
    ],
)
def test_an_output_on_the_commands_input_is_refused_and_the_input_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], clash: str
) -> None:
    names = {"a": str(tmp_path / "a.json"), "b": str(tmp_path / "b.json")}
    names["o"] = str(tmp_path / "out.json")
    for name in ("a", "b"):
        Path(names[name]).write_text(f"precious {name}\n")
    assert main([arg.format(**names) for arg in argv]) == 2
    assert clash.format(**names) in capsys.readouterr().err
    assert [Path(names[n]).read_text() for n in "ab"] == ["precious a\n", "precious b\n"]
    assert not Path(names["o"]).exists()


def test_an_output_elsewhere_is_not_refused_for_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same inputs with an output of its own get past the check (then fail as reports)."""
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text("not a report\n")
    b.write_text("not a report\n")
    assert main(["compare", str(a), str(b), "--json", str(tmp_path / "c.json")]) == 2
    assert "read here" not in capsys.readouterr().err


@pytest.mark.parametrize("name", ["tasks.jsonl", "new.jsonl"])
def test_an_export_into_the_shipped_task_data_is_refused(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    target = data_dir() / name
    before = target.read_bytes() if target.exists() else None
    assert main(["export-sft", "--split", "lite", "--out", str(target)]) == 2
    assert "lies in the shipped task data" in capsys.readouterr().err
    assert (target.read_bytes() if target.exists() else None) == before


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["render", "{a}", "--html", "{d}/"], "--html"),
        (["merge", "{d}/", "{a}", "{b}"], "OUT.json"),
        (["compare", "{a}", "{b}", "--json", "{d}/"], "--json"),
        (["export-sft", "--out", "{d}/"], "--out"),
    ],
)
def test_an_output_path_ending_in_a_slash_is_refused_not_written_as_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], option: str
) -> None:
    """User trial: the plugin's `--bank-html h2/` wrote a file `h2`; the commands took the same
    path apart the same way."""
    names = {"a": str(tmp_path / "a.json"), "b": str(tmp_path / "b.json"), "d": str(tmp_path / "d")}
    with pytest.raises(SystemExit) as stop:
        main([arg.format(**names) for arg in argv])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}: '{names['d']}/': ends in '/', so it names a folder" in err
    assert not Path(names["d"]).exists()
