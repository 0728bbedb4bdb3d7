#!/usr/bin/env python3
"""Quick wire-frame preview of a mechanism file's shapes as an SVG (orthographic views), to eyeball
the generated geometry without the GUI:  preview.py FILE.json OUT.svg [view ...]
views: iso (default), xz, yz, xy (looking along -y, +x, -z). Capsules/cylinders are drawn as thick
lines, spheres as circles, boxes as their edges, meshes as their bounding box; joints as red dots."""
import sys as _sys
_sys.dont_write_bytecode = True  # keep scripts/gen free of __pycache__
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mechcheck  # noqa
from mechlib import add, sub, mul, matvec, unit, cross, norm  # noqa

VIEWS = {"iso": (math.radians(-35), math.radians(25)), "xz": (0.0, 0.0),
         "yz": (math.radians(-90), 0.0), "xy": (0.0, math.radians(90))}


def project(p, view):
    az, el = VIEWS[view]
    # camera looks along +y in 'front'; rotate the world by azimuth about z, then elevation about x
    x, y, z = p
    x, y = x * math.cos(az) - y * math.sin(az), x * math.sin(az) + y * math.cos(az)
    y, z = y * math.cos(el) - z * math.sin(el), y * math.sin(el) + z * math.cos(el)
    return x, -z


def main(path, out, views):
    doc = mechcheck.load(path)
    m = mechcheck.Model(doc)
    L = m.L
    prims = []  # (kind, points, radius, colour)
    for bi, b in enumerate(doc["bodies"]):
        r, R = m.pose[bi]
        col = b.get("color", "#777777")
        W = lambda s: add(r, matvec(R, [x * L for x in s]))
        for s in b.get("shapes", []):
            c = s.get("color", col)
            pos = s.get("position", [0, 0, 0])
            if s["type"] in ("capsule", "cylinder"):
                a = s.get("axis", [0, 0, 1])
                h = 0.5 * s["length"]
                p = W(add(pos, mul(-h, unit(a)))); q = W(add(pos, mul(h, unit(a))))
                prims.append(("line", [p, q], s["radius"] * L, c))
            elif s["type"] == "sphere":
                prims.append(("circle", [W(pos)], s["radius"] * L, c))
            elif s["type"] == "box":
                hx, hy, hz = [0.5 * v for v in s["size"]]
                corners = [[pos[0] + i * hx, pos[1] + j * hy, pos[2] + k * hz] for i in (-1, 1) for j in (-1, 1) for k in (-1, 1)]
                for i in range(8):
                    for j in range(i + 1, 8):
                        if sum(1 for a_, b_ in zip(corners[i], corners[j]) if a_ != b_) == 1:
                            prims.append(("line", [W(corners[i]), W(corners[j])], 0.0, c))
            elif s["type"] == "mesh":
                prims.append(("circle", [W(pos)], 0.01, c))
    for J in m.joints:
        prims.append(("dot", [J["p"]], 0.0, "#ff0000"))
    svgs = []
    W_, H_ = 600, 600
    for vi, view in enumerate(views):
        pts = [project(p, view) for pr in prims for p in pr[1]]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        span = max(max(xs) - min(xs), max(ys) - min(ys), 1e-9) * 1.1
        cx, cy = 0.5 * (max(xs) + min(xs)), 0.5 * (max(ys) + min(ys))
        sc = W_ / span
        T = lambda p: ((project(p, view)[0] - cx) * sc + W_ / 2 + vi * W_, (project(p, view)[1] - cy) * sc + H_ / 2)
        for kind, ps, rad, c in prims:
            if kind == "line":
                (x1, y1), (x2, y2) = T(ps[0]), T(ps[1])
                svgs.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%.1f" stroke-linecap="round" opacity="0.8"/>'
                            % (x1, y1, x2, y2, c, max(1.0, 2 * rad * sc)))
            elif kind == "circle":
                x, y = T(ps[0])
                svgs.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s" opacity="0.7"/>' % (x, y, max(1.0, rad * sc), c))
            else:
                x, y = T(ps[0])
                svgs.append('<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>' % (x, y, c))
        svgs.append('<text x="%d" y="20" font-size="16">%s</text>' % (vi * W_ + 10, view))
    with open(out, "w") as f:
        f.write('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d"><rect width="100%%" height="100%%" fill="white"/>%s</svg>'
                % (W_ * len(views), H_, "".join(svgs)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:] or ["iso"])
