"""The book engine: discover experiments → run them (cached) → check the contract → render pages."""
