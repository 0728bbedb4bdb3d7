"""mechsim — kinematics and dynamics of mechanisms, from Python.

Load a mechanism (native .json, URDF, MJCF, SDFormat), drive and drag it, run it in time, read
its state as NumPy arrays, edit its description and compile it again::

    import mechsim
    m = mechsim.load("mechanisms/fourbar.json")
    d = m.make_data()
    mechsim.drive(m, d, {"crank": 0.3})        # the crank to 0.3 rad; the loop closes exactly
    print(d.handle("P"))                       # the coupler point, world [m]
    r = mechsim.kinematics(m, t_end=1.0, dt=0.01)
    r["coupler.x"], r.to_csv("fourbar.csv")    # the columns of `mechsim-cli kinematics`

The engine is the one the GUI and ``mechsim-cli`` run (docs/engine.md); a script gets the command
line's numbers, and its CSV byte for byte. SI units throughout (m, kg, s, rad). docs/python.md is
the guide; ``help(mechsim.simulate)`` and the others say each function's details.

Errors: a file that cannot be read raises FileError (with file, line, column); a stage or run that
fails raises SolveError (the Data keeps its last good state); bad arguments raise TypeError,
ValueError or KeyError with the command line's messages. Long calls release the GIL and stop on
Ctrl-C (KeyboardInterrupt).
"""

from . import _mechsim
from ._result import Result
from ._spec import Spec

__all__ = [
    "FileError", "SolveError", "Model", "Data", "Spec", "Result",
    "load", "load_spec", "compile",
    "assemble", "drive", "follow", "advance", "drag", "end_drag", "set_dynamic", "step", "step_deformables",
    "reset_deformables", "analyse",
    "kinematics", "simulate", "deform", "study", "StudyResult",
]

__version__ = "0.1.0"


class FileError(Exception):
    """A mechanism file that cannot be read or compiled.

    Attributes:
        file: the file's path.
        line, column: where in it (1-based; 0 when the problem has no place).
        message: what is wrong there.
    ``str(error)`` is the command line's ``FILE:LINE:COL: error: MESSAGE``.
    """

    def __init__(self, file, line, column, message, text=None):
        super().__init__(text or f"{file}:{line}:{column}: error: {message}")
        self.file, self.line, self.column, self.message = file, line, column, message


class SolveError(RuntimeError):
    """A stage or run that failed: the position analysis did not converge, a step diverged, a
    target was out of reach. The Data keeps its last good state; a run's rows before the failure
    are in ``result`` (a Result, or None for a stage)."""

    def __init__(self, message, result=None):
        super().__init__(message)
        self.result = result


_mechsim._set_error_types(FileError)


# ---- model and data ----

class Model:
    """A compiled mechanism (the engine's sim::Model): never changes while it moves; make a Data
    for each state you run (``make_data``), on as many threads as you like.

    Attributes (read-only):
        name, path: the mechanism's name and the file it came from.
        nq: size of the configuration q (7 per moving body: origin, unit quaternion w x y z).
        bodies: list of dicts — name, fixed, mass [kg], com (body frame), inertia (3×3 about the
            com), position and orientation (w x y z) at the file's configuration.
        joints: list of dicts — name, type, body1, body2, coordinates (their names), limits.
        drivers: the degrees of freedom you can drive — the file's drivers, then one per coordinate
            they leave free — dicts with name, kind ("driver" or "coordinate"), joint, angular,
            range [lower, upper] (SI), expression (file drivers: the expression of t).
        handles: list of dicts — name, body, point (body frame).
        parts: the deformable parts — name, vertices, tets, method, device.
        coordinate_names: the joint coordinates, in the order of Data.coords and of the CSV.
        timestep: the file's dynamics time step [s].
        message: what fell short when compiling (the DOF analysis, a part), or "".
    """

    __slots__ = ("_m",)

    def __init__(self, raw):
        self._m = raw

    name = property(lambda self: self._m.name)
    path = property(lambda self: self._m.path)
    nq = property(lambda self: self._m.nq)
    bodies = property(lambda self: self._m.bodies)
    joints = property(lambda self: self._m.joints)
    drivers = property(lambda self: self._m.drivers)
    handles = property(lambda self: self._m.handles)
    parts = property(lambda self: self._m.parts)
    coordinate_names = property(lambda self: self._m.coordinate_names)
    timestep = property(lambda self: self._m.timestep)
    message = property(lambda self: self._m.message)

    def make_data(self):
        """A new Data at the assembled file configuration (t = 0, the drivers at their start)."""
        return Data(self._m.make_data(), self)

    def check(self):
        """The analysis ``mechsim-cli check --json`` prints, as a dict: counts, Grübler estimate,
        mobility from the rank of the constraint Jacobian, redundant equations by name, residual
        and singularity at the file's configuration, the deformable parts."""
        import json
        return json.loads(self._m.check_json())

    def spec(self):
        """A copy of the Spec this model was compiled from (edit it, ``mechsim.compile`` it)."""
        raw = self._m.spec()
        return Spec(raw) if raw is not None else None

    def __repr__(self):
        return f"<mechsim.Model '{self.name}': {len(self.bodies)} bodies, {len(self.joints)} joints, " \
               f"{len(self.drivers)} degrees of freedom>"


class Data:
    """The state of one running mechanism (the engine's sim::Data), made by ``Model.make_data``.

    The arrays are read-only NumPy views of buffers the Data keeps current after every stage (no
    copy when read; a view stays valid and current as long as the Data lives):
        q (nq), qdot, qddot: body origins and unit quaternions, and their rates.
        coords, coord_vel, coord_acc: the joint coordinates (Model.coordinate_names) and rates.
        body_pos (bodies × 3), body_quat (bodies × 4, w x y z): every body's pose, world frame.
    Other attributes: t [s], dof_values (the drivers' values, Model.drivers order), dynamic,
    converged, singular, residual, energy (dynamic mode: kinetic, potential, total [J]),
    attach_error (deformable parts [m]), message (why the last stage failed).
    """

    __slots__ = ("_d", "model")

    def __init__(self, raw, model):
        self._d = raw
        self.model = model

    t = property(lambda self: self._d.t)
    q = property(lambda self: self._d.q)
    qdot = property(lambda self: self._d.qdot)
    qddot = property(lambda self: self._d.qddot)
    coords = property(lambda self: self._d.coords)
    coord_vel = property(lambda self: self._d.coord_vel)
    coord_acc = property(lambda self: self._d.coord_acc)
    body_pos = property(lambda self: self._d.body_pos)
    body_quat = property(lambda self: self._d.body_quat)
    dof_values = property(lambda self: self._d.dof_values)
    dynamic = property(lambda self: self._d.dynamic)
    converged = property(lambda self: self._d.converged)
    singular = property(lambda self: self._d.singular)
    residual = property(lambda self: self._d.residual)
    energy = property(lambda self: self._d.energy)
    attach_error = property(lambda self: self._d.attach_error)
    message = property(lambda self: self._d.message)

    def coord(self, name):
        """The joint coordinate ``name`` (SI: rad or m)."""
        names = self.model.coordinate_names
        if name not in names:
            raise KeyError(f"no coordinate named '{name}' (there are: {', '.join(names)})")
        return float(self._d.coords[names.index(name)])

    def handle(self, name):
        """The world position [m] of the file's handle ``name`` (a point of a body)."""
        return self._d.handle(name)

    def point(self, body, local):
        """The world position [m] of the point ``local`` (body frame) of ``body``."""
        return self._d.point(body, list(local))

    def part_positions(self, part):
        """Vertex positions (vertices × 3, world, read-only view) of the deformable part ``part``
        (its name or index)."""
        return self._d.part_positions(_part_index(self.model, part))

    def __repr__(self):
        mode = "dynamic" if self.dynamic else "kinematic"
        return f"<mechsim.Data of '{self.model.name}' at t = {self.t:g} s, {mode}>"


def _part_index(model, part):
    if isinstance(part, str):
        names = [p["name"] for p in model.parts]
        if part not in names:
            raise KeyError(f"no deformable part named '{part}' (there are: {', '.join(names) or 'none'})")
        return names.index(part)
    return int(part)


def load(path, *, sliders=True, ranges=False, deformables=True, deform_step=1.0 / 60.0):
    """Reads and compiles a mechanism file: native (.json), URDF (.urdf), MJCF (.xml), SDFormat
    (.sdf, .world).

    Args:
        path: the file.
        sliders: run the DOF analysis that gives every coordinate the drivers leave free a driver
            of its own (``drive`` moves it; the drag and kinematic runs hold it). It costs one
            mobility analysis per free coordinate; ``simulate`` does not need it (False skips it).
        ranges: search each such coordinate's reachable range (at most 0.25 s each), as the GUI
            does for its sliders; otherwise ±180° or the file's limits.
        deformables: build the deformable parts (``step_deformables``); False: the rigid mechanism.
        deform_step: the parts' time step [s] (``step_deformables``; JGS2's precomputation).

    Returns a Model. Raises FileError (file, line, column, message) when the file cannot be read.
    """
    return Model(_mechsim.load(str(path), sliders, ranges, deformables, deform_step))


def load_spec(path):
    """Reads a mechanism file into an editable Spec (no compilation). Raises FileError."""
    return Spec(_mechsim.load_spec(str(path)))


def compile(spec, *, sliders=True, ranges=False, deformables=True, deform_step=1.0 / 60.0):
    """Compiles a Spec into a Model (options as ``load``). Raises FileError when the spec is not a
    valid mechanism (a zero axis, an unknown body), located in the file it came from."""
    if not isinstance(spec, Spec):
        raise TypeError(f"compile: expected a mechsim.Spec, got {type(spec).__name__}")
    return Model(_mechsim.compile(spec._s, sliders, ranges, deformables, deform_step))


# ---- stages ----

def _raw(m, d):
    if not isinstance(m, Model):
        raise TypeError(f"expected a mechsim.Model, got {type(m).__name__}")
    if not isinstance(d, Data):
        raise TypeError(f"expected a mechsim.Data, got {type(d).__name__}")
    return m._m, d._d


def _check(ok, d, what):
    if not ok:
        raise SolveError(f"{what}: {d.message or 'failed'}")


def assemble(m, d):
    """Back to the assembled file configuration at t = 0, every driver at its start, kinematic
    mode, the deformable parts at rest."""
    _mechsim._assemble(*_raw(m, d))


def drive(m, d, values):
    """Moves degrees of freedom to values: ``drive(m, d, {"crank": 0.3})`` (SI: rad, m).

    The position analysis follows in small steps (or along the ANM path after
    ``drag(..., method="anm")``), so the mechanism stays on its assembly branch; each driver then
    holds its value. Values are clamped to the degree of freedom's range (``m.drivers[i]["range"]``:
    the file's limits, else ±180° or ±2 lengths about the file's pose). A value out of reach is narrowed by bisection to the last one that solved,
    the mechanism stays there, and SolveError says so. Unknown names raise KeyError (the names are
    ``[x["name"] for x in m.drivers]``)."""
    rm, rd = _raw(m, d)
    if not isinstance(values, dict):
        raise TypeError(f"drive: expected a dict of name: value, got {type(values).__name__}")
    for name, value in values.items():
        if not isinstance(name, str):
            raise TypeError(f"drive: expected a name, got {type(name).__name__}")
        if isinstance(value, bool) or not hasattr(value, "__float__"):
            raise TypeError(f"drive: the value of '{name}' must be a number, got {type(value).__name__}")
        _check(_mechsim._set_dof(rm, rd, name, float(value)), d, f"drive '{name}'")


def follow(m, d, name, follows=True):
    """A file driver follows its expression of t again (True; ``advance`` moves it) or holds its
    value (False)."""
    _check(_mechsim._set_follows(*_raw(m, d), name, bool(follows)), d, f"follow '{name}'")


def advance(m, d, dt):
    """Time by dt [s]: in kinematic mode the position, velocity and acceleration analyses at t + dt
    (the drivers that follow their expressions move, the others hold); in dynamic mode the forward
    dynamics over dt in steps of at most the file's time step."""
    _check(_mechsim._advance(*_raw(m, d), float(dt)), d, "advance")


def drag(m, d, handle, target, method="newton", end=True):
    """Drags a point towards ``target`` [x, y, z] (world, m): every degree of freedom moves.

    Args:
        handle: a handle's name, or (body name, [x, y, z] in the body frame).
        method: "newton" (the stacked least-squares system, paper 003) or "anm" (asymptotic
            numerical continuation, paper 004: follows the solution branch through turning and
            singular points, never jumps to another assembly).
        end: end the drag after this move (the drivers hold the new pose); False keeps it on, so
            that successive calls move one drag.
    Returns a dict: reached (the point is at the target), distance [m] left, iterations. The
    mechanism stops at the closest reachable pose: an unreachable target is not an error. Raises
    SolveError when the drag cannot start or its solve fails.
    """
    rm, rd = _raw(m, d)
    if not isinstance(handle, str):
        body, local = handle
        handle = (str(body), [float(x) for x in local])
    target = [float(x) for x in target]
    ok, reached, distance, iterations = _mechsim._drag(rm, rd, handle, target, str(method), bool(end))
    _check(ok, d, "drag")
    return {"reached": reached, "distance": distance, "iterations": iterations}


def end_drag(m, d):
    """Ends a drag left on by ``drag(..., end=False)``."""
    _mechsim._end_drag(*_raw(m, d))


def set_dynamic(m, d, on=True):
    """Dynamic mode on (forces move the mechanism from its pose and rates now; at the file's start
    from the file's own state and initial rates) or off (back to the drivers, which hold the pose
    the dynamics left). Raises SolveError when it cannot start (a body without mass)."""
    _check(_mechsim._set_dynamic(*_raw(m, d), bool(on)), d, "dynamic mode")


def step(m, d, h):
    """One step of the forward dynamics of length h [s] (paper 002: Riley's weighted minimum-norm
    impulses; contact by AMGS, paper 000). Starts dynamic mode first when it is off — from the
    file's state, as ``simulate`` does, so n steps of h give ``simulate``'s rows. Raises SolveError
    when the step fails (the last good state stays)."""
    try:
        ok = _mechsim._step(m._m, d._d, h)
    except AttributeError:
        _raw(m, d)  # raises the TypeError that says which argument is wrong
        raise
    if not ok:
        raise SolveError(f"step: {d._d.message or 'failed'}")


def step_deformables(m, d):
    """One implicit-Euler step (the Model's deform_step) of every deformable part with its attached
    vertices at the bodies' poses now (paper 001's JGS2 or the part's solver). Raises SolveError
    when a part's step fails (it keeps its last good state)."""
    _check(_mechsim._step_deformables(*_raw(m, d)), d, "step_deformables")


def reset_deformables(m, d):
    """The deformable parts back to rest, at rest."""
    _mechsim._reset_deformables(*_raw(m, d))


def analyse(m, d):
    """Mobility at the pose now: dict with grubler_dof, rank, dof, dof_driven, redundant (equation
    names), residual, singular (paper 003's rank analysis)."""
    return _mechsim._analyse(*_raw(m, d))


# ---- runs ----

def _finish(raw, check):
    r = Result(raw)
    if check and not r.ok:
        raise SolveError(f"{r.command}: {r.failure}", r)
    return r


def kinematics(m, t_end, dt, *, check=True):
    """The kinematic run ``mechsim-cli kinematics`` makes: the position, velocity and acceleration
    analyses at t_k = k·dt, k = 0 … ⌊t_end/dt⌋, driven by the file's drivers from the assembled
    start, each from a second-order prediction of the previous solution (so the run keeps its
    assembly branch through singular positions).

    Returns a Result keyed by the trajectory CSV's columns: t, the joint coordinates, per moving
    body B.x B.y B.z B.qw B.qx B.qy B.qz, then <coordinate>.vel, .acc, B.vx … B.az. When an
    analysis fails the rows before it are kept: SolveError carries them as ``.result`` (with
    ``check=False`` the Result is returned, ``.failure`` says why). Ctrl-C stops the run
    (KeyboardInterrupt). ValueError for t_end < 0, dt ≤ 0 or more than 10⁷ rows.
    """
    if not isinstance(m, Model):
        raise TypeError(f"kinematics: expected a mechsim.Model, got {type(m).__name__}")
    return _finish(_mechsim._kinematics(m._m, float(t_end), float(dt)), check)


def simulate(m, t_end, dt=None, *, check=True):
    """The forward-dynamics run ``mechsim-cli simulate`` makes: from the file's configuration and
    initial joint rates, one step of dt [s] per row (default: the file's time step) to t_end.

    Returns a Result with the trajectory columns and rates, then per joint its reaction force and
    torque on body2 (<joint>.Fx … Tz, world axes, about the joint point, mean over the step), then
    energy.kinetic, energy.potential, energy.total [J]. A failed step keeps the rows before it
    (SolveError.result; ``check=False`` returns them). Ctrl-C stops the run (KeyboardInterrupt).
    """
    if not isinstance(m, Model):
        raise TypeError(f"simulate: expected a mechsim.Model, got {type(m).__name__}")
    return _finish(_mechsim._simulate(m._m, float(t_end), None if dt is None else float(dt)), check)


def deform(m, t_end, dt, *, method=None, step_control=None, modes=0, backend="auto", vtk=None, vtk_every=1,
           check=True):
    """The run ``mechsim-cli deform`` makes: at every t_k = k·dt the bodies placed by the drivers,
    then one implicit-Euler step of length dt of every deformable part.

    Args:
        m: a Model (its spec is compiled again with parts stepped at dt and these settings).
        method: "newton", "vbd", "jacobi", "jgs2-jacobi" or "jgs2-gs" for every part (None: each
            part's file setting). step_control: "none", "line-search", "subspace". modes: JGS2's
            coarse modes (64–1024; 0: the file's).
        backend: "auto" (the CUDA backend when built and a device runs the part), "cpu", "cuda".
        vtk: a folder to write the parts' motion to as VTK (.vtu per state, .pvd series), every
            ``vtk_every``-th time.
    Returns a Result with columns t, part (a list of names), iterations, converged, centroid_x,
    centroid_y, centroid_z, max_speed, attach_error. A step that does not converge ends the run
    (SolveError.result; ``check=False`` returns it).
    """
    if not isinstance(m, Model):
        raise TypeError(f"deform: expected a mechsim.Model, got {type(m).__name__}")
    raw = _mechsim._deform(m._m, float(t_end), float(dt), method, step_control, int(modes), str(backend),
                           "" if vtk is None else str(vtk), int(vtk_every))
    return _finish(raw, check)


# Parameter studies, on threads or a Dask cluster (docs/studies.md).
from .study import study, StudyResult  # noqa: E402  (after FileError, which it raises)
