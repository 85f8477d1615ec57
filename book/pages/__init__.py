"""Stage 4, pages: what the macros call to turn cached outputs into Markdown, split by what they
render (text helpers, programs, output blocks, values, plots, the version line and source
links, the reference map, error messages, the execution report, drift). Reads build_outputs/
(outputs.py) and the committed sources; never runs a program and never writes a file."""
