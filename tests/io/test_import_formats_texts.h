#pragma once
// tests/io/test_import_formats_texts.h — the small URDF / MJCF / SDF texts of
// test_import_formats.cpp (kept apart: moc does not read raw string literals well).
#include <string>

namespace {
const std::string kUrdfFrames = R"(<robot name="r">
  <link name="base"/>
  <link name="a">
    <inertial><origin xyz="0.1 0 0" rpy="0 0 1.5707963267948966"/><mass value="2"/>
      <inertia ixx="1" ixy="0" ixz="0" iyy="2" iyz="0" izz="2.5"/></inertial>
  </link>
  <link name="b"/>
  <link name="c"/>
  <link name="free"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="a"/>
    <origin xyz="1 0 0" rpy="0 0 1.5707963267948966"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="2" effort="1" velocity="1"/></joint>
  <joint name="j2" type="prismatic"><parent link="a"/><child link="b"/>
    <origin xyz="0 2 0" rpy="1.5707963267948966 0 0"/><axis xyz="0 0 1"/>
    <limit lower="0" upper="0.5" effort="1" velocity="1"/><mimic joint="j1"/></joint>
  <joint name="j3" type="planar"><parent link="b"/><child link="c"/><axis xyz="0 1 0"/></joint>
  <joint name="j4" type="floating"><parent link="base"/><child link="free"/></joint>
</robot>)";

const std::string kUrdfPackage = R"(<robot name="r"><link name="base"/><link name="a">
  <visual><geometry><mesh filename="package://ur5/meshes/collision/base.obj" scale="0.5 0.5 0.5"/></geometry></visual></link>
  <joint name="j" type="continuous"><parent link="base"/><child link="a"/></joint></robot>)";

const std::string kUrdfLoop = R"(<robot name="r"><link name="g"/><link name="a"/><link name="b"/>
  <joint name="ja" type="continuous"><parent link="g"/><child link="a"/><origin xyz="0 0 1"/></joint>
  <joint name="jb" type="continuous"><parent link="g"/><child link="b"/></joint>
  <loop_joint name="u" type="universal"><parent link="a"/><child link="b"/>
    <origin xyz="1 0 0" rpy="0 0 1.5707963267948966"/><axis xyz="1 0 0"/><axis2 xyz="0 0 1"/></loop_joint>
</robot>)";

const std::string kMjcfDefaults = R"(<mujoco model="m">
  <compiler angle="degree" eulerseq="zyx"/>
  <default>
    <joint axis="0 1 0"/>
    <default class="arm"><joint axis="1 0 0" range="-45 45"/>
      <default class="wrist"><geom type="box" size="0.1 0.2 0.3" friction="0.8 0.01 0.001"/></default>
    </default>
  </default>
  <worldbody>
    <body name="a" pos="1 0 0" euler="90 0 0" childclass="arm">
      <joint name="j1"/>
      <joint name="j2" axis="0 0 1"/>
      <geom class="wrist"/>
      <site name="tip" pos="0 1 0"/>
      <body name="b" pos="0 1 0">
        <joint name="j3" class="main"/>
        <geom type="sphere" size="0.1"/>
      </body>
    </body>
  </worldbody>
  <equality><connect name="c" body1="b" body2="world" anchor="0 0 1"/></equality>
</mujoco>)";

const std::string kSdfWorld = R"(<sdf version="1.8"><world name="w">
  <model name="m">
    <link name="a"><pose>1 0 0 0 0 1.5707963267948966</pose></link>
    <link name="b"><pose relative_to="a">1 0 0 0 0 0</pose></link>
    <joint name="ja" type="revolute"><parent>world</parent><child>a</child><axis><xyz>1 0 0</xyz></axis></joint>
    <joint name="u" type="universal"><pose>0 0 0.5 0 0 0</pose><parent>a</parent><child>b</child>
      <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>
  </model>
  <model name="table"><static>true</static><link name="top"><pose>0 0 1 0 0 0</pose></link></model>
</world></sdf>)";

}  // namespace
