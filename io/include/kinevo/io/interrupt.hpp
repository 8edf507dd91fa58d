// One interrupt mechanism for every subcommand: SIGINT (Ctrl-C) and SIGTERM (sent by a batch
// system, by `kill`, and by mpiexec to every rank when it is itself interrupted) only raise a
// flag; long computations poll it at safe points, keep what they computed and end with exit 130.
// The island GA (ga/) agrees on the flag across MPI ranks at its synchronisation points, so every rank
// stops at the same generation and rank 0 can write a checkpoint that resumes bit-identically.
#pragma once

#include <atomic>

namespace kinevo::io {

// Installs the SIGINT and SIGTERM handlers (idempotent; call after MPI_Init, which may install
// handlers of its own). A second signal does not end the process: under mpiexec a Ctrl-C reaches
// a rank twice (from the terminal and from mpiexec), and the first must be allowed to save.
void install_interrupt_handlers();

// True once SIGINT or SIGTERM arrived (or request_interrupt() was called).
bool interrupt_requested();
// The signal number that raised the flag (SIGINT, SIGTERM), 0 for request_interrupt() or none.
int interrupt_signal();

// Raises the flag as a signal would (tests, embedding programs).
void request_interrupt();
// Lowers the flag (tests; a program that goes on after handling an interrupt).
void clear_interrupt();

// The flag itself, for ga::termination::interrupt.
const std::atomic<bool>& interrupt_flag();

}  // namespace kinevo::io
