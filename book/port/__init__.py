"""The port generator's data (`make port`, the scan page's 「生成 crate」): the pieces of burn code
it may write, each checked against the map row it comes from (rules.py), and the crate's fixed
files (crate.py). The generator itself is docs/assets/port.js, run by node and by the page."""
