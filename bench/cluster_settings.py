"""Settings for bench/cluster.py's app servers: the bench settings (production, plain HTTP on
loopback) plus a probe outermost in the middleware that tells the load generator, in response
headers, how many database queries the request made and how much CPU its thread spent
(bench/cluster_probe.py). Never used outside the bench."""
from .bench_settings import *  # noqa: F403

MIDDLEWARE = ["bench.cluster_probe.probe", *MIDDLEWARE]  # noqa: F405
