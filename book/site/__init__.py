"""The site: one engine-neutral page step (prepare.py) with thin adapters for mkdocs
(mkdocs_hooks.py) and Zensical (zensical_ext.py); the render memo across builds
(render_memo.py), make site's skip (site_stamp.py), the diagrams (diagrams.py reads them,
draw.py draws them), the downloads (downloads/) and Zensical's search segmentation. May import
every stage below it; runs no experiment."""
