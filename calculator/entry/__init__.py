"""The round form: a POST in, a round record (RULES §3) and its problems out, and the live preview.

- `forms`: the Django forms of one round (input shape only: each value is one the page offers).
- `entry`: `RoundEntry`, the round form as one object: binds the forms, builds the record, asks
  scoring whether it is legal and puts each problem in the slot that shows it.
- `seats`: one seat's card (its hand, melds and standing while it is typed in).
- `record`: form data ↔ round record (initial values from a record, a record from cleaned data).
- `post`: the live preview's form-less reading of the POST, held to the forms by tests.
"""
from .entry import RoundEntry

__all__ = ["RoundEntry"]
