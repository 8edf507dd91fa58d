// Compiled into every executable that links kinevo_symbolic (an INTERFACE source, see
// symbolic/CMakeLists.txt). CLN, GiNaC's number library, keeps 26 bytes from its static
// initialisation that LeakSanitizer reports as a leak in every process that loads it, which
// fails every sanitizer run (and every test under it). LeakSanitizer calls this hook for its
// default suppressions; without sanitizers nothing calls it.
// GiNaC leaks the object it is building when that object's evaluation throws while parsing
// (a pole_error for "1/0 + x": 40 bytes in its parser), an error path inside the library that
// the model-file tests and the fuzz harness take on purpose.
extern "C" const char* __lsan_default_suppressions();
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libcln.so\nleak:libginac.so\n";
}
