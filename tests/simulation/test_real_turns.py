"""The act reader on real models' turns: how often its reading changes the customer's next move.

real_turns.txt holds assistant turns of real models from another benchmark's published
transcripts (tau-bench), each labelled with the acts a person reads in it (issue 16: the project's
own corpus, agent_turns.txt, passes because it was written here). The measure is the customer's
next move: the labelled acts and the reader's acts each decide one, in the order the scripted
customer decides (simulation/customer.py, ScriptedCustomer._answer), and a turn whose two moves
differ is one where the customer would answer wrongly. The held-out part (a source file never
looked at while the rules were changed) must do as well as the tuning part. Round 4 tuned on
real_turns_round3.txt, round 3's held-out part (held-out-5, now tuning-9), while the next
held-out parts were labelled apart; round 5 tuned on real_turns_round4.txt (held-out-6, now
tuning-10), and round 6 on real_turns_round5.txt (held-out-7, now tuning-11), then, once the
carry of those rules to it was measured, on real_turns_round6.txt (held-out-8, now tuning-12).
The next held-out parts are labelled apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

import pytest

from pytest_bankbench.simulation.acts import read
from pytest_bankbench.simulation.acts_rules import ACTS, Act

# real_turns.txt: tau-bench's airline (tuning) and retail (tuning-5) turns; real_turns_more.txt:
# tau2-bench runs (tuning-2, and gpt-4o telecom as tuning-6); real_turns_tau2.txt: tau2-bench's
# published results (gpt-4.1 telecom as tuning-7; other models' telecom, retail and airline runs
# as tuning-3); real_turns_others.txt: models outside the gpt-4.1 family (grok-3 telecom;
# claude-opus-4-6, qwen2.5, gpt-oss-120b, claude-sonnet-4-6 and deepseek-chat airline as
# tuning-4; gpt-5.4 airline as tuning-8); real_turns_round3.txt: NVIDIA's ToolOrchestra on
# tau2-bench retail, tuning-9; real_turns_round4.txt: o3 and Whissle's voice agent on tau2-bench
# airline, tuning-10. Each block was labelled and committed before the rules changed
# for it. tuning-5 to tuning-8 were the held-out parts of rounds 1 and 2 (held-out to
# held-out-4); round 3 tuned on them after held-out-5 was labelled and measured. Round 4 tuned on
# held-out-5 (renamed tuning-9) while new held-out parts were labelled apart: real_turns_round4.txt
# (o3 and Whissle's voice agent on tau2-bench airline, held-out-6) and real_turns_round5.txt
# (GPT-4o 2024-11-20 on Azure, tau2-bench retail and telecom from the judge viewer's transcripts,
# held-out-7), each labelled before the reader was run on it, measured once with the round-3
# rules when wired in, and again after round 4 at the merge, no rule changed for them. Round 5
# tuned on held-out-6 (renamed tuning-10) while held-out-7 stayed held out, its turns never read;
# round 6 tuned on held-out-7 (renamed tuning-11).
# real_turns_round6.txt: A-ReaL-Eigen (a post-trained Qwen3-235B) on tau2-bench retail, held-out-8,
# labelled the same way and measured once with the round-4 rules when wired in, again after round 5;
# round 6 tuned on it (renamed tuning-12) after measuring its carry once.
# real_turns_round7.txt: DM-Cito-72B-v1 (Mininglamp) on tau2-bench airline, held-out-9, and
# real_turns_round8.txt: Qwen3.5-27B on tau2-bench retail (a fork's simulation file), held-out-10,
# labelled the same way while round 6 was tuned, measured once with the round-5 rules when wired in
# and once after round 6, never read by it. Round 7 tuned on both (renamed tuning-13 and tuning-14)
# while the next held-out parts were labelled apart:
# real_turns_round9.txt: Amity Sigma v3r (a fine-tuned Qwen3-4B-Thinking) on tau2-bench airline,
# held-out-11, and real_turns_round10.txt: gemini-3-flash-preview on tau2-bench retail (a fork's
# results viewer), held-out-12, each labelled the same way by reading only, measured once with the
# round-6 rules when wired in and once after round 7, never read by it. Round 8 tuned on both
# (renamed tuning-15 and tuning-16) while the next held-out parts were labelled apart:
# real_turns_round11.txt: grok-4-fast-reasoning on tau2-bench airline (a fork's simulation file),
# held-out-13, labelled the same way by reading only, measured once with the round-7 rules when
# wired in and once after round 8, never read by it; real_turns_round12.txt: gpt-4o-mini on
# tau-bench retail (a fork's experiment file), held-out-14, the same way. Round 9 tuned on both
# (renamed tuning-17 and tuning-18) while the next held-out parts were labelled apart:
# real_turns_round14.txt: gpt-5-nano on tau2-bench retail (a fork's results viewer), held-out-16,
# labelled the same way by reading only, measured once with the round-8 rules when wired in and
# once after round 9, never read by it; real_turns_round13.txt: grok-4-1-fast-non-reasoning on
# tau-bench airline (a copy of tau-bench with Grok results), held-out-15, the same way. Round 10
# tuned on both (renamed tuning-19 and tuning-20) while the next held-out parts were labelled apart:
# real_turns_round15.txt: gpt-4.1-mini on tau-bench airline (a fork's latency runs; a model of a
# family already in tuning-9, a new run and harness), held-out-17, and real_turns_round16.txt:
# gemini-2.5-flash on tau2-bench airline (an add-on's sample runs), held-out-18, each labelled by
# reading only, measured once with the round-9 rules when wired in and once after round 10. Round
# 11 tuned on both (renamed tuning-21 and tuning-22) while the next held-out parts were labelled
# apart: real_turns_round17.txt: gpt-4.1-nano on tau2-bench retail (a judge audit's run),
# held-out-19, and real_turns_round18.txt: gpt-5-mini on tau2-bench retail (the fork of tuning-20's
# gpt-5-nano run, a new model), held-out-20, each labelled by reading only, measured once with the
# round-10 rules when wired in and once after round 11, never read by it. Round 12 tuned on both
# (renamed tuning-23 and tuning-24) while the next held-out parts were
# labelled apart: real_turns_round19.txt: grok-3-mini on tau2-bench
# airline (the fork of tuning-4's grok-3 and tuning-17's grok-4-fast-reasoning runs, a new model;
# gpt-5's retail run, meant for it, is not in any snapshot), held-out-21, and real_turns_round20.txt:
# claude-3.7-sonnet on tau-bench airline (a fork's revised task split), held-out-22, each labelled
# by reading only, measured once with the round-11 rules when wired in and once after round 12.
# Round 13 tuned on both (renamed tuning-25 and tuning-26) while the next held-out parts were
# labelled apart: real_turns_round21.txt: grok-4 on tau2-bench airline and its tighter-policy
# variant (the same fork's 2025-10-13 runs, a new model), held-out-23, and real_turns_round22.txt:
# grok-4's 2025-10-08 runs of one cancellation task (another file of that model; no new model's
# transcript could be copied verbatim), held-out-24, each labelled by reading only, measured once
# with the round-12 rules when wired in and once after round 13, never read by it. Round 14
# tuned on both (renamed tuning-27 and tuning-28) while two more parts were labelled apart, each
# by reading only, measured once with the round-13 rules when wired in and once after round 14,
# never read by it: real_turns_round23.txt: gpt-4o on tau2-bench retail with a policy refined by
# the fork (a new run of a model of the first tuning parts; no new model's transcript could be
# copied whole), held-out-25, and real_turns_round24.txt: gpt-4.1 on tau2-bench retail (the fork
# of tuning-20's and tuning-24's runs, a model of tuning-5), held-out-26. Round 15 tuned on both
# (renamed tuning-29 and tuning-30) while two more parts were labelled apart, each by reading only,
# measured once with the round-14 rules when wired in and once after round 15, never read by it:
# real_turns_round25.txt: gpt-4.1-mini on tau2-bench retail (the same fork's base run, a model of
# tuning-21; no new model's transcript could be read whole), held-out-27, and
# real_turns_round26.txt: gpt-5-mini under the fork's mermaid harness (a model of tuning-24),
# held-out-28. Round 16 tuned on held-out-27 and held-out-28 (renamed tuning-31 and tuning-32)
# while the next held-out parts were labelled apart.
# While round 16 was tuned, two more parts were labelled apart, each by reading only (a second
# labeller's reading of both is in bench/second_labels/held_out_29_30_L.txt), measured once with
# the round-15 rules when wired in and once after round 16, never read by it: real_turns_round27.txt: qwen3-max on
# tau2-bench airline (the leaderboard's Qwen submission, a model in no other part; its replies
# after each reasoning block, as the harness reads them), held-out-29, and real_turns_round28.txt:
# claude-opus-4-6 under the leaderboard's AdaptiveAgent scaffold on tau2-bench airline (a model of
# tuning-4, a new harness), held-out-30. Round 17 tuned on held-out-29 and held-out-30 (renamed
# tuning-33 and tuning-34) while the next held-out parts were labelled apart.
# While round 17 was tuned, three more parts were labelled apart, each by reading only (a second
# labeller's reading of each is in bench/second_labels/held_out_31_32_N.txt and held_out_33_P.txt),
# measured once with the round-16 rules when wired in and once after round 17 (the same, turn for
# turn), never read by it: real_turns_round29.txt and real_turns_round30.txt:
# Qwen2.5-Coder-32B-Instruct on tau-bench retail and airline (a fork's runs, a model in no other
# part; it wrote its tool calls as JSON in its replies and the harness never ran them, so most turns
# narrate a step beside a call the customer sees), held-out-31 and held-out-32, and
# real_turns_round31.txt: claude-haiku-4-5 on tau2-bench retail under a fork's Claude Agent SDK
# harness (a model in no other part; its texts copied twice, apart, and compared: identical),
# held-out-33. Round 18 tuned on held-out-31 and held-out-32 (renamed tuning-35 and tuning-36)
# while held-out-33 stayed held out, its turns never read. Round 19 tuned on held-out-33 (renamed
# tuning-37) and on what stayed misread in every other part, while two more parts were labelled
# apart, each by reading only (a second labeller's reading of both is in
# bench/second_labels/held_out_34_35_R.txt), measured once with the round-18 rules when wired in and
# once after round 19 (the same, turn for turn), never read by it: real_turns_round32.txt:
# claude-sonnet-5 and claude-haiku-4-5 on tau2-bench's banking_knowledge domain (a bank, a domain in
# no other part; claude-sonnet-5 a model in no other part; its texts copied twice, apart, and
# compared: identical), held-out-34, and real_turns_round33.txt: claude-sonnet-4-6 on tau2-bench
# retail under a fork's policy-refinement runner (a model of one airline part, a new domain and
# harness), held-out-35. Round 20 tuned on held-out-34 and held-out-35 (renamed tuning-38 and
# tuning-39) and on what stayed misread in every other part, while one more part was labelled
# apart, by reading only (a second labeller's reading is in bench/second_labels/held_out_36_T.txt),
# measured once with the round-19 rules when wired in and once after round 20 (the same moves, turn
# for turn), never read by it: real_turns_round34.txt: claude-haiku-4-5 on tau2-bench's
# banking_knowledge domain (simulations 5 to 9 of the run whose first four are in tuning-38; its
# texts copied twice, apart, and compared: identical), held-out-36. Round 21 read held-out-36
# (renamed tuning-40) for its one unsafe reading only: "could you please confirm ONE of the
# following: 1. Your date of birth ..." and "Once you confirm one more piece of information, I'll
# be able to check ..." as a request for details, not a yes asked; no other part's reading
# changed. Round 22 tuned on the misreadings of every tuning part (170 to 166 of 5,703) while one
# more part was labelled apart, by reading only, by two labellers in sequence (a second, blind
# labeller's reading is in bench/second_labels/held_out_37_W.txt: the same move on 116 of 117
# turns), measured once with the round-21 rules when wired in and once after round 22 (the same
# moves, turn for turn), never read by it: real_turns_round35.txt: MiniMax-M2.7 as a voice agent
# on tau2-bench retail (a model and a harness in no other part), held-out-37. Round 22 tuned on what stayed misread in every part, no
# part held out: a literal yes asked with a gerund ('confirm by replying exactly "yes"') or offered
# as a reply line ('(YES to proceed, NO to modify later.)'), a JSON field's one-word value read as
# data, 'No changes possible.' as a refusal (170 to 166 of 5,703 turns change the next move).
# Round 23 tuned on the misreadings of every tuning part, held-out-37 held out (its turns never
# read, measured once after: 7/117, the same turns): a transfer that is only a refusal's condition
# ('without transferring you') or one way listed after 'I can:', a rule told with the condition the
# next check decides, 'currently unavailable' as a refusal, a plan of steps before the first, and a
# question about the record just found beside an invitation (166 to 158 of 5,703).
# Round 24 tested reading a question and a yes asked together as both (the customer answers and
# agrees in one turn): of the tuning turns read as a question alone whose sentences carry a yes,
# 248 are labelled a question only and 47 a yes, under every rule that folds the yes into the
# question (a choice, a named option, a yes put off), so reading both changed 358 turns' moves
# and read 260 as a yes not asked (8 before); it was not kept. 'Are you ready to move forward with
# ...?' after a plan is read as the yes (158 to 157 of 5,703); held-out-37 held out, its turns
# never read, measured once after: 7/117, the same turns, 87.2% exact, 1 unasked yes.
CORPORA = tuple(
    Path(__file__).with_name(name)
    for name in (
        "real_turns.txt",
        "real_turns_more.txt",
        "real_turns_tau2.txt",
        "real_turns_others.txt",
        "real_turns_round3.txt",
        "real_turns_round4.txt",
        "real_turns_round5.txt",
        "real_turns_round6.txt",
        "real_turns_round7.txt",
        "real_turns_round8.txt",
        "real_turns_round9.txt",
        "real_turns_round10.txt",
        "real_turns_round11.txt",
        "real_turns_round12.txt",
        "real_turns_round13.txt",
        "real_turns_round14.txt",
        "real_turns_round15.txt",
        "real_turns_round16.txt",
        "real_turns_round17.txt",
        "real_turns_round18.txt",
        "real_turns_round19.txt",
        "real_turns_round20.txt",
        "real_turns_round21.txt",
        "real_turns_round22.txt",
        "real_turns_round23.txt",
        "real_turns_round24.txt",
        "real_turns_round25.txt",
        "real_turns_round26.txt",
        "real_turns_round27.txt",
        "real_turns_round28.txt",
        "real_turns_round29.txt",
        "real_turns_round30.txt",
        "real_turns_round31.txt",
        "real_turns_round32.txt",
        "real_turns_round33.txt",
        "real_turns_round34.txt",
        "real_turns_round35.txt",
    )
)
Part = Literal[
    "tuning",
    "tuning-2",
    "tuning-3",
    "tuning-4",
    "tuning-5",
    "tuning-6",
    "tuning-7",
    "tuning-8",
    "tuning-9",
    "tuning-10",
    "tuning-11",
    "tuning-12",
    "tuning-13",
    "tuning-14",
    "tuning-15",
    "tuning-16",
    "tuning-17",
    "tuning-18",
    "tuning-19",
    "tuning-20",
    "tuning-21",
    "tuning-22",
    "tuning-23",
    "tuning-24",
    "tuning-25",
    "tuning-26",
    "tuning-27",
    "tuning-28",
    "tuning-29",
    "tuning-30",
    "tuning-31",
    "tuning-32",
    "tuning-33",
    "tuning-34",
    "tuning-35",
    "tuning-36",
    "tuning-37",
    "tuning-38",
    "tuning-39",
    "tuning-40",
    "held-out-37",
]
PARTS: tuple[Part, ...] = get_args(Part)
# A part is held out until a round tunes on it and renames it tuning-N.
HELD_OUT: frozenset[Part] = frozenset(p for p in PARTS if p.startswith("held-out"))
Move = Literal["consent", "answer", "hand-off", "refusal", "wait", "next", "restate", "go-on"]
# The most turns of a part whose reading may change the customer's next move, and the fewest
# it must read exactly as labelled (issue 16: 14.6% and 60% before).
MOVE_CHANGED_AT_MOST = 0.02
EXACT_AT_LEAST = 0.85


# Where the parts short of the goal stand (issue 16), for each of the three measures below.
# Strict: a mark has to go the day its part passes that measure. tuning-5 to tuning-8 were
# measured as held-out parts after round 2 and pass the move and safety measures since round 3:
# 16/158 (10.1%), 11/142 (7.7%), 20/149 (13.4%) and 15/118 (12.7%) turns changed the next move
# then, 3/158, 2/142, 1/149 and 2/118 after it. tuning-9 (held-out-5 in round 3) was measured
# when labelled, with the round-2 rules: 42/131 turns (32.1%) changed the next move, 32.8% were
# read exactly and 31 of the changed turns read as a yes; 34/131, 34.4% and 22 after round 3;
# round 4 tuned on it and it passes the safety measure since. tuning-10 (held-out-6 in round 4)
# was measured with the round-3 rules and after round 4: 23/158 and 22/158 turns changed the next
# move, 72.8% read exactly, 5 and 4 read as a yes they do not ask for and 1 question as the end of
# a request; round 5 tuned on it and it passes the safety measure since. tuning-11 (held-out-7
# until round 6): 15/151 (9.9%) with the round-3 rules, 10/151 (6.6%) after rounds 4 and 5, 84.8%
# read exactly, 3 questions read as the end of a request; round 6 tuned on it: 0/151, 90.7%.
# Its rules' carry, measured once on held-out-8 before that part was read (leave one out): 12/128
# (9.4%) before and after, 61.7% to 60.2% exact, 4 unasked yeses before and after. Round 6 then
# tuned on it as tuning-12: 6/128 (4.7%), 64.1% exact, no unasked yes. tuning-25 (held-out-21 until
# round 13): 16/120 with the round-11 rules, 15/120 (12.5%), 75.0% exact and 4 unasked yeses after
# round 12; tuning-26 (held-out-22): 9/132 (6.8%) with the round-11 and round-12 rules, 90.9% exact.
# Round 13 tuned on both: 1/120 (85.8% exact, no unasked yes) and 1/132 (97.0%); they meet every
# measure, so they carry no mark.
# tuning-35 and tuning-36 meet it since round 18 (50/123, 40.7%, and 25/127, 19.7%, as held-out-31
# and held-out-32 with the round-16 rules and after round 17; 2/123 and 1/127 after); tuning-37
# since round 19 (5/62, 8.1%, as held-out-33 with the round-16 to round-18 rules; 0/62 after);
# tuning-39 since round 20 (6/120, 5.0%, as held-out-35 with the round-18 rules and after round
# 19; 2/120 after).
MOVES_SHORT: dict[Part, str] = {
    "held-out-37": "7/117 held-out-37 turns (6.0%) change the next move with the round-21 rules "
    "and after rounds 22 to 24, the same turns (8/117 against the second labeller W): a voice agent's spelled-out e-mail "
    "address and short findings ('I found both items') labelled as answers, read as asking nothing; "
    "a request to spell a name read as asking nothing; a proposal cut off mid-sentence; a choice "
    "of retrying or transferring read as a yes asked",
    "tuning-9": "3/131 tuning-9 turns (2.3%) change the next move after round 4 (26.0% before), "
    "each a side refusal beside a finished request, labelled as the finished report",
    "tuning-10": "4/158 tuning-10 turns (2.5%) change the next move after round 13 (5 after round 5, "
    "22, 13.9%, before): two asking a yes beside a choice, read as the choice; two cut off mid-list",
    "tuning-13": "3/142 tuning-13 turns (2.1%) change the next move after round 11 (4 after round 7, "
    "14, 9.9%, as held-out-9): a proposal beside another read as the choice the convention makes "
    "it, one labelled the other way; a transfer offered on a condition",
    "tuning-12": "6/128 tuning-12 turns (4.7%) change the next move after round 6 (12, 9.4%, "
    "before): four asking a yes beside a choice or a question, read as the question; two jokes",
    "tuning-15": "5/132 tuning-15 turns (3.8%) change the next move after round 11 (6 after round 8, "
    "14, 10.6%, as held-out-11 with the round-6 and round-7 rules): a yes asked beside a pick of "
    "options, a record check labelled as the go-ahead",
    "tuning-16": "5/144 tuning-16 turns (3.5%) change the next move after round 19 (6 after round "
    "13, 7 after round 8, 11 and 10 as held-out-12): three asking a yes beside a choice of payment "
    "method or item, read as the choice",
    "tuning-17": "14/147 tuning-17 turns (9.5%) change the next move after round 23 (16 after round "
    "19, 17 after round 11, 19 after round 9, 26 and 27 as held-out-13 with the round-7 and round-8 rules): long turns "
    "holding a proposal, "
    "a question and a transfer at once; a yes asked beside a pick; a transfer offered read as done",
    "tuning-19": "19/179 tuning-19 turns (10.6%) change the next move after round 23 (20 after "
    "round 22, 21 after round 19, 27 after round 13, 30 after round 11, 38 after round 10, 44 and 43 as "
    "held-out-15): long turns that put options, a yes and a question side by side",
    "tuning-20": "28/147 tuning-20 turns (19.0%) change the next move after round 22 (30 after "
    "round 20, 31 after round 13, 32 after round 11, 39 after round 10, 45 as held-out-16): "
    "JSON-object replies, a yes asked beside a request for a value",
    "tuning-21": "3/126 tuning-21 turns (2.4%) change the next move after round 19 (4 after round "
    "11, 11, 8.7%, as held-out-17 with the round-9 rules and after round 10): a yes asked beside a "
    "pick or a question, read as the question; an offer of help with any of the listed flights",
    "tuning-22": "4/136 tuning-22 turns (2.9%) change the next move after round 17 (5 after round "
    "11, 11, 8.1%, as held-out-18 with the round-9 rules and after round 10): two offers and a "
    "record check read as questions; a found account beside 'How can I help?'",
    "tuning-23": "5/130 tuning-23 turns (3.8%) change the next move after round 12 (16, 12.3%, as "
    "held-out-19 with the round-10 and round-11 rules): a result or a refusal beside a question "
    "or an offer, an offer of details read as a question",
    "tuning-24": "3/123 tuning-24 turns (2.4%) change the next move after round 23 (4 after round 22, "
    "5 after round 19, "
    "6 after round 16, "
    "7 after round 13, 8 after round 12, 20, 16.3%, and 19 as held-out-20 with the round-10 and "
    "round-11 rules): yeses asked beside a record report, read as its question",
    "tuning-27": "4/125 tuning-27 turns (3.2%) change the next move after round 14 (17, 13.6%, as "
    "held-out-23 with the round-12 rules and after round 13): yeses or offers asked beside a "
    "refusal and a request, a greeting or a transfer offered, read as the request or the refusal",
    "tuning-28": "4/120 tuning-28 turns (3.3%) change the next move after round 14 (9, 7.5%, as "
    "held-out-24 with the round-12 rules and after round 13): modifications or transfers offered "
    "beside a refused cancellation or a request for more details read as the refusal, the request "
    "or a hand-off made",
    "tuning-29": "4/121 tuning-29 turns (3.3%) change the next move after round 15 (8, 6.6%, as "
    "held-out-25 with the round-13 rules and after round 14): "
    "a failed exchange beside a completed return read as a wait; a proposal and an offered "
    "cancellation beside a result read as the report or a question; a gift card not applied read "
    "as a refusal",
    "tuning-30": "6/123 tuning-30 turns (4.9%) change the next move after round 19 (7 after round 15, "
    "12, 9.8%, as held-out-26 with the round-13 rules and after round 14): "
    "five yeses asked beside a request for a value or a refusal, or an offer of details, read as the "
    "question; a yes beside 'anything else' read as a refusal",
    "tuning-31": "3/120 tuning-31 turns (2.5%) change the next move after round 16 (6/120, 5.0%, as "
    "held-out-27 with the round-14 rules and after round 15): three yeses asked beside a pick of "
    "listed options or a request for details ('Also, confirm the payment method to use is the "
    "original one') read as the question",
    "tuning-32": "8/121 tuning-32 turns (6.6%) change the next move after round 16 (20/121, 16.5%, as "
    "held-out-28 with the round-14 rules and after round 15): four long plans asking a yes beside "
    "values, options or a verification read as the question; two offers beside a question or a "
    "report read as them; two offers in a closing menu before 'anything else?' read as it",
    "tuning-33": "2/34 tuning-33 turns (5.9%) change the next move as held-out-29 with the "
    "round-15 rules and after round 16: "
    "an offer to update the bags beside 'any other questions' after a report, read as the end; "
    "an alternative offered beside a refusal and 'anything else', read as the refusal",
    "tuning-34": "4/120 tuning-34 turns (3.3%) change the next move after round 17 (18/120, "
    "15.0%, as held-out-30 with the round-15 rules and after round 16): "
    "yeses or offers asked beside a question or a choice read as the question (two: "
    "'Alternatively, I can check both ... Would you like me to do that?', labelled the other way "
    "in older parts; 'I need to confirm: Do you want ... with either PHL or EWR ...?'); refusals "
    "beside 'Would you like me to help with any other aspect ..., such as ...?' read as questions "
    "(two; a twin turn of tuning-21 is labelled a question)",
    "tuning-38": "2/41 tuning-38 turns (4.9%) change the next move after round 20 (6, 14.6%, as "
    "held-out-34 with the round-18 rules and after round 19): an offer beside a question ('If "
    "Rho-Bank has a card with similar or better benefits, I'd be happy to help you look into "
    "switching'), and a yes beside questions ('I can use our conversation as your written "
    "statement if you agree'), read as the question",
    "tuning-40": "2/33 tuning-40 turns (6.1%) change the next move after round 24 (3 after round 23, "
    "4 after round 21, 5, 15.2%, as held-out-36 with the round-19 rules and after round 20): a "
    "refusal until an eligibility date ('your Blue Account must be open 14 days before ...') beside "
    "a finished report or 'anything else?' read as the end of the request (two); since round 24 "
    "'Are you ready to move forward with all four of these actions?' after a plan is the yes",
}
# tuning-22 meets it since round 17 (84.6% after round 11, 80.9% as held-out-18; 86.0% after),
# tuning-34 since round 17 (75.8% as held-out-30 with the round-15 rules and after round 16; 85.8%
# after), tuning-35 and tuning-36 since round 18 (57.7% and 70.1% as held-out-31 and held-out-32
# with the round-16 rules and after round 17; 95.9% and 89.8% after), tuning-31 since round 19
# (81.7% after round 16, 80.0% as held-out-27 with the round-14 rules and after round 15; 85.8%
# after: a verification narrated before the request it leads to read as that request alone),
# tuning-21 since round 19 (83.3% after round 11, 78.6% as held-out-17; 85.7% after), tuning-28
# since round 20 (66.7% after round 14, 63.3% as held-out-24 with the round-12 rules and after
# round 13; 86.7% after: greetings that name the customer, 'Hello Raj!', labelled no greeting).
EXACT_SHORT: dict[Part, str] = {
    "tuning-8": "77.1% of tuning-8's turns are read exactly after round 23 (76.3% after round 4, "
    "75.4% before), its changed moves 1/118",
    "tuning-9": "56.5% of tuning-9's turns are read exactly after round 20 (55.0% after round 17, "
    "54.2% after round 12, "
    "55.7% after round 6, 57.3% after round 4, 34.4% before): a rule stated in a note beside a "
    "question is read as a refusal too (since round 17 not 'If the order is pending, we cannot "
    "remove ...'); since round 12 a plan ('I will locate your order') beside a request as progress",
    "tuning-10": "83.5% of tuning-10's turns are read exactly after round 13 (82.9% after round 5, "
    "72.8% before)",
    "tuning-13": "78.9% of tuning-13's turns are read exactly after round 7 (74.6% as held-out-9)",
    "tuning-14": "72.9% of tuning-14's turns are read exactly after round 20 (72.2% after round 19, "
    "71.4% after round 17, "
    "69.9% after round 7, 66.9% as held-out-10)",
    "tuning-12": "64.1% of tuning-12's turns are read exactly after round 23 (64.8% after round 14, "
    "64.1% after round 6, 60.2% before; round 23 reads 'is currently unavailable' as a refusal, "
    "labelled none here)",
    "tuning-15": "75.0% of tuning-15's turns are read exactly after round 8 (71.2% as held-out-11)",
    "tuning-16": "79.9% of tuning-16's turns are read exactly after round 23 (80.6% after round 19, "
    "79.9% after round 13, "
    "79.2% after round 8, 77.1% as held-out-12)",
    "tuning-17": "61.9% of tuning-17's turns are read exactly after round 20 (53.7% after round 19, "
    "52.4% after round 14, "
    "51.7% after round 11, 50.3% after round 9, 47.6% as held-out-13)",
    "tuning-19": "63.1% of tuning-19's turns are read exactly after round 23 (62.6% after round "
    "22, 62.0% after round "
    "20, 59.8% after round 19, "
    "58.1% after round 13, "
    "57.5% after round 11, 55.9% after round 10, 53.6% as held-out-15)",
    "tuning-20": "51.0% of tuning-20's turns are read exactly after round 20 (50.3% after round 19, "
    "49.0% after round 13, "
    "48.3% after round 11, 46.9% after round 10, 44.2% as held-out-16)",
    "tuning-24": "72.4% of tuning-24's turns are read exactly after round 22 (71.5% after round "
    "19, 70.7% after round 16, "
    "69.9% after round 13, 69.1% after round 12, 61.8% and 62.6% as held-out-20 with the round-10 "
    "and round-11 rules)",
    "tuning-27": "65.6% of tuning-27's turns are read exactly after round 20 (54.4% after round 14, "
    "48.8% as held-out-23 with the round-12 rules and after round 13): long turns holding a "
    "refusal, an alternative offered and 'anything else', greetings",
    "tuning-29": "81.0% of tuning-29's turns are read exactly after round 15 (77.7% as "
    "held-out-25 with the round-13 rules and after round 14): "
    "waits and offers beside a result",
    "tuning-30": "82.1% of tuning-30's turns are read exactly after round 20 (81.3% after round "
    "19, 75.6% after round "
    "15, 73.2% as held-out-26 with the round-13 rules and after round 14): "
    "yeses beside requests for values or refusals, offers beside a result",
    "tuning-32": "66.1% of tuning-32's turns are read exactly after round 16 (59.5% as held-out-28 "
    "with the round-14 rules and after round 15): long plans with yeses, values, options, refusals "
    "and waits together, offers in closing menus",
    "tuning-37": "82.3% of tuning-37's turns are read exactly after round 19 (58.1% as held-out-33 "
    "with the round-16 to round-18 rules): refusals beside a question or a report left unread (4), "
    "summaries before a yes read as a question too (3), greetings before a request (2), two others",
    "tuning-38": "80.5% of tuning-38's turns are read exactly after round 20 (68.3% as held-out-34 "
    "with the round-18 rules and after round 19)",
    "tuning-40": "66.7% of tuning-40's turns are read exactly after round 23 (63.6% after round 20 "
    "and round 21, 60.6% as held-out-36 with the round-19 rules)",
}
SAFETY_SHORT: dict[Part, str] = {
    "held-out-37": "1 held-out-37 turn is read as a yes it does not ask for, with the round-21 "
    "rules and after rounds 22 to 24: 'Would you like to try remembering your email address, or is there "
    "...' (a choice between retrying and another way) read as a yes asked",
    # every other tuning part passes it since round 6, tuning-14 since round 7, tuning-17,
    # tuning-21 and tuning-22 since round 11, tuning-23 and tuning-24 since round 12, tuning-25
    # since round 13 (4 unasked yeses as held-out-21 with the round-11 and round-12 rules), tuning-27
    # since round 14 (5 as held-out-23 with the round-12 and round-13 rules); tuning-26 (held-out-22)
    # and tuning-28 (held-out-24) always have; tuning-29 and tuning-30 since round 15 (1 and 3 as
    # held-out-25 and held-out-26 with the round-13 and round-14 rules); tuning-31 and tuning-32
    # since round 16 (2, a yes and an ending, and 1 as held-out-27 and held-out-28 with the
    # round-14 rules and after round 15); tuning-34 since round 17 (6 unasked yeses, 'I can only
    # offer compensation if you change or cancel' read as an offer, and 1 wait read as a hand-off
    # as held-out-30 with the round-15 rules and after round 16); tuning-36 since round 18 (14 as
    # held-out-32 with the round-16 rules and after round 17: 13 promises to report back read as
    # the end of the request, a request for details read as a yes asked); tuning-37 since round 19
    # (1 as held-out-33 with the round-16 to round-18 rules: 'Also, I can see you have one more
    # order ...' read as an offer); tuning-38 and tuning-39 since round 20 (2 and 3 as held-out-34
    # and held-out-35 with the round-18 rules and after round 19: a request that the customer run
    # its own tool read as the end of the request, a choice between filing now and a human agent
    # and a pick or a refund method asked beside a recap read as a yes asked); tuning-40 since
    # round 21 (1 as held-out-36 with the round-19 rules and after round 20: a request for
    # identity details beside a plan read as a yes asked)
    "tuning-13": "1 tuning-13 turn is read as a yes it does not ask for after round 7 (5, and 1 "
    "unfinished turn as the end of a request, as held-out-9): a proposal beside anything else, "
    "labelled as a question where a twin turn of the same model is labelled a proposal; since round "
    "11 'I will proceed with issuing ... Anything else?' is read as progress",
    "tuning-15": "1 tuning-15 turn is read as a yes it does not ask for after round 11 (2 after round "
    "8, 5 as held-out-11): a record check offered",
    "tuning-16": "1 tuning-16 turn is read as a yes it does not ask for after round 8 (2 as "
    "held-out-12): a proposal beside anything else, labelled as a question",
    "tuning-19": "1 tuning-19 turn is read as a yes it does not ask for after round 11 (6 and 2 "
    "endings after round 10, 11 and 4 as held-out-15): a literal yes asked after a pick, labelled as "
    "the pick where a twin turn is labelled as the yes",
    "tuning-20": "3 tuning-20 turns are read as a yes they do not ask for after round 11 (8 after "
    "round 10, 14 as held-out-16): a yes/no question with 'If yes, specify ...' and 'Please confirm "
    "the following:' before details, each labelled the other way in older parts; an offer after a "
    "farewell",
    "tuning-35": "1 tuning-35 turn is read as a yes it does not ask for after round 18 (17 as "
    "held-out-31 with the round-16 rules and after round 17: 15 promises to report back read as "
    "the end of the request, 2 lists of records read as a yes asked): a list of records before "
    "'Please confirm if these are correct and provide the new item IDs', labelled a request (a "
    "like turn of tuning-28 is labelled a yes and a request)",
}


def _measured(short: dict[Part, str]) -> list[object]:
    """Every part, those short of a measure marked with where they stand."""
    return [
        pytest.param(
            part,
            marks=pytest.mark.xfail(strict=True, reason=f"issue 16: {short[part]}")
            if part in short
            else (),
        )
        for part in PARTS
    ]


@dataclass(frozen=True)
class Turn:
    line: int
    part: Part
    source: str
    acts: frozenset[Act]
    text: str


def _turns(corpus: Path) -> list[Turn]:
    turns: list[Turn] = []
    part: Part | None = None
    source = ""
    for number, raw in enumerate(corpus.read_text(encoding="utf-8").splitlines(), 1):
        if raw.startswith("## part:"):
            named = raw.removeprefix("## part:").strip()
            assert named in PARTS, f"{corpus.name} line {number}: unknown part {named!r}"
            part = named
            continue
        if raw.startswith("## source:"):
            source = raw.removeprefix("## source:").strip()
            continue
        if not raw.strip() or raw.startswith("#"):
            continue
        assert part is not None and source, f"{corpus.name} line {number}: a turn before its part"
        labels, text = (piece.strip() for piece in raw.split("|", 1))
        acts = frozenset(label for label in labels.split() if label != "-")
        unknown = acts - set(ACTS)
        assert not unknown, f"{corpus.name} line {number}: unknown acts {sorted(unknown)}"
        turns.append(Turn(number, part, source, acts, text.replace("\\n", "\n")))  # type: ignore[arg-type]
    return turns


TURNS = [turn for corpus in CORPORA for turn in _turns(corpus)]


def move(acts: frozenset[Act]) -> Move:
    """What the scripted customer does next on a turn read as these acts (its order of
    decisions: a proposal first, then a question, a hand-off, a refusal, progress, the end of a
    request, an invitation; anything else gets "please go on")."""
    if acts & {"confirm", "offer"}:
        return "consent"
    for act, chosen in (
        ("ask", "answer"),
        ("handoff", "hand-off"),
        ("refuse", "refusal"),
        ("wait", "wait"),
    ):
        if act in acts:
            return chosen  # type: ignore[return-value]
    if acts & {"more", "done"}:
        return "next"
    if "invite" in acts:
        return "restate"
    return "go-on"


@dataclass(frozen=True)
class Measure:
    turns: int
    exact: int
    changed: tuple[Turn, ...]

    @property
    def changed_share(self) -> float:
        return len(self.changed) / self.turns

    @property
    def exact_share(self) -> float:
        return self.exact / self.turns


def comparable(acts: frozenset[Act]) -> frozenset[Act]:
    """The acts as compared for an exact reading. A report beside a question ("I found three
    reservations: ... Which one?") is labelled here as the question alone, in agent_turns.txt as
    both; the customer answers the question either way, so done beside ask is not compared."""
    return acts - {"done"} if "ask" in acts else acts


def measure(part: Part) -> Measure:
    turns = [t for t in TURNS if t.part == part]
    exact = sum(comparable(read(t.text).acts) == comparable(t.acts) for t in turns)
    changed = tuple(t for t in turns if move(read(t.text).acts) != move(t.acts))
    return Measure(len(turns), exact, changed)


def _report(turn: Turn) -> str:
    got = read(turn.text).acts
    return (
        f"line {turn.line}: {move(turn.acts)} ({' '.join(sorted(turn.acts))}) read as "
        f"{move(got)} ({' '.join(sorted(got))}): {turn.text[:160]!r}"
    )


def test_the_corpus_is_real_large_and_split_by_source() -> None:
    assert len(TURNS) >= 400
    assert len({t.text for t in TURNS}) == len(TURNS), "a turn is listed twice"
    sources = {part: {t.source for t in TURNS if t.part == part} for part in PARTS}
    tuned = set().union(*(sources[part] for part in PARTS if part not in HELD_OUT))
    assert all(sources.values()) and not tuned & set().union(*(sources[p] for p in HELD_OUT))
    # One new source file is held out each round, the earlier ones tuned on (round 3: 131 of
    # 1,951 turns), so the held-out part is bounded by its size, not by a share of the corpus.
    # A round tuned on its last held-out part while the next is labelled apart has none; round 18
    # tuned on two of three parts labelled together and kept the third (62 turns) held out.
    # Round 20's is 33 turns of bank conversations (each trace runs to 400,000 characters of
    # knowledge-base results, copied by hand from pages and checked by a second copy): at least
    # 30 held out. At one turn in 33 (3%) such a part shows whether the rules carry to it, not a
    # figure to hold against the 2% goal.
    held_out = sum(t.part in HELD_OUT for t in TURNS)
    if HELD_OUT:
        assert held_out >= 30 and held_out / len(TURNS) <= 0.45, held_out
    # Every move occurs, so a reader that always says "please go on" cannot pass.
    moves = Counter(move(t.acts) for t in TURNS)
    assert set(moves) >= {"consent", "answer", "refusal", "wait", "next", "hand-off"}, moves


@pytest.mark.parametrize("part", _measured(MOVES_SHORT))
def test_the_reading_rarely_changes_the_next_move(
    part: Part, record_property: Callable[[str, object], None]
) -> None:
    result = measure(part)
    record_property(f"{part}_move_changed", round(result.changed_share, 4))
    record_property(f"{part}_exact", round(result.exact_share, 4))
    print(
        f"\n{part}: {len(result.changed)}/{result.turns} turns change the next move "
        f"({result.changed_share:.1%}); {result.exact_share:.1%} read exactly as labelled"
    )
    assert result.changed_share <= MOVE_CHANGED_AT_MOST, "\n".join(map(_report, result.changed))


@pytest.mark.parametrize("part", _measured(EXACT_SHORT))
def test_most_turns_are_read_exactly_as_labelled(part: Part) -> None:
    result = measure(part)
    assert result.exact_share >= EXACT_AT_LEAST, f"{result.exact_share:.1%}"


@pytest.mark.parametrize("part", _measured(SAFETY_SHORT))
def test_an_uncertain_reading_never_says_yes_or_ends(part: Part) -> None:
    """Where the reader's move differs from the label's, it never turns a turn that asks for
    nothing into a consent, nor a turn that is not finished into the end of a request."""
    for turn in measure(part).changed:
        got, wanted = move(read(turn.text).acts), move(turn.acts)
        assert not (got == "consent" and wanted != "consent"), _report(turn)
        assert not (got in {"next", "hand-off"} and wanted in {"wait", "answer"}), _report(turn)
