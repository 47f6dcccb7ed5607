"""Evening (ledger) views — issue 4."""
