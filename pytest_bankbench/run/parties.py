"""The two parties of each session, made from the run's settings: the agent and the customer.

Every agent is made the same way: a factory (pytest_bankbench/api.py's `AgentFactory`) called
with the session's `AgentContext`, and what it returns checked to be an agent. The factory is
the user's own for `--bank-agent module:factory`; a built-in agent's (or the gold agent of a
re-grade) is its class, given the whole task (an oracle knows the gold); a model agent's makes
a litellm client, pointed at the managed local server when its model is `local/...` (started
once on the controller, its address handed to every xdist worker). The scripted customer needs
no model.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from pytest_bankbench.run.settings import RunSettings, SettingsError
from pytest_bankbench.vocabulary import BUILTIN_NAMES, LOCAL_MODEL_PREFIX

if TYPE_CHECKING:
    from pytest_bankbench.api import AgentContext, AgentFactory
    from pytest_bankbench.models.model_settings import ModelSettings
    from pytest_bankbench.run.cases import BankCase
    from pytest_bankbench.simulation.agents import Agent, AgentAction
    from pytest_bankbench.simulation.customer import Customer
    from pytest_bankbench.simulation.trace import Event

Completion = Callable[..., Any] | None
# role ("agent" or "user") -> (litellm model, api base) of a managed local model
LocalEndpoints = dict[str, tuple[str, str]]
AGENT_ACCEPTED = (
    "give module:factory, a module importable from the current folder or the Python path and "
    "a callable in it that takes an AgentContext and returns an agent (a `name` and "
    '`act(events) -> AgentAction`; see the README\'s "Testing your own agent")'
)


def _agent_error(spec: str, problem: str) -> SettingsError:
    return SettingsError(f"--bank-agent {spec!r}: {problem}; {AGENT_ACCEPTED}")


def _import(spec: str, module_name: str) -> Any:
    """The agent's module; the current folder is searched last, as `python -m pytest` would."""
    try:
        try:
            return importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            here = os.getcwd()
            top = module_name.split(".")[0]
            if exc.name != top or here in sys.path:
                raise
            sys.path.append(here)
            return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and f"{module_name}.".startswith(f"{exc.name}."):
            raise _agent_error(spec, f"no module named {exc.name!r}") from None
        raise _agent_error(spec, f"importing {module_name!r} failed: {exc}") from None
    except Exception as exc:
        raise _agent_error(
            spec, f"importing {module_name!r} failed: {type(exc).__name__}: {exc}"
        ) from None


def load_factory(spec: str) -> AgentFactory:
    """The factory `--bank-agent module:factory` names (an attribute path after the colon);
    SettingsError naming what is wrong: no colon, a module that does not import, an attribute
    it lacks, a value that cannot be called. Not cached: after the first, an import is a look-up
    in sys.modules."""
    module_name, colon, path = spec.partition(":")
    module_name, path = module_name.strip(), path.strip()
    if not colon or not module_name or not path:
        raise _agent_error(spec, "expected module:factory")
    found: Any = _import(spec, module_name)
    for part in path.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise _agent_error(spec, f"{module_name!r} has no attribute {path!r}") from None
    if not callable(found):
        raise _agent_error(spec, f"{path!r} is not callable (it is {_short(found)})")
    factory: AgentFactory = found
    return factory


class Unmade:
    """Stands in for what a factory made that is not an agent: its first move raises the
    ConfigurationError a model's bad setup raises, so the run stops with this one message."""

    def __init__(self, spec: str, made: object) -> None:
        self.name = spec
        self.problem = (
            f"--bank-agent {spec!r}: the factory returned {type(made).__name__} "
            f"{_short(made)}, not an agent (it needs a string `name` and a callable `act`); "
            + AGENT_ACCEPTED
        )

    def act(self, events: Sequence[Event]) -> AgentAction:
        from pytest_bankbench.models.errors import ConfigurationError

        raise ConfigurationError(self.problem)


def made(spec: str, factory: AgentFactory, context: AgentContext) -> Agent:
    """What a factory made when it is an agent, else an `Unmade` naming what it was."""
    from pytest_bankbench.api import is_agent

    agent = factory(context)
    return agent if is_agent(agent) else Unmade(spec, agent)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:77]}..."


class LocalServers:
    """One managed server per local model of the run, shared by the roles that name it (the agent
    and the LLM customer take turns, so neither waits long), with several slots so each keeps its
    prompt warm and a turn evaluates only the new messages; the agent's policy and tools are
    evaluated once at start for every session to reuse."""

    def __init__(self) -> None:
        self.servers: list[Any] = []
        self.endpoints: LocalEndpoints = {}

    @staticmethod
    def needed(settings: RunSettings) -> bool:
        """A model of this run is local (told without importing the servers' module)."""
        return settings.regrade is None and any(
            model.startswith(LOCAL_MODEL_PREFIX) for model in (settings.model, settings.user_model)
        )

    def start(self, settings: RunSettings) -> None:
        """Start the servers this run needs (none for a re-grade); LocalModelError if one cannot."""
        if not self.needed(settings):
            return
        from pytest_bankbench.models.local import LocalServer, is_local, resolve

        roles = [
            (role, model)
            for role, model in (("agent", settings.model), ("user", settings.user_model))
            if is_local(model)
        ]
        models = sorted({model for _, model in roles})
        try:
            for model in models:
                server = LocalServer(resolve(model), servers=len(models))
                self.servers.append(server)
                server.start()
                for role, name in roles:
                    if name == model:
                        self.endpoints[role] = (server.litellm_model, server.api_base)
                if ("agent", model) in roles:
                    self._warm_up(server)
        except BaseException:
            self.stop()
            raise

    @staticmethod
    def _warm_up(server: Any) -> None:
        from pytest_bankbench.bank.registry import tool_schemas
        from pytest_bankbench.simulation.chat import policy_text

        # The first user turn holds the policy and the tools (Gemma has no system turn), so the
        # cached prefix is everything before the customer's opening.
        messages = [
            {"role": "system", "content": policy_text()},
            {"role": "user", "content": "Hello"},
        ]
        server.warm_up(messages, tool_schemas())

    def stop(self) -> None:
        for server in self.servers:
            server.stop()


class Parties:
    """Makes each case's agent and customer from the settings."""

    def __init__(self, settings: RunSettings, local: LocalEndpoints | None = None) -> None:
        self.settings = settings
        self.local = local or {}

    def model_settings(self, user: bool) -> ModelSettings:
        """Model settings of the agent (or of the LLM customer)."""
        from pytest_bankbench.models.model_settings import ModelSettings

        o = self.settings
        model, bases = (o.user_model, o.user_api_bases) if user else (o.model, o.api_bases)
        role = "user" if user else "agent"
        scope: tuple[str, ...] | None = None
        if model.startswith(LOCAL_MODEL_PREFIX) and role in self.local:
            scope = (model,)
            model, bases = self.local[role][0], (self.local[role][1],)
        return ModelSettings(
            model=model,
            api_bases=tuple(bases),
            params=o.user_model_args if user else o.model_args,
            num_retries=o.num_retries,
            backoff_s=o.retry_backoff,
            cache_dir=o.cache,
            prices=o.prices,
            timeout_s=o.timeout,
            session_deadline_s=o.session_deadline,
            max_transport_failures=o.max_transport_failures,
            role="customer" if user else "agent",
            cache_scope=scope,
        )

    def models(self) -> list[str]:
        """The litellm models the sessions call (none for built-ins and the scripted customer)."""
        o = self.settings
        own = o.builtin or o.regrade is not None or o.agent is not None
        found = [] if own else [self.model_settings(False).model]
        if o.user_model != "scripted":
            found.append(self.model_settings(user=True).model)
        return found

    def secrets(self) -> tuple[str, ...]:
        """Every credential of both parties' model arguments (by name or under headers)."""
        from pytest_bankbench.redaction import secret_values

        o = self.settings
        return secret_values(o.model_args) + secret_values(o.user_model_args)

    def check_arguments(self) -> None:
        """Each model party's --bank-model-args checked against the provider library's accepted
        types, once, before the first session (issue 19): SettingsError naming the argument."""
        o = self.settings
        if o.regrade is not None:
            return
        from pytest_bankbench.models.arguments import (
            ArgumentError,
            check_api_base,
            check_model_args,
        )

        try:
            for base in o.api_bases:
                check_api_base("--bank-api-base", base)
            for base in o.user_api_bases:
                check_api_base("--bank-user-api-base", base)
            if not o.builtin:
                check_model_args("--bank-model-args", o.model_args)
            if o.user_model != "scripted":
                check_model_args("--bank-user-model-args", o.user_model_args)
        except ArgumentError as exc:
            raise SettingsError(str(exc)) from None

    def check_routes(self) -> None:
        """A model string litellm cannot route (no provider it knows: `foo/bar`,
        `gpt-nonexistent-xyz`) stops the run before the first session, in one line naming the
        option (user trial: each session failed as a harness error instead). litellm decides
        it locally, without a request; the import is the run's own, a few seconds early.
        The same words as the provider error rule (models/errors.py) an xdist worker meets."""
        o = self.settings
        if o.regrade is not None:
            return
        from pytest_bankbench.models.errors import PROVIDER_FIX
        from pytest_bankbench.models.litellm_setup import unroutable

        builtins = ", ".join(BUILTIN_NAMES)
        for user, model in ((False, o.model), (True, o.user_model)):
            option = "--bank-user-model" if user else "--bank-model"
            if model in (*BUILTIN_NAMES, "scripted", o.agent) or model.startswith(
                LOCAL_MODEL_PREFIX
            ):
                continue
            problem = unroutable(model)
            if problem is not None:
                raise SettingsError(
                    f"{option} {model!r}: litellm cannot tell which provider serves it "
                    f"({problem}); "
                    + PROVIDER_FIX.format(model=option)
                    + (", or 'scripted'" if user else f", or a built-in agent ({builtins})")
                )

    def check_endpoints(self) -> list[str]:
        """One cheap request to each endpoint the sessions will call (issue 18): SettingsError
        naming the option, the URL and the cause when the run cannot work; warnings else."""
        o = self.settings
        if o.regrade is not None:
            return []
        checked = [
            self.model_settings(user)
            for user, model in ((False, o.model), (True, o.user_model))
            if model not in (*BUILTIN_NAMES, "scripted")
            and not model.startswith(LOCAL_MODEL_PREFIX)
            and not (model == o.agent and not user)
        ]
        if not any(settings.api_bases for settings in checked):
            return []  # a hosted provider's address is its own: nothing to check
        from pytest_bankbench.models.endpoints import check_endpoints
        from pytest_bankbench.models.errors import ConfigurationError

        try:
            return check_endpoints(checked)
        except ConfigurationError as exc:
            raise SettingsError(str(exc)) from None

    def factory(self, case: BankCase, completion: Completion = None) -> AgentFactory:
        """The factory of this case's agent: the user's, a built-in's, or a model's."""
        o = self.settings
        if o.agent is not None:
            return load_factory(o.agent)
        if o.builtin or o.regrade is not None:
            from pytest_bankbench.simulation.agents import BUILTIN_AGENTS

            builtin = BUILTIN_AGENTS[o.model if o.builtin else "gold"]
            return lambda context: builtin(case.task)  # an oracle reads the whole task
        from pytest_bankbench.models.agent import LiteLLMAgent
        from pytest_bankbench.models.llm import ModelClient

        settings = self.model_settings(False)

        def model_agent(context: AgentContext) -> Agent:
            client = ModelClient(settings, completion, trial=context.trial, task=case.task.task_id)
            client.prepare()  # the provider library's import is not the session's time
            return LiteLLMAgent(client)

        return model_agent

    def agent(self, case: BankCase, completion: Completion = None) -> Agent:
        """The case's agent, made by its factory from the session's context."""
        from pytest_bankbench.api import agent_context

        context = agent_context(case.task, case.trial, case.seed)
        return made(self.settings.model, self.factory(case, completion), context)

    def check_agent(self, cases: Sequence[BankCase]) -> None:
        """--bank-agent's factory makes an agent for the first case: SettingsError (a usage
        error, before any session) when it raises or returns something else."""
        if self.settings.agent is None or not cases:
            return
        case = cases[0]
        try:
            agent = self.agent(case)
        except Exception as exc:
            raise _agent_error(
                self.settings.agent,
                f"the factory raised {type(exc).__name__}: {exc} (for {case.task.task_id})",
            ) from None
        if isinstance(agent, Unmade):
            raise SettingsError(agent.problem)

    def customer(self, case: BankCase, completion: Completion = None) -> Customer:
        if self.settings.user_model == "scripted":
            from pytest_bankbench.simulation.customer import ScriptedCustomer

            return ScriptedCustomer(case.task)
        from pytest_bankbench.models.customer import LiteLLMCustomer
        from pytest_bankbench.models.llm import ModelClient

        client = ModelClient(
            self.model_settings(user=True), completion, trial=case.trial, task=case.task.task_id
        )
        client.prepare()
        return LiteLLMCustomer(client, case.task)
