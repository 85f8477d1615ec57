"""The pipeline: build.py runs the stages in order for every experiment (discover → key → run →
compare and check → store), check.py verifies the committed entries without running anything.
Orchestration only: what each step does is its stage's. Imported by the commands alone."""
