"""Scaling a build out: extraction on a Dask cluster (:mod:`kg.scale.dask_pool`)."""
