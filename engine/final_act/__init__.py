"""Final Act (see shared/rules/final-act.md): a 12 x 12 board, 7 tanks a side, sealed
simultaneous setup and rounds, fire cones and line of fire, advanced rules, action tokens and
Extra Forces. ``engine.get("final-act")`` returns the registered game."""

from engine import register
from engine.final_act.game import FinalAct

GAME = register(FinalAct())

__all__ = ["GAME", "FinalAct"]
