"""The registers of the gold dialogue: each Phrasing's wordings, and how it says a value.

simulation/dialogue.py says what the gold agent says (a call described, a value spoken, a
wording picked per task and turn); this module holds the wordings of each register, data the
tests run every task through (issue 17, item 6).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from pytest_bankbench.money import indian, to_paise
from pytest_bankbench.simulation.dialogue import Phrasing, spoken
from pytest_bankbench.tasks.model import ToldValue


def _indian_value(value: ToldValue) -> str:
    return spoken(value)


def _intl_value(value: ToldValue) -> str:
    if value.kind == "amount":
        return f"INR {Decimal(value.value):,.2f}"
    if value.kind == "date":
        day = date.fromisoformat(value.value)
        return f"{day:%d %b %Y}"
    return spoken(value)


def _rupee_value(value: ToldValue) -> str:
    if value.kind == "amount":
        return "₹" + indian(to_paise(value.value)).removeprefix("Rs. ")
    if value.kind == "date":
        return date.fromisoformat(value.value).strftime("%d/%m/%Y")
    return spoken(value)


PHRASINGS: dict[str, Phrasing] = {
    "bank": Phrasing(
        name="bank",
        greetings=(
            "Hello, and thank you for contacting Suvarna Bank.",
            "Good day, and welcome to Suvarna Bank.",
            "Hello! Thank you for reaching out to Suvarna Bank.",
            "Welcome to Suvarna Bank, and thanks for getting in touch.",
            "Hello, this is the Suvarna Bank assistant.",
            "Good day, and thank you for banking with Suvarna Bank.",
        ),
        asks=(
            "To help you, could you please tell me {topics}?",
            "Could you please tell me {topics}?",
            "So that I can help, could you tell me {topics}?",
            "Before I look into this, may I know {topics}?",
            "I'd be glad to help with that. Could you please share {topics}?",
            "To get this right, please let me know {topics}.",
        ),
        proposes=(
            "Here is what I will do: {action}. {quote}",
            "I will {action}. {quote}",
            "Here is the plan: I'll {action}. {quote}",
            "This is the request as I have it: I will {action}. {quote}",
            "Once you agree, I will {action}. {quote}",
        ),
        confirms=(
            "Shall I go ahead?",
            "Shall I proceed?",
            "Would you like me to go ahead?",
            "May I go ahead with this?",
            "Is that all right with you?",
            "Do I have your go-ahead?",
        ),
        dones=(
            "That is done. {results}",
            "All done. {results}",
            "Your request has been completed. {results}",
            "That has gone through. {results}",
            "Everything is complete. {results}",
        ),
        answers=(
            "Here is what I found. {results}",
            "Here are the details you asked for. {results}",
            "Here's the information you asked for. {results}",
            "Here's what I can tell you. {results}",
        ),
        refuses=(
            "I'm sorry, I can't do that. {explain} {results}",
            "I'm afraid I can't do that. {explain} {results}",
            "Unfortunately, that isn't something I can do. {explain} {results}",
            "I'm sorry, but that's not possible. {explain} {results}",
            "Regrettably, I'm unable to do that. {explain} {results}",
        ),
        value=_indian_value,
    ),
    "terse": Phrasing(
        name="terse",
        greetings=("Hi.", "Hello.", "Hi there.", "Hi - Suvarna Bank here."),
        asks=(
            "Need {topics}?",
            "Please share {topics}.",
            "Could you give me {topics}?",
            "Quick check - can you tell me {topics}?",
        ),
        proposes=(
            "I'll {action}. {quote}",
            "Plan: {action}. {quote}",
            "Next step: {action}. {quote}",
        ),
        confirms=("OK to proceed?", "Go ahead?", "Proceed?", "Shall I?"),
        dones=(
            "Done. {results}",
            "All done. {results}",
            "Completed. {results}",
            "That's done. {results}",
        ),
        answers=(
            "Here's what I found. {results}",
            "Here's the answer. {results}",
            "Here are the details. {results}",
        ),
        refuses=(
            "Can't do that: {explain} {results}",
            "Not possible: {explain} {results}",
            "Sorry, I can't do that. {explain} {results}",
            "Unable to do that: {explain} {results}",
        ),
        value=_rupee_value,
    ),
    "verbose": Phrasing(
        name="verbose",
        greetings=(
            "Good day! I'm the Suvarna Bank virtual assistant and I'm happy to help.",
            "Hello, and a very warm welcome to Suvarna Bank! I'm your virtual assistant.",
            "Good day, and thank you so much for contacting Suvarna Bank today.",
        ),
        asks=(
            "Before I look into this, I'll need a couple of details from you - could you "
            "share {topics}, please?",
            "To make sure I get everything right, could you kindly share {topics}?",
            "I'd be happy to look into this for you. First, may I ask you to share {topics}?",
            "So that I can assist you properly, would you mind sharing {topics}?",
        ),
        proposes=(
            "Thank you for your patience. I have everything I need. To be fully transparent, I "
            "will {action}. {quote}",
            "Thank you for bearing with me. Based on what you've told me, I will {action}. {quote}",
            "I now have all the information I need. Here is exactly what I will do: {action}. "
            "{quote}",
            "Just so everything is clear before anything changes, I will {action}. {quote}",
        ),
        confirms=(
            "Would you like me to go ahead with this?",
            "Could you please confirm that you'd like me to proceed?",
            "Are you happy for me to go ahead with this?",
            "Shall I go ahead and take care of this for you?",
        ),
        dones=(
            "Great news - everything went through successfully. Here is a summary: {results} "
            "I hope this helps.",
            "Good news: your request has gone through successfully. {results} Thank you for "
            "your patience.",
            "Everything has been processed successfully. {results} I hope this helps.",
        ),
        answers=(
            "Thank you for waiting. Here is the information you asked for: {results} I hope "
            "this helps.",
            "Here is what I found after looking into this: {results} I hope this helps.",
            "Here are the details you were looking for: {results} I hope this helps.",
        ),
        refuses=(
            "I understand how important this is, but unfortunately I'm not able to do that. "
            "{explain} {results}",
            "I'm really sorry, but I'm afraid this isn't something I'm able to do. "
            "{explain} {results}",
            "Thank you for explaining. Unfortunately, I cannot do that in this case. "
            "{explain} {results}",
        ),
        value=_intl_value,
    ),
    "markdown": Phrasing(
        name="markdown",
        greetings=(
            "**Welcome to Suvarna Bank!**",
            "**Hello from Suvarna Bank!**",
            "**Hi, and welcome to Suvarna Bank!**",
        ),
        asks=(
            "To proceed I need:\n- {topics}\n\nCould you share these?",
            "**Details needed:**\n- {topics}\n\nPlease share them.",
            "Before I start, please tell me:\n- {topics}",
        ),
        proposes=(
            "### Please confirm\n- **Action:** {action}\n{quote}",
            "### Your request\n- **What I'll do:** {action}\n{quote}",
            "### Summary before I act\n- **Action:** {action}\n{quote}",
        ),
        confirms=(
            "\nReply **YES** to confirm.",
            "\n**Shall I go ahead?**",
            "\nPlease reply **YES** to go ahead.",
        ),
        dones=(
            "### Completed ✅\n{results}",
            "### Done ✅\n{results}",
            "### Request completed ✅\n{results}",
        ),
        answers=("### Here is what I found\n{results}", "### Here are your details\n{results}"),
        refuses=(
            "### Not possible\n{explain}\n{results}",
            "### Unable to proceed\n{explain}\n{results}",
            "### Sorry - this can't be done\n{explain}\n{results}",
        ),
        value=_indian_value,
        join="\n",
    ),
    "polite": Phrasing(
        name="polite",
        greetings=(
            "Namaste! Thank you for banking with us.",
            "Namaste, and welcome to Suvarna Bank.",
            "Good day! Thank you for choosing Suvarna Bank.",
            "Namaste! It is a pleasure to assist you.",
        ),
        asks=(
            "May I kindly know {topics}?",
            "Kindly share {topics}, please.",
            "Could you kindly tell me {topics}?",
            "May I kindly have {topics}?",
        ),
        proposes=(
            "Kindly note, I will {action}. {quote}",
            "As per your request, I will {action}. {quote}",
            "With your kind permission, I will {action}. {quote}",
        ),
        confirms=(
            "May I go ahead, please?",
            "May I kindly proceed?",
            "Kindly confirm if I may proceed.",
        ),
        dones=(
            "Your request has been processed successfully. {results} Thank you for your patience.",
            "It has been done as requested. {results} Thank you for banking with us.",
            "Your request is complete. {results} Thank you for your patience.",
        ),
        answers=(
            "Here are the details you requested. {results} Thank you for your patience.",
            "Here is the information you requested. {results} Thank you for your patience.",
        ),
        refuses=(
            "We regret that this request cannot be processed. {explain} {results}",
            "I am sorry, but this request cannot be fulfilled. {explain} {results}",
            "Kindly note that we are unable to do this. {explain} {results}",
        ),
        value=_indian_value,
    ),
}
GOLD_PHRASING = "bank"
