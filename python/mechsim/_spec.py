"""A mechanism's editable description: mechsim.Spec (docs/python.md, "Editing a mechanism")."""


class _Item:
    """One named body, joint, driver, handle, spring, motor or part of a Spec: its fields as
    attributes (SI units, world frame at the file's configuration), read and set by path."""

    __slots__ = ("_spec", "_prefix", "_fields")

    def __init__(self, spec, prefix, fields):
        object.__setattr__(self, "_spec", spec)
        object.__setattr__(self, "_prefix", prefix)
        object.__setattr__(self, "_fields", fields)

    def __getattr__(self, field):
        if field not in self._fields:
            raise AttributeError(f"{self._prefix} has no field '{field}' (fields: {', '.join(self._fields)})")
        return self._spec.get(f"{self._prefix}.{field}")

    def __setattr__(self, field, value):
        if field not in self._fields:
            raise AttributeError(f"{self._prefix} has no field '{field}' (fields: {', '.join(self._fields)})")
        self._spec.set(f"{self._prefix}.{field}", value)

    def __dir__(self):
        return list(self._fields)

    def __repr__(self):
        values = ", ".join(f"{f}={self._spec.get(self._prefix + '.' + f)!r}" for f in self._fields)
        return f"<{self._prefix}: {values}>"


_FIELDS = {
    "bodies": ("mass", "density", "position", "com", "inertia"),
    "joints": ("point", "axis", "axis1", "axis2", "normal", "point1", "point2", "length", "limits"),
    "drivers": ("expression",),
    "handles": ("point",),
    "deformables": ("youngs", "poisson", "density"),
    "dynamics.springs": ("stiffness", "damping", "length", "point1", "point2"),
    "dynamics.jointSprings": ("stiffness", "damping", "rest"),
    "dynamics.motors": ("effort", "kp", "kd", "maxEffort"),
}


class _Items:
    """The named items of one kind, by name: ``spec.bodies["crank"].mass = 2.0``."""

    __slots__ = ("_spec", "_kind", "_names_kind")

    def __init__(self, spec, kind, names_kind):
        self._spec, self._kind, self._names_kind = spec, kind, names_kind

    def names(self):
        return self._spec._s.names(self._names_kind)

    def __getitem__(self, name):
        if name not in self.names():
            raise KeyError(f"no {self._kind} named '{name}' (there are: {', '.join(self.names()) or 'none'})")
        return _Item(self._spec, f"{self._kind}.{name}", _FIELDS[self._kind])

    def __contains__(self, name):
        return name in self.names()

    def __iter__(self):
        return iter(self.names())

    def __len__(self):
        return len(self.names())

    def __repr__(self):
        return f"<{self._kind}: {', '.join(self.names())}>"


class Spec:
    """A mechanism's description as read from its file, to change and compile again.

    Values are SI (m, kg, rad, s) in the world frame at the file's configuration, whatever units the
    file uses (``save`` writes them back in the file's units); driver and motor expressions are
    text in the file's units. Change them by attribute or by path::

        s = mechsim.load_spec("fourbar.json")
        s.bodies["crank"].mass = 2.0
        s.joints["B"].point = [0.05, 0.09, 0.0]
        s.set("joints.C.point[1]", 0.3)
        s.drivers["crank"].expression = "180 * t"
        m = mechsim.compile(s)
        s.save("fourbar-changed.json")

    ``paths()`` lists every path ``get``/``set`` take (core/spec_path.h documents them).
    """

    __slots__ = ("_s",)

    def __init__(self, raw):
        self._s = raw

    def get(self, path):
        """The value at ``path`` ("bodies.crank.mass", "joints.B.point[1]"): a float, a list of
        floats, a text, or None for an optional value the file does not give."""
        return self._s.get(path)

    def set(self, path, value):
        """Sets the value at ``path``: a number, a sequence of numbers (a whole vector), or a text
        (an expression). Raises ValueError for an unknown path or a wrong count, TypeError for a
        wrong kind; the spec is then unchanged."""
        self._s.set(path, value)

    def paths(self):
        """Every path ``set`` takes for this mechanism (whole vectors, not their entries)."""
        return self._s.paths()

    def copy(self):
        """An independent copy (edit it without touching this one)."""
        return Spec(self._s.copy())

    def save(self, path):
        """Writes the mechanism in the native format (in the file's units), atomically."""
        self._s.save(str(path))

    def text(self):
        """The native-format JSON text ``save`` writes."""
        return self._s.text()

    name = property(lambda self: self._s.name, doc="The mechanism's name.")
    file = property(lambda self: self._s.file, doc="The file it was read from.")
    warnings = property(lambda self: list(self._s.warnings), doc="What the reader worked around.")
    bodies = property(lambda self: _Items(self, "bodies", "bodies"), doc="Bodies by name.")
    joints = property(lambda self: _Items(self, "joints", "joints"), doc="Joints by name.")
    drivers = property(lambda self: _Items(self, "drivers", "drivers"), doc="Drivers by name.")
    handles = property(lambda self: _Items(self, "handles", "handles"), doc="Handles by name.")
    deformables = property(lambda self: _Items(self, "deformables", "deformables"), doc="Deformable parts by name.")
    springs = property(lambda self: _Items(self, "dynamics.springs", "springs"), doc="Point-to-point springs by name.")
    joint_springs = property(lambda self: _Items(self, "dynamics.jointSprings", "jointSprings"),
                             doc="Joint springs by name.")
    motors = property(lambda self: _Items(self, "dynamics.motors", "motors"), doc="Motors by name.")

    def __repr__(self):
        return f"<mechsim.Spec '{self.name}' from {self.file or '(memory)'}>"
