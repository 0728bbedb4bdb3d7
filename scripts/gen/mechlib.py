"""mechlib — small pure-Python helpers to build mechsim native mechanism files (FORMAT.md §1).

The generators work in SI (metres, radians) and world coordinates; `Mech.write` converts to the
file's units. Vectors are plain 3-lists; rotations are 3x3 row-major lists; quaternions [w,x,y,z].
"""
import json
import math
import os

# ----------------------------------------------------------------------------- vector algebra
def add(a, b): return [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
def sub(a, b): return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
def mul(s, a): return [s * a[0], s * a[1], s * a[2]]
def dot(a, b): return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
def cross(a, b): return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
def norm(a): return math.sqrt(dot(a, a))
def unit(a):
    n = norm(a)
    return [a[0] / n, a[1] / n, a[2] / n]
def dist(a, b): return norm(sub(a, b))
def lerp(a, b, s): return add(a, mul(s, sub(b, a)))
def mid(a, b): return lerp(a, b, 0.5)


def perp(a):
    """A unit vector perpendicular to a."""
    a = unit(a)
    t = [1.0, 0.0, 0.0] if abs(a[0]) < 0.9 else [0.0, 1.0, 0.0]
    return unit(cross(a, t))


def rot_axis(axis, ang):
    """Rotation matrix about unit axis by ang (rad)."""
    x, y, z = unit(axis)
    c, s = math.cos(ang), math.sin(ang)
    C = 1 - c
    return [[c + x * x * C, x * y * C - z * s, x * z * C + y * s],
            [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
            [z * x * C - y * s, z * y * C + x * s, c + z * z * C]]


def matvec(R, v): return [dot(R[0], v), dot(R[1], v), dot(R[2], v)]
def matT(R): return [[R[j][i] for j in range(3)] for i in range(3)]
def matmul(A, B): return [[sum(A[i][k] * B[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def rot_to_quat(R):
    tr = R[0][0] + R[1][1] + R[2][2]
    if tr > 0:
        s = math.sqrt(tr + 1.0) * 2
        q = [0.25 * s, (R[2][1] - R[1][2]) / s, (R[0][2] - R[2][0]) / s, (R[1][0] - R[0][1]) / s]
    elif R[0][0] > R[1][1] and R[0][0] > R[2][2]:
        s = math.sqrt(1.0 + R[0][0] - R[1][1] - R[2][2]) * 2
        q = [(R[2][1] - R[1][2]) / s, 0.25 * s, (R[0][1] + R[1][0]) / s, (R[0][2] + R[2][0]) / s]
    elif R[1][1] > R[2][2]:
        s = math.sqrt(1.0 + R[1][1] - R[0][0] - R[2][2]) * 2
        q = [(R[0][2] - R[2][0]) / s, (R[0][1] + R[1][0]) / s, 0.25 * s, (R[1][2] + R[2][1]) / s]
    else:
        s = math.sqrt(1.0 + R[2][2] - R[0][0] - R[1][1]) * 2
        q = [(R[1][0] - R[0][1]) / s, (R[0][2] + R[2][0]) / s, (R[1][2] + R[2][1]) / s, 0.25 * s]
    n = math.sqrt(sum(x * x for x in q))
    q = [x / n for x in q]
    if q[0] < 0:
        q = [-x for x in q]
    return q


def quat_to_rot(q):
    w, x, y, z = q
    n = math.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]


def frame_x(xdir, zhint=(0.0, 0.0, 1.0)):
    """Rotation whose x column is xdir and whose z column is as close as possible to zhint."""
    x = unit(xdir)
    y = cross(zhint, x)
    if norm(y) < 1e-9:
        y = perp(x)
    y = unit(y)
    z = cross(x, y)
    return [[x[0], y[0], z[0]], [x[1], y[1], z[1]], [x[2], y[2], z[2]]]


# ----------------------------------------------------------------------------- number cleaning
def clean(x):
    """15 significant digits (error < 1e-15 relative) and no '-0.0'."""
    if isinstance(x, bool) or not isinstance(x, float):
        return x
    if abs(x) < 1e-15:
        return 0
    y = float('%.15g' % x)
    if y == int(y) and abs(y) < 1e15:
        return int(y) if abs(y) < 1e9 else y
    return y


def cleaned(v):
    if isinstance(v, dict):
        return {k: cleaned(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [cleaned(x) for x in v]
    return clean(v)


# ----------------------------------------------------------------------------- shapes (body frame)
def capsule(p, q, r, color=None):
    """Capsule whose cylindrical part runs from p to q (body-frame points)."""
    s = {"type": "capsule", "radius": r, "length": dist(p, q), "axis": unit(sub(q, p)), "position": mid(p, q)}
    if color: s["color"] = color
    return s


def cylinder(p, q, r, color=None):
    s = {"type": "cylinder", "radius": r, "length": dist(p, q), "axis": unit(sub(q, p)), "position": mid(p, q)}
    if color: s["color"] = color
    return s


def cyl_at(c, axis, r, length, color=None):
    s = {"type": "cylinder", "radius": r, "length": length, "axis": unit(axis), "position": list(c)}
    if color: s["color"] = color
    return s


def sphere(c, r, color=None):
    s = {"type": "sphere", "radius": r, "position": list(c)}
    if color: s["color"] = color
    return s


def box(c, size, color=None):
    s = {"type": "box", "size": list(size), "position": list(c)}
    if color: s["color"] = color
    return s


# ----------------------------------------------------------------------------- the builder
class Body:
    def __init__(self, name, pos, R):
        self.name, self.pos, self.R = name, list(pos), R

    def local(self, w):
        """World point -> body frame."""
        return matvec(matT(self.R), sub(w, self.pos))

    def ldir(self, w):
        return matvec(matT(self.R), w)


class Mech:
    def __init__(self, name, length="m", angle="rad", gravity=(0, 0, -9.81), comment=None, ground="ground"):
        self.name, self.length, self.angle = name, length, angle
        self.gravity = list(gravity)
        self.comment = comment
        self.bodies, self.joints, self.drivers, self.handles = [], [], [], []
        self.B = {}
        self.ground(ground)

    # bodies ------------------------------------------------------------------------------------
    def ground(self, name="ground", shapes=None, color=None):
        d = {"name": name, "fixed": True}
        if shapes: d["shapes"] = shapes
        if color: d["color"] = color
        self.bodies.append(d)
        self.B[name] = Body(name, [0, 0, 0], rot_axis([0, 0, 1], 0))
        return self.B[name]

    def body(self, name, pos, R=None, shapes_world=None, shapes=None, density=7800.0, mass=None, com=None,
             inertia=None, color=None, orient="quat", zangle=None):
        """A moving body with frame origin pos and rotation R. shapes_world: shapes whose
        'position'/'axis' are given in WORLD coordinates (converted to the body frame here)."""
        assert name not in self.B, name
        if R is None:
            R = rot_axis([0, 0, 1], zangle or 0.0)
        b = Body(name, pos, R)
        self.B[name] = b
        d = {"name": name, "position": list(pos)}
        if orient == "zangle":
            d["orientation"] = {"axis": [0, 0, 1], "angle": zangle or 0.0, "_angle": True}
        else:
            q = rot_to_quat(R)
            if max(abs(q[1]), abs(q[2]), abs(q[3])) > 1e-15:
                d["orientation"] = {"quaternion": q}
        if mass is not None:
            d["mass"] = mass
        if com is not None:
            d["com"] = list(com)
        if inertia is not None:
            d["inertia"] = list(inertia)
        if mass is None and density is not None:
            d["density"] = density
        shp = []
        for s in shapes_world or []:
            s = dict(s)
            if "position" in s: s["position"] = b.local(s["position"])
            if "axis" in s: s["axis"] = b.ldir(s["axis"])
            shp.append(s)
        shp += list(shapes or [])
        d["shapes"] = shp
        if color: d["color"] = color
        self.bodies.append(d)
        return b

    # joints ------------------------------------------------------------------------------------
    def _j(self, d):
        assert d["name"] not in [j["name"] for j in self.joints], d["name"]
        assert d["body1"] in self.B and d["body2"] in self.B, d
        self.joints.append(d)
        return d

    def revolute(self, name, b1, b2, point, axis):
        return self._j({"name": name, "type": "revolute", "body1": b1, "body2": b2, "point": list(point), "axis": unit(axis)})

    def prismatic(self, name, b1, b2, point, axis):
        return self._j({"name": name, "type": "prismatic", "body1": b1, "body2": b2, "point": list(point), "axis": unit(axis)})

    def cylindrical(self, name, b1, b2, point, axis):
        return self._j({"name": name, "type": "cylindrical", "body1": b1, "body2": b2, "point": list(point), "axis": unit(axis)})

    def spherical(self, name, b1, b2, point):
        return self._j({"name": name, "type": "spherical", "body1": b1, "body2": b2, "point": list(point)})

    def universal(self, name, b1, b2, point, axis1, axis2):
        assert abs(dot(unit(axis1), unit(axis2))) < 1e-12, "universal axes must be perpendicular"
        return self._j({"name": name, "type": "universal", "body1": b1, "body2": b2, "point": list(point),
                        "axis1": unit(axis1), "axis2": unit(axis2)})

    def planar(self, name, b1, b2, point, normal):
        return self._j({"name": name, "type": "planar", "body1": b1, "body2": b2, "point": list(point), "normal": unit(normal)})

    def fixed(self, name, b1, b2):
        return self._j({"name": name, "type": "fixed", "body1": b1, "body2": b2})

    def distance(self, name, b1, p1, b2, p2, length=None):
        d = {"name": name, "type": "distance", "body1": b1, "point1": list(p1), "body2": b2, "point2": list(p2)}
        if length is not None:
            d["length"] = length
        return self._j(d)

    def driver(self, name, joint, value, coordinate=None):
        assert joint in [j["name"] for j in self.joints], joint
        d = {"name": name, "joint": joint, "value": value}
        if coordinate is not None:
            d["coordinate"] = coordinate
        self.drivers.append(d)

    def handle(self, name, body, point):
        self.handles.append({"name": name, "body": body, "point": list(point)})

    # output ------------------------------------------------------------------------------------
    def _scale(self):
        L = {"m": 1.0, "cm": 100.0, "mm": 1000.0}[self.length]
        A = 180.0 / math.pi if self.angle == "deg" else 1.0
        return L, A

    def to_json(self):
        L, A = self._scale()
        sv = lambda v: [x * L for x in v]

        def body_out(d):
            d = dict(d)
            if "position" in d: d["position"] = sv(d["position"])
            if "com" in d: d["com"] = sv(d["com"])
            if "inertia" in d: d["inertia"] = [x * L * L for x in d["inertia"]]
            # density stays kg/m^3 whatever the file's length unit (core/io/load.cpp)
            if "orientation" in d and d["orientation"].get("_angle"):
                d["orientation"] = {"axis": [0, 0, 1], "angle": d["orientation"]["angle"] * A}
            shp = []
            for s in d.get("shapes", []):
                s = dict(s)
                for k in ("radius", "length"):
                    if k in s: s[k] = s[k] * L
                for k in ("position", "size"):
                    if k in s: s[k] = sv(s[k])
                shp.append(s)
            if "shapes" in d: d["shapes"] = shp
            return d

        def joint_out(j):
            j = dict(j)
            for k in ("point", "point1", "point2"):
                if k in j: j[k] = sv(j[k])
            if "length" in j: j["length"] = j["length"] * L
            return j

        out = {"mechsim": 1, "name": self.name}
        out["units"] = {"length": self.length, "angle": self.angle}
        out["gravity"] = sv(self.gravity)
        out["bodies"] = [body_out(b) for b in self.bodies]
        out["joints"] = [joint_out(j) for j in self.joints]
        if self.drivers: out["drivers"] = self.drivers
        if self.handles: out["handles"] = [dict(h, point=sv(h["point"])) for h in self.handles]
        return cleaned(out)

    def write(self, path):
        lines = mechanism_lines(self.to_json(), self.comment)
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write("\n".join(lines) + "\n")
        os.replace(tmp, path)
        print("wrote", path, "bodies", len(self.bodies), "joints", len(self.joints), "drivers", len(self.drivers))


def mechanism_lines(doc, comment=None):
    """A native-format file's lines: the comment as // lines, then one line per top-level key, and
    one per element of an array of objects (bodies, joints, ...)."""
    lines = []
    if comment:
        for c in comment.strip().splitlines():
            lines.append("// " + c if c else "//")
    lines.append("{")
    keys = list(doc.keys())
    for i, k in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        v = doc[k]
        if isinstance(v, list) and v and isinstance(v[0], dict):
            lines.append('  "%s": [' % k)
            for j, e in enumerate(v):
                c2 = "," if j < len(v) - 1 else ""
                lines.append("    " + json.dumps(e, separators=(", ", ": ")) + c2)
            lines.append("  ]" + comma)
        else:
            lines.append('  "%s": %s%s' % (k, json.dumps(v, separators=(", ", ": ")), comma))
    lines.append("}")
    return lines


def repo_path(*p):
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "..", "..", *p)
