#pragma once
// reference/anm/circle_ellipse.h — the toy problem of paper 004 §5.1 (notes §5.1): the intersection of
//   f_e = 2x² − 5x + y² − 4y − 2xy − 5 = 0   (ellipse)   and   f_c = (x + 1)² + y² − 8 = 0   (circle),
// reached by the homotopy f_e = 0, f_c + 6 = 6λ from (x, y) = (0, −1) at λ = 0 (circle radius √2
// growing to √8). Published: ANM with N = 20 takes 2 steps to residual 2e-6, with the
// error-correcting form (§4.3) 7e-9; Newton needs 4 iterations for 8e-5. Residual =
// √((f_e² + f_c²)/2) at the end point. Used by tests and `mechsim-cli bench anm`.
#include <vector>

#include "core/anm/anm_step.h"

namespace mechsim::anm {

struct CircleEllipseRun {
  int steps = 0;             // ANM steps (series expansions) or Newton iterations
  int factorizations = 0;    // one per ANM step / Newton iteration
  int solves = 0;            // linear solves with those factors
  double residual = 0;       // √((f_e² + f_c²)/2) at the end
  Eigen::Vector2d x = Eigen::Vector2d::Zero();
  std::vector<double> lambdaAfterStep;    // λ reached by each step (of its own homotopy when corrected)
  std::vector<double> residualAfterStep;  // the residual after each step
};

/// f = (f_e, f_c) at p.
Eigen::Vector2d circleEllipseF(const Eigen::Vector2d& p);

/// ANM continuation from (0, −1). Plain: one homotopy H = (f_e, f_c + 6 − 6λ), steps until λ = 1.
/// Error-correcting (eq. 34): each step k re-bases on G = (f_e, f_c) as
/// H_k(x, λ) = G(x) − (1 − λ) G(x_k), λ from 0 to 1; the run ends when a step reaches λ = 1 and,
/// with tolerance > 0, goes on re-basing until the residual is below it.
CircleEllipseRun circleEllipseAnm(bool errorCorrecting, const AnmOptions& opt = {}, double tolerance = 0,
                                  int maxSteps = 50);

/// Newton–Raphson on G = (f_e, f_c) from (0, −1), `iterations` iterations.
CircleEllipseRun circleEllipseNewton(int iterations);

}  // namespace mechsim::anm
