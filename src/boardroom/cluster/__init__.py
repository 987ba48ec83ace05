"""``boardroom cluster up``'s parts: PostgreSQL, Redis, the workers and HAProxy on loopback, as
child processes of one command (a development and test cluster; ``docs/deploy.md`` runs the same
parts for real)."""

from boardroom.cluster.cluster import MAX_WORKERS, Cluster
from boardroom.cluster.processes import ClusterError

__all__ = ["MAX_WORKERS", "Cluster", "ClusterError"]
