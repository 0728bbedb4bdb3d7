"""mechcheck — an independent pure-Python reading of a mechsim native file (FORMAT.md §1) used by
verify.py: joint equations from the file's configuration, constraint residuals, the rank of the
velocity-constraint matrix (Grübler / true mobility / redundant equations / driven mobility) and a
small Newton kinematic run driven by the file's drivers.

Coordinates: one pose (r, R) per moving body; Newton corrections are twists (dr, dθ) in the world,
so the rank of the twist Jacobian J equals rank(Φ_q) − B of the 7-coordinate model (the quaternion
normalisations are independent): dof = 6B − rank(J_joints), redundant = Σ joint eqs − rank(J_joints).
"""
import json
import math
import re

from mechlib import add, sub, mul, dot, cross, norm, unit, perp, matvec, matT, matmul, quat_to_rot, rot_axis

JOINT_EQS = {"revolute": 5, "prismatic": 5, "cylindrical": 4, "spherical": 3, "universal": 4,
             "planar": 3, "fixed": 6, "distance": 1}


def strip_comments(text):
    out, i, n, ins = [], 0, len(text), False
    while i < n:
        c = text[i]
        if ins:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1]); i += 2; continue
            if c == '"': ins = False
            i += 1
        elif c == '"':
            ins = True; out.append(c); i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n": i += 1
        elif text.startswith("/*", i):
            j = text.index("*/", i + 2)
            out.append("\n" * text.count("\n", i, j)); i = j + 2
        else:
            out.append(c); i += 1
    return "".join(out)


def load(path):
    with open(path) as f:
        return json.loads(strip_comments(f.read()))


class Model:
    def __init__(self, doc):
        self.doc = doc
        u = doc.get("units", {})
        self.L = {"m": 1.0, "cm": 0.01, "mm": 0.001}[u.get("length", "m")]
        self.A = math.pi / 180 if u.get("angle", "rad") == "deg" else 1.0
        L = self.L
        self.names, self.fixed, self.pose = [], [], []
        for b in doc["bodies"]:
            self.names.append(b["name"])
            self.fixed.append(bool(b.get("fixed", False)))
            r = [x * L for x in b.get("position", [0, 0, 0])]
            o = b.get("orientation")
            if o is None:
                R = rot_axis([0, 0, 1], 0.0)
            elif "quaternion" in o:
                R = quat_to_rot(o["quaternion"])
            elif "axis" in o:
                R = rot_axis(o["axis"], o["angle"] * self.A)
            else:
                raise ValueError("rpy orientation not supported by mechcheck")
            self.pose.append((r, R))
        self.bidx = {n: i for i, n in enumerate(self.names)}
        self.col = {}
        for i, f in enumerate(self.fixed):
            if not f:
                self.col[i] = 6 * len(self.col)
        self.nmov = len(self.col)
        self.joints = []
        for j in doc["joints"]:
            self.joints.append(self._joint(j))
        self.jidx = {j["name"]: k for k, j in enumerate(self.joints)}
        self.drivers = []
        for d in doc.get("drivers", []):
            jt = self.joints[self.jidx[d["joint"]]]
            scale = self.A if jt["type"] in ("revolute", "spherical", "universal") else L
            expr = d["value"].replace("^", "**")
            self.drivers.append({"name": d["name"], "joint": self.jidx[d["joint"]], "expr": expr, "scale": scale,
                                 "coord": d.get("coordinate", 0)})

    def local(self, b, w):
        r, R = self.pose[b]
        return matvec(matT(R), sub(w, r))

    def ldir(self, b, w):
        return matvec(matT(self.pose[b][1]), w)

    def _joint(self, j):
        L = self.L
        t = j["type"]
        b1, b2 = self.bidx[j["body1"]], self.bidx[j["body2"]]
        J = {"name": j["name"], "type": t, "b1": b1, "b2": b2}
        if t == "distance":
            p1 = [x * L for x in j["point1"]]; p2 = [x * L for x in j["point2"]]
            J["s1"], J["s2"] = self.local(b1, p1), self.local(b2, p2)
            J["len"] = j["length"] * L if "length" in j else norm(sub(p2, p1))
            J["p"] = p1
            return J
        p = [x * L for x in j.get("point", [0, 0, 0])]
        if t == "fixed" and "point" not in j:
            p = self.pose[b2][0]
        J["p"] = p
        J["s1"], J["s2"] = self.local(b1, p), self.local(b2, p)
        if t in ("revolute", "prismatic", "cylindrical", "planar", "fixed"):
            a = unit(j.get("axis", j.get("normal", [0, 0, 1])))
            u = perp(a); v = cross(a, u)
            for nm, w in (("a", a), ("u", u), ("v", v)):
                J[nm + "1"], J[nm + "2"] = self.ldir(b1, w), self.ldir(b2, w)
        if t == "universal":
            J["A1"] = self.ldir(b1, unit(j["axis1"]))
            J["A2"] = self.ldir(b2, unit(j["axis2"]))
        # Joint frame (x, y, z) in each body, as compile.cpp builds it: the world axes for a
        # spherical joint, (axis2 x axis1, axis2, axis1) for a universal one; for the coordinates.
        if t == "spherical":
            W = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
        elif t == "universal":
            z = unit(j["axis1"]); y = unit(j["axis2"])
            W = [cross(y, z), y, z]
        else:
            W = None
        if W is not None:
            J["F1"] = [self.ldir(b1, w) for w in W]
            J["F2"] = [self.ldir(b2, w) for w in W]
        return J

    # ------------------------------------------------------------------------------------ equations
    def _rows(self, poses, t=0.0, drivers=True):
        """Residuals and Jacobian rows (dict col -> value) at poses."""
        res, rows, names = [], [], []

        def W(b, s): r, R = poses[b]; return add(r, matvec(R, s))
        def D(b, a): return matvec(poses[b][1], a)

        def row_point(terms):  # terms: list of (b, s_world_offset Rs, x, sign)
            d = {}
            for b, Rs, x, sg in terms:
                if b not in self.col: continue
                c = self.col[b]
                v = x + cross(Rs, x)
                for k in range(6):
                    d[c + k] = d.get(c + k, 0.0) + sg * v[k]
            return d

        def eq_pp(J, x):  # x·(w2 − w1)
            b1, b2 = J["b1"], J["b2"]
            Rs1, Rs2 = D(b1, J["s1"]), D(b2, J["s2"])
            d = sub(W(b2, J["s2"]), W(b1, J["s1"]))
            return dot(x, d), row_point([(b2, Rs2, x, 1.0), (b1, Rs1, x, -1.0)])

        def eq_line(J, xl):  # (w2 − w1)·(R1 xl), x fixed in body1
            b1, b2 = J["b1"], J["b2"]
            x = D(b1, xl)
            val, row = eq_pp(J, x)
            d = sub(W(b2, J["s2"]), W(b1, J["s1"]))
            if b1 in self.col:
                c = self.col[b1]; g = cross(x, d)
                for k in range(3): row[c + 3 + k] = row.get(c + 3 + k, 0.0) + g[k]
            return val, row

        def eq_dd(J, x1l, x2l):  # (R1 x1)·(R2 x2)
            b1, b2 = J["b1"], J["b2"]
            x1, x2 = D(b1, x1l), D(b2, x2l)
            row = {}
            g = cross(x1, x2)
            if b1 in self.col:
                c = self.col[b1]
                for k in range(3): row[c + 3 + k] = row.get(c + 3 + k, 0.0) + g[k]
            if b2 in self.col:
                c = self.col[b2]
                for k in range(3): row[c + 3 + k] = row.get(c + 3 + k, 0.0) - g[k]
            return dot(x1, x2), row

        E = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
        for J in self.joints:
            t_ = J["type"]
            eqs = []
            if t_ in ("revolute", "spherical", "universal", "fixed"):
                for k in range(3):
                    eqs.append(eq_pp(J, E[k]))
            if t_ in ("revolute", "cylindrical"):
                eqs += [eq_dd(J, J["u1"], J["a2"]), eq_dd(J, J["v1"], J["a2"])]
            if t_ == "prismatic":
                eqs += [eq_dd(J, J["u1"], J["a2"]), eq_dd(J, J["v1"], J["a2"]), eq_dd(J, J["u1"], J["v2"])]
            if t_ in ("prismatic", "cylindrical"):
                eqs += [eq_line(J, J["u1"]), eq_line(J, J["v1"])]
            if t_ == "universal":
                eqs.append(eq_dd(J, J["A1"], J["A2"]))
            if t_ == "planar":
                eqs += [eq_dd(J, J["u1"], J["a2"]), eq_dd(J, J["v1"], J["a2"]), eq_line(J, J["a1"])]
            if t_ == "fixed":
                eqs += [eq_dd(J, J["u1"], J["v2"]), eq_dd(J, J["v1"], J["a2"]), eq_dd(J, J["a1"], J["u2"])]
            if t_ == "distance":
                b1, b2 = J["b1"], J["b2"]
                d = sub(W(b2, J["s2"]), W(b1, J["s1"]))
                val, row = eq_pp(J, mul(2.0, d))
                eqs.append((dot(d, d) - J["len"] ** 2, row))
            for k, (v, r) in enumerate(eqs):
                res.append(v); rows.append(r); names.append("%s:%d" % (J["name"], k))
        nj = len(res)
        if drivers:
            for dv in self.drivers:
                J = self.joints[dv["joint"]]
                f = eval(dv["expr"], {"__builtins__": {}}, dict(MATHNS, t=t)) * dv["scale"]
                if J["type"] == "revolute":
                    b1, b2 = J["b1"], J["b2"]
                    x1, y1, x2 = D(b1, J["u1"]), D(b1, J["v1"]), D(b2, J["u2"])
                    th = math.atan2(dot(y1, x2), dot(x1, x2))
                    e = (th - f + math.pi) % (2 * math.pi) - math.pi
                    # exact derivative of atan2(Y, X), Y = y1·x2, X = x1·x2 (also off the manifold)
                    Xv, Yv = dot(x1, x2), dot(y1, x2)
                    n2 = Xv * Xv + Yv * Yv
                    g1 = [(Xv * a_ - Yv * b_) / n2 for a_, b_ in zip(cross(y1, x2), cross(x1, x2))]
                    row = {}
                    for b, sg in ((b2, -1.0), (b1, 1.0)):
                        if b in self.col:
                            c = self.col[b]
                            for k in range(3): row[c + 3 + k] = row.get(c + 3 + k, 0.0) + sg * g1[k]
                    res.append(e); rows.append(row)
                elif J["type"] == "prismatic":
                    v, row = eq_line(J, J["a1"])
                    res.append(v - f); rows.append(row)
                elif J["type"] in ("spherical", "universal"):
                    # Coordinates as in core/kinematics/spherical.cpp / universal.cpp, from dot
                    # products of frame axes X_i, Y_i, Z_i (frame1 in body1, frame2 in body2).
                    (X1, Y1, Z1), (X2, Y2, Z2) = J["F1"], J["F2"]
                    neg = lambda p: (-p[0], {k: -x for k, x in p[1].items()})

                    def ang(Yp, Xp):
                        (Yv, Yr), (Xv, Xr) = Yp, Xp
                        n2 = Xv * Xv + Yv * Yv
                        return math.atan2(Yv, Xv), {k: (Xv * Yr.get(k, 0.0) - Yv * Xr.get(k, 0.0)) / n2
                                                    for k in set(Yr) | set(Xr)}
                    k = dv.get("coord", 0)
                    if J["type"] == "spherical" and k == 1:   # sin b = −Z1·X2
                        v, row = neg(eq_dd(J, Z1, X2))
                        res.append(v - math.sin(f)); rows.append(row)
                    else:
                        if J["type"] == "spherical":
                            th, row = (ang(eq_dd(J, Y1, X2), eq_dd(J, X1, X2)) if k == 0 else
                                       ang(eq_dd(J, Z1, Y2), eq_dd(J, Z1, Z2)))
                        else:
                            th, row = (ang(neg(eq_dd(J, X1, Y2)), eq_dd(J, Y1, Y2)) if k == 0 else
                                       ang(neg(eq_dd(J, Z1, X2)), eq_dd(J, Z1, Z2)))
                        res.append((th - f + math.pi) % (2 * math.pi) - math.pi); rows.append(row)
                else:
                    raise ValueError("mechcheck: driver on %s joint not supported" % J["type"])
                names.append(dv["name"] + ":drive")
        return res, rows, names, nj

    # ------------------------------------------------------------------------------------ algebra
    @staticmethod
    def eliminate(rows, rhs=None, tol=1e-9):
        """Sequential row echelon. Returns (independent row indices, dependent indices, solution dict)."""
        basis = []
        indep, dep = [], []
        for i, r0 in enumerate(rows):
            r = dict(r0)
            b = rhs[i] if rhs is not None else 0.0
            scale = max([abs(x) for x in r0.values()] + [1e-300])
            for p, br, bb in basis:
                v = r.get(p)
                if v is None or v == 0.0: continue
                f = v / br[p]
                for k, x in br.items():
                    r[k] = r.get(k, 0.0) - f * x
                b -= f * bb
                del r[p]
            r = {k: x for k, x in r.items() if abs(x) > 1e-14 * scale}
            if not r:
                dep.append(i); continue
            p = max(r, key=lambda k: abs(r[k]))
            if abs(r[p]) < tol * scale:
                dep.append(i); continue
            basis.append((p, r, b)); indep.append(i)
        sol = {}
        if rhs is not None:
            for p, br, bb in reversed(basis):
                s = bb - sum(x * sol.get(k, 0.0) for k, x in br.items() if k != p)
                sol[p] = s / br[p]
        return indep, dep, sol

    def analyse(self):
        poses = self.pose
        res, rows, names, nj = self._rows(poses, 0.0)
        ind_j, dep_j, _ = self.eliminate(rows[:nj])
        ind_a, dep_a, _ = self.eliminate(rows)
        B = self.nmov
        njeq = sum(JOINT_EQS[J["type"]] for J in self.joints)
        assert njeq == nj
        out = {
            "bodies": B, "joints": len(self.joints), "drivers": len(self.drivers),
            "coordinates": 7 * B, "equations": nj + B + len(self.drivers),
            "grubler_dof": 6 * B - nj,
            "dof": 6 * B - len(ind_j),
            "redundant_count": nj - len(ind_j),
            "redundant": [names[i] for i in dep_j],
            "dof_driven": 6 * B - len(ind_a),
            "residual": max([abs(x) for x in res] + [0.0]),
        }
        return out

    def kinematics(self, t_end=2.0, dt=0.01, tol=1e-10, maxit=25, verbose=False):
        poses = [(list(r), [list(x) for x in R]) for r, R in self.pose]
        steps = int(round(t_end / dt))
        res0, rows0, _, _ = self._rows(poses, 0.0)
        redundant0 = set(self.eliminate(rows0)[1])
        worst, iters = 0.0, 0
        traj = []
        prev = None
        for s in range(steps + 1):
            t = s * dt
            # predictor: linear extrapolation of the poses from the last two steps
            cur = poses
            if prev is not None:
                poses = [(add(r, sub(r, r0)), orthonormal(matmul(matmul(R, matT(R0)), R))) for (r, R), (r0, R0) in zip(cur, prev)]
            prev = cur
            ok = False
            for it in range(maxit):
                res, rows, names, nj = self._rows(poses, t)
                err = max(abs(x) for x in res)
                if err < tol:
                    ok = True; break
                # Newton iterates are off the constraint manifold, where a redundant row (e.g. a
                # strap along a hinge axis) is dependent only to O(|Phi|): leave out the rows found
                # redundant at the assembled configuration (they hold wherever the others do).
                keep = [i for i in range(len(rows)) if i not in redundant0]
                ind, dep, sol = self.eliminate([rows[i] for i in keep], [-res[i] for i in keep])
                poses = self.apply(poses, sol)
                iters += 1
            if not ok and err < 1e-8:      # linear convergence at a singular configuration
                ok = True
            if not ok:
                return {"ok": False, "t": t, "err": err, "iters": iters, "traj": traj}
            worst = max(worst, err)
            traj.append((t, [p[0] for p in poses]))
        return {"ok": True, "t": t_end, "err": worst, "iters": iters, "traj": traj, "poses": poses}

    def apply(self, poses, sol):
        new = []
        for b, (r, R) in enumerate(poses):
            if b not in self.col:
                new.append((r, R)); continue
            c = self.col[b]
            dr = [sol.get(c + k, 0.0) for k in range(3)]
            dth = [sol.get(c + 3 + k, 0.0) for k in range(3)]
            ang = norm(dth)
            R2 = orthonormal(matmul(rot_axis(dth, ang), R)) if ang > 0 else R
            new.append((add(r, dr), R2))
        return new


def orthonormal(R):
    """Nearest rotation (Gram-Schmidt on the columns; R is already close to one)."""
    c0 = unit([R[0][0], R[1][0], R[2][0]])
    c1 = [R[0][1], R[1][1], R[2][1]]
    c1 = unit(sub(c1, mul(dot(c0, c1), c0)))
    c2 = cross(c0, c1)
    return [[c0[i], c1[i], c2[i]] for i in range(3)]


MATHNS = {k: getattr(math, k) for k in ("sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sqrt", "exp", "log")}
MATHNS.update(abs=abs, min=min, max=max, pi=math.pi)
