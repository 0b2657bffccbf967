"""A match's processing timeline (when sheets came in, why phases resolved, which mails and
pushes went out, why deadlines moved), its players' private notes and their commentary,
sealed until the match ends."""
