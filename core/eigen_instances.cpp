// The one instantiation of the decompositions declared extern in eigen_instances.hpp.
#include "kinevo/core/detail/eigen_instances.hpp"

template class Eigen::BDCSVD<Eigen::MatrixXd>;
template class Eigen::JacobiSVD<Eigen::MatrixXd>;
template class Eigen::LLT<Eigen::MatrixXd>;
template class Eigen::LDLT<Eigen::MatrixXd>;
template class Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>;
template class Eigen::FullPivLU<Eigen::MatrixXd>;
template class Eigen::PartialPivLU<Eigen::MatrixXd>;
template class Eigen::ColPivHouseholderQR<Eigen::MatrixXd>;
template class Eigen::HouseholderQR<Eigen::MatrixXd>;
template class Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>;
KINEVO_EIGEN_ALL_SOLVES()
