"""The one error a Dask build reports."""

from kg.errors import KgError


class DaskError(KgError):
    """The Dask cluster cannot run this build: not installed, unreachable, a worker refused."""
