"""Development tools, not part of the product (the images leave them out): the title data builder
(titledata), the evidence copy (evidence), trace comparison (tracecmp), random players (randomplay)
and route positions (routepositions). Run them from the repository root, ``.venv/bin/python -m
tools.<name>``; the tests import them as ``tools``."""
