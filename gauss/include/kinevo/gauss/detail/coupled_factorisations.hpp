// The factorisations the GA's default path may not use: any decomposition (Cholesky, LU, QR,
// SVD, eigen-solver, Gram-Schmidt sweep) of a matrix containing the constraint rows A, e.g.
// H = M + 2 A^T W A or A M^-1 A^T, and any least-squares solve for the multipliers. Such a
// decomposition already determines the constrained acceleration, so a GA that uses one is a
// direct solver with a GA attached. Every such call in gauss/ (the exact-Hessian ablation,
// the diagnoses of rank and of inconsistent rows, the reference minimiser) is counted here, so
// that tests can assert that a default solve makes none.
#pragma once

namespace kinevo::gauss {

// Records one decomposition of a matrix containing A (thread-safe).
void note_coupled_factorisation();
// Calls so far in this process.
long long coupled_factorisations();

}  // namespace kinevo::gauss
