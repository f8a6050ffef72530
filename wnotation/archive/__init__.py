"""Archives of 7WN records for SQL: Parquet tables or a DuckDB file (spec/archive.md), the standard questions
asked of them, and the same export run on a Dask cluster.

The package, in the order an export runs: :mod:`.schema` (every table's columns and types), :mod:`.rows` (rows
from a Record and its Replay, a client of the engine's API), :mod:`.export` (inputs cut into pieces of whole
games, run here, in worker processes or on a cluster), :mod:`.store` (rows written with DuckDB as Parquet parts
or tables), :mod:`.cluster` (pieces as dask.distributed tasks; also ``check`` on a cluster), :mod:`.stats` and the
queries in ``sql/``. DuckDB and dask.distributed are optional extras (``wnotation[analytics]``,
``wnotation[cluster]``), imported only when a function needs them; importing this package needs neither.
"""
