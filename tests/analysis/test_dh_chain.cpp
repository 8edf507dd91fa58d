// DH chains: the identities of the invariant formulation and the Jacobians against finite
// differences (Angeles et al., Diseño cinemático de maquinaria, RSRC paper eq. (1), (11a)-(12b)).
#include "kinevo/analysis/dh_chain.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "chain_examples.hpp"

namespace kinevo::analysis {
namespace {

using kinevo::test::deg;
using kinevo::test::link;

Eigen::Matrix3d cross_matrix(const Eigen::Vector3d& w) {
  Eigen::Matrix3d m;
  m << 0, -w.z(), w.y(), w.z(), 0, -w.x(), -w.y(), w.x(), 0;
  return m;
}

Eigen::Matrix3d random_rotation(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  return dh_rotation(u(rng), u(rng)) * dh_rotation(u(rng), u(rng));
}

// A mixed chain (R and P pairs, offsets and twists) for the derivative tests.
std::vector<dh_link> mixed_chain() {
  std::vector<dh_link> l = {
      link(0.7, 0.2, 60), link(0.3, 0.0, -45, pair_kind::prismatic), link(1.1, -0.4, 90),
      link(0.0, 0.5, 30), link(0.4, 0.0, 120, pair_kind::prismatic), link(0.9, 0.1, -70)};
  l[1].theta = 0.4;
  l[4].theta = -1.2;
  return l;
}

Eigen::VectorXd mixed_q() {
  Eigen::VectorXd q(6);
  q << 0.3, 0.8, -1.1, 2.0, 0.6, -0.4;
  return q;
}

TEST(DhChain, RotationIsRzRx) {
  const Eigen::Matrix3d q = dh_rotation(0.7, -0.3);
  const Eigen::Matrix3d rz = Eigen::AngleAxisd(0.7, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  const Eigen::Matrix3d rx = Eigen::AngleAxisd(-0.3, Eigen::Vector3d::UnitX()).toRotationMatrix();
  EXPECT_LT((q - rz * rx).norm(), 1e-15);
}

TEST(DhChain, VectIdentity) {
  // vect(Omega A) = 1/2 (tr A 1 - A) omega for any A (here rotations and a general matrix).
  std::mt19937 rng(7);
  for (int k = 0; k < 20; ++k) {
    const Eigen::Matrix3d a =
        k % 2 == 0 ? random_rotation(rng) : Eigen::Matrix3d(Eigen::Matrix3d::Random());
    const Eigen::Vector3d w(0.3 * k - 2.0, 1.0, -0.5 * k);
    EXPECT_LT((vect(cross_matrix(w) * a) - 0.5 * invariant_matrix(a) * w).norm(), 1e-13);
  }
}

TEST(DhChain, InvariantMatrixDeterminant) {
  // det(1 tr P - P) = 4 cos(phi) (1 + cos(phi)): singular at 90, 180 and 270 deg.
  for (double phi_deg = 0; phi_deg <= 360; phi_deg += 15) {
    const Eigen::Vector3d axis = Eigen::Vector3d(1, -2, 0.5).normalized();
    const Eigen::Matrix3d p = Eigen::AngleAxisd(phi_deg * deg, axis).toRotationMatrix();
    const double c = std::cos(phi_deg * deg);
    EXPECT_NEAR(invariant_matrix(p).determinant(), 4 * c * (1 + c), 1e-12) << phi_deg;
    EXPECT_NEAR(std::cos(rotation_angle(p)), c, 1e-12);
  }
}

TEST(DhChain, HornerEndPointMatchesFrameProducts) {
  const auto links = mixed_chain();
  const Eigen::VectorXd q = mixed_q();
  const chain_pose pose = evaluate_chain(links, q);
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  Eigen::Matrix3d r = Eigen::Matrix3d::Identity();
  for (std::size_t i = 0; i < links.size(); ++i) {
    const bool rev = links[i].pair == pair_kind::revolute;
    const double th = rev ? q[static_cast<Eigen::Index>(i)] : links[i].theta;
    const double b = rev ? links[i].b : q[static_cast<Eigen::Index>(i)];
    sum += r * dh_offset(links[i].a, b, th);
    r = r * dh_rotation(th, links[i].alpha);
  }
  EXPECT_LT((pose.end - sum).norm(), 1e-14);
  EXPECT_LT((pose.product - r).norm(), 1e-14);
}

TEST(DhChain, JacobiansMatchFiniteDifferences) {
  const auto links = mixed_chain();
  const Eigen::VectorXd q = mixed_q();
  const chain_pose pose = evaluate_chain(links, q);
  const Eigen::MatrixXd inv = invariant_jacobian(links, pose);
  const Eigen::MatrixXd mid = point_jacobian(links, pose, 3);
  const double h = 1e-6;
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    Eigen::VectorXd qp = q, qm = q;
    qp[i] += h;
    qm[i] -= h;
    const chain_pose p = evaluate_chain(links, qp), m = evaluate_chain(links, qm);
    const Eigen::Vector3d d_rot = (2 * vect(p.product) - 2 * vect(m.product)) / (2 * h);
    const Eigen::Vector3d d_end = (p.end - m.end) / (2 * h);
    const Eigen::Vector3d d_mid = (point_after(p, 3) - point_after(m, 3)) / (2 * h);
    EXPECT_LT((inv.col(i).head<3>() - d_rot).norm(), 1e-8) << i;
    EXPECT_LT((inv.col(i).tail<3>() - d_end).norm(), 1e-8) << i;
    EXPECT_LT((mid.col(i) - d_mid).norm(), 1e-8) << i;
  }
}

TEST(DhChain, AccelerationTermsMatchFiniteDifferences) {
  // J qddot + terms = second derivative of the end point along q(t) = q0 + qdot t + qddot t^2/2.
  const auto links = mixed_chain();
  const Eigen::VectorXd q = mixed_q();
  Eigen::VectorXd qd(6), qdd(6);
  qd << 0.5, -0.3, 1.2, 0.7, 0.2, -0.9;
  qdd << -0.4, 0.1, 0.3, -0.6, 0.5, 0.2;
  const double h = 1e-4;
  auto at = [&](double t) { return evaluate_chain(links, q + t * qd + 0.5 * t * t * qdd); };
  const chain_pose p0 = at(0), pp = at(h), pm = at(-h);
  for (const std::size_t m : {std::size_t{6}, std::size_t{4}}) {
    const velocity_products t = acceleration_terms(links, p0, qd, m);
    const Eigen::Vector3d a_fd =
        (point_after(pp, m) - 2 * point_after(p0, m) + point_after(pm, m)) / (h * h);
    EXPECT_LT((point_jacobian(links, p0, m) * qdd + t.linear - a_fd).norm(), 1e-6) << m;
  }
  // Angular: omega = U qdot, its derivative from vect(R' R^T) differences.
  auto omega = [&](double t) {
    const chain_pose a = at(t + 1e-6), b = at(t - 1e-6);
    const Eigen::Matrix3d rd = (a.product - b.product) / 2e-6;
    const chain_pose c = at(t);
    const Eigen::Matrix3d w = rd * c.product.transpose();
    return Eigen::Vector3d(w(2, 1), w(0, 2), w(1, 0));
  };
  const Eigen::Vector3d alpha_fd = (omega(h) - omega(-h)) / (2 * h);
  const velocity_products t = acceleration_terms(links, p0, qd, 6);
  EXPECT_LT((axis_jacobian(links, p0) * qdd + t.angular - alpha_fd).norm(), 1e-5);
}

TEST(DhChain, FiveRReferenceConfiguration) {
  // Guidance paper Example 2, Table 1 (mm, deg) at theta = (90, 180, 90, 0, 0) deg: derived
  // A = O5 = (514.3, -1016, 0), B = O6 = (660.3, -1016, 0).
  const std::vector<dh_link> links = {link(0, 0, 90), link(0, 479, 90), link(0, 0, 90),
                                      link(35.3, 1016, -90), link(146, 0, -90)};
  Eigen::VectorXd q(5);
  q << 90 * deg, 180 * deg, 90 * deg, 0, 0;
  const chain_pose pose = evaluate_chain(links, q);
  EXPECT_LT((point_after(pose, 4) - Eigen::Vector3d(514.3, -1016, 0)).norm(), 1e-9);
  EXPECT_LT((pose.end - Eigen::Vector3d(660.3, -1016, 0)).norm(), 1e-9);
}

}  // namespace
}  // namespace kinevo::analysis
