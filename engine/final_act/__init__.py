"""Final Act (see shared/rules/final-act.md)."""
