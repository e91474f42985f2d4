"""The two parties of each session, made from the run's settings: the agent and the customer.

A built-in agent (or the gold agent of a re-grade) and the scripted customer need no model; a
model party gets a litellm client, pointed at the managed local server when its model is
`local/...` (started once on the controller, its address handed to every xdist worker).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pytest_bankbench.run.settings import RunSettings, SettingsError
from pytest_bankbench.vocabulary import BUILTIN_NAMES, LOCAL_MODEL_PREFIX

if TYPE_CHECKING:
    from pytest_bankbench.models.llm import ModelSettings
    from pytest_bankbench.run.cases import BankCase
    from pytest_bankbench.simulation.agents import Agent
    from pytest_bankbench.simulation.customer import Customer

Completion = Callable[..., Any] | None
# role ("agent" or "user") -> (litellm model, api base) of a managed local model
LocalEndpoints = dict[str, tuple[str, str]]


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
        from pytest_bankbench.models.llm import ModelSettings

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
        found = [] if o.builtin or o.regrade is not None else [self.model_settings(False).model]
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
        ]
        if not any(settings.api_bases for settings in checked):
            return []  # a hosted provider's address is its own: nothing to check
        from pytest_bankbench.models.endpoints import check_endpoints
        from pytest_bankbench.models.errors import ConfigurationError

        try:
            return check_endpoints(checked)
        except ConfigurationError as exc:
            raise SettingsError(str(exc)) from None

    def agent(self, case: BankCase, completion: Completion = None) -> Agent:
        o = self.settings
        if o.builtin or o.regrade is not None:
            from pytest_bankbench.simulation.agents import BUILTIN_AGENTS

            return BUILTIN_AGENTS[o.model if o.builtin else "gold"](case.task)
        from pytest_bankbench.models.agent import LiteLLMAgent
        from pytest_bankbench.models.llm import ModelClient

        client = ModelClient(
            self.model_settings(False), completion, trial=case.trial, task=case.task.task_id
        )
        client.prepare()  # the provider library's import is not the session's time
        return LiteLLMAgent(client)

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
