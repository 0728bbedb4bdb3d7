#!/usr/bin/env python3
"""Robot-description examples for the importers (docs/import.md), in URDF, MJCF and SDFormat.

  mechanisms/urdf/ur5.urdf  panda.urdf  fourbar-loop.urdf   (loop closed by <loop_joint>)
  mechanisms/mjcf/ur5.xml   panda.xml   slider-crank.xml    (loop closed by <equality><connect>)
  mechanisms/sdf/ur5.sdf    panda.sdf   fourbar.sdf         (SDF joint graphs may hold loops)
  models/ur5/*.stl  models/panda/*.stl  models/linkage/*.stl  (binary STL link shapes, millimetres)

Kinematics (joint origins, axes, limits) are the published ones: UR5 from Universal Robots'
ur_description (DH d1 = 0.089159, a2 = 0.425, a3 = 0.39225, d4 = 0.10915, d5 = 0.09465,
d6 = 0.0823 m) and the Franka Emika Panda from franka_description (modified DH: d1 = 0.333,
d3 = 0.316, a3 = 0.0825, a4 = -0.0825, d5 = 0.384, a6 = 0.088, flange 0.107 m). Link masses are the
published ones (UR5: ur_description; Panda: Gaz et al., RA-L 2019); centres of mass are UR's and
Gaz et al.'s; the inertia of every link is that of a solid cylinder of its mass around its main
segment (as ur_description does), so each tensor is valid by construction. The link meshes are
simple tubes and joint housings written here (no vendor mesh is redistributed).

The closed loops are assembled analytically at their file configuration (crank angle 60 degrees),
so every importer's "file configuration = all joints at zero" is an exact closed position.
Run: python3 scripts/gen/gen_import.py"""
import sys as _sys
_sys.dont_write_bytecode = True
import math
import os
import struct

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
PI = math.pi
HALF = PI / 2


def r(x):
    """Numbers as text: shortest round-trip repr, -0 → 0."""
    if abs(x) < 1e-15:
        x = 0.0
    s = repr(float(x))
    return s[:-2] if s.endswith('.0') else s


def v3(v):
    return ' '.join(r(x) for x in v)


# ---------------------------------------------------------------- small rotation algebra
def qmul(a, b):
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return (w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2)


def qaxis(axis, a):
    s = math.sin(a / 2)
    return (math.cos(a / 2), axis[0] * s, axis[1] * s, axis[2] * s)


def qrpy(rpy):
    return qmul(qaxis((0, 0, 1), rpy[2]), qmul(qaxis((0, 1, 0), rpy[1]), qaxis((1, 0, 0), rpy[0])))


# ---------------------------------------------------------------- meshes (binary STL, mm)
def cylinder_tris(p0, p1, rad, n=20):
    """Closed cylinder between p0 and p1 (mm)."""
    d = [p1[i] - p0[i] for i in range(3)]
    L = math.sqrt(sum(x * x for x in d))
    d = [x / L for x in d]
    a = (1, 0, 0) if abs(d[0]) < 0.9 else (0, 1, 0)
    u = [d[1] * a[2] - d[2] * a[1], d[2] * a[0] - d[0] * a[2], d[0] * a[1] - d[1] * a[0]]
    nu = math.sqrt(sum(x * x for x in u))
    u = [x / nu for x in u]
    w = [d[1] * u[2] - d[2] * u[1], d[2] * u[0] - d[0] * u[2], d[0] * u[1] - d[1] * u[0]]
    ring = lambda c, k: tuple(c[i] + rad * (math.cos(2 * PI * k / n) * u[i] + math.sin(2 * PI * k / n) * w[i]) for i in range(3))
    tris = []
    for k in range(n):
        a0, a1, b0, b1 = ring(p0, k), ring(p0, k + 1), ring(p1, k), ring(p1, k + 1)
        tris += [(a0, a1, b1), (a0, b1, b0), (tuple(p0), a1, a0), (tuple(p1), b0, b1)]
    return tris


def write_stl(path, tris):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(b'mechsim gen_import.py'.ljust(80, b' '))
        f.write(struct.pack('<I', len(tris)))
        for a, b, c in tris:
            u = [b[i] - a[i] for i in range(3)]
            v = [c[i] - a[i] for i in range(3)]
            n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
            ln = math.sqrt(sum(x * x for x in n)) or 1.0
            f.write(struct.pack('<3f', *[x / ln for x in n]))
            for p in (a, b, c):
                f.write(struct.pack('<3f', *p))
            f.write(b'\0\0')


# ---------------------------------------------------------------- robot arms
class Link:
    def __init__(self, name, mass, com, seg, radius):
        """seg: (p0, p1) main segment in the link frame [m] (mesh tube and inertia cylinder)."""
        self.name, self.mass, self.com, self.seg, self.radius = name, mass, com, seg, radius

    def inertia(self):
        """Solid cylinder of the link's mass about its com, axis along its segment, in link axes."""
        p0, p1 = self.seg
        d = [p1[i] - p0[i] for i in range(3)]
        L = max(math.sqrt(sum(x * x for x in d)), 1e-3)
        d = [x / L for x in d] if L > 1e-3 else [0, 0, 1]
        m, rr = self.mass, self.radius
        ia, it = m * rr * rr / 2, m * (3 * rr * rr + L * L) / 12
        I = [[it * (1 if i == j else 0) + (ia - it) * d[i] * d[j] for j in range(3)] for i in range(3)]
        return I


class Joint:
    def __init__(self, name, type, parent, child, xyz, rpy, axis=(0, 0, 1), limits=None):
        self.name, self.type, self.parent, self.child = name, type, parent, child
        self.xyz, self.rpy, self.axis, self.limits = xyz, rpy, axis, limits


def ur5():
    # ur_description ur5: origins, axes, ±2π limits, masses and centres of mass.
    links = [
        Link('base_link', 4.0, (0, 0, 0), ((0, 0, 0), (0, 0, 0.086)), 0.075),
        Link('shoulder_link', 3.7, (0, 0, 0), ((0, 0, -0.05), (0, 0, 0.05)), 0.075),
        Link('upper_arm_link', 8.393, (0, 0, 0.28), ((0, 0, 0), (0, 0, 0.425)), 0.06),
        Link('forearm_link', 2.275, (0, 0, 0.25), ((0, 0, 0), (0, 0, 0.39225)), 0.05),
        Link('wrist_1_link', 1.219, (0, 0, 0), ((0, -0.04, 0), (0, 0.093, 0)), 0.045),
        Link('wrist_2_link', 1.219, (0, 0, 0), ((0, 0, -0.04), (0, 0, 0.09465)), 0.045),
        Link('wrist_3_link', 0.1879, (0, 0, 0), ((0, -0.02, 0), (0, 0.0823, 0)), 0.04),
        Link('ee_link', 0, None, None, 0),
    ]
    T = 2 * PI
    joints = [
        Joint('shoulder_pan_joint', 'revolute', 'base_link', 'shoulder_link', (0, 0, 0.089159), (0, 0, 0), (0, 0, 1), (-T, T)),
        Joint('shoulder_lift_joint', 'revolute', 'shoulder_link', 'upper_arm_link', (0, 0.13585, 0), (0, HALF, 0), (0, 1, 0), (-T, T)),
        Joint('elbow_joint', 'revolute', 'upper_arm_link', 'forearm_link', (0, -0.1197, 0.425), (0, 0, 0), (0, 1, 0), (-PI, PI)),
        Joint('wrist_1_joint', 'revolute', 'forearm_link', 'wrist_1_link', (0, 0, 0.39225), (0, HALF, 0), (0, 1, 0), (-T, T)),
        Joint('wrist_2_joint', 'revolute', 'wrist_1_link', 'wrist_2_link', (0, 0.093, 0), (0, 0, 0), (0, 0, 1), (-T, T)),
        Joint('wrist_3_joint', 'revolute', 'wrist_2_link', 'wrist_3_link', (0, 0, 0.09465), (0, 0, 0), (0, 1, 0), (-T, T)),
        Joint('ee_fixed_joint', 'fixed', 'wrist_3_link', 'ee_link', (0, 0.0823, 0), (0, 0, HALF)),
    ]
    return 'ur5', links, joints


def panda():
    # franka_description panda_arm: origins, axes and limits; masses and centres of mass after
    # Gaz et al. (2019); hand and fingers from franka_description.
    links = [
        Link('panda_link0', 2.92, (-0.025566, -2.88e-05, 0.057332), ((0, 0, 0), (0, 0, 0.2)), 0.09),
        Link('panda_link1', 4.970684, (0.003875, 0.002081, -0.04762), ((0, 0, -0.2), (0, 0, 0.05)), 0.065),
        Link('panda_link2', 0.646926, (-0.003141, -0.02872, 0.003495), ((0, 0, -0.06), (0, -0.15, 0)), 0.06),
        Link('panda_link3', 3.228604, (0.027518, 0.039252, -0.066502), ((0, 0, -0.25), (0.0825, 0, 0)), 0.06),
        Link('panda_link4', 3.587895, (-0.05317, 0.104419, 0.027454), ((0, 0, 0), (-0.0825, 0.3, 0)), 0.06),
        Link('panda_link5', 1.225946, (-0.011953, 0.041065, -0.038437), ((0, 0, -0.25), (0, 0.05, 0)), 0.055),
        Link('panda_link6', 1.666555, (0.060149, -0.014117, -0.010517), ((0, 0, -0.03), (0.088, 0, 0)), 0.05),
        Link('panda_link7', 0.735522, (0.010517, -0.004252, 0.061597), ((0, 0, -0.02), (0, 0, 0.107)), 0.045),
        Link('panda_link8', 0, None, None, 0),
        Link('panda_hand', 0.73, (-0.01, 0, 0.03), ((0, -0.1, 0.03), (0, 0.1, 0.03)), 0.03),
        Link('panda_leftfinger', 0.015, (0, 0.015, 0.022), ((0, 0.01, 0), (0, 0.01, 0.05)), 0.01),
        Link('panda_rightfinger', 0.015, (0, -0.015, 0.022), ((0, -0.01, 0), (0, -0.01, 0.05)), 0.01),
    ]
    L = 2.8973
    joints = [
        Joint('panda_joint1', 'revolute', 'panda_link0', 'panda_link1', (0, 0, 0.333), (0, 0, 0), (0, 0, 1), (-L, L)),
        Joint('panda_joint2', 'revolute', 'panda_link1', 'panda_link2', (0, 0, 0), (-HALF, 0, 0), (0, 0, 1), (-1.7628, 1.7628)),
        Joint('panda_joint3', 'revolute', 'panda_link2', 'panda_link3', (0, -0.316, 0), (HALF, 0, 0), (0, 0, 1), (-L, L)),
        Joint('panda_joint4', 'revolute', 'panda_link3', 'panda_link4', (0.0825, 0, 0), (HALF, 0, 0), (0, 0, 1), (-3.0718, -0.0698)),
        Joint('panda_joint5', 'revolute', 'panda_link4', 'panda_link5', (-0.0825, 0.384, 0), (-HALF, 0, 0), (0, 0, 1), (-L, L)),
        Joint('panda_joint6', 'revolute', 'panda_link5', 'panda_link6', (0, 0, 0), (HALF, 0, 0), (0, 0, 1), (-0.0175, 3.7525)),
        Joint('panda_joint7', 'revolute', 'panda_link6', 'panda_link7', (0.088, 0, 0), (HALF, 0, 0), (0, 0, 1), (-L, L)),
        Joint('panda_joint8', 'fixed', 'panda_link7', 'panda_link8', (0, 0, 0.107), (0, 0, 0)),
        Joint('panda_hand_joint', 'fixed', 'panda_link8', 'panda_hand', (0, 0, 0), (0, 0, -PI / 4)),
        Joint('panda_finger_joint1', 'prismatic', 'panda_hand', 'panda_leftfinger', (0, 0, 0.0584), (0, 0, 0), (0, 1, 0), (0, 0.04)),
        Joint('panda_finger_joint2', 'prismatic', 'panda_hand', 'panda_rightfinger', (0, 0, 0.0584), (0, 0, 0), (0, -1, 0), (0, 0.04)),
    ]
    return 'panda', links, joints


def link_mesh(robot, link):
    """A tube along the link's segment plus a housing at its frame origin (mm)."""
    p0, p1 = link.seg
    mm = lambda p: [1000 * x for x in p]
    tris = cylinder_tris(mm(p0), mm(p1), 1000 * link.radius * 0.8)
    write_stl(os.path.join(ROOT, 'models', robot, link.name + '.stl'), tris)
    return '%s.stl' % link.name


def inertia_attrs(I, names=('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')):
    vals = (I[0][0], I[0][1], I[0][2], I[1][1], I[1][2], I[2][2])
    return ' '.join('%s="%s"' % (n, r(v)) for n, v in zip(names, vals))


COLORS = {'ur5': '0.6 0.7 0.8 1', 'panda': '0.95 0.95 0.95 1'}


def arm_urdf(robot, links, joints):
    out = ['<?xml version="1.0"?>',
           '<!-- %s: generated by scripts/gen/gen_import.py (edit the script, not this file). -->' % robot,
           '<!-- Meshes: package://ur5 is the folder models/ur5 (docs/import.md, search path); the Panda uses relative paths. -->',
           '<robot name="%s">' % robot,
           '  <material name="body"><color rgba="%s"/></material>' % COLORS[robot]]
    for l in links:
        out.append('  <link name="%s">' % l.name)
        if l.mass > 0:
            out += ['    <inertial>', '      <origin xyz="%s" rpy="0 0 0"/>' % v3(l.com),
                    '      <mass value="%s"/>' % r(l.mass), '      <inertia %s/>' % inertia_attrs(l.inertia()), '    </inertial>']
            mesh = link_mesh(robot, l)
            # UR5 names its meshes through a ROS package (package://), the Panda by relative paths.
            uri = 'package://%s/%s' % (robot, mesh) if robot == 'ur5' else '../../models/%s/%s' % (robot, mesh)
            out += ['    <visual>', '      <geometry><mesh filename="%s" scale="0.001 0.001 0.001"/></geometry>' % uri,
                    '      <material name="body"/>', '    </visual>']
            p0, p1 = l.seg
            d = [p1[i] - p0[i] for i in range(3)]
            L = math.sqrt(sum(x * x for x in d))
            if L > 1e-3:
                mid = [(p0[i] + p1[i]) / 2 for i in range(3)]
                # cylinder along the segment: rotate z onto d
                rpy = seg_rpy(d)
                out += ['    <collision>', '      <origin xyz="%s" rpy="%s"/>' % (v3(mid), v3(rpy)),
                        '      <geometry><cylinder radius="%s" length="%s"/></geometry>' % (r(l.radius), r(L)), '    </collision>']
        out.append('  </link>')
    for j in joints:
        out.append('  <joint name="%s" type="%s">' % (j.name, j.type))
        out.append('    <parent link="%s"/>' % j.parent)
        out.append('    <child link="%s"/>' % j.child)
        out.append('    <origin xyz="%s" rpy="%s"/>' % (v3(j.xyz), v3(j.rpy)))
        if j.type != 'fixed':
            out.append('    <axis xyz="%s"/>' % v3(j.axis))
        if j.limits:
            out.append('    <limit lower="%s" upper="%s" effort="150" velocity="3.15"/>' % (r(j.limits[0]), r(j.limits[1])))
        out.append('  </joint>')
    out.append('</robot>')
    return '\n'.join(out) + '\n'


def seg_rpy(d):
    """rpy turning z onto direction d (only axis-aligned segments occur here)."""
    x, y, z = d
    if abs(x) > 1e-12 and abs(y) < 1e-12 and abs(z) < 1e-12:
        return (0, HALF, 0)
    if abs(y) > 1e-12 and abs(x) < 1e-12 and abs(z) < 1e-12:
        return (HALF, 0, 0)
    if abs(x) < 1e-12 and abs(y) < 1e-12:
        return (0, 0, 0)
    # general: yaw then pitch
    yaw = math.atan2(y, x)
    pitch = math.atan2(math.hypot(x, y), z)
    return (0, pitch, yaw)


def quat_text(q):
    return v3(q)


def arm_mjcf(robot, links, joints):
    by = {l.name: l for l in links}
    kids = {}
    for j in joints:
        kids.setdefault(j.parent, []).append(j)
    out = ['<!-- %s: generated by scripts/gen/gen_import.py (edit the script, not this file). -->' % robot,
           '<mujoco model="%s">' % robot,
           '  <compiler angle="radian" meshdir="../../models/%s"/>' % robot,
           '  <option gravity="0 0 -9.81"/>',
           '  <default>',
           '    <joint type="hinge" axis="0 0 1"/>',
           '    <default class="visual"><geom type="mesh" contype="0" conaffinity="0" rgba="%s"/></default>' % COLORS[robot],
           '    <default class="collision"><geom type="capsule"/></default>',
           '  </default>',
           '  <asset>']
    for l in links:
        if l.mass > 0:
            out.append('    <mesh name="%s" file="%s.stl" scale="0.001 0.001 0.001"/>' % (l.name, l.name))
    out += ['  </asset>', '  <worldbody>']

    def body(l, j, depth):
        ind = '  ' * depth
        attrs = 'name="%s"' % l.name
        if j is not None:
            attrs += ' pos="%s" quat="%s"' % (v3(j.xyz), quat_text(qrpy(j.rpy)))
        out.append('%s<body %s>' % (ind, attrs))
        if j is not None and j.type != 'fixed':
            jt = 'hinge' if j.type == 'revolute' else 'slide'
            extra = ' type="slide"' if jt == 'slide' else ''
            out.append('%s  <joint name="%s"%s axis="%s" range="%s %s"/>' % (ind, j.name, extra, v3(j.axis), r(j.limits[0]), r(j.limits[1])))
        if l.mass > 0:
            I = l.inertia()
            out.append('%s  <inertial pos="%s" mass="%s" fullinertia="%s %s %s %s %s %s"/>' % (
                ind, v3(l.com), r(l.mass), r(I[0][0]), r(I[1][1]), r(I[2][2]), r(I[0][1]), r(I[0][2]), r(I[1][2])))
            out.append('%s  <geom class="visual" mesh="%s"/>' % (ind, l.name))
            p0, p1 = l.seg
            if math.dist(p0, p1) > 1e-3:
                out.append('%s  <geom class="collision" fromto="%s %s" size="%s"/>' % (ind, v3(p0), v3(p1), r(l.radius)))
        else:
            out.append('%s  <site name="%s_tip" pos="0 0 0"/>' % (ind, l.name))
        for k in kids.get(l.name, []):
            body(by[k.child], k, depth + 1)
        out.append('%s</body>' % ind)

    body(links[0], None, 2)
    out += ['  </worldbody>', '</mujoco>']
    return '\n'.join(out) + '\n'


def arm_sdf(robot, links, joints):
    """SDF 1.8 with URDF-like frames: a joint's pose relative_to its parent link, a child link's
    pose relative_to its joint (libsdformat resolves the chain)."""
    parent_joint = {j.child: j for j in joints}
    out = ['<?xml version="1.0"?>',
           '<!-- %s: generated by scripts/gen/gen_import.py (edit the script, not this file). -->' % robot,
           '<sdf version="1.8">', '  <model name="%s">' % robot]
    for l in links:
        j = parent_joint.get(l.name)
        out.append('    <link name="%s">' % l.name)
        if j is not None:
            out.append('      <pose relative_to="%s">0 0 0 0 0 0</pose>' % j.name)
        if l.mass > 0:
            I = l.inertia()
            out += ['      <inertial>', '        <pose>%s 0 0 0</pose>' % v3(l.com), '        <mass>%s</mass>' % r(l.mass),
                    '        <inertia><ixx>%s</ixx><ixy>%s</ixy><ixz>%s</ixz><iyy>%s</iyy><iyz>%s</iyz><izz>%s</izz></inertia>' % (
                        r(I[0][0]), r(I[0][1]), r(I[0][2]), r(I[1][1]), r(I[1][2]), r(I[2][2])),
                    '      </inertial>',
                    '      <visual name="visual">',
                    '        <geometry><mesh><uri>../../models/%s/%s.stl</uri><scale>0.001 0.001 0.001</scale></mesh></geometry>' % (robot, l.name),
                    '        <material><diffuse>%s</diffuse></material>' % COLORS[robot],
                    '      </visual>']
            p0, p1 = l.seg
            L = math.dist(p0, p1)
            if L > 1e-3:
                mid = [(p0[i] + p1[i]) / 2 for i in range(3)]
                out += ['      <collision name="collision">', '        <pose>%s %s</pose>' % (v3(mid), v3(seg_rpy([p1[i] - p0[i] for i in range(3)]))),
                        '        <geometry><cylinder><radius>%s</radius><length>%s</length></cylinder></geometry>' % (r(l.radius), r(L)),
                        '      </collision>']
        else:
            out += ['      <inertial><mass>0.001</mass><inertia><ixx>1e-7</ixx><iyy>1e-7</iyy><izz>1e-7</izz></inertia></inertial>']
        out.append('    </link>')
    out.append('    <joint name="world_fixed" type="fixed"><parent>world</parent><child>%s</child></joint>' % links[0].name)
    for j in joints:
        out.append('    <joint name="%s" type="%s">' % (j.name, j.type))
        out.append('      <pose relative_to="%s">%s %s</pose>' % (j.parent, v3(j.xyz), v3(j.rpy)))
        out.append('      <parent>%s</parent>' % j.parent)
        out.append('      <child>%s</child>' % j.child)
        if j.type != 'fixed':
            out.append('      <axis><xyz>%s</xyz><limit><lower>%s</lower><upper>%s</upper></limit></axis>' % (v3(j.axis), r(j.limits[0]), r(j.limits[1])))
        out.append('    </joint>')
    out += ['  </model>', '</sdf>']
    return '\n'.join(out) + '\n'


# ---------------------------------------------------------------- closed loops
def circle_intersection(p0, r0, p1, r1):
    """Upper intersection (left of p0 → p1) of two circles in the plane."""
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    d = math.hypot(dx, dy)
    a = (r0 * r0 - r1 * r1 + d * d) / (2 * d)
    h = math.sqrt(r0 * r0 - a * a)
    mx, my = p0[0] + a * dx / d, p0[1] + a * dy / d
    return (mx - h * dy / d, my + h * dx / d)


def bar_mesh(name, length):
    """A bar along +x from 0 to length with pins (mm)."""
    L = 1000 * length
    tris = cylinder_tris([0, 0, 0], [L, 0, 0], 8) + cylinder_tris([0, 0, -12], [0, 0, 12], 12) + cylinder_tris([L, 0, -12], [L, 0, 12], 12)
    write_stl(os.path.join(ROOT, 'models', 'linkage', name + '.stl'), tris)


# Crank-rocker four-bar (the dimensions of mechanisms/fourbar.json): ground 0.4, crank 0.1,
# coupler 0.35, rocker 0.3 m, crank at 60 degrees in the file.
A, D = (0.0, 0.0), (0.4, 0.0)
CRANK, COUPLER, ROCKER = 0.1, 0.35, 0.3
TH = PI / 3
B = (CRANK * math.cos(TH), CRANK * math.sin(TH))
C = circle_intersection(B, COUPLER, D, ROCKER)
PHI = math.atan2(C[1] - B[1], C[0] - B[0])
PSI = math.atan2(C[1] - D[1], C[0] - D[0])
BAR_MASS = {'crank': 0.27, 'coupler': 0.95, 'rocker': 0.81}


def bar_inertia(m, L):
    """Slender bar of length L along x, com at L/2, with a 16 mm × 16 mm section."""
    s = 0.016
    return [[m * 2 * s * s / 12, 0, 0], [0, m * (L * L + s * s) / 12, 0], [0, 0, m * (L * L + s * s) / 12]]


def fourbar_urdf():
    out = ['<?xml version="1.0"?>',
           '<!-- Crank-rocker four-bar with a loop closure: the tree ground-crank-coupler and',
           '     ground-rocker, closed by <loop_joint> (docs/import.md). Generated by',
           '     scripts/gen/gen_import.py. -->',
           '<robot name="fourbar-loop">',
           '  <link name="ground"/>']
    for name, L in (('crank', CRANK), ('coupler', COUPLER), ('rocker', ROCKER)):
        m = BAR_MASS[name]
        out += ['  <link name="%s">' % name,
                '    <inertial><origin xyz="%s 0 0"/><mass value="%s"/><inertia %s/></inertial>' % (r(L / 2), r(m), inertia_attrs(bar_inertia(m, L))),
                '    <visual><geometry><mesh filename="../../models/linkage/%s.stl" scale="0.001 0.001 0.001"/></geometry></visual>' % name,
                '    <collision><origin xyz="%s 0 0" rpy="0 %s 0"/><geometry><cylinder radius="0.008" length="%s"/></geometry></collision>' % (r(L / 2), r(HALF), r(L)),
                '  </link>']
    out += ['  <joint name="A" type="continuous"><parent link="ground"/><child link="crank"/>',
            '    <origin xyz="0 0 0" rpy="0 0 %s"/><axis xyz="0 0 1"/></joint>' % r(TH),
            '  <joint name="B" type="continuous"><parent link="crank"/><child link="coupler"/>',
            '    <origin xyz="%s 0 0" rpy="0 0 %s"/><axis xyz="0 0 1"/></joint>' % (r(CRANK), r(PHI - TH)),
            '  <joint name="D" type="revolute"><parent link="ground"/><child link="rocker"/>',
            '    <origin xyz="%s 0 0" rpy="0 0 %s"/><axis xyz="0 0 1"/><limit lower="-1.5" upper="1.5" effort="0" velocity="0"/></joint>' % (r(D[0]), r(PSI)),
            '  <!-- The loop closure: pin C at the rocker tip, joining the coupler tip. -->',
            '  <loop_joint name="C" type="revolute"><parent link="rocker"/><child link="coupler"/>',
            '    <origin xyz="%s 0 0"/><axis xyz="0 0 1"/></loop_joint>' % r(ROCKER),
            '  <mechsim:driver name="crank" joint="A" value="2 * pi * t"/>',
            '</robot>']
    return '\n'.join(out) + '\n'


def fourbar_sdf():
    """Links posed in the model frame; the joint graph closes the loop itself."""
    def link(name, pos, yaw, L):
        m = BAR_MASS[name]
        I = bar_inertia(m, L)
        return ['    <link name="%s">' % name,
                '      <pose>%s %s 0 0 0 %s</pose>' % (r(pos[0]), r(pos[1]), r(yaw)),
                '      <inertial><pose>%s 0 0 0 0 0</pose><mass>%s</mass>' % (r(L / 2), r(m)),
                '        <inertia><ixx>%s</ixx><iyy>%s</iyy><izz>%s</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>' % (r(I[0][0]), r(I[1][1]), r(I[2][2])),
                '      <visual name="v"><geometry><mesh><uri>../../models/linkage/%s.stl</uri><scale>0.001 0.001 0.001</scale></mesh></geometry></visual>' % name,
                '      <collision name="c"><pose>%s 0 0 0 %s 0</pose><geometry><cylinder><radius>0.008</radius><length>%s</length></cylinder></geometry></collision>' % (r(L / 2), r(HALF), r(L)),
                '    </link>']

    def joint(name, parent, child, xyz_in_child):
        return ['    <joint name="%s" type="revolute">' % name,
                '      <pose>%s 0 0 0 0 0</pose>' % r(xyz_in_child),
                '      <parent>%s</parent><child>%s</child>' % (parent, child),
                '      <axis><xyz>0 0 1</xyz><limit><lower>-1e16</lower><upper>1e16</upper></limit></axis>',
                '    </joint>']
    out = ['<?xml version="1.0"?>',
           '<!-- Crank-rocker four-bar in SDFormat: the four revolute joints form the loop. Generated by',
           '     scripts/gen/gen_import.py. -->',
           '<sdf version="1.8">', '  <model name="fourbar">',
           '    <link name="ground"><inertial><mass>1</mass></inertial></link>',
           '    <joint name="ground_fixed" type="fixed"><parent>world</parent><child>ground</child></joint>']
    out += link('crank', A, TH, CRANK) + link('coupler', B, PHI, COUPLER) + link('rocker', D, PSI, ROCKER)
    out += joint('A', 'ground', 'crank', 0) + joint('B', 'crank', 'coupler', 0) + joint('D', 'ground', 'rocker', 0)
    out += joint('C', 'rocker', 'coupler', COUPLER)  # pose in the child (coupler) frame: its tip
    out += ['    <mechsim:driver name="crank" joint="A" value="2 * pi * t"/>', '  </model>', '</sdf>']
    return '\n'.join(out) + '\n'


def slider_crank_mjcf():
    """Slider-crank: crank and rod in a chain, the slider on its own slide joint, the rod tip joined
    to the slider by <equality><connect>."""
    rod = 0.35
    xc = B[0] + math.sqrt(rod * rod - B[1] * B[1])
    yaw = math.atan2(-B[1], xc - B[0]) - TH  # rod direction relative to the crank
    out = ['<!-- Slider-crank closed by an equality constraint (crank 0.1 m, rod 0.35 m, crank at 60 degrees).',
           '     Generated by scripts/gen/gen_import.py. -->',
           '<mujoco model="slider-crank">',
           '  <compiler angle="degree" meshdir="../../models/linkage"/>',
           '  <default>',
           '    <joint type="hinge" axis="0 0 1"/>',
           '    <default class="bar"><geom type="capsule" size="0.008" rgba="0.8 0.3 0.2 1"/></default>',
           '  </default>',
           '  <asset><mesh file="crank.stl" scale="0.001 0.001 0.001"/><mesh name="rod" file="coupler.stl" scale="0.001 0.001 0.001"/></asset>',
           '  <worldbody>',
           '    <geom type="box" size="0.3 0.02 0.005" pos="0.3 0 -0.03" rgba="0.5 0.5 0.5 1"/>',
           '    <body name="crank" euler="0 0 %s">' % r(math.degrees(TH)),
           '      <joint name="A"/>',
           '      <geom class="bar" fromto="0 0 0 %s 0 0" density="2700"/>' % r(CRANK),
           '      <geom type="mesh" mesh="crank" contype="0" conaffinity="0"/>',
           '      <body name="rod" pos="%s 0 0" euler="0 0 %s">' % (r(CRANK), r(math.degrees(yaw))),
           '        <joint name="B"/>',
           '        <inertial pos="%s 0 0" mass="0.6" diaginertia="0.0001 0.0062 0.0062"/>' % r(rod / 2),
           '        <geom class="bar" fromto="0 0 0 %s 0 0"/>' % r(rod),
           '        <geom type="mesh" mesh="rod" contype="0" conaffinity="0"/>',
           '        <site name="rod_mid" pos="%s 0 0"/>' % r(rod / 2),
           '      </body>',
           '    </body>',
           '    <body name="slider" pos="%s 0 0">' % r(xc),
           '      <joint name="S" type="slide" axis="1 0 0" range="0.1 0.5"/>',
           '      <geom type="box" size="0.03 0.02 0.015" mass="0.4"/>',
           '    </body>',
           '  </worldbody>',
           '  <equality>',
           '    <connect name="C" body1="rod" body2="slider" anchor="%s 0 0"/>' % r(rod),
           '  </equality>',
           '  <mechsim:driver name="crank" joint="A" value="360 * t"/>',
           '</mujoco>']
    return '\n'.join(out) + '\n'


def write(rel, text):
    path = os.path.join(ROOT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)
    print('wrote', rel)


def main():
    for robot, links, joints in (ur5(), panda()):
        write('mechanisms/urdf/%s.urdf' % robot, arm_urdf(robot, links, joints))
        write('mechanisms/mjcf/%s.xml' % robot, arm_mjcf(robot, links, joints))
        write('mechanisms/sdf/%s.sdf' % robot, arm_sdf(robot, links, joints))
    for name, L in (('crank', CRANK), ('coupler', COUPLER), ('rocker', ROCKER)):
        bar_mesh(name, L)
    write('mechanisms/urdf/fourbar-loop.urdf', fourbar_urdf())
    write('mechanisms/sdf/fourbar.sdf', fourbar_sdf())
    write('mechanisms/mjcf/slider-crank.xml', slider_crank_mjcf())


if __name__ == '__main__':
    main()
