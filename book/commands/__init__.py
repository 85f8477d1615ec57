"""The commands the Makefile and authors run, one `python -m book.commands.<name>` a file:
runner (build, check), diagrams, downloads, search_segment, site_stamp (make site's steps),
review (make diff), drift, reproduce, bench, scan (make scan). Each is a thin main over the packages, or an
author's tool whose work is its own; nothing imports a command."""
