// Mobility of a four-bar in terms of Freudenstein's k (Angeles et al., Diseño cinemático de
// maquinaria (1984), Grashof paper): crank conditions (18) for the input and (19) for the output,
// rocker limits (12a)/(22) and (26), and the classical Grashof type from the link lengths.
#pragma once

#include <Eigen/Core>
#include <string>

#include "kinevo/synthesis/linkages/freudenstein.hpp"

namespace kinevo::synthesis {

// f1 and f2 of the Grashof paper, eqs. (18a) and (18b), with analytic gradient (43)/(44) and
// Hessian (46)/(47) (eq. (47), entry (3,3), corrected to 4(-k1^2 - k2^2 + 3 k3^2 - 1)).
double input_crank_f1(const Eigen::VectorXd& k, Eigen::VectorXd* gradient = nullptr,
                      Eigen::MatrixXd* hessian = nullptr);
double input_crank_f2(const Eigen::VectorXd& k, Eigen::VectorXd* gradient = nullptr,
                      Eigen::MatrixXd* hessian = nullptr);
// The two factors of f2, each of which must be positive for a crank:
// h1 = (k2 - 1)^2 - (k1 - k3)^2, h2 = (k2 + 1)^2 - (k1 + k3)^2. Requiring both (rather than
// their product) also excludes the k that define no closed linkage.
double input_crank_h1(const Eigen::VectorXd& k, Eigen::VectorXd* gradient = nullptr,
                      Eigen::MatrixXd* hessian = nullptr);
double input_crank_h2(const Eigen::VectorXd& k, Eigen::VectorXd* gradient = nullptr,
                      Eigen::MatrixXd* hessian = nullptr);

// The output-link versions, eqs. (19a)/(19b): the input functions at k' = (k1, -k3, -k2).
Eigen::Vector3d swap_input_output(const Eigen::Vector3d& k);

struct crank_test {
  double f1 = 0.0, f2 = 0.0;  // (18a), (18b) or (19a), (19b)
  bool crank = false;         // f1 > 0, and both factors of f2 positive
};
crank_test input_crank(const Eigen::Vector3d& k);
crank_test output_crank(const Eigen::Vector3d& k);

// Limits of a rocker: the real roots cos(psi) of eq. (11a), cos^2 + 2 b cos + c = 0 with
// b = (k2 - k1 k3) / k3^2, c = (k1^2 - k2^2 - 1) / k3^2 (eqs. (11b), (12a)), that lie in [-1, 1].
// The link moves between the angles whose cosines are listed (satisfying eq. (22)).
struct rocker_limits {
  int count = 0;  // 0: no dead point (a crank, or no linkage), 1 or 2
  double cos_limit[2] = {0.0, 0.0};
};
rocker_limits input_rocker_limits(const Eigen::Vector3d& k);
rocker_limits output_rocker_limits(const Eigen::Vector3d& k);  // eq. (26), same with k2 <-> -k3

// Classical Grashof type from |a1|..|a4|: "crank-rocker", "double-crank", "double-rocker",
// "change-point" (s + l = p + q) or "non-Grashof triple-rocker".
std::string grashof_type(const fourbar_links& links);

}  // namespace kinevo::synthesis
