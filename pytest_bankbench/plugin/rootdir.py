"""The rootdir and configuration of a run as pytest would find them knowing the plugin's options.

pytest finds the rootdir and reads the configuration file (addopts, markers, testpaths) from a
first parse of the command line that knows only its own options: installed plugins are loaded
after it (Config.parse: determine_setup, then load_setuptools_entrypoints), so their options
cannot be known to it. A --bank-* value given as a separate argument then reads as a test path:
`--bank-summary-md "$GITHUB_STEP_SUMMARY"` or `--bank-tasks /abs/file` roots the run at that
file's folder and silently drops the project's configuration (pytest issue #8846, a known
limitation; `--bank-summary-md=PATH` never had it). Before any conftest is loaded, with the
plugin's options known, the setup is determined again the same way; where it differs, the
project's is put in place: rootdir, configuration file, its addopts (and the plugins they name),
pythonpath, minversion and required_plugins (issue 18).
"""

from __future__ import annotations

import copy

import pytest

# Where pytest 9 keeps what Config.parse found; a pytest that renames them stops the run with
# the way round it rather than letting it run on the wrong configuration.
_INTERNALS = (
    "_rootpath",
    "_inipath",
    "_inicfg",
    "_inicache",
    "_ignored_config_files",
    "_checkversion",
    "_configure_python_path",
    "_unconfigure_python_path",
    "_validate_plugins",
)


def redetermine_setup(config: pytest.Config, parser: pytest.Parser, args: list[str]) -> None:
    """Put the setup pytest finds for `args` read with every option in place of the one found
    without the plugin's; `args` (the ini's addopts, then the command line) is updated in place."""
    from _pytest.config.findpaths import determine_setup, parse_override_ini

    found_addopts: list[str] = config.getini("addopts")
    # Config.fromdictargs parses without addopts: then the command line is all of args.
    with_addopts = not found_addopts or args[: len(found_addopts)] == found_addopts
    given = args[len(found_addopts) :] if with_addopts else list(args)
    known = parser.parse_known_args(given, namespace=copy.copy(config.option))
    rootpath, inipath, inicfg, ignored = determine_setup(
        inifile=known.inifilename,
        override_ini=known.override_ini,
        args=known.file_or_dir,
        rootdir_cmd_arg=known.rootdir or None,
        invocation_dir=config.invocation_params.dir,
    )
    if (rootpath, inipath) == (config.rootpath, config.inipath):
        return
    if not all(hasattr(config, name) for name in _INTERNALS):
        option = next((a for a in args if a.startswith("--bank-") and "=" not in a), "--bank-*")
        raise pytest.UsageError(
            f"{option}: pytest read its value as a test path and would run in {config.rootpath} "
            f"without the configuration of {inipath or rootpath}; write {option}=VALUE"
        )
    config._unconfigure_python_path()  # the wrong file's pythonpath entries
    config._rootpath, config._inipath, config._inicfg = rootpath, inipath, inicfg
    config._ignored_config_files = ignored
    config._inicache.clear()
    parser.extra_info["rootdir"] = str(rootpath)
    parser.extra_info["inifile"] = str(inipath)
    addopts: list[str] = config.getini("addopts") if with_addopts else []
    args[:] = [*addopts, *given]
    config.pluginmanager.consider_preparse(addopts, exclude_only=False)  # their -p NAME
    config.known_args_namespace = parser.parse_known_args(args, namespace=copy.copy(config.option))
    if overrides := parse_override_ini(config.known_args_namespace.override_ini):
        config._inicfg.update(overrides)
        config._inicache.clear()
    if config.known_args_namespace.confcutdir is None:
        config.known_args_namespace.confcutdir = str(inipath.parent if inipath else rootpath)
    config._checkversion()
    config._configure_python_path()
    config._validate_plugins()
