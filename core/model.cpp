// core/model.cpp — name look-ups and body poses of a Model.
#include "core/model.h"

namespace mechsim {

int Model::findBody(const std::string& n) const {
  for (size_t i = 0; i < bodies.size(); ++i)
    if (bodies[i].name == n) return static_cast<int>(i);
  return -1;
}

int Model::findJoint(const std::string& n) const {
  for (size_t i = 0; i < joints.size(); ++i)
    if (joints[i].name == n) return static_cast<int>(i);
  return -1;
}

Pose bodyPose(const Model& m, const VecX& q, int b) {
  const Body& body = m.bodies.at(b);
  if (body.qIndex < 0) return body.pose0;
  Pose p;
  p.position = q.segment<3>(body.qIndex);
  const auto w = q.segment<4>(body.qIndex + 3);
  Quat o(w(0), w(1), w(2), w(3));
  p.orientation = o.norm() > 0 ? o.normalized() : Quat::Identity();
  return p;
}

}  // namespace mechsim
