"""Stage 1, experiments: the manifests under experiments/ (read and checked: manifest.py) and
what each experiment is made of, its script, the files the script reads and its crates
(files.py), computed once for the cache key, the downloads and the render memo alike. Imports
only the shared leaves; never runs a program and never reads build_outputs/."""
