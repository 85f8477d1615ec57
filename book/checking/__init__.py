"""Stage 3, checking: whether the outcome is the one the manifest promised (contract.py), how
the two sides compare (compare.py: compare.py's report, each row's verdict, the mutation check),
and whether a page keeps the book's fixed structure (structure.py). Imports the leaves,
experiments and running (the comparator's command line is a process); never writes a file."""
