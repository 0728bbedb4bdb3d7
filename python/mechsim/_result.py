"""The table of a time run (kinematics, simulate, deform): mechsim.Result."""

import numpy as _np


class Result:
    """A run's table: one row per output time (``deform``: per time and part).

    ``result["t"]``, ``result["crank"]``, ``result["coupler.x"]`` ... are NumPy arrays (read-only
    views of the table, no copy), keyed by the column names of the trajectory CSV the command line
    writes (``mechsim-cli kinematics|simulate|deform``; docs/format.md). ``deform``'s ``"part"``
    column is a list of part names.

    Attributes:
        command: ``"kinematics"``, ``"simulate"`` or ``"deform"``.
        columns: the column names, in the CSV's order.
        rows: the number of rows.
        failure: why the run stopped before its end (the rows before it are kept); ``""`` when it
            ran to the end.
        summary: the command line's summary line (steps, wall time, iterations, residual).
        warnings: what the command line prints on stderr before the run.
    """

    __slots__ = ("_r", "_columns")

    def __init__(self, raw):
        self._r = raw
        self._columns = {name: i for i, name in enumerate(raw.columns)}

    command = property(lambda self: self._r.command)
    columns = property(lambda self: list(self._r.columns))
    rows = property(lambda self: self._r.rows)
    failure = property(lambda self: self._r.failure)
    summary = property(lambda self: self._r.summary)
    warnings = property(lambda self: list(self._r.warnings))

    @property
    def ok(self):
        """True when the run reached its end."""
        return not self._r.failure

    def keys(self):
        """The column names (as ``columns``)."""
        return self.columns

    def __contains__(self, name):
        return name in self._columns

    def __len__(self):
        return self.rows

    def __iter__(self):
        return iter(self.columns)

    def __getitem__(self, name):
        """The column ``name``: a read-only float64 array of ``rows`` values (``"part"``: a list)."""
        try:
            i = self._columns[name]
        except KeyError:
            raise KeyError(f"no column '{name}' (columns: {', '.join(self._r.columns[:12])}"
                           f"{', ...' if len(self._r.columns) > 12 else ''})") from None
        if i == self._r.text_column:
            return list(self._r.text)
        return self._r.column(i)

    def array(self):
        """All numeric columns as one new 2-D array (rows × columns; a copy), in ``columns`` order
        without the text column."""
        cols = [self._r.column(i) for i in range(len(self._r.columns)) if i != self._r.text_column]
        return _np.column_stack(cols) if cols else _np.zeros((0, 0))

    def to_csv(self, path):
        """Writes the table as the command line writes it — the same bytes — atomically."""
        self._r.write(str(path), False)

    def to_json(self, path):
        """Writes the command line's ``.json`` trajectory (kinematics, simulate), atomically."""
        self._r.write(str(path), True)

    def csv(self):
        """The CSV text (as ``to_csv`` writes it)."""
        return self._r.csv()

    def __repr__(self):
        state = "complete" if self.ok else f"stopped: {self.failure}"
        return f"<mechsim.Result {self.command}: {self.rows} rows × {len(self._r.columns)} columns, {state}>"
