"""Stage 2, running: both sides of an experiment run for real (sides.py: the processes;
experiment.py: one experiment's files, outcome and provenance), their output normalised
(normalize.py), interrupted builds cleaned up (faults.py), progress told (progress.py).
Imports the leaves and experiments; never decides whether a run was needed, never compares and
never writes build_outputs/."""
