#pragma once
// core/types.h — the numeric types used across mechsim (Eigen, double precision).
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <Eigen/SparseCore>

namespace mechsim {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;  // unit quaternion; stored in q as (w, x, y, z)
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;
using SpMat = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;
using Triplet = Eigen::Triplet<double, int>;

/// A rigid placement: world = position + orientation * local.
struct Pose {
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();
  Vec3 apply(const Vec3& local) const { return position + orientation * local; }
  Vec3 rotate(const Vec3& local) const { return orientation * local; }
};

}  // namespace mechsim
