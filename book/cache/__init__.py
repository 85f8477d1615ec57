"""The cache in build_outputs/: an experiment's key (keys.py: its inputs and their hashes),
its entry written whole and verified byte by byte (entries.py), the build lock (lock.py),
cargo's resolve answers (resolve.py) and the last build's states (states.py). Imports the
leaves, experiments and running's normalisation; never runs an experiment. The key hashes no
file of book/, only ENGINE_VERSION: bump that, not a file, when entries change shape."""
