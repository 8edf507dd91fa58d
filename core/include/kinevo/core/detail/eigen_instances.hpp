// Eigen's dense decompositions on dynamic double matrices, instantiated once in kinevo_core
// (eigen_instances.cpp) instead of in every translation unit that uses them. The front end's
// template instantiation and the optimiser's work on these classes were most of the compile
// time of the solver files (docs/build.md: BDCSVD alone took a solver file from 81 s to 18 s
// of CPU). Build-only: the build force-includes this header (core/CMakeLists.txt); code never
// depends on it, and without it every file still compiles, only slower.
#pragma once

#include <Eigen/Dense>

extern template class Eigen::BDCSVD<Eigen::MatrixXd>;
extern template class Eigen::JacobiSVD<Eigen::MatrixXd>;
extern template class Eigen::LLT<Eigen::MatrixXd>;
extern template class Eigen::LDLT<Eigen::MatrixXd>;
extern template class Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>;
extern template class Eigen::FullPivLU<Eigen::MatrixXd>;
extern template class Eigen::PartialPivLU<Eigen::MatrixXd>;
extern template class Eigen::ColPivHouseholderQR<Eigen::MatrixXd>;
extern template class Eigen::HouseholderQR<Eigen::MatrixXd>;
extern template class Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>;

// Their solves of a plain vector or matrix (the `_solve_impl` member templates that `.solve(b)`
// evaluates through; `template class` above does not instantiate member templates). A solve
// of an expression (`.solve(-b)`) still instantiates its own; these are the common case.
#define KINEVO_EIGEN_SOLVES(prefix, decomposition)                                   \
  prefix template void decomposition::_solve_impl<Eigen::VectorXd, Eigen::VectorXd>( \
      const Eigen::VectorXd&, Eigen::VectorXd&) const;                               \
  prefix template void decomposition::_solve_impl<Eigen::MatrixXd, Eigen::MatrixXd>( \
      const Eigen::MatrixXd&, Eigen::MatrixXd&) const;
#define KINEVO_EIGEN_ALL_SOLVES(prefix)                                                \
  KINEVO_EIGEN_SOLVES(prefix, Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>) \
  KINEVO_EIGEN_SOLVES(prefix, Eigen::HouseholderQR<Eigen::MatrixXd>)                   \
  KINEVO_EIGEN_SOLVES(prefix, Eigen::ColPivHouseholderQR<Eigen::MatrixXd>)             \
  KINEVO_EIGEN_SOLVES(prefix, Eigen::FullPivLU<Eigen::MatrixXd>)                       \
  KINEVO_EIGEN_SOLVES(prefix, Eigen::LDLT<Eigen::MatrixXd>)                            \
  KINEVO_EIGEN_SOLVES(prefix, Eigen::SVDBase<Eigen::BDCSVD<Eigen::MatrixXd>>)          \
  KINEVO_EIGEN_SOLVES(prefix, Eigen::SVDBase<Eigen::JacobiSVD<Eigen::MatrixXd>>)
KINEVO_EIGEN_ALL_SOLVES(extern)
