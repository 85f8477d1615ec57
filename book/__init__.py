"""The book's engine, in packages by stage; each imports only the ones listed before it:

    paths, errors, hardware, sources  shared leaves: where things are, the authors' error,
                                      this machine, burn's sources in cargo's registry
    experiments   stage 1: the manifests, and what each experiment is made of
    running       stage 2: both sides run for real, normalised; faults and progress
    checking      stage 3: the contract, the comparison, the page structure
    cache         build_outputs/: keys, sealed entries, the build lock, cargo's resolve memo
    pages         stage 4: what the macros call to turn cached outputs into Markdown
    site          the site engines' adapters (mkdocs, Zensical) over one page step, the
                  render memo, the site stamp, diagrams, downloads, search segmentation
    pipeline      the build and the check: the stages in order, nothing else
    commands      the `python -m book.commands.<name>` entry points the Makefile runs

tests/test_layout.py holds this order (and no import cycle) for every module.
"""
