// The path generation problem (path_problem.hpp) as a ga::problem: the island GA's genes decode
// into a design, values are the structural error and violations the constraints' (the islands
// compare by Deb's feasibility rules). Without timing, the input angles are coded so that every
// gene vector visits the points in order within one turn: a start angle, a direction and one
// weight per arc, the arcs being 2 pi w_i / (w_1 + ... + w_n) (the last weight the arc left
// over), so no order defect can be bred. The frame has no genes: each candidate is placed where
// its coupler points fit the precision points best (place_and_evaluate_path_design).
#pragma once

#include <Eigen/Core>

#include "kinevo/ga/problem.hpp"
#include "kinevo/synthesis/linkages/path_problem.hpp"

namespace kinevo::synthesis {

class path_ga_problem : public ga::problem {
 public:
  explicit path_ga_problem(path_problem p);
  int dimension() const override { return static_cast<int>(lower_.size()); }
  Eigen::VectorXd lower_bounds() const override { return lower_; }
  Eigen::VectorXd upper_bounds() const override { return upper_; }
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override;
  bool reports_violation() const override { return true; }
  void evaluate_with_violation(const Eigen::Ref<const Eigen::MatrixXd>& x,
                               Eigen::Ref<Eigen::VectorXd> values,
                               Eigen::Ref<Eigen::VectorXd> violations) const override;
  std::string name() const override { return "four-bar path synthesis"; }

  // The design the genes stand for, placed and on the better branch.
  path_design decode(const Eigen::VectorXd& genes) const;
  const path_problem& problem() const { return problem_; }
  // The genes' coding: link lengths on a logarithmic scale, coupler coordinates on an asinh
  // scale, both with the points' extent as unit, so that links and offsets of the points' size
  // are as likely as those near the bounds (bounds far wider than the points, as the published
  // cases set them, would otherwise leave the useful designs a tiny corner of the box).
  double length_gene(double r) const;
  double length_of(double gene) const;
  double coordinate_gene(double c) const;
  double coordinate_of(double gene) const;

 private:
  path_problem problem_;
  double unit_ = 1.0, smallest_ = 0.0;
  Eigen::VectorXd lower_, upper_;
};

}  // namespace kinevo::synthesis
