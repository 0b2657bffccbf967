"""The turn lifecycle's services (writes). Views, mail, API and tasks call only these.

Every function takes keyword-only arguments and raises ServiceError (code + a message a player
understands, plus engine problems) for anything refused.
"""

from games.receipts import receipt_verify
from games.services.bots import bot_submit
from games.services.common import Receipt
from games.services.continuous import (
    ActionReceipt,
    actions_apply,
    actions_submit,
    gameday_tick,
    logbook_strike,
    match_replay,
)
from games.services.errors import ServiceError
from games.services.match import match_abort, match_create, match_set_status, match_start
from games.services.moderation import (
    match_deadline_extend,
    match_moderate_abort,
    match_pause,
    match_resume,
    match_rollback,
    match_void,
    phase_force_resolve,
    phase_retry,
    seat_kick,
    seat_moderate_replace,
)
from games.services.orders import orders_submit
from games.services.plans import (
    plan_clear,
    plan_for,
    plan_set,
    plans_follow,
    plans_follow_task,
    sheet_ahead_clear,
    sheet_ahead_set,
    sheets_follow,
)
from games.services.reliability import (
    deadline_miss_excuse,
    deadline_misses_record,
    match_reliability_record,
    reliability_check,
    reliability_recompute,
    reliability_sweep,
)
from games.services.resolve import phase_resolve, phases_resolve
from games.services.seats import seat_join, seat_leave
from games.services.seeking import seat_offer, seat_take
from games.services.submit import sheet_submit
from games.services.sweep import deadlines_sweep
from games.services.vacation import leave_take, vacation_bank
from games.services.votes import (
    seat_concede,
    vote_cast,
    vote_propose,
    vote_rule_add,
    votes_expire,
    votes_lock,
)

__all__ = [
    "ActionReceipt",
    "actions_apply",
    "actions_submit",
    "gameday_tick",
    "logbook_strike",
    "match_replay",
    "Receipt",
    "ServiceError",
    "bot_submit",
    "deadline_miss_excuse",
    "deadline_misses_record",
    "match_reliability_record",
    "reliability_check",
    "reliability_recompute",
    "reliability_sweep",
    "deadlines_sweep",
    "match_abort",
    "match_create",
    "match_deadline_extend",
    "match_moderate_abort",
    "match_pause",
    "match_resume",
    "match_rollback",
    "match_void",
    "phase_force_resolve",
    "seat_kick",
    "seat_moderate_replace",
    "leave_take",
    "vacation_bank",
    "match_set_status",
    "match_start",
    "orders_submit",
    "plan_clear",
    "plan_for",
    "plan_set",
    "plans_follow",
    "plans_follow_task",
    "sheet_ahead_clear",
    "sheet_ahead_set",
    "sheets_follow",
    "phase_resolve",
    "phases_resolve",
    "phase_retry",
    "receipt_verify",
    "seat_join",
    "seat_leave",
    "seat_offer",
    "seat_take",
    "sheet_submit",
    "seat_concede",
    "vote_cast",
    "vote_propose",
    "vote_rule_add",
    "votes_expire",
    "votes_lock",
]
